#include "harness/sharpness.hpp"

#include "harness/glob_match.hpp"

#include <cctype>
#include <cmath>
#include <map>

namespace iclproof {

namespace {

// Measured before the limits were set: the margin of every property at 100 cases, seeds 1-3,
// double, long double, MPFR 256 and 512 bits (12 runs each); the rounding-model tolerances
// (gamma_n times shadow or norm products) showed margins <= 10^3.2, the analytic bounds below
// <= 10^1.3. A limit leaves about one decade above the largest margin seen.
const std::map<std::string, sharpness_limit>& table_of_limits() {
  const std::string analytic =
      "an analytic bound (proven or closed-form) that the sampled inputs attain to within "
      "10^0.3; margins measured <= 10^0.3";
  const std::string propagated =
      "a first-order propagated or rank-one-update bound attained to within 10^1.3 on the "
      "sample; margins measured <= 10^1.3";
  static const std::map<std::string, sharpness_limit> t = {
      {"akyurek.gelu_bypass_error_is_exponentially_small", {2.0, false, analytic}},
      {"akyurek.gelu_multiplication_within_proven_bound", {2.0, false, analytic}},
      {"akyurek.layernorm_division_relative_error_is_minus_s_over_2ncm", {2.0, false, analytic}},
      {"akyurek.softmax_hard_attention_deviation_is_exact_and_bounded", {2.0, false, analytic}},
      {"references.ridge_tends_to_min_norm_least_squares",
       {2.0, false,
        "floating point: the rate lambda / mu (mu certified per case just below sigma_min^2) "
        "is attained along the smallest singular direction, margins measured <= 10^0.01; "
        "rationals: the squared Qed bound (lambda "
        "||G X||_F^2)^2 ||W+||_F^2 (tight for d = 1: bound / gap^2 = ((lambda + |x|^2) / "
        "|x|^2)^2), "
        "margins measured +0.0 at seeds 1, 7, 20261122 (100 cases) and 11 (2000 cases)"}},
      {"akyurek.raw_layer_realises_exact_raw_within_bound", {3.0, false, propagated}},
      {"akyurek.theorem1_realised_chain_within_propagated_bound", {3.0, false, propagated}},
      {"akyurek.theorem2_realised_chain_within_propagated_bound", {3.0, false, propagated}},
      {"akyurek.theorem2_exact_chain_is_ridge", {3.0, false, propagated}},
      {"references.iterated_sherman_morrison_equals_ridge", {3.0, false, propagated}},
      {"memformer.nonconstant_gamma_row_breaks_the_linear_model_reading",
       {0, true,
        "a lower-bound claim (deviation >= 2^10 x rounding): its margin measures how far the "
        "effect exceeds rounding, the larger the better"}},
      {"vonoswald.prop1_layer_is_exact_on_dyadic_data",
       {0, true, "an exact equality (tolerance 0): no sharpness notion"}},
  };
  return t;
}

}  // namespace

sharpness_limit sharpness_limit_of(const std::string& property_name) {
  const auto& t = table_of_limits();
  const auto it = t.find(property_name);
  if (it != t.end()) return it->second;
  return {default_sharpness_log10, false,
          "a rounding-model tolerance (gamma_n times a shadow or norm product): worst-case in "
          "the operation count, so typical errors sit 10^1-10^3 below it; margins measured <= "
          "10^3.2"};
}

const std::map<std::string, sharpness_limit>& stated_sharpness_limits() {
  return table_of_limits();
}

bool is_vacuous(const property_result& r, const sharpness_limit& limit) {
  return !limit.exempt && r.outcome == verdict::pass && r.cases >= sharpness_min_cases &&
         std::isfinite(r.margin_log10) && r.margin_log10 > limit.log10_factor;
}

const std::vector<stated_check_limit>& stated_check_sharpness_limits() {
  // Measured when the per-check gate was added: every check of every property at 100 cases,
  // seed 20261122, double, long double, MPFR 256 and 512 bits and (akyurek) intervals at 256
  // bits. The checks below exceeded their property's limit with >= 10 comparisons; each limit
  // leaves about a decade above the largest margin seen, so a bound loosened 10^6 still makes
  // the check VACUOUS.
  const std::string local_layers =
      "the local one-layer checks of every layer of the chain (raw_layer_bound and "
      "div_layer_bound at the realised input), not only the tightest layer kind: the rounding "
      "term of these bounds counts every operation at the largest intermediate, which most "
      "layers stay far below; margins measured <= 10^3.2";
  const std::string propagated_chain =
      "the first-order propagation of every local bound through the Lipschitz constants of the "
      "later layers (layer_lipschitz, a worst case attained only by aligned perturbations, "
      "tests/bounds/bound_attainment_test.cpp), which random data do not produce; margins "
      "measured <= 10^4.2";
  // Measured at 10^4 cases (seeds 1 and 20261126, double, long double and MPFR 256 bits):
  // the margins of these checks grow steadily with the depth, so one flat limit either misses
  // a loosened bound at the first layers or calls the deepest ones vacuous (flat limits of 10^4
  // and 10^5 did at 10^4 cases: momentum step 12 +4.8, CGD layer 6 +6.7).
  const std::string deep_steps =
      "a rounding-model tolerance per layer or step that compounds with the depth (gamma_n times "
      "the shadows of every earlier layer or step, coefficients in absolute value) while the "
      "rounding errors themselves partly cancel: margins at 10^4 cases grow 0.15-0.3 decades "
      "per layer or step (LSA stacks 1.5 -> 3.2 over layers 1-8, LFOM Memformers 1.8 -> 2.95 over "
      "1-8, Ahn Lemma 1 1.8 -> 2.8 over 1-5, momentum and Nesterov references 2.0 -> 4.95 over "
      "steps 1-12), and where a depth is drawn only 10-15 times its worst margin sits about a "
      "decade higher (GD stack layer 6: +4.1 to +4.3 over 13 comparisons, seed 3, 100 cases); the "
      "limit 10^(4 + 0.3 (l - 1)) keeps >= 0.95 decades above every margin seen (GD layer 7: "
      "+4.83 against 10^5.8)";
  const std::string rounding_alone =
      "the rounding term judged on its own against the error to a 2p + 512-bit enclosure of the "
      "exact value (properties/akyurek.hpp): a first-order count of every rounding at the "
      "largest intermediate, all in one direction, which random inputs do not align; margins "
      "measured (seeds 20261122 and 7, double, long double, MPFR 256 and 512 bits) <= 10^2.05 "
      "for the GeLU product and <= 10^3.11 for the LayerNorm division";
  // The deep layers of the LSA stacks were first left unjudged (fewer than
  // sharpness_min_check_comparisons comparisons at the CI budget; a GD++ layer 5 comparison
  // showed margin 10^8.6-9.1 once, at seed 20261122 in double): RapidCheck's inRange for the
  // depth is size-scaled, so L = 5 (GD++) and L >= 6 (GD) are drawn in a few of 100 cases. Over
  // more cases they are judged under deep_steps: at 400 cases (seeds 1-6, double) GD++ layer 5
  // (9-14 comparisons) <= 10^3.8 and GD layer 7 (10-24) <= 10^4.83, against 10^5.2 and 10^5.8;
  // at 10^4 cases GD++ layer 5 (269 comparisons) <= 10^2.95. The GD++ tolerance is the rigorous
  // running-error shadow of properties/rounding_shadow.hpp, whose S_l shadow
  // Sh' = (I + |gamma| (Sh|X|)(Sh|X|)^T) Sh grows cubically per layer while S_l itself contracts
  // (gamma lambda_max(X X^T) <= 1/2): single draws can be 10^9 loose, a worst case over sign
  // patterns that random data rarely align. The identity at every layer is also checked exactly
  // (tolerance 0) by the rational CI run of both properties.
  const std::string ahn_b_layers =
      "a rounding-model tolerance per layer whose operation count triples per layer with B != 0 "
      "(every Z-form layer multiplies the x-rows by a matrix built from the previous x-rows, so "
      "the shadows grow as cubes) while the errors do not: margins at 3000 cases (seed 1, "
      "double, MPFR 256 and 512 bits) 1.8 at layer 1, 2.3-2.4 at layer 2, 2.8-3.1 at layer 3; "
      "at 100 cases, with 6-12 comparisons at layer 3, up to 10^4.66 (seeds 1-3, 512 bits), over "
      "the flat 10^4; the limit 10^(4 + (l - 1)) keeps >= 1.3 decades above every margin seen";
  const std::string propagated_depth =
      "the exact reference (rationals) against the propagated rounding bound of "
      "properties/propagated_rounding.hpp: each layer's or step's rounding at its realised "
      "input (gamma_n times that one layer run in absolute values), carried to later depths by "
      "the exact propagator of the recurrence with its signs, not by compounding shadows; "
      "margins at 1000 cases (seeds 1-3; double, long double, MPFR 256 bits) <= 10^3.3 at every "
      "depth, growing 0.1-0.3 decades per layer or step: CGD layers 1-6 1.8 -> 3.3, LFOM "
      "Memformers 1.6-1.8 at layer 1 -> 2.4-2.8 at their deepest (5, 6 or 8), momentum and "
      "Nesterov references 1.5 -> 3.2 over steps 1-12, Newton registers 1.7 -> 2.4 over steps "
      "2-5 (the compounding shadows before: up to 10^6.3, 10^4.2, 10^5.9 and 10^7.4). The flat "
      "10^4 keeps >= 0.7 decades above every margin seen, and a 10^6-loosened bound exceeds it at "
      "every depth";
  const std::string gdpp_rate_layers =
      "the rounding-model tolerance of each GD++ preconditioning layer is the running-error shadow "
      "of every earlier layer (properties/gdpp_rate.hpp), which grows as the cube of the previous "
      "one while the layer itself contracts the spectrum (the same shadow as the GD++ stack of "
      "vonoswald.gdpp_stack_equals_preconditioned_gd); margins at 1000 cases (seeds 1-3; MPFR 256 "
      "bits, double, long double; 84-1000 comparisons per layer) 2.05-2.20 at layer 1, "
      "3.54-3.64 at layer 2, 6.27-6.50 at layer 3, the same for every seed. The flat 10^4 called "
      "layer 3 vacuous in the main job's report (seed 1); the limit 10^(4 + 1.75 (l - 1)) keeps "
      ">= 1 decade above every margin seen (10^7.5 at layer 3), and a 10^6-loosened bound still "
      "exceeds it at layers 1-3. The eigenvalue map at every layer is also checked exactly "
      "(tolerance 0) by the rational CI run";
  static const std::vector<stated_check_limit> t = {
      {"gdpp_rate.preconditioning_layer_maps_each_eigenvalue_to_lambda_one_minus_gamma_lambda_"
       "squared",
       "layer *",
       {4.0, false, gdpp_rate_layers, 1.75}},
      {"akyurek.gelu_multiplication_within_proven_bound",
       "rounding term alone: *",
       {3.0, false, rounding_alone}},
      {"akyurek.layernorm_division_relative_error_is_minus_s_over_2ncm",
       "rounding term alone: *",
       {4.0, false, rounding_alone}},
      {"akyurek.theorem1_realised_chain_within_propagated_bound",
       "layer *: local error within one-layer bound",
       {4.0, false, local_layers}},
      {"akyurek.theorem2_realised_chain_within_propagated_bound",
       "layer *: local error within one-layer bound",
       {4.0, false, local_layers}},
      {"akyurek.theorem1_realised_chain_within_propagated_bound",
       "realised chain vs exact chain (data rows) within the propagated bound",
       {5.0, false, propagated_chain}},
      {"akyurek.theorem2_realised_chain_within_propagated_bound",
       "realised chain vs exact chain (data rows) within the propagated bound",
       {5.0, false, propagated_chain}},
      {"memformer.cgd_with_cg_coefficients_reproduces_cg_iterates",
       "layer *: CGD Memformer last row vs CG iterate w_l",
       {4.0, false, propagated_depth}},
      {"references.nesterov_equals_lfom_with_nesterov_coefficients",
       "step *: Nesterov look-ahead vs LFOM",
       {4.0, false, propagated_depth}},
      {"ahn.x_rows_follow_the_sheet_formula_when_b_is_nonzero",
       "layer *: Z vs the sheet's x- and y-row formulas",
       {4.0, false, ahn_b_layers, 1.0}},
      {"vonoswald.gd_stack_tokens_follow_k_gd_steps", "layer *", {4.0, false, deep_steps, 0.3}},
      {"vonoswald.gdpp_stack_equals_preconditioned_gd", "layer *", {4.0, false, deep_steps, 0.3}},
      {"ahn.lemma1_layers_run_preconditioned_gd_with_a_transpose",
       "layer *",
       {4.0, false, deep_steps, 0.3}},
      {"memformer.lfom_scalar_gamma_equals_lfom", "layer *", {4.0, false, propagated_depth}},
      {"memformer.momentum_gd_is_an_lfom_memformer", "layer *", {4.0, false, propagated_depth}},
      {"memformer.nesterov_is_an_lfom_memformer", "layer *", {4.0, false, propagated_depth}},
      {"memformer.diagonal_a_reaches_only_scalings_lambda_times_a_transpose",
       "layer *",
       {4.0, false, propagated_depth}},
      {"references.momentum_equals_lfom_with_momentum_coefficients",
       "step *: momentum vs LFOM",
       {4.0, false, propagated_depth}},
      {"iterative_newton.registers_hold_the_newton_iterates_after_every_layer",
       "step *: registers after layer *",
       {4.0, false, propagated_depth}},
  };
  return t;
}

int depth_of_check_label(const std::string& label) {
  for (const char* word : {"layer ", "step "}) {
    const std::string w = word;
    if (label.rfind(w, 0) != 0) continue;
    std::size_t i = w.size();
    int depth = 0;
    bool digits = false;
    while (i < label.size() && std::isdigit(static_cast<unsigned char>(label[i])) && depth < 100000)
      depth = 10 * depth + (label[i++] - '0'), digits = true;
    if (digits && depth >= 1) return depth;
  }
  return 1;
}

sharpness_limit sharpness_limit_of_check(const std::string& property_name,
                                         const std::string& check_label) {
  for (const stated_check_limit& c : stated_check_sharpness_limits())
    if (c.property == property_name && glob_match(c.label_glob, check_label)) {
      sharpness_limit at_depth = c.limit;
      at_depth.log10_factor += c.limit.log10_per_depth * (depth_of_check_label(check_label) - 1);
      at_depth.log10_per_depth = 0;
      return at_depth;
    }
  return sharpness_limit_of(property_name);
}

std::vector<vacuous_check> vacuous_checks(const property_result& r) {
  std::vector<vacuous_check> out;
  if (r.outcome != verdict::pass || r.cases < sharpness_min_cases) return out;
  for (const check_margin_result& c : r.check_margins) {
    const sharpness_limit limit = sharpness_limit_of_check(r.info.name, c.label);
    if (c.checks < sharpness_min_check_comparisons) continue;
    if (!limit.exempt && std::isfinite(c.margin_log10) && c.margin_log10 > limit.log10_factor)
      out.push_back({c.label, c.checks, c.margin_log10, limit.log10_factor});
  }
  return out;
}

}  // namespace iclproof
