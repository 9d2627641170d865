// `iclproof compare` on Ahn et al.'s full linear transformer (P and Q per layer; compare/
// compare_ahn_full.cpp): the gated loss passes on a good model and fails on a wrong one, for one
// layer (against the exact optimum A*) and for two (against two GD steps); the implicit-weight
// identity, which no weights can fail, is shown failing on a broken READING (one that ignores P,
// the silent error of reading such a model as ahn_linear), and compare then stops with an error.
//
// The good two-layer model is preconditioned GD with the one-layer optimum A* =
// (N/(N+d+1)) Sigma^-1 in both layers plus a small P (a GD++-like curvature correction), on
// anisotropic data with condition number 16: plain GD with one line-searched step is far worse.
#include "compare/compare_ahn_full.hpp"
#include "compare/ahn_full_model.hpp"
#include "compare/compare.hpp"
#include "compare/implicit_weights_reading.hpp"
#include "core/precision.hpp"
#include "references/population_optima.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace iclproof;

namespace {

const compare_metric& metric_named(const compare_result& r, const std::string& name) {
  for (const auto& m : r.metrics)
    if (m.name == name) return m;
  FAIL("no metric " << name);
  throw std::logic_error("unreachable");
}

Mat<double> ahn_full_sigma() {
  Vec<double> s(5);
  s << 1, 1, 0.5, 0.25, 1;
  return s.asDiagonal();
}

// A full model with P_l = p_scale[l] I and Q_l = -q_scale[l] A* (one head).
weights_file ahn_full_test_model(int N, const std::vector<double>& p_scale,
                                 const std::vector<double>& q_scale) {
  weights_file w;
  w.source = "ahn_full (test)";
  w.schema_version = 1;
  w.experiment = "ahn_full_linear_transformer";
  w.preset = "test";
  w.kind = learned_model_kind::ahn_full_linear;
  w.d = 5;
  w.N = N;
  w.layers = static_cast<int>(p_scale.size());
  w.inputs = "anisotropic";
  w.Sigma = ahn_full_sigma();
  const Mat<double> A_star = optimal_preconditioner_w_sigma_inverse<double>(w.Sigma, N);
  for (std::size_t l = 0; l < p_scale.size(); ++l)
    w.parameter_sets.push_back(
        {{ahn_full_p_name(1), Mat<double>(p_scale[l] * Mat<double>::Identity(5, 5))},
         {ahn_full_q_name(1), Mat<double>(-q_scale[l] * A_star)}});
  return w;
}

compare_options ahn_full_options() {
  compare_options o;
  o.tasks = 300;
  o.calibration_tasks = 3000;
  o.precision_bits = 128;
  return o;
}

}  // namespace

TEST_CASE("compare.ahn_full: one layer is judged against the exact optimum as P cannot act") {
  const int N = 20;
  // P = 0.5 I is in the layer, but a one-layer prediction never reads the x-parts it changes.
  const compare_result ok =
      compare_weights(ahn_full_test_model(N, {0.5}, {1.0}), ahn_full_options());
  INFO(to_json(ok).dump(1));
  CHECK(metric_named(ok, "loss.ratio_to_exact_optimum").gated);
  CHECK(metric_named(ok, "loss.ratio_to_exact_optimum").value == Approx(1.0).epsilon(1e-12));
  CHECK_FALSE(metric_named(ok, "loss.ratio_to_gd").gated);
  CHECK(ok.passed);
  const compare_result bad =
      compare_weights(ahn_full_test_model(N, {0.5}, {0.3}), ahn_full_options());
  CHECK_FALSE(metric_named(bad, "loss.ratio_to_exact_optimum").passed);
  CHECK_FALSE(bad.passed);
}

