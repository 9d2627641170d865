// Gradient descent on ridge regression and proximal gradient descent (ISTA) on the Lasso, in the
// normalization of Bai et al. 2023 ("Transformers as Statisticians", arXiv 2306.04637, (ICRidge),
// (ICLasso), (ICGD), (ICPGD); docs/constructions/bai.md). Plain closed-form recursions, the
// references the bai family checks its transformers against.
//
// Convention (as gradient_descent.hpp): columns are examples, X is d x N, y is 1 x N, w is a d x 1
// column. With H = X X^T / N and b = X y^T / N:
//   ridge loss   L(w) = 1/(2N) sum_i (<w, x_i> - y_i)^2 + (lambda/2) ||w||^2,
//                grad L(w) = H w - b + lambda w, minimiser w_ridge = (H + lambda I)^-1 b
//                (ridge_closed_form of regression_solutions.hpp with its lambda = N lambda);
//   GD           w_{t+1} = w_t - eta grad L(w_t);
//   Lasso loss   L(w) = 1/(2N) sum_i (<w, x_i> - y_i)^2 + lambda ||w||_1;
//   ISTA         w_{t+1} = S_{eta lambda}(w_t - eta (H w_t - b)),
//   soft threshold S_theta(x) = sign(x) max(|x| - theta, 0) entrywise (the prox of
//                theta ||.||_1; proofs/BaiRelu.v:soft_threshold_two_relus).
// Every operation is +, -, x and comparisons: exact in rationals.
#pragma once

#include "core/interval.hpp"
#include "core/linalg.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace iclproof {

// S_theta(x) = x - theta (x > theta), x + theta (x < -theta), 0 otherwise (theta >= 0). The
// branches are the definition; on intervals use the two-ReLU form (a branch on an interval
// straddling theta is ambiguous: core/interval.hpp).
template <class T>
T soft_threshold(const T& x, const T& theta) {
  if (theta < T(0)) throw std::invalid_argument("soft_threshold: theta < 0");
  if (x > theta) return T(x - theta);
  if (x < T(-theta)) return T(x + theta);
  return T(0);
}

template <class T>
Mat<T> soft_threshold(const Mat<T>& x, const T& theta) {
  Mat<T> out(x.rows(), x.cols());
  for (Eigen::Index j = 0; j < x.cols(); ++j)
    for (Eigen::Index i = 0; i < x.rows(); ++i) out(i, j) = soft_threshold(T(x(i, j)), theta);
  return out;
}

namespace proximal_gradient_detail {
template <class T>
void check_shapes(const char* who, const Mat<T>& X, const Mat<T>& y, const Mat<T>& w0) {
  if (y.rows() != 1 || y.cols() != X.cols() || w0.rows() != X.rows() || w0.cols() != 1)
    throw std::invalid_argument(std::string(who) + ": need X d x N, y 1 x N, w0 d x 1 (got X " +
                                std::to_string(X.rows()) + "x" + std::to_string(X.cols()) + ", y " +
                                std::to_string(y.rows()) + "x" + std::to_string(y.cols()) +
                                ", w0 " + std::to_string(w0.rows()) + "x" +
                                std::to_string(w0.cols()) + ")");
}
}  // namespace proximal_gradient_detail

// grad of the square-loss part, (1/N) X (X^T w - y^T) (d x 1).
template <class T>
Mat<T> square_loss_gradient(const Mat<T>& w, const Mat<T>& X, const Mat<T>& y) {
  const Mat<T> residual = Mat<T>(matmul_tn(X, w)) - Mat<T>(y.transpose());  // N x 1
  return Mat<T>(matmul(X, residual) / T(X.cols()));
}

// w_0, ..., w_K of GD on the ridge loss (K + 1 columns).
template <class T>
std::vector<Mat<T>> ridge_gd_iterates(const Mat<T>& X, const Mat<T>& y, const Mat<T>& w0,
                                      const T& eta, const T& lambda, int K) {
  proximal_gradient_detail::check_shapes("ridge_gd_iterates", X, y, w0);
  std::vector<Mat<T>> out{w0};
  for (int k = 0; k < K; ++k) {
    const Mat<T>& w = out.back();
    out.push_back(Mat<T>(w - (square_loss_gradient(w, X, y) + w * lambda) * eta));
  }
  return out;
}

// w_0, ..., w_K of ISTA on the Lasso loss.
template <class T>
std::vector<Mat<T>> ista_iterates(const Mat<T>& X, const Mat<T>& y, const Mat<T>& w0, const T& eta,
                                  const T& lambda, int K) {
  proximal_gradient_detail::check_shapes("ista_iterates", X, y, w0);
  std::vector<Mat<T>> out{w0};
  const T theta = eta * lambda;
  for (int k = 0; k < K; ++k) {
    const Mat<T>& w = out.back();
    out.push_back(soft_threshold(Mat<T>(w - square_loss_gradient(w, X, y) * eta), theta));
  }
  return out;
}

// The ridge minimiser (H + lambda I)^-1 b (d x 1), lambda > 0 or H invertible.
template <class T>
Mat<T> bai_ridge_solution(const Mat<T>& X, const Mat<T>& y, const T& lambda) {
  const T n(X.cols());
  Mat<T> A = Mat<T>(matmul_nt(X, X) / n);
  for (Eigen::Index i = 0; i < A.rows(); ++i) A(i, i) += lambda;
  return spd_solve(A, Mat<T>(matmul_nt(X, y) / n));
}

// The Lasso loss value.
template <class T>
T lasso_loss(const Mat<T>& w, const Mat<T>& X, const Mat<T>& y, const T& lambda) {
  const Mat<T> residual = Mat<T>(matmul_tn(X, w)) - Mat<T>(y.transpose());
  T s(0);
  for (Eigen::Index i = 0; i < residual.rows(); ++i) s += residual(i, 0) * residual(i, 0);
  T l1(0);
  for (Eigen::Index i = 0; i < w.rows(); ++i) l1 += abs_of(T(w(i, 0)));
  return s / (T(2) * T(X.cols())) + lambda * l1;
}

}  // namespace iclproof
