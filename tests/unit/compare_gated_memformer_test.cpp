// Every gated metric of `iclproof compare` shown failing: for each gated metric of the Ahn linear
// transformer and the Memformers (LFOM, CGD), in the anisotropic and the isotropic Z-form settings,
// a model that is wrong in the way the metric exists to catch makes THAT metric fail, and the same
// model with the right weights passes it. Wrong in five ways: sign-flipped weights (cosine -1), a
// wrong scale, a missing mask, a wrong preconditioner, a collapsed layer. A missing mask is a wrong
// forward pass, not wrong weights: compare_weights takes the forward pass as a parameter
// (compare/compare_forward.hpp), and the "missing mask" sections evaluate the right weights with
// learned_predictions(..., learned_attention_mask::none) (every token, the query included, is a key
// and a value). Where a wrong model does not apply, the section says why and checks that reason.
//
// The right weights are exact constructions at the exact population optimum where one exists
// (references/population_optima.hpp): A* = (N/(N+d+1)) Sigma^-1 for one Ahn layer.
#include "compare/compare.hpp"
#include "compare_gate_assertions.hpp"
#include "compare_model_files.hpp"
#include "core/linalg.hpp"
#include "references/population_optima.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

using namespace iclproof;

namespace {

// Sigma of the Ahn/Memformer presets' eigenvalues, diagonal: diag(1, 1, 1/2, 1/4, 1).
Mat<double> preset_sigma() {
  Vec<double> s(5);
  s << 1, 1, 0.5, 0.25, 1;
  return s.asDiagonal();
}

// A file of `layers` layers on the presets' anisotropic data: d = 5, Sigma = preset_sigma().
weights_file preset_file(const std::string& experiment, learned_model_kind kind, int N,
                         std::size_t layers) {
  weights_file w =
      base_file(experiment, kind, 5, N, static_cast<int>(layers), false, "anisotropic");
  w.Sigma = preset_sigma();
  return w;
}

Mat<double> one_by_one(double v) { return Mat<double>::Constant(1, 1, v); }

weights_file ahn(int N, const std::vector<Mat<double>>& A) {
  weights_file w =
      preset_file("ahn_linear_transformer", learned_model_kind::ahn_linear, N, A.size());
  for (const auto& a : A) w.parameter_sets.push_back({{"A", a}});
  return w;
}

}  // namespace

// One Ahn layer: the right weights are the exact optimum A* = (N/(N+d+1)) Sigma^-1 (its
// population loss is d(d+1)/(N+d+1) = 30/26 in full mean square, against 1.734 for the best GD
// step: ratio 0.67), so `loss.ratio_to_gd <= 1` passes by a wide margin; a wrongly scaled A
// (0.3 A*, population ratio 1.75) fails it. A loss ratio compared the wrong way round (>= 1, or
// GD / TF) fails the first check.
TEST_CASE("compare.gated.ahn: loss ratio and Dist(Sigma^1/2 A Sigma^1/2, I) each fail") {
  const int N = 20;
  const compare_options o = compare_tasks(500);
  const Mat<double> Sigma = preset_sigma();
  const Mat<double> A_star =
      optimal_preconditioner_w_sigma_inverse<double>(Sigma, N);  // diagonal: exact to rounding
  const compare_result ok = compare_weights(ahn(N, {A_star}), o);
  require_all_gated_pass(ok);
  CHECK(find_metric(ok, "loss.ratio_to_gd").value < 0.8);
  CHECK(find_metric(ok, "weights.A_relative_distance_to_exact_optimum").value < 1e-12);

  SECTION("wrong scale: 0.3 A*") {
    const compare_result r = compare_weights(ahn(N, {Mat<double>(0.3 * A_star)}), o);
    require_fails_alone(r, "loss.ratio_to_exact_optimum");
    CHECK(find_metric(r, "weights.worst_dist_to_sigma_inverse").passed);  // scale-free
    // In the data's geometry ||Sigma^1/2 (0.3 A* - A*) Sigma^1/2||_F / ||Sigma^1/2 A* ...|| = 0.7.
    CHECK(find_metric(r, "weights.A_relative_distance_to_exact_optimum").value ==
          Approx(0.7).epsilon(1e-12));
  }
  SECTION("wrong preconditioner: A = c I (plain GD)") {
    const double c = A_star.trace() / 5;
    const compare_result r =
        compare_weights(ahn(N, {Mat<double>(c * Mat<double>::Identity(5, 5))}), o);
    require_fails(r, "weights.worst_dist_to_sigma_inverse");
  }
  SECTION("sign-flipped: -A*") {
    const compare_result r = compare_weights(ahn(N, {Mat<double>(-A_star)}), o);
    require_fails(r, "loss.ratio_to_exact_optimum");
    require_fails(r, "weights.layers_with_nonpositive_scale");
    CHECK(find_metric(r, "weights.worst_dist_to_sigma_inverse").passed);  // sign-free
  }
}

