// Checks of Bai et al.'s post-ICL validation (in-context algorithm selection, Section 4.1,
// Theorem H.2 with Theorem H.3 = Propositions H.3 and H.2; src/bai/bai_weights.hpp;
// docs/constructions/bai.md; proofs/BaiRelu.v). Each check is a template on the scalar and takes
// the constructions as functions (constructions<T>), so tests/unit/bai_test.cpp can feed broken
// ones. The layers under test are always the generic relu_attention / mlp layers.
//
// The references are closed forms computed in exact rationals from the same (dyadic) data,
// independently of the layers: the validation loss (1 / (2 n_val)) sum_{j in D_val}
// (f_k(x_j) - y_j)^2, the paper's selection weights from the losses (Proposition H.2:
// c_k = sum_{l != k} sigma(L_k - L_l), u_k = sigma(1 - c_k / gamma),
// lambda_k = sigma(1 - S_{k-1}) - sigma(1 - S_k), S_k = u_1 + ... + u_k), and ridge GD on the
// training split (references/proximal_gradient.hpp). On every case the checks also verify the
// paper's claim about those weights: lambda_k >= 0, sum_k lambda_k = 1, and lambda_k > 0 only
// where L_k <= min_l L_l + gamma; where every other run's loss is at least min + gamma, the
// output is the best run's prediction itself.
//
// Tolerances: none. The two layer-level checks draw dyadic data (entries k/4, n_val and gamma
// powers of two, R_val = R_f = 1) on which every operation of the layers and of the references
// is exact in binary floating point (every product and sum is a dyadic of a few bits, and each
// division by N or N + 1 divides an exact multiple of its divisor), so the comparisons are
// equalities in every scalar (double, long double, MPFR, MPFI, rationals). The whole transformer
// (GD runs, validation, selection) is checked in rationals and on balls (Arb), not in floating
// point: eta = 1/(d + lambda) rounds in binary, and the selection weights are piecewise linear in
// the losses with slopes up to K / gamma, so a rigorous floating-point bound would need the
// rounding carried through the selection layers, which is not built. On balls every comparison
// is an identity of enclosures, and the selection (which runs are within gamma of the best, the
// weights lambda_k) is decided on the exact rational validation losses of the same data (the
// ball losses must enclose them): two runs' ball losses may overlap, which `<` cannot order.
#pragma once

#include "bai/bai_weights.hpp"
#include "core/ball_of_rational.hpp"
#include "core/rational.hpp"
#include "harness/property.hpp"
#include "lsa/relu_layers.hpp"
#include "references/proximal_gradient.hpp"
#include "rounding_shadow.hpp"
#include "tasks/regression_task.hpp"

#include <rapidcheck.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace iclproof::bai_selection_checks {

using rounding_shadow::compare_within;
using Q = rational_real;

// The constructions under test (the real ones: bai_selection_layers, bai_selection_transformer).
template <class T>
struct constructions {
  std::function<relu_transformer<T>(const bai_selection_weights<T>&)> layers;
  std::function<relu_transformer<T>(const bai_selection_weights<T>&, int)> transformer;
};

template <class T>
constructions<T> real_constructions() {
  return {&bai_selection_layers<T>, &bai_selection_transformer<T>};
}

// Dyadic matrix: entries k/4, k an integer in [-4, 4].
inline Mat<double> quarter_matrix(data_rng& rng, Eigen::Index r, Eigen::Index c) {
  Mat<double> m(r, c);
  for (Eigen::Index j = 0; j < c; ++j)
    for (Eigen::Index i = 0; i < r; ++i) m(i, j) = std::floor(rng.uniform(-4.0, 5.0)) / 4.0;
  return m;
}

