// The interval scalar (core/interval.hpp): precision, defined comparisons, enclosures of the
// transcendentals, the certified solve, the certified checks of the harness, and the Akyurek
// mutation tests run in interval mode (every broken construction must fail there too).
#include "akyurek.hpp"

#include "core/linalg.hpp"
#include "core/precision.hpp"
#include "harness/runner.hpp"

#include "mutation_testing.hpp"

#include <catch2/catch.hpp>

#include <mpfr.h>

using namespace iclproof;
using I = interval_real;

namespace {
bool contains(const I& x, const mpfr_real& v) {
  return mpfi_is_inside_fr(v.backend().data(), x.backend().data()) != 0;
}
// The same function at 2p bits, correctly rounded, as the reference an enclosure must contain
// (a 2p-bit value inside the p-bit enclosure: the enclosure holds the true value up to 2^-2p).
template <class F>
mpfr_real at_double_precision(F f, const mpfr_real& x) {
  const mpfr_prec_t p2 = 2 * mpfr_get_prec(x.backend().data());
  mpfr_real r;
  mpfr_set_prec(r.backend().data(), p2);
  f(r.backend().data(), x.backend().data(), MPFR_RNDN);
  return r;
}
}  // namespace

TEST_CASE("interval precision: endpoints carry the MPFR precision's bits", "[interval]") {
  scoped_mpfr_precision p(256);
  CHECK(scalar_traits<I>::bits() == 257);
  const I x = I(1) / I(3);
  CHECK(precision_of(x) == 257);
  CHECK(precision_of(lower(x)) == 257);
  CHECK(!is_point(x));
  CHECK(is_point(I(3)));
  CHECK(eps<I>() == I(std::ldexp(1.0, -256)));
  // 1/3 in [1/4, 1/2) enclosed by two neighbouring 257-bit numbers: width one ulp there,
  // 2^(-2-256) = eps / 4.
  CHECK(log2_width_in_eps(x) == -2.0);
}

TEST_CASE("interval comparisons: certain answers, overlap throws (never terminate or guess)",
          "[interval]") {
  scoped_mpfr_precision p(256);
  const I third = I(1) / I(3);
  const I one = third * I(3);  // [1 - ulp, 1 + ulp]: contains 1, not a point
  CHECK(contains_zero(I(one - I(1))));
  CHECK(third < I(1));
  CHECK(I(1) > third);
  CHECK(!(I(1) < third));
  CHECK(third != I(1));
  CHECK(I(2) == I(2));
  CHECK(I(2) <= I(2));
  CHECK(I(0) == 0);
  CHECK(third > 0);
  CHECK_THROWS_AS(static_cast<void>(one < I(1)), ambiguous_interval_comparison);
  CHECK_THROWS_AS(static_cast<void>(one == 1), ambiguous_interval_comparison);
  CHECK_THROWS_AS(static_cast<void>(one != 1), ambiguous_interval_comparison);
  CHECK_THROWS_AS(static_cast<void>(one <= 1), ambiguous_interval_comparison);
  CHECK_THROWS_AS(static_cast<void>(one > third * I(3)), ambiguous_interval_comparison);
  CHECK_THROWS_AS(static_cast<void>(std::max(one, I(1))), ambiguous_interval_comparison);
  // Touching at one point: a <= b is certain although a < b is not.
  const I lo = interval_from_endpoints(mpfr_real(0), mpfr_real(1));
  CHECK(lo <= I(1));
  CHECK(!(lo > I(1)));
  CHECK_THROWS_AS(static_cast<void>(lo < I(1)), ambiguous_interval_comparison);
  // hull_max / max_of: the enclosure of the max, no comparison of the intervals.
  const I m = max_of(one, I(1));
  CHECK(lower(m) == mpfr_real(1));
  CHECK(upper(m) == upper(one));
  try {
    static_cast<void>(one < I(1));
  } catch (const ambiguous_interval_comparison& e) {
    CHECK(std::string(e.what()).find("ambiguous interval comparison") != std::string::npos);
  }
}

