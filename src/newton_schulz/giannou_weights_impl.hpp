// Definitions of newton_schulz/giannou_weights.hpp and ICLPROOF_INSTANTIATE_GIANNOU(T), included
// only by the newton_schulz_weights*.cpp files (one translation unit per scalar group).
#pragma once
#include "lsa/block_selectors.hpp"
#include "newton_schulz/giannou_weights.hpp"

#include <stdexcept>
#include <string>

namespace iclproof {

namespace giannou_detail {
using block_selectors::require_d;
using block_selectors::selector;
// Lemma 4.1's blocks: X = 0, A = 1, C = 2, Z = 3 (d rows each, D = 4d).
template <class T>
Mat<T> block(Eigen::Index d, Eigen::Index b) {
  return selector<T>(d, 4 * d, b * d);
}
template <class T>
lsa_head<T> head(const Mat<T>& V, const Mat<T>& K, const Mat<T>& Q, const Mat<T>& P) {
  return {K, Q, V, P};  // lsa_head's order: W_K, W_Q, W_V, P
}
}  // namespace giannou_detail

template <class T>
Mat<T> giannou_lemma41_tokens(const Mat<T>& A, const Mat<T>& X0) {
  const Eigen::Index d = A.rows();
  if (d < 1 || A.cols() != d || X0.rows() != d || X0.cols() != d)
    throw std::invalid_argument(
        "giannou_lemma41_tokens: A and X0 must be d x d with d >= 1, got A " +
        std::to_string(A.rows()) + "x" + std::to_string(A.cols()) + ", X0 " +
        std::to_string(X0.rows()) + "x" + std::to_string(X0.cols()));
  Mat<T> E = Mat<T>::Zero(4 * d, d);
  E.topRows(d) = X0;
  E.middleRows(d, d) = A;
  E.middleRows(2 * d, d) = Mat<T>::Identity(d, d);
  return E;
}

template <class T>
Mat<T> giannou_lemma41_iterate(const Mat<T>& E) {
  const Eigen::Index d = E.cols();
  if (E.rows() != 4 * d)
    throw std::invalid_argument("giannou_lemma41_iterate: a token matrix of d columns has 4d rows");
  return E.topRows(d);
}

template <class T>
Mat<T> giannou_lemma41_scratch(const Mat<T>& E) {
  const Eigen::Index d = E.cols();
  if (E.rows() != 4 * d)
    throw std::invalid_argument("giannou_lemma41_scratch: a token matrix of d columns has 4d rows");
  return E.bottomRows(d);
}

template <class T>
lsa_stack<T> giannou_lemma41_step(Eigen::Index d) {
  using giannou_detail::block;
  using giannou_detail::head;
  giannou_detail::require_d(d, "giannou_lemma41_step");
  const Mat<T> sX = block<T>(d, 0), sA = block<T>(d, 1), sC = block<T>(d, 2), sZ = block<T>(d, 3);
  const Mat<T> eX = sX.transpose(), eZ = sZ.transpose();
  lsa_stack<T> s;
  lsa_layer<T> first;
  first.mask = lsa_mask::all_keys;
  first.heads.push_back(head<T>(sC, sA, sC, eZ));  // Z += A^T
  first.heads.push_back(head<T>(sX, sC, sC, eX));  // X += X
  lsa_layer<T> second;
  second.mask = lsa_mask::all_keys;
  second.heads.push_back(head<T>(sX, sZ, sX, Mat<T>(eX * T(-T(1) / T(4)))));  // X -= X A X
  second.heads.push_back(head<T>(sC, sA, sC, Mat<T>(-eZ)));                   // Z -= A^T
  s.layers.push_back(first);
  s.layers.push_back(second);
  return s;
}

template <class T>
lsa_stack<T> giannou_lemma41_stack(Eigen::Index d, int k) {
  if (k < 0)
    throw std::invalid_argument("giannou_lemma41_stack: k = " + std::to_string(k) + " < 0 steps");
  giannou_detail::require_d(d, "giannou_lemma41_stack");
  lsa_stack<T> s;
  const lsa_stack<T> one = giannou_lemma41_step<T>(d);
  for (int j = 0; j < k; ++j)
    for (const auto& l : one.layers) s.layers.push_back(l);
  return s;
}

template <class T>
lsa_layer<T> giannou_symmetric_layer(Eigen::Index d) {
  using giannou_detail::block;
  using giannou_detail::head;
  giannou_detail::require_d(d, "giannou_symmetric_layer");
  const Mat<T> sX = block<T>(d, 0), sA = block<T>(d, 1), sC = block<T>(d, 2);
  const Mat<T> eX = sX.transpose();
  lsa_layer<T> l;
  l.mask = lsa_mask::all_keys;
  l.heads.push_back(head<T>(sX, sC, sC, eX));           // X += X
  l.heads.push_back(head<T>(sX, sA, sX, Mat<T>(-eX)));  // X -= X A^T X
  return l;
}

template <class T>
Mat<T> giannou_regression_tokens(const Mat<T>& At, const Mat<T>& y, const Mat<T>& Aq) {
  const Eigen::Index d = At.rows(), n = At.cols(), Q = Aq.cols();
  if (d < 1 || n < 1 || y.rows() != 1 || y.cols() != n || Aq.rows() != d)
    throw std::invalid_argument(
        "giannou_regression_tokens: need A^T d x n, y 1 x n, queries d x Q with d, n >= 1; got "
        "A^T " +
        std::to_string(d) + "x" + std::to_string(n) + ", y " + std::to_string(y.rows()) + "x" +
        std::to_string(y.cols()) + ", queries " + std::to_string(Aq.rows()) + "x" +
        std::to_string(Q));
  const giannou_regression_rows r{d};
  Mat<T> E = Mat<T>::Zero(r.D(), n + d + Q);
  E.block(r.a(), 0, d, n) = At;
  E.block(r.y(), 0, 1, n) = y;
  E.block(r.C(), n, d, d) = Mat<T>::Identity(d, d);
  E.block(r.a(), n + d, d, Q) = Aq;
  return E;
}

template <class T>
lsa_stack<T> giannou_regression_stack(Eigen::Index d, int T_steps, const T& eps) {
  using giannou_detail::head;
  using giannou_detail::selector;
  giannou_detail::require_d(d, "giannou_regression_stack");
  if (T_steps < 0)
    throw std::invalid_argument("giannou_regression_stack: T = " + std::to_string(T_steps) +
                                " < 0 steps");
  const giannou_regression_rows r{d};
  const Eigen::Index D = r.D();
  const Mat<T> sa = selector<T>(d, D, r.a()), sC = selector<T>(d, D, r.C()),
               sR = selector<T>(d, D, r.R()), sX = selector<T>(d, D, r.X()),
               sy = selector<T>(1, D, r.y());
  const Mat<T> eR = sR.transpose(), eX = sX.transpose(), ep = selector<T>(1, D, r.p()).transpose();
  lsa_stack<T> s;
  lsa_layer<T> init;  // R += A^T A e_j, X += eps A^T A e_j on register j
  init.mask = lsa_mask::context_keys;
  init.heads.push_back(head<T>(sa, sa, sC, eR));
  init.heads.push_back(head<T>(sa, sa, sC, Mat<T>(eX * eps)));
  s.layers.push_back(init);
  lsa_layer<T> newton;  // X <- 2X - X R X on the registers
  newton.mask = lsa_mask::all_keys;
  newton.heads.push_back(head<T>(sX, sC, sC, eX));
  newton.heads.push_back(head<T>(sX, sR, sX, Mat<T>(-eX)));
  for (int t = 0; t < T_steps; ++t) s.layers.push_back(newton);
  lsa_layer<T> apply;  // X += X_T a on every token with an a block
  apply.mask = lsa_mask::all_keys;
  apply.heads.push_back(head<T>(sX, sC, sa, eX));
  s.layers.push_back(apply);
  lsa_layer<T> read;  // p += sum_i y_i (X_T a_i)^T a
  read.mask = lsa_mask::context_keys;
  read.heads.push_back(head<T>(sy, sX, sa, ep));
  s.layers.push_back(read);
  return s;
}

template <class T>
Mat<T> giannou_regression_iterate(const Mat<T>& E, Eigen::Index d, Eigen::Index n) {
  const giannou_regression_rows r{d};
  if (E.rows() != r.D() || E.cols() < n + d)
    throw std::invalid_argument("giannou_regression_iterate: not a token matrix of this d and n");
  return E.block(r.X(), n, d, d);
}

template <class T>
Mat<T> giannou_regression_predictions(const Mat<T>& E, Eigen::Index d, Eigen::Index n) {
  const giannou_regression_rows r{d};
  if (E.rows() != r.D() || E.cols() < n + d)
    throw std::invalid_argument(
        "giannou_regression_predictions: not a token matrix of this d and n");
  return E.block(r.p(), n + d, 1, E.cols() - n - d);
}

#define ICLPROOF_INSTANTIATE_GIANNOU(T)                                                      \
  template Mat<T> giannou_lemma41_tokens<T>(const Mat<T>&, const Mat<T>&);                   \
  template Mat<T> giannou_lemma41_iterate<T>(const Mat<T>&);                                 \
  template Mat<T> giannou_lemma41_scratch<T>(const Mat<T>&);                                 \
  template lsa_stack<T> giannou_lemma41_step<T>(Eigen::Index);                               \
  template lsa_stack<T> giannou_lemma41_stack<T>(Eigen::Index, int);                         \
  template lsa_layer<T> giannou_symmetric_layer<T>(Eigen::Index);                            \
  template Mat<T> giannou_regression_tokens<T>(const Mat<T>&, const Mat<T>&, const Mat<T>&); \
  template lsa_stack<T> giannou_regression_stack<T>(Eigen::Index, int, const T&);            \
  template Mat<T> giannou_regression_iterate<T>(const Mat<T>&, Eigen::Index, Eigen::Index);  \
  template Mat<T> giannou_regression_predictions<T>(const Mat<T>&, Eigen::Index, Eigen::Index);

}  // namespace iclproof
