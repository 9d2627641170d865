#include "harness/size_statement.hpp"

namespace iclproof {

const std::map<std::string, std::string>& stated_size_statements() {
  // "follows": the sizes named are drawn through sized_max / draw_size (size_profile.hpp) in the
  // property's generator; "fixed": why the small sizes are kept under every profile.
  static const std::string lsa =
      "follows: d up to the dimension cap, N up to the examples cap, one layer "
      "(gen_lsa_case, vonoswald.hpp)";
  static const std::string lsa_stack =
      "follows: d up to the dimension cap, N up to the examples cap, layers up to the "
      "depth cap (vonoswald.hpp)";
  static const std::string zform =
      "follows: d, N (gen_zform_spec) and layers up to the profile's caps";
  static const std::string cg =
      "follows: d up to the DEPTH cap (the claim runs rank(H) <= d layers / CG steps), N in "
      "[2d + 2, 3d + 12] or N < d - 1 (gen_cg_case, zform_checks.hpp)";
  static const std::string lfom =
      "follows: d, N (gen_zform_spec) and the layers / steps L up to the profile's caps "
      "(gen_lfom_method_case)";
  static const std::string ridge_family =
      "follows: d up to the dimension cap, N up to the examples cap (references.hpp)";
  static const std::string raw_fixed =
      "fixed: a RAW layer on a fixed small token layout (hidden size D <= 13, T <= 6 tokens) "
      "chosen to cover every op pattern; the hand-derived layer bounds (raw/layer_bounds.hpp) "
      "are first-order models not re-derived for larger layouts";
  static const std::string scalar_lemma =
      "fixed: a lemma about one activation or one LayerNorm on scalar inputs; it has no d, N or "
      "depth to scale (its knobs are drawn over their whole ranges under every profile)";
  static const std::string exact_chain =
      "follows: d up to the dimension cap, n examples (8 or 10 layers each) up to the depth cap "
      "(theorem1_exact_chain / theorem2_exact_chain, akyurek.hpp)";
  static const std::string realised_chain =
      "fixed: the chain length is set by the precision (chain_size_max: d, n <= 3 at >= 128 "
      "bits) because the propagated first-order bound grows geometrically with the number of "
      "layers and stops bounding anything beyond it";
  static const std::string cubature =
      "fixed: the exact population integral is a symmetric cubature whose node count grows "
      "exponentially in d N (d <= 3, N <= 6 under every profile)";
  static const std::map<std::string, std::string> t = {
      {"ahn.lemma1_layers_run_preconditioned_gd_with_a_transpose", zform},
      {"ahn.x_rows_follow_the_sheet_formula_when_b_is_nonzero",
       "partly: d, N follow the profile (gen_zform_spec); the layers stay 1..3 because with "
       "B != 0 the rounding depth triples per layer (3^L) and the shadows grow as their cubes"},
      {"akyurek.div_layer_realises_exact_div_within_bound", raw_fixed},
      {"akyurek.gelu_bypass_error_is_exponentially_small", scalar_lemma},
      {"akyurek.gelu_multiplication_error_is_second_order_in_downscale", scalar_lemma},
      {"akyurek.gelu_multiplication_within_proven_bound", scalar_lemma},
      {"akyurek.layernorm_bypass_closed_form_returns_n_not_2n", scalar_lemma},
      {"akyurek.layernorm_bypass_closed_form_squared_is_exact", scalar_lemma},
      {"akyurek.layernorm_division_closed_form", scalar_lemma},
      {"akyurek.layernorm_division_closed_form_squared_is_exact", scalar_lemma},
      {"akyurek.layernorm_division_relative_error_is_minus_s_over_2ncm", scalar_lemma},
      {"akyurek.raw_layer_realises_exact_raw_within_bound", raw_fixed},
      {"akyurek.softmax_hard_attention_deviation_is_exact_and_bounded",
       "fixed: one attention head on T <= 7 tokens with a fixed pattern encoding; its rounding "
       "tolerance is a first-order count not re-derived for longer sequences"},
      {"akyurek.theorem1_exact_chain_is_one_sgd_pass", exact_chain},
      {"akyurek.theorem1_realised_chain_within_propagated_bound", realised_chain},
      {"akyurek.theorem2_exact_chain_is_ridge", exact_chain},
      {"akyurek.theorem2_realised_chain_within_propagated_bound", realised_chain},
      {"memformer.cgd_after_rank_layers_equals_min_norm_prediction", cg},
      {"memformer.cgd_with_cg_coefficients_reproduces_cg_iterates", cg},
      {"memformer.diagonal_a_reaches_only_scalings_lambda_times_a_transpose", zform},
      {"memformer.lfom_scalar_gamma_equals_lfom", zform},
      {"memformer.momentum_gd_is_an_lfom_memformer", lfom},
      {"memformer.nesterov_is_an_lfom_memformer", lfom},
      {"memformer.nonconstant_gamma_row_breaks_the_linear_model_reading",
       "fixed: a lower-bound claim (the deviation exceeds a rounding floor) shown on one layer "
       "with d <= 5, N <= 16; larger sizes do not strengthen an existence claim"},
      {"population_optima.one_step_gd_isotropic_matches_exact_integral", cubature},
      {"population_optima.one_step_preconditioner_matches_exact_integral", cubature},
      {"population_optima.step_size_minimises_quadratic_exactly",
       "fixed: draws d <= 32, N <= 100 under every profile (closed-form moments, no data)"},
      {"references.bayes_posterior_mean_equals_ridge", ridge_family},
      {"references.cg_after_rank_steps_equals_min_norm", cg},
      {"references.iterated_sherman_morrison_equals_ridge", ridge_family},
      {"references.k_step_gd_equals_neumann_closed_form",
       "follows: d, N up to the profile's caps and K steps up to the depth cap (references.hpp)"},
      {"references.momentum_equals_lfom_with_momentum_coefficients", lfom},
      {"references.nesterov_equals_lfom_with_nesterov_coefficients", lfom},
      {"references.ridge_at_p_agrees_with_ridge_at_2p", ridge_family},
      {"references.ridge_tends_to_min_norm_least_squares", ridge_family},
      {"vonoswald.gd_stack_prediction_equals_neumann_closed_form", lsa_stack},
      {"vonoswald.gd_stack_tokens_follow_k_gd_steps", lsa_stack},
      {"vonoswald.gdpp_layer_transforms_inputs_and_steps_targets", lsa},
      {"vonoswald.gdpp_stack_equals_preconditioned_gd",
       "partly: d, N follow the profile (gen_lsa_case); the layers stay 1..5 because the shadow "
       "of S_l is cubic in the previous layer's (its exponent triples per layer: at L = 15 the "
       "tolerance overflows double to NaN)"},
      {"vonoswald.prop1_layer_is_exact_on_dyadic_data",
       "fixed: d <= 6, N <= 16 small integers keep every intermediate a dyadic rational of "
       "~30 bits, computed exactly even in double; larger sums would need more bits than double "
       "has and the bit-for-bit claim would no longer hold"},
      {"vonoswald.prop1_layer_moves_every_token_by_one_gd_step", lsa},
      {"vonoswald.prop1_readout_predicts_w0_plus_delta_w", lsa},
      {"vonoswald.unmasked_layer_deviates_by_the_query_term", lsa},
      {"vonoswald.unmasked_layer_is_exact_when_w0_xq_equals_yq0", lsa},
  };
  return t;
}

std::string size_statement_of(const std::string& property_name) {
  const auto& t = stated_size_statements();
  const auto it = t.find(property_name);
  return it == t.end() ? std::string() : it->second;
}

}  // namespace iclproof
