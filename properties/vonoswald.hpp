// Checks of von Oswald et al. (2023): Proposition 1, its unmasked deviation, K-layer and
// recurrent GD stacks, GD++ (CONSTRUCTIONS.md sections 1-2; proofs/VonOswald.v). Each check is
// a template on the scalar and takes the weight constructions as functions, so
// tests/unit/vonoswald_test.cpp can feed it deliberately broken ones (mutation tests). The layer
// under test is always the generic lsa_layer (lsa/lsa_layer.hpp).
//
// How the tolerances are made (no tuned constants):
//  * Both sides of every comparison are straight-line programs of +, -, x (and division by the
//    exact integer N) on the same inputs (X, Y, Xq, Yq0, W0, eta, gamma) that compute the SAME
//    polynomial in exact arithmetic (the cited theorem); they differ by at most
//        2 gamma_n (max shadow_layer + max shadow_reference)
//    (Higham's running-error argument in absolute values: properties/rounding_shadow.hpp,
//    shadow_bound), n the rounding depth below.
//  * Rounding depth of one layer (lsa_head_update): W_V C and W_K C (inner D = d + o), their
//    product sum_i v_i k_i^T (inner n_keys), P times it (D), W_Q E (D) and the product of the
//    two (D); eta/N in P adds 1, the heads sum and the residual add 1 each:
//        n_layer = n_keys + 3 D + 4.
//    The one-step GD reference y_t - DeltaW x_t, DeltaW = -eta (W0 X - Y) X^T / N, has depth
//    d + 1 + N + 2 + d + 1 <= n_layer. K layers: n = K n_layer (depths add along the chain).
//  * The shadows are formulas in |X|, |Y|, |W0|, |eta| computed here, separately from the code
//    under test: for the Prop. 1 head, y-part shadow |Y_t| + |eta|/N (|W0| |X| + |Y|) |X|^T |X_t|
//    (the same for the GD reference).
#pragma once

#include "core/precision.hpp"
#include "harness/property.hpp"
#include "harness/size_profile.hpp"
#include "harness/tolerance.hpp"
#include "lsa/vonoswald_weights.hpp"
#include "references/references.hpp"
#include "rounding_shadow.hpp"
#include "stack_end_to_end.hpp"
#include "tasks/rapidcheck_gen.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace iclproof::vonoswald_checks {

using rounding_shadow::compare_within;
using rounding_shadow::lambda_max_double;
using rounding_shadow::shadow_bound;

// The constructions under test (the real ones: real_constructions<T>()).
template <class T>
struct constructions {
  std::function<lsa_layer<T>(Eigen::Index d, Eigen::Index o, Eigen::Index N, const T& eta,
                             const Mat<T>& W0)>
      prop1;
  std::function<lsa_stack<T>(Eigen::Index d, Eigen::Index o, Eigen::Index N,
                             const std::vector<T>& eta)>
      gd_stack;
  std::function<lsa_layer<T>(Eigen::Index d, Eigen::Index o, Eigen::Index N, const T& gamma,
                             const T& eta, const Mat<T>& W0)>
      gdpp;
  std::function<lsa_stack<T>(Eigen::Index d, Eigen::Index o, Eigen::Index N,
                             const std::vector<T>& gamma, const std::vector<T>& eta)>
      gdpp_stack;
};

template <class T>
constructions<T> real_constructions() {
  return {&prop1_weights<T>, &gd_stack_weights<T>, &gdpp_weights<T>, &gdpp_stack_weights<T>};
}

// n_layer of the header comment.
inline double layer_depth(Eigen::Index n_keys, Eigen::Index D) {
  return static_cast<double>(n_keys) + 3.0 * static_cast<double>(D) + 4.0;
}

// Records err / (eps * scale) in the case notes: at 256 bits the errors sit near 2^-256 times
// the data's scale, i.e. this number is O(1) to O(n).
template <class T>
void note_error_in_eps(case_context& ctx, const std::string& label, const Mat<T>& a,
                       const Mat<T>& b, const T& scale) {
  if constexpr (is_exact_scalar<T>) return;  // no eps: the check itself is equality
  const T err = max_abs(Mat<T>(a - b));
  const T rel = scale > T(0) ? T(err / (eps<T>() * scale)) : T(0);
  ctx.note(label + ": max error / (eps * shadow scale)", short_digits(rel, 4));
}

// A random regression case: d in 1..8, o in 1..3, N in 1..24 (both N < d and N > d occur; the
// regime is drawn explicitly), Q in 1..3 queries, random W0 (o x d, not only 0), random
// initial query y-parts Yq0, eta = s / lambda_max(H) with s drawn in [1/16, 2].
template <class T>
struct lsa_case {
  task_spec spec;
  Mat<T> X, Y, Xq, Yq0, W0;
  T eta;
  double eta_double = 0;
  double lmax = 1;
};

// d_max and N_max are the small profile's; --size paper / large raise them (size_profile.hpp).
template <class T>
lsa_case<T> gen_lsa_case(case_context& ctx, int d_max = 8, int N_max = 24) {
  task_ranges r;
  r.d_max = sized_max<T>(size_axis::dimension, d_max);
  r.o_max = 3;
  r.N_max = N_max;
  const int N_top = sized_max<T>(size_axis::examples, N_max);
  r.max_noise = 0.5;
  r.queries = *rc::gen::inRange(1, 4);
  lsa_case<T> c;
  c.spec = *gen_task_spec(r);
  const bool fewer_examples_than_dims = c.spec.d >= 2 && *rc::gen::arbitrary<bool>();
  c.spec.N = fewer_examples_than_dims ? *rc::gen::inRange(1, c.spec.d)
             : N_top == N_max         ? *rc::gen::inRange(c.spec.d + 1, N_max + c.spec.d + 1)
                              : *rc::gen::resize(100, rc::gen::inRange(c.spec.d + 1, N_top + 1));
  note_drawn_size(size_axis::examples, c.spec.N);
  const auto w_seed = *rc::gen::inRange<std::uint64_t>(0, 1u << 30);
  const int s16 = *rc::gen::inRange(1, 33);  // s = s16 / 16
  ctx.note_value("task", c.spec);
  ctx.note("regime", fewer_examples_than_dims ? "N < d" : "N > d");
  const auto td = make_task_double(c.spec);
  c.lmax = lambda_max_double(td.X);
  c.eta_double = (s16 / 16.0) / c.lmax;
  ctx.note("eta", std::to_string(c.eta_double) + " (= " + std::to_string(s16) +
                      "/16 / lambda_max(H)); W0 seed " + std::to_string(w_seed));
  data_rng rng(w_seed);
  c.X = from_double<T>(td.X);
  c.Y = from_double<T>(td.Y);
  c.Xq = from_double<T>(td.Xq);
  c.W0 = from_double<T>(rng.normal_matrix(c.spec.o, c.spec.d));
  c.Yq0 = from_double<T>(rng.normal_matrix(c.spec.o, c.spec.queries));
  c.eta = T(c.eta_double);
  return c;
}

