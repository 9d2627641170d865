// Exact population optima of one-step in-context learners, the references `iclproof compare`
// measures trained models against: the best GD step size eta* and the best preconditioner A* for
// ONE step from W0 = 0, and their expected losses, as closed forms in the moments of the data.
// Nothing is sampled.
//
// Setting (noiseless linear regression, the tasks of compare/compare.cpp and the trainer):
//   context x_1..x_N i.i.d., query x_q independent of them with the same law, w independent of
//   both with E w = 0, E w w^T = Sigma_w; labels y_i = w^T x_i, y_q = w^T x_q. With
//   C = (1/N) sum_i x_i x_i^T (= H of make_quadratic_problem) one step from W0 = 0 on
//   R(W) = (1/2N) sum (W x_i - y_i)^2 with preconditioner P gives W_1 = w^T C P, so
//       y_hat = w^T C P x_q = x_q^T B C w,   B = P^T                               (1)
//   (P = eta I: plain GD; P = A_l: Ahn Lemma 1 / the Z-form layer of compare/learned_models.hpp,
//   whose prediction Y X^T A x_q / N is (1) with P = A).
//
// Loss. All values below are the FULL mean square E (y_hat - y_q)^2; compare and the trainer
// report half of it (half_mean_square): the minimisers are the same, the minima halve.
//   E (y_hat - y_q)^2 = E (x_q^T (B C - I) w)^2
//                     = E tr((B C - I) Sigma_w (B C - I)^T Sigma_x)          (E over w, x_q)
//                     = tr(B G B^T Sigma_x) - 2 tr(B K) + c,                                (2)
//   G = E[C Sigma_w C], K = Sigma_x Sigma_w Sigma_x (E C = Sigma_x), c = tr(Sigma_w Sigma_x).
//
// Step size (B = eta I): (2) is the quadratic  a eta^2 - 2 b eta + c  with
//   a = tr(G Sigma_x), b = tr(K); for a > 0 its minimiser is eta* = b / a and its minimum
//   c - b^2 / a (proofs/PopulationOptima.v:quadratic_minimiser, quadratic_minimum).
//
// Isotropic data with independent coordinates (x ~ U(-a, a)^d or N(0, sigma^2 I)), Sigma_w = I.
//   Write s2 = E x_k^2, m4 = E x_k^4 (uniform: a^2/3, a^4/5; Gaussian: sigma^2, 3 sigma^4).
//   Sigma_x = s2 I, G = E C^2, and tr C^2 = (1/N^2) sum_{i,j} (x_i^T x_j)^2 with
//     i = j:  E ||x||^4 = sum_k E x_k^4 + sum_{k != l} E x_k^2 E x_l^2 = d m4 + d (d-1) s2^2,
//     i != j: E (x_i^T x_j)^2 = E x_i^T Sigma_x x_i = tr(Sigma_x^2) = d s2^2,
//   so E tr C^2 = (d/N) (m4 + (N + d - 2) s2^2), and
//     a = s2 E tr C^2 = (d s2 / N)(m4 + (N + d - 2) s2^2),  b = d s2^2,  c = d s2,
//     eta* = N s2 / (m4 + (N + d - 2) s2^2),  min E (y_hat - y_q)^2 = d s2 (1 - s2 eta*).
//   Uniform, a = 1 (the presets): eta* = 15 N / (5 N + 5 d - 1), minimum
//   (d/3) (5 d - 1) / (5 N + 5 d - 1); d = N = 10: eta* = 50/33, minimum 490/297 (half: 245/297).
//   Gaussian, sigma = 1: eta* = N / (N + d + 1).
//
// Gaussian data x ~ N(0, Sigma) (any Sigma_w). Isserlis: for symmetric M,
//   E[x x^T M x x^T] = 2 Sigma M Sigma + tr(M Sigma) Sigma, and E[x_i x_i^T M x_j x_j^T] =
//   Sigma M Sigma for i != j, so (N(N-1) pairs i != j, N pairs i = j, over N^2)
//     E[C M C] = ((N+1)/N) Sigma M Sigma + (1/N) tr(Sigma M) Sigma.                        (3)
//   Step size: a = ((N+1)/N) tr(Sigma Sigma_w Sigma Sigma) + (1/N) tr(Sigma_w Sigma) tr(Sigma^2),
//     b = tr(Sigma Sigma_w Sigma), c = tr(Sigma_w Sigma).
//     Sigma_w = Sigma^-1 (the anisotropic tasks of compare and the Ahn/Memformer configs):
//     eta* = N tr(Sigma) / ((N + d + 1) tr(Sigma^2)).
//   Preconditioner: (2) is a convex quadratic in B (G, Sigma positive definite); its gradient is
//     2 Sigma B G - 2 K (G and Sigma symmetric), zero at B* = Sigma_w Sigma G^-1, and the minimum
//     is c - tr(B* K) (tr(B* G B*^T Sigma) = tr(Sigma_w Sigma B*^T Sigma) = tr(B* K)).
//     Sigma_w = I:        G = ((N+1)/N) Sigma^2 + (tr Sigma / N) Sigma,
//                         B* = (((N+1)/N) Sigma + (tr Sigma / N) I)^-1 (Ahn et al. Theorem 1, up
//                         to their sign convention); in Sigma's eigenvalues lambda_k the minimum
//                         is sum_k lambda_k (lambda_k + tr Sigma) / ((N+1) lambda_k + tr Sigma).
//                         Note: B* is NOT a multiple of Sigma^-1 unless Sigma is.
//     Sigma_w = Sigma^-1: G = ((N + d + 1)/N) Sigma, B* = (N / (N + d + 1)) Sigma^-1, minimum
//                         d (d + 1) / (N + d + 1).
//   Both B* are symmetric, so A* = P* = B*^T = B*.
//
// The scalar functions need only + - * / and are exact in an exact field (the properties use
// boost::multiprecision::cpp_rational); the matrix functions use core/linalg.
#pragma once

