// Checks of the GD++ rate of Vladymyrov, von Oswald, Sandler, Ge 2024 (Theorem 5.1, App. A.4,
// Lemmas A.2-A.3; docs/constructions/gdpp_rate.md; proofs/GdppRate.v), run through the generic
// LSA layer with lsa's GD++ weights. The data have orthogonal rows, X = diag(s) H_d (H_d the
// first d rows of the N x N Sylvester-Hadamard matrix, s_i integers), so Sigma = X X^T =
// N diag(s^2) is diagonal with rational eigenvalues and everything the paper states about
// eigenvalues is an exact rational statement.
//
// Tolerance of the eigenvalue-map check in floating point (properties/rounding_shadow.hpp): the
// local form of the map, layer by layer on the realised x-rows (see
// preconditioning_layer_maps_each_eigenvalue): one layer's rounding bound, depth
// 2 N + 3 D + 10 (the LSA layer's N + 3 D + 4 + 1, the Gram N, the map 4).
#pragma once

#include "core/precision.hpp"
#include "gdpp_rate/gdpp_rate.hpp"
#include "harness/property.hpp"
#include "harness/tolerance.hpp"
#include "rounding_shadow.hpp"
#include "stack_end_to_end.hpp"
#include "tasks/rapidcheck_gen.hpp"

#include <functional>
#include <string>
#include <vector>

