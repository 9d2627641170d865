// Fu, Chen, Jia, Sharan (NeurIPS 2024), Theorem 5.1 as App. B.2 builds it: ReLU attention and
// one MLP per Newton step, weights fixed for a data class (alpha = 1/9216 from ||x_i||^2 <= 16,
// n <= 6; the read-out's label bound Y = 2), on the generic layers of lsa/relu_layers.hpp, in the
// paper's k + 8 layers and in the compact k + 4 (docs/constructions/iterative_newton.md; checks
// in fu_relu_checks.hpp).
#include "fu_relu_checks.hpp"

using namespace iclproof;
using namespace iclproof::cite;
namespace fu_ck = iclproof::fu_relu_checks;

[[maybe_unused]] static constexpr const char* fu_relu_sizes =
    "fixed: the data class d <= 4, n <= 6, entries in [-2, 2] that fixes alpha, k <= 3 (k <= 4 "
    "in the outside-the-class measurement); the identities do not depend on the size";

static constexpr const char* fu_relu_layout_missing =
    "the token-level block algebra (selectors, context keys, the zero blocks of the query tokens) "
    "is checked exactly by the property, not proved";

static constexpr const char* fu_relu_exact_only =
    "exact identities of a ReLU transformer checked with tolerance 0 in rationals (ReLU is exact "
    "there); no rounding model for the ReLU layers yet";

ICLPROOF_EXACT_PROPERTY(
    fu_relu_predict,
    "iterative_newton.fu_relu_transformer_with_fixed_weights_predicts_x_q_m_k_x_y_in_k_plus_4_"
    "blocks",
    "One ReLU transformer per (d, k), built from d, k and the class's alpha = 1/9216 only (k + 4 "
    "blocks: App. B.2's 3 set-up layers and k attention + MLP Newton layers, one read-out block "
    "for the paper's 5; at most 2 heads, width 2d + 2), gives x_q^T M_k X y exactly on three "
    "prompts of the class each (d <= 4, n <= 6, entries in [-2, 2]; k in 0..3).",
    exact_identity(identity("proofs/FuReluNewton.v:fu_relu_pair"),
                   identity("proofs/FuReluNewton.v:fu_init_blocks"),
                   identity("proofs/FuReluNewton.v:fu_newton_block_sym"),
                   identity("proofs/FuReluNewton.v:fu_readout"),
                   composition("proofs/NewtonSchulz.v:ns_iter_residual"))
        .missing(std::string(fu_relu_layout_missing) +
                 "; that T stays symmetric along the recursion is checked, not proved"),
    fu_relu_exact_only) {
  fu_ck::fixed_weights_predict<T>(ctx, fu_ck::real_fu_relu<T>());
}
ICLPROOF_PROPERTY_BODY(fu_relu_predict, ::iclproof::ball_real);
ICLPROOF_SIZES(fu_relu_predict, fu_relu_sizes);

ICLPROOF_EXACT_PROPERTY(
    fu_relu_blocks,
    "iterative_newton.fu_relu_blocks_hold_alpha_s_x_then_m_l_x_on_every_context_token",
    "After the 3 set-up blocks every context token's u block is alpha S x_j, after Newton block l "
    "it is M_l x_j (attention u - (1/2) T S T^T x, then the MLP doubles), l = 1..k, k in 1..3 "
    "(exact).",
    exact_identity(identity("proofs/FuReluNewton.v:fu_init_blocks"),
                   identity("proofs/FuReluNewton.v:fu_newton_block"),
                   identity("proofs/FuReluNewton.v:fu_newton_block_sym"))
        .missing(fu_relu_layout_missing),
    fu_relu_exact_only) {
  fu_ck::blocks_hold_the_iterates<T>(ctx, fu_ck::real_fu_relu<T>());
}
ICLPROOF_PROPERTY_BODY(fu_relu_blocks, ::iclproof::ball_real);
ICLPROOF_SIZES(fu_relu_blocks, fu_relu_sizes);

ICLPROOF_EXACT_PROPERTY(
    fu_relu_residual,
    "iterative_newton.fu_relu_residual_at_the_fixed_alpha_is_i_minus_alpha_s_squared_to_the_2_to_"
    "the_k",
    "At the class's fixed alpha the iterate read off the context tokens (U = M_k X) satisfies "
    "X - U X^T X = (I - alpha S^2)^(2^k) X, k in 1..3 (exact).",
    exact_identity(identity("proofs/IterativeNewton.v:in_residual_power"),
                   composition("proofs/FuReluNewton.v:fu_newton_block_sym"))
        .missing(fu_relu_layout_missing),
    fu_relu_exact_only) {
  fu_ck::residual_at_fixed_alpha<T>(ctx, fu_ck::real_fu_relu<T>());
}
ICLPROOF_PROPERTY_BODY(fu_relu_residual, ::iclproof::ball_real);
ICLPROOF_SIZES(fu_relu_residual, fu_relu_sizes);

