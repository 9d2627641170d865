// Unit, mutation and errata tests of Akyurek et al. 2023 (src/raw, properties/akyurek.*).
// Every akyurek.* property is shown to fail on a deliberately broken construction.
#include "akyurek.hpp"
#include "errata.hpp"

#include "core/precision.hpp"
#include "harness/runner.hpp"

#include "mutation_testing.hpp"

#include <catch2/catch.hpp>

using namespace iclproof;

namespace {
const mutation_runner akyurek_mutants{11};

template <class F>
verdict run_mutant(F body, int cases = 30) {
  return akyurek_mutants.run(body, cases).outcome;
}
}  // namespace

#ifndef ICLPROOF_MUTATION_RATIONAL
TEST_CASE("GeLU forms: erf form is x Phi(x), tanh form is the paper's eq. (36)", "[akyurek]") {
  scoped_mpfr_precision p(256);
  using T = mpfr_real;
  // Phi(1) = 0.841344746068542948585232545632...
  const T g1 = raw::gelu_erf(T(1));
  CHECK(abs_of(T(g1 - T("0.8413447460685429485852325456320379224779"))) < T(1e-39));
  CHECK(precision_of(g1) == 257);
  // No cancellation far out: g(-40) = -40 Phi(-40) ~ -40 * 3.655e-350.
  CHECK(raw::gelu_erf(T(-40)) < T(0));
  CHECK(raw::gelu_erf(T(-40)) > T("-1.5e-348"));
  // tanh form against its definition x/2 (1 + tanh(sqrt(2/pi)(x + 0.044715 x^3))).
  const T x("0.7");
  const T direct =
      x / T(2) * (T(1) + tanh(sqrt(T(2) / pi_value<T>()) * (x + T("0.044715") * x * x * x)));
  CHECK(abs_of(T(raw::gelu_tanh(x) - direct)) < T(1e-70));
}
#endif

#ifndef ICLPROOF_MUTATION_RATIONAL
TEST_CASE("GeLU multiplication property fails on a broken product", "[akyurek][mutation]") {
  scoped_mpfr_precision p(256);
  using T = mpfr_real;
  using akyurek_checks::gelu_product_within_bound;
  CHECK(run_mutant([](case_context& ctx) {
          gelu_product_within_bound<T>(ctx,
                                       [](raw::gelu_form f, const T& x, const T& y, const T& s) {
                                         return raw::gelu_product(f, x, y, s);
                                       });
        }) == verdict::pass);
  // Mutant: the constant sqrt(pi/2) replaced by 1.25 (0.3% off).
  CHECK(run_mutant([](case_context& ctx) {
          gelu_product_within_bound<T>(
              ctx, [](raw::gelu_form f, const T& x, const T& y, const T& s) {
                return raw::gelu_product(f, x, y, s) / sqrt(pi_value<T>() / T(2)) * T(1.25);
              });
        }) == verdict::fail);
}
#endif

#ifndef ICLPROOF_MUTATION_RATIONAL
TEST_CASE("GeLU multiplication order property fails on a third-order GeLU", "[akyurek][mutation]") {
  scoped_mpfr_precision p(256);
  using T = mpfr_real;
  using akyurek_checks::gelu_product_second_order;
  CHECK(run_mutant(
            [](case_context& ctx) {
              gelu_product_second_order<T>(
                  ctx, [](raw::gelu_form f, const T& x, const T& y, const T& s) {
                    return raw::gelu_product(f, x, y, s);
                  });
            },
            10) == verdict::pass);
  // Mutant: a GeLU with a cubic term z^3/100 (what the paper's O(x^3 + y^3) would allow):
  // the error is then O(1/s), slope -1.
  CHECK(run_mutant(
            [](case_context& ctx) {
              gelu_product_second_order<T>(
                  ctx, [](raw::gelu_form f, const T& x, const T& y, const T& s) {
                    auto g = [&](const T& z) { return raw::gelu(f, z) + z * z * z / T(100); };
                    const T c = s * s * sqrt(pi_value<T>() / T(2));
                    return c * (g((x + y) / s) - g(x / s) - g(y / s));
                  });
            },
            10) == verdict::fail);
}
#endif

