// Checks of Vladymyrov, von Oswald, Sandler, Ge 2024, Theorem 4.1 / Lemma 4.3 / Lemma 4.4
// (docs/constructions/implicit_weights.md; proofs/ImplicitWeights.v): the implicit weights
// (M^l, u^l, a^l, w^l) of RANDOM masked linear transformers (not built ones), several layers and
// heads, full W_K, W_Q, W_V, P. Each check takes the reader under test as a parameter, so
// tests/unit/implicit_weights_test.cpp feeds it broken ones (mutation tests).
//
// No tolerance, in every scalar. The weights are dyadic (k/8, |k| <= 8) and the data k/4
// (|k| <= 8), so every intermediate of both sides is a dyadic rational; in rational_real the
// claim is the equality of the cited theorem. In floating point the number of layers is capped
// by the precision so that no intermediate needs more bits than the format has, and both sides
// are then computed WITHOUT rounding and must agree bit for bit. The bit count, per layer: a
// layer is cubic in its input tokens and quartic in the weights, so with b_l magnitude bits and
// q_l fraction bits at layer l (b_0 = 3, q_0 = 2; the weights add 12 fraction bits and, with
// d + o <= 6, n <= 6, 2 heads, h, v <= 7, at most 14 magnitude bits per layer),
// b_{l+1} <= 3 b_l + 14 and q_{l+1} <= 3 q_l + 12: b + q <= 41 at one layer, 143 at two, 455 at
// three. Hence 1 layer below 160 bits (double, long double), 2 from 160 bits (MPFR 256), 3 from
// 512 bits on (layer_cap). On balls (Arb) 3 layers at any precision: there the comparisons are
// identities of enclosures (require_equal), which need no exact representation. That a case
// really is computed without rounding is argued here, not
// proved: a case that rounded would FAIL the equality (never pass wrongly).
#pragma once

#include "core/precision.hpp"
#include "harness/property.hpp"
#include "implicit_weights/implicit_weights.hpp"
#include "lsa/vonoswald_weights.hpp"
#include "references/references.hpp"
#include "tasks/rapidcheck_gen.hpp"

#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace iclproof::implicit_weights_checks {

// The reader under test (the real one: &read_implicit_weights<T>).
template <class T>
using reader = std::function<std::vector<implicit_state<T>>(const lsa_stack<T>&, const Mat<T>&,
                                                            const Mat<T>&)>;

// A random masked linear transformer and prompt. Weights are dyadic (k/8, |k| <= 8: exact in
// every scalar), data small integers, so every scalar sees the same exact inputs.
template <class T>
struct random_lt_case {
  Eigen::Index d = 1, o = 1, n = 1, Q = 1;
  int L = 1, v_max = 1, h_max = 1, H_max = 1;
  lsa_stack<T> stack;
  Mat<T> X, Y, Xq, Yq0;
};

// paper_form: every head is the paper's (P, Q) = {W_K = W_V = I, W_Q = Q, P}; diagonal: P, Q
// diagonal with one value on the x-block and one on y (the paper's eq. (9), o = 1).
enum class head_form { general, paper, diagonal };

// The most layers whose values the precision holds exactly (header comment).
template <class T>
int layer_cap() {
  if constexpr (is_exact_scalar<T> || is_ball_scalar<T>) {
    return 3;  // balls: an enclosure needs no exact representation (require_equal below)
  } else {
    const int p = precision_of(T(1));
    return p < 160 ? 1 : p < 512 ? 2 : 3;
  }
}

// Exact equality of two matrices, with both in full digits on failure. On balls an identity of
// two enclosures (case_context::check_identity: the enclosure of a - b must contain 0): three
// layers need up to 455 bits (header), more than a 257-bit midpoint holds, so the balls of both
// sides are not points there, and the identity is certified by containment instead.
template <class T>
void require_equal(case_context& ctx, const std::string& label, const Mat<T>& a, const Mat<T>& b) {
  if constexpr (is_ball_scalar<T>) {
    ctx.require(label + " (shapes)", a.rows() == b.rows() && a.cols() == b.cols(),
                std::to_string(a.rows()) + "x" + std::to_string(a.cols()) + " vs " +
                    std::to_string(b.rows()) + "x" + std::to_string(b.cols()));
    ctx.check_identity(label + " (enclosures)", a, b);
  } else {
    ctx.require(label + " (exact)", a.rows() == b.rows() && a.cols() == b.cols() && a == b,
                "left =\n" + case_context::matrix_full_digits(a) + "right =\n" +
                    case_context::matrix_full_digits(b));
  }
}