// Prop. 1 y-part shadow for tokens Xt, Yt and keys (Xk, Yk):
//   |Yt| + |eta|/N (|W0| |Xk| + |Yk|) |Xk|^T |Xt|.
template <class T>
Mat<T> prop1_y_shadow(const Mat<T>& Xk, const Mat<T>& Yk, const Mat<T>& Xt, const Mat<T>& Yt,
                      const Mat<T>& W0, const T& eta, Eigen::Index N) {
  const Mat<T> R = matmul(abs_of(W0), abs_of(Xk)) + abs_of(Yk);
  const Mat<T> RX = matmul_nt(R, abs_of(Xk));
  return abs_of(Yt) + matmul(RX, abs_of(Xt)) * T(abs_of(eta) / T(N));
}

// DeltaW = -eta grad L(W0) (references/gradient_descent.hpp).
template <class T>
Mat<T> gd_delta(const Mat<T>& X, const Mat<T>& Y, const T& eta, const Mat<T>& W0) {
  return -eta * least_squares_gradient<T>(W0, X, Y);
}

// ---------------------------------------------------------------------------------------------
// Proposition 1 (proofs/VonOswald.v:prop1_lsa_gd_step): every token, queries included, of the
// masked Prop. 1 layer equals (x_j; y_j - DeltaW x_j). The x-parts are multiplied by exact zero
// blocks of P W_V, so they stay bit-identical (checked without tolerance).
template <class T>
void prop1_every_token_is_gd_updated(case_context& ctx, const constructions<T>& make) {
  const auto c = gen_lsa_case<T>(ctx);
  const Eigen::Index d = c.spec.d, o = c.spec.o, N = c.spec.N;
  const Mat<T> E = regression_tokens<T>(c.X, c.Y, c.Xq, c.Yq0);
  const Mat<T> out = lsa_layer_forward<T>(make.prop1(d, o, N, c.eta, c.W0), E, N);
  ctx.require("output shape", out.rows() == E.rows() && out.cols() == E.cols(), "shape changed");
  const Mat<T> dW = gd_delta<T>(c.X, c.Y, c.eta, c.W0);
  const Mat<T> Xt = E.topRows(d), Yt = E.bottomRows(o);
  const Mat<T> ref_y = Yt - matmul(dW, Xt);
  T scale(0);
  const T bound = tolerance<T>([&](auto) {
    scale = max_abs(Mat<T>(prop1_y_shadow<T>(c.X, c.Y, Xt, Yt, c.W0, c.eta, N)));
    return shadow_bound<T>(layer_depth(N, d + o), T(scale + scale));
  });
  note_error_in_eps<T>(ctx, "y-parts", Mat<T>(out.bottomRows(o)), ref_y, scale);
  ctx.require("x-parts of every token unchanged (exact)", out.topRows(d) == Xt,
              "the x-parts moved");
  compare_within<T>(ctx, "y-parts of every token (context and queries) vs y - DeltaW x",
                    Mat<T>(out.bottomRows(o)), ref_y, bound);
}

// Read-out (proofs/VonOswald.v:prop1_readout): with y_q0 = -W0 x_q, the prediction -(new y_q)
// equals (W0 + DeltaW) x_q, the GD-updated model W1 = gd_step(W0) applied to the queries.
// Shadow of both: |W0| |Xq| + |eta|/N (|W0| |X| + |Y|) |X|^T |Xq|; depth: the layer's plus the
// d + 1 of y_q0 = -W0 x_q.
template <class T>
void prop1_readout_predicts_updated_model(case_context& ctx, const constructions<T>& make) {
  const auto c = gen_lsa_case<T>(ctx);
  const Eigen::Index d = c.spec.d, o = c.spec.o, N = c.spec.N;
  const Mat<T> Yq0 = prop1_query_init<T>(c.W0, c.Xq);
  const Mat<T> E = regression_tokens<T>(c.X, c.Y, c.Xq, Yq0);
  const Mat<T> out = lsa_layer_forward<T>(make.prop1(d, o, N, c.eta, c.W0), E, N);
  const Mat<T> prediction = lsa_query_prediction<T>(out, d, N);
  const Mat<T> W1 = gd_step<T>(c.W0, c.X, c.Y, c.eta);
  const Mat<T> ref = matmul(W1, c.Xq);
  T scale(0);
  const T bound = tolerance<T>([&](auto) {
    const Mat<T> absYq0 = matmul(abs_of(c.W0), abs_of(c.Xq));
    scale = max_abs(Mat<T>(prop1_y_shadow<T>(c.X, c.Y, c.Xq, absYq0, c.W0, c.eta, N)));
    return shadow_bound<T>(layer_depth(N, d + o) + d + 1, T(scale + scale));
  });
  note_error_in_eps<T>(ctx, "prediction", prediction, ref, scale);
  compare_within<T>(ctx, "prediction -(y_q after the layer) vs (W0 + DeltaW) x_q", prediction, ref,
                    bound);
}