// ------------------------------------------------------------------ mutation tests (all
// properties)
namespace {
using T256 = mpfr_real;
template <class T>
raw::decoder_layer_weights<T> perturbed_layer(const raw::raw_layout& lay,
                                              const raw::layer_spec<T>& l,
                                              const raw::raw_knobs<T>& kn) {
  auto w = raw::build_layer(lay, l, kn);
  // Mutant: the GeLU-bypass offsets in the output bias off by a relative 2^-60.
  w.b_out *= T(1) + T(std::ldexp(1.0, -60));
  return w;
}
}  // namespace

#ifndef ICLPROOF_MUTATION_RATIONAL
TEST_CASE("GeLU bypass property fails on an identity 'GeLU' and on a shifted GeLU",
          "[akyurek][mutation]") {
  scoped_mpfr_precision p(256);
  using T = T256;
  using akyurek_checks::gelu_bypass_two_sided;
  CHECK(run_mutant([](case_context& ctx) {
          gelu_bypass_two_sided<T>(ctx,
                                   [](raw::gelu_form f, const T& t) { return raw::gelu(f, t); });
        }) == verdict::pass);
  // g(t) = t: the error is 0, below the proven LOWER bound (the check has teeth both ways).
  CHECK(run_mutant([](case_context& ctx) {
          gelu_bypass_two_sided<T>(ctx, [](raw::gelu_form, const T& t) { return t; });
        }) == verdict::fail);
  CHECK(run_mutant([](case_context& ctx) {
          gelu_bypass_two_sided<T>(
              ctx, [](raw::gelu_form f, const T& t) { return raw::gelu(f, T(t - T(1e-30))); });
        }) == verdict::fail);
}
#endif

#ifndef ICLPROOF_MUTATION_RATIONAL
TEST_CASE("LayerNorm properties fail on an unbiased-variance LayerNorm", "[akyurek][mutation]") {
  scoped_mpfr_precision p(256);
  using T = T256;
  using namespace akyurek_checks;
  auto unbiased = [](const Vec<T>& v, const T& e) {
    const T L = T(v.size());
    return Vec<T>(plain_layer_norm<T>(v, T(e * (L - 1) / L)) * sqrt_of(T((L - 1) / L)));
  };
  auto good = [](const Vec<T>& v, const T& e) { return plain_layer_norm<T>(v, e); };
  CHECK(run_mutant([&](case_context& ctx) {
          layernorm_division_closed_form<T>(ctx, good, true);
        }) == verdict::pass);
  CHECK(run_mutant([&](case_context& ctx) {
          layernorm_division_closed_form<T>(ctx, unbiased, true);
        }) == verdict::fail);
  CHECK(run_mutant([&](case_context& ctx) {
          layernorm_division_closed_form<T>(ctx, good, false);
        }) == verdict::pass);
  CHECK(run_mutant([&](case_context& ctx) {
          layernorm_division_closed_form<T>(ctx, unbiased, false);
        }) == verdict::fail);
  CHECK(run_mutant([&](case_context& ctx) { layernorm_division_first_order<T>(ctx, good); }) ==
        verdict::pass);
  CHECK(run_mutant([&](case_context& ctx) { layernorm_division_first_order<T>(ctx, unbiased); }) ==
        verdict::fail);
  // LayerNorm that ignores its eps: caught whenever a case draws eps = 1e-5.
  auto no_eps = [](const Vec<T>& v, const T&) { return plain_layer_norm<T>(v, T(0)); };
  CHECK(run_mutant([&](case_context& ctx) {
          layernorm_division_closed_form<T>(ctx, no_eps, false);
        }) == verdict::fail);
}
#endif

#ifndef ICLPROOF_MUTATION_RATIONAL
TEST_CASE("hard-attention property fails on a mis-scaled logit gap", "[akyurek][mutation]") {
  scoped_mpfr_precision p(256);
  using T = T256;
  using akyurek_checks::hard_attention_identity;
  CHECK(run_mutant([](case_context& ctx) {
          hard_attention_identity<T>(ctx, [](const raw::attention_head<T>& hd, const Mat<T>& h) {
            return raw::attention_head_forward(hd, h, false);
          });
        }) == verdict::pass);
  CHECK(run_mutant([](case_context& ctx) {
          hard_attention_identity<T>(ctx, [](const raw::attention_head<T>& hd, const Mat<T>& h) {
            raw::attention_head<T> m = hd;
            m.Wq *= T("0.99");
            return raw::attention_head_forward(m, h, false);
          });
        }) == verdict::fail);
  // The null slot (attend to nothing) also changes the output: caught.
  CHECK(run_mutant([](case_context& ctx) {
          hard_attention_identity<T>(ctx, [](const raw::attention_head<T>& hd, const Mat<T>& h) {
            return raw::attention_head_forward(hd, h, true);
          });
        }) == verdict::fail);
}
#endif

