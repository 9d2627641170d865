// Checks of Giannou et al.'s Lemma 4.1, its one-layer symmetric case and Theorem 4.2
// (src/newton_schulz/giannou_weights.hpp; docs/constructions/newton_schulz.md;
// proofs/GiannouNewton.v). Exact identities, checked in rationals with tolerance 0: every check
// is an equality or an exact inequality. On balls (core/ball.hpp) the same checks are enclosure
// decisions (exact_or_enclosed.hpp): identities by containment of 0, "differs" by an entry that
// excludes 0, the class bound on exact integers, the decrease by a certified ||P||_2 < 1, and
// the registers of Theorem 4.2 must contain the exact rational X_T. Each check takes the
// construction under test as a `giannou_constructions` so tests/unit/newton_schulz_test.cpp can
// feed it broken ones.
//
// Resources are checked on the weights themselves: the number of layers, the number of heads in
// each layer, and the token width (the number of columns of every head's W_K, W_Q, W_V and rows
// of P).
//
// The data class of Theorem 4.2's fixed-weight transformer: d <= 4, n <= n_max = 6 context
// examples with integer entries in [-2, 2], so ||a_i||^2 <= 4 d <= 16 = B^2 and
// lambda_max(A^T A) <= tr(A^T A) <= n_max B^2 = 96. The weight eps = 1 / (n_max B^2)^2 = 1/9216
// is fixed by that bound: eps lambda_max^2 <= 1 < 2 for every prompt of the class (the paper's
// interval eps in (0, 2 / lambda_max^2)), checked per prompt as eps tr(A^T A)^2 <= 1.
#pragma once

#include "core/precision.hpp"
#include "core/rational.hpp"
#include "exact_or_enclosed.hpp"
#include "harness/property.hpp"
#include "newton_schulz/giannou_weights.hpp"
#include "newton_schulz/newton_schulz_weights.hpp"
#include "tasks/regression_task.hpp"

#include <rapidcheck.h>

#include <cmath>
#include <functional>
#include <string>

