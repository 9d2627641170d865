#include "harness/runner.hpp"

#include "core/ball.hpp"
#include "core/precision.hpp"

#include <fmt/format.h>

#include <rapidcheck/detail/Configuration.h>
#include <rapidcheck/detail/Property.h>

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

std::uint64_t case_seed(std::uint64_t property_seed, int case_index, int attempt) {
  // SplitMix64 of (property seed, case index, attempt): independent streams per case.
  std::uint64_t z = property_seed +
                    0x9e3779b97f4a7c15ULL * (static_cast<std::uint64_t>(case_index) + 1) +
                    0xd1b54a32d192ed03ULL * static_cast<std::uint64_t>(attempt);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

int case_size(int case_index, int cases) {
  // RapidCheck's sizeFor (src/detail/Testing.cpp) with its default maxSize 100: sizes spread
  // evenly over the cases, the largest one used.
  constexpr int max_size = 100;
  constexpr int num_sizes = max_size + 1;
  const int num_regular = (cases / num_sizes) * num_sizes;
  if (case_index < num_regular) return case_index % num_sizes;
  const int num_rest = cases - num_regular;
  if (num_rest == 1) return 0;
  return ((case_index % num_sizes) * max_size) / (num_rest - 1);
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
    case scalar_kind::ball:  // the midpoints' working precision (set with the MPFR precision)
      return static_cast<int>(ball_precision());
  }
  return 0;
}

// A case that discards (RC_PRE) this many times in a row makes the run give up; more discards
// in all than max_discard_ratio per case does too (RapidCheck's default ratio).
constexpr int max_attempts_per_case = 100;
constexpr long max_discard_ratio = 10;

using rc_shrinkable = rc::Shrinkable<rc::detail::CaseDescription>;

// The RapidCheck property (a generator of case descriptions) that runs `body` on `ctx`.
rc::detail::Property make_property(const property_body& body, case_context& ctx) {
  return rc::detail::toProperty([&body, &ctx] {
    ctx.begin_case();
    try {
      body(ctx);
    } catch (const ambiguous_interval_comparison& e) {
      ctx.fail_ambiguous(e.what());
    }
  });
}

std::string reproduce_command(const property_info& info, const run_config& cfg, int bits) {
  return fmt::format(
      "iclproof check --property '{}' --scalar {} --seed {} --cases {}{}{}", info.name,
      scalar_kind_name(cfg.scalar), cfg.seed, cfg.cases,
      cfg.scalar == scalar_kind::mpfr || cfg.scalar == scalar_kind::interval ||
              cfg.scalar == scalar_kind::ball
          ? fmt::format(" --precision {}", bits)
          : std::string(),
      cfg.size == size_profile::small ? std::string() : " --size " + size_profile_name(cfg.size));
}
}  // namespace

// RapidCheck prints "Using configuration: seed=..." to std::cerr when its global configuration
// first loads. iclproof passes every parameter explicitly, so that line is noise (and would
// break "one error line" on stderr): load it once with std::cerr muted.
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

case_block run_case_block(const property_info& info, const property_body& body,
                          const run_config& cfg, int begin, int end) {
  load_rapidcheck_configuration_quietly();
  const scoped_size_profile sizes(cfg.size);
  case_block b;
  b.begin = begin;
  b.end = end;
  b.precision_bits = scalar_bits(cfg.scalar);
  const std::uint64_t pseed = property_seed(cfg.seed, info.name);
  case_context ctx(info.name, pseed, scalar_kind_name(cfg.scalar), b.precision_bits);
  int done = 0;
  const std::function<void()> count = [&] {
    if (cfg.on_case) cfg.on_case(++done);
  };
  const rc::detail::Property prop = make_property(body, ctx);
  const auto t0 = std::chrono::steady_clock::now();
  drawn_sizes() = {};  // this block's draws only (the record is per process)
  for (int i = begin; i < end && b.event_case < 0; ++i) {
    for (int attempt = 0;; ++attempt) {
      if (attempt == max_attempts_per_case) {
        b.event_case = i;
        b.gave_up = true;
        b.event_description = fmt::format(
            "case {} was discarded {} times in a row (a precondition that almost never holds)", i,
            max_attempts_per_case);
        break;
      }
      const rc_shrinkable s =
          prop(rc::Random(case_seed(pseed, i, attempt)), case_size(i, cfg.cases) + attempt / 10);
      const rc::detail::CaseDescription d = s.value();
      if (d.result.type == rc::detail::CaseResult::Type::Discard) {
        ++b.discards;
        continue;
      }
      if (d.result.type == rc::detail::CaseResult::Type::Failure) {
        b.event_case = i;
        b.event_description = d.result.description;
      } else {
        ++b.passed;
      }
      count();
      break;
    }
  }
  b.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  b.stats = ctx.stats();
  b.drawn = drawn_sizes();
  return b;
}

void append_block(case_block& acc, const case_block& next) {
  if (next.begin != acc.end)
    throw std::logic_error(fmt::format("case blocks out of order: [{}, {}) after [{}, {})",
                                       next.begin, next.end, acc.begin, acc.end));
  acc.end = next.end;
  acc.seconds += next.seconds;
  if (acc.event_case >= 0) return;  // the run stopped before `next`
  case_context merged("", 0, "", 0);
  merged.absorb(acc.stats);
  merged.absorb(next.stats);
  acc.stats = merged.stats();
  acc.passed += next.passed;
  acc.discards += next.discards;
  acc.drawn = max_of(acc.drawn, next.drawn);
  acc.event_case = next.event_case;
  acc.gave_up = next.gave_up;
  acc.event_description = next.event_description;
  if (acc.precision_bits == 0) acc.precision_bits = next.precision_bits;
}