ICLPROOF_EXACT_PROPERTY(
    fu_relu_contraction,
    "iterative_newton.fu_relu_error_contracts_for_every_prompt_of_the_class_at_the_fixed_alpha",
    "Every prompt of the class has ||X||_F^2 <= 96 and alpha ||S||_F^2 <= 1; for nonsingular S "
    "the transformer's prediction error is x_q^T (I - alpha S^2)^(2^k) w* and "
    "||(I - alpha S^2)^(2^k) w*||^2 does not increase in k = 0..3 (exact).",
    exact_identity(identity("proofs/IterativeNewton.v:in_ols_error"),
                   bound("proofs/FuReluNewton.v:fu_class_contraction"),
                   bound("proofs/FuReluNewton.v:fu_contraction_frobenius"),
                   bound("proofs/FuReluNewton.v:fu_frobenius_bound"),
                   bound("proofs/FuReluNewton.v:fu_gram_frobenius"),
                   composition("proofs/FuReluNewton.v:fu_readout"))
        .missing(fu_relu_layout_missing),
    fu_relu_exact_only) {
  fu_ck::contraction_in_the_class<T>(ctx, fu_ck::real_fu_relu<T>());
}
ICLPROOF_PROPERTY_BODY(fu_relu_contraction, ::iclproof::ball_real);
ICLPROOF_SIZES(fu_relu_contraction, fu_relu_sizes);

ICLPROOF_EXACT_PROPERTY(
    fu_relu_outside,
    "iterative_newton.fu_relu_just_outside_the_class_the_error_grows_once_alpha_lambda_squared_"
    "passes_2",
    "Measured on n = 6..10 copies of x = (2, 2, 2, 2), y = 1 (the class has n <= 6): the fixed-"
    "weight transformer's error is exactly (1 - alpha lambda^2)^(2^k), lambda = 16 n, k = 0..4; "
    "it still shrinks at n = 7, 8 (alpha lambda^2 = 49/36, 16/9) and grows at n = 9, 10 (9/4, "
    "25/9: the error is 35.5 at n = 9, k = 4).",
    measured(identity("proofs/NewtonSchulz.v:ns_iter_residual"))
        .missing("the scalar reduction on span(v) is hand-derived; the numbers are measured"),
    fu_relu_exact_only) {
  fu_ck::just_outside_the_class<T>(ctx, fu_ck::real_fu_relu<T>());
}
ICLPROOF_PROPERTY_BODY(fu_relu_outside, ::iclproof::ball_real);
ICLPROOF_SIZES(fu_relu_outside, "fixed: the prompts are fixed (n = 6..10 copies of one vector)");

ICLPROOF_EXACT_PROPERTY(
    fu_relu_printed,
    "iterative_newton.fu_app_b2_heads_as_printed_with_v1_equal_v2_add_absolute_scores",
    "App. B.2 prints the two ReLU heads with the same value matrix (eqs. 21-22, 27-28); then "
    "sigma(s) + sigma(-s) = |s| and the set-up block gives x_t + alpha sum_j |x_t^T x_j| x_j, "
    "which differs from x_t + alpha S x_t whenever some x_t^T x_j < 0 (exact). The family's "
    "blocks use V_2 = -V_1.",
    exact_identity(identity("proofs/FuReluNewton.v:fu_relu_pair_same"),
                   identity("proofs/FuReluNewton.v:fu_relu_pair"))
        .missing(fu_relu_layout_missing),
    fu_relu_exact_only) {
  fu_ck::printed_heads_give_absolute_scores<T>(ctx, fu_ck::real_fu_relu<T>());
}
ICLPROOF_PROPERTY_BODY(fu_relu_printed, ::iclproof::ball_real);
ICLPROOF_SIZES(fu_relu_printed, fu_relu_sizes);

static constexpr const char* fu_paper_layout_missing =
    "the token-level block algebra of the paper's layout (selectors, positions, flags, the zero "
    "blocks of the other tokens) is checked exactly by the property, not proved; that T stays "
    "symmetric along the recursion is checked, not proved";

