// Definitions of iterative_newton/iterative_newton_weights.hpp and
// ICLPROOF_INSTANTIATE_ITERATIVE_NEWTON(T), included only by the iterative_newton_weights*.cpp
// files (one translation unit per scalar group).
#pragma once
#include "iterative_newton/iterative_newton_weights.hpp"

#include <stdexcept>
#include <string>

namespace iclproof {

namespace iterative_newton_detail {
// rows x D matrix with an identity at column offset `col` (a selector of `rows` rows of a token).
template <class T>
Mat<T> selector(Eigen::Index rows, Eigen::Index D, Eigen::Index col) {
  Mat<T> s = Mat<T>::Zero(rows, D);
  s.block(0, col, rows, rows) = Mat<T>::Identity(rows, rows);
  return s;
}
// A layer with `mask` and no heads yet, for d >= 1 (`what` names the caller in the error).
template <class T>
lsa_layer<T> empty_layer(Eigen::Index d, lsa_mask mask, const char* what) {
  if (d < 1) throw std::invalid_argument(std::string(what) + ": d = " + std::to_string(d) + " < 1");
  lsa_layer<T> l;
  l.mask = mask;
  return l;
}
}  // namespace iterative_newton_detail

template <class T>
Mat<T> iterative_newton_tokens(const Mat<T>& X, const Mat<T>& y, const Mat<T>& Xq) {
  const Eigen::Index d = X.rows(), N = X.cols(), Q = Xq.cols();
  if (d < 1 || N < 1 || y.rows() != 1 || y.cols() != N || Xq.rows() != d)
    throw std::invalid_argument(
        "iterative_newton_tokens: need X d x N, y 1 x N, Xq d x Q with "
        "d, N >= 1; got X " +
        std::to_string(d) + "x" + std::to_string(N) + ", y " + std::to_string(y.rows()) + "x" +
        std::to_string(y.cols()) + ", Xq " + std::to_string(Xq.rows()) + "x" + std::to_string(Q));
  const iterative_newton_rows r{d};
  Mat<T> E = Mat<T>::Zero(r.D(), N + d + Q);
  E.block(r.x(), 0, d, N) = X;
  E.block(r.y(), 0, 1, N) = y;
  E.block(r.C(), N, d, d) = Mat<T>::Identity(d, d);
  E.block(r.x(), N + d, d, Q) = Xq;
  return E;
}

template <class T>
lsa_layer<T> iterative_newton_setup_layer(Eigen::Index d, const T& alpha) {
  using iterative_newton_detail::selector;
  lsa_layer<T> l = iterative_newton_detail::empty_layer<T>(d, lsa_mask::context_keys,
                                                           "iterative_newton_setup_layer");
  const iterative_newton_rows r{d};
  const Eigen::Index D = r.D();
  const Mat<T> sx = selector<T>(d, D, r.x()), sC = selector<T>(d, D, r.C());
  l.heads.push_back({sx, sC, sx, Mat<T>(selector<T>(d, D, r.A()).transpose())});
  l.heads.push_back({sx, sC, sx, Mat<T>(selector<T>(d, D, r.B()).transpose() * alpha)});
  l.heads.push_back(
      {sx, sC, selector<T>(1, D, r.y()), Mat<T>(selector<T>(1, D, r.g()).transpose())});
  return l;
}

template <class T>
lsa_layer<T> iterative_newton_step_layer(Eigen::Index d) {
  using iterative_newton_detail::selector;
  lsa_layer<T> l =
      iterative_newton_detail::empty_layer<T>(d, lsa_mask::all_keys, "iterative_newton_step_layer");
  const iterative_newton_rows r{d};
  const Eigen::Index D = r.D();
  const Mat<T> sA = selector<T>(d, D, r.A()), sB = selector<T>(d, D, r.B()),
               sC = selector<T>(d, D, r.C());
  const Mat<T> eB = sB.transpose();
  l.heads.push_back({sC, sC, sB, eB});           // + M e_j
  l.heads.push_back({sA, sB, sB, Mat<T>(-eB)});  // - M S M e_j
  return l;
}

template <class T>
lsa_layer<T> iterative_newton_readout_layer(Eigen::Index d) {
  using iterative_newton_detail::selector;
  lsa_layer<T> l = iterative_newton_detail::empty_layer<T>(d, lsa_mask::all_keys,
                                                           "iterative_newton_readout_layer");
  const iterative_newton_rows r{d};
  const Eigen::Index D = r.D();
  l.heads.push_back({selector<T>(d, D, r.B()), selector<T>(d, D, r.x()), selector<T>(1, D, r.g()),
                     Mat<T>(selector<T>(1, D, r.y()).transpose())});
  return l;
}

template <class T>
lsa_stack<T> iterative_newton_stack(Eigen::Index d, int k, const T& alpha) {
  if (k < 0)
    throw std::invalid_argument("iterative_newton_stack: k = " + std::to_string(k) + " < 0");
  lsa_stack<T> s;
  s.layers.push_back(iterative_newton_setup_layer<T>(d, alpha));
  for (int j = 0; j < k; ++j) s.layers.push_back(iterative_newton_step_layer<T>(d));
  s.layers.push_back(iterative_newton_readout_layer<T>(d));
  return s;
}

template <class T>
Mat<T> iterative_newton_iterate(const Mat<T>& E, Eigen::Index d, Eigen::Index N) {
  const iterative_newton_rows r{d};
  if (E.rows() != r.D() || E.cols() < N + d)
    throw std::invalid_argument("iterative_newton_iterate: not a token matrix of this d and N");
  return E.block(r.B(), N, d, d);
}

template <class T>
Mat<T> iterative_newton_predictions(const Mat<T>& E, Eigen::Index d, Eigen::Index N) {
  const iterative_newton_rows r{d};
  if (E.rows() != r.D() || E.cols() < N + d)
    throw std::invalid_argument("iterative_newton_predictions: not a token matrix of this d, N");
  return E.block(r.y(), N + d, 1, E.cols() - N - d);
}

template <class T>
T inverse_frobenius_squared_alpha(const Mat<T>& S) {
  T f(0);
  for (Eigen::Index j = 0; j < S.cols(); ++j)
    for (Eigen::Index i = 0; i < S.rows(); ++i) f += S(i, j) * S(i, j);
  if (f == T(0)) throw std::invalid_argument("inverse_frobenius_squared_alpha: S = 0");
  return T(T(1) / f);
}

#define ICLPROOF_INSTANTIATE_ITERATIVE_NEWTON(T)                                              \
  template Mat<T> iterative_newton_tokens<T>(const Mat<T>&, const Mat<T>&, const Mat<T>&);    \
  template lsa_layer<T> iterative_newton_setup_layer<T>(Eigen::Index, const T&);              \
  template lsa_layer<T> iterative_newton_step_layer<T>(Eigen::Index);                         \
  template lsa_layer<T> iterative_newton_readout_layer<T>(Eigen::Index);                      \
  template lsa_stack<T> iterative_newton_stack<T>(Eigen::Index, int, const T&);               \
  template Mat<T> iterative_newton_iterate<T>(const Mat<T>&, Eigen::Index, Eigen::Index);     \
  template Mat<T> iterative_newton_predictions<T>(const Mat<T>&, Eigen::Index, Eigen::Index); \
  template T inverse_frobenius_squared_alpha<T>(const Mat<T>&);

}  // namespace iclproof