shrunk_case shrink_failing_case(const property_info& info, const property_body& body,
                                const run_config& cfg, int case_index) {
  load_rapidcheck_configuration_quietly();
  const scoped_size_profile sizes(cfg.size);
  const std::uint64_t pseed = property_seed(cfg.seed, info.name);
  // A context of its own: the checks made while shrinking are not the run's cases.
  case_context ctx(info.name, pseed, scalar_kind_name(cfg.scalar), scalar_bits(cfg.scalar));
  const rc::detail::Property prop = make_property(body, ctx);
  // Redraw the failing case exactly as the run drew it (the same attempt after discards).
  std::optional<rc_shrinkable> failing;
  for (int attempt = 0; attempt < max_attempts_per_case && !failing; ++attempt) {
    rc_shrinkable s = prop(rc::Random(case_seed(pseed, case_index, attempt)),
                           case_size(case_index, cfg.cases) + attempt / 10);
    const auto type = s.value().result.type;
    if (type == rc::detail::CaseResult::Type::Failure) failing = std::move(s);
    if (type == rc::detail::CaseResult::Type::Success)
      throw std::logic_error(
          fmt::format("{}: case {} passed when redrawn to shrink it", info.name, case_index));
  }
  if (!failing) throw std::logic_error(info.name + ": the failing case could not be redrawn");
  rc_shrinkable best = *failing;
  if (cfg.shrink) {
    // RapidCheck's shrinkTestCase: take the first smaller case that still fails, repeat.
    auto shrinks = best.shrinks();
    while (auto candidate = shrinks.next()) {
      if (candidate->value().result.type == rc::detail::CaseResult::Type::Failure) {
        best = std::move(*candidate);
        shrinks = best.shrinks();
      }
    }
  }
  const rc::detail::CaseDescription d = best.value();
  shrunk_case out;
  out.description = d.result.description;
  for (const auto& [name, value] : d.example()) out.counterexample += name + " = " + value + "\n";
  return out;
}

property_result finish_run(const property_info& info, const run_config& cfg,
                           const case_block& merged, const std::optional<shrunk_case>& shrunk) {
  property_result r;
  r.info = info;
  r.scalar = scalar_kind_name(cfg.scalar);
  r.precision_bits = merged.precision_bits;
  r.exact = cfg.scalar == scalar_kind::rational;
  r.log2_eps = r.exact ? -std::numeric_limits<double>::infinity() : 1.0 - r.precision_bits;
  r.seed = property_seed(cfg.seed, info.name);
  r.reproduce = reproduce_command(info, cfg, r.precision_bits);
  r.seconds = merged.seconds;
  r.discards = merged.discards;
  const check_stats& st = merged.stats;
  r.checks = st.checks;
  r.worst_log2_err = st.worst_log2_err;
  r.worst_log2_bound = st.worst_log2_bound;
  r.max_log2_err_in_eps = st.max_err_in_eps;
  r.identity_checks = st.identity_checks;
  r.enclosed_checks = st.enclosed_checks;
  r.max_log2_width_in_eps = st.max_width_in_eps;
  r.proved_bounds.assign(st.proved_bounds.begin(), st.proved_bounds.end());
  r.hand_derived_bounds.assign(st.hand_derived_bounds.begin(), st.hand_derived_bounds.end());
  r.margin_log10 = log2_margin(r.worst_log2_err, r.worst_log2_bound) * std::log10(2.0);
  r.drawn = merged.drawn;
  for (const auto& [label, m] : st.by_check)
    r.check_margins.push_back(
        {label, m.checks, m.worst_log2_err, m.worst_log2_bound,
         log2_margin(m.worst_log2_err, m.worst_log2_bound) * std::log10(2.0)});
  if (st.checks == 0) r.margin_log10 = std::numeric_limits<double>::quiet_NaN();
  const long asked = static_cast<long>(merged.end - merged.begin);
  if (merged.event_case >= 0 && merged.gave_up) {
    r.cases = merged.passed;
    r.outcome = verdict::gave_up;
    r.failure = merged.event_description;
  } else if (merged.event_case >= 0) {
    r.cases = merged.passed + 1;
    r.outcome = verdict::fail;
    r.failing_case = merged.event_case;
    r.failure = shrunk ? shrunk->description : merged.event_description;
    if (shrunk) r.counterexample = shrunk->counterexample;
    r.failure += fmt::format("\n(first failing case: case {} of the run)", merged.event_case);
  } else if (merged.discards > max_discard_ratio * asked) {
    r.cases = merged.passed;
    r.outcome = verdict::gave_up;
    r.failure = fmt::format("{} cases discarded for {} asked (more than {} per case)",
                            merged.discards, asked, max_discard_ratio);
  } else {
    r.cases = merged.passed;
    // A property that checked nothing cannot pass.
    r.outcome = st.checks > 0 ? verdict::pass : verdict::fail;
    if (st.checks == 0) r.failure = "the property ran no check";
  }
  return r;
}

property_result run_body(const property_info& info, const property_body& body,
                         const run_config& cfg) {
  const case_block b = run_case_block(info, body, cfg, 0, cfg.cases);
  std::optional<shrunk_case> shrunk;
  if (b.event_case >= 0 && !b.gave_up) shrunk = shrink_failing_case(info, body, cfg, b.event_case);
  return finish_run(info, cfg, b, shrunk);
}

property_result not_applicable_result(const property& p, const run_config& cfg) {
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

property_result run_property(const property& p, const run_config& cfg) {
  if (p.applies_in(cfg.scalar)) return run_body(p.info, p.body(cfg.scalar), cfg);
  return not_applicable_result(p, cfg);
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