template <class T>
random_lt_case<T> gen_random_lt(case_context& ctx, head_form form) {
  const int L_max = layer_cap<T>();
  random_lt_case<T> c;
  c.d = *rc::gen::inRange(1, 5);
  c.o = form == head_form::diagonal ? 1 : *rc::gen::inRange(1, 3);
  c.n = *rc::gen::inRange(1, 7);
  c.Q = *rc::gen::inRange(1, 3);
  c.L = *rc::gen::inRange(1, L_max + 1);
  const auto seed = *rc::gen::inRange<std::uint64_t>(0, 1u << 30);
  const Eigen::Index D = c.d + c.o;
  data_rng rng(seed);
  const auto dyadic = [&](Eigen::Index r, Eigen::Index cols, double den) {
    Mat<double> m(r, cols);
    for (Eigen::Index j = 0; j < cols; ++j)
      for (Eigen::Index i = 0; i < r; ++i) m(i, j) = std::floor(rng.uniform(-8.0, 9.0)) / den;
    return from_double<T>(m);
  };
  std::string shapes;
  for (int l = 0; l < c.L; ++l) {
    lsa_layer<T> layer;
    const int H = 1 + static_cast<int>(rng.uniform(0.0, 2.0));  // 1 or 2 heads
    c.H_max = std::max(c.H_max, H);
    for (int k = 0; k < H; ++k) {
      lsa_head<T> h;
      if (form == head_form::general) {
        const Eigen::Index hd = 1 + static_cast<Eigen::Index>(rng.uniform(0.0, double(D + 1)));
        const Eigen::Index vd = 1 + static_cast<Eigen::Index>(rng.uniform(0.0, double(D + 1)));
        h.W_K = dyadic(hd, D, 8.0);
        h.W_Q = dyadic(hd, D, 8.0);
        h.W_V = dyadic(vd, D, 8.0);
        h.P = dyadic(D, vd, 8.0);
        c.v_max = std::max<int>(c.v_max, static_cast<int>(vd));
        c.h_max = std::max<int>(c.h_max, static_cast<int>(hd));
        shapes += " " + std::to_string(hd) + "/" + std::to_string(vd);
      } else {
        h.W_K = Mat<T>::Identity(D, D);
        h.W_V = Mat<T>::Identity(D, D);
        if (form == head_form::paper) {
          h.W_Q = dyadic(D, D, 8.0);
          h.P = dyadic(D, D, 8.0);
        } else {
          const Mat<T> pq = dyadic(4, 1, 8.0);  // p_x, p_y, q_x, q_y
          h.P = Mat<T>::Identity(D, D) * pq(0, 0);
          h.P(D - 1, D - 1) = pq(1, 0);
          h.W_Q = Mat<T>::Identity(D, D) * pq(2, 0);
          h.W_Q(D - 1, D - 1) = pq(3, 0);
        }
        c.v_max = c.h_max = static_cast<int>(D);
      }
      layer.heads.push_back(std::move(h));
    }
    layer.mask = lsa_mask::context_keys;
    c.stack.layers.push_back(std::move(layer));
  }
  c.X = dyadic(c.d, c.n, 4.0);
  c.Y = dyadic(c.o, c.n, 4.0);
  c.Xq = dyadic(c.d, c.Q, 4.0);
  c.Yq0 = dyadic(c.o, c.Q, 4.0);
  ctx.note("d, o, n, queries, layers, weight seed",
           std::to_string(c.d) + ", " + std::to_string(c.o) + ", " + std::to_string(c.n) + ", " +
               std::to_string(c.Q) + ", " + std::to_string(c.L) + ", " + std::to_string(seed));
  ctx.note("head form", form == head_form::general ? "general W_K, W_Q, W_V, P (h/v:" + shapes + ")"
                        : form == head_form::paper ? std::string("paper (P, Q), W_K = W_V = I")
                                                   : std::string("diagonal P, Q (eq. 9)"));
  return c;
}

// Theorem 4.1 on every token of every layer: the LSA layers' tokens (lsa_stack_forward, context
// AND queries with arbitrary y_q) equal [[M^l x + u^l y], [a^l y - (w^l)^T x]] with the reader's
// states (proofs/ImplicitWeights.v:implicit_layer_update; for layers of several heads of any
// shapes and the states computed from the context alone, as read_implicit_weights computes them,
// proofs/ImplicitWeightsHeads.v:masked_layer_token_map and masked_stack_implicit_tokens).
template <class T>
void every_token_is_read_by_the_implicit_state(case_context& ctx, head_form form,
                                               const reader<T>& read) {
  const auto c = gen_random_lt<T>(ctx, form);
  const Mat<T> E = regression_tokens<T>(c.X, c.Y, c.Xq, c.Yq0);
  const auto tokens = lsa_stack_forward<T>(c.stack, E, c.n);
  const auto states = read(c.stack, c.X, c.Y);
  ctx.require("one state per layer and the input", states.size() == tokens.size(),
              std::to_string(states.size()) + " states for " + std::to_string(tokens.size()) +
                  " token matrices");
  const Mat<T> Xall = E.topRows(c.d), Yall = E.bottomRows(c.o);
  for (std::size_t l = 0; l < tokens.size(); ++l)
    require_equal<T>(ctx,
                     "layer " + std::to_string(l) +
                         ": every token (context and queries) vs [[M x + u y], [a y - w^T x]]",
                     tokens[l], implicit_tokens<T>(states[l], Xall, Yall));
}