// A rational reference as T, through the double it equals: the layer-level references are
// dyadics of a few bits (header), so the double is exact and so is T(double) in every scalar
// (an MPFI interval built from a rational directly need not be a point). Fails the case if an
// entry is not a double.
template <class T>
Mat<T> to_scalar(case_context& ctx, const Mat<Q>& m) {
  Mat<T> out(m.rows(), m.cols());
  bool dyadic = true;
  for (Eigen::Index j = 0; j < m.cols(); ++j)
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
      const double v = m(i, j).template convert_to<double>();
      if (Q(v) != m(i, j)) dyadic = false;
      out(i, j) = T(v);
    }
  ctx.require("the reference is exactly representable in double (dyadic data)", dyadic,
              "reference =\n" + case_context::matrix_full_digits(m));
  return out;
}

// The paper's selection weights from the losses (Proposition H.2, steps 1-3), in rationals.
struct selection_reference {
  std::vector<Q> c, u, lambda;
};

inline Q relu_q(const Q& x) { return x > Q(0) ? x : Q(0); }

inline selection_reference selection_weights_reference(const std::vector<Q>& L, const Q& gamma) {
  const std::size_t K = L.size();
  selection_reference s{std::vector<Q>(K, Q(0)), std::vector<Q>(K), std::vector<Q>(K)};
  for (std::size_t k = 0; k < K; ++k) {
    for (std::size_t l = 0; l < K; ++l)
      if (l != k) s.c[k] += relu_q(L[k] - L[l]);
    s.u[k] = relu_q(Q(1) - s.c[k] / gamma);
  }
  Q S(0);
  for (std::size_t k = 0; k < K; ++k) {
    const Q before = relu_q(Q(1) - S);
    S += s.u[k];
    s.lambda[k] = before - relu_q(Q(1) - S);
  }
  return s;
}

// The paper's claim about the weights (Proposition H.2 / Theorem H.3): lambda_k >= 0,
// sum lambda_k = 1, lambda_k > 0 only where L_k <= min L + gamma. Returns the best run's index if
// every other run's loss is >= min + gamma (then the output must be that run's prediction), else
// -1.
inline int require_the_paper_s_selection_claim(case_context& ctx, const std::vector<Q>& L,
                                               const Q& gamma, const selection_reference& s) {
  const Q best = *std::min_element(L.begin(), L.end());
  Q sum(0);
  bool nonneg = true, near_best = true;
  std::string listing;
  for (std::size_t k = 0; k < L.size(); ++k) {
    sum += s.lambda[k];
    if (s.lambda[k] < Q(0)) nonneg = false;
    if (s.lambda[k] > Q(0) && L[k] > best + gamma) near_best = false;
    listing += "L_" + std::to_string(k + 1) + " = " + full_digits(L[k]) + ", lambda_" +
               std::to_string(k + 1) + " = " + full_digits(s.lambda[k]) + "; ";
  }
  listing += "gamma = " + full_digits(gamma);
  ctx.require("the selection weights are >= 0 and sum to 1 (Proposition H.2)",
              nonneg && sum == Q(1), listing);
  ctx.require("lambda_k > 0 only where L_k <= min_l L_l + gamma (Proposition H.2)", near_best,
              listing);
  int arg = -1;
  for (std::size_t k = 0; k < L.size(); ++k)
    if (L[k] == best) {
      bool separated = true;
      for (std::size_t l = 0; l < L.size(); ++l)
        if (l != k && L[l] < best + gamma) separated = false;
      if (separated) arg = static_cast<int>(k);
    }
  return arg;
}

// Every row of `after` but those in [first, last] equals `before` (exactly).
template <class T>
void require_rows_unchanged(case_context& ctx, const std::string& label, const Mat<T>& before,
                            const Mat<T>& after, Eigen::Index first, Eigen::Index last) {
  bool same = true;
  for (Eigen::Index i = 0; i < before.cols(); ++i)
    for (Eigen::Index r = 0; r < before.rows(); ++r)
      if ((r < first || r > last) && !is_exact_zero(T(after(r, i) - before(r, i)))) same = false;
  ctx.require(label, same, "after =\n" + case_context::matrix_full_digits(after));
}

