// Error-vs-layers figure of the iterative-Newton construction (Fu et al. 2024, Sec. 5), fed to
// `iclproof report` as a plot source of the iterative_newton family (report/plot_series.hpp):
// the relative weight error ||w - w*|| / ||w*|| read off the layers (w_k = M_k X y from the
// registers after Newton layer k, at layer k + 1 of the stack; the prediction follows at layer
// k + 2) against the number of layers, with gradient descent from 0 (one layer per step, von
// Oswald et al.'s construction) and the two rates that bound them:
//   Newton: ||w* - w_k|| <= rho^(2^k) ||w*||, rho = 1 - alpha lambda_min(S)^2
//     (w* - w_k = (I - alpha S^2)^(2^k) w*, proofs/IterativeNewton.v:in_ols_error);
//   GD:     ||w* - w_k|| <= (1 - lambda_min(H)/lambda_max(H))^k ||w*||, eta = 1/lambda_max(H).
// Inputs are fixed (seed 41); axes are log10 values (the MPFR errors do not fit a double).
#include "core/linalg.hpp"
#include "iterative_newton/iterative_newton_weights.hpp"
#include "layers_vs_gd_figure.hpp"
#include "references/gradient_descent.hpp"
#include "report/plot_series.hpp"
#include "tasks/regression_task.hpp"

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

namespace {

using namespace iclproof;

constexpr int newton_steps = 16;
constexpr int d = layers_vs_gd::rows, N = 25;

const layers_vs_gd::figure_text newton_text{
    "iterative_newton.weight_error_vs_layers",
    "iterative_newton",
    "Iterative Newton in LSA layers vs gradient descent: weight error vs layers",
    "layers (Newton: set-up + k Newton layers; GD: k layers)",
    "log10 ||w - w*|| / ||w*||",
    "Newton layers",
    "Newton rate rho^(2^k)",
    "GD rate (1 - lambda_min/lambda_max)^k"};

// X = diag(1, 0.8, 0.6, 0.45, 0.3) G (G Gaussian, seed 41): cond(S) about 11; y = w X + noise
// (the query x_q is not used).
using prompt_double = layers_vs_gd::prompt;
prompt_double fixed_prompt() { return layers_vs_gd::fixed_prompt(41, N); }

template <class T>
double log10_rel(const Mat<T>& w, const Mat<T>& w_star) {
  const T num = Mat<T>(w - w_star).norm(), den = w_star.norm();
  return layers_vs_gd::log10_abs(T(num / den));
}

// log10 ||w_k - w*|| / ||w*|| after Newton layer k = 0..newton_steps (x = layers used: k + 1).
template <class T>
std::vector<plot_point> newton_points(const prompt_double& p) {
  const Mat<T> X = from_double<T>(p.X), y = from_double<T>(p.y);
  const Mat<T> S = matmul_nt(X, X), Xy = matmul_nt(X, y);
  const Mat<T> w_star = spd_solve(S, Xy);
  const T alpha = inverse_frobenius_squared_alpha<T>(S);
  const auto out = lsa_stack_forward<T>(iterative_newton_stack<T>(d, newton_steps, alpha),
                                        iterative_newton_tokens<T>(X, y, Mat<T>::Zero(d, 1)), N);
  std::vector<plot_point> pts;
  for (int k = 0; k <= newton_steps; ++k) {
    const Mat<T> w = matmul(Mat<T>(iterative_newton_iterate<T>(out[1 + k], d, N)), Xy);
    pts.push_back({double(k + 1), log10_rel<T>(w, w_star)});
  }
  return pts;
}

plot_figure newton_vs_gd_figure(const plot_request& req) {
  const auto p = fixed_prompt();
  const Vec<double> lam = symmetric_eigenvalues(Mat<double>(p.X * p.X.transpose()));
  const double lmin = lam(0), lmax = lam(d - 1);
  double frob2 = 0;
  for (int i = 0; i < d; ++i) frob2 += lam(i) * lam(i);
  const double rho = 1.0 - lmin * lmin / frob2;  // 1 - alpha lambda_min^2
  layers_vs_gd::figure_lines f(newton_text, req);
  f.figure.caption = fmt::format(
      "Fixed prompt d = {}, N = {}, cond(S) = {:.1f}, alpha = 1/||S||_F^2. Newton's error stays "
      "near 1 while rho^(2^k) does (rho = 1 - alpha lambda_min^2 = {:.5f}), then falls doubly "
      "exponentially to the rounding floor of each precision; GD (eta = 1/lambda_max(H)) falls "
      "like (1 - 1/cond(H))^k. Dashed: the rates. The error identities behind them are proved "
      "(IterativeNewton.v:in_ols_error, w* - w_k = (I - alpha S^2)^(2^k) w*; "
      "VonOswald.v:lsa_stack_neumann for GD); the norm bounds drawn from them (the residual's "
      "eigenvalues lie in [0, 1)) are hand-derived.",
      d, N, lmax / lmin, rho);
  f.construction_double.points = newton_points<double>(p);
  f.construction_mpfr.points = newton_points<mpfr_real>(p);
  {
    using T = mpfr_real;
    const Mat<T> X = from_double<T>(p.X), y = from_double<T>(p.y);
    const Mat<T> w_star = spd_solve(Mat<T>(matmul_nt(X, X)), Mat<T>(matmul_nt(X, y))).transpose();
    const T eta = T(double(N) / lmax);  // 1 / lambda_max(H), H = X X^T / N
    const auto W = gd_iterates<T>(Mat<T>::Zero(1, d), X, y, eta, newton_steps + 2);
    for (int k = 1; k <= newton_steps + 2; ++k) {
      f.gd.points.push_back({double(k), log10_rel<T>(W[k], w_star)});
      f.gd_rate.points.push_back({double(k), k * std::log10(1.0 - lmin / lmax)});
    }
  }
  for (int k = 0; k <= newton_steps; ++k)
    f.add_construction_rate(double(k + 1), std::ldexp(1.0, k) * std::log10(rho));
  return f.done();
}

const plot_source_registrar newton_figure{
    layers_vs_gd::figure_source(newton_text, &newton_vs_gd_figure)};

}  // namespace
