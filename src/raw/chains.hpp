// The chains of Akyurek et al. 2023: Theorem 1 (Appendix A: SGD with a ridge penalty, one
// step per example = one SGD pass) and Theorem 2 (Appendix B: one Sherman-Morrison update per
// example = the ridge solution), as sequences of RAW/div layer specifications on the
// interleaved input x_1, y_1, x_2, y_2, ..., x_{n+1} (T = 2n + 1 tokens; row 0 holds y, rows
// 1..d hold x, as in x~ = [0, x], y~ = [y, 0_d]).
//
// Generalised from the appendices' single step to n steps: stage k (k = 1..n) works at the
// y-token 2k-1, reads x_k from token 2k-2, takes the state (w, or A^-1 and b) from token 2k-2
// (stage 1: writes the initial state with a bias), updates it, moves it to the x-token 2k, and
// predicts there: row `pred` of token 2k is w_k^T x_{k+1}. Every op acts on every column (RAW
// has no column mask); columns other than the ones named hold garbage that is never read.
//
// Appendix A's w^T x is aff(W1 = w) with w a weight; from stage 2 on w lives in the hidden
// state, so here w^T x is a dot (the appendix's chain covers stage 1 only).
#pragma once

#include "raw/raw_operator.hpp"
#include "references/regression_solutions.hpp"

#include <vector>

