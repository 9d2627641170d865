// Vladymyrov, von Oswald, Sandler, Ge 2024, Theorem 5.1 and Lemmas A.2-A.3: the GD++ schedule
// gamma_l = 1/(3 nu_l) on lsa's GD++ layer. Checks in gdpp_rate.hpp; the contract in
// docs/constructions/gdpp_rate.md.
#include "gdpp_rate.hpp"

#include "core/ball_linalg.hpp"
#include "core/rational.hpp"

using namespace iclproof;
using namespace iclproof::cite;
using namespace iclproof::gdpp_rate_checks;

ICLPROOF_PROPERTY(
    gdpp_eigen_map,
    "gdpp_rate.preconditioning_layer_maps_each_eigenvalue_to_lambda_one_minus_gamma_lambda_squared",
    "On data with orthogonal rows (X = diag(s) H_d, Sigma = X X^T diagonal) each of 1-3 GD++ "
    "layers of the schedule gamma_l = 1/(3 nu_l), run through the LSA layer, leaves "
    "X_l X_l^T = diag(lambda (1 - gamma_l lambda)^2) of the previous layer's eigenvalues.",
    exact_identity(identity("proofs/GdppRate.v:gdpp_gram_step"),
                   identity("proofs/GdppRate.v:gdpp_gram_diag"),
                   identity("proofs/VonOswald.v:gdpp_layer_identity"))) {
  preconditioning_layer_maps_each_eigenvalue<T>(ctx, real_construction<T>());
}
ICLPROOF_PROPERTY_BODY(gdpp_eigen_map, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(gdpp_eigen_map, ::iclproof::ball_real);
ICLPROOF_SIZES(gdpp_eigen_map,
               "fixed: N <= 8, d <= N, s_i <= 6, K <= 3 layers (the rational sizes triple per "
               "layer)");

ICLPROOF_EXACT_PROPERTY(
    gdpp_kappa, "gdpp_rate.condition_number_contracts_per_layer_as_lemma_a3_states",
    "On the layers' own output (orthogonal-row data, kappa_0 up to 144, 1-6 layers): kappa' = "
    "4 kappa^3/(3 kappa - 1)^2 exactly; kappa >= 1.1 gives kappa' <= (484/529) kappa; kappa = "
    "1 + eps with eps <= 1/10 gives kappa' - 1 = eps^2 (3/4 + eps)/(1 + 3 eps/2)^2 <= 2 eps^2.",
    exact_identity(identity("proofs/GdppRate.v:gdpp_nu_step"),
                   identity("proofs/GdppRate.v:gdpp_kappa_step"),
                   identity("proofs/GdppRate.v:gdpp_kappa_step_excess"),
                   bound("proofs/GdppRate.v:gdpp_kappa_step_quadratic"),
                   bound("proofs/GdppRate.v:gdpp_kappa_contracts"),
                   identity("proofs/GdppRate.v:gdpp_contraction_constant"))
        .missing("that the minimum eigenvalue stays the minimum (f nondecreasing on [0, nu]) is "
                 "checked here on the data, not proved in Coq"),
    "exact statements about rational eigenvalues; floating point checks "
    "gdpp_rate.preconditioning_layer_maps_each_eigenvalue_to_lambda_one_minus_gamma_lambda_"
    "squared") {
  condition_number_contracts_as_lemma_a3<T>(ctx, real_construction<T>());
}
ICLPROOF_PROPERTY_BODY(gdpp_kappa, ::iclproof::ball_real);
ICLPROOF_SIZES(gdpp_kappa, "fixed: N <= 8, s_i <= 12, K <= 6 (rational sizes triple per layer)");

ICLPROOF_EXACT_PROPERTY(
    gdpp_eps, "gdpp_rate.stack_reaches_eps_within_lemma_a3_layer_count",
    "For eps = 10^-k (k <= 8) the schedule's layer count K (kappa_K - 1 <= eps/(2 kappa_0)) is at "
    "most Lemma A.3's ceil(log(kappa/1.1)/log(1/c)) + ceil(log2(log(2 tau)/log(1/5))), and the "
    "K + 1 layer LSA stack predicts every query within (kappa_K - 1) sqrt(kappa_0 kappa_K) ||w*|| "
    "||x_t|| <= eps ||w*|| ||x_t|| of the least-squares prediction (squared, exact).",
    exact_identity(identity("proofs/GdppRate.v:gdpp_kappa_step_excess"),
                   bound("proofs/GdppRate.v:gdpp_kappa_step_quadratic"),
                   identity("proofs/VonOswald.v:gdpp_preconditioned_gd"))
        .missing("Lemma A.2's error bound in the transformed coordinates and the layer count "
                 "are checked on the data, not proved in Coq; the count uses long double logs"),
    "exact statements; the schedule's condition numbers are rational only on this data") {
  gdpp_stack_reaches_eps_in_the_stated_layers<T>(ctx, real_construction<T>());
}
ICLPROOF_PROPERTY_BODY(gdpp_eps, ::iclproof::ball_real);
ICLPROOF_SIZES(gdpp_eps, "fixed: N <= 8, s_i <= 4 (kappa_0 <= 16), eps >= 1e-8");
