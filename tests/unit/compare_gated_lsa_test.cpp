// Every gated metric of `iclproof compare` shown failing: for each gated metric of the von Oswald
// LSA experiments (one layer, tied GD++, the untied stack), a model that is wrong in the way the
// metric exists to catch makes THAT metric fail, and the same model with the right weights passes
// it. Wrong in five ways: sign-flipped weights (cosine -1), a wrong scale, a missing mask, a wrong
// preconditioner, a collapsed layer. A missing mask is a wrong forward pass, not wrong weights:
// compare_weights takes the forward pass as a parameter (compare/compare_forward.hpp), and the
// "missing mask" sections evaluate the right weights with learned_predictions(...,
// learned_attention_mask::none) (every token, the query included, is a key and a value). Where a
// wrong model does not apply, the section says why and checks that reason.
//
// The right weights are exact constructions at the exact population optimum where one exists
// (references/population_optima.hpp): Prop 1 with eta* for one LSA layer; the multi-layer models
// are GD++ with population-optimal coefficients (optimal_gdpp.hpp).
#include "compare/compare.hpp"
#include "compare_gate_assertions.hpp"
#include "compare_model_files.hpp"
#include "core/linalg.hpp"
#include "optimal_gdpp.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace iclproof;

namespace {

// An x-block that is not a multiple of I but has mean diagonal 1 (so the A.3 scale correction
// leaves it as it is): diag(0.2, 1.8, 0.2, 1.8, ...).
Mat<double> wrong_preconditioner_block(int d) {
  Mat<double> B = Mat<double>::Zero(d, d);
  for (int i = 0; i < d; ++i) B(i, i) = i % 2 == 0 ? 0.2 : 1.8;
  return B;
}

// The right model with layer 1's W_Q x-block replaced by wrong_preconditioner_block.
weights_file wrong_preconditioner(weights_file w, int d) {
  w.parameter_sets[0]["W_Q"].topLeftCorner(d, d) = wrong_preconditioner_block(d);
  return w;
}

// The right model with the label entry of W_V negated in parameter set `layer`: its step uphill.
weights_file sign_flipped_step(weights_file w, int layer, int d) {
  Eigen::MatrixXd& WV = w.parameter_sets[std::size_t(layer)]["W_V"];
  WV(d, d) = -WV(d, d);
  return w;
}

// The right model with P scaled by `factor` in every parameter set.
weights_file every_P_scaled(weights_file w, double factor) {
  for (auto& set : w.parameter_sets) set["P"] *= factor;
  return w;
}

}  // namespace

TEST_CASE("compare.gated.single_layer: each gated metric fails on the model it exists to catch") {
  const int d = 4, N = 8;
  const compare_options o = compare_tasks(300);
  // The exact eta* for U(-1, 1): 15 N / (5 N + 5 d - 1) (proofs/PopulationOptima.v).
  const double eta_star = 15.0 * N / (5.0 * N + 5.0 * d - 1.0);
  const weights_file good = prop1(d, N, eta_star);
  const compare_result ok = compare_weights(good, o);
  require_all_gated_pass(ok);
  CHECK(find_metric(ok, "sensitivities.mean_cosine").value > 0.999999);

  SECTION("sign-flipped value weight: cosine -1 (catches a |cos|)") {
    const compare_result r =
        compare_changed(good, o, [&](weights_file& w) { w.parameter_sets[0]["W_V"](d, d) = 1.0; });
    require_fails(r, "sensitivities.mean_cosine");
    CHECK(find_metric(r, "sensitivities.mean_cosine").value < -0.999999);
    require_each_fails(
        r, {"weights.PV_relative_distance", "predictions.relative_difference", "loss.ratio_to_gd"});
  }
  SECTION("wrong scale: step 1.3 eta*") {
    const compare_result r =
        compare_changed(good, o, [](weights_file& w) { w.parameter_sets[0]["P"] *= 1.3; });
    require_each_fails(r, {"weights.PV_relative_distance", "predictions.relative_difference"});
    // Population: loss(1.3 eta*) / loss(eta*) = 1 + a (0.3 eta*)^2 / min = 1.19 here.
    require_fails(r, "loss.ratio_to_gd");
    CHECK(find_metric(r, "sensitivities.mean_cosine").passed);  // direction is right
    // The relative distances are normalised by the construction: |1.3 eta* - eta*| / eta* = 0.3
    // exactly, not 0.3 / 1.3 (normalised by the model; mutation 27 survived every test before).
    INFO("good model: PV distance " << find_metric(ok, "weights.PV_relative_distance").value);
    CHECK(find_metric(ok, "weights.PV_relative_distance").value < 1e-12);
    CHECK(find_metric(r, "weights.PV_relative_distance").value == Approx(0.3).epsilon(1e-9));
    CHECK(find_metric(r, "weights.PV_full_relative_distance").value == Approx(0.3).epsilon(1e-9));
  }
  SECTION("wrong preconditioner: W_K^T W_Q x-block diag(0.2, 1.8, ...)") {
    const compare_result r = compare_weights(wrong_preconditioner(good, d), o);
    require_each_fails(r, {"weights.KQ_relative_distance", "sensitivities.mean_cosine",
                           "predictions.relative_difference"});
  }
  SECTION("collapsed layer: P = 0") {
    const compare_result r =
        compare_changed(good, o, [](weights_file& w) { w.parameter_sets[0]["P"].setZero(); });
    // sensitivities.mean_cosine: 0/0, and NaN fails.
    require_each_fails(r, {"weights.PV_relative_distance", "predictions.relative_difference",
                           "sensitivities.mean_cosine", "loss.ratio_to_gd"});
  }
  SECTION("missing mask: does not apply to one layer (Prop 1 computes the same function)") {
    // The query token's label slot is 0 on input, so under Prop 1 its value W_V e_q = [0; -0]
    // is zero and attending to itself adds nothing: one layer without the mask makes the same
    // predictions, so no metric can (or should) tell them apart. The multi-layer sections below
    // show the missing mask failing, where the label slot holds the layer-1 prediction.
    const compare_result r = compare_unmasked(good, o);
    require_all_gated_pass(r);
    for (const auto& m : ok.metrics) {
      INFO(m.name << ": masked " << m.value << ", unmasked " << find_metric(r, m.name).value);
      // 256-bit values reported in double: equal up to the double rounding of the report.
      CHECK(find_metric(r, m.name).value == Approx(m.value).epsilon(1e-15).margin(1e-300));
    }
  }
}

