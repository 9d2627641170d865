// Unit tests of the property harness's bookkeeping: margins, the worst check, NaN handling.
#include "harness/property.hpp"
#include "harness/runner.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace iclproof;

namespace {
run_config one_case_double() {
  run_config cfg;
  cfg.scalar = scalar_kind::double_precision;
  cfg.cases = 1;
  cfg.seed = 3;
  cfg.shrink = false;
  return cfg;
}
const property_info harness_info{"harness", "bookkeeping", {}};
}  // namespace

TEST_CASE("an exact check has margin +inf, even against a zero tolerance", "[harness]") {
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(log2_margin(-inf, -inf) == inf);
  CHECK(log2_margin(-inf, -3.0) == inf);
  CHECK(log2_margin(-10.0, -5.0) == 5.0);
  CHECK(log2_margin(-5.0, -inf) == -inf);
  CHECK(std::isnan(log2_margin(std::nan(""), -5.0)));
}

// Regression: an error of 0 against a tolerance of 0 used to give the NaN margin -inf - (-inf),
// which then stuck as the "worst" check and hid the real worst one (margin printed as n/a).
TEST_CASE("a 0 <= 0 check does not hide the worst inexact check", "[harness]") {
  const property_body body = [](case_context& ctx) {
    ctx.check_le<double>("exact", 0.0, 0.0);
    ctx.check_le<double>("inexact", std::ldexp(1.0, -10), std::ldexp(1.0, -5));
    ctx.check_le<double>("roomy", std::ldexp(1.0, -20), std::ldexp(1.0, -5));
  };
  const property_result r = run_body(harness_info, body, one_case_double());
  REQUIRE(r.outcome == verdict::pass);
  CHECK(r.worst_log2_err == -10.0);
  CHECK(r.worst_log2_bound == -5.0);
  CHECK(r.margin_log10 == Approx(5.0 * std::log10(2.0)));
}

TEST_CASE("a property whose checks are all exact reports margin +inf", "[harness]") {
  const property_body body = [](case_context& ctx) {
    ctx.check_le<double>("exact", 0.0, 0.0);
    ctx.check_le<double>("exact again", 0.0, 1.0);
  };
  const property_result r = run_body(harness_info, body, one_case_double());
  REQUIRE(r.outcome == verdict::pass);
  CHECK(std::isinf(r.margin_log10));
  CHECK(r.margin_log10 > 0);
}

TEST_CASE("a NaN error fails and stays the worst check", "[harness]") {
  const property_body body = [](case_context& ctx) {
    ctx.check_le<double>("fine", std::ldexp(1.0, -10), std::ldexp(1.0, -5));
    ctx.check_le<double>("nan", std::nan(""), 1.0);
  };
  const property_result r = run_body(harness_info, body, one_case_double());
  CHECK(r.outcome == verdict::fail);
  CHECK(std::isnan(r.margin_log10));
}

// A property made only of exact claims (ctx.require) demands error 0: its tolerance shows as 0
// and its margin as exact, not as a tolerance of 2^0 = 1 left over from initialisation.
TEST_CASE("a property of exact claims only reports tolerance 0 and margin +inf", "[harness]") {
  const property_body body = [](case_context& ctx) { ctx.require("1 == 1", true, ""); };
  const property_result r = run_body(harness_info, body, one_case_double());
  REQUIRE(r.outcome == verdict::pass);
  CHECK(r.worst_log2_bound == -std::numeric_limits<double>::infinity());
  CHECK(std::isinf(r.margin_log10));
  CHECK(r.margin_log10 > 0);
}

// Regression: akyurek.gelu_bypass_error_is_exponentially_small checked `lower - err <= round`
// with a negative left side; it passed with a printed margin of -73.8. Signed checks now fail.
TEST_CASE("check_le rejects a negative error or tolerance as a misuse", "[harness]") {
  const property_body negative_err = [](case_context& ctx) {
    ctx.check_le<double>("signed", -1.0, 1e-10);
  };
  CHECK(run_body(harness_info, negative_err, one_case_double()).outcome == verdict::fail);
  const property_body negative_bound = [](case_context& ctx) {
    ctx.check_le<double>("signed bound", 0.0, -1.0);
  };
  CHECK(run_body(harness_info, negative_bound, one_case_double()).outcome == verdict::fail);
}

// Watchers of the runner itself: a property that checks nothing must not pass, and a
// run must execute exactly the cases asked for (the sweeps and the CI budget rely on it).
TEST_CASE("a property that ran no check fails", "[harness]") {
  run_config cfg = one_case_double();
  cfg.cases = 5;
  const auto r = run_body(
      harness_info, [](case_context&) {}, cfg);
  CHECK(r.outcome == verdict::fail);
  CHECK(r.failure == "the property ran no check");
}

TEST_CASE("the runner runs exactly the cases asked for", "[harness]") {
  for (int cases : {1, 37, 100, 250}) {
    run_config cfg = one_case_double();
    cfg.cases = cases;
    int calls = 0;
    const auto r = run_body(
        harness_info,
        [&](case_context& ctx) {
          ++calls;
          ctx.require("counted", true, "");
        },
        cfg);
    CHECK(r.outcome == verdict::pass);
    CHECK(r.cases == cases);
    CHECK(calls == cases);
  }
}