// The weights of a layer-level case: K runs (their eta, lambda, R unused by the layers checked),
// R_val = R_f = 1, gamma given.
template <class T>
bai_selection_weights<T> layer_case_weights(Eigen::Index d, Eigen::Index N, Eigen::Index n_train,
                                            Eigen::Index K, double gamma) {
  bai_selection_weights<T> p;
  p.d = d;
  p.N = N;
  p.n_train = n_train;
  p.eta.assign(K, T(1));
  p.lambda.assign(K, T(1));
  p.R.assign(K, T(1));
  p.R_val = T(1);
  p.R_f = T(1);
  p.gamma = T(gamma);
  return p;
}

// 1. Proposition H.3: the validation attention layer on tokens whose f-slots hold predictions
//    f_k(x_i) (dyadic, |f| <= 1, |y| <= 1, so |f - y'| <= 2 = 2 R_val) writes
//    L_k = (1 / (2 n_val)) sum_{j in D_val} (f_k(x_j) - y_j)^2 into every token (the training
//    and query tokens drop out through the mask -2 R_val (1 + t_j)); every other row unchanged.
template <class T>
void validation_layer_writes_the_validation_losses(case_context& ctx,
                                                   const constructions<T>& make) {
  const Eigen::Index d = *rc::gen::inRange(1, 4);
  const Eigen::Index K = *rc::gen::inRange(1, 5);
  const Eigen::Index n_train = *rc::gen::inRange(1, 5);
  const Eigen::Index n_val = Eigen::Index(1) << *rc::gen::inRange(0, 3);
  const Eigen::Index N = n_train + n_val;
  const auto seed = *rc::gen::inRange<std::uint64_t>(0, 1u << 30);
  ctx.note("d, K, n_train, n_val, data seed",
           std::to_string(d) + ", " + std::to_string(K) + ", " + std::to_string(n_train) + ", " +
               std::to_string(n_val) + ", " + std::to_string(seed));
  data_rng rng(seed);
  const Mat<double> X = quarter_matrix(rng, d, N), y = quarter_matrix(rng, 1, N),
                    xq = quarter_matrix(rng, d, 1), F = quarter_matrix(rng, K, N + 1);
  const auto p = layer_case_weights<T>(d, N, n_train, K, 0.25);
  const bai_selection_layout L{d, K};
  Mat<T> H =
      bai_selection_tokens<T>(from_double<T>(X), from_double<T>(y), n_train, from_double<T>(xq), K);
  for (Eigen::Index k = 0; k < K; ++k)
    for (Eigen::Index i = 0; i <= N; ++i) H(L.f(k), i) = T(F(k, i));
  const auto tf = make.layers(p);
  ctx.require("three layers (Theorem H.3)", tf.blocks.size() == 3,
              "got " + std::to_string(tf.blocks.size()));
  const Mat<T> out = relu_attention_forward<T>(tf.blocks[0].attention, H, N);
  // The reference in rationals.
  Mat<Q> ref(K, N + 1);
  for (Eigen::Index k = 0; k < K; ++k) {
    Q sum(0);
    for (Eigen::Index j = n_train; j < N; ++j) {
      const Q e = Q(F(k, j)) - Q(y(0, j));
      sum += e * e;
    }
    for (Eigen::Index i = 0; i <= N; ++i) ref(k, i) = sum / Q(2 * n_val);
  }
  require_rows_unchanged<T>(ctx, "rows other than L_1..L_K unchanged (exact)", H, out, L.loss(0),
                            L.loss(K - 1));
  compare_within<T>(ctx, "every token's L_k vs (1 / (2 n_val)) sum_{D_val} (f_k(x_j) - y_j)^2",
                    Mat<T>(out.block(L.loss(0), 0, K, N + 1)), to_scalar<T>(ctx, ref), T(0));
}