namespace {

// GD++ as LSA weights: layer l has W_K = W_Q = [[I,0],[0,0]], W_V = [[-gamma_l I,0],[0,-eta_l/N]],
// P = I (tied: the first pair for every layer).
weights_file gdpp(int d, int N, int layers, bool tied, const std::vector<double>& eta,
                  const std::vector<double>& gamma) {
  weights_file w = base_file(tied ? "vonoswald_gdpp" : "vonoswald_stack", learned_model_kind::lsa,
                             d, N, layers, tied, "uniform");
  const int D = d + 1;
  for (int l = 0; l < (tied ? 1 : layers); ++l) {
    Mat<double> WK = Mat<double>::Zero(D, D), WV = Mat<double>::Zero(D, D);
    WK.topLeftCorner(d, d) = Mat<double>::Identity(d, d);
    WV.topLeftCorner(d, d) = -gamma[l] * Mat<double>::Identity(d, d);
    WV(d, d) = -eta[l] / N;
    w.parameter_sets.push_back(
        {{"W_K", WK}, {"W_Q", WK}, {"W_V", WV}, {"P", Mat<double>::Identity(D, D)}});
  }
  return w;
}

}  // namespace

// d = 4, N = 8, x ~ U(-1, 1): two tied GD++ layers at the optimum (about (3.6, 0.06); loss
// ~0.07 in half mean square against ~0.14 for two plain GD steps at the best step), so the right
// weights pass the gated loss.ratio_to_gd <= 1 with margin (~0.5), and GD++ with a negative step,
// a 0.3 x scale, a collapsed layer or no mask is worse than plain GD.
TEST_CASE("compare.gated.gdpp: each gated metric fails on the model it exists to catch") {
  const int d = 4, N = 8;
  const compare_options o = compare_tasks(200, 2000);
  const gdpp_tuning_result opt = optimal_gdpp(d, N, 2, true);
  INFO("optimal tied GD++ (eta, gamma) = (" << opt.eta[0] << ", " << opt.gamma[0] << ")");
  const weights_file good = gdpp(d, N, 2, true, opt.eta, opt.gamma);
  const compare_result ok = compare_weights(good, o);
  require_all_gated_pass(ok);
  CHECK(find_metric(ok, "loss.ratio_to_gd").value < 0.7);

  SECTION("wrong preconditioner: not GD++ with any (eta, gamma)") {
    const compare_result r = compare_weights(wrong_preconditioner(good, d), o);
    require_each_fails(
        r, {"weights.worst_alignment_distance", "predictions.relative_difference_to_gdpp",
            "sensitivities.mean_cosine_to_gdpp", "loss.ratio_to_gdpp"});
  }
  SECTION("collapsed layer: W_V = 0") {
    const compare_result r =
        compare_changed(good, o, [](weights_file& w) { w.parameter_sets[0]["W_V"].setZero(); });
    // weights.worst_alignment_distance: 0/0, and NaN fails.
    require_each_fails(
        r, {"weights.worst_alignment_distance", "predictions.relative_difference_to_gdpp",
            "sensitivities.mean_cosine_to_gdpp", "loss.ratio_to_gd"});
  }
  SECTION("sign-flipped step: the references not read off the weights catch it") {
    // The weight-read GD++ reference is GD++ with eta = -3.6: the same function, and its metrics
    // pass. Two steps uphill are far worse than plain GD and far from tuned GD++.
    const compare_result r = compare_weights(sign_flipped_step(good, 0, d), o);
    require_each_fails(r, {"loss.ratio_to_gd", "predictions.relative_difference_to_gdpp_tuned",
                           "loss.ratio_to_gdpp_tuned"});
    CHECK(find_metric(r, "predictions.relative_difference_to_gdpp").passed);
    CHECK(find_metric(r, "weights.worst_alignment_distance").passed);
  }
  SECTION("wrong scale: P x 0.3 (eta and gamma both 0.3 x)") {
    const compare_result r =
        compare_changed(good, o, [](weights_file& w) { w.parameter_sets[0]["P"] *= 0.3; });
    require_each_fails(r, {"loss.ratio_to_gd", "predictions.relative_difference_to_gdpp_tuned"});
    CHECK(find_metric(r, "predictions.relative_difference_to_gdpp").passed);  // read off: same
  }
  SECTION("wrong scale that still beats plain GD: only tuned GD++ catches it") {
    // P x 1.3 is GD++ with 1.3 x the optimal (eta, gamma), still better than plain GD, so
    // loss.ratio_to_gd passes and the weight-read GD++ metrics pass (same function); its
    // predictions differ from GD++ with tuned coefficients by more than 5%. (This model passed
    // every gated metric before tuned GD++ was built.)
    const compare_result r =
        compare_changed(good, o, [](weights_file& w) { w.parameter_sets[0]["P"] *= 1.3; });
    require_fails(r, "predictions.relative_difference_to_gdpp_tuned");
    CHECK(find_metric(r, "loss.ratio_to_gd").passed);
    CHECK(find_metric(r, "predictions.relative_difference_to_gdpp").passed);
  }
  SECTION("missing mask: the query attends to itself and to its layer-1 prediction") {
    const compare_result r = compare_unmasked(good, o);
    require_each_fails(
        r, {"predictions.relative_difference_to_gdpp", "loss.ratio_to_gdpp", "loss.ratio_to_gd"});
    CHECK(find_metric(r, "weights.worst_alignment_distance").passed);  // weights are right
  }
}