// Unmasked (proofs/VonOswald.v:prop1_unmasked_deviation): with the queries among the keys and
// values every token's y-part gains exactly (eta/N) (W0 Xq - Yq0) Xq^T x_j (summed over the Q
// queries). Reference: GD-updated token + that term; shadow of both: the Prop. 1 shadow over all
// N + Q keys; depth n_layer with n_keys = N + Q (the reference's N + 2d + 5 and Q + 2d + 4 chains
// plus one add fit in it).
template <class T>
void unmasked_layer_deviation(case_context& ctx, const constructions<T>& make) {
  const auto c = gen_lsa_case<T>(ctx);
  const Eigen::Index d = c.spec.d, o = c.spec.o, N = c.spec.N, Q = c.spec.queries;
  const Mat<T> E = regression_tokens<T>(c.X, c.Y, c.Xq, c.Yq0);
  lsa_layer<T> layer = make.prop1(d, o, N, c.eta, c.W0);
  layer.mask = lsa_mask::all_keys;
  const Mat<T> out = lsa_layer_forward<T>(layer, E, N);
  const Mat<T> Xt = E.topRows(d), Yt = E.bottomRows(o);
  const Mat<T> dW = gd_delta<T>(c.X, c.Y, c.eta, c.W0);
  const Mat<T> dev =
      matmul(Mat<T>(matmul_nt(Mat<T>(matmul(c.W0, c.Xq) - c.Yq0), c.Xq)), Xt) * T(c.eta / T(N));
  const Mat<T> ref_y = Yt - matmul(dW, Xt) + dev;
  T scale(0);
  const T bound = tolerance<T>([&](auto) {
    scale = max_abs(Mat<T>(prop1_y_shadow<T>(Xt, Yt, Xt, Yt, c.W0, c.eta, N)));
    return shadow_bound<T>(layer_depth(N + Q, d + o), T(scale + scale));
  });
  note_error_in_eps<T>(ctx, "y-parts", Mat<T>(out.bottomRows(o)), ref_y, scale);
  ctx.require("x-parts unchanged (exact)", out.topRows(d) == Xt, "the x-parts moved");
  compare_within<T>(ctx, "unmasked y-parts vs y - DeltaW x + (eta/N)(W0 Xq - Yq0) Xq^T x",
                    Mat<T>(out.bottomRows(o)), ref_y, bound);
  // The deviation is really there when W0 Xq != Yq0: the masked GD token is NOT the output.
  // (Only a statement about this draw; shown when the term exceeds the bound by 2^10.)
  if (max_abs(dev) > T(1024) * bound)  // exact mode: whenever dev != 0
    ctx.require("the unmasked output differs from the masked GD token",
                max_abs(Mat<T>(out.bottomRows(o) - (Yt - matmul(dW, Xt)))) > bound,
                "no deviation although (eta/N)(W0 Xq - Yq0) Xq^T x is large");
}

// Unmasked and exact (proofs/VonOswald.v:prop1_unmasked_exact): when W0 Xq = Yq0 holds exactly
// the unmasked layer is the GD step again. Xq and W0 are small dyadics (entries k/8, |k| <= 16),
// so W0 Xq is computed exactly and Yq0 := W0 Xq is an exact equality (checked), in every
// precision. Tolerance as in prop1_every_token_is_gd_updated with n_keys = N + Q.
template <class T>
void unmasked_layer_exact_when_readout_consistent(case_context& ctx, const constructions<T>& make) {
  auto c = gen_lsa_case<T>(ctx);
  const Eigen::Index d = c.spec.d, o = c.spec.o, N = c.spec.N, Q = c.spec.queries;
  const auto seed = *rc::gen::inRange<std::uint64_t>(0, 1u << 30);
  ctx.note("dyadic W0, Xq seed (replaces the W0 above)", std::to_string(seed));
  data_rng rng(seed);
  const auto dyadic = [&](Eigen::Index r, Eigen::Index cols) {
    Mat<double> m(r, cols);
    for (Eigen::Index j = 0; j < cols; ++j)
      for (Eigen::Index i = 0; i < r; ++i) m(i, j) = std::floor(rng.uniform(-16.0, 17.0)) / 8.0;
    return from_double<T>(m);
  };
  c.Xq = dyadic(d, Q);
  c.W0 = dyadic(o, d);
  c.Yq0 = matmul(c.W0, c.Xq);
  ctx.require(
      "W0 Xq = Yq0 exactly (precondition)",
      Mat<double>(to_double(c.W0)) * Mat<double>(to_double(c.Xq)) == Mat<double>(to_double(c.Yq0)),
      "W0 Xq is not exact");
  const Mat<T> E = regression_tokens<T>(c.X, c.Y, c.Xq, c.Yq0);
  lsa_layer<T> layer = make.prop1(d, o, N, c.eta, c.W0);
  layer.mask = lsa_mask::all_keys;
  const Mat<T> out = lsa_layer_forward<T>(layer, E, N);
  const Mat<T> Xt = E.topRows(d), Yt = E.bottomRows(o);
  const Mat<T> ref_y = Yt - matmul(gd_delta<T>(c.X, c.Y, c.eta, c.W0), Xt);
  T scale(0);
  const T bound = tolerance<T>([&](auto) {
    scale = max_abs(Mat<T>(prop1_y_shadow<T>(Xt, Yt, Xt, Yt, c.W0, c.eta, N)));
    return shadow_bound<T>(layer_depth(N + Q, d + o), T(scale + scale));
  });
  note_error_in_eps<T>(ctx, "y-parts", Mat<T>(out.bottomRows(o)), ref_y, scale);
  compare_within<T>(ctx, "unmasked y-parts vs the GD-updated tokens (W0 Xq = Yq0)",
                    Mat<T>(out.bottomRows(o)), ref_y, bound);
}

// The case of the GD-stack checks: an LSA case (d <= 6, N <= 16 under --size small), K in
// 1..8 layers (the depth cap), and the tokens [X, Xq; Y, 0] the stack runs on.
template <class T>
struct gd_stack_case {
  lsa_case<T> c;
  int K;
  Mat<T> E;
};

template <class T>
gd_stack_case<T> gen_gd_stack_case(case_context& ctx) {
  auto c = gen_lsa_case<T>(ctx, 6, 16);
  const int K = draw_size<T>(size_axis::depth, 1, 8);
  ctx.note("layers K", std::to_string(K));
  Mat<T> E = regression_tokens<T>(c.X, c.Y, c.Xq, Mat<T>(Mat<T>::Zero(c.spec.o, c.spec.queries)));
  return {std::move(c), K, std::move(E)};
}

// The rounding bound of one W0 = 0 Prop. 1 layer (eta) run on tokens `in` = [X_all; R] against
// one GD step from them, R - eta/N Rc X^T X_all (Rc = R's N context columns; gd_stack_follows_
// gd_steps): both programs are the same polynomial in (R, X, eta), with the Prop. 1 shadow
// s = max (|R| + |eta|/N |Rc| |X|^T |X_all|) (the same for both), so they differ by at most
// 2 gamma_n (s + s), n = n_layer (rounding_shadow.hpp: proved argument, hand-derived depth).
// Stores s in *scale. 0 in exact scalars.
template <class T>
T gd_step_local_bound(const Mat<T>& in, const Mat<T>& X, Eigen::Index d, Eigen::Index o,
                      Eigen::Index N, const T& eta, T* scale) {
  return tolerance<T>([&](auto) {
    const Mat<T> R = in.bottomRows(o), X_all = in.topRows(d);
    *scale = max_abs(Mat<T>(
        prop1_y_shadow<T>(X, Mat<T>(R.leftCols(N)), X_all, R, Mat<T>(Mat<T>::Zero(o, d)), eta, N)));
    return shadow_bound<T>(layer_depth(N, d + o), T(*scale + *scale));
  });
}

