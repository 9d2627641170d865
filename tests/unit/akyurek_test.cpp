// Unit and mutation tests of Akyurek et al. 2023 (src/raw, properties/akyurek.*): the GeLU forms,
// and every akyurek.* property shown to fail on a deliberately broken construction. The bounds'
// sharpness and the errata are in akyurek_errata_test.cpp, the double-precision demonstration of
// Theorem 2 in akyurek_double_precision_test.cpp.
#include "akyurek.hpp"

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