namespace iclproof::giannou_checks {

using exact_or_enclosed::require_identity;

template <class T>
struct giannou_constructions {
  std::function<lsa_stack<T>(Eigen::Index d, int k)> lemma41;  // k steps, 2k layers
  std::function<lsa_layer<T>(Eigen::Index d)> symmetric;       // one step, one layer
  std::function<lsa_stack<T>(Eigen::Index d, int T_steps, const T& eps)> regression;
};

template <class T>
giannou_constructions<T> real_giannou() {
  return {&giannou_lemma41_stack<T>, &giannou_symmetric_layer<T>, &giannou_regression_stack<T>};
}

// The class bound of Theorem 4.2's checked transformer (header).
inline constexpr int class_n_max = 6;
inline constexpr int class_entry_max = 2;
inline constexpr int class_d_max = 4;
template <class T>
T class_eps() {
  const T trace_bound = T(class_n_max * class_entry_max * class_entry_max * class_d_max);  // 96
  return T(T(1) / T(trace_bound * trace_bound));
}

// Heads per layer and token width of a layer; "" when they fit, else what is wrong.
template <class T>
std::string layer_resources(const lsa_layer<T>& l, std::size_t max_heads, Eigen::Index width) {
  if (l.heads.empty() || l.heads.size() > max_heads)
    return std::to_string(l.heads.size()) + " heads (at most " + std::to_string(max_heads) + ")";
  for (const auto& h : l.heads)
    if (h.W_K.cols() != width || h.W_Q.cols() != width || h.W_V.cols() != width ||
        h.P.rows() != width)
      return "a head of token width " + std::to_string(h.W_K.cols()) + " (expected " +
             std::to_string(width) + ")";
  return "";
}

// A random d x d integer matrix (entries in [-4, 4], diagonal + 6) and a dyadic X (k/8), d 1..5.
template <class T>
struct square_case {
  Eigen::Index d;
  Mat<T> A, X;
};

template <class T>
square_case<T> gen_square_case(case_context& ctx, bool symmetric) {
  const int d = *rc::gen::inRange(1, 6);
  const auto seed = *rc::gen::inRange<std::uint64_t>(0, 1u << 30);
  ctx.note("d, data seed, symmetric",
           std::to_string(d) + ", " + std::to_string(seed) + ", " + (symmetric ? "yes" : "no"));
  data_rng rng(seed);
  Mat<double> A(d, d), X(d, d);
  for (int j = 0; j < d; ++j)
    for (int i = 0; i < d; ++i) {
      A(i, j) = std::floor(rng.uniform(-4.0, 5.0)) + (i == j ? 6.0 : 0.0);
      X(i, j) = std::floor(rng.uniform(-8.0, 9.0)) / 8.0;
    }
  if (symmetric) A = Mat<double>(A + A.transpose());
  return {d, from_double<T>(A), from_double<T>(X)};
}

template <class T>
Mat<T> newton_step_of(const Mat<T>& A, const Mat<T>& X) {  // X (2I - A X), the lemma's form
  return Mat<T>(X * (Mat<T>::Identity(A.rows(), A.rows()) * T(2) - A * X));
}

// 1. Lemma 4.1: 2 layers, 2 heads each, width 4d, map [X; A; I; 0] to [X (2I - A X); A; I; 0]
//    for any square A (here non-symmetric with probability 1 - o(1)) and any X.
template <class T>
void lemma41_two_layers_give_one_step(case_context& ctx, const giannou_constructions<T>& make) {
  const auto c = gen_square_case<T>(ctx, false);
  const auto stack = make.lemma41(c.d, 1);
  ctx.require("one step is 2 layers", stack.layers.size() == 2,
              std::to_string(stack.layers.size()) + " layers");
  for (std::size_t l = 0; l < stack.layers.size(); ++l) {
    const std::string r = layer_resources<T>(stack.layers[l], 2, 4 * c.d);
    ctx.require("layer " + std::to_string(l + 1) + ": 2 heads of width 4d", r.empty(), r);
  }
  const Mat<T> E = giannou_lemma41_tokens<T>(c.A, c.X);
  const Mat<T> out = lsa_stack_forward<T>(stack, E, c.d).back();
  const Mat<T> want = giannou_lemma41_tokens<T>(c.A, newton_step_of<T>(c.A, c.X));
  require_identity<T>(ctx, "output = [X (2I - A X); A; I; 0] (exact)", out, want, [&] {
    return "got\n" + case_context::matrix_full_digits(out) + "expected\n" +
           case_context::matrix_full_digits(want);
  });
}

// 2. k copies from X_0 = eps A^T, eps = 1/||A||_F^2 (inside the paper's (0, 2/lambda_1(A A^T)):
//    ||A||_F^2 >= lambda_1(A A^T)): after 2j layers the Newton iterate X_j, and the residual
//    I - X_k A = (I - X_0 A)^(2^k) (NewtonSchulz.v:ns_iter_residual), k in 1..3.
template <class T>
void lemma41_stack_residual_squares(case_context& ctx, const giannou_constructions<T>& make) {
  const auto c = gen_square_case<T>(ctx, false);
  const int k = *rc::gen::inRange(1, 4);
  ctx.note("steps k", std::to_string(k));
  T f(0);
  for (Eigen::Index j = 0; j < c.d; ++j)
    for (Eigen::Index i = 0; i < c.d; ++i) f += c.A(i, j) * c.A(i, j);
  const Mat<T> X0 = c.A.transpose() * T(T(1) / f);
  const auto out =
      lsa_stack_forward<T>(make.lemma41(c.d, k), giannou_lemma41_tokens<T>(c.A, X0), c.d);
  ctx.require("2k + 1 token matrices", out.size() == static_cast<std::size_t>(2 * k + 1),
              std::to_string(out.size()));
  const auto ref = newton_schulz_iterates<T>(c.A, X0, k);
  for (int j = 1; j <= k; ++j) {
    const Mat<T> Xj = giannou_lemma41_iterate<T>(out[2 * j]);
    require_identity<T>(
        ctx, "layer " + std::to_string(2 * j) + " holds X_" + std::to_string(j) + " (exact)", Xj,
        ref[j], [&] { return "got\n" + case_context::matrix_full_digits(Xj); });
  }
  const Mat<T> I = Mat<T>::Identity(c.d, c.d);
  Mat<T> rhs = I - X0 * c.A;
  for (int j = 0; j < k; ++j) rhs = Mat<T>(rhs * rhs);
  const Mat<T> lhs = I - giannou_lemma41_iterate<T>(out.back()) * c.A;
  require_identity<T>(ctx, "I - X_k A = (I - X_0 A)^(2^k) (exact)", lhs, rhs,
                      [&] { return "I - X_k A =\n" + case_context::matrix_full_digits(lhs); });
}

// 3. The symmetric case: one layer of 2 heads, width 4d, maps [X; A; I; 0] to
//    [X (2I - A X); A; I; 0] for symmetric A.
template <class T>
void symmetric_one_layer_gives_one_step(case_context& ctx, const giannou_constructions<T>& make) {
  const auto c = gen_square_case<T>(ctx, true);
  const lsa_layer<T> layer = make.symmetric(c.d);
  const std::string r = layer_resources<T>(layer, 2, 4 * c.d);
  ctx.require("one layer of 2 heads of width 4d", r.empty(), r);
  const Mat<T> out = lsa_layer_forward<T>(layer, giannou_lemma41_tokens<T>(c.A, c.X), c.d);
  const Mat<T> want = giannou_lemma41_tokens<T>(c.A, newton_step_of<T>(c.A, c.X));
  require_identity<T>(ctx, "output = [X (2I - A X); A; I; 0] (exact)", out, want,
                      [&] { return "got\n" + case_context::matrix_full_digits(out); });
}

// 4. Why the one-layer case needs a symmetric A: on any A the layer gives 2X - X A^T X
//    (GiannouNewton.v:g41_symmetric_layer_any), which is the Newton step of A exactly when
//    X (A - A^T) X = 0; the property requires that it differs on the case's non-symmetric A
//    whenever X (A - A^T) X != 0 (so the restriction in the lemma is needed, not an artefact).
template <class T>
void symmetric_layer_on_nonsymmetric_a(case_context& ctx, const giannou_constructions<T>& make) {
  const auto c = gen_square_case<T>(ctx, false);
  const Mat<T> out = giannou_lemma41_iterate<T>(
      lsa_layer_forward<T>(make.symmetric(c.d), giannou_lemma41_tokens<T>(c.A, c.X), c.d));
  const Mat<T> at_step = Mat<T>(c.X * T(2) - c.X * c.A.transpose() * c.X);
  require_identity<T>(ctx, "the layer gives 2X - X A^T X (exact)", out, at_step,
                      [&] { return "got\n" + case_context::matrix_full_digits(out); });
  const Mat<T> skew = c.X * Mat<T>(c.A - c.A.transpose()) * c.X;
  if constexpr (is_ball_scalar<T>) {
    // X (A - A^T) X of exact integer and dyadic data: exact points, so "= 0" is decided (an
    // exact 0 or an entry whose ball excludes 0); anything else is undecidable and fails.
    const bool zero = exact_or_enclosed::certainly_zero<T>(skew);
    ctx.require("X (A - A^T) X is decided: exactly 0 or certified nonzero",
                zero || exact_or_enclosed::certainly_differs<T>(skew, Mat<T>::Zero(c.d, c.d)),
                "X (A - A^T) X =\n" + case_context::matrix_full_digits(skew));
    exact_or_enclosed::require_equal_iff<T>(ctx, "it is the Newton step of A iff X (A - A^T) X = 0",
                                            out, newton_step_of<T>(c.A, c.X), zero);
  } else {
    const bool differs = !(out == newton_step_of<T>(c.A, c.X));
    ctx.require("it is the Newton step of A iff X (A - A^T) X = 0", differs == !skew.isZero(0),
                "X (A - A^T) X =\n" + case_context::matrix_full_digits(skew));
  }
}

// Theorem 4.2's prompts, from the class of the header: d 1..4, n 1..6, entries in [-2, 2].
template <class T>
struct regression_case {
  Eigen::Index d, n;
  Mat<T> At, y, Aq;
};

template <class T>
regression_case<T> gen_regression_case(case_context& ctx) {
  const int d = *rc::gen::inRange(1, class_d_max + 1);
  const int n = *rc::gen::inRange(1, class_n_max + 1);
  const auto seed = *rc::gen::inRange<std::uint64_t>(0, 1u << 30);
  ctx.note("d, n, data seed",
           std::to_string(d) + ", " + std::to_string(n) + ", " + std::to_string(seed));
  data_rng rng(seed);
  const auto entry = [&] {
    return std::floor(rng.uniform(-class_entry_max, class_entry_max + 1.0));
  };
  Mat<double> At(d, n), y(1, n), Aq(d, 2);
  for (int i = 0; i < n; ++i) {
    for (int r = 0; r < d; ++r) At(r, i) = entry();
    y(0, i) = entry();
  }
  for (int j = 0; j < 2; ++j)
    for (int r = 0; r < d; ++r) Aq(r, j) = entry();
  return {d, n, from_double<T>(At), from_double<T>(y), from_double<T>(Aq)};
}

struct regression_run_steps {
  int T_steps;
};

// 5. Theorem 4.2: T + 3 layers of at most 2 heads, width 4d + 2 <= 4d + 3, fixed eps (the class
//    bound): the registers hold X_T = ns_iter(A^T A, eps A^T A, T) and every query gets
//    a_test^T X_T A^T y, exactly.
template <class T>
void thm42_layers_predict(case_context& ctx, const giannou_constructions<T>& make) {
  const auto c = gen_regression_case<T>(ctx);
  const int Tn = *rc::gen::inRange(0, 4);
  ctx.note("Newton steps T", std::to_string(Tn));
  const T eps = class_eps<T>();
  const auto stack = make.regression(c.d, Tn, eps);
  ctx.require("T + 3 layers", static_cast<int>(stack.layers.size()) == Tn + 3,
              std::to_string(stack.layers.size()) + " layers");
  for (std::size_t l = 0; l < stack.layers.size(); ++l) {
    const std::string r = layer_resources<T>(stack.layers[l], 2, 4 * c.d + 2);
    ctx.require("layer " + std::to_string(l + 1) + ": at most 2 heads of width 4d + 2", r.empty(),
                r);
  }
  const auto out = lsa_stack_forward<T>(stack, giannou_regression_tokens<T>(c.At, c.y, c.Aq), c.n);
  const Mat<T> Rm = c.At * c.At.transpose();
  const Mat<T> XT = newton_schulz_iterates<T>(Rm, Mat<T>(Rm * eps), Tn).back();
  const Mat<T> regs = giannou_regression_iterate<T>(out[Tn + 1], c.d, c.n);
  require_identity<T>(ctx, "the registers hold X_T after layer T + 1 (exact)", regs, XT,
                      [&] { return "got\n" + case_context::matrix_full_digits(regs); });
  if constexpr (is_ball_scalar<T>) {
    // On balls also the enclosure property: the registers' balls contain the exact X_T of the
    // exact recursion from the exact A (integers) and eps = 1/9216.
    const Mat<rational_real> At_x = exact_or_enclosed::exact_points<T>(c.At);
    const Mat<rational_real> R_x = At_x * At_x.transpose();
    exact_or_enclosed::require_contains_exact<T>(
        ctx, "the registers after layer T + 1 contain X_T", regs,
        newton_schulz_iterates<rational_real>(
            R_x, Mat<rational_real>(R_x * class_eps<rational_real>()), Tn)
            .back());
  }
  const Mat<T> want = Mat<T>(c.Aq.transpose() * XT * c.At * c.y.transpose()).transpose();
  const Mat<T> got = giannou_regression_predictions<T>(out.back(), c.d, c.n);
  require_identity<T>(ctx, "predictions = a_test^T X_T A^T y (exact)", got, want, [&] {
    return "got " + case_context::matrix_full_digits(got) + "expected " +
           case_context::matrix_full_digits(want);
  });
}

// 6. Theorem 4.2's error in terms of T at the fixed eps: for every prompt of the class,
//    eps tr(A^T A)^2 <= 1 (so eps lambda_max^2 <= 1 < 2: the contraction); when A^T A is
//    nonsingular, with w* = (A^T A)^-1 A^T y, the prediction error is
//    a_test^T w* - y_hat = a_test^T (I - eps (A^T A)^2)^(2^T) w* (IterativeNewton.v:in_ols_error
//    with alpha = eps, S = A^T A), and |error| does not grow with T (the residual's eigenvalues
//    1 - eps lambda_i^2 lie in [0, 1); checked on the squared norm of (I - eps R^2)^(2^T) w*).
template <class T>
void thm42_error_is_residual_power(case_context& ctx, const giannou_constructions<T>& make) {
  const auto c = gen_regression_case<T>(ctx);
  const T eps = class_eps<T>();
  const Mat<T> Rm = c.At * c.At.transpose();
  const T tr = Rm.trace();
  if constexpr (is_ball_scalar<T>) {
    // eps = 1/96^2 is not a point; tr(A^T A)^2 <= 96^2 is the same claim on exact integers (equal
    // at tr = 96, which an enclosure of eps tr^2 against 1 cannot decide).
    const T b = T(class_n_max * class_entry_max * class_entry_max * class_d_max);
    ctx.require("the prompt's tr(A^T A)^2 <= 96^2 = 1/eps (the class bound, exact integers)",
                tr * tr <= b * b, "tr(A^T A) = " + full_digits(tr));
  } else {
    ctx.require("the prompt's eps tr(A^T A)^2 <= 1 (the class bound)", eps * tr * tr <= T(1),
                "tr(A^T A) = " + full_digits(tr));
  }
  Eigen::Index rank = 0;
  if constexpr (is_ball_scalar<T>)
    rank = exact_or_enclosed::exact_rank_of_points<T>(Rm);  // integer entries: exact points
  else
    rank = numerical_rank(Rm);
  if (rank < c.d) {
    ctx.note("A^T A singular", "the error identity is skipped for this prompt");
    return;
  }
  const Mat<T> wstar = lu_solve(Rm, Mat<T>(c.At * c.y.transpose()));
  const Mat<T> I = Mat<T>::Identity(c.d, c.d);
  const Mat<T> res = I - Rm * Rm * eps;
  T previous(-1);
  Mat<T> power = res;  // (I - eps R^2)^(2^t)
  [[maybe_unused]] Mat<T> previous_power = res;
  for (int t = 0; t <= 3; ++t) {
    if (t > 0) power = Mat<T>(power * power);
    const auto out = lsa_stack_forward<T>(make.regression(c.d, t, eps),
                                          giannou_regression_tokens<T>(c.At, c.y, c.Aq), c.n);
    const Mat<T> yhat = giannou_regression_predictions<T>(out.back(), c.d, c.n);
    const Mat<T> err = Mat<T>(c.Aq.transpose() * wstar).transpose() - yhat;
    const Mat<T> want = Mat<T>(c.Aq.transpose() * power * wstar).transpose();
    require_identity<T>(
        ctx, "T = " + std::to_string(t) + ": a_test^T w* - y_hat = a_test^T (I - eps R^2)^(2^T) w*",
        err, want, [&] { return "error " + case_context::matrix_full_digits(err); });
    const Mat<T> e = power * wstar;
    const T sq = (e.transpose() * e)(0, 0);
    if constexpr (is_ball_scalar<T>) {
      // ||P^2 w*||^2 <= ||P w*||^2 with P = (I - eps R^2)^(2^(T-1)): certified by ||P||_2 < 1
      // (exact_or_enclosed.hpp); the two norms are equal when w* = 0, which their enclosures
      // cannot decide.
      if (t > 0)
        ctx.require("T = " + std::to_string(t) +
                        ": ||(I - eps R^2)^(2^T) w*||^2 does not grow (certified: I - P^T P "
                        "positive definite, P = (I - eps R^2)^(2^(T-1)))",
                    exact_or_enclosed::certainly_contracting<T>(previous_power),
                    "P =\n" + case_context::matrix_full_digits(previous_power));
      previous_power = power;
    } else {
      if (t > 0)
        ctx.require("T = " + std::to_string(t) + ": ||(I - eps R^2)^(2^T) w*||^2 does not grow",
                    sq <= previous, full_digits(sq) + " after " + full_digits(previous));
    }
    previous = sq;
  }
}

}  // namespace iclproof::giannou_checks
