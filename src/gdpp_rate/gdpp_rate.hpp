// The GD++ rate construction of Vladymyrov, von Oswald, Sandler, Ge 2024 (Theorem 5.1, App. A.4,
// Lemmas A.2-A.3; docs/constructions/gdpp_rate.md): K preconditioning GD++ layers with
// gamma_l = 1/(3 nu_l), then one GD layer with eta/N = 1/mu_K, run through the generic LSA layer
// (lsa/vonoswald_weights.hpp gdpp_stack_weights). [mu_l, nu_l] bound the spectrum of
// Sigma_l = X_l X_l^T (no 1/N, the paper's Sigma); an eigenvalue lambda of Sigma_l becomes
// lambda (1 - gamma_l lambda)^2, nondecreasing on [0, nu_l] when gamma_l nu_l = 1/3, so
// nu_{l+1} = 4 nu_l / 9 and mu_{l+1} = mu_l (1 - mu_l / (3 nu_l))^2.
#pragma once

#include "lsa/vonoswald_weights.hpp"

#include <vector>

namespace iclproof {

// lambda (1 - gamma lambda)^2: the eigenvalue map of one GD++ preconditioning layer.
template <class T>
T gdpp_eigenvalue_map(const T& lambda, const T& gamma);

// 4 kappa^3 / (3 kappa - 1)^2: the condition number after one layer with gamma nu = 1/3
// (kappa >= 1).
template <class T>
T gdpp_kappa_map(const T& kappa);

template <class T>
struct gdpp_rate_schedule {
  std::vector<T> gamma;   // K preconditioning layers: gamma_l = 1/(3 nu_l)
  std::vector<T> mu, nu;  // K + 1 spectrum bounds, mu_0 = mu, nu_0 = nu
  T eta_over_n;           // the final GD layer's eta/N = 1/mu_K
};

// The schedule for spectrum bounds 0 < mu <= nu and K >= 0 preconditioning layers; throws
// std::invalid_argument otherwise.
template <class T>
gdpp_rate_schedule<T> gdpp_rate_schedule_for(const T& mu, const T& nu, int K);

// K + 1 layers through the generic LSA layer: K GD++ layers (gamma_l, eta = 0), then one GD++
// layer (gamma = 0, eta = N eta_over_n), W0 = 0; read-out -y of the query.
template <class T>
lsa_stack<T> gdpp_rate_stack(Eigen::Index d, Eigen::Index o, Eigen::Index N,
                             const gdpp_rate_schedule<T>& schedule);

// The smallest K with kappa_K - 1 <= tol (kappa_{l+1} = gdpp_kappa_map(kappa_l)), computed in
// T; throws std::invalid_argument unless kappa >= 1 and tol > 0.
template <class T>
int gdpp_rate_layers_needed(const T& kappa, const T& tol);

// Lemma A.3's contraction constant c = (4/9) / (1 - 1/3.3)^2 = 484/529 = 0.914934 (to six
// digits), computed in T from the lemma's numbers 4/9 and 3.3 = 33/10: exact in rationals
// (proofs/GdppRate.v:gdpp_kappa_contracts, gdpp_contraction_constant).
template <class T>
T gdpp_lemma_a3_contraction();

// Lemma A.3's count, in long double: ceil(log(kappa/1.1)/log(1/c)) layers while kappa >= 1.1
// (c = gdpp_lemma_a3_contraction() = 484/529), then ceil(log2(log(2 tol)/log(1/5))) layers
// (delta = 2 eps squares).
int gdpp_rate_layer_bound(long double kappa, long double tol);

// kappa = max_i G_ii / min_i G_ii of a diagonal Gram matrix G on balls (Arb), with the max and
// the min as enclosures (arb_max; min = -max(-.)): two equal eigenvalues are two overlapping
// balls, which `<` cannot order. Instantiated for ball_real only (gdpp_rate_ball.cpp).
template <class T>
T gdpp_diagonal_kappa_enclosure(const Mat<T>& G);

}  // namespace iclproof