// The read-out: with y_q = 0, the prediction -y^L_q of the transformer is (w^L)^T x_q, a linear
// model; and the same w^L predicts any other query (w^L is a function of the context only).
template <class T>
void prediction_is_the_implicit_linear_model(case_context& ctx, const reader<T>& read) {
  const auto c = gen_random_lt<T>(ctx, head_form::general);
  const Mat<T> zeros = Mat<T>::Zero(c.o, c.Q);
  const Mat<T> E = regression_tokens<T>(c.X, c.Y, c.Xq, zeros);
  const auto tokens = lsa_stack_forward<T>(c.stack, E, c.n);
  const auto states = read(c.stack, c.X, c.Y);
  ctx.require("states", states.size() == tokens.size(), "wrong number of states");
  const Mat<T> prediction = -tokens.back().bottomRightCorner(c.o, c.Q);
  const Mat<T> model = matmul_tn(states.back().w, c.Xq);
  require_equal<T>(ctx, "prediction -y^L_q vs (w^L)^T x_q", prediction, model);
}

// Lemma 4.4 / A.1 (re-derived, o = 1, diagonal heads): with g = sum_i (a y_i - w^T x_i) x_i
// (= -grad f / 2 of f(w) = sum (a y_i - w^T x_i)^2), h = sum_i y_i (a y_i - w^T x_i) and the
// layer's Sigma^l, lambda^l (from the LSA layer's own tokens),
//   w' = (1 + w_yy lambda) w - w_yx M^T M g - w_yx h M^T u,
//   u' = (I + w_xx Sigma) u + a w_xy (M g + h u),  a' = (1 + w_yy lambda) a + w_yx (M g + h u)^T u,
//   M' = (I + w_xx Sigma) M - w_xy (M g + h u) w^T.
// Returned as the next state.
template <class T>
implicit_state<T> diagonal_gd_form(const implicit_state<T>& s0, const Mat<T>& X0, const Mat<T>& Y0,
                                   const Mat<T>& layer_tokens0, Eigen::Index n, const T& wxx0,
                                   const T& wxy0, const T& wyx0, const T& wyy0) {
  const T sg(-1);
  const implicit_state<T>& s = s0;
  const Mat<T>&X = X0, &Y = Y0, &tok = layer_tokens0;
  const T &wxx = wxx0, &wxy = wxy0, &wyx = wyx0, &wyy = wyy0;
  const Eigen::Index d = X.rows();
  const Mat<T> Xl = tok.topLeftCorner(d, n), Yl = tok.bottomLeftCorner(1, n);
  const Mat<T> Sigma = matmul_nt(Xl, Xl);
  const T lambda = matmul_nt(Yl, Yl)(0, 0);
  const Mat<T> resid = s.a(0, 0) * Y + sg * matmul_tn(s.w, X);  // a y_i - w^T x_i (1 x n)
  const Mat<T> g = matmul_nt(X, resid);                         // d x 1
  const T h = matmul_nt(Y, resid)(0, 0);
  const Mat<T> alpha = matmul(s.M, g) + h * s.u;  // = sum y^l x^l
  const T one_d = T(1) + wyy * lambda;
  const Mat<T> I = Mat<T>::Identity(d, d);
  implicit_state<T> nx;
  nx.w = one_d * s.w + sg * wyx * matmul_tn(s.M, Mat<T>(matmul(s.M, g))) +
         sg * wyx * h * matmul_tn(s.M, s.u);
  nx.u = matmul(Mat<T>(I + wxx * Sigma), s.u) + s.a(0, 0) * wxy * alpha;
  nx.a = one_d * s.a + wyx * matmul_tn(alpha, s.u);
  nx.M = matmul(Mat<T>(I + wxx * Sigma), s.M) + sg * wxy * matmul_nt(alpha, s.w);
  return nx;
}