// A missing mask in the Z-form: M = I instead of diag(I_N, 0), so the query column enters
// Z M Z^T. In layer 1 the query's label slot is 0 and nothing changes (as for one LSA layer);
// from layer 2 on its slot holds minus the layer-1 prediction. Three layers of A*: the masked
// model passes, and the unmasked one fails Lemma 1 (the identity of the masked model). The loss
// ratio is not asserted: without the mask this model's loss is close to plain GD's (a
// pure-Python simulation gave 0.67 against 0.67), so the loss alone cannot be relied on here.
TEST_CASE("compare.gated.ahn_missing_mask: Lemma 1 stops compare without the mask") {
  const int N = 20;
  const compare_options o = compare_tasks(200, 2000);
  const Mat<double> A = optimal_preconditioner_w_sigma_inverse<double>(preset_sigma(), N);
  const weights_file good = ahn(N, {A, A, A});
  const compare_result ok = compare_weights(good, o);
  require_all_gated_pass(ok);
  // Lemma 1 is an identity of the masked model, which no weights can fail: it is reported
  // (not gated) for weights, and a forward pass that breaks it is a verifier defect, so compare
  // stops with one error instead of a verdict on the (right) weights.
  CHECK_FALSE(find_metric(ok, "forward.lemma1_worst_relative_difference").gated);
  REQUIRE_THROWS_WITH(compare_unmasked(good, o), Catch::Contains("Ahn Lemma 1"));
}

// Three Ahn layers, one collapsed (A_2 = 0): Dist of the zero layer is 0/0 (NaN fails).
TEST_CASE("compare.gated.ahn_collapsed_layer: a zero layer fails Dist") {
  const int N = 20;
  const compare_options o = compare_tasks(200, 2000);
  const Mat<double> A = optimal_preconditioner_w_sigma_inverse<double>(preset_sigma(), N);
  const compare_result r = compare_weights(ahn(N, {A, Mat<double>(Mat<double>::Zero(5, 5)), A}), o);
  require_fails(r, "weights.worst_dist_to_sigma_inverse");
}

namespace {

weights_file lfom(int N, const std::vector<Mat<double>>& A, const std::vector<double>& Gamma) {
  weights_file w = preset_file("memformer_lfom", learned_model_kind::memformer_lfom, N, A.size());
  for (std::size_t l = 0; l < A.size(); ++l)
    w.parameter_sets.push_back({{"A", A[l]}, {"Gamma", one_by_one(Gamma[l])}});
  return w;
}

weights_file cgd(int N, const std::vector<double>& alpha, const std::vector<double>& gamma) {
  weights_file w = preset_file("memformer_cgd", learned_model_kind::memformer_cgd, N, alpha.size());
  for (std::size_t l = 0; l < alpha.size(); ++l)
    w.parameter_sets.push_back({{"alpha", one_by_one(alpha[l])}, {"gamma", one_by_one(gamma[l])}});
  return w;
}

}  // namespace

// One LFOM layer with Gamma_0 = 1 is one Ahn layer: A* passes, a wrong scale fails.
TEST_CASE("compare.gated.lfom: loss ratio fails on a wrong scale") {
  const int N = 20;
  const compare_options o = compare_tasks(500);
  const Mat<double> A_star = optimal_preconditioner_w_sigma_inverse<double>(preset_sigma(), N);
  require_all_gated_pass(compare_weights(lfom(N, {A_star}, {1.0}), o));
  require_fails(compare_weights(lfom(N, {A_star}, {0.3}), o), "loss.ratio_to_exact_optimum");
}

// The other wrong LFOM models. Only loss.ratio_to_gd is gated for LFOM: Dist is reported, not
// gated, because a collapsed MIDDLE layer is this architecture's optimum (src/trainer/README.md:
// the best stationary scalars are b = (0.238, 0.003, 0.013, 0.954)), so "collapsed" here means
// the model's only layer. A missing mask is NOT caught for LFOM (not asserted here): in a
// pure-Python simulation of two layers A_l = b_l Sigma^-1, Gamma = 1, the unmasked loss was
// within ~10% of the masked one and of plain GD's, so the gated loss ratio cannot see it, and
// LFOM has no exact identity like Ahn's Lemma 1 among compare's metrics (not built).
TEST_CASE("compare.gated.lfom_wrong_models: sign flip, wrong preconditioner, collapsed layer") {
  const int N = 20;
  const compare_options o = compare_tasks(500);
  const Mat<double> Sigma = preset_sigma();
  const Mat<double> A_star = optimal_preconditioner_w_sigma_inverse<double>(Sigma, N);
  SECTION("sign-flipped: -A*") {
    require_fails(compare_weights(lfom(N, {Mat<double>(-A_star)}, {1.0}), o),
                  "loss.ratio_to_exact_optimum");
  }
  SECTION("wrong preconditioner: A proportional to Sigma instead of Sigma^-1") {
    // Scaled to A*'s trace, so that only the direction is wrong.
    const Mat<double> A = Sigma * (A_star.trace() / Sigma.trace());
    require_fails(compare_weights(lfom(N, {A}, {1.0}), o), "loss.ratio_to_exact_optimum");
  }
  SECTION("collapsed layer: A = 0") {
    require_fails(compare_weights(lfom(N, {Mat<double>(Mat<double>::Zero(5, 5))}, {1.0}), o),
                  "loss.ratio_to_exact_optimum");
  }
}