TEST_CASE("interval transcendentals enclose the 2p-bit MPFR value and are one or two ulps wide",
          "[interval]") {
  scoped_mpfr_precision p(256);
  for (const char* text : {"-3.5", "-0.7", "-1e-20", "0", "0.3", "1", "2.25", "12", "-12"}) {
    const mpfr_real x(text);
    const I xi = interval_point(x);
    CAPTURE(text);
    struct fn {
      const char* name;
      I enclosure;
      int (*mpfr)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
    };
    const fn fns[] = {{"erf", erf_enclosure(xi), &mpfr_erf},
                      {"erfc", erfc_enclosure(xi), &mpfr_erfc},
                      {"exp", exp_enclosure(xi), &mpfr_exp},
                      {"tanh", tanh_enclosure(xi), &mpfr_tanh}};
    for (const auto& f : fns) {
      CAPTURE(f.name);
      const mpfr_real ref = at_double_precision(f.mpfr, x);
      CHECK(contains(f.enclosure, ref));
      // Width: at most 2 ulps of the value (a correctly rounded pair of endpoints).
      if (!is_point(f.enclosure)) {
        const double lw = log2_abs(width(f.enclosure)), lv = log2_abs(ref);
        CHECK(lw <= lv - 256 + 1.01);
      }
    }
    if (!(x < 0)) {
      const mpfr_real ref = at_double_precision(&mpfr_sqrt, x);
      const I s = sqrt_of(xi);
      CHECK(contains(s, ref));
    }
  }
  // An interval argument: the enclosure of erf over [a, b] contains erf at both ends and inside.
  const I wide = interval_from_endpoints(mpfr_real("-0.5"), mpfr_real("0.25"));
  const I e = erf_enclosure(wide);
  CHECK(contains(e, at_double_precision(&mpfr_erf, mpfr_real("-0.5"))));
  CHECK(contains(e, at_double_precision(&mpfr_erf, mpfr_real("0.25"))));
  CHECK(contains(e, mpfr_real(0)));
  const I ec = erfc_enclosure(wide);  // decreasing: [erfc(0.25), erfc(-0.5)]
  CHECK(contains(ec, at_double_precision(&mpfr_erfc, mpfr_real("-0.5"))));
  CHECK(contains(ec, at_double_precision(&mpfr_erfc, mpfr_real("0.25"))));
  CHECK(contains(pi_value<I>(), boost::math::constants::pi<mpfr_real>()));
}

TEST_CASE("certified solve encloses the exact solution, singular input is an error", "[interval]") {
  scoped_mpfr_precision p(256);
  // Integer A and x, b = A x exactly: the enclosure must contain x, a few ulps wide.
  Mat<I> A(4, 4), x(4, 2);
  const int a[16] = {4, 1, -2, 0, 1, 5, 1, 2, -2, 1, 6, 1, 0, 2, 1, 7};
  for (int i = 0; i < 16; ++i) A(i / 4, i % 4) = a[i];
  for (int i = 0; i < 8; ++i) x(i % 4, i / 4) = I(i * 3 - 7) / I(8);
  const Mat<I> b = matmul(A, x);
  const Mat<I> sol = spd_solve(A, b);
  for (Eigen::Index j = 0; j < 2; ++j)
    for (Eigen::Index i = 0; i < 4; ++i) {
      CAPTURE(i, j, full_digits(sol(i, j)));
      CHECK(contains(sol(i, j), lower(x(i, j))));
      CHECK(log2_width_in_eps(sol(i, j)) < 8.0);
    }
  const Mat<I> inv = inverse(A);
  const Mat<I> eye = matmul(A, inv);
  for (Eigen::Index j = 0; j < 4; ++j)
    for (Eigen::Index i = 0; i < 4; ++i) CHECK(contains(eye(i, j), mpfr_real(i == j ? 1 : 0)));
  Mat<I> S = A;
  S.row(3) = S.row(0) + S.row(1);  // singular
  CHECK_THROWS_AS(lu_solve(S, b), std::domain_error);
}

// ------------------------------------------------------------------ certified checks
namespace {
const mutation_runner interval_runs{12, scalar_kind::interval};
}

