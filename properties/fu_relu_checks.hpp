// Checks of Fu et al.'s Theorem 5.1 as App. B.2 builds it, on the generic ReLU-attention and
// MLP layers (src/iterative_newton/fu_relu_weights.hpp; docs/constructions/iterative_newton.md;
// proofs/FuReluNewton.v). Exact in rationals, tolerance 0. On balls (core/ball.hpp; a ReLU of a
// ball straddling 0 is an enclosure) the same checks are enclosure decisions
// (exact_or_enclosed.hpp): identities by containment of 0, "differs" / "not y_1 M_1 x_1" by an
// entry that excludes 0, the class bound on exact integers, the decrease by a certified
// ||P||_2 < 1, and the blocks' u must contain the exact rational M_l X. Each check takes the
// construction under test as a `fu_relu_constructions` so tests/unit/iterative_newton_test.cpp can
// feed it broken ones.
//
// The data class of the fixed-weight transformer: d <= 4, n <= n_max = 6 examples with integer
// entries in [-2, 2]: ||x_i||^2 <= 16 = B^2, so ||S||_F <= sum_i ||x_i||^2 <= n_max B^2 = 96 and
// lambda_max(S) <= 96. alpha = 1/96^2 = 1/9216 is a weight fixed by that bound, the same for
// every prompt: alpha ||S||_F^2 <= 1 <= 2 (FuReluNewton.v:fu_contraction's hypothesis a F <= 2
// with F = ||S||_F^2), so alpha lambda_max^2 <= 1 < 2.
#pragma once

#include "core/precision.hpp"
#include "core/rational.hpp"
#include "exact_or_enclosed.hpp"
#include "harness/property.hpp"
#include "iterative_newton/fu_relu_weights.hpp"
#include "newton_schulz/newton_schulz_weights.hpp"
#include "rounding_shadow.hpp"
#include "tasks/regression_task.hpp"

#include <rapidcheck.h>

#include <cmath>
#include <functional>
#include <string>

