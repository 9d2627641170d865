// Named bounds of src/raw attained on constructed inputs (issue 18 item 1 and its "Done when":
// a bound loosened 100x fails a test). Each test builds the input that approaches its bound and
// states the factor bound / attained error it may show; a bound loosened 100x exceeds every
// factor stated here. The attained errors are computed here, independently of the bound (exact
// dyadic arithmetic, or MPFR at 256 bits against the double computation).
//
// A small executable of its own (tests/CMakeLists.txt: iclproof_bound_tests, ctest prefix
// "bounds."), linked against iclproof_core only: a mutation of a bound header rebuilds this one
// translation unit instead of every property (scripts/mutation-score.sh, "# targets:").
//
// Bounds tested elsewhere: higham_gamma, raw::gamma_bound, dot_product_bound, the LSA and
// Memformer shadow bounds, cholesky_solve_relative_bound (tests/unit/sharpness_test.cpp);
// inv_sqrt_deviation and inv_sqrt_second_order_remainder (tests/unit/akyurek_test.cpp,
// "LayerNorm bounds"); raw_layer_bound, div_layer_bound, layernorm_division_first_order_remainder
// and ridge_solve_error_bound on the fixed sample of their properties (sharpness_test.cpp,
// "composite bounds").
#include "core/precision.hpp"
#include "raw/layer_bounds.hpp"
#include "tasks/regression_task.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

using namespace iclproof;
using namespace iclproof::raw;

namespace {

// Largest entry of |a - b| over the data rows [0, D).
double data_row_change(const Mat<double>& a, const Mat<double>& b, Index D) {
  return max_abs(Mat<double>(a.topRows(D) - b.topRows(D)));
}

}  // namespace

// ------------------------------------------------------------------------ layer_lipschitz
// layer_lipschitz(L, h, E) bounds max |f(h') - f(h)| over the data rows for |h' - h| <= E. It is
// attained EXACTLY (factor 1) by the perturbation aligned with the signs of the weights:
//   RAW (+):   w_m = sum_n Wo(m,n) (Wa read + W h[s])_n: moving every read row by E sign(Wo Wa)
//              and every s row by E sign(Wo W) moves w_m by E sum |Wo| (|Wa| + |W|), the bound;
//   RAW (.):   (a + E sign b)(b + E sign a) - a b = |a| E + |b| E + E^2 when a b > 0, the
//              product rule with the quadratic term, summed over the dot's terms;
//   div:       (|y| + E) / (c - E) - |y| / c = (E + z E) / (c - E), z = |y| / c.
// Dyadic data, weights and E: the RAW cases are exact in double; the div case carries one
// division's rounding (ratio within 10^-12 of 1).

TEST_CASE("layer_lipschitz is attained by the aligned perturbation: RAW (+)",
          "[tolerance][sharpness][raw]") {
  const Index Tn = 3, D = 6;
  Mat<double> W1(2, 2), W2(2, 2);
  W1 << 0.5, -1.25, 2, 0.75;
  W2 << -0.375, 1, 0.25, -1.5;
  layer_spec<double> L;
  L.ops.push_back(aff_op<double>({0, 1}, W1, {2, 3}, W2, Vec<double>::Zero(2), {4, 5}, Tn));
  Mat<double> h(D, Tn);
  h << 0.25, -0.5, 1, 0.75, 0.125, -1, -0.625, 0.5, 0.25, 1.5, -0.75, 0.375, 0, 0.5, 1, 0.25, -0.25,
      0.5;
  const double E = std::ldexp(1.0, -10);
  // Output row 1 (h row 5) has the larger row sum |W1| + |W2| = 2.75 + 1.75 = 4.5 (row 0: 3.125).
  Mat<double> hp = h;
  for (Index i = 0; i < Tn; ++i)
    for (Index q = 0; q < 2; ++q) {
      hp(q, i) += E * (W1(1, q) > 0 ? 1 : -1);
      hp(2 + q, i) += E * (W2(1, q) > 0 ? 1 : -1);
    }
  const double attained = data_row_change(layer_exact(hp, L), layer_exact(h, L), D);
  const double bound = layer_lipschitz(L, h, E);
  INFO("attained " << attained << ", layer_lipschitz " << bound);
  CHECK(attained == 4.5 * E);
  CHECK(bound == attained);
}