TEST_CASE("interval check_le: pass iff hi(error) <= lo(bound), failures say what they certify",
          "[interval]") {
  scoped_mpfr_precision p(256);
  const I third = I(1) / I(3);
  auto run = [](auto body) { return interval_runs.run(body, 3); };
  CHECK(run([&](case_context& ctx) {
          ctx.check_le_proved<I>("e", third, I(1), "proofs/X.v:lemma");
        }).outcome == verdict::pass);
  const auto proved =
      run([&](case_context& ctx) { ctx.check_le_proved<I>("e", third, I(1), "proofs/X.v:lemma"); });
  CHECK(proved.proved_bounds == std::vector<std::string>{"proofs/X.v:lemma"});
  CHECK(proved.hand_derived_bounds.empty());
  CHECK(proved.enclosed_checks == 3);
  const auto above = run(
      [&](case_context& ctx) { ctx.check_le_hand_derived<I>("|err|", I(1), third, "by hand"); });
  CHECK(above.outcome == verdict::fail);
  CHECK(above.failure.find("CERTIFIED FAIL") != std::string::npos);
  CHECK(above.failure.find("hand-derived bound (not a Qed lemma) by hand") != std::string::npos);
  // Error enclosure [1/3 - ulp, 1/3 + ulp] against the bound [1/3 - ulp, 1/3 + ulp]: overlap,
  // not certified either way, and not a pass.
  const auto overlap = run([&](case_context& ctx) { ctx.check_le<I>("|err|", third, third); });
  CHECK(overlap.outcome == verdict::fail);
  CHECK(overlap.failure.find("INCONCLUSIVE") != std::string::npos);
  CHECK(overlap.hand_derived_bounds.size() == 1);
  // A bound of exactly 0 states an identity: passes iff 0 is in the error's enclosure.
  const auto zero_ok = run([&](case_context& ctx) {
    ctx.check_le_proved<I>("|err|", abs_of(I(third * I(3) - I(1))), I(0), "proofs/X.v:lemma");
  });
  CHECK(zero_ok.outcome == verdict::pass);
  CHECK(zero_ok.identity_checks == 3);
  const auto zero_bad = run(
      [&](case_context& ctx) { ctx.check_le_proved<I>("|err|", third, I(0), "proofs/X.v:lemma"); });
  CHECK(zero_bad.outcome == verdict::fail);
  CHECK(zero_bad.failure.find("CERTIFIED FAIL") != std::string::npos);
  // The bound's LOWER end decides: an error equal to the bound's upper end fails.
  const auto lower_end = run([&](case_context& ctx) {
    ctx.check_le_proved<I>("|err|", I(upper(third)), third, "proofs/X.v:lemma");
  });
  CHECK(lower_end.outcome == verdict::fail);
}

TEST_CASE("interval identities: the enclosure of the difference must contain 0", "[interval]") {
  scoped_mpfr_precision p(256);
  auto run = [](auto body) { return interval_runs.run(body, 3); };
  const auto ok = run([](case_context& ctx) {
    const I third = I(1) / I(3);
    ctx.check_identity("3 (1/3) = 1", I(third * I(3)), I(1));
  });
  CHECK(ok.outcome == verdict::pass);
  CHECK(ok.identity_checks == 3);
  CHECK(ok.max_log2_width_in_eps > -3.0);  // the width is reported, not hidden
  const auto bad = run([](case_context& ctx) {
    Mat<I> a = Mat<I>::Identity(2, 2), b = Mat<I>::Identity(2, 2);
    b(1, 0) = I(1) / I(1000);
    ctx.compare<I>("identity", a, b, I(1));  // on intervals the tolerance is not used
  });
  CHECK(bad.outcome == verdict::fail);
  CHECK(bad.failure.find("CERTIFIED FAIL") != std::string::npos);
  CHECK(bad.failure.find("excludes 0") != std::string::npos);
  CHECK(bad.failure.find("entry (1, 0)") != std::string::npos);
}

TEST_CASE("an ambiguous interval comparison in a body is a failure naming where it happened",
          "[interval]") {
  scoped_mpfr_precision p(256);
  const auto r = interval_runs.run(
      [](case_context& ctx) {
        ctx.stage("choosing a pivot");
        const I one = I(1) / I(3) * I(3);
        if (one < I(1)) ctx.require("unreachable", true, "");
        ctx.require("unreachable", true, "");
      },
      3);
  CHECK(r.outcome == verdict::fail);
  CHECK(r.failure.find("ambiguous interval comparison at choosing a pivot") != std::string::npos);
}

