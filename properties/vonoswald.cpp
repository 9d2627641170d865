// von Oswald et al. (2023): Proposition 1, the unmasked deviation, K-layer and recurrent GD
// stacks and GD++ on the generic LSA layer (CONSTRUCTIONS.md sections 1-2). The checks and the
// derivation of every tolerance are in vonoswald.hpp.
#include "vonoswald_dyadic.hpp"

#include "core/ball_linalg.hpp"
#include "core/rational.hpp"

using namespace iclproof;
using namespace iclproof::cite;
using namespace iclproof::vonoswald_checks;

// What the properties below do under --size paper and --size large (harness/size_statement.hpp).
[[maybe_unused]] static constexpr const char* lsa_stack_sizes =
    "follows: d up to the dimension cap, N up to the examples cap, layers up to the "
    "depth cap (vonoswald.hpp)";
[[maybe_unused]] static constexpr const char* lsa_sizes =
    "follows: d up to the dimension cap, N up to the examples cap, one layer "
    "(gen_lsa_case, vonoswald.hpp)";

ICLPROOF_PROPERTY(
    prop1_tokens, "vonoswald.prop1_layer_moves_every_token_by_one_gd_step",
    "The masked Prop. 1 head (W_K = W_Q = [[I,0],[0,0]], W_V = [[0,0],[W0,-I]], P = (eta/N) I) "
    "maps every token, queries included, to (x_j; y_j - DeltaW x_j) with DeltaW = -eta grad "
    "L(W0): random W0, o in 1..3, N < d and N > d, 1-3 queries with arbitrary y_q0; x-parts "
    "bit-identical.",
    exact_identity(identity("proofs/VonOswald.v:prop1_lsa_gd_step"))) {
  prop1_every_token_is_gd_updated<T>(ctx, real_constructions<T>());
}
ICLPROOF_PROPERTY_BODY(prop1_tokens, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(prop1_tokens, ::iclproof::ball_real);
ICLPROOF_SIZES(prop1_tokens, lsa_sizes);

ICLPROOF_PROPERTY(
    prop1_dyadic, "vonoswald.prop1_layer_is_exact_on_dyadic_data",
    "On small-integer data with N and eta powers of two, the Prop. 1 layer and the GD step are "
    "both computed exactly and agree bit for bit in every precision iclproof accepts (no "
    "tolerance; the proof needs N D^5 b^6 + b 2^(j+k) < 2^p, p >= 32 for the drawn sizes).",
    exact_identity(identity("proofs/VonOswald.v:prop1_lsa_gd_step"),
                   identity("proofs/DyadicExact.v:prop1_dyadic_exact_in_floating_point"))) {
  prop1_exact_on_dyadic_data<T>(ctx, real_constructions<T>());
}
ICLPROOF_PROPERTY_BODY(prop1_dyadic, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(prop1_dyadic, ::iclproof::ball_real);
ICLPROOF_SIZES(
    prop1_dyadic,
    "fixed: d <= 6, N <= 16 small integers keep every intermediate an integer multiple of "
    "2^-(j+k) of at most 32 bits (DyadicExact.v: dyadic_bound), computed exactly even in "
    "double; larger sums would need more bits than double has and the bit-for-bit claim would "
    "no longer hold");

ICLPROOF_PROPERTY(
    prop1_readout, "vonoswald.prop1_readout_predicts_w0_plus_delta_w",
    "With y_q0 = -W0 x_q the prediction -(y-part of the query after the layer) equals "
    "(W0 + DeltaW) x_q, the GD-updated model's prediction.",
    exact_identity(identity("proofs/VonOswald.v:prop1_layer_readout"))) {
  prop1_readout_predicts_updated_model<T>(ctx, real_constructions<T>());
}
ICLPROOF_PROPERTY_BODY(prop1_readout, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(prop1_readout, ::iclproof::ball_real);
ICLPROOF_SIZES(prop1_readout, lsa_sizes);

ICLPROOF_PROPERTY(
    unmasked_dev, "vonoswald.unmasked_layer_deviates_by_the_query_term",
    "With the queries among the keys/values, every token's y-part is the GD-updated one plus "
    "exactly (eta/N) (W0 Xq - Yq0) Xq^T x_j.",
    exact_identity(identity("proofs/VonOswald.v:prop1_unmasked_deviation"),
                   identity("proofs/VonOswald.v:prop1_lsa_gd_step"))) {
  unmasked_layer_deviation<T>(ctx, real_constructions<T>());
}
ICLPROOF_PROPERTY_BODY(unmasked_dev, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(unmasked_dev, ::iclproof::ball_real);
ICLPROOF_SIZES(unmasked_dev, lsa_sizes);

ICLPROOF_PROPERTY(
    unmasked_exact, "vonoswald.unmasked_layer_is_exact_when_w0_xq_equals_yq0",
    "When W0 Xq = Yq0 holds exactly (dyadic W0, Xq), the unmasked Prop. 1 layer is the GD step "
    "again.",
    exact_identity(identity("proofs/VonOswald.v:prop1_unmasked_exact"))) {
  unmasked_layer_exact_when_readout_consistent<T>(ctx, real_constructions<T>());
}
ICLPROOF_PROPERTY_BODY(unmasked_exact, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(unmasked_exact, ::iclproof::ball_real);
ICLPROOF_SIZES(unmasked_exact, lsa_sizes);

ICLPROOF_PROPERTY(
    gd_stack, "vonoswald.gd_stack_tokens_follow_k_gd_steps",
    "K masked Prop. 1 layers with W0 = 0 (a stack of K layers, and one layer applied K times) "
    "hold [[X, Xq], [Y - W_k X, -W_k Xq]] after layer k, W_k = k GD steps from 0 (the stack: "
    "layer l with its own eta_l, the steps taken with those eta_l; the recurrent layer: one eta).",
    exact_identity(identity("proofs/VonOswald.v:lsa_stack_gd_steps_etas"),
                   identity("proofs/VonOswald.v:lsa_stack_gd_steps"))) {
  gd_stack_follows_gd_steps<T>(ctx, real_constructions<T>());
}
ICLPROOF_PROPERTY_BODY(gd_stack, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(gd_stack, ::iclproof::ball_real);
ICLPROOF_SIZES(gd_stack, lsa_stack_sizes);

ICLPROOF_PROPERTY(
    gd_stack_neumann, "vonoswald.gd_stack_prediction_equals_neumann_closed_form",
    "The K-layer stack predicts W^(K) x_q with W^(K) = eta (Y X^T/N) sum_{k<K} (I - eta H)^k.",
    exact_identity(identity("proofs/VonOswald.v:lsa_stack_neumann"))) {
  gd_stack_prediction_is_neumann_form<T>(ctx, real_constructions<T>());
}
ICLPROOF_PROPERTY_BODY(gd_stack_neumann, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(gd_stack_neumann, ::iclproof::ball_real);
ICLPROOF_SIZES(gd_stack_neumann, lsa_stack_sizes);

ICLPROOF_PROPERTY(
    gdpp_layer, "vonoswald.gdpp_layer_transforms_inputs_and_steps_targets",
    "The GD++ head (W_V = [[-gamma I, 0], [W0, -I]], P = blockdiag(I, (eta/N) I)) maps every "
    "token to ((I - gamma X X^T) x_j; y_j - DeltaW x_j), random W0.",
    exact_identity(identity("proofs/VonOswald.v:gdpp_layer_identity"))) {
  gdpp_layer_identity<T>(ctx, real_constructions<T>());
}
ICLPROOF_PROPERTY_BODY(gdpp_layer, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(gdpp_layer, ::iclproof::ball_real);
ICLPROOF_SIZES(gdpp_layer, lsa_sizes);

ICLPROOF_PROPERTY(
    gdpp_stack, "vonoswald.gdpp_stack_equals_preconditioned_gd",
    "GD++ layers (gamma_l, eta_l), per-layer and recurrent, hold [[S_l X, S_l Xq], [Y - W_l X, "
    "-W_l Xq]] with S_{l+1} = (I - gamma_l X_l X_l^T) S_l and W_l preconditioned GD with S_l^2.",
    exact_identity(identity("proofs/VonOswald.v:gdpp_preconditioned_gd"))) {
  gdpp_stack_is_preconditioned_gd<T>(ctx, real_constructions<T>());
}
ICLPROOF_PROPERTY_BODY(gdpp_stack, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(gdpp_stack, ::iclproof::ball_real);
ICLPROOF_SIZES(
    gdpp_stack,
    "partly: d, N follow the profile (gen_lsa_case); the layers stay 1..5 because S_l is cubic "
    "in the previous layer's, so the exact run's rationals triple in length per layer (the "
    "floating-point tolerance is one layer's, local)");
