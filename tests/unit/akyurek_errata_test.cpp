// Akyurek et al. 2023 (src/raw, properties/akyurek.*, properties/errata.hpp): the C++ forms of
// the layer bounds proved in AkyurekBounds.v / AkyurekLayerBounds.v hold and are sharp, and the
// errata and findings of the paper, each shown on the construction.
#include "akyurek.hpp"
#include "errata.hpp"

#include "core/precision.hpp"
#include "harness/runner.hpp"

#include <catch2/catch.hpp>

using namespace iclproof;

TEST_CASE("LayerNorm bounds: the C++ formulas of AkyurekBounds.v hold and are sharp as delta -> 0",
          "[akyurek]") {
  // layernorm_bypass_deviation:   |1 - (1+delta)^(-1/2)|  <= d / (2 (1-d)^(3/2)),  |delta| <= d
  // layernorm_division_remainder: |(1+delta)^(-1/2) - (1 - delta/2)|
  //                                 <= (3/8) delta^2 / ((1-|delta|)^2 sqrt(1-|delta|))
  // Both are exact to leading order (delta/2 and 3 delta^2/8): the ratios bound/true tend to 1,
  // like 1 + (9/4)|delta| and 1 + (10/3)|delta| (expansions of delta/(s(s+1)) and
  // delta^2 (s+2)/(2 s (s+1)^2), s = sqrt(1+delta)); a mis-scaled formula fails the ratio check.
  // At 256 bits the true values carry relative error ~1e-77 even at delta = 1e-20.
  scoped_mpfr_precision p(256);
  using T = mpfr_real;
  for (const char* mag : {"0.49", "0.3", "0.1", "1e-2", "1e-5", "1e-20"}) {
    for (const int sign : {1, -1}) {
      const T delta = T(sign) * T(mag), ad = abs_of(delta);
      const T s = sqrt_of(T(T(1) + delta));
      const T dev = abs_of(T(T(1) - T(1) / s));
      const T rem = abs_of(T(T(1) / s - (T(1) - delta / T(2))));
      const T b1 = raw::inv_sqrt_deviation(ad), b2 = raw::inv_sqrt_second_order_remainder(delta);
      CAPTURE(to_double(delta), to_double(dev), to_double(b1), to_double(rem), to_double(b2));
      CHECK(dev <= b1);
      CHECK(rem <= b2);
      if (ad <= T("1e-2")) {
        CHECK(b1 / dev <= T(1) + T(3) * ad);
        CHECK(b2 / rem <= T(1) + T(4) * ad);
      }
    }
  }
  CHECK_THROWS(raw::inv_sqrt_deviation(T("0.5")));
  CHECK_THROWS(raw::inv_sqrt_second_order_remainder(T(-1)));
}