// ------------------------------------------------- Akyurek mutation tests in interval mode
namespace {
// A mutant must fail with a certificate (an enclosure that excludes 0 or lies above the
// bound), not through an exception or an inconclusive overlap.
template <class F>
verdict run_interval(F body, int cases = 20) {
  const property_result r = interval_runs.run(body, cases);
  INFO("mutant: " << r.failure);
  if (r.outcome == verdict::fail) CHECK(r.failure.find("CERTIFIED FAIL") != std::string::npos);
  return r.outcome;
}
}  // namespace

TEST_CASE("interval mode: GeLU multiplication and bypass fail on broken GeLUs",
          "[interval][akyurek][mutation]") {
  scoped_mpfr_precision p(256);
  using namespace akyurek_checks;
  const auto good = interval_runs.run(
      [](case_context& ctx) {
        gelu_product_within_bound<I>(ctx, [](raw::gelu_form f, const I& x, const I& y, const I& s) {
          return raw::gelu_product(f, x, y, s);
        });
      },
      40);
  INFO(good.failure);
  CHECK(good.outcome == verdict::pass);
  CHECK(run_interval([](case_context& ctx) {
          gelu_product_within_bound<I>(
              ctx, [](raw::gelu_form f, const I& x, const I& y, const I& s) {
                return raw::gelu_product(f, x, y, s) / sqrt_of(I(pi_value<I>() / I(2))) * I(1.25);
              });
        }) == verdict::fail);
  const auto bypass = interval_runs.run(
      [](case_context& ctx) {
        gelu_bypass_two_sided<I>(ctx, [](raw::gelu_form f, const I& t) { return raw::gelu(f, t); });
      },
      40);
  INFO(bypass.failure);
  CHECK(bypass.outcome == verdict::pass);
  CHECK(run_interval([](case_context& ctx) {
          gelu_bypass_two_sided<I>(ctx, [](raw::gelu_form, const I& t) { return t; });
        }) == verdict::fail);
  // A shifted GeLU: interval mode draws t in [1, 9] (akyurek_gelu_checks.hpp: the tanh bound's
  // gap must exceed the enclosure width), where the bypass errors are >= 2^-92 (tanh at t = 9),
  // so the shift must be larger than the 1e-30 of the MPFR mutant: 1e-12 exceeds both bounds
  // from t ~ 6.5 (tanh) and t ~ 7.4 (erf) on.
  CHECK(run_interval([](case_context& ctx) {
          gelu_bypass_two_sided<I>(
              ctx, [](raw::gelu_form f, const I& t) { return raw::gelu(f, I(t - I(1e-12))); });
        }) == verdict::fail);
}

TEST_CASE("interval mode: LayerNorm properties fail on an unbiased-variance LayerNorm",
          "[interval][akyurek][mutation]") {
  scoped_mpfr_precision p(256);
  using namespace akyurek_checks;
  auto unbiased = [](const Vec<I>& v, const I& e) {
    const I L = I(v.size());
    return Vec<I>(plain_layer_norm<I>(v, I(e * (L - 1) / L)) * sqrt_of(I((L - 1) / L)));
  };
  auto good = [](const Vec<I>& v, const I& e) { return plain_layer_norm<I>(v, e); };
  for (bool bypass : {true, false}) {
    INFO("bypass " << bypass);
    const auto g = interval_runs.run(
        [&](case_context& ctx) { layernorm_division_closed_form<I>(ctx, good, bypass); });
    INFO(g.failure);
    CHECK(g.outcome == verdict::pass);
    CHECK(run_interval([&](case_context& ctx) {
            layernorm_division_closed_form<I>(ctx, unbiased, bypass);
          }) == verdict::fail);
  }
  const auto g =
      interval_runs.run([&](case_context& ctx) { layernorm_division_first_order<I>(ctx, good); });
  INFO(g.failure);
  CHECK(g.outcome == verdict::pass);
  CHECK(run_interval([&](case_context& ctx) {
          layernorm_division_first_order<I>(ctx, unbiased);
        }) == verdict::fail);
}

