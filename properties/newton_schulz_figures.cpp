// Error-vs-layers figure of the Newton-Schulz construction (Giannou et al. 2025), a plot source
// of the newton_schulz family (report/plot_series.hpp): the residual ||I - M_k S||_F of the
// iterate the stack holds after 2k layers (two layers per step), from M_0 = S^T / ||S||_F^2,
// against the number of layers, beside gradient descent on (1/2) ||M S - I||_F^2 from M = 0 (one
// step per layer, eta = 1/sigma_max(S)^2) and the two rates that bound them:
//   Newton-Schulz: I - M_k S = (I - M_0 S)^(2^k) (proofs/NewtonSchulz.v:ns_iter_residual), and
//     I - M_0 S = I - S^T S / ||S||_F^2 is symmetric with eigenvalues in [0, rho],
//     rho = 1 - sigma_min^2 / ||S||_F^2, so ||I - M_k S||_F <= sqrt(d) rho^(2^k);
//   GD: I - M_j S = (I - eta S^T S)^j, so ||I - M_j S||_F <= sqrt(d) (1 -
//   sigma_min^2/sigma_max^2)^j.
// The rate bounds are hand-derived from these identities (the spectral step is not in Coq).
// Inputs are fixed (seed 43); axes are log10 values (the MPFR residuals do not fit a double).
#include "core/linalg.hpp"
#include "layers_vs_gd_figure.hpp"
#include "newton_schulz/newton_schulz_weights.hpp"
#include "report/plot_series.hpp"
#include "tasks/regression_task.hpp"

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

namespace {

using namespace iclproof;

constexpr int ns_steps = 16;
constexpr int d = layers_vs_gd::rows;

const layers_vs_gd::figure_text newton_schulz_text{
    "newton_schulz.residual_vs_layers",
    "newton_schulz",
    "Newton-Schulz in LSA layers vs gradient descent: residual ||I - M S||_F vs layers",
    "layers (Newton-Schulz: two per step; GD: one step per layer)",
    "log10 ||I - M S||_F",
    "Newton-Schulz layers",
    "sqrt(d) rho^(2^k)",
    "sqrt(d) (1 - sigma_min^2/sigma_max^2)^j"};

// S = diag(1, 0.8, 0.6, 0.45, 0.3) G (G Gaussian, seed 43): a non-symmetric S, cond(S) about 10.
Mat<double> fixed_matrix() {
  data_rng rng(43);
  return layers_vs_gd::row_scaled_gaussian(rng, d);
}

template <class T>
double log10_residual(const Mat<T>& M, const Mat<T>& S) {
  const Mat<T> R = Mat<T>(Mat<T>::Identity(d, d)) - matmul(M, S);
  return layers_vs_gd::log10_abs(T(R.norm()));
}

// log10 ||I - M_k S||_F after layer 2k of the stack, k = 0..ns_steps (x = layers used: 2k).
template <class T>
std::vector<plot_point> newton_schulz_points(const Mat<double>& S_double) {
  const Mat<T> S = from_double<T>(S_double);
  const Mat<T> M0 = Mat<T>(S.transpose()) / T(S.squaredNorm());
  const auto out =
      lsa_stack_forward<T>(newton_schulz_stack<T>(d, ns_steps), newton_schulz_tokens<T>(S, M0), d);
  std::vector<plot_point> pts;
  for (int k = 0; k <= ns_steps; ++k) {
    const Mat<T> Mk = newton_schulz_iterate<T>(out[std::size_t(2 * k)]);
    pts.push_back({double(2 * k), log10_residual<T>(Mk, S)});
  }
  return pts;
}

plot_figure newton_schulz_vs_gd_figure(const plot_request& req) {
  const Mat<double> S = fixed_matrix();
  const Vec<double> sig2 = symmetric_eigenvalues(Mat<double>(S.transpose() * S));  // ascending
  const double smin2 = sig2(0), smax2 = sig2(d - 1), frob2 = S.squaredNorm();
  const double rho = 1.0 - smin2 / frob2, gd_rate = 1.0 - smin2 / smax2;
  layers_vs_gd::figure_lines f(newton_schulz_text, req);
  f.figure.caption = fmt::format(
      "Fixed non-symmetric S, d = {}, cond(S) = {:.1f}, M_0 = S^T / ||S||_F^2. The construction's "
      "residual is (I - M_0 S)^(2^k) after 2k layers (proved: NewtonSchulz.v:ns_iter_residual, "
      "ns_stack_iter) and stays near 1 while rho^(2^k) does (rho = 1 - sigma_min^2 / ||S||_F^2 = "
      "{:.5f}), then falls doubly exponentially to the rounding floor of each precision; gradient "
      "descent on (1/2) ||M S - I||_F^2 (eta = 1/sigma_max^2) falls like (1 - "
      "sigma_min^2/sigma_max^2)^j. Dashed: sqrt(d) times the rates (hand-derived bounds).",
      d, std::sqrt(smax2 / smin2), rho);
  f.construction_double.points = newton_schulz_points<double>(S);
  f.construction_mpfr.points = newton_schulz_points<mpfr_real>(S);
  const int gd_layers = 2 * ns_steps;
  {
    using T = mpfr_real;
    const Mat<T> St = from_double<T>(S);
    const T eta = T(1.0 / smax2);
    Mat<T> M = Mat<T>::Zero(d, d);
    for (int j = 1; j <= gd_layers; ++j) {
      const Mat<T> R = matmul(M, St) - Mat<T>(Mat<T>::Identity(d, d));
      M = Mat<T>(M - eta * matmul(R, Mat<T>(St.transpose())));
      f.gd.points.push_back({double(j), log10_residual<T>(M, St)});
      f.gd_rate.points.push_back(
          {double(j), std::log10(std::sqrt(double(d))) + j * std::log10(gd_rate)});
    }
  }
  for (int k = 0; k <= ns_steps; ++k)
    f.add_construction_rate(
        double(2 * k), std::log10(std::sqrt(double(d))) + std::ldexp(1.0, k) * std::log10(rho));
  return f.done();
}

const plot_source_registrar newton_schulz_figure{
    layers_vs_gd::figure_source(newton_schulz_text, &newton_schulz_vs_gd_figure)};

}  // namespace
