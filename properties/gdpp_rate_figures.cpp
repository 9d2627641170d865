// Error-vs-layers figure of the GD++ rate construction (Vladymyrov et al. 2024, Theorem 5.1,
// Lemmas A.2-A.3), fed to `iclproof report` as a plot source of the gdpp_rate family
// (report/plot_series.hpp): on one fixed prompt, the construction's prediction error against the
// least-squares prediction, |y_hat_L - x_q^T w*| / (||w*|| ||x_q||), for L = K + 1 layers (K
// preconditioning layers, then the GD layer), against gradient descent from 0 (one layer per
// step, von Oswald et al.'s construction, eta = 1/lambda_max(H)), and the two rates:
//   GD++: (kappa_K - 1) sqrt(kappa_0 kappa_K), Lemma A.2 in the transformed coordinates
//     (docs/constructions/gdpp_rate.md claim 4; kappa_{l+1} = 4 kappa_l^3 / (3 kappa_l - 1)^2,
//     proofs/GdppRate.v), doubly exponential once kappa_l < 1.1;
//   GD: (1 - 1/kappa(H))^k.
// The schedule uses the prompt's spectrum widened by a relative 1e-12 on both sides (its
// eigenvalues are computed in double), so that [mu, nu] contains it; axes are log10 values.
#include "core/linalg.hpp"
#include "gdpp_rate/gdpp_rate.hpp"
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
using layers_vs_gd::log10_abs;

constexpr int max_layers = 12;
constexpr int d = layers_vs_gd::rows, N = 25;

const layers_vs_gd::figure_text gdpp_text{
    "gdpp_rate.prediction_error_vs_layers",
    "gdpp_rate",
    "GD++ rate construction vs gradient descent: prediction error vs layers",
    "layers (GD++: K preconditioning layers + 1 GD layer; GD: one step per layer)",
    "log10 |y_hat - x_q^T w*| / (||w*|| ||x_q||)",
    "GD++ construction",
    "GD++ rate (kappa_K - 1) sqrt(kappa_0 kappa_K)",
    "GD rate (1 - 1/kappa)^k"};

// X = diag(1, 0.8, 0.6, 0.45, 0.3) G (G Gaussian, seed 43): cond(X X^T) about 11; y = w X + noise.
using prompt_double = layers_vs_gd::prompt;
prompt_double fixed_prompt() { return layers_vs_gd::fixed_prompt(43, N); }

// log10 of the relative prediction error after L = 1..max_layers layers of the construction.
template <class T>
std::vector<plot_point> construction_points(const prompt_double& p, double mu, double nu) {
  const Mat<T> X = from_double<T>(p.X), y = from_double<T>(p.y), xq = from_double<T>(p.xq);
  const Mat<T> w_star = spd_solve(Mat<T>(matmul_nt(X, X)), Mat<T>(matmul_nt(X, y)));  // d x 1
  const T target = matmul(Mat<T>(w_star.transpose()), xq)(0, 0);
  const T scale = T(w_star.norm() * xq.norm());
  const Mat<T> E = regression_tokens<T>(X, y, xq, Mat<T>::Zero(1, 1));
  std::vector<plot_point> pts;
  for (int L = 1; L <= max_layers; ++L) {
    const auto s = gdpp_rate_schedule_for<T>(T(mu), T(nu), L - 1);
    const auto out = lsa_stack_forward<T>(gdpp_rate_stack<T>(d, 1, N, s), E, N);
    const T y_hat = -out.back()(d, N);
    pts.push_back({double(L), log10_abs<T>(T(abs(T(y_hat - target)) / scale))});
  }
  return pts;
}

plot_figure gdpp_vs_gd_figure(const plot_request& req) {
  const auto p = fixed_prompt();
  const Vec<double> lam = symmetric_eigenvalues(Mat<double>(p.X * p.X.transpose()));
  const double mu = lam(0) * (1 - 1e-12), nu = lam(d - 1) * (1 + 1e-12);
  const double kappa0 = nu / mu;
  layers_vs_gd::figure_lines f(gdpp_text, req);
  f.figure.caption = fmt::format(
      "Fixed prompt d = {}, N = {}, kappa_0 = cond(X X^T) = {:.2f}; w* the least-squares "
      "solution. The construction's error follows the Lemma A.2 bound (kappa_K - 1) sqrt(kappa_0 "
      "kappa_K), which falls doubly exponentially once kappa_K < 1.1, to the rounding floor of "
      "each precision; GD (eta = 1/lambda_max(H)) falls like (1 - 1/kappa)^k. Dashed: the rates. "
      "The kappa recursion and Lemma A.3's inequalities are proved (GdppRate.v); Lemma A.2's bound "
      "is checked per case by the gdpp_rate properties, not proved.",
      d, N, kappa0);
  f.construction_double.points = construction_points<double>(p, mu, nu);
  f.construction_mpfr.points = construction_points<mpfr_real>(p, mu, nu);
  {
    using T = mpfr_real;
    const Mat<T> X = from_double<T>(p.X), y = from_double<T>(p.y), xq = from_double<T>(p.xq);
    const Mat<T> w_star = spd_solve(Mat<T>(matmul_nt(X, X)), Mat<T>(matmul_nt(X, y)));
    const T target = matmul(Mat<T>(w_star.transpose()), xq)(0, 0);
    const T scale = T(w_star.norm() * xq.norm());
    const T eta = T(double(N) / lam(d - 1));  // 1 / lambda_max(H), H = X X^T / N
    const auto W = gd_iterates<T>(Mat<T>::Zero(1, d), X, y, eta, max_layers);
    for (int k = 1; k <= max_layers; ++k) {
      const T err = abs(T(matmul(W[k], xq)(0, 0) - target)) / scale;
      f.gd.points.push_back({double(k), log10_abs<T>(err)});
      f.gd_rate.points.push_back({double(k), k * std::log10(1.0 - 1.0 / kappa0)});
    }
  }
  // The excess eps = kappa - 1 of the recursion, eps' = eps^2 (3/4 + eps) / (1 + 3 eps / 2)^2
  // (proofs/GdppRate.v: gdpp_kappa_step_excess), so that it stays accurate far below 1e-16.
  double eps = kappa0 - 1;
  for (int L = 1; L <= max_layers && eps > 0; ++L) {
    const double bound = std::log10(eps) + 0.5 * std::log10(kappa0 * (1 + eps));
    f.add_construction_rate(double(L), bound);
    eps = eps * eps * (0.75 + eps) / ((1 + 1.5 * eps) * (1 + 1.5 * eps));
  }
  return f.done();
}

const plot_source_registrar gdpp_figure{layers_vs_gd::figure_source(gdpp_text, &gdpp_vs_gd_figure)};

}  // namespace