// 2. Proposition H.2: from tokens holding losses L_k (the same in every token, as the validation
//    layer leaves them) and predictions f_k(x_i), the gap MLP leaves c_k, the indicator MLP u_k,
//    and the selection attention adds sum_k lambda_k f_k(x_i) to every token's y-slot (the
//    query's y-slot, 0 before, is the output). The losses are drawn as b + m_k gamma / 4 (m_k in
//    0..8) so that ties, gaps below gamma and gaps above gamma all occur.
template <class T>
void selection_layers_output_the_convex_combination(case_context& ctx,
                                                    const constructions<T>& make) {
  const Eigen::Index d = *rc::gen::inRange(1, 3);
  const Eigen::Index K = *rc::gen::inRange(1, 5);
  const Eigen::Index n_train = *rc::gen::inRange(1, 4);
  const Eigen::Index n_val = *rc::gen::inRange(1, 4);
  const Eigen::Index N = n_train + n_val;
  const int g_index = *rc::gen::inRange(1, 4);
  const double gamma = std::ldexp(1.0, -g_index);
  const double base = *rc::gen::inRange(0, 9) / 8.0;
  std::vector<double> Ld(K);
  for (auto& l : Ld) l = base + *rc::gen::inRange(0, 9) * gamma / 4.0;
  const auto seed = *rc::gen::inRange<std::uint64_t>(0, 1u << 30);
  std::string losses;
  for (double l : Ld) losses += std::to_string(l) + " ";
  ctx.note("d, K, n_train, n_val, gamma, data seed",
           std::to_string(d) + ", " + std::to_string(K) + ", " + std::to_string(n_train) + ", " +
               std::to_string(n_val) + ", " + std::to_string(gamma) + ", " + std::to_string(seed));
  ctx.note("losses L_k", losses);
  data_rng rng(seed);
  const Mat<double> X = quarter_matrix(rng, d, N), y = quarter_matrix(rng, 1, N),
                    xq = quarter_matrix(rng, d, 1), F = quarter_matrix(rng, K, N + 1);
  const auto p = layer_case_weights<T>(d, N, n_train, K, gamma);
  const bai_selection_layout L{d, K};
  Mat<T> H =
      bai_selection_tokens<T>(from_double<T>(X), from_double<T>(y), n_train, from_double<T>(xq), K);
  for (Eigen::Index i = 0; i <= N; ++i)
    for (Eigen::Index k = 0; k < K; ++k) {
      H(L.f(k), i) = T(F(k, i));
      H(L.loss(k), i) = T(Ld[k]);
    }
  const auto tf = make.layers(p);
  ctx.require("three layers (Theorem H.3)", tf.blocks.size() == 3,
              "got " + std::to_string(tf.blocks.size()));
  std::vector<Q> Lq(Ld.begin(), Ld.end());
  const selection_reference s = selection_weights_reference(Lq, Q(gamma));
  const int best = require_the_paper_s_selection_claim(ctx, Lq, Q(gamma), s);
  ctx.note("a run within gamma of no other (its prediction must be the output)",
           best < 0 ? std::string("none") : std::to_string(best + 1));
  auto slots = [&](const std::vector<Q>& v) {
    Mat<Q> m(K, N + 1);
    for (Eigen::Index i = 0; i <= N; ++i)
      for (Eigen::Index k = 0; k < K; ++k) m(k, i) = v[k];
    return to_scalar<T>(ctx, m);
  };
  const Mat<T> H1 = mlp_forward<T>(tf.blocks[0].mlp, H);
  require_rows_unchanged<T>(ctx, "gap MLP: rows other than the loss slots unchanged", H, H1,
                            L.loss(0), L.loss(K - 1));
  compare_within<T>(ctx, "gap MLP: every token's slot k vs c_k = sum_{l != k} sigma(L_k - L_l)",
                    Mat<T>(H1.block(L.loss(0), 0, K, N + 1)), slots(s.c), T(0));
  const Mat<T> H2 = relu_transformer_block_forward<T>(tf.blocks[1], H1, N);
  require_rows_unchanged<T>(ctx, "indicator layer: rows other than the loss slots unchanged", H1,
                            H2, L.loss(0), L.loss(K - 1));
  compare_within<T>(ctx, "indicator MLP: every token's slot k vs u_k = sigma(1 - c_k / gamma)",
                    Mat<T>(H2.block(L.loss(0), 0, K, N + 1)), slots(s.u), T(0));
  const Mat<T> H3 = relu_transformer_block_forward<T>(tf.blocks[2], H2, N);
  require_rows_unchanged<T>(ctx, "selection attention: rows other than y unchanged", H2, H3, L.y(),
                            L.y());
  Mat<Q> y_ref(1, N + 1);
  for (Eigen::Index i = 0; i <= N; ++i) {
    Q v = i < N ? Q(y(0, i)) : Q(0);
    for (Eigen::Index k = 0; k < K; ++k) v += s.lambda[k] * Q(F(k, i));
    y_ref(0, i) = v;
  }
  compare_within<T>(ctx, "selection: every token's y-slot vs y'_i + sum_k lambda_k f_k(x_i)",
                    Mat<T>(H3.row(L.y())), to_scalar<T>(ctx, y_ref), T(0));
  if (best >= 0)
    compare_within<T>(ctx, "separated best run: the output is its prediction f_k*(x_{N+1})",
                      Mat<T>(H3.block(L.y(), N, 1, 1)),
                      Mat<T>(Mat<T>::Constant(1, 1, T(F(best, N)))), T(0));
}