TEST_CASE(
    "tanh GeLU bypass: the bounds of AkyurekBounds.v / AkyurekLayerBounds.v hold and are sharp",
    "[akyurek]") {
  // gelu_tanh_bypass_exponential: |g(t) - t| <= t e^(-2u), sharp as t -> inf (ratio 1 + e^(-2u)).
  // gelu_tanh_bypass_lower: |g(t) - t| >= t e^(-2u) / 2, sharp as t -> 0 (ratio -> 1).
  // gelu_tanh_bypass_bound_decreasing: t e^(-2u(t)) decreases on [1, inf) and increases near 0,
  // so the t >= 1 guard of gelu_bypass_bound is needed.  Exact values at 256 bits, where
  // |g(t) - t| = t / (1 + e^(2u)) is computed without cancellation.
  scoped_mpfr_precision p(256);
  using T = mpfr_real;
  const auto f = raw::gelu_form::tanh;
  const auto u = [](const T& t) {
    return sqrt_of(T(T(2) / pi_value<T>())) * (t + T("0.044715") * t * t * t);
  };
  T previous(-1);
  for (const char* ts : {"1", "1.25", "1.5", "2", "3", "4", "6", "8"}) {
    const T t(ts);
    const T err = abs_of(T(raw::gelu(f, t) - t));
    const T exact = t / (T(1) + raw::exp_value(T(T(2) * u(t))));
    const T upper = raw::gelu_bypass_bound(f, t), lower = raw::gelu_bypass_lower_bound(f, t);
    CAPTURE(ts, to_double(err), to_double(lower), to_double(upper));
    // raw::gelu at 256 bits: a handful of roundings on quantities of size t (first-order model)
    CHECK(abs_of(T(err - exact)) <= T(64) * t * eps<T>());
    CHECK(lower <= exact);
    CHECK(exact <= upper);
    CHECK(upper / exact <= T(1) + T(1.0001) * raw::exp_value(T(-T(2) * u(t))));  // sharp as t grows
    if (previous > T(0)) CHECK(upper < previous);                                // decreasing
    previous = upper;
  }
  // The lower bound's ratio tends to 1 as t -> 0 (no guard on the formula itself there).
  for (const char* ts : {"1e-3", "1e-6"}) {
    const T t(ts);
    const T e2u = raw::exp_value(T(-T(2) * u(t)));
    const T exact = t / (T(1) + raw::exp_value(T(T(2) * u(t))));
    CAPTURE(ts);
    CHECK(t * e2u / T(2) <= exact);
    CHECK(exact / (t * e2u / T(2)) <= T(1) + T(2) * u(t));
  }
  // Near 0 the function t e^(-2u(t)) increases: evaluating it at the smallest t would not bound
  // the error at larger t, which is why gelu_bypass_bound refuses t < 1 for the tanh form.
  const auto h = [&](const char* ts) {
    const T t(ts);
    return t * raw::exp_value(T(-T(2) * u(t)));
  };
  CHECK(h("0.3") < h("0.5"));
  CHECK_THROWS_AS(raw::gelu_bypass_bound(f, T("0.99")), std::domain_error);
  CHECK_NOTHROW(raw::gelu_bypass_bound(raw::gelu_form::erf, T("0.5")));
}

TEST_CASE("hard attention: hard_attention_bound (AkyurekLayerBounds.v) holds and is sharp",
          "[akyurek]") {
  // hard_attention_deviation: softmax with logit Natt on a >= 1 targets and 0 on b others, values
  // of modulus <= V: |output - mean of targets| <= 2 b e^-Natt V.  Attained up to the factor
  // 1/(a + b e^-Natt) by targets at +V and others at -V; with a = 1 the ratio is 1 + b e^-Natt.
  scoped_mpfr_precision p(256);
  using T = mpfr_real;
  for (const int a : {1, 2, 3}) {
    for (const int b : {1, 2, 5}) {
      for (const int N : {2, 6, 12, 30}) {
        const T Natt(N), V("1.5"), E = raw::exp_value(T(-Natt)), eN = raw::exp_value(Natt);
        // softmax output, straight from its definition, for values +V (targets), -V (others)
        const T out = (T(a) * eN * V + T(b) * -V) / (T(a) * eN + T(b));
        const T dev = abs_of(T(out - V));
        const T bound = raw::hard_attention_bound(Natt, long(b), V);
        CAPTURE(a, b, N, to_double(dev), to_double(bound));
        CHECK(dev <= bound);
        CHECK(abs_of(T(dev - T(2) * T(b) * E * V / (T(a) + T(b) * E))) <= bound * T("1e-60"));
        if (a == 1) CHECK(bound / dev <= T(1) + T(b) * E * T(1.0001));
      }
    }
  }
}

// The errata's computations live in the product (properties/errata.cpp, measured in every
// report run); these tests check their numbers at 256 bits.

