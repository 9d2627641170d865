// Checks of Bai et al.'s ReLU-attention constructions (src/bai/bai_weights.hpp;
// docs/constructions/bai.md; proofs/BaiRelu.v). Each check is a template on the scalar and takes
// the constructions as functions (constructions<T>), so tests/unit/bai_test.cpp can feed broken
// ones. The layers under test are always the generic relu_attention / mlp layers.
//
// The data class (every weight is fixed by it, none by the prompt): d in 1..4 inputs,
// N in 1..8 examples, entries of x_i, x_{N+1} and y_i dyadic (k/4) in [-1, 1], so
// ||x||^2 <= d =: B_x^2, |y| <= 1 =: B_y and lambda_max(X X^T / N) <= d =: beta;
// lambda in {1/4, 1/2, 1}; eta = 1/(beta + lambda) = 1/(d + lambda) (the paper's eta = 1/beta for
// the smooth part, D.1 and F.1); R = 2 d / lambda. Why R suffices (hand-derived, checked on every
// case from the reference iterates): GD and ISTA from w_0 = 0 with eta <= 1/L_f never move away
// from a minimiser w* (Proposition A.3 (2); the non-expansive step of Lemma 14), so
// ||w_t|| <= 2 ||w*||; ridge: ||w*|| <= ||X y^T / N|| / lambda <= sqrt(d) / lambda; Lasso:
// lambda ||w*||_1 <= L(0) <= 1/2. Hence |<x_i, w_t>| <= 2 d / lambda = R for every token, which is
// what the masking of the query key (scores - R + R t_j) and the read-out need to be exact.
//
// Tolerances. In rationals every check is an equality (tolerance<T> = 0): the constructions are
// exact (the cited theorems). In floating point the layers and the references are straight-line
// programs of +, -, x, /N and sigma (exact, 1-Lipschitz) on the same inputs computing the same
// function, so they differ by at most 2 gamma_n (shadow_construction + shadow_reference)
// (properties/rounding_shadow.hpp, Higham Lemma 3.1). The construction's shadow is the same
// transformer with every weight replaced by its absolute value run on |tokens| (relu is the
// identity there); roundings per monomial (properties/relu_layers.hpp): one attention layer
// n_att = 3D + k + M + H + 2 (D = 2d + 3, k = d + 3 score rows, M = N + 1 tokens, H = 3 heads),
// one MLP n_mlp = 2D + 4d + 4, the reference GD / ISTA step n_ref = d + N + 8; they add along a
// stack, and two programs are compared with n = the larger of their counts.
// The two stack properties are exact-only in the sense of bai.cpp (rationals and balls, no
// floating-point body): in floating point their rigorous bounds exceed 16 times the worst error
// seen in 100 cases (the sharpness gate calls them vacuous). On balls (Arb) every comparison is
// an identity of enclosures (case_context::compare), T <= 6 and T <= 5 as in rationals, and the
// Lasso reference's soft threshold is its two-ReLU form (ista_reference below). Theorem 4 on
// balls: no rounding term (E = 0); the rigorous check is that the upper end of the enclosure of
// |y_hat - y_ridge| (y_ridge: the ball of the exact rational) is at most eps. The
// checks still draw T <= 2 GD layers and T = 1 Lasso block in floating point (the MPFR mutation
// tests run them); the exact scalars draw T <= 6 and T <= 5.
// The Theorem 4 rate check (ridge_prediction_is_within_the_theorem_4_error) runs up to ~170 layers:
// there the whole-stack shadow is useless, and the rounding is propagated layer by layer instead
// (hand-derived from Lemma 14 of the paper, adapted to per-token copies of w): with e_l the
// rounding bound of layer l alone (2 gamma_{n_att} times its shadow on the computed input), and
// E_l the largest 2-norm distance of any token's w to the exact GD iterate,
//     E_{l+1} <= (1 + eta lambda) E_l + d e_l      (||I - eta H|| <= 1 - eta lambda, the ridge
//                                                   head averages the other tokens' copies),
// and the read-out adds e_read + ||x_{N+1}||_1 E_T.
#pragma once

