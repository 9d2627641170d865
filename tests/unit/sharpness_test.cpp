// Tolerances that are sharp (issue 18 item 1).
//  * Every named bound function is shown ATTAINED within a stated factor on a constructed
//    (adversarial) input or, for the composite RAW bounds, on the fixed sample of the property
//    that uses it: a bound loosened 100x fails one of these tests.
//  * The sharpness gate of `iclproof check` (harness/sharpness.hpp) reports a PASS whose margin
//    exceeds its property's stated limit as VACUOUS; the properties.* ctests run `check --ci`
//    at 100 cases, so a tolerance loosened 10^6 fails them.
#include "harness/sharpness.hpp"
#include "core/precision.hpp"
#include "harness/runner.hpp"
#include "harness/tolerance.hpp"
#include "raw/layer_bounds.hpp"
#include "rounding_shadow.hpp"
#include "tasks/regression_task.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>

using namespace iclproof;

namespace {

// Recursive summation 1 + delta + ... + delta (n - 1 additions) with delta = u (1 + 2^-8): every
// partial sum lies in [1, 2), where the spacing is 2u, and delta exceeds half of it, so every
// addition rounds UP by 2u - delta = u (1 - 2^-8): the error is (n - 1) u (1 - 2^-8), within
// 1 / (1 - 2^-8) of gamma_(n-1) times the sum of |terms| (Higham's worst case, eq. (3.4)).
template <class T>
struct adversarial_sum {
  T error;   // |computed - exact|
  T shadow;  // sum of |terms|
};

template <class T>
adversarial_sum<T> recursive_sum_rounding_up(int additions) {
  const T u = unit_roundoff<T>();
  const T delta = u * T(1 + std::ldexp(1.0, -8));
  T s(1);
  for (int i = 0; i < additions; ++i) s += delta;
  // Exact: 1 + additions * delta has at most 9 + 11 significant bits below 2^0: exact at 256.
  scoped_mpfr_precision wide(256);
  const mpfr_real exact = mpfr_real(1) + mpfr_real(additions) * mpfr_real(delta);
  const mpfr_real err = abs(mpfr_real(s) - exact);
  return {static_cast<T>(err), static_cast<T>(exact)};
}

template <class T>
void adversarial_summation_attains_the_gamma_bounds() {
  const int n = 1000;  // additions
  const auto a = recursive_sum_rounding_up<T>(n);
  INFO("error / (u * shadow) = " << static_cast<double>(a.error / (unit_roundoff<T>() * a.shadow)));
  REQUIRE(a.error > T(0));
  // higham_gamma: attained within 1.01 (the ratio is 1 / (1 - 2^-8) = 1.004 to first order).
  const T g = higham_gamma<T>(n) * a.shadow;
  CHECK(a.error <= g);
  CHECK(g <= T(1.01) * a.error);
  // raw::gamma_bound (higham_gamma, 0 on interval_real): the same.
  const T gr = raw::gamma_bound<T>(n) * a.shadow;
  CHECK(a.error <= gr);
  CHECK(gr <= T(1.01) * a.error);
  // dot_product_bound: x = (1, delta, ...), y = (1, ..., 1): n + 1 terms, n additions.
  const T dp = dot_product_bound<T>(n + 1, a.shadow);
  CHECK(a.error <= dp);
  CHECK(dp <= T(1.01) * a.error);
  // The shadow bound of the LSA, Ahn and Memformer families (properties/rounding_shadow.hpp),
  // 2 gamma_n (shadow_a + shadow_b): the factor 2 covers the rounding of the shadow and of the
  // reference, so with a computed quantity against an exact one it is attained within 4 with
  // two shadows and within 2 with one.
  const T rb = rounding_shadow::shadow_bound<T>(n, T(a.shadow + a.shadow));
  CHECK(a.error <= rb);
  CHECK(rb <= T(4.04) * a.error);
  const T sb = rounding_shadow::shadow_bound<T>(n, a.shadow);
  CHECK(a.error <= sb);
  CHECK(sb <= T(2.02) * a.error);
}

}  // namespace

TEST_CASE("gamma_n bounds are attained by recursive summation that always rounds up",
          "[tolerance][sharpness]") {
  SECTION("double") { adversarial_summation_attains_the_gamma_bounds<double>(); }
  SECTION("long double") { adversarial_summation_attains_the_gamma_bounds<long double>(); }
}