TEST_CASE("Erratum Lemma 4: the GeLU-multiplication error is fourth order in the inputs, not third",
          "[akyurek][errata]") {
  scoped_mpfr_precision p(256);
  using T = mpfr_real;
  // err(t) for x = 0.6 t, y = -0.4 t at s = 1: the paper's O(x^3 + y^3) predicts order 3 in t;
  // in s (x = 0.6, y = -0.4) slope -2, where O(x^3 + y^3) read at inputs x/s predicts -1.
  const auto n = errata::measure_lemma4_gelu_product_order();
  CAPTURE(n.order_in_inputs_erf, n.order_in_inputs_tanh, n.slope_in_s_erf, n.slope_in_s_tanh);
  CHECK(std::abs(n.order_in_inputs_erf - 4.0) < 1e-3);  // measured: 4.0000 (both forms)
  CHECK(std::abs(n.order_in_inputs_tanh - 4.0) < 1e-3);
  CHECK(std::abs(n.slope_in_s_erf + 2.0) < 1e-2);
  CHECK(std::abs(n.slope_in_s_tanh + 2.0) < 1e-2);
  // The erf form's leading term -x y (2x^2 + 3xy + 2y^2) / (6 s^2) (CONSTRUCTIONS.md section 5).
  CAPTURE(to_double(n.leading_term_ratio));
  CHECK(abs_of(T(n.leading_term_ratio - T(1))) < T(1e-7));  // measured ratio 1 - O(x^2) ~ 1 - 4e-10
}

TEST_CASE("Erratum Lemma 5: the proof drops x, g(N + x) - N - x = -(N + x)(1 - Phi(N + x))",
          "[akyurek][errata]") {
  scoped_mpfr_precision p(256);
  using T = mpfr_real;
  const auto n = errata::measure_lemma5_bypass_keeps_x();
  CAPTURE(to_double(n.eq41_error), to_double(n.identity_residual), to_double(n.tail));
  CHECK(abs_of(T(n.eq41_error - n.x)) < T(1e-20));  // eq 41 misses exactly x, up to the tails
  CHECK(n.identity_residual < T(1e-70));
  CHECK(n.tail > T(1e-26));  // exponentially small but not zero: 10.5 (1 - Phi(10.5)) ~ 5e-25
  CHECK(n.tail < T(1e-23));
}

TEST_CASE("Erratum Lemma 6: the LayerNorm bypass returns N in the second entry, not 2N",
          "[akyurek][errata]") {
  scoped_mpfr_precision p(256);
  using T = mpfr_real;
  const auto n = errata::measure_lemma6_bypass_second_entry();
  CAPTURE(to_double(n.second_over_n));
  CHECK(abs_of(T(n.second_over_n - T(1))) < T(1e-12));       // measured: 1 + 9e-14 (= -S/(2N))
  CHECK(abs_of(T(n.second_over_2n - T("0.5"))) < T(1e-12));  // the paper's 2N is off by 2x
}

TEST_CASE("Erratum Appendix A: the ridge SGD step is w - 2 alpha (x (w^T x - y) + lambda w)",
          "[akyurek][errata]") {
  scoped_mpfr_precision p(256);
  using T = mpfr_real;
  const auto n = errata::measure_appendix_a_ridge_step();
  CAPTURE(to_double(n.error_corrected), to_double(n.error_printed),
          to_double(n.error_printed_2lambda));
  CHECK(n.error_corrected < T(1e-40));
  // 4 alpha lambda |w|_inf = 0.375
  CHECK(abs_of(T(n.error_printed - T(4) * T("0.125") * T("0.5") * T("1.5"))) < T(1e-40));
  CHECK(n.error_printed_2lambda > T("0.5"));  // 6 alpha lambda |w|_inf = 0.5625
}

