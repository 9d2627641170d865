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
// Either layer: one head, every token a key, keys from block `key`, queries from block `query`,
// values from the iterate block B, written back into B times `scale`.
template <class T>
lsa_layer<T> iterate_update_layer(Eigen::Index d, Eigen::Index key, Eigen::Index query,
                                  const T& scale, const char* what) {
  require_d(d, what);
  lsa_layer<T> l;
  l.mask = lsa_mask::all_keys;
  l.heads.push_back({selector<T>(d, key), selector<T>(d, query), selector<T>(d, 1),
                     Mat<T>(selector<T>(d, 1).transpose() * scale)});
  return l;
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

// Keys and queries from C = I, values from B = M: B <- M + M I I = 2M (the scale 1 is exact).
template <class T>
lsa_layer<T> newton_schulz_doubling_layer(Eigen::Index d) {
  return newton_schulz_detail::iterate_update_layer<T>(d, 2, 2, T(1),
                                                       "newton_schulz_doubling_layer");
}

// Keys from A = S^T, queries and values from B = 2M: B <- 2M - (1/4) (2M) S (2M) = 2M - M S M.
template <class T>
lsa_layer<T> newton_schulz_correction_layer(Eigen::Index d) {
  return newton_schulz_detail::iterate_update_layer<T>(d, 0, 1, T(-T(1) / T(4)),
                                                       "newton_schulz_correction_layer");
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
