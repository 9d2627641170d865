// The references `iclproof compare` measures trained models against that come from the data model
// rather than from the weights: the GD step eta* (exact population optimum where one exists,
// else line-searched on a calibration sample), and GD++ with coefficients tuned on a sample of
// its own. Derivations and measurements are in reference_optima.cpp.
#pragma once

#include "compare/compare.hpp"
#include "compare/gdpp_tuning.hpp"
#include "compare/validation_tasks.hpp"

#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace iclproof::compare_detail {

struct gd_step_fit {
  T eta;
  T relative_standard_error;  // of eta* over the calibration sample (sampled, K = 1 only; else 0)
  int tasks;                  // calibration tasks; 0 for the exact optimum
  std::string method;         // "exact population optimum" or "line-searched on n calibration ..."
  std::optional<T> population_loss;  // exact only: E (1/2)(y_hat - y_q)^2 at eta*
};

// The exact population optimum of ONE GD step where the data model has one; std::nullopt else.
std::optional<gd_step_fit> exact_gd_eta(const weights_file& w, int K);

// The key of a sample drawn from a file's data model (what the memoised results depend on).
std::string sample_key(const weights_file& w, const compare_options& o, int K,
                       const std::string& what);

// Memoised f(): each key computed once per process (guarded: compare may run on threads).
template <class V, class F>
V memoised(std::map<std::string, V>& memo, const std::string& key, F f) {
  static std::mutex m;
  {
    const std::lock_guard<std::mutex> lock(m);
    if (const auto it = memo.find(key); it != memo.end()) return it->second;
  }
  V v = f();
  const std::lock_guard<std::mutex> lock(m);
  return memo.emplace(key, std::move(v)).first->second;
}

// The K-step GD eta line-searched on options.calibration_tasks tasks (memoised per data model).
gd_step_fit calibrate_gd_eta(const weights_file& w, const compare_options& o, int K);

struct tuned_gdpp {
  gdpp_tuning_result fit;
  int sample_tasks;
};
// GD++ with (eta_l, gamma_l) tuned on a sample of its own (memoised per data model and depth).
tuned_gdpp tune_gdpp_reference(const weights_file& w, const compare_options& o, int L, bool tied,
                               const T& eta_gd);

// The exact population optimum of ONE Z-form layer (ahn_linear, memformer_lfom: the layer is
// preconditioned GD with P = A, resp. Gamma_0 A; memformer_cgd: GD with step alpha): the
// preconditioner A* and its population loss (halved, as half_mean_square). Gaussian inputs with
// w ~ N(0, Sigma^-1) (Sigma = I for "gaussian"): A* = (N/(N+d+1)) Sigma^-1
// (one_step_optimal_preconditioner). Uniform inputs: the loss is a convex quadratic in A,
// invariant under A -> S A S^T for every signed permutation S, so its minimiser commutes with
// them and is eta* I, eta* the exact one-step optimum (gd_fit). memformer_cgd: its one layer is
// GD with step alpha, so A* = eta* I for every data model. std::nullopt for more than one layer,
// for LSA models, or without an exact eta* (gd_fit.population_loss empty).
struct one_layer_optimum {
  Mat<T> A;
  T population_loss;
  std::string what;
};
std::optional<one_layer_optimum> one_layer_exact_optimum(const weights_file& w,
                                                         learned_model_kind kind,
                                                         const gd_step_fit& gd_fit);

}  // namespace iclproof::compare_detail