TEST_CASE(
    "Finding Appendix B: the printed chain keeps only b = x_n y_n, ridge needs b = sum x_i y_i",
    "[akyurek][errata]") {
  scoped_mpfr_precision p(256);
  using T = mpfr_real;
  const int d = 2, n = 3;
  data_rng rng(5);
  const Mat<T> X = from_double<T>(rng.normal_matrix(d, n + 1)),
               y = from_double<T>(rng.normal_matrix(1, n));
  const T lambda("0.5");
  const raw::sm_rows R{d};
  auto L = raw::theorem2_chain<T>(d, n, lambda);
  const Mat<T> h = raw::run_exact(L, raw::chain_input<T>(R.D(), X, y));
  for (auto& layer : L)
    for (auto& op : layer.ops)
      if (!op.w.empty() && op.w[0] == R.b0() && !op.r.empty() && op.r[0] == R.xy0()) op.W.setZero();
  const Mat<T> hp = raw::run_exact(L, raw::chain_input<T>(R.D(), X, y));
  const T ridge = (ridge_closed_form<T>(X.leftCols(n), y, lambda) * X.col(n))(0);
  const T e_corrected = abs_of(T(h(R.pred(), 2 * n) - ridge));
  const T e_printed = abs_of(T(hp(R.pred(), 2 * n) - ridge));
  const double log10_corrected = log2_abs(e_corrected) * 0.30103;
  CAPTURE(log10_corrected, to_double(e_printed));
  CHECK(e_corrected < T(1e-70));
  CHECK(e_printed > T(1e-3));
}

TEST_CASE("Finding C.6: LayerNorm division needs the mean of the rest of the hidden state removed",
          "[akyurek][errata]") {
  scoped_mpfr_precision p(256);
  using T = mpfr_real;
  // The LayerNorm sees the whole hidden vector: here 5 other rows (data, positions) beside the
  // division entries [N c, y/M, -N c - S/M]. Reading lambda(v)_y directly (C.6) is off by
  // ~ M mean(rest) / |c|: first order in M. Subtracting the mean of the division entries'
  // LayerNorm outputs (what build_div_layer does) removes it.
  const T N = std::ldexp(1.0, 30), M = std::ldexp(1.0, 20), c("1.5");
  Vec<T> v = Vec<T>::Zero(10);
  v << T("0.4"), T("1"), T("0"), T("-0.3"), T("1"), N * c, T("0.5") / M, T("-0.25") / M,
      T(-N * c - T("0.25") / M), 0;
  const Vec<T> u = akyurek_checks::plain_layer_norm<T>(v, T(0));
  const T Kd = sqrt_of(T(T(2) / T(10))) * M * N;
  const T want = T("0.5") / c;
  const T paper = Kd * u(6);
  const T mean_ds = (u(5) + u(6) + u(7) + u(8)) / T(4);
  const T corrected = Kd * (u(6) - mean_ds);
  const double log10_corrected = log2_abs(T(corrected - want)) * 0.30103;
  CAPTURE(to_double(paper - want), log10_corrected);
  CHECK(abs_of(T(paper - want)) > T(1e4));       // measured ~ -1.47e5 = -M mean(rest)/|c|
  CHECK(abs_of(T(corrected - want)) < T(1e-6));  // ~ S/(2NcM) relative: 5.6e-14
}

TEST_CASE("Finding C.4: Lemma 6's bypass is first order in S/N, the two-pad bypass second order",
          "[akyurek][errata]") {
  scoped_mpfr_precision p(256);
  using T = mpfr_real;
  const T N = std::ldexp(1.0, 20);
  const T x0("0.5"), x1("0.25"), x2("-0.125");
  const T S = x0 + x1 + x2;
  Vec<T> lemma6 = Vec<T>::Zero(8), pads = Vec<T>::Zero(8);
  lemma6 << x0, x1, x2, N, T(-N - S), 0, 0, 0;
  pads << x0, x1, x2, N, -N, 0, 0, 0;
  const T K = sqrt_of(T(T(2) / T(8))) * N;
  const Vec<T> u6 = akyurek_checks::plain_layer_norm<T>(lemma6, T(0));
  const Vec<T> up = akyurek_checks::plain_layer_norm<T>(pads, T(0));
  const T rel6 = (K * u6(0) - x0) / x0;
  const T relp = (K * (up(0) - (up(3) + up(4)) / T(2)) - x0) / x0;
  const double log10_relp = log2_abs(relp) * 0.30103;
  CAPTURE(to_double(rel6), log10_relp);
  CHECK(abs_of(T(rel6 + S / (T(2) * N))) < T(1e-12));  // -S/(2N) = -2.98e-7
  CHECK(abs_of(relp) < T(1e-12));                      // (|x|^2 - S^2/L)/(4N^2) = 6.3e-14
}