// The END-TO-END floating-point check of a GD stack (gd_stack_follows_gd_steps; issue 41): the
// realised y-parts R_k after k layers against [Y - W*_k X, -W*_k Xq], W*_k = k GD steps with
// eta_0..eta_(k-1) from W = 0 computed EXACTLY (rationals) from the same rounded inputs, within
// the propagated bound of properties/stack_end_to_end.hpp (HAND-DERIVED, rigorous):
//     |R_k - R*_k| <= (1 + 2 gamma) sum_(j<=k) delta_j |M_(j+1) ... M_k| + 2 eps |R*_k|,
//     M_j = I - (eta_(j-1) / N) [X^T; 0] X_all   (R_j = R_(j-1) M_j exactly, W0 = 0),
//     delta_j = 2 gamma_n (|R_(j-1)| + |eta|/N |Rc_(j-1)| |X|^T |X_all|)  (layer j at its
//     realised input: the Prop. 1 shadow entrywise, n = n_layer; Higham ASNA Lemma 3.1),
// the propagator computed in double with its own rounding bound (entry depth d + 6: conversions
// of eta and X, an inner product of length d, the scaling by eta and 1/N, the identity).
template <class T>
void gd_stack_end_to_end(case_context& ctx, const std::string& which, const lsa_case<T>& c,
                         const std::vector<T>& etas, const std::vector<Mat<T>>& tokens) {
  using propagated_rounding::exact_of;
  const Eigen::Index d = c.spec.d, o = c.spec.o, N = c.spec.N;
  const int K = static_cast<int>(etas.size());
  const Mat<T>& E = tokens.front();
  const Mat<T> X_all = E.topRows(d);
  std::vector<Mat<T>> local{Mat<T>()};
  std::vector<stack_end_to_end::affine_step> steps;
  const Mat<double> Xd = stack_end_to_end::to_double_matrix<T>(c.X);
  const Mat<double> X_all_d = stack_end_to_end::to_double_matrix<T>(X_all);
  Mat<double> U = Mat<double>::Zero(X_all.cols(), d);
  U.topRows(N) = Xd.transpose();
  const T two_gamma = shadow_bound<T>(layer_depth(N, d + o), T(1));
  for (int k = 1; k <= K; ++k) {
    const Mat<T> R = tokens[k - 1].bottomRows(o);
    local.push_back(
        Mat<T>(two_gamma * prop1_y_shadow<T>(c.X, Mat<T>(R.leftCols(N)), X_all, R,
                                             Mat<T>(Mat<T>::Zero(o, d)), etas[k - 1], N)));
    steps.push_back(stack_end_to_end::make_affine_step(
        static_cast<double>(etas[k - 1]) / static_cast<double>(N), U, X_all_d, X_all_d.cwiseAbs()));
  }
  const auto B = stack_end_to_end::affine_stack_error_bounds<T>(steps, d + 6.0, local);
  const Mat<rational_real> Xx = exact_of(c.X), Yx = exact_of(c.Y), X_all_x = exact_of(X_all);
  const Mat<rational_real> Yext_x = exact_of(Mat<T>(E.bottomRows(o)));
  Mat<rational_real> Wx = Mat<rational_real>::Zero(o, d);
  for (int k = 1; k <= K; ++k) {
    Wx = gd_step<rational_real>(Wx, Xx, Yx, exact_of(etas[k - 1]));
    stack_end_to_end::compare_with_exact_reference<T>(
        ctx,
        "layer " + std::to_string(k) + " (" + which + "): y-parts vs " + std::to_string(k) +
            " exact GD steps (rationals) within the propagated bound",
        Mat<T>(tokens[k].bottomRows(o)), Mat<rational_real>(Yext_x - matmul(Wx, X_all_x)), B[k]);
  }
}

