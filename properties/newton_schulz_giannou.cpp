// Giannou et al. (AISTATS 2025; arXiv 2403.03183 v1) with the paper's resources: Lemma 4.1
// (2 layers, 2 heads each, width 4d, any square A), its one-layer symmetric case, and
// Theorem 4.2 (3 + T layers, 2 heads, prediction a_test^T X_T A^T y) with a fixed eps from a
// bound on the data class (docs/constructions/newton_schulz.md; checks in giannou_checks.hpp).
#include "giannou_checks.hpp"

using namespace iclproof;
using namespace iclproof::cite;
namespace giannou_ck = iclproof::giannou_checks;

[[maybe_unused]] static constexpr const char* giannou_sizes =
    "fixed: d <= 5 (Lemma 4.1) and the data class d <= 4, n <= 6, entries in [-2, 2] of "
    "Theorem 4.2's fixed eps; the identities do not depend on the size";

static constexpr const char* giannou_layout_missing =
    "the token layout is ours (the paper's display equations were lost in the transcription "
    "read; docs/constructions/newton_schulz.md); the C++ selectors being the Coq selectors is "
    "checked exactly by the property, not proved";

static constexpr const char* giannou_exact_only =
    "exact identities checked with tolerance 0 in rationals; the float runs of the same layers "
    "are the newton_schulz.* properties of the one-head variant";

ICLPROOF_EXACT_PROPERTY(
    giannou_g41_step,
    "newton_schulz.giannou_lemma_4_1_two_layers_of_two_heads_width_4d_step_any_square_a",
    "Lemma 4.1 with its resources: 2 generic LSA layers, 2 heads each, token width 4d, map "
    "[X; A; I; 0] to [X (2I - A X); A; I; 0] for a random non-symmetric integer A and dyadic X, "
    "d in 1..5 (exact; the token layout is ours: the paper's display equations were lost in "
    "the transcription read).",
    exact_identity(identity("proofs/GiannouNewton.v:g41_two_layer_step"),
                   composition("proofs/GiannouNewton.v:g41_first_layer"),
                   composition("proofs/GiannouNewton.v:g41_second_layer"),
                   identity("proofs/GiannouNewton.v:g41_newton_form")),
    giannou_exact_only) {
  giannou_ck::lemma41_two_layers_give_one_step<T>(ctx, giannou_ck::real_giannou<T>());
}
ICLPROOF_PROPERTY_BODY(giannou_g41_step, ::iclproof::ball_real);
ICLPROOF_SIZES(giannou_g41_step, giannou_sizes);

ICLPROOF_EXACT_PROPERTY(
    giannou_g41_stack,
    "newton_schulz.giannou_lemma_4_1_stack_squares_the_residual_from_x0_eps_a_transpose",
    "k copies of Lemma 4.1's two layers from X_0 = eps A^T, eps = 1/||A||_F^2 (inside the "
    "paper's (0, 2/lambda_1(A A^T))), hold X_j after 2j layers and I - X_k A = (I - X_0 A)^(2^k), "
    "k in 1..3 (exact; the token layout is ours: the paper's display equations were lost in "
    "the transcription read).",
    exact_identity(identity("proofs/GiannouNewton.v:g41_stack_iter"),
                   identity("proofs/NewtonSchulz.v:ns_iter_residual")),
    giannou_exact_only) {
  giannou_ck::lemma41_stack_residual_squares<T>(ctx, giannou_ck::real_giannou<T>());
}
ICLPROOF_PROPERTY_BODY(giannou_g41_stack, ::iclproof::ball_real);
ICLPROOF_SIZES(giannou_g41_stack, giannou_sizes);

ICLPROOF_EXACT_PROPERTY(
    giannou_g41_symmetric,
    "newton_schulz.giannou_symmetric_a_one_layer_of_two_heads_gives_the_step",
    "Lemma 4.1's symmetric case: one generic LSA layer of 2 heads, width 4d, maps [X; A; I; 0] "
    "to [X (2I - A X); A; I; 0] for a random symmetric integer A, d in 1..5 (exact; the token "
    "layout is ours: the paper's display equations were lost in the transcription read).",
    exact_identity(identity("proofs/GiannouNewton.v:g41_symmetric_layer"),
                   composition("proofs/GiannouNewton.v:g41_symmetric_layer_any")),
    giannou_exact_only) {
  giannou_ck::symmetric_one_layer_gives_one_step<T>(ctx, giannou_ck::real_giannou<T>());
}
ICLPROOF_PROPERTY_BODY(giannou_g41_symmetric, ::iclproof::ball_real);
ICLPROOF_SIZES(giannou_g41_symmetric, giannou_sizes);

