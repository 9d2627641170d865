// Fu, Chen, Jia, Sharan (NeurIPS 2024), Sec. 5: k iterations of iterative Newton in k + 2
// generic LSA layers for in-context regression (docs/constructions/iterative_newton.md). The
// checks and the derivation of every tolerance are in iterative_newton.hpp.
#include "iterative_newton.hpp"

#include "core/ball_linalg.hpp"
#include "core/rational.hpp"

using namespace iclproof;
using namespace iclproof::cite;
namespace in_checks = iclproof::iterative_newton_checks;

[[maybe_unused]] static constexpr const char* in_sizes =
    "fixed: d <= 4, N <= d + 5, k <= 4 keep the exact rationals of M_k (degree 2^(k+1) - 1 in S, "
    "alpha^(2^k)) small enough for the rational run; the identities do not depend on the size";

static constexpr const char* in_layer_missing =
    "the token-level layer algebra (selectors, the mask of the set-up layer, the zero blocks of "
    "the non-register tokens) is checked exactly by the property, not proved; the paper's App. B "
    "weights were not read (docs/constructions/iterative_newton.md)";

ICLPROOF_PROPERTY(
    in_prediction, "iterative_newton.prediction_after_k_plus_2_layers_is_x_q_m_k_x_y",
    "Per-prompt-alpha variant (alpha = 1/||S||_F^2 of each prompt written into the weights: not "
    "one fixed transformer): set-up layer, k Newton layers and the read-out layer (k + 2 generic "
    "LSA layers, d register tokens) leave x_q^T M_k X y in every query's y entry, M_0 = alpha S, "
    "M_j = 2 M_{j-1} - "
    "M_{j-1} S M_{j-1}, S = X X^T: d <= 4, N in d..d+5, k in 1..4 (exact in rationals).",
    exact_identity(identity("proofs/IterativeNewton.v:in_newton_layer"),
                   identity("proofs/IterativeNewton.v:in_readout"),
                   composition("proofs/IterativeNewton.v:in_stack_iter"))
        .missing(in_layer_missing)) {
  in_checks::prediction_with_alpha<T>(ctx, in_checks::real_constructions<T>(),
                                      in_checks::alpha_choice::inverse_frobenius_squared);
}
ICLPROOF_PROPERTY_BODY(in_prediction, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(in_prediction, ::iclproof::ball_real);
ICLPROOF_SIZES(in_prediction, in_sizes);

ICLPROOF_PROPERTY(
    in_authors_alpha, "iterative_newton.authors_code_alpha_gives_the_same_prediction_identity",
    "Per-prompt-alpha variant with the authors' code's alpha = 1/||S S^T||_F of each prompt "
    "(irrational: double, long double, MPFR and balls): the k + 2 layers still leave x_q^T M_k X y "
    "in the queries, and this alpha is >= "
    "1/||S||_F^2.",
    exact_identity(identity("proofs/IterativeNewton.v:in_newton_layer"),
                   identity("proofs/IterativeNewton.v:in_readout"),
                   composition("proofs/IterativeNewton.v:in_stack_iter"))
        .missing(std::string(in_layer_missing) +
                 "; the inequality 1/||S S^T||_F >= 1/||S||_F^2 is not proved")) {
  in_checks::prediction_with_alpha<T>(ctx, in_checks::real_constructions<T>(),
                                      in_checks::alpha_choice::authors_code);
}
ICLPROOF_NOT_APPLICABLE(in_authors_alpha, rational,
                        "alpha = 1/||S S^T||_F is irrational: no exact rational form");
ICLPROOF_PROPERTY_BODY(in_authors_alpha, ::iclproof::ball_real);
ICLPROOF_SIZES(in_authors_alpha, in_sizes);

ICLPROOF_PROPERTY(
    in_registers, "iterative_newton.registers_hold_the_newton_iterates_after_every_layer",
    "Per-prompt-alpha variant: after the set-up layer the d register tokens hold S, M_0 = alpha S "
    "and X y; after Newton "
    "layer j they hold M_j (j = 1..k, k in 1..4); no token's x part moves.",
    exact_identity(identity("proofs/IterativeNewton.v:in_setup"),
                   identity("proofs/IterativeNewton.v:in_newton_layer"),
                   composition("proofs/IterativeNewton.v:in_stack_iter"))
        .missing(in_layer_missing)) {
  in_checks::registers_hold_iterates<T>(ctx, in_checks::real_constructions<T>());
}
ICLPROOF_PROPERTY_BODY(in_registers, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(in_registers, ::iclproof::ball_real);
ICLPROOF_SIZES(in_registers, in_sizes);

ICLPROOF_PROPERTY(
    in_residual, "iterative_newton.residual_is_i_minus_alpha_s_squared_to_the_2_to_the_k",
    "Per-prompt-alpha variant: the layers' iterate after k Newton layers satisfies I - M_k S = "
    "(I - alpha S^2)^(2^k), alpha = 1/||S||_F^2 of the prompt, k in 1..3 (exact in rationals).",
    exact_identity(identity("proofs/IterativeNewton.v:in_residual_power"),
                   composition("proofs/IterativeNewton.v:in_stack_iter"))
        .missing(in_layer_missing)) {
  in_checks::residual_is_power<T>(ctx, in_checks::real_constructions<T>());
}
ICLPROOF_PROPERTY_BODY(in_residual, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(in_residual, ::iclproof::ball_real);
ICLPROOF_SIZES(in_residual, in_sizes);

ICLPROOF_PROPERTY(
    in_expansions, "iterative_newton.m1_and_m2_are_the_polynomials_of_the_recursion",
    "Per-prompt-alpha variant: the registers after Newton layers 1 and 2 equal M_1 = 2 alpha S - "
    "alpha^2 S^3 and M_2 = "
    "4 alpha S - 6 alpha^2 S^3 + 4 alpha^3 S^5 - alpha^4 S^7 (the expansions of the recursion "
    "that the Sec. 5 erratum entry compares with).",
    exact_identity(identity("proofs/IterativeNewton.v:in_m1_expansion"),
                   identity("proofs/IterativeNewton.v:in_m2_expansion"),
                   composition("proofs/IterativeNewton.v:in_stack_iter"))
        .missing(in_layer_missing)) {
  in_checks::m1_m2_expansions<T>(ctx, in_checks::real_constructions<T>());
}
ICLPROOF_PROPERTY_BODY(in_expansions, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(in_expansions, ::iclproof::ball_real);
ICLPROOF_SIZES(in_expansions, in_sizes);

ICLPROOF_EXACT_PROPERTY(
    in_ols, "iterative_newton.error_to_ols_is_the_residual_power_and_never_grows",
    "Per-prompt-alpha variant, with w* = S^-1 X y (exact solve) and w_j = M_j X y read off the "
    "registers: "
    "w* - w_k = (I - alpha S^2)^(2^k) w* exactly, and |w* - w_j|^2 does not increase with j "
    "(k in 1..4): the layers converge to OLS.",
    exact_identity(identity("proofs/IterativeNewton.v:in_ols_error"),
                   composition("proofs/IterativeNewton.v:in_residual_power"))
        .missing(std::string(in_layer_missing) +
                 "; the monotone decrease (eigenvalues of I - alpha S^2 in [0, 1)) is checked, "
                 "not proved"),
    "an exact solve for w* and exact equality: the float error of the solve has no shadow "
    "bound here") {
  in_checks::ols_error_is_residual_power<T>(ctx, in_checks::real_constructions<T>());
}
ICLPROOF_PROPERTY_BODY(in_ols, ::iclproof::ball_real);
ICLPROOF_SIZES(in_ols, in_sizes);