// ---------------------------------------------------------------------------------------------
// K-layer GD stack (proofs/VonOswald.v:lsa_stack_gd_steps_etas, one eta_l per layer;
// proofs/VonOswald.v:lsa_stack_gd_steps, the recurrent layer): K masked Prop. 1 layers with
// W0 = 0 from [[X, Xq], [Y, 0]] hold [[X, Xq], [Y - W_k X, -W_k Xq]] after layer k, W_k = k GD
// steps from 0 (with eta_0 .. eta_(k-1) for the stack, gd_iterates for the recurrent one).
// Checked for the stack of K layers (gd_stack_weights) and for the recurrent stack (the Prop. 1
// layer applied K times), every layer, as follows.
//  * Exact scalars: layer k's tokens equal [Y - W_k X, -W_k Xq] (tolerance 0), and layer k's
//    tokens equal one GD step from layer k-1's (the local check below, tolerance 0).
//  * Floating point, two checks per layer. END TO END (gd_stack_end_to_end above): R_k against
//    [Y - W*_k X, -W*_k Xq], k exact GD steps in rationals, within the propagated bound. LOCAL
//    (localises a failure to one layer): layer k's realised y-parts R_k against one GD step
//    with eta_(k-1) taken from layer k-1's REALISED tokens R_(k-1) (context part Rc):
//        R_(k-1) - DeltaW X_all,  DeltaW = -eta grad L(0; X, Rc) (gd_delta, the reference's
//        gradient), which is R_(k-1) - eta/N Rc X^T X_all, the same polynomial as the layer in
//        the realised inputs (R_(k-1), X, eta, the weights) (proofs/VonOswald.v:prop1_lsa_gd_step
//        with W0 = 0 and Y = Rc). The tolerance is one layer's rounding bound at the realised
//        intermediates (rounding_shadow.hpp, HAND-DERIVED depth, proved argument, Higham ASNA
//        Lemma 3.1 / sec. 3.1): 2 gamma_n (s + s), s = max |R_(k-1)| + |eta|/N |Rc| |X|^T |X_all|
//        (the Prop. 1 shadow, the same for both programs), n = n_layer. The end-to-end comparison
//        against W_k in floating point needed the shadow of all k layers, whose coefficients in
//        absolute value do not contract as the iteration does (margins grew 0.15-0.3 decades per
//        layer, up to 10^4.8 at layer 7); by induction the local identity at every layer and the
//        Prop. 1 theorem give the end-to-end claim, which the exact run checks directly; the
//        end-to-end check above bounds it in floating point without compounding shadows.
template <class T>
void gd_stack_follows_gd_steps(case_context& ctx, const constructions<T>& make) {
  const auto [c, K, E] = gen_gd_stack_case<T>(ctx);
  const Eigen::Index d = c.spec.d, o = c.spec.o, N = c.spec.N;
  // The stack takes one eta per layer: eta_k = eta m_k, m_k in {1, 3/4, 1/2}, the first two
  // layers different, so a stack that ignores the per-layer values fails.
  std::vector<T> etas(K);
  for (int k = 0; k < K; ++k)
    etas[k] = c.eta * T(*rc::gen::elementOf(std::vector<double>{1.0, 0.75, 0.5}));
  etas[0] = c.eta;
  if (K >= 2) etas[1] = c.eta * T(0.5);
  ctx.note("per-layer eta / eta", [&] {
    std::string m;
    for (const T& e : etas) m += full_digits(T(e / c.eta)) + " ";
    return m;
  }());
  const auto stacked = lsa_stack_forward<T>(make.gd_stack(d, o, N, etas), E, N);
  const auto recurrent =
      lsa_recurrent_forward<T>(make.prop1(d, o, N, c.eta, Mat<T>(Mat<T>::Zero(o, d))), E, N, K);
  ctx.require("one token matrix per layer",
              stacked.size() == static_cast<std::size_t>(K + 1) &&
                  recurrent.size() == static_cast<std::size_t>(K + 1),
              "got " + std::to_string(stacked.size()) + " and " + std::to_string(recurrent.size()));
  const Mat<T> X_all = E.topRows(d), Yext = E.bottomRows(o);
  const Mat<T> zero_w = Mat<T>::Zero(o, d);
  // One GD step (eta_step) from the realised tokens `in` and its rounding bound.
  const auto local_step = [&](const Mat<T>& in, const T& eta_step, T* scale) {
    const Mat<T> R = in.bottomRows(o), Rc = R.leftCols(N);
    const Mat<T> ref = R - matmul(gd_delta<T>(c.X, Rc, eta_step, zero_w), X_all);
    return std::pair<Mat<T>, T>{ref, gd_step_local_bound<T>(in, c.X, d, o, N, eta_step, scale)};
  };
  std::vector<Mat<T>> W_stack, W;
  if constexpr (is_exact_scalar<T>) {
    W_stack.push_back(zero_w);
    for (int k = 0; k < K; ++k) W_stack.push_back(gd_step<T>(W_stack.back(), c.X, c.Y, etas[k]));
    W = gd_iterates<T>(zero_w, c.X, c.Y, c.eta, K);
  }
  for (int k = 1; k <= K; ++k) {
    const std::string at = "layer " + std::to_string(k);
    T scale(0), scale_r(0);
    const auto [ref_s, bound_s] = local_step(stacked[k - 1], etas[k - 1], &scale);
    const auto [ref_r, bound_r] = local_step(recurrent[k - 1], c.eta, &scale_r);
    compare_within<T>(ctx,
                      at + " (stack, per-layer eta): y-parts vs one GD step from layer " +
                          std::to_string(k - 1) + "'s tokens",
                      Mat<T>(stacked[k].bottomRows(o)), ref_s, bound_s);
    compare_within<T>(ctx,
                      at + " (recurrent): y-parts vs one GD step from layer " +
                          std::to_string(k - 1) + "'s tokens",
                      Mat<T>(recurrent[k].bottomRows(o)), ref_r, bound_r);
    if constexpr (is_exact_scalar<T>) {
      ctx.require(
          at + " (stack, per-layer eta): y-parts = [Y - W_k X, -W_k Xq] (exact)",
          Mat<T>(stacked[k].bottomRows(o)) == Mat<T>(Yext - matmul(W_stack[k], X_all)),
          "stack y-parts =\n" + case_context::matrix_full_digits(Mat<T>(stacked[k].bottomRows(o))));
      ctx.require(at + " (recurrent): y-parts = [Y - W_k X, -W_k Xq] (exact)",
                  Mat<T>(recurrent[k].bottomRows(o)) == Mat<T>(Yext - matmul(W[k], X_all)),
                  "recurrent y-parts =\n" +
                      case_context::matrix_full_digits(Mat<T>(recurrent[k].bottomRows(o))));
    }
    ctx.require(at + ": x-parts unchanged (exact)",
                stacked[k].topRows(d) == X_all && recurrent[k].topRows(d) == X_all,
                "the x-parts moved");
    if (k == K)
      note_error_in_eps<T>(ctx, "layer K y-parts (local)", Mat<T>(stacked[k].bottomRows(o)), ref_s,
                           scale);
  }
  if constexpr (stack_end_to_end::is_rounded_scalar<T>) {
    gd_stack_end_to_end<T>(ctx, "stack, per-layer eta", c, etas, stacked);
    gd_stack_end_to_end<T>(ctx, "recurrent", c, std::vector<T>(K, c.eta), recurrent);
  }
}