ICLPROOF_PROPERTY(
    fu_paper_predict,
    "iterative_newton.fu_paper_transformer_with_fixed_weights_predicts_x_test_m_k_x_y_in_k_plus_"
    "8_layers",
    "Theorem 5.1's layer count: one ReLU transformer per (d, k), built from d, k, alpha = 1/9216 "
    "and Y = 2 only (k + 8 blocks: App. B.2's 3 set-up layers, k attention + MLP Newton layers and "
    "the 5 read-out layers of eqs. 33-35, mov, mul, Lemma B.3's sum, mov, mul; at most 2 heads, "
    "width 6d + 7; the paper's prompt x_1, y_1, ..., x_n, y_n, x_test), gives x_test^T M_k X y on "
    "three prompts of the class each (d <= 4, n <= 6, entries in [-2, 2]; k in 0..3): exactly "
    "in rationals, within 2 gamma_n (shadow of both programs) in double, long double and MPFR.",
    exact_identity(identity("proofs/FuReluNewton.v:fu_relu_pair"),
                   identity("proofs/FuReluNewton.v:fu_init_blocks"),
                   identity("proofs/FuReluNewton.v:fu_newton_block_sym"),
                   identity("proofs/FuReluNewton.v:fu_select_on"),
                   identity("proofs/FuReluNewton.v:fu_select_off"),
                   identity("proofs/FuReluNewton.v:fu_label_mul_off"),
                   identity("proofs/FuReluNewton.v:fu_lemma_b3_heads"),
                   identity("proofs/FuReluNewton.v:fu_label_sum"),
                   identity("proofs/FuReluNewton.v:fu_readout"),
                   composition("proofs/NewtonSchulz.v:ns_iter_residual"))
        .missing(fu_paper_layout_missing)) {
  fu_ck::paper_layout_predicts<T>(ctx, fu_ck::real_fu_relu<T>());
}
ICLPROOF_PROPERTY_BODY(fu_paper_predict, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(fu_paper_predict, ::iclproof::ball_real);
ICLPROOF_SIZES(fu_paper_predict, fu_relu_sizes);

ICLPROOF_EXACT_PROPERTY(
    fu_paper_roles,
    "iterative_newton.fu_paper_read_out_layers_mov_mul_sum_mov_mul_hold_t_x_then_y_t_x_then_t_x_"
    "y_then_the_prediction",
    "In the paper's k + 8 layers, after the Newton blocks the x tokens hold M_k x_j; R1 (mov, eq. "
    "33) puts M_k x_j into label token j and nowhere else; R2 (mul, eq. 33) y_j M_k x_j into "
    "label token j and nowhere else; R3 (Lemma B.3's sum over the label tokens) M_k X y into "
    "every token; R4 (mov, eq. 35) M_k X y into the query token only; R5 (mul, eq. 35) "
    "<x_test, M_k X y> into the query's prediction entry; k in 0..3 (exact).",
    exact_identity(identity("proofs/FuReluNewton.v:fu_select_on"),
                   identity("proofs/FuReluNewton.v:fu_select_off"),
                   identity("proofs/FuReluNewton.v:fu_relu_pair"),
                   identity("proofs/FuReluNewton.v:fu_label_mul_off"),
                   identity("proofs/FuReluNewton.v:fu_lemma_b3_heads"),
                   identity("proofs/FuReluNewton.v:fu_label_sum"))
        .missing(fu_paper_layout_missing),
    fu_relu_exact_only) {
  fu_ck::paper_layers_do_their_roles<T>(ctx, fu_ck::real_fu_relu<T>());
}
ICLPROOF_PROPERTY_BODY(fu_paper_roles, ::iclproof::ball_real);
ICLPROOF_SIZES(fu_paper_roles, fu_relu_sizes);

ICLPROOF_EXACT_PROPERTY(
    fu_paper_label_bound,
    "iterative_newton.fu_paper_label_mul_is_exact_up_to_four_times_the_label_bound_and_not_"
    "beyond",
    "Measured: R2 (mul) adds sigma(+-y_t - Y (t - t_j)^2) v_j over the keys, Y = 2; only label "
    "tokens carry v and they are 2 columns apart, so on X = I (d = 2), y = (y_1, 1), k = 1 the "
    "first label token's m is exactly y_1 M_1 x_1 for y_1 = 2, 3, 8 and not for y_1 = 9 > 4Y.",
    measured(identity("proofs/FuReluNewton.v:fu_label_mul_off"))
        .missing("the prompts are fixed; the margin 4Y (label tokens 2 columns apart) is "
                 "hand-derived"),
    fu_relu_exact_only) {
  fu_ck::label_mul_needs_the_label_bound<T>(ctx, fu_ck::real_fu_relu<T>());
}
ICLPROOF_PROPERTY_BODY(fu_paper_label_bound, ::iclproof::ball_real);
ICLPROOF_SIZES(fu_paper_label_bound, "fixed: one prompt (d = 2, n = 2), y_1 in {2, 3, 8, 9}");