// The untied stack (vonoswald_stack): the same GD++ coefficients in each of two untied layers
// is the right model. Its weight alignment and the metrics against GD++ read off the weights are
// reported only (THRESHOLDS: von Oswald Sec. 3 matches untied stacks with TUNED per-layer GD++),
// so the gated metrics are predictions, sensitivities and loss against tuned GD++, and loss
// against plain GD.
TEST_CASE("compare.gated.stack: each gated metric fails on the model it exists to catch") {
  const int d = 4, N = 8;
  const compare_options o = compare_tasks(200, 2000);
  const gdpp_tuning_result opt = optimal_gdpp(d, N, 2, false);
  INFO("optimal untied GD++ eta = (" << opt.eta[0] << ", " << opt.eta[1]
                                     << "), gamma_1 = " << opt.gamma[0]);
  const weights_file good = gdpp(d, N, 2, false, opt.eta, opt.gamma);
  const compare_result ok = compare_weights(good, o);
  require_all_gated_pass(ok);
  for (const char* reported :
       {"weights.worst_alignment_distance", "predictions.relative_difference_to_gdpp",
        "sensitivities.mean_cosine_to_gdpp", "loss.ratio_to_gdpp"}) {
    INFO(reported);
    CHECK_FALSE(find_metric(ok, reported).gated);
  }

  SECTION("wrong preconditioner in layer 1") {
    const compare_result r = compare_weights(wrong_preconditioner(good, d), o);
    require_each_fails(r, {"predictions.relative_difference_to_gdpp_tuned",
                           "sensitivities.mean_cosine_to_gdpp_tuned", "loss.ratio_to_gdpp_tuned"});
  }
  SECTION("collapsed layer 1 (W_V = 0): GD++ with eta_1 = gamma_1 = 0, worse than plain GD") {
    const compare_result r =
        compare_changed(good, o, [](weights_file& w) { w.parameter_sets[0]["W_V"].setZero(); });
    require_each_fails(r, {"loss.ratio_to_gd", "loss.ratio_to_gdpp_tuned"});
  }
  SECTION("sign-flipped step in layer 2") {
    const compare_result r = compare_weights(sign_flipped_step(good, 1, d), o);
    require_each_fails(r, {"loss.ratio_to_gd", "predictions.relative_difference_to_gdpp_tuned"});
  }
  SECTION("wrong scale: P x 0.3 in both layers") {
    const compare_result r = compare_weights(every_P_scaled(good, 0.3), o);
    require_each_fails(
        r, {"predictions.relative_difference_to_gdpp_tuned", "loss.ratio_to_gdpp_tuned"});
  }
  SECTION("wrong scale that still beats plain GD: P x 1.3 in both layers") {
    // GD++ with 1.3 x the optimal coefficients still beats two plain GD steps (loss ratio
    // measured 0.63), so only tuned GD++ catches it.
    const compare_result r = compare_weights(every_P_scaled(good, 1.3), o);
    require_fails(r, "predictions.relative_difference_to_gdpp_tuned");
    CHECK(find_metric(r, "loss.ratio_to_gd").passed);
  }
  SECTION("missing mask") {
    const compare_result r = compare_unmasked(good, o);
    require_each_fails(r, {"predictions.relative_difference_to_gdpp_tuned",
                           "loss.ratio_to_gdpp_tuned", "loss.ratio_to_gd"});
  }
}
