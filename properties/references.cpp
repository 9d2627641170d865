// Properties of the closed-form references (CONSTRUCTIONS.md section 6).
#include "references.hpp"

#include "core/ball_linalg.hpp"
#include "core/rational.hpp"

using namespace iclproof;
using namespace iclproof::cite;
using namespace iclproof::reference_checks;

// What the properties below do under --size paper and --size large (harness/size_statement.hpp).
[[maybe_unused]] static constexpr const char* ridge_family_sizes =
    "follows: d up to the dimension cap, N up to the examples cap (references.hpp)";

ICLPROOF_PROPERTY(
    sm_equals_ridge, "references.iterated_sherman_morrison_equals_ridge",
    "N Sherman-Morrison rank-one updates from A0^-1 = I/lambda give the ridge solution "
    "Y X^T (lambda I + X X^T)^-1.",
    exact_identity(identity("proofs/ShermanMorrison.v:iterated_sherman_morrison_ridge"))) {
  sherman_morrison_equals_ridge<T>(ctx, [](const Mat<T>& X, const Mat<T>& Y, const T& lambda) {
    return iterated_sherman_morrison_ridge(X, Y, lambda);
  });
}
ICLPROOF_PROPERTY_BODY(sm_equals_ridge, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(sm_equals_ridge, ::iclproof::ball_real);
ICLPROOF_SIZES(sm_equals_ridge, ridge_family_sizes);

ICLPROOF_PROPERTY(
    gd_neumann, "references.k_step_gd_equals_neumann_closed_form",
    "K gradient-descent steps from W = 0 equal eta (Y X^T / N) sum_{k<K} (I - eta X X^T / N)^k.",
    exact_identity(identity("proofs/GradientDescent.v:gd_iterates_neumann"))) {
  gd_steps_equal_neumann<T>(ctx, [](const Mat<T>& X, const Mat<T>& Y, const T& eta, int K) {
    return gd_iterates<T>(Mat<T>::Zero(Y.rows(), X.rows()), X, Y, eta, K).back();
  });
}
ICLPROOF_PROPERTY_BODY(gd_neumann, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(gd_neumann, ::iclproof::ball_real);
ICLPROOF_SIZES(
    gd_neumann,
    "follows: d, N up to the profile's caps and K steps up to the depth cap (references.hpp)");

ICLPROOF_PROPERTY(
    bayes_ridge, "references.bayes_posterior_mean_equals_ridge",
    "The Gaussian posterior mean in its conjugate closed form (Y X^T / sigma^2) (X X^T / sigma^2 "
    "+ I / tau^2)^-1 (prior N(0, tau^2 I), noise variance sigma^2; that this form is the "
    "posterior mean is the textbook conjugate-Gaussian step, not formalised) equals ridge "
    "regression Y X^T (X X^T + lambda I)^-1 with lambda = sigma^2 / tau^2.",
    exact_identity(identity("proofs/ShermanMorrison.v:bayes_posterior_mean_ridge"))) {
  bayes_mean_equals_ridge<T>(ctx, [](const Mat<T>& X, const Mat<T>& Y, const T& s2, const T& t2) {
    return bayes_posterior_mean(X, Y, s2, t2);
  });
}
ICLPROOF_PROPERTY_BODY(bayes_ridge, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(bayes_ridge, ::iclproof::ball_real);
ICLPROOF_SIZES(bayes_ridge, ridge_family_sizes);

ICLPROOF_PROPERTY(
    ridge_min_norm, "references.ridge_tends_to_min_norm_least_squares",
    "Ridge tends to the minimum-norm least-squares solution W+ as lambda -> 0 (rank-deficient X "
    "included): ||W_ridge(lambda) - W+||_F^2 <= (lambda ||G X||_F^2)^2 ||W+||_F^2 for a "
    "generalised inverse G of X X^T, checked exactly in rationals with W_ridge, W+ and G tied to "
    "the theorem's terms by exact identities. Floating-point runs check instead the sharper rate "
    "||W_ridge - W+||_F <= (lambda / mu) ||W+||_F, mu just below sigma_min(X)^2 and certified "
    "exactly per case by a factorisation (X X^T)^3 - mu (X X^T)^2 = L diag(D) L^T with D >= 0, "
    "under a rounding-model tolerance.",
    approximation(bound("proofs/LeastSquares.v:ridge_min_norm_ginv_bound2"),
                  bound("proofs/SingularValueCertificate.v:ridge_tends_to_min_norm_certified"),
                  identity("proofs/LeastSquares.v:ridge_min_norm_gap"),
                  reference("proofs/LeastSquares.v:min_norm_ls_unique"),
                  reference("proofs/LeastSquares.v:ridge_unitmx"),
                  bound("proofs/SingularValueCertificate.v:sv_lower_bound_of_ldl"))) {
  ridge_tends_to_min_norm<T>(
      ctx, [](const Mat<T>& X, const Mat<T>& Y, const T& l) { return ridge_closed_form(X, Y, l); });
}
ICLPROOF_PROPERTY_BODY(ridge_min_norm, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(ridge_min_norm, ::iclproof::ball_real);
ICLPROOF_SIZES(ridge_min_norm, ridge_family_sizes);

ICLPROOF_PROPERTY(
    ridge_2p, "references.ridge_at_p_agrees_with_ridge_at_2p",
    "Ridge computed at precision p agrees with ridge at precision 2p within the Cholesky "
    "forward-error bound at p.",
    rounding_claim(paper("Higham, ASNA Thm 10.4 (Cholesky backward stability)"))
        .missing("a floating-point claim: the Cholesky forward-error bound at p is a "
                 "rounding-error model (Higham), not formalised")) {
  ridge_agrees_with_twice_the_precision<T>(
      ctx, [](const Mat<T>& X, const Mat<T>& Y, const T& l) { return ridge_closed_form(X, Y, l); });
}
ICLPROOF_PROPERTY_BODY(ridge_2p, ::iclproof::ball_real);
ICLPROOF_NOT_APPLICABLE(ridge_2p, rational,
                        "compares two floating-point precisions; exact ridge is checked by the "
                        "other references.* properties");
ICLPROOF_SIZES(ridge_2p, ridge_family_sizes);