TEST_CASE("layer_lipschitz is attained by the aligned perturbation: RAW (.)",
          "[tolerance][sharpness][raw]") {
  const Index Tn = 2, D = 5;
  layer_spec<double> L;
  L.ops.push_back(dot_op<double>({0, 1}, {2, 3}, 4, Tn));  // h4 <- h0 h2 + h1 h3
  Mat<double> h(D, Tn);
  // Rows a = (h0, h1), b = (h2, h3), one column per token: a_n b_n > 0 at both tokens.
  h << 0.5, -0.25, 1.5, -2, 0.75, -0.5, 2, -1.25, 0, 0;
  const double E = std::ldexp(1.0, -8);
  Mat<double> hp = h;
  for (Index i = 0; i < Tn; ++i)
    for (Index n = 0; n < 2; ++n) {
      hp(n, i) += E * (h(2 + n, i) > 0 ? 1 : -1);  // a + E sign b
      hp(2 + n, i) += E * (h(n, i) > 0 ? 1 : -1);  // b + E sign a
    }
  const double attained = data_row_change(layer_exact(hp, L), layer_exact(h, L), D);
  const double bound = layer_lipschitz(L, h, E);
  INFO("attained " << attained << ", layer_lipschitz " << bound);
  // Token 0: |a| + |b| summed = 0.5 + 1.5 + 0.75 + 2 = 4.75 (token 1: 4), plus 2 E^2.
  CHECK(attained == 4.75 * E + 2 * E * E);
  CHECK(bound == attained);
}

TEST_CASE("layer_lipschitz is attained by the aligned perturbation: div",
          "[tolerance][sharpness][raw]") {
  const Index Tn = 2, D = 5;
  layer_spec<double> L;
  L.div = div_op{{0, 1}, 2, {3, 4}};
  Mat<double> h(D, Tn);
  // Rows y0, y1, c, w0, w1; one column per token. Largest z = |y| / c: 3 / 1.5 at token 0.
  h << 0.75, 0.5, -3, 2, 1.5, 2.5, 0, 0, 0, 0;
  const double E = std::ldexp(1.0, -6);
  Mat<double> hp = h;
  for (Index i = 0; i < Tn; ++i) {
    hp(2, i) -= E;  // c > 0 shrinks
    for (Index q = 0; q < 2; ++q) hp(q, i) += E * (h(q, i) > 0 ? 1 : -1);
  }
  const double attained = data_row_change(layer_exact(hp, L), layer_exact(h, L), D);
  const double bound = layer_lipschitz(L, h, E);
  INFO("attained " << attained << ", layer_lipschitz " << bound);
  CHECK(attained <= bound * (1 + 1e-12));
  CHECK(bound <= attained * (1 + 1e-12));
}

// --------------------------------------------------------------------- hard_attention_bound
// One target (a = 1) holding +V and b others holding -V, logit gap Natt: the softmax average
// moves from the uniform average V by exactly 2 b e^-Natt V / (1 + b e^-Natt); the bound
// 2 b e^-Natt V is attained within 1 + b e^-Natt. The softmax is evaluated here in MPFR (V - out
// cancels ~log10(e^Natt) digits of the 77: compared to 10^-50).
TEST_CASE("hard_attention_bound is attained within 1 + b e^-Natt", "[tolerance][sharpness][raw]") {
  scoped_mpfr_precision wide(256);
  using T = mpfr_real;
  for (const long b : {1L, 4L, 9L}) {
    for (const int natt : {8, 20, 40}) {
      const T Natt(natt), V(3);
      const T wt = exp_value(Natt), wo = T(1);  // unnormalised softmax weights
      const T out = (wt * V - T(b) * wo * V) / (wt + T(b) * wo);
      const T deviation = abs_of(T(V - out));
      const T bound = hard_attention_bound(Natt, b, V);
      const T factor = T(1) + T(b) * exp_value(T(-Natt));
      INFO("b " << b << ", Natt " << natt << ": deviation " << to_double(deviation) << ", bound "
                << to_double(bound));
      CHECK(deviation <= bound * (T(1) + T("1e-50")));
      CHECK(bound <= deviation * factor * (T(1) + T("1e-50")));
    }
  }
}

// ------------------------------------------------------------------------ gelu_bypass_bound
// erf: |g(t) - t| = t (1 - Phi(t)) and the bound is phi(t) (Mills ratio): bound / error <=
// (1 + t^2) / t^2 (Gordon's lower bound). tanh: |g(t) - t| = t / (1 + e^(2u)) and the bound is
// t e^(-2u): bound / error = 1 + e^(-2u). Errors evaluated here in MPFR from their closed forms.
TEST_CASE("gelu_bypass_bound is attained within (1 + t^2) / t^2 (erf) and 1 + e^-2u (tanh)",
          "[tolerance][sharpness][raw]") {
  scoped_mpfr_precision wide(256);
  using T = mpfr_real;
  for (const int ti : {2, 4, 8, 16}) {
    const T t(ti);
    const T err_erf = t * detail::erfc_of(T(t / sqrt_of(T(2)))) / T(2);
    const T b_erf = gelu_bypass_bound(gelu_form::erf, t);
    INFO("t " << ti << ": erf error " << to_double(err_erf) << ", bound " << to_double(b_erf));
    CHECK(err_erf <= b_erf);
    CHECK(b_erf <= err_erf * (T(1) + T(1) / (t * t)));
    const T u = sqrt_of(T(T(2) / pi_value<T>())) * (t + T(44715) / T(1000000) * t * t * t);
    const T err_tanh = t / (T(1) + exp_value(T(T(2) * u)));
    const T b_tanh = gelu_bypass_bound(gelu_form::tanh, t);
    INFO("tanh error " << to_double(err_tanh) << ", bound " << to_double(b_tanh));
    CHECK(err_tanh <= b_tanh);
    CHECK(b_tanh <= err_tanh * (T(1) + exp_value(T(-T(2) * u))) * (T(1) + T("1e-70")));
  }
}