TEST_CASE("interval mode: hard attention fails on a mis-scaled logit gap",
          "[interval][akyurek][mutation]") {
  scoped_mpfr_precision p(256);
  using namespace akyurek_checks;
  const auto g = interval_runs.run([](case_context& ctx) {
    hard_attention_identity<I>(ctx, [](const raw::attention_head<I>& hd, const Mat<I>& h) {
      return raw::attention_head_forward(hd, h, false);
    });
  });
  INFO(g.failure);
  CHECK(g.outcome == verdict::pass);
  // Both halves of the Qed statement are checked, the bound evaluated from
  // AkyurekLayerBounds.v:hard_attention_deviation and nothing hand-derived (before, the interval
  // body evaluated the bound plus a rounding term through check_le_hand_derived, which kept the
  // fully proved property at 'enclosed under a hand-derived bound').
  CHECK(g.proved_bounds ==
        std::vector<std::string>{"proofs/AkyurekLayerBounds.v:hard_attention_deviation"});
  CHECK(g.hand_derived_bounds.empty());
  CHECK(g.identity_checks > 0);
  CHECK(g.enclosed_checks > 0);
  CHECK(run_interval([](case_context& ctx) {
          hard_attention_identity<I>(ctx, [](const raw::attention_head<I>& hd, const Mat<I>& h) {
            raw::attention_head<I> m = hd;
            m.Wq *= I("0.99");
            return raw::attention_head_forward(m, h, false);
          });
        }) == verdict::fail);
}

TEST_CASE("interval mode: RAW and div layers fail on perturbed weights",
          "[interval][akyurek][mutation]") {
  scoped_mpfr_precision p(256);
  using namespace akyurek_checks;
  auto good = [](const raw::raw_layout& lay, const raw::layer_spec<I>& l,
                 const raw::raw_knobs<I>& kn) { return raw::build_layer(lay, l, kn); };
  auto bad = [](const raw::raw_layout& lay, const raw::layer_spec<I>& l,
                const raw::raw_knobs<I>& kn) {
    auto w = raw::build_layer(lay, l, kn);
    w.b_out *= I(1) + I(std::ldexp(1.0, -40));  // the bypass offsets off by a relative 2^-40
    return w;
  };
  const auto g =
      interval_runs.run([&](case_context& ctx) { raw_layer_within_bound<I>(ctx, good); }, 10);
  INFO(g.failure);
  CHECK(g.outcome == verdict::pass);
  CHECK(run_interval([&](case_context& ctx) { raw_layer_within_bound<I>(ctx, bad); }, 10) ==
        verdict::fail);
  const auto gd =
      interval_runs.run([&](case_context& ctx) { div_layer_within_bound<I>(ctx, good); }, 10);
  INFO(gd.failure);
  CHECK(gd.outcome == verdict::pass);
  CHECK(run_interval([&](case_context& ctx) { div_layer_within_bound<I>(ctx, bad); }, 10) ==
        verdict::fail);
}

TEST_CASE("interval mode: the exact Theorem 1 chain is an identity, the printed chain fails",
          "[interval][akyurek][mutation][errata]") {
  scoped_mpfr_precision p(256);
  using namespace akyurek_checks;
  const auto g = interval_runs.run([](case_context& ctx) {
    theorem1_exact_chain<I>(ctx, [](raw::Index d, raw::Index n, const Vec<I>& w0, const I& a,
                                    const I& l) { return raw::theorem1_chain<I>(d, n, w0, a, l); });
  });
  INFO(g.failure);
  CHECK(g.outcome == verdict::pass);
  CHECK(g.identity_checks > 0);
  CHECK(g.enclosed_checks == 0);
  CHECK(run_interval([](case_context& ctx) {
          theorem1_exact_chain<I>(
              ctx, [](raw::Index d, raw::Index n, const Vec<I>& w0, const I& a, const I& l) {
                return raw::theorem1_chain<I>(d, n, w0, a, I(-l));
              });
        }) == verdict::fail);
}