// cholesky_solve_relative_bound(n, kappa) = kappa c / (1 - kappa c), c = 4 n (3n + 1) u. The
// constant 4 n (3n + 1) is Higham's worst case for the backward error (Thm 10.4); the forward
// error approaches kappa u when x lies along the largest eigenvector of an ill-conditioned A,
// whose rounding the solve amplifies along the smallest one. Constructed inputs: A = Q D Q^T
// (rounded to double, its kappa measured at 256 bits) with D = diag(1, 10^-8), Q a random
// rotation, b = A q_1 (x along the top eigenvector); the worst relative error over 200 draws
// against the bound at n = 2 (c = 56 u). Stated factor 10^2: measured 55 (the 56 of c over the
// kappa u reached).
TEST_CASE("cholesky_solve_relative_bound is attained within 10^2 on ill-conditioned 2x2s",
          "[tolerance][sharpness]") {
  data_rng rng(20261123);
  double worst_ratio = 0;  // error / bound
  for (int draw = 0; draw < 200; ++draw) {
    const double th = rng.uniform(0, 3.141592653589793);
    Mat<double> Q(2, 2);
    Q << std::cos(th), -std::sin(th), std::sin(th), std::cos(th);
    const Vec<double> D = (Vec<double>(2) << 1.0, 1e-8).finished();
    const Mat<double> A = Q * D.asDiagonal() * Q.transpose();
    const Mat<double> b = A * Q.col(0);
    const Mat<double> x = spd_solve<double>(A, b);
    scoped_mpfr_precision wide(256);
    const Mat<mpfr_real> Ae = from_double<mpfr_real>(A), be = from_double<mpfr_real>(b);
    const Mat<mpfr_real> xe = spd_solve<mpfr_real>(Ae, be);
    const mpfr_real rel = (from_double<mpfr_real>(x) - xe).norm() / xe.norm();
    const double kappa = static_cast<double>(spd_condition_number<mpfr_real>(Ae));
    const double bound = cholesky_solve_relative_bound<double>(2, kappa);
    INFO("draw " << draw << ": relative error " << static_cast<double>(rel) << ", bound " << bound);
    CHECK(static_cast<double>(rel) <= bound);
    worst_ratio = std::max(worst_ratio, static_cast<double>(rel) / bound);
  }
  INFO("largest error / bound " << worst_ratio);
  CHECK(worst_ratio >= 1e-2);
}

namespace {
// The property `name` in double on the CI seed's fixed sample of 100 cases: its worst margin
// log10(tolerance / error) over every check.
property_result fixed_sample(const std::string& name) {
  const auto selected = select_properties(name);
  REQUIRE(selected.size() == 1);
  run_config cfg;
  cfg.scalar = scalar_kind::double_precision;
  cfg.cases = 100;
  cfg.seed = 20261122;
  return run_property(*selected.front(), cfg);
}
}  // namespace

// Composite bounds (the approximation bounds and the RAW layer, div layer and chain bounds of
// src/raw/) are attained on the fixed sample of the property that evaluates them: the worst
// margin must stay below the stated log10 factor. Each factor is the margin measured when this
// test was written (double, seed 20261122, 100 cases) rounded up by at least half a decade, so a
// bound loosened 100x (+2 decades) fails here.
TEST_CASE("composite bounds are attained within their stated factor on a fixed sample",
          "[tolerance][sharpness]") {
  struct stated {
    const char* property;
    const char* bound;
    double log10_factor;  // measured margin in the comment
  };
  const stated cases[] = {
      // 4e-8: the Mills-ratio / tanh bypass bound is two-sided and tight.
      {"akyurek.gelu_bypass_error_is_exponentially_small", "gelu_bypass_bound", 1.0},
      // 2e-4: the GeLU product bound (AkyurekBounds.v) is evaluated at the sampled inputs.
      {"akyurek.gelu_multiplication_within_proven_bound", "gelu_product_bound", 1.0},
      // 0.31: inv_sqrt_second_order_remainder / layernorm_division_first_order_remainder.
      {"akyurek.layernorm_division_relative_error_is_minus_s_over_2ncm",
       "layernorm_division_first_order_remainder", 1.0},
      // 0.22: hard_attention_bound (two-sided softmax deviation).
      {"akyurek.softmax_hard_attention_deviation_is_exact_and_bounded", "hard_attention_bound",
       1.0},
      // 1.13: raw_layer_bound (first-order sum of attention, LayerNorm, GeLU and rounding terms).
      {"akyurek.raw_layer_realises_exact_raw_within_bound", "raw_layer_bound", 1.7},
      // 2.63: div_layer_bound; its rounding term g (8 M N + 4 zmax + 2 Nb) is a worst case over
      // all 2H + 32 operations at the largest intermediate (M N), which the typical token stays
      // far below: legitimately loose by ~10^2.6 on random data.
      {"akyurek.div_layer_realises_exact_div_within_bound", "div_layer_bound", 3.2},
      // 0.56 and 0.96: the propagated chain bound (layer bounds + layer_lipschitz).
      {"akyurek.theorem1_realised_chain_within_propagated_bound", "chain (layer_lipschitz)", 1.1},
      {"akyurek.theorem2_realised_chain_within_propagated_bound", "chain (layer_lipschitz)", 1.5},
      // 1.05: ridge_solve_error_bound (solve, forming A and the right-hand side).
      {"references.ridge_at_p_agrees_with_ridge_at_2p", "ridge_solve_error_bound", 1.6},
      {"references.bayes_posterior_mean_equals_ridge", "ridge_solve_error_bound", 2.0},
  };
  for (const stated& s : cases) {
    const property_result r = fixed_sample(s.property);
    INFO(s.property << " (" << s.bound << "): margin " << r.margin_log10 << ", stated "
                    << s.log10_factor << "\n"
                    << r.failure);
    CHECK(r.outcome == verdict::pass);
    CHECK(r.margin_log10 <= s.log10_factor);
  }
}