#include "bai/bai_weights.hpp"
#include "core/ball_of_rational.hpp"
#include "core/rational.hpp"
#include "harness/property.hpp"
#include "harness/tolerance.hpp"
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

namespace iclproof::bai_checks {

using rounding_shadow::compare_within;
using rounding_shadow::shadow_bound;

// The constructions under test (the real ones: bai_ridge_transformer, bai_lasso_transformer).
template <class T>
struct constructions {
  std::function<relu_transformer<T>(Eigen::Index d, const T& eta, const T& lambda, const T& R,
                                    int steps)>
      ridge;
  std::function<relu_transformer<T>(Eigen::Index d, const T& eta, const T& lambda, const T& R,
                                    int steps)>
      lasso;
};

template <class T>
constructions<T> real_constructions() {
  return {&bai_ridge_transformer<T>, &bai_lasso_transformer<T>};
}

// Dyadic matrix: entries k/4, k an integer in [-4, 4].
inline Mat<double> unit_dyadic_matrix(data_rng& rng, Eigen::Index r, Eigen::Index c) {
  Mat<double> m(r, c);
  for (Eigen::Index j = 0; j < c; ++j)
    for (Eigen::Index i = 0; i < r; ++i) m(i, j) = std::floor(rng.uniform(-4.0, 5.0)) / 4.0;
  return m;
}

// A prompt of the class and the class's fixed weights.
template <class T>
struct bai_case {
  Eigen::Index d = 0, N = 0;
  double lambda = 0;
  Mat<double> X, y, xq, w;  // w: a start point with entries in [-1, 1] (one-step checks)
  T eta, lam, R;
  Mat<T> Xt, yt, xqt, wt;
};

template <class T>
bai_case<T> gen_bai_case(case_context& ctx, int d_max = 4, int n_max = 8) {
  bai_case<T> c;
  c.d = *rc::gen::inRange(1, d_max + 1);
  c.N = *rc::gen::inRange(1, n_max + 1);
  const int lam_index = *rc::gen::inRange(0, 3);
  c.lambda = lam_index == 0 ? 0.25 : lam_index == 1 ? 0.5 : 1.0;
  const auto seed = *rc::gen::inRange<std::uint64_t>(0, 1u << 30);
  ctx.note("d, N, lambda, data seed", std::to_string(c.d) + ", " + std::to_string(c.N) + ", " +
                                          std::to_string(c.lambda) + ", " + std::to_string(seed));
  data_rng rng(seed);
  c.X = unit_dyadic_matrix(rng, c.d, c.N);
  c.y = unit_dyadic_matrix(rng, 1, c.N);
  c.xq = unit_dyadic_matrix(rng, c.d, 1);
  c.w = unit_dyadic_matrix(rng, c.d, 1);
  c.lam = T(c.lambda);
  c.eta = T(1) / T(T(c.d) + c.lam);
  c.R = T(2 * c.d) / c.lam;
  c.Xt = from_double<T>(c.X);
  c.yt = from_double<T>(c.y);
  c.xqt = from_double<T>(c.xq);
  c.wt = from_double<T>(c.w);
  return c;
}

// Every weight replaced by its absolute value (the rounding shadow's transformer).
template <class T>
relu_transformer<T> absolute_weights(const relu_transformer<T>& tf) {
  relu_transformer<T> out = tf;
  for (auto& b : out.blocks) {
    for (auto& h : b.attention.heads) {
      h.Q = abs_of(h.Q);
      h.K = abs_of(h.K);
      h.V = abs_of(h.V);
    }
    b.mlp.W1 = abs_of(b.mlp.W1);
    b.mlp.W2 = abs_of(b.mlp.W2);
    if (b.mlp.b1.size()) b.mlp.b1 = Vec<T>(abs_of(Mat<T>(b.mlp.b1)));
    if (b.mlp.b2.size()) b.mlp.b2 = Vec<T>(abs_of(Mat<T>(b.mlp.b2)));
  }
  return out;
}

// Rounding depths (header).
inline double attention_depth(Eigen::Index d, Eigen::Index N) {
  const double D = 2.0 * d + 3.0;
  return 3.0 * D + (d + 3.0) + (N + 1.0) + 3.0 + 2.0;
}
inline double mlp_depth(Eigen::Index d) { return 2.0 * (2.0 * d + 3.0) + 4.0 * d + 4.0; }
inline double reference_depth(Eigen::Index d, Eigen::Index N) { return d + N + 8.0; }

// The shadow of one reference GD / ISTA step from w: |w| + eta (|X| (|X|^T |w| + |y|^T) / N +
// lambda |w|) (+ theta for the soft threshold's subtraction).
template <class T>
Mat<T> reference_step_shadow(const bai_case<T>& c, const Mat<T>& w, const T& lambda,
                             const T& theta) {
  const Mat<T> aX = abs_of(c.Xt), aw = abs_of(w);
  const Mat<T> r = Mat<T>(matmul_tn(aX, aw)) + Mat<T>(abs_of(c.yt).transpose());
  Mat<T> s = aw + (Mat<T>(matmul(aX, r) / T(c.N)) + aw * lambda) * c.eta;
  for (Eigen::Index k = 0; k < s.rows(); ++k) s(k, 0) += theta;
  return s;
}

// The largest shadow entry of the w rows (every token): the entrywise bound of a w entry needs
// only its own shadow.
template <class T>
T w_rows_max(const Mat<T>& shadow, Eigen::Index d) {
  const bai_layout L{d};
  return max_abs(Mat<T>(shadow.block(L.w(0), 0, d, shadow.cols())));
}

// Every token's w after `out` is `w_ref` (label), within `bound`.
template <class T>
void compare_every_token(case_context& ctx, const std::string& label, const Mat<T>& H,
                         const Mat<T>& w_ref, const T& bound) {
  Mat<T> got(w_ref.rows(), H.cols()), ref(w_ref.rows(), H.cols());
  for (Eigen::Index i = 0; i < H.cols(); ++i) {
    got.col(i) = bai_iterate<T>(H, i);
    ref.col(i) = w_ref;
  }
  compare_within<T>(ctx, label, got, ref, bound);
}

// The rows other than w (x, y, 1, t) are unchanged by a GD / ISTA layer (exact: they receive
// additions of exact zeros).
template <class T>
void require_data_rows_unchanged(case_context& ctx, const std::string& label, const Mat<T>& before,
                                 const Mat<T>& after, Eigen::Index d) {
  const bai_layout L{d};
  bool same = true;
  for (Eigen::Index i = 0; i < before.cols(); ++i)
    for (Eigen::Index r = 0; r < before.rows(); ++r)
      if ((r < L.w(0) || r > L.w(d - 1)) && !is_exact_zero(T(after(r, i) - before(r, i))))
        same = false;
  ctx.require(label, same, "after =\n" + case_context::matrix_full_digits(after));
}

// The class condition |<x_i, w>| <= R for every token and every iterate (header).
template <class T>
void require_in_class(case_context& ctx, const bai_case<T>& c,
                      const std::vector<Mat<T>>& iterates) {
  T worst(0);
  for (const auto& w : iterates)
    for (Eigen::Index i = 0; i <= c.N; ++i) {
      T s(0);
      for (Eigen::Index k = 0; k < c.d; ++k)
        s += (i < c.N ? T(c.Xt(k, i)) : T(c.xqt(k, 0))) * w(k, 0);
      worst = max_of(worst, T(abs_of(s)));
    }
  ctx.require("the prompt is in the class: |<x_i, w_t>| <= R = 2d/lambda for every token and t",
              !(worst > c.R),
              "max |<x_i, w_t>| = " + full_digits(worst) + ", R = " + full_digits(c.R));
}

// 1. One GD attention layer on tokens with any w (entries in [-1, 1]): every token's w becomes
//    w - eta (X (X^T w - y^T) / N + lambda w); x, y, 1, t unchanged.
template <class T>
void gd_layer_makes_one_ridge_gd_step(case_context& ctx, const constructions<T>& make) {
  const auto c = gen_bai_case<T>(ctx);
  const auto tf = make.ridge(c.d, c.eta, c.lam, c.R, 1);
  ctx.require("two layers for one step (GD layer + read-out)", tf.blocks.size() == 2,
              "got " + std::to_string(tf.blocks.size()));
  const Mat<T> H = bai_tokens<T>(c.Xt, c.yt, c.xqt, c.wt);
  const Mat<T> out = relu_transformer_block_forward<T>(tf.blocks[0], H, c.N);
  const auto ref = ridge_gd_iterates<T>(c.Xt, c.yt, c.wt, c.eta, c.lam, 1);
  require_in_class<T>(ctx, c, ref);
  const T bound = tolerance<T>([&](auto) {
    const Mat<T> sh =
        relu_transformer_block_forward<T>(absolute_weights(tf).blocks[0], abs_of(H), c.N);
    return shadow_bound<T>(
        std::max(attention_depth(c.d, c.N), reference_depth(c.d, c.N)),
        T(w_rows_max(sh, c.d) + max_abs(reference_step_shadow(c, c.wt, c.lam, T(0)))));
  });
  require_data_rows_unchanged<T>(ctx, "x, y, 1, t rows unchanged (exact)", H, out, c.d);
  compare_every_token<T>(ctx, "every token's w vs one ridge GD step", out, ref[1], bound);
}

// 2. T GD layers and the read-out from w_0 = 0 (T in 1..6 exact, 1..2 in floating point): after
// layer l every token holds
//    w_GD^l, and the query's y-slot is <x_{N+1}, w_GD^T>.
template <class T>
void ridge_stack_holds_the_gd_iterates(case_context& ctx, const constructions<T>& make) {
  const auto c = gen_bai_case<T>(ctx);
  const int steps = *rc::gen::inRange(1, (is_exact_scalar<T> || is_interval_scalar<T>) ? 7 : 3);
  ctx.note("GD steps T", std::to_string(steps));
  const auto tf = make.ridge(c.d, c.eta, c.lam, c.R, steps);
  ctx.require("T + 1 layers", tf.blocks.size() == static_cast<std::size_t>(steps) + 1,
              "got " + std::to_string(tf.blocks.size()));
  const Mat<T> w0 = Mat<T>::Zero(c.d, 1);
  const Mat<T> H = bai_tokens<T>(c.Xt, c.yt, c.xqt, w0);
  const auto out = relu_transformer_forward<T>(tf, H, c.N);
  const auto ref = ridge_gd_iterates<T>(c.Xt, c.yt, w0, c.eta, c.lam, steps);
  require_in_class<T>(ctx, c, ref);
  const auto shadow = relu_transformer_forward<T>(absolute_weights(tf), abs_of(H), c.N);
  std::vector<Mat<T>> ref_shadow{Mat<T>::Zero(c.d, 1)};
  for (int l = 0; l < steps; ++l)
    ref_shadow.push_back(reference_step_shadow(c, ref_shadow.back(), c.lam, T(0)));
  for (int l = 1; l <= steps; ++l) {
    const T bound = tolerance<T>([&](auto) {
      return shadow_bound<T>(l * std::max(attention_depth(c.d, c.N), reference_depth(c.d, c.N)),
                             T(w_rows_max(shadow[l], c.d) + max_abs(ref_shadow[l])));
    });
    compare_every_token<T>(ctx, "layer " + std::to_string(l) + ": every token's w vs w_GD^l",
                           out[l], ref[l], bound);
  }
  const Mat<T> pred(Mat<T>::Constant(1, 1, bai_prediction<T>(out.back())));
  const Mat<T> ref_pred = matmul_tn(c.xqt, ref[steps]);
  const T bound = tolerance<T>([&](auto) {
    const double n =
        std::max((steps + 1) * attention_depth(c.d, c.N), steps * reference_depth(c.d, c.N) + c.d);
    const bai_layout L{c.d};
    return shadow_bound<T>(n, T(abs_of(T(shadow.back()(L.y(), c.N))) +
                                max_abs(Mat<T>(matmul_tn(abs_of(c.xqt), ref_shadow.back())))));
  });
  compare_within<T>(ctx, "read-out y_{N+1} vs <x_{N+1}, w_GD^T>", pred, ref_pred, bound);
}

// The paper's Theorem 4 layer count for the class: kappa = (beta + lambda) / (alpha + lambda)
// with alpha = 0, beta = d; B_x B_w / 2 = d B_y / lambda (B_w = 2 B_x B_y / lambda bounds
// 2 ||w_ridge||): L = ceil(2 kappa log(B_x B_w / (2 eps))) + 1.
inline int theorem_4_layers(Eigen::Index d, double lambda, double eps) {
  const double kappa = (static_cast<double>(d) + lambda) / lambda;
  return static_cast<int>(
             std::ceil(2.0 * kappa * std::log(static_cast<double>(d) / (lambda * eps)))) +
         1;
}

// 3. Theorem 4: with L = theorem_4_layers(d, lambda, eps) layers, |y_{N+1} - <x_{N+1}, w_ridge>|
//    <= eps (eps in {1/2, 1/4, 1/8}), up to the rounding propagated by the header's recursion.
//    The ridge prediction is computed exactly (rationals) and rounded once to T.
template <class T>
void ridge_prediction_is_within_the_theorem_4_error(case_context& ctx,
                                                    const constructions<T>& make) {
  const auto c = gen_bai_case<T>(ctx);
  const int e_index = *rc::gen::inRange(1, 4);
  const double eps_target = std::ldexp(1.0, -e_index);
  const int L = theorem_4_layers(c.d, c.lambda, eps_target);
  ctx.note("eps, L (Theorem 4)", std::to_string(eps_target) + ", " + std::to_string(L));
  const auto tf = make.ridge(c.d, c.eta, c.lam, c.R, L - 1);
  ctx.require("L layers", tf.blocks.size() == static_cast<std::size_t>(L),
              "got " + std::to_string(tf.blocks.size()));
  const auto abs_tf = absolute_weights(tf);
  Mat<T> H = bai_tokens<T>(c.Xt, c.yt, c.xqt, Mat<T>(Mat<T>::Zero(c.d, 1)));
  T E(0);  // the propagated rounding of the w copies (header)
  for (std::size_t l = 0; l + 1 < tf.blocks.size(); ++l) {
    const Mat<T> next = relu_transformer_block_forward<T>(tf.blocks[l], H, c.N);
    // Balls: every layer's output encloses the exact-arithmetic output, so no rounding term is
    // propagated (E stays 0) and the verdict is the enclosures' (upper end of the error <= eps).
    if constexpr (!is_exact_scalar<T> && !is_ball_scalar<T>) {
      const Mat<T> sh = relu_transformer_block_forward<T>(abs_tf.blocks[l], abs_of(H), c.N);
      const T e_l = shadow_bound<T>(attention_depth(c.d, c.N), max_abs(sh));
      E = E * (T(1) + c.eta * c.lam) + T(c.d) * e_l;
    }
    H = next;
  }
  const Mat<T> out = relu_transformer_block_forward<T>(tf.blocks.back(), H, c.N);
  const T y_hat = bai_prediction<T>(out);
  // The exact ridge prediction, in rationals from the same (dyadic) data.
  using Q = rational_real;
  const Mat<Q> wq = bai_ridge_solution<Q>(from_double<Q>(c.X), from_double<Q>(c.y), Q(c.lambda));
  const Q y_ridge_q = Mat<Q>(matmul_tn(from_double<Q>(c.xq), wq))(0, 0);
  // Rounded once to T (mpq_get_d truncates for the binary types: within 2 eps |y| below); on
  // balls the ball containing the exact rational (no rounding term).
  T y_ridge;
  if constexpr (is_ball_scalar<T>)
    y_ridge = ball_of_rational(y_ridge_q);
  else
    y_ridge = T(y_ridge_q);
  T rounding(0);
  if constexpr (!is_exact_scalar<T> && !is_ball_scalar<T>) {
    const Mat<T> sh = relu_transformer_block_forward<T>(abs_tf.blocks.back(), abs_of(H), c.N);
    T xq1(0);
    for (Eigen::Index k = 0; k < c.d; ++k) xq1 += abs_of(T(c.xqt(k, 0)));
    rounding = shadow_bound<T>(attention_depth(c.d, c.N), max_abs(sh)) + xq1 * E +
               T(2) * eps<T>() * abs_of(y_ridge);
  }
  const T err = abs_of(T(y_hat - y_ridge));
  ctx.check_le_hand_derived<T>(
      "|y_{N+1} - <x_{N+1}, w_ridge>| <= eps (Theorem 4) + propagated rounding", err,
      T(T(eps_target) + rounding),
      "Bai et al. Theorem 4 / D.1 (eps with L = ceil(2 kappa log(B_x B_w / (2 eps))) + 1 layers) "
      "plus the rounding recursion E_{l+1} <= (1 + eta lambda) E_l + d e_l (properties/bai.hpp)",
      [&] {
        return "y_hat = " + full_digits(y_hat) + ", y_ridge = " + full_digits(y_ridge) +
               ", rounding = " + full_digits(rounding);
      });
}

// 4. The soft-threshold MLP alone: the w rows become S_theta(w) (theta = eta lambda), every
//    other row unchanged.
template <class T>
void soft_threshold_mlp_applies_the_prox(case_context& ctx, const constructions<T>& make) {
  const auto c = gen_bai_case<T>(ctx);
  // w spread over [-2, 2] so that all three branches of S occur.
  const Mat<T> w = c.wt * T(2);
  const auto tf = make.lasso(c.d, c.eta, c.lam, c.R, 1);
  const T theta = c.eta * c.lam;
  const Mat<T> H = bai_tokens<T>(c.Xt, c.yt, c.xqt, w);
  const Mat<T> out = mlp_forward<T>(tf.blocks.at(0).mlp, H);
  Mat<T> ref(c.d, 1);
  for (Eigen::Index k = 0; k < c.d; ++k) {
    // S_theta as the two-ReLU form on intervals (a branch on an enclosure straddling theta is
    // ambiguous), as its branches elsewhere (proofs/BaiRelu.v:soft_threshold_two_relus).
    if constexpr (is_interval_scalar<T>)
      ref(k, 0) = relu(T(w(k, 0) - theta)) - relu(T(-w(k, 0) - theta));
    else
      ref(k, 0) = soft_threshold(T(w(k, 0)), theta);
  }
  const T bound = tolerance<T>([&](auto) {
    const Mat<T> sh = mlp_forward<T>(absolute_weights(tf).blocks.at(0).mlp, abs_of(H));
    return shadow_bound<T>(mlp_depth(c.d) + 2.0, T(max_abs(sh) + max_abs(w) + theta));
  });
  require_data_rows_unchanged<T>(ctx, "x, y, 1, t rows unchanged (exact)", H, out, c.d);
  compare_every_token<T>(ctx, "every token's w vs S_theta(w)", out, ref, bound);
}

// The ISTA iterates of the reference (references/proximal_gradient.hpp). On interval scalars
// (MPFI, balls) the soft threshold is its two-ReLU form relu(v - theta) - relu(-v - theta)
// (proofs/BaiRelu.v:soft_threshold_two_relus): the branches of soft_threshold compare v with
// theta, which an enclosure straddling theta cannot decide; relu is max_of, an enclosure of the
// max. Elsewhere the reference's own ista_iterates.
template <class T>
std::vector<Mat<T>> ista_reference(const Mat<T>& X, const Mat<T>& y, const Mat<T>& w0, const T& eta,
                                   const T& lambda, int steps) {
  if constexpr (is_interval_scalar<T>) {
    std::vector<Mat<T>> out{w0};
    const T theta = eta * lambda;
    for (int k = 0; k < steps; ++k) {
      const Mat<T>& w = out.back();
      const Mat<T> v = w - square_loss_gradient(w, X, y) * eta;
      Mat<T> next(v.rows(), v.cols());
      for (Eigen::Index j = 0; j < v.cols(); ++j)
        for (Eigen::Index i = 0; i < v.rows(); ++i)
          next(i, j) = relu(T(v(i, j) - theta)) - relu(T(-v(i, j) - theta));
      out.push_back(next);
    }
    return out;
  } else {
    return ista_iterates<T>(X, y, w0, eta, lambda, steps);
  }
}

// 5. T Lasso blocks (two square-loss heads, then the soft-threshold MLP) and the read-out from
//    w_0 = 0 (T in 1..5 exact, T = 1 in floating point): after block l every token holds the ISTA
//    iterate w^l; the query's y-slot is <x_{N+1}, w^T>.
template <class T>
void lasso_stack_holds_the_ista_iterates(case_context& ctx, const constructions<T>& make) {
  const auto c = gen_bai_case<T>(ctx);
  const int steps = *rc::gen::inRange(1, (is_exact_scalar<T> || is_interval_scalar<T>) ? 6 : 2);
  ctx.note("ISTA steps T", std::to_string(steps));
  const auto tf = make.lasso(c.d, c.eta, c.lam, c.R, steps);
  ctx.require("T + 1 layers", tf.blocks.size() == static_cast<std::size_t>(steps) + 1,
              "got " + std::to_string(tf.blocks.size()));
  const Mat<T> w0 = Mat<T>::Zero(c.d, 1);
  const Mat<T> H = bai_tokens<T>(c.Xt, c.yt, c.xqt, w0);
  const auto out = relu_transformer_forward<T>(tf, H, c.N);
  const auto ref = ista_reference<T>(c.Xt, c.yt, w0, c.eta, c.lam, steps);
  require_in_class<T>(ctx, c, ref);
  const auto shadow = relu_transformer_forward<T>(absolute_weights(tf), abs_of(H), c.N);
  std::vector<Mat<T>> ref_shadow{Mat<T>::Zero(c.d, 1)};
  const T theta = c.eta * c.lam;
  for (int l = 0; l < steps; ++l)
    ref_shadow.push_back(reference_step_shadow(c, ref_shadow.back(), T(0), theta));
  const double block =
      std::max(attention_depth(c.d, c.N) + mlp_depth(c.d), reference_depth(c.d, c.N));
  for (int l = 1; l <= steps; ++l) {
    const T bound = tolerance<T>([&](auto) {
      return shadow_bound<T>(l * block, T(max_abs(shadow[l]) + max_abs(ref_shadow[l])));
    });
    compare_every_token<T>(ctx, "block " + std::to_string(l) + ": every token's w vs ISTA w^l",
                           out[l], ref[l], bound);
  }
  const Mat<T> pred(Mat<T>::Constant(1, 1, bai_prediction<T>(out.back())));
  const Mat<T> ref_pred = matmul_tn(c.xqt, ref[steps]);
  const T bound = tolerance<T>([&](auto) {
    return shadow_bound<T>(
        std::max(steps * (attention_depth(c.d, c.N) + mlp_depth(c.d)) + attention_depth(c.d, c.N),
                 steps * reference_depth(c.d, c.N) + c.d),
        T(abs_of(T(shadow.back()(bai_layout{c.d}.y(), c.N))) +
          max_abs(Mat<T>(matmul_tn(abs_of(c.xqt), ref_shadow.back())))));
  });
  compare_within<T>(ctx, "read-out y_{N+1} vs <x_{N+1}, w_ISTA^T>", pred, ref_pred, bound);
}

// 6. An orthogonal design: X = d distinct rows of a Sylvester-Hadamard matrix of order N in
//    {2, 4, 8} (entries +-1, X X^T = N I, so the class's beta = 1 and eta = 1), y dyadic. The
//    Lasso optimum is unique and equals S_lambda(X y^T / N) (the objective separates into
//    (u - b_k)^2 / 2 + lambda |u|, each minimised by the soft threshold; standard, not in Coq).
//    One block of the Lasso transformer
//    (eta = 1) lands on it exactly, a second block stays there, and the read-out is
//    <x_{N+1}, w_lasso>.
template <class T>
void lasso_on_an_orthogonal_design_lands_on_the_optimum(case_context& ctx,
                                                        const constructions<T>& make) {
  const int log_n = *rc::gen::inRange(1, 4);
  const Eigen::Index N = Eigen::Index(1) << log_n;
  const Eigen::Index d = *rc::gen::inRange<Eigen::Index>(1, std::min<Eigen::Index>(N, 4) + 1);
  const int lam_index = *rc::gen::inRange(0, 3);
  const double lambda = lam_index == 0 ? 0.25 : lam_index == 1 ? 0.5 : 1.0;
  const auto seed = *rc::gen::inRange<std::uint64_t>(0, 1u << 30);
  ctx.note("N, d, lambda, data seed", std::to_string(N) + ", " + std::to_string(d) + ", " +
                                          std::to_string(lambda) + ", " + std::to_string(seed));
  data_rng rng(seed);
  // Sylvester-Hadamard: H_{2n} = [[H, H], [H, -H]]; rows 0..d-1 of H_N (X is d x N).
  Mat<double> Had = Mat<double>::Ones(1, 1);
  while (Had.rows() < N) {
    Mat<double> next(2 * Had.rows(), 2 * Had.rows());
    next << Had, Had, Had, -Had;
    Had = next;
  }
  const Mat<double> X = Had.topRows(d);
  const Mat<double> y = unit_dyadic_matrix(rng, 1, N);
  const Mat<double> xq = unit_dyadic_matrix(rng, d, 1);
  const T lam(lambda), eta(1), R = T(static_cast<double>(2 * d)) / lam;
  const Mat<T> Xt = from_double<T>(X), yt = from_double<T>(y), xqt = from_double<T>(xq);
  const auto tf = make.lasso(d, eta, lam, R, 2);
  const auto out =
      relu_transformer_forward<T>(tf, bai_tokens<T>(Xt, yt, xqt, Mat<T>(Mat<T>::Zero(d, 1))), N);
  // b = X y^T / N: sums of dyadics divided by a power of two; S_lambda(b): exact in every scalar.
  const Mat<T> b = Mat<T>(matmul_nt(Xt, yt)) / T(static_cast<double>(N));
  Mat<T> w_lasso(d, 1);
  for (Eigen::Index k = 0; k < d; ++k) {
    if constexpr (is_interval_scalar<T>)
      w_lasso(k, 0) = relu(T(b(k, 0) - lam)) - relu(T(-b(k, 0) - lam));
    else
      w_lasso(k, 0) = soft_threshold(T(b(k, 0)), lam);
  }
  // Every value here is a dyadic with few bits (|entries| <= 8, N a power of two): the layers
  // compute it without rounding, so the bound is 0 in every scalar (compare_within then checks
  // equality).
  const T zero(0);
  compare_every_token<T>(ctx, "block 1: every token's w vs S_lambda(X y^T / N) (the optimum)",
                         out[1], w_lasso, zero);
  compare_every_token<T>(ctx, "block 2: the optimum is a fixed point", out[2], w_lasso, zero);
  const Mat<T> pred(Mat<T>::Constant(1, 1, bai_prediction<T>(out.back())));
  compare_within<T>(ctx, "read-out vs <x_{N+1}, w_lasso>", pred, Mat<T>(matmul_tn(xqt, w_lasso)),
                    zero);
}

}  // namespace iclproof::bai_checks