// CGD Memformer: one layer is one GD step with step alpha (A = I), the same family as the
// reference, so it can at best tie with GD; the mutants are a wrong scale (0.3 eta*) and a sign
// flip, both far worse than GD. (A right CGD model beating GD needs L >= 2; see the report.)
TEST_CASE("compare.gated.cgd: loss ratio fails on a wrong scale and a sign flip") {
  const int N = 20;
  const compare_options o = compare_tasks(500);
  const Mat<double> Sigma = preset_sigma();
  const double eta_star =
      static_cast<double>(one_step_gd_gaussian<double>(Sigma, inverse(Sigma), N).minimiser());
  const compare_result tie = compare_weights(cgd(N, {eta_star}, {0.0}), o);
  // alpha = eta* is GD itself: the ratio is 1 up to rounding (double weights, 256-bit eval).
  CHECK(std::abs(find_metric(tie, "loss.ratio_to_gd").value - 1) < 1e-12);
  // ... and, being the exact optimum of its class, it passes (the gate for one layer is the
  // loss against that optimum; `loss.ratio_to_gd <= 1` is reported only).
  require_all_gated_pass(tie);
  require_fails(compare_weights(cgd(N, {0.3 * eta_star}, {0.0}), o), "loss.ratio_to_exact_optimum");
  require_fails(compare_weights(cgd(N, {-eta_star}, {0.0}), o), "loss.ratio_to_exact_optimum");
  // Collapsed layer: alpha = 0 predicts 0. (A wrong preconditioner does not apply: the CGD
  // Memformer's A = I is fixed by the architecture, it has no preconditioner to learn.)
  require_fails(compare_weights(cgd(N, {0.0}, {0.0}), o), "loss.ratio_to_exact_optimum");
}

// Missing mask in the CGD Memformer: four layers with the coefficients trained by the CI preset
// (src/trainer/README.md: alpha 1.009/1.006/1.017/0.991, gamma 0.36/0.41/0.34) beat four GD
// steps; without the mask the query's own predictions feed back into every later layer and the
// loss is worse than GD's (pure-Python simulation: 0.70 against 0.47-0.49 for GD, 0.22 masked).
TEST_CASE("compare.gated.cgd_missing_mask: the loss ratio fails without the mask") {
  const int N = 20;
  const compare_options o = compare_tasks(500, 5000);
  const weights_file good = cgd(N, {1.009, 1.006, 1.017, 0.991}, {0.0, 0.36, 0.41, 0.34});
  const compare_result ok = compare_weights(good, o);
  require_all_gated_pass(ok);
  const compare_result r = compare_unmasked(good, o);
  require_fails(r, "loss.ratio_to_gd");
}

namespace {

weights_file ahn_isotropic(const std::string& inputs, int N, const std::vector<Mat<double>>& A) {
  weights_file w = base_file("ahn_linear_transformer", learned_model_kind::ahn_linear, 5, N,
                             static_cast<int>(A.size()), false, inputs);
  for (const auto& a : A) w.parameter_sets.push_back({{"A", a}});
  return w;
}

}  // namespace

