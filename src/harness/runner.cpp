#include "harness/runner.hpp"

#include "core/precision.hpp"

#include <fmt/format.h>

#include <rapidcheck/detail/Configuration.h>

#include <chrono>
#include <cmath>
#include <iostream>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace iclproof {

std::string to_string(verdict v) {
  switch (v) {
    case verdict::pass:
      return "PASS";
    case verdict::fail:
      return "FAIL";
    case verdict::gave_up:
      return "GAVE-UP";
    case verdict::not_applicable:
      return "N/A";
  }
  return "?";
}

std::uint64_t property_seed(std::uint64_t run_seed, const std::string& name) {
  // FNV-1a over the name, mixed with the run seed (SplitMix64 finaliser).
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : name) h = (h ^ c) * 1099511628211ULL;
  std::uint64_t z = h ^ (run_seed + 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return (z ^ (z >> 31)) & ((1ULL << 53) - 1);  // fits a JSON number exactly
}

namespace {
int scalar_bits(scalar_kind k) {
  switch (k) {
    case scalar_kind::double_precision:
      return scalar_traits<double>::bits();
    case scalar_kind::long_double_precision:
      return scalar_traits<long double>::bits();
    case scalar_kind::mpfr:
      return scalar_traits<mpfr_real>::bits();
    case scalar_kind::rational:  // exact: no significand (scalar_traits<rational_real>::bits)
      return 0;
    case scalar_kind::interval:  // the endpoints' bits (set with the MPFR precision)
      return scalar_traits<interval_real>::bits();
  }
  return 0;
}
// RapidCheck's global listener prints a "reproduce" string at exit that does not work for our
// runner; iclproof prints its own reproduce command instead, so results go nowhere else.
class silent_listener final : public rc::detail::TestListener {
 public:
  void onTestCaseFinished(const rc::detail::CaseDescription&) override {}
  void onShrinkTried(const rc::detail::CaseDescription&, bool) override {}
  void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}
};

}  // namespace

// RapidCheck prints "Using configuration: seed=..." to std::cerr when its global configuration
// first loads. iclproof passes every parameter explicitly (TestParams), so that line is noise
// (and would break "one error line" on stderr): load it once with std::cerr muted.
void load_rapidcheck_configuration_quietly() {
  static const bool loaded = [] {
    std::ostringstream sink;
    auto* old = std::cerr.rdbuf(sink.rdbuf());
    rc::detail::configuration();
    std::cerr.rdbuf(old);
    return true;
  }();
  (void)loaded;
}

property_result run_body(const property_info& info, const property_body& body,
                         const run_config& cfg) {
  load_rapidcheck_configuration_quietly();
  property_result r;
  r.info = info;
  r.scalar = scalar_kind_name(cfg.scalar);
  r.precision_bits = scalar_bits(cfg.scalar);
  r.exact = cfg.scalar == scalar_kind::rational;
  r.log2_eps = r.exact ? -std::numeric_limits<double>::infinity() : 1.0 - r.precision_bits;
  r.seed = property_seed(cfg.seed, info.name);
  r.reproduce = fmt::format("iclproof check --property '{}' --scalar {} --seed {} --cases {}{}",
                            info.name, r.scalar, cfg.seed, cfg.cases,
                            cfg.scalar == scalar_kind::mpfr || cfg.scalar == scalar_kind::interval
                                ? fmt::format(" --precision {}", r.precision_bits)
                                : std::string());

  case_context ctx(info.name, r.seed, r.scalar, r.precision_bits);
  int done = 0;
  auto testable = [&] {
    ctx.begin_case();
    try {
      body(ctx);
    } catch (const ambiguous_interval_comparison& e) {
      ctx.fail_ambiguous(e.what());
    }
    ++done;
    if (cfg.on_case) cfg.on_case(done);
  };
  rc::detail::TestMetadata md;
  md.id = info.name;
  md.description = info.claim;
  rc::detail::TestParams params;
  params.seed = r.seed;
  params.maxSuccess = cfg.cases;
  params.disableShrinking = !cfg.shrink;

  silent_listener listener;
  const auto t0 = std::chrono::steady_clock::now();
  const rc::detail::TestResult result = rc::detail::checkTestable(testable, md, params, listener);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  r.checks = ctx.checks();
  r.worst_log2_err = ctx.worst_log2_err();
  r.worst_log2_bound = ctx.worst_log2_bound();
  r.max_log2_err_in_eps = ctx.max_log2_err_in_eps();
  r.identity_checks = ctx.identity_checks();
  r.enclosed_checks = ctx.enclosed_checks();
  r.max_log2_width_in_eps = ctx.max_log2_width_in_eps();
  r.proved_bounds.assign(ctx.proved_bounds().begin(), ctx.proved_bounds().end());
  r.hand_derived_bounds.assign(ctx.hand_derived_bounds().begin(), ctx.hand_derived_bounds().end());
  r.margin_log10 = log2_margin(r.worst_log2_err, r.worst_log2_bound) * std::log10(2.0);
  if (ctx.checks() == 0) r.margin_log10 = std::numeric_limits<double>::quiet_NaN();

  rc::detail::SuccessResult success;
  rc::detail::FailureResult failure;
  rc::detail::GaveUpResult gave_up;
  rc::detail::Error error;
  if (result.match(success)) {
    r.cases = success.numSuccess;
    // A property that checked nothing cannot pass.
    r.outcome = ctx.checks() > 0 ? verdict::pass : verdict::fail;
    if (ctx.checks() == 0) r.failure = "the property ran no check";
  } else if (result.match(failure)) {
    r.cases = failure.numSuccess + 1;
    r.outcome = verdict::fail;
    r.failure = failure.description;
    for (const auto& [name, value] : failure.counterExample)
      r.counterexample += name + " = " + value + "\n";
  } else if (result.match(gave_up)) {
    r.cases = gave_up.numSuccess;
    r.outcome = verdict::gave_up;
    r.failure = gave_up.description;
  } else if (result.match(error)) {
    r.outcome = verdict::fail;
    r.failure = "RapidCheck error: " + error.description;
  }
  return r;
}

property_result run_property(const property& p, const run_config& cfg) {
  if (p.applies_in(cfg.scalar)) return run_body(p.info, p.body(cfg.scalar), cfg);
  property_result r;
  r.info = p.info;
  r.scalar = scalar_kind_name(cfg.scalar);
  r.precision_bits = scalar_bits(cfg.scalar);
  r.exact = cfg.scalar == scalar_kind::rational;
  r.seed = property_seed(cfg.seed, p.info.name);
  r.outcome = verdict::not_applicable;
  r.not_applicable_reason = p.not_applicable_reason(cfg.scalar);
  r.margin_log10 = std::numeric_limits<double>::quiet_NaN();
  r.worst_log2_err = r.worst_log2_bound = r.max_log2_err_in_eps =
      std::numeric_limits<double>::quiet_NaN();
  return r;
}

std::vector<const property*> select_properties(const std::string& glob) {
  std::vector<const property*> out;
  for (const auto& p : all_properties())
    if (glob_match(glob, p.info.name)) out.push_back(&p);
  if (out.empty())
    throw std::invalid_argument(
        fmt::format("no property matches '{}' (see 'iclproof list')", glob));
  return out;
}

}  // namespace iclproof