// The comparisons of the whole transformer (exact in rationals): on balls an identity of two
// enclosures (case_context::compare: the enclosure of the difference must contain 0), since
// eta_k = 1/(d + lambda_k) is not a dyadic and the balls are not points; elsewhere
// compare_within's exact equality (tolerance 0).
template <class T>
void compare_exact(case_context& ctx, const std::string& label, const Mat<T>& computed,
                   const Mat<T>& reference) {
  if constexpr (is_ball_scalar<T>)
    ctx.compare<T>(label, computed, reference, T(0));
  else
    compare_within<T>(ctx, label, computed, reference, T(0));
}

// The exact validation loss of run k (ridge GD with lambda on D_train for `steps` steps from 0,
// eta = 1/(d + lambda), then (1 / (2 n_val)) sum_{D_val} (<x_j, w> - y_j)^2), in rationals from
// the case's dyadic data: what the ball body decides the selection on.
inline Q exact_validation_loss(const Mat<double>& X, const Mat<double>& y, Eigen::Index n_train,
                               double lambda, int steps) {
  const Eigen::Index d = X.rows(), N = X.cols();
  const Mat<Q> Xq = from_double<Q>(X), yq = from_double<Q>(y);
  const Q lam(lambda), eta = Q(1) / (Q(d) + lam);
  const auto w = ridge_gd_iterates<Q>(Mat<Q>(Xq.leftCols(n_train)), Mat<Q>(yq.leftCols(n_train)),
                                      Mat<Q>(Mat<Q>::Zero(d, 1)), eta, lam, steps);
  Q sum(0);
  for (Eigen::Index j = n_train; j < N; ++j) {
    Q f(0);
    for (Eigen::Index r = 0; r < d; ++r) f += Xq(r, j) * w.back()(r, 0);
    sum += (f - yq(0, j)) * (f - yq(0, j));
  }
  return sum / Q(2 * (N - n_train));
}