// The K-layer stack's prediction in closed form (proofs/VonOswald.v:lsa_stack_neumann):
// -(y_q after K layers) = W^(K) Xq, W^(K) = eta (Y X^T / N) sum_{k<K} (I - eta H)^k
// (gd_neumann_closed_form; independent of the token recursion).
// Shadow of the closed form: |eta|/N |Y| |X|^T sum_{k<K} (I + |eta| |X||X|^T/N)^k |Xq|; depth
// N + 3 (H, I - eta H) + K (d + 1) (powers, sum) + N + 1 (Y X^T/N) + 2 d + 1, below
// K n_layer + N + 2 d + 5. The stack's shadow is S_K's query columns (above).
template <class T>
void gd_stack_prediction_is_neumann_form(case_context& ctx, const constructions<T>& make) {
  const auto [c, K, E] = gen_gd_stack_case<T>(ctx);
  const Eigen::Index d = c.spec.d, o = c.spec.o, N = c.spec.N, Q = c.spec.queries;
  const auto Es = lsa_stack_forward<T>(make.gd_stack(d, o, N, std::vector<T>(K, c.eta)), E, N);
  const Mat<T> prediction = lsa_query_prediction<T>(Es.back(), d, N);
  const Mat<T> ref = matmul(gd_neumann_closed_form<T>(c.X, c.Y, c.eta, K), c.Xq);
  T s_stack(0), s_ref(0);
  const T bound = tolerance<T>([&](auto) {
    const Mat<T> absX = abs_of(c.X), absX_all = abs_of(Mat<T>(E.topRows(d)));
    const T eta_n = T(abs_of(c.eta) / T(N));
    Mat<T> S = abs_of(Mat<T>(E.bottomRows(o)));
    for (int k = 1; k <= K; ++k)
      S = S + matmul(Mat<T>(matmul_nt(Mat<T>(S.leftCols(N)), absX)), absX_all) * eta_n;
    const Mat<T> Mabs = Mat<T>::Identity(d, d) + matmul_nt(absX, absX) * eta_n;
    Mat<T> power = Mat<T>::Identity(d, d), sum = Mat<T>::Zero(d, d);
    for (int k = 0; k < K; ++k) {
      sum += power;
      power = matmul(power, Mabs);
    }
    const Mat<T> neumann_shadow =
        matmul(Mat<T>(matmul(Mat<T>(matmul_nt(abs_of(c.Y), absX)), sum)), abs_of(c.Xq)) * eta_n;
    s_stack = max_abs(Mat<T>(S.rightCols(Q)));
    s_ref = max_abs(neumann_shadow);
    return shadow_bound<T>(K * layer_depth(N, d + o) + static_cast<double>(N + 2 * d + 5),
                           T(s_stack + s_ref));
  });
  note_error_in_eps<T>(ctx, "prediction", prediction, ref, T(s_stack + s_ref));
  compare_within<T>(ctx, "stack prediction vs the Neumann closed form", prediction, ref, bound);
}

// ---------------------------------------------------------------------------------------------
// GD++ layer (proofs/VonOswald.v:gdpp_layer_identity): every token x_j <- (I - gamma X X^T) x_j,
// y_j <- y_j - DeltaW x_j (from the layer's input), random W0. gamma = g / lambda_max(X X^T),
// g in [0, 1/2]. Shadows: x-part |X_t| + |gamma| |X||X|^T |X_t| for both sides (the reference
// computes X_t - gamma X (X^T X_t)... as (I - gamma X X^T) X_t, depth N + d + 3); y-part as
// Prop. 1. Depth n_layer.
template <class T>
void gdpp_layer_identity(case_context& ctx, const constructions<T>& make) {
  const auto c = gen_lsa_case<T>(ctx);
  const Eigen::Index d = c.spec.d, o = c.spec.o, N = c.spec.N;
  const int g16 = *rc::gen::inRange(0, 9);  // gamma = g16/16 / lambda_max(X X^T)
  const T gamma = T((g16 / 16.0) / (c.lmax * static_cast<double>(N)));
  ctx.note("gamma", std::to_string(g16) + "/16 / lambda_max(X X^T)");
  const Mat<T> E = regression_tokens<T>(c.X, c.Y, c.Xq, c.Yq0);
  const Mat<T> out = lsa_layer_forward<T>(make.gdpp(d, o, N, gamma, c.eta, c.W0), E, N);
  const Mat<T> Xt = E.topRows(d), Yt = E.bottomRows(o);
  const Mat<T> XXt = matmul_nt(c.X, c.X);
  const Mat<T> ref_x = matmul(Mat<T>(Mat<T>::Identity(d, d) - XXt * gamma), Xt);
  const Mat<T> ref_y = Yt - matmul(gd_delta<T>(c.X, c.Y, c.eta, c.W0), Xt);
  const double n = layer_depth(N, d + o);
  T sx(0), sy(0);
  const T bound_x = tolerance<T>([&](auto) {
    const Mat<T> absX = abs_of(c.X);
    sx = max_abs(
        Mat<T>(abs_of(Xt) + matmul(Mat<T>(matmul_nt(absX, absX)), abs_of(Xt)) * abs_of(gamma)));
    return shadow_bound<T>(n, T(sx + sx));
  });
  const T bound_y = tolerance<T>([&](auto) {
    sy = max_abs(Mat<T>(prop1_y_shadow<T>(c.X, c.Y, Xt, Yt, c.W0, c.eta, N)));
    return shadow_bound<T>(n, T(sy + sy));
  });
  note_error_in_eps<T>(ctx, "x-parts", Mat<T>(out.topRows(d)), ref_x, sx);
  note_error_in_eps<T>(ctx, "y-parts", Mat<T>(out.bottomRows(o)), ref_y, sy);
  compare_within<T>(ctx, "x-parts vs (I - gamma X X^T) x", Mat<T>(out.topRows(d)), ref_x, bound_x);
  compare_within<T>(ctx, "y-parts vs y - DeltaW x", Mat<T>(out.bottomRows(o)), ref_y, bound_y);
}

// The rounding bounds of one GD++ layer (gamma, eta, W0) run on tokens E (context: the first N
// columns) against the reference (I - gamma Xc Xc^T) x and y - DeltaW x, DeltaW = -eta grad
// L(W0; Xc, Yc) (gdpp_layer_identity below): both are straight-line programs in the same inputs
// computing the same polynomial (proofs/VonOswald.v:gdpp_layer_identity), so they differ by at
// most 2 gamma_n (s + s) with the shadows (rounding_shadow.hpp)
//     x-part  s_x = max (|E_x| + |gamma| |Xc| |Xc|^T |E_x|),
//     y-part  s_y = the Prop. 1 shadow at (Xc, Yc, E_x, E_y, W0, eta),
// n = n_layer. This is a proved argument (Higham ASNA Lemma 3.1) with a hand-derived depth n.
template <class T>
struct gdpp_layer_bounds {
  T x, y, shadow_x, shadow_y;
};
template <class T>
gdpp_layer_bounds<T> gdpp_layer_rounding_bounds(const Mat<T>& E, Eigen::Index d, Eigen::Index o,
                                                Eigen::Index N, const T& gamma, const T& eta,
                                                const Mat<T>& W0) {
  gdpp_layer_bounds<T> b{T(0), T(0), T(0), T(0)};
  b.x = tolerance<T>([&](auto) {
    const Mat<T> Xt = E.topRows(d), absXc = abs_of(Mat<T>(Xt.leftCols(N)));
    b.shadow_x = max_abs(
        Mat<T>(abs_of(Xt) + matmul(Mat<T>(matmul_nt(absXc, absXc)), abs_of(Xt)) * abs_of(gamma)));
    return shadow_bound<T>(layer_depth(N, d + o), T(b.shadow_x + b.shadow_x));
  });
  b.y = tolerance<T>([&](auto) {
    const Mat<T> Xt = E.topRows(d), Yt = E.bottomRows(o);
    b.shadow_y = max_abs(Mat<T>(
        prop1_y_shadow<T>(Mat<T>(Xt.leftCols(N)), Mat<T>(Yt.leftCols(N)), Xt, Yt, W0, eta, N)));
    return shadow_bound<T>(layer_depth(N, d + o), T(b.shadow_y + b.shadow_y));
  });
  return b;
}

