// Vladymyrov, von Oswald, Sandler, Ge 2024, Theorem 4.1 / Lemma 4.3 / Lemma 4.4: the implicit
// weights of random (not built) masked linear transformers. Checks and tolerances in
// implicit_weights.hpp; the contract in docs/constructions/implicit_weights.md.
#include "implicit_weights.hpp"

#include "core/ball_linalg.hpp"
#include "core/rational.hpp"

using namespace iclproof;
using namespace iclproof::cite;
using namespace iclproof::implicit_weights_checks;

[[maybe_unused]] static constexpr const char* random_lt_sizes =
    "fixed: d <= 4, o <= 2, n <= 6 context tokens, 1-3 layers of 1-2 heads: the rational "
    "entries' sizes triple per layer (each layer is cubic in its input), and the exact run is "
    "the point of the property";

ICLPROOF_PROPERTY(
    iw_tokens_general,
    "implicit_weights.every_token_of_a_random_linear_transformer_is_linear_in_the_input",
    "For random masked linear transformers (1-3 layers, 1-2 heads of arbitrary W_K, W_Q, W_V, P, "
    "o in 1..2), every token of every layer, queries included with arbitrary y_q, equals "
    "[[M^l x + u^l y], [a^l y - (w^l)^T x]] with the states read_implicit_weights computes "
    "without running the layers (Theorem 4.1 via Lemma 4.3).",
    exact_identity(identity("proofs/ImplicitWeights.v:implicit_layer_update"),
                   identity("proofs/ImplicitWeightsHeads.v:masked_layer_token_map"),
                   composition("proofs/ImplicitWeightsHeads.v:masked_stack_implicit_tokens"))) {
  every_token_is_read_by_the_implicit_state<T>(ctx, head_form::general, &read_implicit_weights<T>);
}
ICLPROOF_PROPERTY_BODY(iw_tokens_general, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(iw_tokens_general, ::iclproof::ball_real);
ICLPROOF_SIZES(iw_tokens_general, random_lt_sizes);

ICLPROOF_PROPERTY(
    iw_tokens_paper,
    "implicit_weights.every_token_of_a_random_paper_form_transformer_is_linear_in_the_input",
    "The same for the paper's parametrisation e_i += sum_k P_k (sum_j e_j e_j^T) Q_k e_i with "
    "random full P_k, Q_k (W_K = W_V = I, W_Q = Q, P = P).",
    exact_identity(identity("proofs/ImplicitWeights.v:implicit_layer_update"),
                   identity("proofs/ImplicitWeightsHeads.v:masked_layer_token_map"),
                   composition("proofs/ImplicitWeightsHeads.v:masked_stack_implicit_tokens"))) {
  every_token_is_read_by_the_implicit_state<T>(ctx, head_form::paper, &read_implicit_weights<T>);
}
ICLPROOF_PROPERTY_BODY(iw_tokens_paper, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(iw_tokens_paper, ::iclproof::ball_real);
ICLPROOF_SIZES(iw_tokens_paper, random_lt_sizes);

ICLPROOF_PROPERTY(
    iw_prediction, "implicit_weights.prediction_is_the_implicit_linear_model_on_the_query",
    "With y_q = 0 the read-out -y^L_q of a random masked linear transformer is (w^L)^T x_q: a "
    "linear model of the query whose weights w^L depend on the context only.",
    exact_identity(identity("proofs/ImplicitWeightsHeads.v:masked_stack_readout"),
                   composition("proofs/ImplicitWeightsHeads.v:masked_stack_implicit_tokens"))) {
  prediction_is_the_implicit_linear_model<T>(ctx, &read_implicit_weights<T>);
}
ICLPROOF_PROPERTY_BODY(iw_prediction, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(iw_prediction, ::iclproof::ball_real);
ICLPROOF_SIZES(iw_prediction, random_lt_sizes);

ICLPROOF_PROPERTY(
    iw_diag_gd, "implicit_weights.diagonal_layer_is_preconditioned_gd_on_the_implicit_loss",
    "Diagonal heads (o = 1): each layer updates w' = (1 + w_yy lambda) w - w_yx M^T M g - w_yx h "
    "M^T u with g = sum (a y_i - w^T x_i) x_i = -grad f/2 of f(w) = sum (a y_i - w^T x_i)^2 and "
    "h = sum y_i (a y_i - w^T x_i), and u, a, M as Lemma A.1 re-derived (Lemma 4.4's reading: a "
    "preconditioned GD step with preconditioner w_yx M^T M, rescaling and a momentum-like term).",
    exact_identity(identity("proofs/ImplicitWeights.v:implicit_layer_update"),
                   identity("proofs/ImplicitWeights.v:diagonal_token_map"))
        .missing("the substitution alpha = M g + h u of the diagonal form (docs/constructions/"
                 "implicit_weights.md) is derived in the contract, not in Coq")) {
  diagonal_layer_is_preconditioned_gd_on_the_implicit_loss<T>(ctx, &read_implicit_weights<T>);
}
ICLPROOF_PROPERTY_BODY(iw_diag_gd, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(iw_diag_gd, ::iclproof::ball_real);
ICLPROOF_SIZES(iw_diag_gd, random_lt_sizes);

ICLPROOF_PROPERTY(
    iw_gd_stack, "implicit_weights.gd_stack_reads_as_the_gd_iterates",
    "Read off von Oswald's built GD stack (W0 = 0, step eta), the implicit weights are M = I, "
    "u = 0, a = I and w^l = W_l^T, the l-th GD iterate, at every layer (compared for equality, "
    "no tolerance, on dyadic data).",
    exact_identity(identity("proofs/ImplicitWeightsHeads.v:gd_stack_read_states"),
                   identity("proofs/ImplicitWeights.v:implicit_layer_update"))) {
  gd_stack_reads_as_gd_iterates<T>(ctx, &read_implicit_weights<T>);
}
ICLPROOF_PROPERTY_BODY(iw_gd_stack, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(iw_gd_stack, ::iclproof::ball_real);
ICLPROOF_SIZES(iw_gd_stack,
               "fixed: d <= 4, N <= 8, K <= 2 and small integers keep every value a short "
               "dyadic rational, exact even in double (the bit-for-bit claim)");