#ifndef ICLPROOF_MUTATION_RATIONAL
TEST_CASE("RAW and div layer properties fail on perturbed weights", "[akyurek][mutation]") {
  scoped_mpfr_precision p(256);
  using T = T256;
  using namespace akyurek_checks;
  auto good = [](const raw::raw_layout& lay, const raw::layer_spec<T>& l,
                 const raw::raw_knobs<T>& kn) { return raw::build_layer(lay, l, kn); };
  auto bad = [](const raw::raw_layout& lay, const raw::layer_spec<T>& l,
                const raw::raw_knobs<T>& kn) { return perturbed_layer<T>(lay, l, kn); };
  CHECK(run_mutant([&](case_context& ctx) { raw_layer_within_bound<T>(ctx, good); }) ==
        verdict::pass);
  CHECK(run_mutant([&](case_context& ctx) { raw_layer_within_bound<T>(ctx, bad); }) ==
        verdict::fail);
  // Mutant: the product units' output weight uses sqrt(2/pi) instead of sqrt(pi/2).
  auto bad_product = [](const raw::raw_layout& lay, const raw::layer_spec<T>& l,
                        const raw::raw_knobs<T>& kn) {
    auto w = raw::build_layer(lay, l, kn);
    const T big = kn.mul_downscale * kn.mul_downscale / T(4);
    for (Eigen::Index i = 0; i < w.W_out.rows(); ++i)
      for (Eigen::Index j = 0; j < w.W_out.cols(); ++j)
        if (abs_of(T(w.W_out(i, j))) > big) w.W_out(i, j) *= T(2) / pi_value<T>();
    return w;
  };
  CHECK(run_mutant([&](case_context& ctx) { raw_layer_within_bound<T>(ctx, bad_product); }) ==
        verdict::fail);
  CHECK(run_mutant([&](case_context& ctx) { div_layer_within_bound<T>(ctx, good); }) ==
        verdict::pass);
  CHECK(run_mutant([&](case_context& ctx) { div_layer_within_bound<T>(ctx, bad); }) ==
        verdict::fail);
}
#endif

TEST_CASE("exact-chain properties fail on the paper's printed chains",
          "[akyurek][mutation][errata]") {
  scoped_mpfr_precision p(256);
  using T = mutation_scalar;
  using namespace akyurek_checks;
  CHECK(run_mutant([](case_context& ctx) {
          theorem1_exact_chain<T>(
              ctx, [](raw::Index d, raw::Index n, const Vec<T>& w0, const T& a, const T& l) {
                return raw::theorem1_chain<T>(d, n, w0, a, l);
              });
        }) == verdict::pass);
  // Appendix A as printed: "x (w^T x - y) - lambda w" (W2 = -lambda).
  CHECK(run_mutant([](case_context& ctx) {
          theorem1_exact_chain<T>(
              ctx, [](raw::Index d, raw::Index n, const Vec<T>& w0, const T& a, const T& l) {
                return raw::theorem1_chain<T>(d, n, w0, a, T(-l));
              });
        }) == verdict::fail);
  CHECK(run_mutant([](case_context& ctx) {
          theorem2_exact_chain<T>(ctx, [](raw::Index d, raw::Index n, const T& l) {
            return raw::theorem2_chain<T>(d, n, l);
          });
        }) == verdict::pass);
  // Appendix B as printed: b = x_k y_k (A^-1 x_1 y_1), no accumulation over examples.
  CHECK(run_mutant([](case_context& ctx) {
          theorem2_exact_chain<T>(ctx, [](raw::Index d, raw::Index n, const T& l) {
            auto L = raw::theorem2_chain<T>(d, n, l);
            const raw::sm_rows R{d};
            for (auto& layer : L)
              for (auto& op : layer.ops)
                if (!op.w.empty() && op.w[0] == R.b0() && !op.r.empty() && op.r[0] == R.xy0())
                  op.W.setZero();  // b <- 0 * b + x y
            return L;
          });
        }) == verdict::fail);
}