// The END-TO-END floating-point check of a GD++ stack (gdpp_stack_is_preconditioned_gd; issue
// 41): layer l's realised tokens against the EXACT GD++ algorithm from the same rounded inputs
// (rationals): x-parts S_l [X, Xq], y-parts [Y - W_l X, -W_l Xq], W_l preconditioned GD with
// S_l^2 (gdpp_preconditioned_iterates; proofs/VonOswald.v:gdpp_preconditioned_gd), within the
// propagated bound of stack_end_to_end.hpp's cubic stacks (cx = gamma_l, Bm = Am = I,
// cy = eta_l / N; HAND-DERIVED, rigorous): the Jacobian of every later layer at the exact
// tokens carries each layer's local rounding
//     delta_x = 2 gamma_n (|X_t| + |gamma| |X_c| |X_c|^T |X_t|),
//     delta_y = 2 gamma_n (the Prop. 1 shadow at (X_c, Y_c, X_t, Y_t), W0 = 0),  n = n_layer
// (at the realised input; Higham ASNA Lemma 3.1) and the Taylor remainder of order >= 2, plus
// one rounding of the exact reference (2 eps |ref|).
template <class T>
void gdpp_stack_end_to_end(case_context& ctx, const lsa_case<T>& c, const std::vector<T>& gamma,
                           const std::vector<T>& eta, const std::vector<Mat<T>>& Es) {
  using propagated_rounding::exact_of;
  using Q = rational_real;
  const Eigen::Index d = c.spec.d, o = c.spec.o, N = c.spec.N;
  const int L = static_cast<int>(gamma.size());
  std::vector<Q> gx, ex;
  for (int l = 0; l < L; ++l) gx.push_back(exact_of(gamma[l])), ex.push_back(exact_of(eta[l]));
  const Mat<Q> Xx = exact_of(c.X), Yx = exact_of(c.Y);
  const Mat<Q> X_all_x = exact_of(Mat<T>(Es[0].topRows(d)));
  const Mat<Q> Yext_x = exact_of(Mat<T>(Es[0].bottomRows(o)));
  const auto W = gdpp_preconditioned_iterates<Q>(Xx, Yx, ex, gx);
  std::vector<Mat<Q>> exact;
  Mat<Q> S = Mat<Q>::Identity(d, d);
  for (int l = 0; l <= L; ++l) {
    Mat<Q> tokens(d + o, X_all_x.cols());
    tokens << matmul(S, X_all_x), Mat<Q>(Yext_x - matmul(W[l], X_all_x));
    exact.push_back(tokens);
    if (l == L) break;
    const Mat<Q> Xl = matmul(S, Xx);
    S = matmul(Mat<Q>(Mat<Q>::Identity(d, d) - gx[l] * matmul_nt(Xl, Xl)), S);
  }
  const T two_gamma = shadow_bound<T>(layer_depth(N, d + o), T(1));
  std::vector<stack_end_to_end::cubic_layer<T>> layers;
  std::vector<Mat<T>> delta{Mat<T>()};
  const Mat<T> I = Mat<T>::Identity(d, d);
  for (int k = 1; k <= L; ++k) {
    layers.push_back({gamma[k - 1], T(eta[k - 1] / T(N)), I, I});
    const Mat<T>& in = Es[k - 1];
    const Mat<T> Xt = in.topRows(d), Yt = in.bottomRows(o);
    const Mat<T> absXc = abs_of(Mat<T>(Xt.leftCols(N)));
    Mat<T> dk(d + o, in.cols());
    dk << Mat<T>(abs_of(Xt) +
                 matmul(Mat<T>(matmul_nt(absXc, absXc)), abs_of(Xt)) * abs_of(gamma[k - 1])),
        prop1_y_shadow<T>(Mat<T>(Xt.leftCols(N)), Mat<T>(Yt.leftCols(N)), Xt, Yt,
                          Mat<T>(Mat<T>::Zero(o, d)), eta[k - 1], N);
    delta.push_back(Mat<T>(two_gamma * dk));
  }
  // The Jacobians are taken at E_0..E_(L-1).
  const auto B = stack_end_to_end::cubic_stack_error_bounds<T>(
      layers, std::vector<Mat<Q>>(exact.begin(), exact.end() - 1), delta, d, N);
  for (int l = 1; l <= L; ++l) {
    const std::string at = "layer " + std::to_string(l);
    stack_end_to_end::compare_with_exact_reference<T>(
        ctx, at + ": x-parts vs S_l [X, Xq] (exact GD++, rationals) within the propagated bound",
        Mat<T>(Es[l].topRows(d)), Mat<Q>(exact[l].topRows(d)), Mat<T>(B[l].topRows(d)));
    stack_end_to_end::compare_with_exact_reference<T>(
        ctx,
        at + ": y-parts vs [Y - W_l X, -W_l Xq] (exact PGD with S_l^2, rationals) within the "
             "propagated bound",
        Mat<T>(Es[l].bottomRows(o)), Mat<Q>(exact[l].bottomRows(o)), Mat<T>(B[l].bottomRows(o)));
  }
}

