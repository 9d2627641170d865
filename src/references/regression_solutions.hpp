// Closed-form regression solutions (CONSTRUCTIONS.md section 6). Columns are examples:
// X is d x N, Y is o x N; every function returns the model W (o x d) predicting W x.
//   ridge:           W = Y X^T (X X^T + lambda I)^-1       (minimises ||W X - Y||_F^2 + lambda
//   ||W||_F^2;
//                    per output: w = (X X^T + lambda I)^-1 X y^T)
//   min-norm LS:     W = argmin ||W||_F over argmin ||W X - Y||_F   (W^T = (X^T)^+ Y^T), computed
//   by a
//                    complete orthogonal decomposition of X^T — never the normal equations;
//                    equals OLS when X X^T is invertible (N >= d, full rank).
//   iterated Sherman-Morrison: A_0^-1 = I / lambda, A_i^-1 = A_{i-1}^-1 - A_{i-1}^-1 x_i x_i^T
//   A_{i-1}^-1
//                    / (1 + x_i^T A_{i-1}^-1 x_i); then A_N = lambda I + X X^T and W = Y X^T
//                    A_N^-1.
//   Bayes posterior mean: prior w ~ N(0, tau^2 I), y_i = w^T x_i + N(0, sigma^2):
//                    Sigma_post = (X X^T / sigma^2 + I / tau^2)^-1, mean = Sigma_post X y^T /
//                    sigma^2, which is ridge with lambda = sigma^2 / tau^2 (a cross-checked
//                    property).
#pragma once

#include "core/linalg.hpp"

#include <stdexcept>

namespace iclproof {

template <class T>
Mat<T> ridge_closed_form(const Mat<T>& X, const Mat<T>& Y, const T& lambda) {
  if (X.cols() != Y.cols()) throw std::invalid_argument("ridge: X and Y have different N");
  if (!(lambda > T(0))) throw std::invalid_argument("ridge: lambda must be > 0");
  const Eigen::Index d = X.rows();
  const Mat<T> A = matmul_nt(X, X) + lambda * Mat<T>::Identity(d, d);
  return spd_solve(A, matmul_nt(X, Y)).transpose();
}

template <class T>
Mat<T> min_norm_least_squares(const Mat<T>& X, const Mat<T>& Y) {
  if (X.cols() != Y.cols()) throw std::invalid_argument("least squares: X and Y have different N");
  return min_norm_lstsq<T>(X.transpose(), Y.transpose()).transpose();
}

// Rate of ridge -> minimum-norm least squares, the formula of
// proofs/LeastSquares.v:ridge_tends_to_min_norm_least_squares (and of
// proofs/SingularValueCertificate.v:ridge_tends_to_min_norm_certified):
//   ||W_ridge(lambda) - W+||_F <= ridge_min_norm_rate(lambda, mu) ||W+||_F,
//   ridge_min_norm_rate = lambda / mu,
// for any mu > 0 with mu ||v||^2 <= ||v^T X||^2 on range(X) (sv_lower_bound X mu). The largest
// such mu is sigma_min(X)^2, the least NONZERO singular value squared; a mu at or below it is
// certified exactly by certified_sv_lower_bound (references/singular_value_certificate.hpp).
// The proof passes through the factor lambda / (lambda + mu)
// (LeastSquares.v:ridge_min_norm_bound2), attained with mu = sigma_min^2 when W+ lies along
// sigma_min's left singular vector, so the rate is sharp as lambda -> 0
// (tests/unit/references_test.cpp).
template <class T>
T ridge_min_norm_rate(const T& lambda, const T& mu) {
  if (!(lambda > T(0))) throw std::invalid_argument("ridge_min_norm_rate: lambda must be > 0");
  if (!(mu > T(0)))
    throw std::invalid_argument(
        "ridge_min_norm_rate: mu must be > 0 (a lower bound on sigma_min(X)^2, nonzero)");
  return lambda / mu;
}

// A_N^-1 = (lambda I + X X^T)^-1 by N rank-one updates.
template <class T>
Mat<T> sherman_morrison_inverse(const Mat<T>& X, const T& lambda) {
  if (!(lambda > T(0))) throw std::invalid_argument("Sherman-Morrison: lambda must be > 0");
  const Eigen::Index d = X.rows();
  Mat<T> Ainv = Mat<T>::Identity(d, d) / lambda;
  for (Eigen::Index i = 0; i < X.cols(); ++i) {
    const Mat<T> x = X.col(i);
    const Mat<T> u = matmul(Ainv, x);  // A^-1 x (A^-1 symmetric)
    const T denom = T(1) + x.col(0).dot(u.col(0));
    Ainv -= matmul_nt(u, u) / denom;
  }
  return Ainv;
}

template <class T>
Mat<T> iterated_sherman_morrison_ridge(const Mat<T>& X, const Mat<T>& Y, const T& lambda) {
  if (X.cols() != Y.cols())
    throw std::invalid_argument("Sherman-Morrison: X and Y have different N");
  return matmul(matmul_nt(Y, X), sherman_morrison_inverse(X, lambda));
}

template <class T>
Mat<T> bayes_posterior_mean(const Mat<T>& X, const Mat<T>& Y, const T& sigma2, const T& tau2) {
  if (!(sigma2 > T(0)) || !(tau2 > T(0)))
    throw std::invalid_argument("Bayes: variances must be > 0");
  const Eigen::Index d = X.rows();
  const Mat<T> precision = matmul_nt(X, X) / sigma2 + Mat<T>::Identity(d, d) / tau2;
  return spd_solve(precision, Mat<T>(matmul_nt(X, Y) / sigma2)).transpose();
}

}  // namespace iclproof
