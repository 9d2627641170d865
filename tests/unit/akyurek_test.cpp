// Unit, mutation and errata tests of Akyurek et al. 2023 (src/raw, properties/akyurek.*).
// Every akyurek.* property is shown to fail on a deliberately broken construction.
#include "akyurek.hpp"

#include "core/precision.hpp"
#include "harness/runner.hpp"

#include <catch2/catch.hpp>

using namespace iclproof;

namespace {
run_config akyurek_mutation_config(int cases = 30) {
  run_config cfg;
  cfg.scalar = scalar_kind::mpfr;
  cfg.cases = cases;
  cfg.seed = 11;
  return cfg;
}
const property_info akyurek_mutant{"mutant", "a deliberately broken construction", "none"};

template <class F> verdict run_mutant(F body, int cases = 30) {
  const auto r = run_body(akyurek_mutant, body, akyurek_mutation_config(cases));
  return r.outcome;
}
}  // namespace

TEST_CASE("GeLU forms: erf form is x Phi(x), tanh form is the paper's eq. (36)", "[akyurek]") {
  scoped_mpfr_precision p(256);
  using T = mpfr_real;
  // Phi(1) = 0.841344746068542948585232545632...
  const T g1 = raw::gelu_erf(T(1));
  CHECK(raw::abs_of(T(g1 - T("0.8413447460685429485852325456320379224779"))) < T(1e-39));
  CHECK(precision_of(g1) == 257);
  // No cancellation far out: g(-40) = -40 Phi(-40) ~ -40 * 3.655e-350.
  CHECK(raw::gelu_erf(T(-40)) < T(0));
  CHECK(raw::gelu_erf(T(-40)) > T("-1.5e-348"));
  // tanh form against its definition x/2 (1 + tanh(sqrt(2/pi)(x + 0.044715 x^3))).
  const T x("0.7");
  const T direct = x / T(2) * (T(1) + tanh(sqrt(T(2) / pi_value<T>()) * (x + T("0.044715") * x * x * x)));
  CHECK(raw::abs_of(T(raw::gelu_tanh(x) - direct)) < T(1e-70));
}

TEST_CASE("GeLU multiplication property fails on a broken product", "[akyurek][mutation]") {
  scoped_mpfr_precision p(256);
  using T = mpfr_real;
  using akyurek_checks::gelu_product_within_bound;
  CHECK(run_mutant([](case_context& ctx) {
          gelu_product_within_bound<T>(ctx, [](raw::gelu_form f, const T& x, const T& y, const T& s) {
            return raw::gelu_product(f, x, y, s);
          });
        }) == verdict::pass);
  // Mutant: the constant sqrt(pi/2) replaced by 1.25 (0.3% off).
  CHECK(run_mutant([](case_context& ctx) {
          gelu_product_within_bound<T>(ctx, [](raw::gelu_form f, const T& x, const T& y, const T& s) {
            return raw::gelu_product(f, x, y, s) / sqrt(pi_value<T>() / T(2)) * T(1.25);
          });
        }) == verdict::fail);
}

TEST_CASE("GeLU multiplication order property fails on a third-order GeLU", "[akyurek][mutation]") {
  scoped_mpfr_precision p(256);
  using T = mpfr_real;
  using akyurek_checks::gelu_product_second_order;
  CHECK(run_mutant([](case_context& ctx) {
          gelu_product_second_order<T>(ctx, [](raw::gelu_form f, const T& x, const T& y, const T& s) {
            return raw::gelu_product(f, x, y, s);
          });
        }, 10) == verdict::pass);
  // Mutant: a GeLU with a cubic term z^3/100 (what the paper's O(x^3 + y^3) would allow):
  // the error is then O(1/s), slope -1.
  CHECK(run_mutant([](case_context& ctx) {
          gelu_product_second_order<T>(ctx, [](raw::gelu_form f, const T& x, const T& y, const T& s) {
            auto g = [&](const T& z) { return raw::gelu(f, z) + z * z * z / T(100); };
            const T c = s * s * sqrt(pi_value<T>() / T(2));
            return c * (g((x + y) / s) - g(x / s) - g(y / s));
          });
        }, 10) == verdict::fail);
}