#ifndef ICLPROOF_MUTATION_RATIONAL
TEST_CASE("realised-chain properties fail on perturbed weights", "[akyurek][mutation]") {
  scoped_mpfr_precision p(256);
  using T = T256;
  using namespace akyurek_checks;
  for (int which = 1; which <= 2; ++which) {
    auto run = [which](bool broken) {
      return run_mutant(
          [which, broken](case_context& ctx) {
            const chain_case cc = gen_chain_case(2, 2);
            const gelu_form form = gen_form();
            auto build = [broken](const raw::raw_layout& lay, const raw::layer_spec<T>& l,
                                  const raw::raw_knobs<T>& kn) {
              return broken ? perturbed_layer<T>(lay, l, kn) : raw::build_layer(lay, l, kn);
            };
            if (which == 1) {
              Vec<T> w0(cc.d);
              for (int r = 0; r < cc.d; ++r) w0(r) = cc.w0[size_t(r)];
              const raw::sgd_rows R{cc.d};
              realised_chain_within_bounds<T>(
                  ctx, raw::theorem1_chain<T>(cc.d, cc.n, w0, T(cc.alpha), T(cc.lambda)), R.D(),
                  raw::chain_input<T>(R.D(), chain_X<T>(cc), chain_y<T>(cc)), form, build);
            } else {
              const raw::sm_rows R{cc.d};
              realised_chain_within_bounds<T>(
                  ctx, raw::theorem2_chain<T>(cc.d, cc.n, T(cc.lambda)), R.D(),
                  raw::chain_input<T>(R.D(), chain_X<T>(cc), chain_y<T>(cc)), form, build);
            }
          },
          10);
    };
    INFO("theorem " << which);
    CHECK(run(false) == verdict::pass);
    CHECK(run(true) == verdict::fail);
  }
}
#endif

// ------------------------------------------------------------------------------- errata (findings)

#ifndef ICLPROOF_MUTATION_RATIONAL
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
#endif

#ifndef ICLPROOF_MUTATION_RATIONAL
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
#endif

#ifndef ICLPROOF_MUTATION_RATIONAL
TEST_CASE("Erratum Lemma 6: the LayerNorm bypass returns N in the second entry, not 2N",
          "[akyurek][errata]") {
  scoped_mpfr_precision p(256);
  using T = mpfr_real;
  const auto n = errata::measure_lemma6_bypass_second_entry();
  CAPTURE(to_double(n.second_over_n));
  CHECK(abs_of(T(n.second_over_n - T(1))) < T(1e-12));       // measured: 1 + 9e-14 (= -S/(2N))
  CHECK(abs_of(T(n.second_over_2n - T("0.5"))) < T(1e-12));  // the paper's 2N is off by 2x
}
#endif

#ifndef ICLPROOF_MUTATION_RATIONAL
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
#endif

#ifndef ICLPROOF_MUTATION_RATIONAL
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
#endif

#ifndef ICLPROOF_MUTATION_RATIONAL
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
#endif

#ifndef ICLPROOF_MUTATION_RATIONAL
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
#endif

// ---------------------------------------------------------- the double-precision demonstration

namespace {
template <class T>
T theorem2_prediction_error(const raw::raw_knobs<T>& kn, bool& finite) {
  const int d = 2, n = 2;
  data_rng rng(17);
  const Mat<T> X = from_double<T>(rng.normal_matrix(d, n + 1)),
               y = from_double<T>(rng.normal_matrix(1, n));
  const T lambda(1);
  const raw::sm_rows R{d};
  const auto L = raw::theorem2_chain<T>(d, n, lambda);
  const raw::raw_layout lay = raw::layout_for<T>(R.D(), 2 * n + 1, L);
  const auto W = raw::build_chain(lay, L, kn);
  const Mat<T> out =
      raw::decoder_stack_forward(W, raw::embed_state(lay, raw::chain_input<T>(R.D(), X, y), kn));
  const T ridge = (ridge_closed_form<T>(X.leftCols(n), y, lambda) * X.col(n))(0);
  const T e = out(R.pred(), 2 * n) - ridge;
  finite = is_finite(e);
  return abs_of(e);
}
template <class T>
raw::raw_knobs<T> theorem2_knobs() {
  const int d = 2, n = 2;
  const raw::sm_rows R{d};
  const auto L = raw::theorem2_chain<T>(d, n, T(1));
  const raw::raw_layout lay = raw::layout_for<T>(R.D(), 2 * n + 1, L);
  return raw::balanced_knobs<T>(T(16), lay.H(), lay.tokens);
}
template <class T>
raw::raw_knobs<T> knobs_from_mpfr(const raw::raw_knobs<mpfr_real>& k) {
  return {T(to_double(k.attention_scale)),
          T(to_double(k.gelu_bypass)),
          T(to_double(k.mul_downscale)),
          T(to_double(k.ln_pad)),
          T(to_double(k.div_N)),
          T(to_double(k.div_M)),
          T(0),
          k.form};
}
}  // namespace