// ------------------------------------------------------------------------ gelu_product_bound
// The approximation error |gelu_product(x, y) - x y| (evaluated in MPFR at 256 bits, where its
// rounding is ~10^-70 of it) against the bound, for x, y on a circle of radius r = s / 100 in
// 16 directions. erf: the bound's first term is the error's leading term (CONSTRUCTIONS.md
// section 5), so the worst direction attains it within 1 + O(r^2 / s^2): stated 1.01. tanh: the
// Coq constant is 1 (gelu_tanh_quartic_constant) where the true leading coefficient is ~0.59,
// and the error's leading term (a quartic in x, y) is not proportional to x^4 + y^4: measured
// 1.00002 (erf) and 1.82 (tanh) in the worst of the 16 directions, stated 1.01 and 2.5.
TEST_CASE("gelu_product_bound is attained within 1.01 (erf) and 2.5 (tanh) in the worst direction",
          "[tolerance][sharpness][raw]") {
  scoped_mpfr_precision wide(256);
  using T = mpfr_real;
  const T s(64), r = s / T(100);
  for (const gelu_form form : {gelu_form::erf, gelu_form::tanh}) {
    T best_ratio(1e300);  // smallest bound / error over the directions
    for (int k = 0; k < 16; ++k) {
      const double th = 2 * 3.141592653589793 * k / 16 + 0.1;
      const T x = r * T(std::cos(th)), y = r * T(std::sin(th));
      const T err = abs_of(T(gelu_product(form, x, y, s) - x * y));
      const T bound = gelu_product_bound(form, x, y, s);
      CHECK(err <= bound);
      if (err > T(0) && bound / err < best_ratio) best_ratio = bound / err;
    }
    INFO(to_string(form) << ": smallest bound / error over the directions "
                         << to_double(best_ratio));
    CHECK(best_ratio <= T(form == gelu_form::erf ? 1.01 : 2.5));
  }
}

// -------------------------------------------------------------------- gelu_product_rounding
// The rounding of gelu_product in double against the same product in MPFR at 256 bits, on a
// fixed sample (x, y uniform in [-1, 1], s in {16, 256, 4096}, 2000 draws). The bound counts 16
// roundings, each at the largest intermediate and all in one direction (gamma_16 * 8 s (|x| +
// |y|)); random roundings partly cancel, and the three GeLU values sit at half that
// intermediate: the bound is a worst case that no sampled input reaches. No construction attains
// it (the rounding direction of erfc/exp of a given argument is fixed by the library, not
// chosen), so the stated factor is the measured worst ratio rounded up by half a decade:
// measured bound / error 10^1.88 (erf) and 10^1.83 (tanh) at the worst draw (INFO), stated 10^2.5.
TEST_CASE("gelu_product_rounding is approached within 10^2.5 on a fixed sample",
          "[tolerance][sharpness][raw]") {
  scoped_mpfr_precision wide(256);
  data_rng rng(20261123);
  for (const gelu_form form : {gelu_form::erf, gelu_form::tanh}) {
    double best = 1e300;  // smallest bound / error
    for (int draw = 0; draw < 2000; ++draw) {
      const double x = rng.uniform(-1, 1), y = rng.uniform(-1, 1);
      const double s = std::ldexp(1.0, 4 + 4 * (draw % 3));
      const double p = gelu_product(form, x, y, s);
      const mpfr_real pe = gelu_product(form, mpfr_real(x), mpfr_real(y), mpfr_real(s));
      const double err = to_double(abs_of(mpfr_real(mpfr_real(p) - pe)));
      const double bound = gelu_product_rounding(x, y, s);
      INFO("draw " << draw << ": x " << x << ", y " << y << ", s " << s << ", error " << err
                   << ", bound " << bound);
      REQUIRE(err <= bound);
      if (err > 0) best = std::min(best, bound / err);
    }
    INFO(to_string(form) << ": smallest bound / error " << best << " = 10^" << std::log10(best));
    CHECK(best <= std::pow(10.0, 2.5));
  }
}
