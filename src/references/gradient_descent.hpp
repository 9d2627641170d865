// Gradient descent on the in-context least-squares loss and its preconditioned variants.
//
// Convention (CONSTRUCTIONS.md sections 1-3): columns are examples, X is d x N, Y is o x N,
// the model is W (o x d) and predicts W x.
//   L(W)      = 1/(2N) sum_i ||W x_i - y_i||^2
//   grad L(W) = (1/N) (W X - Y) X^T                              (o x d)
//   GD step:    W' = W - eta grad L(W)
//   PGD step:   W' = W - grad L(W) P   (for o = 1, with w = W^T: w' = w - P^T grad R(w); Ahn et
//               al.'s Lemma 1 preconditioner A_l enters as P = A_l)
// K steps from W = 0 have the closed form (the Neumann series of section 1):
//   W_K = eta (Y X^T / N) sum_{k<K} (I - eta H)^k,   H = X X^T / N.
#pragma once

#include "core/linalg.hpp"

#include <stdexcept>
#include <vector>

namespace iclproof {

template <class T>
Mat<T> least_squares_gradient(const Mat<T>& W, const Mat<T>& X, const Mat<T>& Y) {
  if (W.cols() != X.rows() || W.rows() != Y.rows() || X.cols() != Y.cols())
    throw std::invalid_argument("least_squares_gradient: dimensions differ");
  const Mat<T> residual = matmul(W, X) - Y;  // o x N
  return matmul_nt(residual, X) / T(X.cols());
}

template <class T>
T least_squares_loss(const Mat<T>& W, const Mat<T>& X, const Mat<T>& Y) {
  const Mat<T> residual = matmul(W, X) - Y;
  return residual.squaredNorm() / (T(2) * T(X.cols()));
}

template <class T>
Mat<T> gd_step(const Mat<T>& W, const Mat<T>& X, const Mat<T>& Y, const T& eta) {
  return W - eta * least_squares_gradient(W, X, Y);
}

// W_0 = W0, ..., W_K (K + 1 matrices).
template <class T>
std::vector<Mat<T>> gd_iterates(const Mat<T>& W0, const Mat<T>& X, const Mat<T>& Y, const T& eta,
                                int K) {
  std::vector<Mat<T>> out{W0};
  for (int k = 0; k < K; ++k) out.push_back(gd_step(out.back(), X, Y, eta));
  return out;
}

// The Neumann-series closed form of K GD steps from W = 0, computed without the recursion.
template <class T>
Mat<T> gd_neumann_closed_form(const Mat<T>& X, const Mat<T>& Y, const T& eta, int K) {
  const Eigen::Index d = X.rows();
  const T n = T(X.cols());
  const Mat<T> H = matmul_nt(X, X) / n;
  const Mat<T> M = Mat<T>::Identity(d, d) - eta * H;
  Mat<T> power = Mat<T>::Identity(d, d), sum = Mat<T>::Zero(d, d);
  for (int k = 0; k < K; ++k) {
    sum += power;
    power = matmul(power, M);
  }
  return eta * matmul(matmul_nt(Y, X) / n, sum);
}

// Preconditioned GD with one preconditioner per step: W_{l+1} = W_l - grad L(W_l) P_l.
template <class T>
std::vector<Mat<T>> preconditioned_gd_iterates(const Mat<T>& W0, const Mat<T>& X, const Mat<T>& Y,
                                               const std::vector<Mat<T>>& P) {
  std::vector<Mat<T>> out{W0};
  for (const auto& Pl : P) {
    if (Pl.rows() != X.rows() || Pl.cols() != X.rows())
      throw std::invalid_argument("preconditioned_gd_iterates: preconditioner must be d x d");
    out.push_back(out.back() - matmul(least_squares_gradient(out.back(), X, Y), Pl));
  }
  return out;
}

// GD++ (von Oswald et al. A.10) in its preconditioned-GD form (CONSTRUCTIONS.md section 2):
//   S_0 = I, X_l = S_l X, S_{l+1} = (I - gamma_l X_l X_l^T) S_l,
//   W_{l+1} = W_l - eta_l grad L(W_l) S_l^2        (W_0 = 0; for o = 1: w' = w - eta S^2 grad)
// Returns W_0..W_L. (The curvature correction has no 1/N: x <- (I - gamma X X^T) x.)
template <class T>
std::vector<Mat<T>> gdpp_preconditioned_iterates(const Mat<T>& X, const Mat<T>& Y,
                                                 const std::vector<T>& eta,
                                                 const std::vector<T>& gamma) {
  if (eta.size() != gamma.size()) throw std::invalid_argument("gdpp: eta and gamma lengths differ");
  const Eigen::Index d = X.rows();
  Mat<T> S = Mat<T>::Identity(d, d);
  std::vector<Mat<T>> out{Mat<T>::Zero(Y.rows(), d)};
  for (std::size_t l = 0; l < eta.size(); ++l) {
    const Mat<T> S2 = matmul(S, S);
    out.push_back(out.back() - eta[l] * matmul(least_squares_gradient(out.back(), X, Y), S2));
    const Mat<T> Xl = matmul(S, X);
    S = matmul(Mat<T>(Mat<T>::Identity(d, d) - gamma[l] * matmul_nt(Xl, Xl)), S);
  }
  return out;
}

}  // namespace iclproof