TEST_CASE("compare.ahn_full: two layers must beat two GD steps and a sign flip fails") {
  const int N = 20;
  const compare_result ok =
      compare_weights(ahn_full_test_model(N, {0.05, 0.05}, {1.0, 1.0}), ahn_full_options());
  INFO(to_json(ok).dump(1));
  CHECK(metric_named(ok, "loss.ratio_to_gd").gated);
  CHECK(metric_named(ok, "loss.ratio_to_gd").value < 0.8);
  CHECK(ok.passed);
  // Reported, not gated: the preconditioner of layer 1 is A* (M^0 = I), a_1 = N/(N+d+1) in the
  // data's geometry, Dist 0, no spread over prompts; layer 2's depends on the prompt (P != 0).
  const auto& rows = ok.tables.at("implicit_preconditioner");
  CHECK(rows[0]["preconditioner_scale_a"].get<double>() == Approx(20.0 / 26).epsilon(1e-12));
  CHECK(rows[0]["preconditioner_dist_to_sigma_inverse"].get<double>() < 1e-12);
  CHECK(rows[0]["preconditioner_spread_over_prompts"].get<double>() < 1e-12);
  CHECK(rows[1]["preconditioner_spread_over_prompts"].get<double>() > 1e-3);
  CHECK(ok.tables.at("implicit_weights").size() == 2);
  for (const char* name :
       {"implicit.worst_relative_token_difference", "implicit.worst_relative_readout_difference",
        "implicit.worst_relative_pgd_step_residual"}) {
    CHECK_FALSE(metric_named(ok, name).gated);
    CHECK(metric_named(ok, name).passed);
  }
  const compare_result flipped =
      compare_weights(ahn_full_test_model(N, {0.05, 0.05}, {-1.0, -1.0}), ahn_full_options());
  CHECK_FALSE(metric_named(flipped, "loss.ratio_to_gd").passed);
  CHECK_FALSE(flipped.passed);
}

// A reading that ignores P (the x-parts never change: M^l = I) agrees with the model only when
// P = 0; on a model with P it must fail the identity, and compare must stop with an error.
TEST_CASE("compare.ahn_full: a reading that ignores P fails the implicit-weight identity") {
  using namespace compare_detail;
  const weights_file w = ahn_full_test_model(20, {0.05, 0.05}, {1.0, 1.0});
  compare_options o = ahn_full_options();
  o.tasks = 20;
  const scoped_mpfr_precision precision(o.precision_bits);
  const learned_parameters<T> p = to_scalar<T>(w);
  const auto tasks = draw_tasks(w, o);
  const lsa_stack<T> stack = *trained_lsa_stack(p);
  const implicit_reader ignores_p = [](const lsa_stack<T>& s, const Mat<T>& X, const Mat<T>& Y) {
    lsa_stack<T> no_p = s;
    for (auto& layer : no_p.layers)
      for (auto& head : layer.heads) head.P.topLeftCorner(X.rows(), X.rows()).setZero();
    return read_implicit_weights<T>(no_p, X, Y);
  };
  std::vector<T> pred;
  for (const auto& k : tasks) pred.push_back(learned_predictions(p, k.X, k.Y, k.xq).back()(0));
  const double limit = identity_limit(o.precision_bits);
  const implicit_identity_result right =
      check_implicit_identity(stack, tasks, pred, default_implicit_reader());
  CHECK(right.worst_token_difference <= T(limit));
  CHECK(right.worst_prediction_difference <= T(limit));
  const implicit_identity_result wrong = check_implicit_identity(stack, tasks, pred, ignores_p);
  CHECK(wrong.worst_token_difference > T(1e-6));
  CHECK(wrong.worst_prediction_difference > T(1e-6));

  compare_result r;
  r.precision_bits = o.precision_bits;
  const gd_step_fit fit = calibrate_gd_eta(w, o, 2);
  const compare_forward_pass forward = [](const learned_parameters<T>& q, const Mat<T>& X,
                                          const Mat<T>& Y, const Mat<T>& Xq) {
    return learned_predictions(q, X, Y, Xq);
  };
  CHECK_THROWS_WITH(compare_ahn_full(w, p, tasks, fit, r, forward, ignores_p),
                    Catch::Contains("no verdict on the weights"));
  compare_result fine;
  fine.precision_bits = o.precision_bits;
  CHECK_NOTHROW(compare_ahn_full(w, p, tasks, fit, fine, forward, default_implicit_reader()));
}
