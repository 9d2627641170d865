// Checks of Fu et al.'s Theorem 5.1 as App. B.2 builds it, on the generic ReLU-attention and
// MLP layers (src/iterative_newton/fu_relu_weights.hpp; docs/constructions/iterative_newton.md;
// proofs/FuReluNewton.v). Exact in rationals, tolerance 0. Each check takes the construction
// under test as a `fu_relu_constructions` so tests/unit/iterative_newton_test.cpp can feed it
// broken ones.
//
// The data class of the fixed-weight transformer: d <= 4, n <= n_max = 6 examples with integer
// entries in [-2, 2]: ||x_i||^2 <= 16 = B^2, so ||S||_F <= sum_i ||x_i||^2 <= n_max B^2 = 96 and
// lambda_max(S) <= 96. alpha = 1/96^2 = 1/9216 is a weight fixed by that bound, the same for
// every prompt: alpha ||S||_F^2 <= 1 <= 2 (FuReluNewton.v:fu_contraction's hypothesis a F <= 2
// with F = ||S||_F^2), so alpha lambda_max^2 <= 1 < 2.
#pragma once

#include "core/precision.hpp"
#include "core/rational.hpp"
#include "harness/property.hpp"
#include "iterative_newton/fu_relu_weights.hpp"
#include "newton_schulz/newton_schulz_weights.hpp"
#include "tasks/regression_task.hpp"

#include <rapidcheck.h>

#include <cmath>
#include <functional>
#include <string>

