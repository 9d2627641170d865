// Cross-checks of the first-order-method references (CONSTRUCTIONS.md section 6): CG, momentum,
// Nesterov and the LFOM they are special cases of.
#include "references_first_order.hpp"

#include "core/ball_linalg.hpp"
#include "core/rational.hpp"

using namespace iclproof;
using namespace iclproof::cite;
using namespace iclproof::memformer_checks;

ICLPROOF_PROPERTY(
    cg_rank, "references.cg_after_rank_steps_equals_min_norm",
    "Conjugate gradient on R(w) from w = 0, stopped after rank(H) steps (exact rank), predicts "
    "x_q^T w+, w+ the minimum-norm least-squares solution (identity proved in exact arithmetic; "
    "rounding tolerance: first-order model).",
    exact_identity(identity("proofs/ConjugateGradient.v:cg_after_rank_steps_equals_min_norm"))) {
  cg_after_rank_steps_equals_min_norm<T>(
      ctx, [](const quadratic_problem<T>& q, int L) { return conjugate_gradient(q, L); });
}
ICLPROOF_PROPERTY_BODY(cg_rank, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(cg_rank, ::iclproof::ball_real);
ICLPROOF_SIZES(cg_rank, cg_sizes);

ICLPROOF_PROPERTY(momentum_lfom, "references.momentum_equals_lfom_with_momentum_coefficients",
                  "Heavy-ball momentum equals the LFOM with lambda(l, j) = eta beta^(l-j).",
                  exact_identity(identity("proofs/Memformer.v:momentum_as_lfom"))) {
  momentum_equals_lfom<T>(ctx, [](const quadratic_problem<T>& q, const T& eta, const T& beta,
                                  int L) { return momentum_gd(q, eta, beta, L); });
}
ICLPROOF_PROPERTY_BODY(momentum_lfom, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(momentum_lfom, ::iclproof::ball_real);
ICLPROOF_SIZES(momentum_lfom, lfom_sizes);

ICLPROOF_PROPERTY(
    nesterov_lfom, "references.nesterov_equals_lfom_with_nesterov_coefficients",
    "Nesterov's look-ahead sequence v_l equals the LFOM with lambda(l, l) = eta (1 + beta), "
    "lambda(l, j) = eta beta^(l-j+1) for j < l.",
    exact_identity(identity("proofs/Memformer.v:nesterov_as_lfom"))) {
  nesterov_equals_lfom<T>(ctx, [](const quadratic_problem<T>& q, const T& eta, const T& beta,
                                  int L) { return nesterov_lookahead(q, eta, beta, L); });
}
ICLPROOF_PROPERTY_BODY(nesterov_lfom, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(nesterov_lfom, ::iclproof::ball_real);
ICLPROOF_SIZES(nesterov_lfom, lfom_sizes);