// GD++ stack (proofs/VonOswald.v:gdpp_preconditioned_gd): layers (gamma_l, eta_l), W0 = 0, from
// [[X, Xq], [Y, 0]], hold [[S_l X, S_l Xq], [Y - W_l X, -W_l Xq]] after layer l, where
// S_0 = I, S_{l+1} = (I - gamma_l X_l X_l^T) S_l, X_l = S_l X, and W_l = preconditioned GD with
// S_l^2 (gdpp_preconditioned_iterates). Per-layer (gamma_l, eta_l) drawn independently, and the
// recurrent stack (one GD++ layer applied L times, constant gamma, eta). Checked:
//  * Exact scalars: every layer's tokens equal [[S_l X, S_l Xq], [Y - W_l X, -W_l Xq]]
//    (tolerance 0), and every layer is one GD++ step from the previous layer's tokens.
//  * Floating point: END TO END (gdpp_stack_end_to_end above: the tokens against the exact
//    GD++ algorithm in rationals, within the propagated bound through the later layers'
//    Jacobians) and LOCAL: layer l's realised tokens against one GD++ step
//    (gamma_(l-1), eta_(l-1), W0 = 0) from layer l-1's REALISED tokens, x-parts
//    (I - gamma Xc Xc^T) x, y-parts y - DeltaW x (Xc, Yc the realised context columns), within
//    gdpp_layer_rounding_bounds at those tokens (one layer's proved rounding bound, hand-derived
//    depth). The end-to-end comparison in floating point needed the running-error shadow of
//    every earlier layer, Sh' = (I + |gamma| (Sh|X|)(Sh|X|)^T) Sh, which grows as a cube per
//    layer while S_l contracts (margins up to 10^8.6 at layer 5); by induction the local identity
//    at every layer and gdpp_layer_identity give the end-to-end claim, which the exact run checks
//    directly.
template <class T>
void gdpp_stack_is_preconditioned_gd(case_context& ctx, const constructions<T>& make) {
  auto c = gen_lsa_case<T>(ctx, 6, 16);
  const Eigen::Index d = c.spec.d, o = c.spec.o, N = c.spec.N, Q = c.spec.queries;
  // L stays 1..5 under every size profile (the exact run's S_l has entries whose size triples
  // per layer; at L = 15 the old cubic shadow overflowed double).
  const int L = *rc::gen::inRange(1, 6);
  const bool recurrent = *rc::gen::arbitrary<bool>();
  const double lxx = c.lmax * static_cast<double>(N);  // lambda_max(X X^T)
  std::vector<T> gamma, eta;
  std::string params;
  for (int l = 0; l < L; ++l) {
    if (recurrent && l > 0) {
      gamma.push_back(gamma[0]);
      eta.push_back(eta[0]);
      continue;
    }
    const int g16 = *rc::gen::inRange(0, 9), e16 = *rc::gen::inRange(1, 17);
    gamma.push_back(T((g16 / 16.0) / lxx));
    eta.push_back(T((e16 / 16.0) / c.lmax));
    params += "(" + std::to_string(g16) + "/16, " + std::to_string(e16) + "/16) ";
  }
  ctx.note("layers L, recurrent", std::to_string(L) + (recurrent ? ", yes" : ", no"));
  ctx.note("(gamma lambda_max(XX^T), eta lambda_max(H)) per layer", params);
  const Mat<T> E = regression_tokens<T>(c.X, c.Y, c.Xq, Mat<T>(Mat<T>::Zero(o, Q)));
  const auto Es =
      recurrent ? lsa_recurrent_forward<T>(
                      make.gdpp(d, o, N, gamma[0], eta[0], Mat<T>(Mat<T>::Zero(o, d))), E, N, L)
                : lsa_stack_forward<T>(make.gdpp_stack(d, o, N, gamma, eta), E, N);
  ctx.require("one token matrix per layer", Es.size() == static_cast<std::size_t>(L + 1),
              "got " + std::to_string(Es.size()));
  const Mat<T> X_all = E.topRows(d), Yext = E.bottomRows(o);
  const Mat<T> I = Mat<T>::Identity(d, d), zero_w = Mat<T>::Zero(o, d);
  std::vector<Mat<T>> W;
  if constexpr (is_exact_scalar<T>) W = gdpp_preconditioned_iterates<T>(c.X, c.Y, eta, gamma);
  Mat<T> S = I;
  for (int l = 0; l < L; ++l) {
    const std::string at = "layer " + std::to_string(l + 1);
    // One GD++ step from layer l's realised tokens.
    const Mat<T>& in = Es[l];
    const Mat<T> Xt = in.topRows(d), Yt = in.bottomRows(o);
    const Mat<T> Xc = Xt.leftCols(N), Yc = Yt.leftCols(N);
    const Mat<T> local_x = matmul(Mat<T>(I - matmul_nt(Xc, Xc) * gamma[l]), Xt);
    const Mat<T> local_y = Yt - matmul(gd_delta<T>(Xc, Yc, eta[l], zero_w), Xt);
    const auto b = gdpp_layer_rounding_bounds<T>(in, d, o, N, gamma[l], eta[l], zero_w);
    const std::string from = " from layer " + std::to_string(l) + "'s tokens";
    compare_within<T>(ctx, at + ": x-parts vs (I - gamma Xc Xc^T) x" + from,
                      Mat<T>(Es[l + 1].topRows(d)), local_x, b.x);
    compare_within<T>(ctx, at + ": y-parts vs y - DeltaW x" + from, Mat<T>(Es[l + 1].bottomRows(o)),
                      local_y, b.y);
    if constexpr (is_exact_scalar<T>) {
      // The reference's S_l and W_l, end to end.
      const Mat<T> Xl = matmul(S, c.X);
      S = matmul(Mat<T>(I - matmul_nt(Xl, Xl) * gamma[l]), S);
      ctx.require(at + ": x-parts = S_l [X, Xq] (exact)",
                  Mat<T>(Es[l + 1].topRows(d)) == Mat<T>(matmul(S, X_all)),
                  "x-parts =\n" + case_context::matrix_full_digits(Mat<T>(Es[l + 1].topRows(d))));
      ctx.require(
          at + ": y-parts = [Y - W_l X, -W_l Xq] (PGD with S_l^2, exact)",
          Mat<T>(Es[l + 1].bottomRows(o)) == Mat<T>(Yext - matmul(W[l + 1], X_all)),
          "y-parts =\n" + case_context::matrix_full_digits(Mat<T>(Es[l + 1].bottomRows(o))));
    }
    if (l + 1 == L)
      note_error_in_eps<T>(ctx, "layer L y-parts (local)", Mat<T>(Es[l + 1].bottomRows(o)), local_y,
                           b.shadow_y);
  }
  if constexpr (stack_end_to_end::is_rounded_scalar<T>) {
    if (stack_end_to_end::cubic_end_to_end_affordable(ctx, L, c.spec.d, c.spec.N))
      gdpp_stack_end_to_end<T>(ctx, c, gamma, eta, Es);
  }
}

}  // namespace iclproof::vonoswald_checks
