// Definitions of newton_schulz/newton_schulz_weights.hpp and ICLPROOF_INSTANTIATE_NEWTON_SCHULZ(T),
// included only by the newton_schulz_weights*.cpp files (one translation unit per scalar group).
#pragma once
#include "newton_schulz/newton_schulz_weights.hpp"

#include "core/kernels.hpp"

#include <stdexcept>
#include <string>

namespace iclproof {

namespace newton_schulz_detail {
// The d x 3d selector of block `block` (0 = A, 1 = B, 2 = C).
template <class T>
Mat<T> selector(Eigen::Index d, Eigen::Index block) {
  Mat<T> s = Mat<T>::Zero(d, 3 * d);
  s.block(0, block * d, d, d) = Mat<T>::Identity(d, d);
  return s;
}
inline void require_d(Eigen::Index d, const char* what) {
  if (d < 1) throw std::invalid_argument(std::string(what) + ": d = " + std::to_string(d) + " < 1");
}
}  // namespace newton_schulz_detail

template <class T>
Mat<T> newton_schulz_tokens(const Mat<T>& S, const Mat<T>& M) {
  const Eigen::Index d = S.rows();
  if (d < 1 || S.cols() != d || M.rows() != d || M.cols() != d)
    throw std::invalid_argument("newton_schulz_tokens: S and M must be d x d with d >= 1, got S " +
                                std::to_string(S.rows()) + "x" + std::to_string(S.cols()) + ", M " +
                                std::to_string(M.rows()) + "x" + std::to_string(M.cols()));
  Mat<T> E(3 * d, d);
  E.topRows(d) = S.transpose();
  E.middleRows(d, d) = M;
  E.bottomRows(d) = Mat<T>::Identity(d, d);
  return E;
}

template <class T>
Mat<T> newton_schulz_iterate(const Mat<T>& E) {
  const Eigen::Index d = E.cols();
  if (E.rows() != 3 * d)
    throw std::invalid_argument("newton_schulz_iterate: a token matrix of d columns has 3d rows");
  return E.middleRows(d, d);
}

template <class T>
lsa_layer<T> newton_schulz_doubling_layer(Eigen::Index d) {
  using namespace newton_schulz_detail;
  require_d(d, "newton_schulz_doubling_layer");
  lsa_layer<T> l;
  l.mask = lsa_mask::all_keys;
  l.heads.push_back({selector<T>(d, 2), selector<T>(d, 2), selector<T>(d, 1),
                     Mat<T>(selector<T>(d, 1).transpose())});
  return l;
}

template <class T>
lsa_layer<T> newton_schulz_correction_layer(Eigen::Index d) {
  using namespace newton_schulz_detail;
  require_d(d, "newton_schulz_correction_layer");
  lsa_layer<T> l;
  l.mask = lsa_mask::all_keys;
  l.heads.push_back({selector<T>(d, 0), selector<T>(d, 1), selector<T>(d, 1),
                     Mat<T>(selector<T>(d, 1).transpose() * T(-T(1) / T(4)))});
  return l;
}

template <class T>
lsa_stack<T> newton_schulz_stack(Eigen::Index d, int k) {
  if (k < 0)
    throw std::invalid_argument("newton_schulz_stack: k = " + std::to_string(k) + " < 0 steps");
  lsa_stack<T> s;
  for (int j = 0; j < k; ++j) {
    s.layers.push_back(newton_schulz_doubling_layer<T>(d));
    s.layers.push_back(newton_schulz_correction_layer<T>(d));
  }
  return s;
}

template <class T>
Mat<T> newton_schulz_step(const Mat<T>& S, const Mat<T>& M) {
  return Mat<T>(M * T(2) - matmul(Mat<T>(matmul(M, S)), M));
}

template <class T>
std::vector<Mat<T>> newton_schulz_iterates(const Mat<T>& S, const Mat<T>& M0, int k) {
  std::vector<Mat<T>> out{M0};
  for (int j = 0; j < k; ++j) out.push_back(newton_schulz_step<T>(S, out.back()));
  return out;
}

#define ICLPROOF_INSTANTIATE_NEWTON_SCHULZ(T)                            \
  template Mat<T> newton_schulz_tokens<T>(const Mat<T>&, const Mat<T>&); \
  template Mat<T> newton_schulz_iterate<T>(const Mat<T>&);               \
  template lsa_layer<T> newton_schulz_doubling_layer<T>(Eigen::Index);   \
  template lsa_layer<T> newton_schulz_correction_layer<T>(Eigen::Index); \
  template lsa_stack<T> newton_schulz_stack<T>(Eigen::Index, int);       \
  template Mat<T> newton_schulz_step<T>(const Mat<T>&, const Mat<T>&);   \
  template std::vector<Mat<T>> newton_schulz_iterates<T>(const Mat<T>&, const Mat<T>&, int);

}  // namespace iclproof