TEST_CASE("the sharpness gate calls a passing margin above the stated limit vacuous",
          "[harness][sharpness]") {
  property_result r;
  r.outcome = verdict::pass;
  r.cases = sharpness_min_cases;
  const sharpness_limit lim = sharpness_limit_of("references.k_step_gd_equals_neumann_closed_form");
  CHECK(lim.log10_factor == default_sharpness_log10);
  CHECK(!lim.exempt);
  r.margin_log10 = 1.5;  // a typical rounding-model margin
  CHECK(!is_vacuous(r, lim));
  r.margin_log10 = 1.5 + 6;  // the same tolerance loosened 10^6
  CHECK(is_vacuous(r, lim));
  r.margin_log10 = default_sharpness_log10;  // at the limit: not vacuous
  CHECK(!is_vacuous(r, lim));
  r.margin_log10 = std::numeric_limits<double>::infinity();  // error 0 (exact): no notion
  CHECK(!is_vacuous(r, lim));
  r.margin_log10 = 7.5;
  r.cases = sharpness_min_cases - 1;  // too few cases to judge
  CHECK(!is_vacuous(r, lim));
  r.cases = sharpness_min_cases;
  r.outcome = verdict::fail;  // a failure is a failure, not vacuous
  CHECK(!is_vacuous(r, lim));
  r.outcome = verdict::pass;
  const sharpness_limit lower =
      sharpness_limit_of("memformer.nonconstant_gamma_row_breaks_the_linear_model_reading");
  CHECK(lower.exempt);  // a lower-bound claim: large margins are the point
  CHECK(!is_vacuous(r, lower));
}

TEST_CASE("every stated sharpness limit names a registered property, with a reason",
          "[harness][sharpness]") {
  for (const auto& [name, limit] : stated_sharpness_limits()) {
    INFO(name);
    CHECK(select_properties(name).size() == 1);
    CHECK(!limit.reason.empty());
  }
  for (const auto& p : all_properties()) CHECK(!sharpness_limit_of(p.info.name).reason.empty());
}

// Every property at the CI budget passes the gate in double on a second seed (the ctests run
// the CI seed in all four scalar configurations through `check --ci`).
TEST_CASE("no property is vacuous on a second seed", "[sharpness][properties]") {
  for (const auto& p : all_properties()) {
    // An exact-only property (ICLPROOF_EXACT_PROPERTY) has no double body: its tolerance is 0,
    // which cannot be vacuous.
    if (!p.applies_in(scalar_kind::double_precision)) continue;
    run_config cfg;
    cfg.scalar = scalar_kind::double_precision;
    cfg.cases = sharpness_min_cases;
    cfg.seed = 7;
    const property_result r = run_property(p, cfg);
    const sharpness_limit lim = sharpness_limit_of(p.info.name);
    INFO(p.info.name << ": margin " << r.margin_log10 << ", limit " << lim.log10_factor);
    CHECK(r.outcome == verdict::pass);
    CHECK(!is_vacuous(r, lim));
  }
}