namespace iclproof::raw {

// ------------------------------------------------------------------ Theorem 1 (SGD pass)

struct sgd_rows {
  Index d;
  Index y() const { return 0; }
  Index x0() const { return 1; }
  Index p() const { return 1 + d; }   // w^T x
  Index r() const { return 2 + d; }   // w^T x - y
  Index g0() const { return 3 + d; }  // x (w^T x - y)
  Index w0() const { return 3 + 2 * d; }
  Index h0() const { return 3 + 3 * d; }  // x (w^T x - y) + lambda w
  Index pred() const { return 3 + 4 * d; }
  Index D() const { return 4 + 4 * d; }
};

// The ridge-penalised SGD step of Appendix A, corrected (CONSTRUCTIONS.md errata):
//   w' = w - 2 alpha (x (w^T x - y) + lambda w) = w - alpha grad_w [(w^T x - y)^2 + lambda |w|^2].
template <class T>
Vec<T> sgd_ridge_step(const Vec<T>& w, const Vec<T>& x, const T& y, const T& alpha,
                      const T& lambda) {
  return w - T(2) * alpha * (x * T(w.dot(x) - y) + lambda * w);
}

// The appendix as printed: the aff step writes x(w^T x - y) - lambda w ("W2 = -lambda"; one
// line says -2 lambda).
template <class T>
Vec<T> sgd_ridge_step_as_printed(const Vec<T>& w, const Vec<T>& x, const T& y, const T& alpha,
                                 const T& lambda_coefficient) {
  return w - T(2) * alpha * (x * T(w.dot(x) - y) - lambda_coefficient * w);
}

// w_k after k steps over the first k examples (columns of X, entries of y), from w_0.
template <class T>
std::vector<Vec<T>> sgd_pass(const Mat<T>& X, const Mat<T>& y, const Vec<T>& w0, const T& alpha,
                             const T& lambda) {
  std::vector<Vec<T>> ws{w0};
  for (Index k = 0; k < y.cols(); ++k)
    ws.push_back(sgd_ridge_step<T>(ws.back(), X.col(k), y(0, k), alpha, lambda));
  return ws;
}

template <class T>
std::vector<layer_spec<T>> theorem1_chain(Index d, Index n, const Vec<T>& w_init, const T& alpha,
                                          const T& lambda) {
  const sgd_rows R{d};
  const Index Tn = 2 * n + 1;
  std::vector<layer_spec<T>> L;
  const Mat<T> I = Mat<T>::Identity(d, d);
  const Mat<T> none(d, 0);
  for (Index k = 1; k <= n; ++k) {
    const Index yt = 2 * k - 1, xt = 2 * k - 2;
    layer_spec<T> l1 = named_layer<T>("stage " + std::to_string(k) + ": move x (and w)");
    l1.ops.push_back(mov_op<T>(rows(R.x0(), R.x0() + d), rows(R.x0(), R.x0() + d), Tn, yt, xt));
    if (k == 1)
      l1.ops.push_back(aff_op<T>({}, none, {}, none, w_init, rows(R.w0(), R.w0() + d), Tn));
    else
      l1.ops.push_back(mov_op<T>(rows(R.w0(), R.w0() + d), rows(R.w0(), R.w0() + d), Tn, yt, xt));
    L.push_back(l1);
    layer_spec<T> l2 = named_layer<T>("w^T x");
    l2.ops.push_back(dot_op<T>(rows(R.w0(), R.w0() + d), rows(R.x0(), R.x0() + d), R.p(), Tn));
    L.push_back(l2);
    layer_spec<T> l3 = named_layer<T>("w^T x - y");
    l3.ops.push_back(aff_op<T>({R.p()}, Mat<T>::Ones(1, 1), {R.y()}, Mat<T>(-Mat<T>::Ones(1, 1)),
                               Vec<T>::Zero(1), {R.r()}, Tn));
    L.push_back(l3);
    layer_spec<T> l4 = named_layer<T>("x (w^T x - y)");
    l4.ops = mul_ops<T>(d, 1, 1, R.x0(), R.r(), R.g0(), Tn);
    L.push_back(l4);
    layer_spec<T> l5 = named_layer<T>("x (w^T x - y) + lambda w");
    l5.ops.push_back(aff_op<T>(rows(R.g0(), R.g0() + d), I, rows(R.w0(), R.w0() + d),
                               Mat<T>(lambda * I), Vec<T>::Zero(d), rows(R.h0(), R.h0() + d), Tn));
    L.push_back(l5);
    layer_spec<T> l6 = named_layer<T>("w' = w - 2 alpha (...)");
    l6.ops.push_back(aff_op<T>(rows(R.w0(), R.w0() + d), I, rows(R.h0(), R.h0() + d),
                               Mat<T>(T(-2) * alpha * I), Vec<T>::Zero(d), rows(R.w0(), R.w0() + d),
                               Tn));
    L.push_back(l6);
    layer_spec<T> l7 = named_layer<T>("move w'");
    l7.ops.push_back(mov_op<T>(rows(R.w0(), R.w0() + d), rows(R.w0(), R.w0() + d), Tn, 2 * k, yt));
    L.push_back(l7);
    layer_spec<T> l8 = named_layer<T>("w'^T x_next");
    l8.ops.push_back(dot_op<T>(rows(R.w0(), R.w0() + d), rows(R.x0(), R.x0() + d), R.pred(), Tn));
    L.push_back(l8);
  }
  return L;
}

// Data rows of the interleaved input: X is d x (n+1) (the last column is the query), y 1 x n.
template <class T>
Mat<T> chain_input(Index D, const Mat<T>& X, const Mat<T>& y) {
  const Index n = y.cols(), d = X.rows();
  Mat<T> h = Mat<T>::Zero(D, 2 * n + 1);
  for (Index i = 0; i <= n; ++i) {
    for (Index r = 0; r < d; ++r) h(1 + r, 2 * i) = X(r, i);
    if (i < n) h(0, 2 * i + 1) = y(0, i);
  }
  return h;
}

// ------------------------------------------------------- Theorem 2 (Sherman-Morrison pass)

struct sm_rows {
  Index d;
  Index y() const { return 0; }
  Index x0() const { return 1; }
  Index ainv0() const { return 1 + d; }       // A^-1, d x d row-major
  Index b0() const { return 1 + d + d * d; }  // b = sum x_i y_i
  Index u0() const { return b0() + d; }       // A^-1 x
  Index v0() const { return u0() + d; }       // x^T A^-1
  Index xy0() const { return v0() + d; }      // x y
  Index m0() const { return xy0() + d; }      // u v^T, d x d
  Index den() const { return m0() + d * d; }  // 1 + x^T A^-1 x
  Index m20() const { return den() + 1; }     // u v^T / |den|
  Index q0() const { return m20() + d * d; }  // w = A^-1 b
  Index pred() const { return q0() + d; }
  Index D() const { return pred() + 1; }
};

template <class T>
std::vector<layer_spec<T>> theorem2_chain(Index d, Index n, const T& lambda) {
  const sm_rows R{d};
  const Index Tn = 2 * n + 1, d2 = d * d;
  std::vector<layer_spec<T>> L;
  const Mat<T> Id = Mat<T>::Identity(d, d), Id2 = Mat<T>::Identity(d2, d2);
  const Mat<T> none(d, 0), none2(d2, 0);
  for (Index k = 1; k <= n; ++k) {
    const Index yt = 2 * k - 1, xt = 2 * k - 2;
    layer_spec<T> l1 = named_layer<T>("stage " + std::to_string(k) + ": move x (and A^-1, b)");
    l1.ops.push_back(mov_op<T>(rows(R.x0(), R.x0() + d), rows(R.x0(), R.x0() + d), Tn, yt, xt));
    if (k == 1) {
      Vec<T> a0 = Vec<T>::Zero(d2);
      for (Index i = 0; i < d; ++i) a0(i * d + i) = T(1) / lambda;
      l1.ops.push_back(aff_op<T>({}, none2, {}, none2, a0, rows(R.ainv0(), R.ainv0() + d2), Tn));
      l1.ops.push_back(
          aff_op<T>({}, none, {}, none, Vec<T>(Vec<T>::Zero(d)), rows(R.b0(), R.b0() + d), Tn));
    } else {
      l1.ops.push_back(
          mov_op<T>(rows(R.ainv0(), R.b0() + d), rows(R.ainv0(), R.b0() + d), Tn, yt, xt));
    }
    L.push_back(l1);
    layer_spec<T> l2 = named_layer<T>("u = A^-1 x, x y");
    l2.ops = mul_ops<T>(d, d, 1, R.ainv0(), R.x0(), R.u0(), Tn);
    for (auto& op : mul_ops<T>(d, 1, 1, R.x0(), R.y(), R.xy0(), Tn)) l2.ops.push_back(op);
    L.push_back(l2);
    layer_spec<T> l3 = named_layer<T>("v = x^T A^-1, b += x y");
    l3.ops = mul_ops<T>(1, d, d, R.x0(), R.ainv0(), R.v0(), Tn);
    l3.ops.push_back(aff_op<T>(rows(R.b0(), R.b0() + d), Id, rows(R.xy0(), R.xy0() + d), Id,
                               Vec<T>::Zero(d), rows(R.b0(), R.b0() + d), Tn));
    L.push_back(l3);
    layer_spec<T> l4 = named_layer<T>("u v^T, v x");
    l4.ops = mul_ops<T>(d, 1, d, R.u0(), R.v0(), R.m0(), Tn);
    for (auto& op : mul_ops<T>(1, d, 1, R.v0(), R.x0(), R.den(), Tn)) l4.ops.push_back(op);
    L.push_back(l4);
    layer_spec<T> l5 = named_layer<T>("1 + x^T A^-1 x");
    l5.ops.push_back(aff_op<T>({R.den()}, Mat<T>::Ones(1, 1), {}, Mat<T>(Mat<T>::Zero(1, 0)),
                               Vec<T>::Ones(1), {R.den()}, Tn));
    L.push_back(l5);
    layer_spec<T> l6 = named_layer<T>("u v^T / |1 + x^T A^-1 x|");
    l6.div = div_op{rows(R.m0(), R.m0() + d2), R.den(), rows(R.m20(), R.m20() + d2)};
    L.push_back(l6);
    layer_spec<T> l7 = named_layer<T>("A^-1 -= ...");
    l7.ops.push_back(aff_op<T>(rows(R.ainv0(), R.ainv0() + d2), Id2, rows(R.m20(), R.m20() + d2),
                               Mat<T>(-Id2), Vec<T>::Zero(d2), rows(R.ainv0(), R.ainv0() + d2),
                               Tn));
    L.push_back(l7);
    layer_spec<T> l8 = named_layer<T>("w = A^-1 b");
    l8.ops = mul_ops<T>(d, d, 1, R.ainv0(), R.b0(), R.q0(), Tn);
    L.push_back(l8);
    layer_spec<T> l9 = named_layer<T>("move w, A^-1, b");
    l9.ops.push_back(
        mov_op<T>(rows(R.ainv0(), R.b0() + d), rows(R.ainv0(), R.b0() + d), Tn, 2 * k, yt));
    l9.ops.push_back(mov_op<T>(rows(R.q0(), R.q0() + d), rows(R.q0(), R.q0() + d), Tn, 2 * k, yt));
    L.push_back(l9);
    layer_spec<T> l10 = named_layer<T>("w^T x_next");
    l10.ops.push_back(dot_op<T>(rows(R.q0(), R.q0() + d), rows(R.x0(), R.x0() + d), R.pred(), Tn));
    L.push_back(l10);
  }
  return L;
}

// ------------------------------------------------------------------ running the chains

template <class T>
Mat<T> run_exact(const std::vector<layer_spec<T>>& L, Mat<T> h) {
  for (const auto& l : L) h = layer_exact(h, l);
  return h;
}

// The largest |value| along the exact chain: over the input and every layer's output (the
// chain's largest value, for which the knobs are balanced: balanced_knobs).
template <class T>
T exact_chain_max_abs(const std::vector<layer_spec<T>>& L, Mat<T> h) {
  T X = max_abs(h);
  for (const auto& l : L) {
    h = layer_exact(h, l);
    X = max_of(X, max_abs(h));
  }
  return X;
}

// Scratch the realisation needs for a chain: op scratch = the largest sum of |t| in a layer,
// div scratch = the largest div + 2.
template <class T>
raw_layout layout_for(Index D, Index T_tokens, const std::vector<layer_spec<T>>& L) {
  raw_layout lay;
  lay.data_rows = D;
  lay.tokens = T_tokens;
  for (const auto& l : L) {
    Index t = 0;
    for (const auto& op : l.ops) t += op.t_size();
    lay.op_scratch = std::max(lay.op_scratch, t);
    if (l.div) lay.div_scratch = std::max(lay.div_scratch, static_cast<Index>(l.div->w.size()) + 2);
  }
  return lay;
}

template <class T>
std::vector<decoder_layer_weights<T>> build_chain(const raw_layout& lay,
                                                  const std::vector<layer_spec<T>>& L,
                                                  const raw_knobs<T>& kn) {
  std::vector<decoder_layer_weights<T>> W;
  W.reserve(L.size());
  for (const auto& l : L) W.push_back(build_layer(lay, l, kn));
  return W;
}

// Explicit instantiations for double, long double and mpfr_real: compiled once, in
// src/raw/raw_instantiations*.cpp, not in every translation unit that uses them (the extern
// declarations below); other scalars instantiate them where they are used.
// clang-format off
#define ICLPROOF_RAW_CHAINS(PREFIX, T) \
  PREFIX template std::vector<Vec<T>> sgd_pass<T>(const Mat<T>&, const Mat<T>&, const Vec<T>&, const T&, const T&); \
  PREFIX template std::vector<layer_spec<T>> theorem1_chain<T>(Index, Index, const Vec<T>&, const T&, const T&); \
  PREFIX template std::vector<layer_spec<T>> theorem2_chain<T>(Index, Index, const T&); \
  PREFIX template Mat<T> run_exact<T>(const std::vector<layer_spec<T>>&, Mat<T>); \
  PREFIX template T exact_chain_max_abs<T>(const std::vector<layer_spec<T>>&, Mat<T>); \
  PREFIX template std::vector<decoder_layer_weights<T>> build_chain<T>(const raw_layout&, const std::vector<layer_spec<T>>&, const raw_knobs<T>&)
// clang-format on
ICLPROOF_RAW_CHAINS(extern, double);
ICLPROOF_RAW_CHAINS(extern, long double);
ICLPROOF_RAW_CHAINS(extern, mpfr_real);

}  // namespace iclproof::raw