namespace iclproof::fu_relu_checks {

template <class T>
struct fu_relu_constructions {
  std::function<relu_transformer<T>(Eigen::Index d, int k, const T& alpha)> transformer;
  // The set-up's attention block with the paper's printed values V_1 = V_2 (check 6).
  std::function<relu_transformer_block<T>(Eigen::Index d, const T& alpha)> printed_init;
};

// The init block as App. B.2 prints eq. (21)-(22): both heads with the same value matrix.
template <class T>
relu_transformer_block<T> printed_init_block(Eigen::Index d, const T& alpha) {
  auto b = fu_relu_init_block<T>(d, alpha);
  b.attention.heads[1].V = b.attention.heads[0].V;
  return b;
}

template <class T>
fu_relu_constructions<T> real_fu_relu() {
  return {&fu_relu_transformer<T>, &printed_init_block<T>};
}

inline constexpr int fu_class_n_max = 6;
inline constexpr int fu_class_entry_max = 2;
inline constexpr int fu_class_d_max = 4;
template <class T>
T fu_class_alpha() {
  const T b = T(fu_class_n_max * fu_class_entry_max * fu_class_entry_max * fu_class_d_max);  // 96
  return T(T(1) / T(b * b));
}

template <class T>
struct fu_prompt {
  Eigen::Index d, n;
  Mat<T> X, y, Xq;
};

// A prompt of the class: n in 1..6 examples, entries integers in [-2, 2], two queries.
template <class T>
fu_prompt<T> gen_fu_prompt(case_context& ctx, int d, const std::string& label) {
  const int n = *rc::gen::inRange(1, fu_class_n_max + 1);
  const auto seed = *rc::gen::inRange<std::uint64_t>(0, 1u << 30);
  ctx.note(label + ": n, data seed", std::to_string(n) + ", " + std::to_string(seed));
  data_rng rng(seed);
  const auto entry = [&] {
    return std::floor(rng.uniform(-fu_class_entry_max, fu_class_entry_max + 1.0));
  };
  Mat<double> X(d, n), y(1, n), Xq(d, 2);
  for (int i = 0; i < n; ++i) {
    for (int r = 0; r < d; ++r) X(r, i) = entry();
    y(0, i) = entry();
  }
  for (int j = 0; j < 2; ++j)
    for (int r = 0; r < d; ++r) Xq(r, j) = entry();
  return {d, n, from_double<T>(X), from_double<T>(y), from_double<T>(Xq)};
}

template <class T>
Mat<T> iterate_k(const Mat<T>& S, const T& alpha, int k) {
  return newton_schulz_iterates<T>(S, Mat<T>(S * alpha), k).back();
}

// 1. One transformer per (d, k), built from (d, k, alpha) only, then three prompts of the class
//    through it: k + 4 blocks, at most 2 heads per attention layer, token width 2d + 2, and every
//    query's prediction is x_q^T M_k X y exactly (M_0 = alpha S, S = X X^T), k in 0..3.
template <class T>
void fixed_weights_predict(case_context& ctx, const fu_relu_constructions<T>& make) {
  const int d = *rc::gen::inRange(1, fu_class_d_max + 1);
  const int k = *rc::gen::inRange(0, 4);
  ctx.note("d, Newton steps k", std::to_string(d) + ", " + std::to_string(k));
  const T alpha = fu_class_alpha<T>();
  const relu_transformer<T> tf = make.transformer(d, k, alpha);
  ctx.require("k + 4 blocks", static_cast<int>(tf.blocks.size()) == k + 4,
              std::to_string(tf.blocks.size()) + " blocks");
  for (std::size_t b = 0; b < tf.blocks.size(); ++b)
    ctx.require("block " + std::to_string(b + 1) + ": at most 2 heads, width 2d + 2",
                tf.blocks[b].attention.heads.size() <= 2 && tf.blocks[b].mlp.W1.cols() == 2 * d + 2,
                std::to_string(tf.blocks[b].attention.heads.size()) + " heads");
  for (int p = 0; p < 3; ++p) {
    const auto c = gen_fu_prompt<T>(ctx, d, "prompt " + std::to_string(p + 1));
    const auto out = relu_transformer_forward<T>(tf, fu_relu_tokens<T>(c.X, c.y, c.Xq), c.n);
    const Mat<T> S = c.X * c.X.transpose();
    const Mat<T> want =
        Mat<T>(c.Xq.transpose() * iterate_k<T>(S, alpha, k) * c.X * c.y.transpose()).transpose();
    const Mat<T> got = fu_relu_predictions<T>(out.back(), d, c.n);
    ctx.require("prompt " + std::to_string(p + 1) + ": predictions = x_q^T M_k X y (exact)",
                got == want,
                "got " + case_context::matrix_full_digits(got) + "expected " +
                    case_context::matrix_full_digits(want));
  }
}

// 2. Block by block: after the 3 set-up blocks the context tokens' u block is alpha S X, after
//    Newton block l it is M_l X (M_l the Newton recursion), l = 1..k, k in 1..3.
template <class T>
void blocks_hold_the_iterates(case_context& ctx, const fu_relu_constructions<T>& make) {
  const int d = *rc::gen::inRange(1, fu_class_d_max + 1);
  const int k = *rc::gen::inRange(1, 4);
  ctx.note("d, Newton steps k", std::to_string(d) + ", " + std::to_string(k));
  const T alpha = fu_class_alpha<T>();
  const auto c = gen_fu_prompt<T>(ctx, d, "prompt");
  const auto out = relu_transformer_forward<T>(make.transformer(d, k, alpha),
                                               fu_relu_tokens<T>(c.X, c.y, c.Xq), c.n);
  ctx.require("k + 5 token matrices", out.size() == static_cast<std::size_t>(k + 5),
              std::to_string(out.size()));
  const Mat<T> S = c.X * c.X.transpose();
  const auto M = newton_schulz_iterates<T>(S, Mat<T>(S * alpha), k);
  for (int l = 0; l <= k; ++l) {
    const Mat<T> U = fu_relu_context_u<T>(out[3 + l], d, c.n);
    ctx.require(
        "after block " + std::to_string(3 + l) + ": u = M_" + std::to_string(l) + " X (exact)",
        U == Mat<T>(M[l] * c.X), "u =\n" + case_context::matrix_full_digits(U));
  }
}

// 3. The residual identity at the fixed alpha, on the tokens: with U = M_k X read off the
//    context tokens, X - U X^T X = (I - M_k S) X = (I - alpha S^2)^(2^k) X (k in 1..3).
template <class T>
void residual_at_fixed_alpha(case_context& ctx, const fu_relu_constructions<T>& make) {
  const int d = *rc::gen::inRange(1, fu_class_d_max + 1);
  const int k = *rc::gen::inRange(1, 4);
  ctx.note("d, Newton steps k", std::to_string(d) + ", " + std::to_string(k));
  const T alpha = fu_class_alpha<T>();
  const auto c = gen_fu_prompt<T>(ctx, d, "prompt");
  const auto out = relu_transformer_forward<T>(make.transformer(d, k, alpha),
                                               fu_relu_tokens<T>(c.X, c.y, c.Xq), c.n);
  const Mat<T> U = fu_relu_context_u<T>(out[3 + k], d, c.n);
  const Mat<T> S = c.X * c.X.transpose();
  Mat<T> R = Mat<T>::Identity(d, d) - S * S * alpha;
  for (int j = 0; j < k; ++j) R = Mat<T>(R * R);
  const Mat<T> lhs = c.X - U * c.X.transpose() * c.X;
  ctx.require("X - U X^T X = (I - alpha S^2)^(2^k) X (exact)", lhs == Mat<T>(R * c.X),
              "lhs =\n" + case_context::matrix_full_digits(lhs));
}

// 4. The contraction for every prompt of the class: alpha ||S||_F^2 <= 1 (so a F <= 2 in
//    FuReluNewton.v:fu_contraction with F = ||S||_F^2), and for nonsingular S the prediction
//    error x_q^T w* - y_hat = x_q^T (I - alpha S^2)^(2^k) w* with
//    ||(I - alpha S^2)^(2^k) w*||^2 not increasing in k = 0..3.
template <class T>
void contraction_in_the_class(case_context& ctx, const fu_relu_constructions<T>& make) {
  const int d = *rc::gen::inRange(1, fu_class_d_max + 1);
  const T alpha = fu_class_alpha<T>();
  const auto c = gen_fu_prompt<T>(ctx, d, "prompt");
  const Mat<T> S = c.X * c.X.transpose();
  T frob(0);
  for (Eigen::Index j = 0; j < d; ++j)
    for (Eigen::Index i = 0; i < d; ++i) frob += S(i, j) * S(i, j);
  ctx.require("alpha ||S||_F^2 <= 1 (the class bound)", alpha * frob <= T(1),
              "||S||_F^2 = " + full_digits(frob));
  if (numerical_rank(S) < d) {
    ctx.note("S singular", "the error identity is skipped for this prompt");
    return;
  }
  const Mat<T> wstar = lu_solve(S, Mat<T>(c.X * c.y.transpose()));
  const Mat<T> res = Mat<T>::Identity(d, d) - S * S * alpha;
  Mat<T> power = res;
  T previous(-1);
  for (int k = 0; k <= 3; ++k) {
    if (k > 0) power = Mat<T>(power * power);
    const auto out = relu_transformer_forward<T>(make.transformer(d, k, alpha),
                                                 fu_relu_tokens<T>(c.X, c.y, c.Xq), c.n);
    const Mat<T> err =
        Mat<T>(c.Xq.transpose() * wstar).transpose() - fu_relu_predictions<T>(out.back(), d, c.n);
    const Mat<T> want = Mat<T>(c.Xq.transpose() * power * wstar).transpose();
    ctx.require("k = " + std::to_string(k) + ": x_q^T w* - y_hat = x_q^T (I - alpha S^2)^(2^k) w*",
                err == want, "error " + case_context::matrix_full_digits(err));
    const Mat<T> e = power * wstar;
    const T sq = (e.transpose() * e)(0, 0);
    if (k > 0)
      ctx.require("k = " + std::to_string(k) + ": ||(I - alpha S^2)^(2^k) w*||^2 does not grow",
                  sq <= previous, full_digits(sq) + " after " + full_digits(previous));
    previous = sq;
  }
}

// 5. Just outside the class (measured): n copies of v = (2, 2, 2, 2) with y = 1 (tr S = 16 n;
//    the class has n <= 6), query v. On span(v) the Newton iteration is scalar, so the error of
//    the fixed-weight transformer is exactly 1 - y_hat = (1 - alpha lambda^2)^(2^k),
//    lambda = 16 n (checked for n = 6..10, k = 0..4). alpha lambda^2 = n^2 / 36: 1 at n = 6 (one
//    step is exact), 49/36 and 16/9 at n = 7, 8 (still < 2: the error shrinks although the class
//    bound is exceeded), 9/4 and 25/9 at n = 9, 10 (> 2: the error grows, to (5/4)^16 = 35.5 at
//    n = 9, k = 4).
template <class T>
void just_outside_the_class(case_context& ctx, const fu_relu_constructions<T>& make) {
  const T alpha = fu_class_alpha<T>();
  std::string summary;
  for (int n = 6; n <= 10; ++n) {
    const Mat<T> v = Mat<T>::Constant(4, 1, T(2));
    const Mat<T> X = v.replicate(1, n), y = Mat<T>::Constant(1, n, T(1));
    const T lambda = T(16 * n), r = T(1) - alpha * lambda * lambda;
    T rk = r;  // (1 - alpha lambda^2)^(2^k)
    for (int k = 0; k <= 4; ++k) {
      if (k > 0) rk = rk * rk;
      const auto out =
          relu_transformer_forward<T>(make.transformer(4, k, alpha), fu_relu_tokens<T>(X, y, v), n);
      const T err = T(1) - fu_relu_predictions<T>(out.back(), 4, n)(0, 0);
      ctx.require("n = " + std::to_string(n) + ", k = " + std::to_string(k) +
                      ": 1 - y_hat = (1 - alpha lambda^2)^(2^k) (exact)",
                  err == rk, "error " + full_digits(err) + ", expected " + full_digits(rk));
      if (k == 4)
        summary += (n > 6 ? ", n = " : "n = ") + std::to_string(n) + ": " + short_digits(err, 3);
    }
    const bool grows = r * r > T(1);
    ctx.require("n = " + std::to_string(n) + ": the error grows iff n >= 9 (alpha lambda^2 > 2)",
                grows == (n >= 9), "1 - alpha lambda^2 = " + full_digits(r));
  }
  ctx.note("1 - y_hat at k = 4", summary);
}

// 6. App. B.2 as printed (eqs. 21-22, 27-28: V_1 = V_2): the two ReLU heads then add
//    sigma(s) + sigma(-s) = |s| (FuReluNewton.v:fu_relu_pair_same), so the set-up block gives
//    u = x_t + alpha sum_j |x_t^T x_j| x_j, not x_t + alpha S x_t; the property requires that
//    identity exactly and that it differs from the corrected block whenever some x_t^T x_j < 0.
template <class T>
void printed_heads_give_absolute_scores(case_context& ctx, const fu_relu_constructions<T>& make) {
  const int d = *rc::gen::inRange(1, fu_class_d_max + 1);
  const T alpha = fu_class_alpha<T>();
  const auto c = gen_fu_prompt<T>(ctx, d, "prompt");
  const Mat<T> E1 =
      mlp_forward<T>(fu_relu_copy_block<T>(d, T(1)).mlp, fu_relu_tokens<T>(c.X, c.y, c.Xq));
  const Mat<T> printed = relu_transformer_block_forward<T>(make.printed_init(d, alpha), E1, c.n);
  const Mat<T> G = c.X.transpose() * c.X;  // x_t^T x_j
  Mat<T> absG = G;
  bool negative = false;
  for (Eigen::Index j = 0; j < G.cols(); ++j)
    for (Eigen::Index i = 0; i < G.rows(); ++i)
      if (G(i, j) < T(0)) {
        absG(i, j) = -G(i, j);
        negative = true;
      }
  const Mat<T> U = fu_relu_context_u<T>(printed, d, c.n);
  const Mat<T> want = c.X + c.X * absG * alpha;
  ctx.require("printed heads: u = x_t + alpha sum_j |x_t^T x_j| x_j (exact)", U == want,
              "u =\n" + case_context::matrix_full_digits(U));
  const Mat<T> correct = c.X + c.X * c.X.transpose() * c.X * alpha;
  ctx.require("differs from x_t + alpha S x_t iff some x_t^T x_j < 0", !(U == correct) == negative,
              negative ? "a negative score" : "no negative score");
}

}  // namespace iclproof::fu_relu_checks
