#include "harness/sharpness.hpp"

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
        "floating point: the rate lambda / sigma_min^2 is attained along the smallest singular "
        "direction, margins measured <= 10^0.01; rationals: the squared Qed bound (lambda "
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

}  // namespace iclproof