// 3. Theorem H.2 with the GD runs: K = 2..3 ridge GD runs (distinct lambda_k in {1/4, 1/2, 1},
//    eta_k = 1/(d + lambda_k), R_k = 2d/lambda_k) for T = 1..4 steps on D_train, the read-out,
//    then the three layers: after layer l <= T every token holds every run's GD iterate on
//    D_train; after the read-out every token's f_k is <x_i, w_k^T>; the validation layer writes
//    the closed-form validation losses; the output is sum_k lambda_k <x_{N+1}, w_k^T>. Exact
//    only (the header).
template <class T>
void selection_transformer_selects_among_ridge_gd_runs(case_context& ctx,
                                                       const constructions<T>& make) {
  const Eigen::Index d = *rc::gen::inRange(1, 4);
  const Eigen::Index K = *rc::gen::inRange(2, 4);
  const Eigen::Index n_train = *rc::gen::inRange(2, 7);
  const Eigen::Index n_val = *rc::gen::inRange(1, 5);
  const Eigen::Index N = n_train + n_val;
  const int steps = *rc::gen::inRange(1, 5);
  const int g_index = *rc::gen::inRange(0, 3);
  const double gamma = std::ldexp(1.0, -2 - 2 * g_index);  // 1/4, 1/16, 1/64
  std::vector<double> lambdas{0.25, 0.5, 1.0};
  const int drop = *rc::gen::inRange(0, 3);  // K = 2: which lambda is left out
  if (K == 2) lambdas.erase(lambdas.begin() + drop);
  const auto seed = *rc::gen::inRange<std::uint64_t>(0, 1u << 30);
  std::string lam_list;
  for (double l : lambdas) lam_list += std::to_string(l) + " ";
  ctx.note("d, K, n_train, n_val, T, gamma, data seed",
           std::to_string(d) + ", " + std::to_string(K) + ", " + std::to_string(n_train) + ", " +
               std::to_string(n_val) + ", " + std::to_string(steps) + ", " + std::to_string(gamma) +
               ", " + std::to_string(seed));
  ctx.note("lambda_k", lam_list);
  data_rng rng(seed);
  const Mat<double> X = quarter_matrix(rng, d, N), y = quarter_matrix(rng, 1, N),
                    xq = quarter_matrix(rng, d, 1);
  bai_selection_weights<T> p;
  p.d = d;
  p.N = N;
  p.n_train = n_train;
  T R_max(0);
  for (double l : lambdas) {
    p.lambda.push_back(T(l));
    p.eta.push_back(T(1) / T(T(d) + T(l)));
    p.R.push_back(T(2 * d) / T(l));
    R_max = max_of(R_max, p.R.back());
  }
  p.R_val = R_max;
  p.R_f = R_max;
  p.gamma = T(gamma);
  const bai_selection_layout L{d, K};
  const Mat<T> Xt = from_double<T>(X), yt = from_double<T>(y), xqt = from_double<T>(xq);
  const Mat<T> H0 = bai_selection_tokens<T>(Xt, yt, n_train, xqt, K);
  const auto tf = make.transformer(p, steps);
  ctx.require("T + 4 layers (Theorem H.2: T + 1 for the runs and their read-out, 3 to select)",
              tf.blocks.size() == static_cast<std::size_t>(steps) + 4,
              "got " + std::to_string(tf.blocks.size()));
  const auto out = relu_transformer_forward<T>(tf, H0, N);
  // The references: ridge GD on D_train, per run.
  const Mat<T> X_train = Xt.leftCols(n_train), y_train = yt.leftCols(n_train);
  std::vector<std::vector<Mat<T>>> ref(K);
  T worst_score(0), worst_residual(0), worst_negative(0);
  for (Eigen::Index k = 0; k < K; ++k) {
    ref[k] = ridge_gd_iterates<T>(X_train, y_train, Mat<T>(Mat<T>::Zero(d, 1)), p.eta[k],
                                  p.lambda[k], steps);
    for (const auto& w : ref[k])
      for (Eigen::Index i = 0; i <= N; ++i) {
        T s(0);
        for (Eigen::Index r = 0; r < d; ++r) s += H0(L.x(r), i) * w(r, 0);
        worst_score = max_of(worst_score, T(abs_of(s) / p.R[k]));
      }
  }
  ctx.require("in the class: |<x_i, w_k^l>| <= R_k for every token, run and step",
              !(worst_score > T(1)), "max |<x_i, w>| / R_k = " + full_digits(worst_score));
  for (int l = 1; l <= steps; ++l) {
    Mat<T> got(K * d, N + 1), want(K * d, N + 1);
    for (Eigen::Index i = 0; i <= N; ++i)
      for (Eigen::Index k = 0; k < K; ++k)
        for (Eigen::Index r = 0; r < d; ++r) {
          got(k * d + r, i) = out[l](L.w(k, r), i);
          want(k * d + r, i) = ref[k][l](r, 0);
        }
    compare_exact<T>(ctx,
                     "layer " + std::to_string(l) +
                         ": every token's w_k vs ridge GD iterate l on D_train (lambda_k)",
                     got, want);
  }
  // Predictions f_k(x_i) = <x_i, w_k^T>, validation losses, selection weights.
  Mat<T> F(K, N + 1);
  for (Eigen::Index k = 0; k < K; ++k)
    for (Eigen::Index i = 0; i <= N; ++i) {
      T s(0);
      for (Eigen::Index r = 0; r < d; ++r) s += H0(L.x(r), i) * ref[k][steps](r, 0);
      F(k, i) = s;
      worst_residual = max_of(worst_residual, T(abs_of(T(s - H0(L.y(), i))) / (T(2) * p.R_val)));
      worst_negative = max_of(worst_negative, T(-(s + p.R_f)));
    }
  ctx.require("in the class: |f_k(x_i) - y'_i| <= 2 R_val and f_k(x_i) + R_f >= 0",
              !(worst_residual > T(1)) && !(worst_negative > T(0)),
              "max |f - y'| / (2 R_val) = " + full_digits(worst_residual) +
                  ", max -(f + R_f) = " + full_digits(worst_negative));
  const Mat<T>& after_readout = out[steps + 1];
  compare_exact<T>(ctx, "read-out: every token's f_k vs <x_i, w_k^T>",
                   Mat<T>(after_readout.block(L.f(0), 0, K, N + 1)), F);
  const Mat<T> validated =
      relu_attention_forward<T>(tf.blocks[steps + 1].attention, after_readout, N);
  std::vector<Q> Lq(K);
  Mat<T> loss_ref(K, N + 1);
  for (Eigen::Index k = 0; k < K; ++k) {
    T sum(0);
    for (Eigen::Index j = n_train; j < N; ++j) {
      const T e = F(k, j) - yt(0, j);
      sum += e * e;
    }
    const T loss = sum / T(2 * n_val);
    if constexpr (is_ball_scalar<T>) {
      // Balls: the selection (which run is within gamma of the best, the weights lambda_k) is
      // decided on the exact rational losses of the same data, never on two overlapping balls;
      // the ball loss must enclose the exact one.
      Lq[k] = exact_validation_loss(X, y, n_train, lambdas[k], steps);
      ctx.check_identity("the ball validation loss L_" + std::to_string(k + 1) +
                             " encloses the exact rational one",
                         loss, ball_of_rational(Lq[k]));
    } else {
      Lq[k] = Q(loss);
    }
    for (Eigen::Index i = 0; i <= N; ++i) loss_ref(k, i) = loss;
  }
  compare_exact<T>(ctx, "validation layer: every token's L_k vs the closed-form validation loss",
                   Mat<T>(validated.block(L.loss(0), 0, K, N + 1)), loss_ref);
  const selection_reference s = selection_weights_reference(Lq, Q(gamma));
  const int best = require_the_paper_s_selection_claim(ctx, Lq, Q(gamma), s);
  ctx.note("a run within gamma of no other (its prediction must be the output)",
           best < 0 ? std::string("none") : std::to_string(best + 1));
  T y_ref(0);
  for (Eigen::Index k = 0; k < K; ++k) {
    if constexpr (is_ball_scalar<T>)
      y_ref += ball_of_rational(s.lambda[k]) * F(k, N);
    else
      y_ref += T(s.lambda[k]) * F(k, N);
  }
  const T y_hat = out.back()(L.y(), N);
  compare_exact<T>(ctx, "output y_{N+1} vs sum_k lambda_k <x_{N+1}, w_k^T>",
                   Mat<T>(Mat<T>::Constant(1, 1, y_hat)), Mat<T>(Mat<T>::Constant(1, 1, y_ref)));
  if (best >= 0)
    compare_exact<T>(ctx, "separated best run: the output is <x_{N+1}, w_k*^T>",
                     Mat<T>(Mat<T>::Constant(1, 1, y_hat)),
                     Mat<T>(Mat<T>::Constant(1, 1, F(best, N))));
}

}  // namespace iclproof::bai_selection_checks
