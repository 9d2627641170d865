// Giannou et al. (AISTATS 2025): one Newton–Schulz step M' = 2M - M S M in two generic LSA
// layers, and k steps stacked (docs/constructions/newton_schulz.md). The checks and the
// derivation of every tolerance are in newton_schulz.hpp.
#include "newton_schulz.hpp"

#include "core/ball_linalg.hpp"
#include "core/rational.hpp"

using namespace iclproof;
using namespace iclproof::cite;
namespace ns_checks = iclproof::newton_schulz_checks;

[[maybe_unused]] static constexpr const char* ns_sizes =
    "fixed: d <= 5 and k <= 4 steps keep the exact rationals of M_k (degree 2^(k+1) - 1 in S) "
    "small enough for the rational run; the identities do not depend on the size";

// The weights of the theorems are written out in proofs/statements/newton_schulz.v (the
// selectors sel_A, sel_B, sel_C as block matrices), whose claims newton_schulz_check.v proves
// from the cited theorems; that the C++ layers compute those maps is what the exact rational run
// checks (error exactly 0), as for every family. The paper's own weights were not read: these
// are our one-head variant (docs/constructions/newton_schulz.md).

ICLPROOF_PROPERTY(
    ns_doubling, "newton_schulz.first_layer_doubles_the_iterate_exactly",
    "The doubling layer (W_V = sel_B, W_K = W_Q = sel_C, P = emb_B, unmasked) maps the tokens "
    "[S^T; M; I] to [S^T; 2M; I] with no rounding in any scalar: d in 1..5, random integer S, "
    "dyadic M.",
    exact_identity(identity("proofs/NewtonSchulz.v:ns_doubling_layer"))) {
  ns_checks::doubling_layer_is_exact<T>(ctx, ns_checks::real_constructions<T>());
}
ICLPROOF_PROPERTY_BODY(ns_doubling, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(ns_doubling, ::iclproof::ball_real);
ICLPROOF_SIZES(ns_doubling, ns_sizes);

ICLPROOF_PROPERTY(
    ns_step, "newton_schulz.two_layers_compute_one_newton_schulz_step",
    "Doubling then correction layer (W_V = sel_B, W_K = sel_A, W_Q = sel_B, P = -(1/4) emb_B) map "
    "[S^T; M; I] to [S^T; 2M - M S M; I] for any square S and M (exact in rationals; 2 gamma_n "
    "shadow bound in floats, n = 2d + 4).",
    exact_identity(identity("proofs/NewtonSchulz.v:ns_two_layer_step"),
                   composition("proofs/NewtonSchulz.v:ns_correction_layer"))) {
  ns_checks::two_layers_make_one_step<T>(ctx, ns_checks::real_constructions<T>());
}
ICLPROOF_PROPERTY_BODY(ns_step, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(ns_step, ::iclproof::ball_real);
ICLPROOF_SIZES(ns_step, ns_sizes);

ICLPROOF_PROPERTY(
    ns_stack, "newton_schulz.stack_of_2k_layers_holds_the_kth_iterate",
    "From M_0 = S^T / ||S||_F^2, layers 2j of the 2k-layer stack hold the Newton–Schulz iterate "
    "M_j = 2 M_{j-1} - M_{j-1} S M_{j-1}, j = 1..k, k in 1..4 (exact in rationals; shadow "
    "bound with n = j (2d + 4) in floats).",
    exact_identity(identity("proofs/NewtonSchulz.v:ns_stack_iter"),
                   composition("proofs/NewtonSchulz.v:ns_two_layer_step"))) {
  ns_checks::stack_gives_kth_iterate<T>(ctx, ns_checks::real_constructions<T>());
}
ICLPROOF_PROPERTY_BODY(ns_stack, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(ns_stack, ::iclproof::ball_real);
ICLPROOF_SIZES(ns_stack, ns_sizes);

ICLPROOF_PROPERTY(
    ns_residual, "newton_schulz.residual_of_the_stack_is_the_2_to_the_k_power",
    "The iterate M_k read off the 2k-layer stack satisfies I - M_k S = (I - M_0 S)^(2^k) "
    "(M_0 = S^T / ||S||_F^2, k in 1..3): the residual squares at every two layers.",
    exact_identity(identity("proofs/NewtonSchulz.v:ns_iter_residual"),
                   identity("proofs/NewtonSchulz.v:ns_residual_sq"),
                   composition("proofs/NewtonSchulz.v:ns_stack_iter"))) {
  ns_checks::residual_is_power_of_two<T>(ctx, ns_checks::real_constructions<T>());
}
ICLPROOF_PROPERTY_BODY(ns_residual, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(ns_residual, ::iclproof::ball_real);
ICLPROOF_SIZES(ns_residual, ns_sizes);