// One layer on isotropic data: one GD step at eta* IS the optimum, so `loss.ratio_to_gd <= 1`
// (gated before) failed every model but the exact optimum (A* with a 2% perturbation scored
// 1.0013). The gate is now L(TF) / L(A*) <= 1 + 0.05 + 3 se (thresholds::optimum_relative_
// excess): near-optimal models pass, on Gaussian and uniform inputs, for ahn_linear and CGD.
// x ~ N(0, I), w ~ N(0, I), d = 5: A* = (N/(N+d+1)) I, population loss (full) d(d+1)/(N+d+1);
// for A = c A* the population ratio is 1 + (c - 1)^2 (d - L*) / L*, L* = d(d+1)/(N+d+1)
// (orthogonality of the optimal residual to the prediction), = 1 + 3.33 (c - 1)^2 at N = 20.
TEST_CASE("compare.gated.zform_one_layer: near-optimal isotropic models pass") {
  const compare_options o = compare_tasks(2000);
  const int N = 20, d = 5;
  const Mat<double> I = Mat<double>::Identity(d, d);
  const double a_star = double(N) / (N + d + 1);
  SECTION("Gaussian inputs: A* with a 2% entrywise perturbation") {
    Mat<double> A = a_star * I;
    for (int i = 0; i < d; ++i)
      for (int j = 0; j < d; ++j) A(i, j) += 0.02 * a_star * ((i * 7 + j * 3) % 5 - 2) / 2.0;
    const compare_result r = compare_weights(ahn_isotropic("gaussian", N, {A}), o);
    require_all_gated_pass(r);
    CHECK_FALSE(find_metric(r, "loss.ratio_to_gd").gated);
  }
  SECTION("Gaussian inputs: 1.1095 A*, 4% above the optimum in population") {
    const compare_result r =
        compare_weights(ahn_isotropic("gaussian", N, {Mat<double>(1.1095 * a_star * I)}), o);
    require_all_gated_pass(r);
    // The sample ratio is near the population's 1.040 and above 1: this model failed before.
    CHECK(find_metric(r, "loss.ratio_to_exact_optimum").value > 1.01);
    CHECK(find_metric(r, "loss.ratio_to_gd").value > 1.01);
  }
  SECTION("uniform inputs: 1.02 eta* I (A* = eta* I by symmetry)") {
    const double eta_star = 15.0 * N / (5.0 * N + 5.0 * d - 1.0);  // U(-1, 1), as above
    require_all_gated_pass(
        compare_weights(ahn_isotropic("uniform", N, {Mat<double>(1.02 * eta_star * I)}), o));
  }
  SECTION("the exact optimum on Gaussian inputs (the file the reader crashed on before)") {
    const compare_result r =
        compare_weights(ahn_isotropic("gaussian", N, {Mat<double>(a_star * I)}), o);
    require_all_gated_pass(r);
    CHECK(find_metric(r, "loss.ratio_to_exact_optimum").value == Approx(1).epsilon(1e-12));
  }
}

// Each gated metric of the Z-form Ahn model failing ALONE (every other gated metric passing).
TEST_CASE("compare.gated.zform_alone: each Ahn gate fails alone") {
  const compare_options o = compare_tasks(2000, 5000);
  const int d = 5;
  const Mat<double> I = Mat<double>::Identity(d, d);
  SECTION(
      "loss.ratio_to_exact_optimum: 1.3 A* (right direction, wrong scale; Dist is scale-free)") {
    const int N = 20;
    const double a_star = double(N) / (N + d + 1);  // population ratio 1 + 3.33 * 0.09 = 1.30
    require_fails_alone(
        compare_weights(ahn_isotropic("gaussian", N, {Mat<double>(1.3 * a_star * I)}), o),
        "loss.ratio_to_exact_optimum");
  }
  SECTION("weights.worst_dist_to_sigma_inverse: A* diag(1.2, 0.8, 1.2, 0.8, 1) at N = 5") {
    // Dist = 0.4 / sqrt(5.16) = 0.176; at N = 5 the loss is dominated by the irreducible part
    // (L* = 30/11 of E y^2 = 5), so the excess stays within the loss gate.
    const int N = 5;
    Vec<double> s(d);
    s << 1.2, 0.8, 1.2, 0.8, 1.0;
    const Mat<double> A = (double(N) / (N + d + 1)) * Mat<double>(s.asDiagonal());
    const compare_result r = compare_weights(ahn_isotropic("gaussian", N, {A}), o);
    require_fails_alone(r, "weights.worst_dist_to_sigma_inverse");
    CHECK(find_metric(r, "weights.worst_dist_to_sigma_inverse").value ==
          Approx(0.4 / std::sqrt(5.16)).epsilon(1e-12));
  }
  SECTION("weights.layers_with_nonpositive_scale: a small negative middle layer") {
    const int N = 20;
    const Mat<double> A = optimal_preconditioner_w_sigma_inverse<double>(preset_sigma(), N);
    const compare_result r = compare_weights(ahn(N, {A, Mat<double>(-0.01 * A), A}), o);
    require_fails_alone(r, "weights.layers_with_nonpositive_scale");
    CHECK(find_metric(r, "weights.layers_with_nonpositive_scale").value == 1);
  }
  SECTION("loss.ratio_to_gd (three layers): 0.3 A* in every layer") {
    const int N = 20;
    const Mat<double> A = 0.3 * optimal_preconditioner_w_sigma_inverse<double>(preset_sigma(), N);
    require_fails_alone(compare_weights(ahn(N, {A, A, A}), o), "loss.ratio_to_gd");
  }
}