#include "core/eigen_scalar.hpp"
#include "core/linalg.hpp"

#include <stdexcept>

namespace iclproof {

// E x_k^2 and E x_k^4 of one coordinate.
template <class T>
struct coordinate_moments {
  T second, fourth;
};

template <class T>
coordinate_moments<T> uniform_coordinate_moments(const T& a) {  // x_k ~ U(-a, a)
  const T a2 = a * a;
  return {T(a2 / T(3)), T(a2 * a2 / T(5))};
}

template <class T>
coordinate_moments<T> gaussian_coordinate_moments(const T& sigma2) {  // x_k ~ N(0, sigma2)
  return {sigma2, T(T(3) * sigma2 * sigma2)};
}

// E (y_hat - y_q)^2 = a eta^2 - 2 b eta + c as a function of the step size eta.
template <class T>
struct step_size_quadratic {
  T a, b, c;
  T loss(const T& eta) const { return T(T(a * eta * eta) - T(T(2) * b * eta) + c); }
  T minimiser() const { return T(b / a); }           // eta*, for a > 0
  T minimum() const { return T(c - T(b * b / a)); }  // the full mean square at eta*
};

// One GD step from W0 = 0, isotropic data with independent coordinates of moments m, w ~ N(0, I).
template <class T>
step_size_quadratic<T> one_step_gd_isotropic(int d, int N, const coordinate_moments<T>& m) {
  if (d < 1 || N < 1) throw std::invalid_argument("one_step_gd_isotropic: d, N must be >= 1");
  const T s2 = m.second, dd(d), nn(N);
  const T expected_trace_C2 = dd / nn * (m.fourth + T(N + d - 2) * s2 * s2);
  return {T(s2 * expected_trace_C2), T(dd * s2 * s2), T(dd * s2)};
}

// E[C M C] for C the sample second moment of N points x ~ N(0, Sigma), M symmetric: (3).
template <class T>
Mat<T> wishart_second_moment(const Mat<T>& Sigma, const Mat<T>& M, int N) {
  const T n(N);
  const Mat<T> SMS = matmul(matmul(Sigma, M), Sigma);
  return Mat<T>((T(N + 1) / n) * SMS + (matmul(Sigma, M).trace() / n) * Sigma);
}

// One GD step from W0 = 0 on x ~ N(0, Sigma), w with covariance Sigma_w.
template <class T>
step_size_quadratic<T> one_step_gd_gaussian(const Mat<T>& Sigma, const Mat<T>& Sigma_w, int N) {
  if (N < 1) throw std::invalid_argument("one_step_gd_gaussian: N must be >= 1");
  const Mat<T> G = wishart_second_moment(Sigma, Sigma_w, N);
  const Mat<T> K = matmul(matmul(Sigma, Sigma_w), Sigma);
  return {T(matmul(G, Sigma).trace()), T(K.trace()), T(matmul(Sigma_w, Sigma).trace())};
}

// The expected full mean square (2) of one preconditioned step y_hat = w^T C P x_q on
// x ~ N(0, Sigma), w with covariance Sigma_w, for any P (B = P^T).
template <class T>
T one_step_preconditioned_loss(const Mat<T>& Sigma, const Mat<T>& Sigma_w, int N, const Mat<T>& P) {
  const Mat<T> G = wishart_second_moment(Sigma, Sigma_w, N);
  const Mat<T> K = matmul(matmul(Sigma, Sigma_w), Sigma);
  const Mat<T> B = P.transpose();
  return T(matmul(matmul(matmul(B, G), P), Sigma).trace() - T(2) * matmul(B, K).trace() +
           matmul(Sigma_w, Sigma).trace());
}

template <class T>
struct preconditioner_optimum {
  Mat<T> P;  // the optimal preconditioner (A* of the Z-form layer); symmetric here
  T loss;    // its full mean square E (y_hat - y_q)^2
};

// B* = Sigma_w Sigma G^-1, G = E[C Sigma_w C]; P* = B*^T; minimum c - tr(B* K).
template <class T>
preconditioner_optimum<T> one_step_optimal_preconditioner(const Mat<T>& Sigma,
                                                          const Mat<T>& Sigma_w, int N) {
  if (N < 1) throw std::invalid_argument("one_step_optimal_preconditioner: N must be >= 1");
  const Mat<T> G = wishart_second_moment(Sigma, Sigma_w, N);
  const Mat<T> K = matmul(matmul(Sigma, Sigma_w), Sigma);
  const Mat<T> B = matmul(matmul(Sigma_w, Sigma), inverse(G));
  return {Mat<T>(B.transpose()), T(matmul(Sigma_w, Sigma).trace() - matmul(B, K).trace())};
}

// The closed forms above for the two conventions of w, written out (for tests against (B*)).
//   Sigma_w = I:        P* = N ((N+1) Sigma + tr(Sigma) I)^-1
//   Sigma_w = Sigma^-1: P* = (N / (N + d + 1)) Sigma^-1
template <class T>
Mat<T> optimal_preconditioner_w_identity(const Mat<T>& Sigma, int N) {
  const Eigen::Index d = Sigma.rows();
  return Mat<T>(T(N) * inverse(Mat<T>(T(N + 1) * Sigma + Sigma.trace() * Mat<T>::Identity(d, d))));
}
template <class T>
Mat<T> optimal_preconditioner_w_sigma_inverse(const Mat<T>& Sigma, int N) {
  const Eigen::Index d = Sigma.rows();
  return Mat<T>((T(N) / T(N + static_cast<int>(d) + 1)) * inverse(Sigma));
}

}  // namespace iclproof