namespace iclproof::gdpp_rate_checks {

using rounding_shadow::compare_within;
using rounding_shadow::shadow_bound;

// The construction under test (the real one: real_construction<T>()): the schedule and the
// LSA stack built from it.
template <class T>
struct construction {
  std::function<gdpp_rate_schedule<T>(const T& mu, const T& nu, int K)> schedule;
  std::function<lsa_stack<T>(Eigen::Index d, Eigen::Index o, Eigen::Index N,
                             const gdpp_rate_schedule<T>& s)>
      stack;
};

template <class T>
construction<T> real_construction() {
  return {&gdpp_rate_schedule_for<T>, &gdpp_rate_stack<T>};
}

template <class T>
lsa_stack<T> abs_stack(const lsa_stack<T>& s) {
  lsa_stack<T> a = s;
  for (auto& layer : a.layers)
    for (auto& h : layer.heads) {
      h.W_K = abs_of(h.W_K);
      h.W_Q = abs_of(h.W_Q);
      h.W_V = abs_of(h.W_V);
      h.P = abs_of(h.P);
    }
  return a;
}

template <class T>
struct diagonal_case {
  Eigen::Index d = 1, N = 1, Q = 1;
  Mat<T> X, Y, Xq;
  std::vector<long> s;  // X = diag(s) H_d
};

// d in 1..N, N in {2, 4, 8}, s_i in 1..s_max, integer targets and queries.
template <class T>
diagonal_case<T> gen_diagonal_case(case_context& ctx, int s_max) {
  diagonal_case<T> c;
  c.N = 1 << *rc::gen::inRange(1, 4);
  c.d = *rc::gen::inRange<Eigen::Index>(1, c.N + 1);
  c.Q = *rc::gen::inRange(1, 3);
  const auto seed = *rc::gen::inRange<std::uint64_t>(0, 1u << 30);
  data_rng rng(seed);
  Mat<double> X(c.d, c.N), Y(1, c.N), Xq(c.d, c.Q);
  std::string s_text;
  for (Eigen::Index i = 0; i < c.d; ++i) {
    c.s.push_back(1 + static_cast<long>(rng.uniform(0.0, double(s_max))));
    s_text += (i ? ", " : "") + std::to_string(c.s.back());
    for (Eigen::Index j = 0; j < c.N; ++j)
      X(i, j) = (__builtin_popcountll(static_cast<unsigned long long>(i & j)) % 2 ? -1.0 : 1.0) *
                static_cast<double>(c.s.back());
  }
  for (Eigen::Index j = 0; j < c.N; ++j) Y(0, j) = std::floor(rng.uniform(-4.0, 5.0));
  for (Eigen::Index j = 0; j < c.Q; ++j)
    for (Eigen::Index i = 0; i < c.d; ++i) Xq(i, j) = std::floor(rng.uniform(-4.0, 5.0));
  c.X = from_double<T>(X);
  c.Y = from_double<T>(Y);
  c.Xq = from_double<T>(Xq);
  ctx.note("d, N, queries, seed", std::to_string(c.d) + ", " + std::to_string(c.N) + ", " +
                                      std::to_string(c.Q) + ", " + std::to_string(seed));
  ctx.note("X = diag(s) H_d, s", s_text);
  return c;
}

// The spectrum bounds of Sigma = N diag(s^2): mu = N min s^2, nu = N max s^2.
template <class T>
std::pair<T, T> spectrum_bounds(const diagonal_case<T>& c) {
  long lo = c.s[0], hi = c.s[0];
  for (long v : c.s) lo = std::min(lo, v), hi = std::max(hi, v);
  return {T(static_cast<double>(c.N * lo * lo)), T(static_cast<double>(c.N * hi * hi))};
}

template <class T>
Mat<T> run_tokens(const diagonal_case<T>& c, const lsa_stack<T>& stack, int layer, bool shadow) {
  Mat<T> E = regression_tokens<T>(c.X, c.Y, c.Xq, Mat<T>(Mat<T>::Zero(1, c.Q)));
  if (!shadow) return lsa_stack_forward<T>(stack, E, c.N)[layer];
  return lsa_stack_forward<T>(abs_stack(stack), abs_of(E), c.N)[layer];
}

// The rounding bound of the local Gram map (preconditioning_layer_maps_each_eigenvalue below):
// the layer (abs_layer: its weights in absolute value) run on tokens E, then the Gram of the
// new x-rows' N context columns, against (I - gamma G) G (I - gamma G), G the Gram of E's
// x-rows: 2 gamma_n (max |X'|_sh |X'|_sh^T + max (I + |gamma| Gh) Gh (I + |gamma| Gh)),
// |X'|_sh the layer run on |weights| and |E|, Gh = |X||X|^T, n = 2 N + 3 (d + 1) + 10
// (rounding_shadow.hpp: proved argument, hand-derived depth). 0 in exact scalars.
template <class T>
T gram_map_local_bound(const lsa_layer<T>& abs_layer, const Mat<T>& E, Eigen::Index d,
                       Eigen::Index N, const T& gamma) {
  return tolerance<T>([&](auto) {
    const Mat<T> Xs = lsa_layer_forward<T>(abs_layer, abs_of(E), N).topLeftCorner(d, N);
    const Mat<T> absX = abs_of(Mat<T>(E.topLeftCorner(d, N)));
    const Mat<T> Gh = matmul_nt(absX, absX);
    const Mat<T> Ah = Mat<T>::Identity(d, d) + Gh * abs_of(gamma);
    return shadow_bound<T>(2.0 * N + 3.0 * (d + 1) + 10.0,
                           T(max_abs(Mat<T>(matmul_nt(Xs, Xs))) +
                             max_abs(Mat<T>(matmul(Mat<T>(matmul(Ah, Gh)), Ah)))));
  });
}

// The END-TO-END floating-point check of the preconditioning layers
// (preconditioning_layer_maps_each_eigenvalue; issue 41): the Gram of layer l's realised x-rows
// (context columns, computed in T) against diag(lambda^(l)), the eigenvalue map applied l times
// EXACTLY (rationals) with the gammas the layers hold (proofs/GdppRate.v:gdpp_gram_diag: it is the
// exact Gram of the exact x-rows X*_l). The x-rows of a GD++ layer with eta = 0 follow the cubic
// X' = X - gamma Xc Xc^T X (proofs/VonOswald.v:gdpp_layer_identity), so stack_end_to_end.hpp's
// cubic-stack bound (x-rows only: cx = gamma_l, Bm = Am = I; local rounding
// 2 gamma_n (|X_t| + |gamma| |X_c| |X_c|^T |X_t|), n = N + 3 (d + 1) + 5, the LSA layer's depth)
// gives |X_l - X*_l| <= alpha entrywise, and (HAND-DERIVED, rigorous)
//     |fl(X_l X_l^T) - X*_l X*_l^T| <= (1 + 2 gamma_(N+4)) (2 gamma_N |X_l| |X_l|^T
//                                      + alpha |X_l|^T + |X_l| alpha^T + alpha alpha^T)
// (context columns; X_l X_l^T - X* X*^T = a X_l^T + X_l a^T - a a^T with a = X_l - X*_l), plus
// one rounding of the exact reference (2 eps |ref|).
template <class T>
void preconditioning_gram_end_to_end(case_context& ctx, const diagonal_case<T>& c,
                                     const std::vector<T>& gamma, const std::vector<Mat<T>>& all) {
  using propagated_rounding::exact_of;
  using Q = rational_real;
  const Eigen::Index d = c.d, N = c.N;
  const int K = static_cast<int>(gamma.size());
  std::vector<Mat<Q>> exact{exact_of(Mat<T>(all[0].topRows(d)))};
  for (int l = 0; l < K - 1; ++l) {
    const Mat<Q> Xc = exact.back().leftCols(N);
    exact.push_back(Mat<Q>(exact.back() -
                           matmul(Mat<Q>(matmul_nt(Xc, Xc)), exact.back()) * exact_of(gamma[l])));
  }
  const T two_gamma = shadow_bound<T>(static_cast<double>(N) + 3.0 * (d + 1) + 5.0, T(1));
  std::vector<stack_end_to_end::cubic_layer<T>> layers;
  std::vector<Mat<T>> delta{Mat<T>()};
  const Mat<T> I = Mat<T>::Identity(d, d);
  for (int l = 0; l < K; ++l) {
    layers.push_back({gamma[l], T(0), I, I});
    const Mat<T> Xt = all[l].topRows(d), absXc = abs_of(Mat<T>(Xt.leftCols(N)));
    delta.push_back(
        Mat<T>(two_gamma * Mat<T>(abs_of(Xt) + matmul(Mat<T>(matmul_nt(absXc, absXc)), abs_of(Xt)) *
                                                   abs_of(gamma[l]))));
  }
  const auto B = stack_end_to_end::cubic_stack_error_bounds<T>(layers, exact, delta, d, N);
  std::vector<Q> lam(d);
  for (Eigen::Index i = 0; i < d; ++i) lam[i] = Q(N * c.s[i] * c.s[i]);
  const T gram_rounding = shadow_bound<T>(static_cast<double>(N), T(1));
  const T sum_scale = T(1) + T(2) * higham_gamma<T>(static_cast<double>(N) + 4.0);
  for (int l = 1; l <= K; ++l) {
    Mat<Q> ref = Mat<Q>::Zero(d, d);
    for (Eigen::Index i = 0; i < d; ++i) {
      lam[i] = gdpp_eigenvalue_map<Q>(lam[i], exact_of(gamma[l - 1]));
      ref(i, i) = lam[i];
    }
    const Mat<T> Xl = all[l].topLeftCorner(d, N), absXl = abs_of(Xl);
    const Mat<T> alpha = B[l].leftCols(N);
    const Mat<T> bound = (matmul_nt(absXl, absXl) * gram_rounding + matmul_nt(alpha, absXl) +
                          matmul_nt(absXl, alpha) + matmul_nt(alpha, alpha)) *
                         sum_scale;
    stack_end_to_end::compare_with_exact_reference<T>(
        ctx,
        "layer " + std::to_string(l) +
            ": X_l X_l^T vs diag(lambda^(l)) (exact eigenvalue map, rationals) within the "
            "propagated bound",
        Mat<T>(matmul_nt(Xl, Xl)), ref, bound);
  }
}

// Lemma A.3's premise on the layers themselves: after each GD++ preconditioning layer of the
// schedule, X_l X_l^T = diag(lambda^(l)) with lambda^(l+1)_i = lambda^(l)_i (1 - gamma_l
// lambda^(l)_i)^2 (proofs/GdppRate.v:gdpp_gram_step with proofs/VonOswald.v:gdpp_layer_identity).
//  * Exact scalars: the Gram of every layer's x-rows equals diag(lambda^(l)) (tolerance 0).
//  * Floating point: the LOCAL form of the same map. For ANY x-rows X (d x N context) the layer
//    gives X' = (I - gamma G) X, G = X X^T, so X' X'^T = (I - gamma G) G (I - gamma G): with
//    G_0 = diag(lambda^(0)) this is the eigenvalue map, layer by layer. Checked at layer l on
//    the REALISED x-rows of layer l-1 (G their Gram, computed) against the Gram of layer l's
//    realised x-rows. Both sides are straight-line programs in the same inputs (layer l-1's
//    tokens, gamma_(l-1) as computed in T, which the weights hold as -gamma I) computing the
//    same polynomial, so they differ by at most (rounding_shadow.hpp; proved argument, Higham
//    ASNA Lemma 3.1, hand-derived depth)
//        2 gamma_n (max |X'|_sh |X'|_sh^T + max (I + |gamma| Gh) Gh (I + |gamma| Gh)),
//    |X'|_sh the LSA layer run on |weights| and |tokens of layer l-1| (x-rows), Gh = |X||X|^T,
//    n = 2 N + 3 (d + 1) + 10 (the layer's N + 3 D + 4, its Gram N, the map's 2 + 2 d fit).
//    Then END TO END (preconditioning_gram_end_to_end above): the realised Gram against
//    diag(lambda^(l)) of the exact eigenvalue map, within the propagated bound.
//    The old end-to-end tolerance ran the shadow through every earlier layer (the stack on
//    |weights| from |X_0|), which grows as a cube per layer while the layers contract the
//    spectrum: margins 10^6.3-6.5 at layer 3.
template <class T>
void preconditioning_layer_maps_each_eigenvalue(case_context& ctx, const construction<T>& make) {
  const auto c = gen_diagonal_case<T>(ctx, 6);
  const int K = *rc::gen::inRange(1, 4);
  ctx.note("preconditioning layers K", std::to_string(K));
  const auto [mu, nu] = spectrum_bounds(c);
  const auto sch = make.schedule(mu, nu, K);
  const auto stack = make.stack(c.d, 1, c.N, sch);
  const Eigen::Index d = c.d, N = c.N;
  Vec<T> lam(d);
  for (Eigen::Index i = 0; i < d; ++i) lam(i) = T(static_cast<double>(N * c.s[i] * c.s[i]));
  const auto all = lsa_stack_forward<T>(
      stack, regression_tokens<T>(c.X, c.Y, c.Xq, Mat<T>(Mat<T>::Zero(1, c.Q))), N);
  ctx.require("the stack has K + 1 layers", static_cast<int>(all.size()) == K + 2,
              std::to_string(all.size() - 1) + " layers");
  const lsa_stack<T> abs_weights = abs_stack(stack);
  const Mat<T> I = Mat<T>::Identity(d, d);
  for (int l = 0; l < K; ++l) {
    const std::string at = "layer " + std::to_string(l + 1);
    const T& g = sch.gamma[l];
    const Mat<T> Xprev = all[l].topLeftCorner(d, N), Xl = all[l + 1].topLeftCorner(d, N);
    const Mat<T> gram = matmul_nt(Xl, Xl);
    const Mat<T> G = matmul_nt(Xprev, Xprev);
    const Mat<T> A = I - G * g;
    const Mat<T> local_ref = matmul(Mat<T>(matmul(A, G)), A);
    const T bound = gram_map_local_bound<T>(abs_weights.layers[l], all[l], d, N, g);
    compare_within<T>(ctx,
                      at + ": X_l X_l^T vs (I - gamma G) G (I - gamma G), G the previous "
                           "layer's Gram",
                      gram, local_ref, bound);
    for (Eigen::Index i = 0; i < d; ++i) lam(i) = gdpp_eigenvalue_map(lam(i), g);
    if constexpr (is_exact_scalar<T>) {
      const Mat<T> ref = lam.asDiagonal();
      ctx.require(at + ": X_l X_l^T = diag(lambda (1 - gamma lambda)^2) of the previous (exact)",
                  gram == ref, "X_l X_l^T =\n" + case_context::matrix_full_digits(gram));
    } else if constexpr (is_ball_scalar<T>) {
      // Balls: the global form too, as an identity of enclosures (lam: the map applied to the
      // exact integer eigenvalues N s_i^2, in ball arithmetic).
      ctx.check_identity(at + ": X_l X_l^T = diag(lambda (1 - gamma lambda)^2) of the previous "
                              "(enclosures)",
                         gram, Mat<T>(lam.asDiagonal()));
    }
  }
  if constexpr (stack_end_to_end::is_rounded_scalar<T>)
    preconditioning_gram_end_to_end<T>(ctx, c, sch.gamma, all);
}

// kappa of the diagonal Gram matrix of layer l (exact scalar).
// On balls the min and max are enclosures (gdpp_diagonal_kappa_enclosure, src/gdpp_rate): two
// equal eigenvalues give two overlapping balls, which `<` cannot order.
template <class T>
T diagonal_kappa(const Mat<T>& Xl) {
  const Mat<T> G = matmul_nt(Xl, Xl);
  if constexpr (is_ball_scalar<T>) {
    return gdpp_diagonal_kappa_enclosure<T>(G);
  } else {
    T lo = G(0, 0), hi = G(0, 0);
    for (Eigen::Index i = 1; i < G.rows(); ++i) {
      if (G(i, i) < lo) lo = G(i, i);
      if (hi < G(i, i)) hi = G(i, i);
    }
    return hi / lo;
  }
}

// Are all s_i equal (integers: exact in every scalar)? Then every eigenvalue is the same at
// every layer, kappa_l = 1 and kappa_l - 1 = 0 exactly: on balls a bound 0 <= 0 that no
// enclosure decides, checked as the identity it then is.
template <class T>
bool all_eigenvalues_equal(const diagonal_case<T>& c) {
  for (long v : c.s)
    if (v != c.s[0]) return false;
  return true;
}

// An exact identity: rational equality, or on balls the enclosure of a - b contains 0.
template <class T>
void require_exactly(case_context& ctx, const std::string& label, const T& a, const T& b,
                     const std::string& values) {
  if constexpr (is_ball_scalar<T>)
    ctx.check_identity(label + " (enclosures)", a, b);
  else
    ctx.require(label + " (exact)", a == b, values);
}

// Lemma A.3 on the layers' own output, exactly: kappa_{l+1} = 4 kappa_l^3 / (3 kappa_l - 1)^2;
// kappa_l >= 11/10 gives kappa_{l+1} <= c kappa_l, c = (4/9)/(1 - 1/3.3)^2 = 484/529;
// kappa_l = 1 + eps with eps <= 1/10 gives kappa_{l+1} - 1 = eps^2 (3/4 + eps)/(1 + 3 eps/2)^2,
// between (3/4) eps^2 / (1.15)^2 and 2 eps^2 (quadratic: the doubly exponential phase).
template <class T>
void condition_number_contracts_as_lemma_a3(case_context& ctx, const construction<T>& make) {
  const auto c = gen_diagonal_case<T>(ctx, 12);
  const int K = *rc::gen::inRange(1, 7);
  ctx.note("preconditioning layers K", std::to_string(K));
  const auto [mu, nu] = spectrum_bounds(c);
  const auto sch = make.schedule(mu, nu, K);
  const auto all =
      lsa_stack_forward<T>(make.stack(c.d, 1, c.N, sch),
                           regression_tokens<T>(c.X, c.Y, c.Xq, Mat<T>(Mat<T>::Zero(1, c.Q))), c.N);
  ctx.require("the stack has K + 1 layers", static_cast<int>(all.size()) == K + 2,
              std::to_string(all.size() - 1) + " layers");
  const T c_const = gdpp_lemma_a3_contraction<T>(), tenth = T(1) / T(10);
  std::string curve;
  T kappa = diagonal_kappa<T>(all[0].topLeftCorner(c.d, c.N));
  for (int l = 0; l < K; ++l) {
    const T next = diagonal_kappa<T>(all[l + 1].topLeftCorner(c.d, c.N));
    const std::string at = "layer " + std::to_string(l + 1) + ": ";
    const T eps = kappa - T(1), eps1 = next - T(1);
    curve += (l ? ", " : "") + short_digits(eps1, 3);
    require_exactly<T>(ctx, at + "kappa' = 4 kappa^3 / (3 kappa - 1)^2", next,
                       gdpp_kappa_map(kappa),
                       "kappa = " + full_digits(kappa) + ", kappa' = " + full_digits(next));
    if (T(11) / T(10) <= kappa)
      ctx.require(at + "kappa >= 1.1: kappa' <= (484/529) kappa", next <= c_const * kappa,
                  "kappa = " + full_digits(kappa) + ", kappa' = " + full_digits(next));
    if (eps <= tenth) {
      const T den = T(1) + T(3) * eps / T(2);
      require_exactly<T>(ctx, at + "kappa' - 1 = eps^2 (3/4 + eps) / (1 + 3 eps / 2)^2", eps1,
                         T(eps * eps * (T(3) / T(4) + eps) / (den * den)),
                         "eps = " + full_digits(eps) + ", eps' = " + full_digits(eps1));
      if constexpr (is_ball_scalar<T>) {
        // Balls: a decided comparison (`<=` of two balls throws when they overlap); where every
        // s_i is equal eps = eps' = 0 exactly and the bound is the identity eps' = 0.
        if (all_eigenvalues_equal(c))
          ctx.check_identity(at + "all eigenvalues equal: eps' = 0 (enclosures)", eps1, T(0));
        else
          ctx.require(at + "eps <= 1/10: eps' <= 2 eps^2 (Lemma A.3; decided on the enclosures)",
                      eps1 <= T(2) * eps * eps,
                      "eps = " + full_digits(eps) + ", eps' = " + full_digits(eps1));
      } else {
        ctx.require(at + "eps <= 1/10: eps' <= 2 eps^2 (Lemma A.3)", eps1 <= T(2) * eps * eps,
                    "eps = " + full_digits(eps) + ", eps' = " + full_digits(eps1));
      }
    }
    kappa = next;
  }
  ctx.note("kappa_l - 1 over the layers", curve);
}

// Theorem 5.1 end to end: for eps = 10^-k, K = the first layer count with kappa_K - 1 <= tau,
// tau = eps / (2 kappa_0) (proof of Thm 5.1), is at most Lemma A.3's count; the K + 1 layer stack
// (K GD++ layers and one GD layer, eta/N = 1/mu_K) predicts every query within
// (kappa_K - 1) sqrt(kappa_0 kappa_K) ||w*|| ||x_t|| <= eps ||w*|| ||x_t|| of <x_t, w*>, w* the
// least-squares solution (exact: Sigma diagonal). Checked squared, so no square roots.
template <class T>
void gdpp_stack_reaches_eps_in_the_stated_layers(case_context& ctx, const construction<T>& make) {
  const auto c = gen_diagonal_case<T>(ctx, 4);
  const int k = *rc::gen::inRange(1, 9);
  T eps(1);
  for (int i = 0; i < k; ++i) eps /= T(10);
  const auto [mu, nu] = spectrum_bounds(c);
  const T kappa0 = nu / mu, tau = eps / (T(2) * kappa0);
  const int K = gdpp_rate_layers_needed<T>(kappa0, tau);
  const int bound = gdpp_rate_layer_bound(static_cast<long double>(to_double(kappa0)),
                                          static_cast<long double>(to_double(tau)));
  ctx.note("eps = 10^-k, kappa_0, K, Lemma A.3 count",
           std::to_string(k) + ", " + short_digits(kappa0, 6) + ", " + std::to_string(K) + ", " +
               std::to_string(bound));
  ctx.require(
      "K <= Lemma A.3's count ceil(log(kappa/1.1)/log(1/c)) + "
      "ceil(log2(log(2 tau)/log(1/5)))",
      K <= bound, std::to_string(K) + " > " + std::to_string(bound));
  const auto sch = make.schedule(mu, nu, K);
  const auto out =
      lsa_stack_forward<T>(make.stack(c.d, 1, c.N, sch),
                           regression_tokens<T>(c.X, c.Y, c.Xq, Mat<T>(Mat<T>::Zero(1, c.Q))), c.N);
  const Mat<T> pred = -out.back().bottomRightCorner(1, c.Q);
  Mat<T> w_star = matmul_nt(c.X, c.Y);  // diag(1/lambda) X Y^T
  for (Eigen::Index i = 0; i < c.d; ++i)
    w_star(i, 0) /= T(static_cast<double>(c.N * c.s[i] * c.s[i]));
  const T kappaK = sch.nu.back() / sch.mu.back();
  ctx.require("kappa_K - 1 <= tau", kappaK - T(1) <= tau,
              "kappa_K = " + full_digits(kappaK) + ", tau = " + full_digits(tau));
  const T ww = matmul_tn(w_star, w_star)(0, 0);
  for (Eigen::Index q = 0; q < c.Q; ++q) {
    const T err = pred(0, q) - matmul_tn(Mat<T>(c.Xq.col(q)), w_star)(0, 0);
    const T xx = matmul_tn(Mat<T>(c.Xq.col(q)), Mat<T>(c.Xq.col(q)))(0, 0);
    const T proof_bound = (kappaK - T(1)) * (kappaK - T(1)) * kappa0 * kappaK * ww * xx;
    bool zero_bound = false;
    if constexpr (is_ball_scalar<T>) {
      // Balls: where every s_i is equal (kappa_0 = 1: one GD step lands on w*), X Y^T = 0
      // (w* = 0) or x_t = 0 (integers: exact points), err = 0 = both bounds exactly, which no
      // enclosure decides as an inequality: checked as the identity err = 0 instead. Otherwise
      // the two bounds below are decided comparisons of balls (a throw where they overlap).
      zero_bound = all_eigenvalues_equal(c) || is_exact_zero(xx) ||
                   Mat<T>(matmul_nt(c.X, c.Y)).cwiseAbs2().sum() == T(0);
      if (zero_bound)
        ctx.check_identity(
            "query " + std::to_string(q) + ": kappa_0 = 1, w* = 0 or x_t = 0: err = 0 (enclosures)",
            err, T(0));
    }
    if (zero_bound) continue;
    ctx.require("query " + std::to_string(q) +
                    ": err^2 <= (kappa_K - 1)^2 kappa_0 kappa_K ||w*||^2 ||x_t||^2 (Lemma A.2 "
                    "in the transformed coordinates)",
                err * err <= proof_bound,
                "err = " + full_digits(err) + ", bound^2 = " + full_digits(proof_bound));
    ctx.require("query " + std::to_string(q) + ": err^2 <= eps^2 ||w*||^2 ||x_t||^2 (Thm 5.1)",
                err * err <= eps * eps * ww * xx,
                "err = " + full_digits(err) + ", eps = " + full_digits(eps));
  }
}

}  // namespace iclproof::gdpp_rate_checks
