// A construction that is not in iclproof: one linear self-attention layer that takes one step of
// gradient descent with a diagonal preconditioner, and the check that it does.
//
// Weights (tokens e_j = (x_j; y_j), d + o rows; iclproof's generic layer lsa/lsa_layer.hpp):
//   W_K = [[diag(p), 0], [0, 0]],  W_Q = [[I_d, 0], [0, 0]],
//   W_V = [[0, 0], [W0, -I_o]],    P = (eta / N) I_{d+o},   masked (keys = the N context tokens).
// This is von Oswald et al. 2023, Proposition 1 with W_K's x-block I_d replaced by diag(p). The
// update of token j is (eta/N) sum_i (W0 x_i - y_i) x_i^T diag(p) x_j = eta grad L(W0) diag(p) x_j
// on its y-part (none on its x-part), so a query started at y_q = -W0 x_q reads out
//   -(new y_q) = (W0 - grad L(W0) (eta diag(p))) x_q,
// the prediction of one preconditioned GD step with preconditioner eta diag(p)
// (references/gradient_descent.hpp: preconditioned_gd_iterates; Ahn et al. 2023, Lemma 1's form
// W' = W - grad L(W) A).
#pragma once

#include <iclproof.hpp>
#include <lsa/vonoswald_weights.hpp>
#include <references/gradient_descent.hpp>

#include <rapidcheck.h>

#include <string>
#include <vector>

namespace diagpgd {

using iclproof::Mat;

// The construction above; p is d x 1.
template <class T>
iclproof::lsa_layer<T> diagonal_preconditioned_weights(Eigen::Index d, Eigen::Index o,
                                                       Eigen::Index N, const T& eta,
                                                       const Mat<T>& p, const Mat<T>& W0) {
  const Eigen::Index D = d + o;
  iclproof::lsa_head<T> h;
  h.W_Q = Mat<T>::Zero(d, D);
  h.W_Q.leftCols(d) = Mat<T>::Identity(d, d);
  h.W_K = Mat<T>::Zero(d, D);
  h.W_K.leftCols(d) = p.col(0).asDiagonal();
  h.W_V = Mat<T>::Zero(D, D);
  h.W_V.bottomLeftCorner(o, d) = W0;
  h.W_V.bottomRightCorner(o, o) = -Mat<T>::Identity(o, o);
  h.P = Mat<T>::Identity(D, D) * T(eta / T(N));
  return iclproof::lsa_layer<T>{{h}, iclproof::lsa_mask::context_keys};
}

// The check, with the construction under test as a parameter (a mutation test passes a broken
// one). Exact, no tolerance: the inputs are integers in [-2, 2], N in {1, 2, 4}, eta in {1, 1/2},
// p_k in {1/2, 2}, d <= 3, o = 1. Every intermediate value of both sides is then a multiple of
// 2^-4 of magnitude below 2^13 (A = sum_i v_i k_i^T <= 4 * 14 * 4; P A W_Q E <= 2^11; the
// gradient step W1 x_q <= 4044), i.e. needs at most 17 significant bits, and every scalar iclproof
// runs has at least 53: both sides are computed without rounding and must be equal.
template <class T, class Construction>
void check_layer_is_preconditioned_gd_step(iclproof::case_context& ctx,
                                           const Construction& construction) {
  const int d = *rc::gen::inRange(1, 4);
  const int o = 1;
  const int N = 1 << *rc::gen::inRange(0, 3);
  const int Q = *rc::gen::inRange(1, 3);
  const T eta = *rc::gen::element(1, 2) == 1 ? T(1) : T(1) / T(2);
  const auto integers = [](int rows, int cols) {
    Mat<T> m(rows, cols);
    for (int j = 0; j < cols; ++j)
      for (int i = 0; i < rows; ++i) m(i, j) = T(*rc::gen::inRange(-2, 3));
    return m;
  };
  Mat<T> p(d, 1);
  for (int k = 0; k < d; ++k) p(k, 0) = *rc::gen::element(0, 1) == 0 ? T(1) / T(2) : T(2);
  const Mat<T> X = integers(d, N), Y = integers(o, N), Xq = integers(d, Q), W0 = integers(o, d);
  ctx.note("sizes", "d = " + std::to_string(d) + ", N = " + std::to_string(N) +
                        ", Q = " + std::to_string(Q));
  ctx.note("eta", iclproof::full_digits(eta));
  ctx.note("p", iclproof::case_context::matrix_full_digits<T>(p.transpose()));
  ctx.note("X", iclproof::case_context::matrix_full_digits(X));
  ctx.note("Y", iclproof::case_context::matrix_full_digits(Y));
  ctx.note("Xq", iclproof::case_context::matrix_full_digits(Xq));
  ctx.note("W0", iclproof::case_context::matrix_full_digits(W0));

  const iclproof::lsa_layer<T> layer = construction(d, o, N, eta, p, W0);
  const Mat<T> E = iclproof::regression_tokens<T>(X, Y, Xq, iclproof::prop1_query_init(W0, Xq));
  const Mat<T> prediction =
      iclproof::lsa_query_prediction<T>(iclproof::lsa_layer_forward(layer, E, N), d, N);
  const Mat<T> preconditioner = Mat<T>(p.col(0).asDiagonal()) * eta;
  const Mat<T> W1 = iclproof::preconditioned_gd_iterates<T>(W0, X, Y, {preconditioner}).back();
  ctx.compare<T>("layer prediction = (W0 - grad L(W0) eta diag(p)) x_q (exact)", prediction,
                 iclproof::matmul(W1, Xq), T(0));
}

}  // namespace diagpgd