// The Theorem 2 chain (d = 2, two Sherman-Morrison updates, 20 layers) through real decoder
// layers, against the ridge prediction. Its knobs trade approximation (1/s^2, 1/Nln^2, S/(NcM))
// for cancellation: the product units compute s^2 (g(.) - g(.) - g(.)) from LayerNorm-recovered
// inputs that carry eps Nln absolute rounding, so the error floor is ~ eps s Nln + 1/s^2 +
// 1/Nln^2, minimised at s ~ Nln ~ eps^(-1/4): ~ eps^(1/2). At 512 bits that is ~1e-77; in double
// ~1e-8 at best, and with the 512-bit knobs (s, Nln ~ 2^128) double computes garbage.
#ifndef ICLPROOF_MUTATION_RATIONAL
TEST_CASE("Theorem 2 chain: below 1e-30 at 512 bits, visibly failing in double (cancellation)",
          "[akyurek][double]") {
  bool finite = false;
  raw::raw_knobs<mpfr_real> k512;
  {
    scoped_mpfr_precision p(512);
    k512 = theorem2_knobs<mpfr_real>();
    const mpfr_real e = theorem2_prediction_error<mpfr_real>(k512, finite);
    const double log10_e512 = log2_abs(e) * 0.30103;
    CAPTURE(log10_e512);
    CHECK(finite);
    CHECK(e < mpfr_real(1e-30));  // measured: ~1e-74
    {
      scoped_mpfr_precision q(256);
      const mpfr_real e256 =
          theorem2_prediction_error<mpfr_real>(theorem2_knobs<mpfr_real>(), finite);
      const double log10_e256 = log2_abs(e256) * 0.30103;
      CAPTURE(log10_e256);
      CHECK(e256 < mpfr_real(1e-30));  // measured: ~1e-36
    }
  }
  // Double with the knobs that work at 512 bits: the cancellation s * Nln * eps ~ 2^204 wins.
  const double e_big = theorem2_prediction_error<double>(knobs_from_mpfr<double>(k512), finite);
  CAPTURE(e_big, finite);
  CHECK((!finite || e_big > 1e-2));
  // Double with knobs balanced for double: the best double can do, far from 1e-30.
  const double e_bal = theorem2_prediction_error<double>(theorem2_knobs<double>(), finite);
  CAPTURE(e_bal);
  CHECK(finite);
  CHECK(e_bal > 1e-12);  // measured: ~1e-6 (the eps^(1/2) floor times the data scale)
  CHECK(e_bal < 1e-2);
}
#endif

#ifdef ICLPROOF_MUTATION_RATIONAL
TEST_CASE("squared LayerNorm properties fail on an unbiased-variance LayerNorm and without eps",
          "[akyurek][mutation]") {
  using T = mutation_scalar;
  using namespace akyurek_checks;
  auto good = [](const Vec<T>& v, const T& e) { return raw::layer_norm_squared<T>(v, e); };
  // var * L / (L - 1) instead of var: lambda^2 = c^2 / (var L/(L-1) + eps).
  auto unbiased = [](const Vec<T>& v, const T& e) {
    const T L = T(v.size());
    const raw::layer_norm_moments<T> m = raw::layer_norm_centre(v);
    Vec<T> out(v.size());
    for (Eigen::Index j = 0; j < v.size(); ++j)
      out(j) = m.centred(j) * m.centred(j) / T(m.var * L / (L - T(1)) + e);
    return out;
  };
  auto no_eps = [](const Vec<T>& v, const T&) { return raw::layer_norm_squared<T>(v, T(0)); };
  for (const bool bypass : {true, false}) {
    CHECK(run_mutant([&](case_context& ctx) {
            layernorm_division_closed_form_squared<T>(ctx, good, bypass);
          }) == verdict::pass);
    CHECK(run_mutant([&](case_context& ctx) {
            layernorm_division_closed_form_squared<T>(ctx, unbiased, bypass);
          }) == verdict::fail);
    CHECK(run_mutant([&](case_context& ctx) {
            layernorm_division_closed_form_squared<T>(ctx, no_eps, bypass);
          }) == verdict::fail);
  }
}
#endif