template <class T>
void diagonal_layer_is_preconditioned_gd_on_the_implicit_loss(case_context& ctx,
                                                              const reader<T>& read) {
  const auto c = gen_random_lt<T>(ctx, head_form::diagonal);
  const Mat<T> E = regression_tokens<T>(c.X, c.Y, c.Xq, c.Yq0);
  const auto tokens = lsa_stack_forward<T>(c.stack, E, c.n);
  const auto states = read(c.stack, c.X, c.Y);
  ctx.require("states", states.size() == tokens.size(), "wrong number of states");
  const Eigen::Index D = c.d + 1;
  for (int l = 0; l < c.L; ++l) {
    T wxx(0), wxy(0), wyx(0), wyy(0);
    for (const auto& h : c.stack.layers[l].heads) {
      wxx += h.P(0, 0) * h.W_Q(0, 0);
      wxy += h.P(0, 0) * h.W_Q(D - 1, D - 1);
      wyx += h.P(D - 1, D - 1) * h.W_Q(0, 0);
      wyy += h.P(D - 1, D - 1) * h.W_Q(D - 1, D - 1);
    }
    const auto next = diagonal_gd_form<T>(states[l], c.X, c.Y, tokens[l], c.n, wxx, wxy, wyx, wyy);
    const auto& got = states[l + 1];
    const std::string at = "layer " + std::to_string(l + 1) + ": ";
    require_equal<T>(ctx, at + "w' = (1 + w_yy lambda) w - w_yx M^T M g - w_yx h M^T u", got.w,
                     next.w);
    require_equal<T>(ctx, at + "u' = (I + w_xx Sigma) u + a w_xy (M g + h u)", got.u, next.u);
    require_equal<T>(ctx, at + "a' = (1 + w_yy lambda) a + w_yx (M g + h u)^T u", got.a, next.a);
    require_equal<T>(ctx, at + "M' = (I + w_xx Sigma) M - w_xy (M g + h u) w^T", got.M, next.M);
  }
}

// Built weights: on von Oswald's GD stack (W0 = 0, step eta) the reader gives M = I, u = 0,
// a = I and w^l = (W_l)^T, the GD iterates (references/gradient_descent.hpp), layer by layer
// (proofs/ImplicitWeightsHeads.v:gd_stack_read_states):
// the reading `compare` applies to trained weights recovers the algorithm a built stack runs.
// Dyadic data, N a power of two and eta = 2^-k (as vonoswald.prop1_dyadic) with K <= 2 layers keep
// every intermediate exact in double, so the comparison is an equality in every scalar.
template <class T>
void gd_stack_reads_as_gd_iterates(case_context& ctx, const reader<T>& read) {
  const int d = *rc::gen::inRange(1, 5), o = *rc::gen::inRange(1, 3);
  const int N = 1 << *rc::gen::inRange(0, 4), K = *rc::gen::inRange(1, 3);
  const int k = *rc::gen::inRange(2, 6);
  const auto seed = *rc::gen::inRange<std::uint64_t>(0, 1u << 30);
  ctx.note("d, o, N, K, eta = 2^-k, seed",
           std::to_string(d) + ", " + std::to_string(o) + ", " + std::to_string(N) + ", " +
               std::to_string(K) + ", 2^-" + std::to_string(k) + ", " + std::to_string(seed));
  data_rng rng(seed);
  const auto ints = [&](int r, int cols) {
    Mat<double> m(r, cols);
    for (int j = 0; j < cols; ++j)
      for (int i = 0; i < r; ++i) m(i, j) = std::floor(rng.uniform(-3.0, 4.0));
    return from_double<T>(m);
  };
  const Mat<T> X = ints(d, N), Y = ints(o, N);
  const T eta = T(std::ldexp(1.0, -k));
  const auto states = read(gd_stack_weights<T>(d, o, N, std::vector<T>(K, eta)), X, Y);
  const auto W = gd_iterates<T>(Mat<T>(Mat<T>::Zero(o, d)), X, Y, eta, K);
  ctx.require("K + 1 states", static_cast<int>(states.size()) == K + 1, "wrong count");
  for (int l = 0; l <= K; ++l) {
    const auto& s = states[l];
    const std::string at = "layer " + std::to_string(l) + ": ";
    ctx.require(
        at + "M = I, u = 0, a = I (exact)",
        s.M == Mat<T>::Identity(d, d) && s.u == Mat<T>::Zero(d, o) && s.a == Mat<T>::Identity(o, o),
        "M =\n" + case_context::matrix_full_digits(s.M) + "u =\n" +
            case_context::matrix_full_digits(s.u) + "a =\n" +
            case_context::matrix_full_digits(s.a));
    ctx.require(at + "w^l = W_l^T, the GD iterate (exact on dyadic data)",
                s.w == Mat<T>(W[l].transpose()),
                "w =\n" + case_context::matrix_full_digits(s.w) + "W_l^T =\n" +
                    case_context::matrix_full_digits(Mat<T>(W[l].transpose())));
  }
}

}  // namespace iclproof::implicit_weights_checks
