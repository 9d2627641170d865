// The chains of Akyurek et al. 2023 (CONSTRUCTIONS.md section 5): Theorems 1 and 2 in exact
// semantics, and the realised chain within its propagated bounds.
// Each check is a template on the scalar and on the implementation under test, so the mutation
// tests in tests/unit/akyurek_test.cpp can feed it a broken variant.
#pragma once

#include "akyurek_raw_layer_checks.hpp"

namespace iclproof::akyurek_checks {

// ---------------------------------------------------------------------- the chains

struct chain_case {
  int d, n;
  std::vector<double> X, y, w0;
  double alpha, lambda;
};

// low_precision (below 200 bits): draw better-conditioned chains (lambda >= 1, |x| <= 1), the
// ones whose propagated bound stays finite at ~eps^(1/2) per layer: the worst-case propagation
// through n Sherman-Morrison updates with A^-1 up to 8 and |x| up to 2 exceeds |c| = 1 + x^T A^-1 x
// at 128 bits (measured: d = 2, n = 3, x = -2, lambda = 1/8).
inline chain_case gen_chain_case(int d_max, int n_max, bool low_precision = false) {
  chain_case cc;
  const double xscale = low_precision ? 1.0 : 2.0;
  cc.d = *rc::gen::inRange(1, d_max + 1);
  cc.n = *rc::gen::inRange(1, n_max + 1);
  note_drawn_size(size_axis::dimension, cc.d);
  note_drawn_size(size_axis::depth, cc.n);
  for (int j = 0; j < cc.d * (cc.n + 1); ++j) cc.X.push_back(gen_unit_value() * xscale);
  for (int j = 0; j < cc.n; ++j) cc.y.push_back(gen_unit_value() * xscale);
  for (int j = 0; j < cc.d; ++j) cc.w0.push_back(gen_unit_value());
  cc.alpha = std::ldexp(1.0, *rc::gen::inRange(-6, -1));
  cc.lambda = std::ldexp(1.0, *rc::gen::inRange(low_precision ? 0 : -3, 2));
  return cc;
}

template <class T>
Mat<T> chain_X(const chain_case& cc) {
  Mat<T> X(cc.d, cc.n + 1);
  for (int i = 0; i <= cc.n; ++i)
    for (int r = 0; r < cc.d; ++r) X(r, i) = cc.X[size_t(i * cc.d + r)];
  return X;
}
template <class T>
Mat<T> chain_y(const chain_case& cc) {
  Mat<T> y(1, cc.n);
  for (int i = 0; i < cc.n; ++i) y(0, i) = cc.y[size_t(i)];
  return y;
}

inline void note_chain(case_context& ctx, const chain_case& cc) {
  ctx.note("d", std::to_string(cc.d));
  ctx.note("n", std::to_string(cc.n));
  ctx.note("alpha", std::to_string(cc.alpha));
  ctx.note("lambda", std::to_string(cc.lambda));
  std::string xs;
  for (double v : cc.X) xs += std::to_string(v) + " ";
  ctx.note("X (column-major)", xs);
  std::string ys;
  for (double v : cc.y) ys += std::to_string(v) + " ";
  ctx.note("y", ys);
}

// Theorem 1 in exact semantics: after stage k the chain holds w_k (the k-th SGD iterate with the
// corrected ridge step) at token 2k and predicts w_k^T x_{k+1} there. Tolerance: both sides do
// the same operations in different orders; step j commits <= gamma_(d+6) (|w| + 2 alpha (|x|
// (|w||x| + |y|) + lambda |w|)) per entry (Higham (3.5)) and later steps amplify it by at most
// rho_j = 1 + 2 alpha (|x_j|_1 |x_j|_inf + lambda) each (the step's Jacobian in the max norm);
// doubled for the two computations, plus gamma_d |w| |x| for the prediction.
template <class T>
using chain_builder_fn1 = std::function<std::vector<raw::layer_spec<T>>(
    raw::Index, raw::Index, const Vec<T>&, const T&, const T&)>;

template <class T>
void theorem1_exact_chain(case_context& ctx, const chain_builder_fn1<T>& chain) {
  // d in 1..4 and n in 1..4 stages under the small profile; --size raises d to the dimension
  // cap and n (8 or 10 layers per stage) to the depth cap (harness/size_profile.hpp).
  const chain_case cc =
      gen_chain_case(sized_max<T>(size_axis::dimension, 4), sized_max<T>(size_axis::depth, 4));
  note_chain(ctx, cc);
  const Mat<T> X = chain_X<T>(cc), y = chain_y<T>(cc);
  Vec<T> w0(cc.d);
  for (int r = 0; r < cc.d; ++r) w0(r) = cc.w0[size_t(r)];
  const T alpha = cc.alpha, lambda = cc.lambda;
  const raw::sgd_rows R{cc.d};
  const auto L = chain(cc.d, cc.n, w0, alpha, lambda);
  const auto ws = raw::sgd_pass<T>(X, y, w0, alpha, lambda);
  Mat<T> h = raw::chain_input<T>(R.D(), X, y);
  T acc(0);
  for (int k = 1; k <= cc.n; ++k) {
    for (int l = 0; l < 8; ++l) h = raw::layer_exact(h, L[size_t(8 * (k - 1) + l)]);
    const Vec<T> wk = ws[size_t(k)];
    const T pred = wk.dot(X.col(k));
    T bound_w(0);
    const T tol = tolerance<T>([&](auto) {
      const T g = raw::gamma_bound<T>(double(cc.d) + 6);
      const Vec<T> x = X.col(k - 1);
      const T wn = ws[size_t(k - 1)].cwiseAbs().maxCoeff(), xn = x.cwiseAbs().maxCoeff(),
              x1 = x.cwiseAbs().sum();
      const T local =
          g * (wn + T(2) * alpha * (xn * (wn * x1 + abs_of(T(y(0, k - 1)))) + lambda * wn));
      acc = acc * (T(1) + T(2) * alpha * (x1 * xn + lambda)) + local;
      bound_w = T(2) * acc;
      return T(T(2) * acc * X.col(k).cwiseAbs().sum() +
               T(2) * g * wk.cwiseAbs().dot(X.col(k).cwiseAbs()));
    });
    const Mat<T> w_chain = h.block(R.w0(), 2 * k, cc.d, 1);
    ctx.compare<T>("w_k at token 2k vs SGD iterate", w_chain, Mat<T>(wk), bound_w);
    if constexpr (is_interval_scalar<T>)
      ctx.check_identity("prediction at token 2k vs w_k^T x_(k+1)", T(h(R.pred(), 2 * k)), pred);
    else
      ctx.check_le<T>("prediction at token 2k vs w_k^T x_(k+1)",
                      abs_of(T(h(R.pred(), 2 * k) - pred)), tol);
  }
}

// Theorem 2 in exact semantics: after stage k, token 2k holds w_k = A_k^-1 b_k and predicts
// w_k^T x_(k+1), equal to the ridge prediction on the first k examples. Tolerance as in
// references.iterated_sherman_morrison_equals_ridge (Cholesky forward error with kappa, k
// rank-one updates each gamma_(2d+3) kappa, products gamma_(k+d)), times |x_(k+1)|_1.
template <class T>
using chain_builder_fn2 =
    std::function<std::vector<raw::layer_spec<T>>(raw::Index, raw::Index, const T&)>;

template <class T>
void theorem2_exact_chain(case_context& ctx, const chain_builder_fn2<T>& chain) {
  // d in 1..4 and n in 1..4 stages under the small profile; --size raises d to the dimension
  // cap and n (8 or 10 layers per stage) to the depth cap (harness/size_profile.hpp).
  const chain_case cc =
      gen_chain_case(sized_max<T>(size_axis::dimension, 4), sized_max<T>(size_axis::depth, 4));
  note_chain(ctx, cc);
  const Mat<T> X = chain_X<T>(cc), y = chain_y<T>(cc);
  const T lambda = cc.lambda;
  const raw::sm_rows R{cc.d};
  const auto L = chain(cc.d, cc.n, lambda);
  Mat<T> h = raw::chain_input<T>(R.D(), X, y);
  for (int k = 1; k <= cc.n; ++k) {
    for (int l = 0; l < 10; ++l) h = raw::layer_exact(h, L[size_t(10 * (k - 1) + l)]);
    const Mat<T> Xk = X.leftCols(k), yk = y.leftCols(k);
    const Mat<T> W_ridge = ridge_closed_form<T>(Xk, yk, lambda);
    const Mat<T> w_chain = h.block(R.q0(), 2 * k, cc.d, 1);
    const T pred = (W_ridge * X.col(k))(0);
    if constexpr (is_interval_scalar<T>) {
      // On enclosures (MPFI, Arb balls) both sides are enclosures of the same exact value: the
      // checks are identities (the enclosure of the difference must contain 0), so the
      // floating-point tolerance below, which needs eigenvalues, plays no part. The ridge solve
      // on balls is Arb's certified arb_mat_solve (core/ball_linalg.hpp).
      ctx.check_identity("w_k at token 2k vs ridge", w_chain, Mat<T>(W_ridge.transpose()));
      ctx.check_identity("prediction at token 2k vs ridge prediction", T(h(R.pred(), 2 * k)), pred);
    } else {
      const T bound = tolerance<T>([&](auto tag) {
        using S = typename decltype(tag)::scalar;
        const Mat<S> A = matmul_nt(Xk, Xk) + lambda * Mat<S>::Identity(cc.d, cc.d);
        const S kappa = spd_condition_number(A);
        const S Ainv = S(1) / symmetric_eigenvalues(A)(0);
        const S XY = sqrt_of(S(Xk.squaredNorm())) * sqrt_of(S(yk.squaredNorm()));
        const S scale = std::max(sqrt_of(S(W_ridge.squaredNorm())), S(XY * Ainv));
        return S(S(2) * scale *
                 (cholesky_solve_relative_bound<S>(double(cc.d), kappa) +
                  S(k) * higham_gamma<S>(2.0 * cc.d + 3) * kappa +
                  S(2) * higham_gamma<S>(double(k + cc.d))));
      });
      ctx.compare<T>("w_k at token 2k vs ridge", w_chain, Mat<T>(W_ridge.transpose()), bound);
      const T pred_tol = tolerance<T>([&](auto) {
        return T(bound * X.col(k).cwiseAbs().sum() +
                 higham_gamma<T>(double(cc.d)) * abs_of(pred) * T(4));
      });
      ctx.check_le<T>("prediction at token 2k vs ridge prediction",
                      abs_of(T(h(R.pred(), 2 * k) - pred)), pred_tol);
    }
  }
}

// A chain realised through decoder layers: every layer's local error |f^(h^) - f(h^)| within
// its one-layer bound, and the final data rows within the propagated bound E_L of the exact
// chain (layer_bounds.hpp). Knobs balanced for the precision and the chain's largest value.
template <class T>
void realised_chain_within_bounds(case_context& ctx, const std::vector<raw::layer_spec<T>>& L,
                                  raw::Index D, const Mat<T>& data, gelu_form form,
                                  const layer_fn<T>& build) {
  const raw::Index Tn = data.cols();
  const Mat<T> ex = raw::run_exact(L, data);
  const T X = raw::exact_chain_max_abs(L, data) + T(1);
  const raw::raw_layout lay = raw::layout_for<T>(D, Tn, L);
  const auto kn = raw::balanced_knobs<T>(X, lay.H(), Tn, form);
  std::vector<raw::decoder_layer_weights<T>> W;
  for (const auto& l : L) W.push_back(build(lay, l, kn));
  const auto cr = raw::run_chain_with_bounds(lay, L, W, kn, data);
  // Every layer's B_l is proved in exact reals: a RAW layer's (raw_layer_bound:
  // AkyurekLayerAssembly.v with AkyurekRawLayerState.v) and a div layer's (div_layer_bound:
  // AkyurekDivLayerState.v); in floating point both add the first-order rounding model, a tolerance
  // named apart.
  for (size_t l = 0; l < L.size(); ++l)
    ctx.check_le_proved<T>(
        "layer " + std::to_string(l) + " (" + L[l].label + "): local error within one-layer bound",
        cr.local_errors[l], cr.local_bounds[l],
        L[l].div ? div_unit_lemma(form) : raw_unit_assembly_lemma(L[l].ops));
  const T err = max_abs(Mat<T>(cr.realised.topRows(D) - ex));
  ctx.note("final error", full_digits(err));
  ctx.check_le_proved<T>("realised chain vs exact chain (data rows) within the propagated bound",
                         err, cr.propagated_bound,
                         "proofs/AkyurekChainLipschitz.v:realised_chain_propagated_bound");
}

}  // namespace iclproof::akyurek_checks