namespace iclproof::fu_relu_checks {

using exact_or_enclosed::require_identity;

template <class T>
struct fu_relu_constructions {
  std::function<relu_transformer<T>(Eigen::Index d, int k, const T& alpha)> transformer;
  // The set-up's attention block with the paper's printed values V_1 = V_2 (check 6).
  std::function<relu_transformer_block<T>(Eigen::Index d, const T& alpha)> printed_init;
  // The paper's layout: k + 8 blocks (checks 7-9).
  std::function<relu_transformer<T>(Eigen::Index d, int k, const T& alpha, const T& label_bound)>
      paper;
};

// The init block as App. B.2 prints eq. (21)-(22): both heads with the same value matrix.
template <class T>
relu_transformer_block<T> printed_init_block(Eigen::Index d, const T& alpha) {
  auto b = fu_relu_init_block<T>(fu_relu_rows(d), alpha);
  b.attention.heads[1].V = b.attention.heads[0].V;
  return b;
}

template <class T>
fu_relu_constructions<T> real_fu_relu() {
  return {&fu_relu_transformer<T>, &printed_init_block<T>, &fu_paper_transformer<T>};
}

inline constexpr int fu_class_n_max = 6;
inline constexpr int fu_class_entry_max = 2;
inline constexpr int fu_class_d_max = 4;
template <class T>
T fu_class_alpha() {
  const T b = T(fu_class_n_max * fu_class_entry_max * fu_class_entry_max * fu_class_d_max);  // 96
  return T(T(1) / T(b * b));
}

// The read-out's label bound Y: the class has |y_j| <= 2 (fu_paper_label_mul_block is exact while
// |y_j| <= Y).
template <class T>
T fu_class_label_bound() {
  return T(fu_class_entry_max);
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
    require_identity<T>(ctx,
                        "prompt " + std::to_string(p + 1) + ": predictions = x_q^T M_k X y (exact)",
                        got, want, [&] {
                          return "got " + case_context::matrix_full_digits(got) + "expected " +
                                 case_context::matrix_full_digits(want);
                        });
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
    require_identity<T>(
        ctx, "after block " + std::to_string(3 + l) + ": u = M_" + std::to_string(l) + " X (exact)",
        U, Mat<T>(M[l] * c.X), [&] { return "u =\n" + case_context::matrix_full_digits(U); });
    if constexpr (is_ball_scalar<T>) {
      // On balls also the enclosure property: the blocks' balls contain the exact M_l X of the
      // exact recursion from the exact X (integers) and alpha = 1/9216.
      const Mat<rational_real> X_x = exact_or_enclosed::exact_points<T>(c.X);
      const Mat<rational_real> S_x = X_x * X_x.transpose();
      const Mat<rational_real> M_x =
          iterate_k<rational_real>(S_x, fu_class_alpha<rational_real>(), l);
      exact_or_enclosed::require_contains_exact<T>(
          ctx,
          "after block " + std::to_string(3 + l) + ": u contains M_" + std::to_string(l) + " X", U,
          Mat<rational_real>(M_x * X_x));
    }
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
  require_identity<T>(ctx, "X - U X^T X = (I - alpha S^2)^(2^k) X (exact)", lhs, Mat<T>(R * c.X),
                      [&] { return "lhs =\n" + case_context::matrix_full_digits(lhs); });
}

// 4. The contraction for every prompt of the class: alpha ||S||_F^2 <= 1 (so a F <= 2 in
//    FuReluNewton.v:fu_contraction with F = ||S||_F^2; proved for every prompt of the class by
//    fu_class_contraction from ||X||_F^2 <= 96, also checked here), and for nonsingular S the
//    prediction error x_q^T w* - y_hat = x_q^T (I - alpha S^2)^(2^k) w* with
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
  if constexpr (is_ball_scalar<T>) {
    // alpha = 1/96^2 is not a point; ||S||_F^2 <= 96^2 is the same claim on exact integers (equal
    // when ||S||_F = 96, which an enclosure of alpha ||S||_F^2 against 1 cannot decide).
    const T b = T(fu_class_n_max * fu_class_entry_max * fu_class_entry_max * fu_class_d_max);
    ctx.require("||S||_F^2 <= 96^2 = 1/alpha (the class bound, exact integers)", frob <= b * b,
                "||S||_F^2 = " + full_digits(frob));
  } else {
    ctx.require("alpha ||S||_F^2 <= 1 (the class bound)", alpha * frob <= T(1),
                "||S||_F^2 = " + full_digits(frob));
  }
  // fu_class_contraction's premises: ||X||_F^2 <= B2 = 96 and alpha B2^2 <= 2.
  T frob_x(0);
  for (Eigen::Index j = 0; j < c.X.cols(); ++j)
    for (Eigen::Index i = 0; i < d; ++i) frob_x += c.X(i, j) * c.X(i, j);
  const T b2 = T(fu_class_n_max * fu_class_d_max * fu_class_entry_max * fu_class_entry_max);
  ctx.require("||X||_F^2 <= 96 and alpha 96^2 <= 2 (fu_class_contraction's premises)",
              frob_x <= b2 && alpha * b2 * b2 <= T(2), "||X||_F^2 = " + full_digits(frob_x));
  Eigen::Index rank = 0;
  if constexpr (is_ball_scalar<T>)
    rank = exact_or_enclosed::exact_rank_of_points<T>(S);  // integer entries: exact points
  else
    rank = numerical_rank(S);
  if (rank < d) {
    ctx.note("S singular", "the error identity is skipped for this prompt");
    return;
  }
  const Mat<T> wstar = lu_solve(S, Mat<T>(c.X * c.y.transpose()));
  const Mat<T> res = Mat<T>::Identity(d, d) - S * S * alpha;
  Mat<T> power = res;
  [[maybe_unused]] Mat<T> previous_power = res;
  T previous(-1);
  for (int k = 0; k <= 3; ++k) {
    if (k > 0) power = Mat<T>(power * power);
    const auto out = relu_transformer_forward<T>(make.transformer(d, k, alpha),
                                                 fu_relu_tokens<T>(c.X, c.y, c.Xq), c.n);
    const Mat<T> err =
        Mat<T>(c.Xq.transpose() * wstar).transpose() - fu_relu_predictions<T>(out.back(), d, c.n);
    const Mat<T> want = Mat<T>(c.Xq.transpose() * power * wstar).transpose();
    require_identity<T>(
        ctx, "k = " + std::to_string(k) + ": x_q^T w* - y_hat = x_q^T (I - alpha S^2)^(2^k) w*",
        err, want, [&] { return "error " + case_context::matrix_full_digits(err); });
    const Mat<T> e = power * wstar;
    const T sq = (e.transpose() * e)(0, 0);
    if constexpr (is_ball_scalar<T>) {
      // ||P^2 w*||^2 <= ||P w*||^2 with P = (I - alpha S^2)^(2^(k-1)): certified by ||P||_2 < 1
      // (exact_or_enclosed.hpp); the two norms are equal when w* = 0 (X y = 0), which their
      // enclosures cannot decide.
      if (k > 0)
        ctx.require("k = " + std::to_string(k) +
                        ": ||(I - alpha S^2)^(2^k) w*||^2 does not grow (certified: I - P^T P "
                        "positive definite, P = (I - alpha S^2)^(2^(k-1)))",
                    exact_or_enclosed::certainly_contracting<T>(previous_power),
                    "P =\n" + case_context::matrix_full_digits(previous_power));
      previous_power = power;
    } else {
      if (k > 0)
        ctx.require("k = " + std::to_string(k) + ": ||(I - alpha S^2)^(2^k) w*||^2 does not grow",
                    sq <= previous, full_digits(sq) + " after " + full_digits(previous));
    }
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
      require_identity<T>(ctx,
                          "n = " + std::to_string(n) + ", k = " + std::to_string(k) +
                              ": 1 - y_hat = (1 - alpha lambda^2)^(2^k) (exact)",
                          Mat<T>::Constant(1, 1, err), Mat<T>::Constant(1, 1, rk), [&] {
                            return "error " + full_digits(err) + ", expected " + full_digits(rk);
                          });
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
  const Mat<T> E1 = mlp_forward<T>(fu_relu_copy_block<T>(fu_relu_rows(d), T(1)).mlp,
                                   fu_relu_tokens<T>(c.X, c.y, c.Xq));
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
  require_identity<T>(ctx, "printed heads: u = x_t + alpha sum_j |x_t^T x_j| x_j (exact)", U, want,
                      [&] { return "u =\n" + case_context::matrix_full_digits(U); });
  const Mat<T> correct = c.X + c.X * c.X.transpose() * c.X * alpha;
  if constexpr (is_ball_scalar<T>) {
    exact_or_enclosed::require_equal_iff<T>(
        ctx, "differs from x_t + alpha S x_t iff some x_t^T x_j < 0", U, correct, !negative);
  } else {
    ctx.require("differs from x_t + alpha S x_t iff some x_t^T x_j < 0",
                !(U == correct) == negative, negative ? "a negative score" : "no negative score");
  }
}

// The paper's layout: the token matrices after every block for the prompt's first query.
template <class T>
std::vector<Mat<T>> run_paper(const fu_relu_constructions<T>& make, const fu_prompt<T>& c, int k,
                              const T& alpha) {
  return relu_transformer_forward<T>(make.paper(c.d, k, alpha, fu_class_label_bound<T>()),
                                     fu_paper_tokens<T>(c.X, c.y, Mat<T>(c.Xq.col(0))), 2 * c.n);
}

// The rounding depths (longest chain of rounded operations, Higham ASNA Lemma 3.1) of the two
// programs of check 7 (properties/rounding_shadow.hpp), n the examples, d the dimension:
//  construction: set-up d (score) + 1 (score x alpha u_j) + 2n (sum over the 2n context keys)
//    + 1 (the two heads) + 1 (residual) + 1 (block 3's u - x); each Newton block d + 1 + 2n + 1
//    + 1 (the score reads u, the doubling u + u and every 0/1 selection are exact); read-out:
//    R2's y_t v_t 1, R3's sum 2n, R5's <x_t, wq> d (the moves, the ReLU selections and the
//    additions of exact zeros are exact);
//  reference x^T M_k (X y^T): S = X X^T n, alpha S 1, per Newton-Schulz step 2d + 1, X y^T n,
//    the two products 2d.
inline double fu_paper_depth(Eigen::Index d, Eigen::Index n, int k) {
  const double dd = static_cast<double>(d), nn = static_cast<double>(n);
  const double construction = (dd + 2 * nn + 5) + k * (dd + 2 * nn + 3) + (2 * nn + dd + 1);
  const double reference = 2 * nn + 1 + k * (2 * dd + 1) + 2 * dd;
  return construction > reference ? construction : reference;
}

// The shadows (same programs on |inputs|, every - a +) of the construction's and the reference's
// prediction, summed.
template <class T>
T fu_paper_shadow(const fu_prompt<T>& c, const T& alpha, int k) {
  const Mat<T> Xa = abs_of(c.X), ya = abs_of(c.y), xa = abs_of(Mat<T>(c.Xq.col(0)));
  const T a = abs_of(alpha);
  Mat<T> U = Xa * T(2) + matmul(Xa, Mat<T>(matmul(Mat<T>(Xa.transpose()), Xa))) * a;
  for (int l = 0; l < k; ++l)
    U = Mat<T>(U * T(2) + matmul(U, Mat<T>(matmul(Mat<T>(U.transpose()), Xa))));
  const Mat<T> Sa = matmul_nt(Xa, Xa);
  Mat<T> M = Sa * a;
  for (int l = 0; l < k; ++l) M = Mat<T>(M * T(2) + matmul(Mat<T>(matmul(M, Sa)), M));
  const Mat<T> Xya = matmul_nt(Xa, ya);
  const T construction =
      matmul(Mat<T>(xa.transpose()), Mat<T>(matmul(U, Mat<T>(ya.transpose()))))(0, 0);
  const T reference = matmul(Mat<T>(matmul(Mat<T>(xa.transpose()), M)), Xya)(0, 0);
  return T(construction + reference);
}

// 7. The paper's layout: one transformer per (d, k), built from (d, k, alpha, Y) only, then three
//    prompts of the class through it: k + 8 blocks, at most 2 heads per block, token width
//    6d + 7, and the query's prediction is x_test^T M_k X y: exactly in rationals (tolerance
//    0); in double, long double and MPFR within 2 gamma_n (shadow of the construction + shadow
//    of the reference), n = fu_paper_depth (properties/rounding_shadow.hpp). k in 0..3.
template <class T>
void paper_layout_predicts(case_context& ctx, const fu_relu_constructions<T>& make) {
  const int d = *rc::gen::inRange(1, fu_class_d_max + 1);
  const int k = *rc::gen::inRange(0, 4);
  ctx.note("d, Newton steps k", std::to_string(d) + ", " + std::to_string(k));
  const T alpha = fu_class_alpha<T>();
  const relu_transformer<T> tf = make.paper(d, k, alpha, fu_class_label_bound<T>());
  ctx.require("k + 8 blocks", static_cast<int>(tf.blocks.size()) == k + 8,
              std::to_string(tf.blocks.size()) + " blocks");
  for (std::size_t b = 0; b < tf.blocks.size(); ++b)
    ctx.require("block " + std::to_string(b + 1) + ": at most 2 heads, width 6d + 7",
                tf.blocks[b].attention.heads.size() <= 2 && tf.blocks[b].mlp.W1.cols() == 6 * d + 7,
                std::to_string(tf.blocks[b].attention.heads.size()) + " heads, width " +
                    std::to_string(tf.blocks[b].mlp.W1.cols()));
  for (int p = 0; p < 3; ++p) {
    const auto c = gen_fu_prompt<T>(ctx, d, "prompt " + std::to_string(p + 1));
    const Mat<T> xq = c.Xq.col(0);
    const auto out = relu_transformer_forward<T>(tf, fu_paper_tokens<T>(c.X, c.y, xq), 2 * c.n);
    const Mat<T> S = matmul_nt(c.X, c.X);
    const Mat<T> want = matmul(Mat<T>(matmul(Mat<T>(xq.transpose()), iterate_k<T>(S, alpha, k))),
                               Mat<T>(matmul_nt(c.X, c.y)));
    const T bound = tolerance<T>([&](auto) {
      return rounding_shadow::shadow_bound<T>(fu_paper_depth(d, c.n, k),
                                              fu_paper_shadow<T>(c, alpha, k));
    });
    rounding_shadow::compare_within<T>(
        ctx,
        "prompt " + std::to_string(p + 1) + ": query's p after k + 8 blocks vs x_test^T M_k X y",
        fu_paper_prediction<T>(out.back(), d, c.n), want, bound);
  }
}

// 8. The paper's layout, layer by layer (exact): after the 3 set-up and k Newton blocks the x
//    tokens' u is M_k x_j; R1 (mov): the label token of example j has v = M_k x_j, no other
//    token has v != 0; R2 (mul): m = y_j M_k x_j in the label tokens, 0 elsewhere; R3 (Lemma
//    B.3): w = M_k X y in every token; R4 (mov): wq = w in the query token only; R5 (mul): the
//    query's p = <x_test, w>. k in 0..3.
template <class T>
void paper_layers_do_their_roles(case_context& ctx, const fu_relu_constructions<T>& make) {
  const int d = *rc::gen::inRange(1, fu_class_d_max + 1);
  const int k = *rc::gen::inRange(0, 4);
  ctx.note("d, Newton steps k", std::to_string(d) + ", " + std::to_string(k));
  const T alpha = fu_class_alpha<T>();
  const auto c = gen_fu_prompt<T>(ctx, d, "prompt");
  const auto out = run_paper(make, c, k, alpha);
  ctx.require("k + 9 token matrices", out.size() == static_cast<std::size_t>(k + 9),
              std::to_string(out.size()));
  if (out.size() != static_cast<std::size_t>(k + 9)) return;
  const fu_relu_rows r(d, true);
  const Eigen::Index n = c.n, M = 2 * n + 1;
  const Mat<T> S = matmul_nt(c.X, c.X);
  const Mat<T> Mk = iterate_k<T>(S, alpha, k);
  const Mat<T> U = matmul(Mk, c.X);
  const Mat<T> w = matmul(Mk, Mat<T>(matmul_nt(c.X, c.y)));
  const Mat<T> xq = c.Xq.col(0);
  // expected blocks, column by column (x token 2j, label token 2j + 1, query 2n; 0-based)
  Mat<T> v = Mat<T>::Zero(d, M), m = Mat<T>::Zero(d, M), wq = Mat<T>::Zero(d, M);
  for (Eigen::Index j = 0; j < n; ++j) {
    v.col(2 * j + 1) = U.col(j);
    m.col(2 * j + 1) = U.col(j) * c.y(0, j);
  }
  wq.col(2 * n) = w;
  const Mat<T> w_all = w.replicate(1, M);
  const auto block = [&](std::size_t layer, Eigen::Index row) {
    return Mat<T>(out[layer].block(row, 0, d, M));
  };
  const std::size_t base = static_cast<std::size_t>(3 + k);
  const Mat<T> u_base = fu_paper_context_u<T>(out[base], d, n);
  require_identity<T>(ctx, "after the Newton blocks: u = M_k x_j in the x tokens (exact)", u_base,
                      U, [&] { return "u =\n" + case_context::matrix_full_digits(u_base); });
  const struct {
    std::size_t layer;
    Eigen::Index row;
    const Mat<T>* want;
    const char* role;
  } roles[] = {{base + 1, r.v(), &v, "R1 mov (eq. 33): v = M_k x_j in label token j only"},
               {base + 2, r.m(), &m, "R2 mul (eq. 33): m = y_j M_k x_j in label token j only"},
               {base + 3, r.w(), &w_all, "R3 sum (Lemma B.3): w = M_k X y in every token"},
               {base + 4, r.wq(), &wq, "R4 mov (eq. 35): wq = M_k X y in the query token only"}};
  for (const auto& role : roles) {
    const Mat<T> got = block(role.layer, role.row);
    require_identity<T>(ctx, std::string(role.role) + " (exact)", got, *role.want,
                        [&] { return "block =\n" + case_context::matrix_full_digits(got); });
  }
  const T pred = out.back()(r.p(), 2 * n);
  const T want = (xq.transpose() * w)(0, 0);
  require_identity<T>(ctx, "R5 mul (eq. 35): the query's p = <x_test, w> (exact)",
                      Mat<T>::Constant(1, 1, pred), Mat<T>::Constant(1, 1, want), [&] {
                        return "p = " + full_digits(pred) + ", <x_test, w> = " + full_digits(want);
                      });
}

// 9. R2's exactness and the label bound Y = 2 (measured): the other keys' scores are
//    |y_t| - Y (t - t_j)^2; only label tokens carry v != 0 after R1 and they are 2 columns
//    apart, so the mul stays exact while |y_t| <= 4Y = 8 (|y_t| <= Y, the class, is the stated
//    sufficient condition) and fails beyond: on X = I (d = 2), y = (y_1, 1), k = 1, label
//    token 1's m is exactly y_1 M_1 x_1 for y_1 = 2, 3, 8 and not for y_1 = 9 (label token 2's
//    v is added with weight 9 - 8 = 1).
template <class T>
void label_mul_needs_the_label_bound(case_context& ctx, const fu_relu_constructions<T>& make) {
  const T alpha = fu_class_alpha<T>();
  const fu_relu_rows r(2, true);
  for (const int y_first : {2, 3, 8, 9}) {
    fu_prompt<T> c{2, 2, Mat<T>(2, 2), Mat<T>(1, 2), Mat<T>(2, 1)};
    c.X << T(1), T(0), T(0), T(1);
    c.y << T(y_first), T(1);
    c.Xq << T(1), T(1);
    const auto out = run_paper(make, c, 1, alpha);
    const Mat<T> Mk = iterate_k<T>(matmul_nt(c.X, c.X), alpha, 1);
    const Mat<T> m_first = out[6].block(r.m(), 1, 2, 1);
    const Mat<T> want = Mat<T>(matmul(Mk, Mat<T>(c.X.col(0)))) * T(y_first);
    const std::string label =
        "y_1 = " + std::to_string(y_first) + ": R2's m of label token 1 is " +
        (y_first <= 8 ? "exactly y_1 M_1 x_1" : "not y_1 M_1 x_1 (|y_1| > 4Y)");
    if constexpr (is_ball_scalar<T>) {
      exact_or_enclosed::require_equal_iff<T>(ctx, label, m_first, want, y_first <= 8);
    } else {
      const bool exact = m_first == want;
      ctx.require(label, exact == (y_first <= 8),
                  "m = " + case_context::matrix_full_digits(m_first));
    }
  }
}

}  // namespace iclproof::fu_relu_checks