ICLPROOF_EXACT_PROPERTY(
    giannou_g41_needs_symmetry,
    "newton_schulz.giannou_one_layer_on_a_non_symmetric_a_gives_2x_minus_x_a_transpose_x",
    "The one-layer symmetric step on a non-symmetric A gives 2X - X A^T X, and that is the "
    "Newton step of A exactly when X (A - A^T) X = 0: the lemma's restriction to symmetric A is "
    "needed by this layer (exact; the token layout is ours: the paper's display equations were "
    "lost in the transcription read).",
    exact_identity(identity("proofs/GiannouNewton.v:g41_symmetric_layer_any")),
    giannou_exact_only) {
  giannou_ck::symmetric_layer_on_nonsymmetric_a<T>(ctx, giannou_ck::real_giannou<T>());
}
ICLPROOF_PROPERTY_BODY(giannou_g41_needs_symmetry, ::iclproof::ball_real);
ICLPROOF_SIZES(giannou_g41_needs_symmetry, giannou_sizes);

ICLPROOF_EXACT_PROPERTY(
    giannou_g42_predict,
    "newton_schulz.giannou_theorem_4_2_t_plus_3_layers_predict_a_test_x_t_a_transpose_y",
    "Theorem 4.2 with fixed weights: T + 3 generic LSA layers (at most 2 heads, width 4d + 2 <= "
    "the paper's 4d + 3, eps = 1/9216 from the class bound tr(A^T A) <= 96 of d <= 4, n <= 6, "
    "entries in [-2, 2]) hold X_T (T Newton steps on A^T A from eps A^T A) in the registers and "
    "leave a_test^T X_T A^T y in every query, T in 0..3 (exact).",
    exact_identity(identity("proofs/IterativeNewton.v:in_setup"),
                   identity("proofs/GiannouNewton.v:g42_newton_heads"),
                   identity("proofs/GiannouNewton.v:g42_readout"),
                   composition("proofs/IterativeNewton.v:in_stack_iter"))
        .missing(std::string(giannou_layout_missing) +
                 "; the masks of the set-up and read-out layers and the zero blocks of the "
                 "non-register tokens are checked, not proved"),
    giannou_exact_only) {
  giannou_ck::thm42_layers_predict<T>(ctx, giannou_ck::real_giannou<T>());
}
ICLPROOF_PROPERTY_BODY(giannou_g42_predict, ::iclproof::ball_real);
ICLPROOF_SIZES(giannou_g42_predict, giannou_sizes);

ICLPROOF_EXACT_PROPERTY(
    giannou_g42_error,
    "newton_schulz.giannou_theorem_4_2_error_is_the_residual_power_at_the_class_eps",
    "For every prompt of the class eps tr(A^T A)^2 <= 1 (so eps lambda_max^2 <= 1 < 2), and for "
    "nonsingular A^T A the prediction error of the T + 3 layers is a_test^T w* - y_hat = "
    "a_test^T (I - eps (A^T A)^2)^(2^T) w*, with ||(I - eps (A^T A)^2)^(2^T) w*||^2 not "
    "increasing in T = 0..3 (exact).",
    exact_identity(identity("proofs/IterativeNewton.v:in_ols_error"),
                   composition("proofs/IterativeNewton.v:in_residual_power"),
                   composition("proofs/GiannouNewton.v:g42_readout"))
        .missing(std::string(giannou_layout_missing) +
                 "; lambda_max <= trace and the monotone decrease are checked, not proved"),
    giannou_exact_only) {
  giannou_ck::thm42_error_is_residual_power<T>(ctx, giannou_ck::real_giannou<T>());
}
ICLPROOF_PROPERTY_BODY(giannou_g42_error, ::iclproof::ball_real);
ICLPROOF_SIZES(giannou_g42_error, giannou_sizes);
