#include "cli/check_command.hpp"

#include "cli/output_paths.hpp"
#include "merge/shard_file.hpp"

#include "core/precision.hpp"
#include "harness/progress.hpp"
#include "harness/sharpness.hpp"
#include "harness/size_statement.hpp"
#include "report/report_model.hpp"
#include "trust/claims_ledger.hpp"
#include "trust/property_trust.hpp"
#include "trust/trust_level.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace iclproof {

namespace {

std::string format_log2(double log2_value) {
  if (std::isnan(log2_value)) return "NaN";
  if (std::isinf(log2_value)) return log2_value < 0 ? "0" : "inf";
  const double l10 = log2_value * std::log10(2.0);
  const double e = std::floor(l10);
  return fmt::format("{:.2f}e{:+d}", std::pow(10.0, l10 - e), static_cast<int>(e));
}

std::string format_margin(const property_result& r) {
  if (std::isnan(r.margin_log10)) return "n/a";
  if (std::isinf(r.margin_log10)) return r.margin_log10 > 0 ? "exact" : "-inf";
  return fmt::format("{:+.1f}", r.margin_log10);
}

nlohmann::json finite_or_null(double x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr);
}

// Each named check with its worst comparison (log2 of error and tolerance; margin null when the
// check is exact or NaN, like the property's own margin_log10).
nlohmann::json check_margins_json(const property_result& r) {
  nlohmann::json a = nlohmann::json::array();
  for (const check_margin_result& c : r.check_margins)
    a.push_back({{"label", c.label},
                 {"checks", c.checks},
                 {"log2_max_error", finite_or_null(c.worst_log2_err)},
                 {"log2_tolerance", finite_or_null(c.worst_log2_bound)},
                 {"margin_log10", finite_or_null(c.margin_log10)},
                 {"exact", std::isinf(c.margin_log10) && c.margin_log10 > 0},
                 {"sharpness_limit_log10", [&] {
                    const sharpness_limit l = sharpness_limit_of_check(r.info.name, c.label);
                    return l.exempt ? nlohmann::json(nullptr) : nlohmann::json(l.log10_factor);
                  }()}});
  return a;
}

nlohmann::json vacuous_checks_json(const std::vector<vacuous_check>& v) {
  nlohmann::json a = nlohmann::json::array();
  for (const vacuous_check& c : v)
    a.push_back({{"label", c.label},
                 {"checks", c.checks},
                 {"margin_log10", c.margin_log10},
                 {"sharpness_limit_log10", c.limit_log10}});
  return a;
}

std::string read_text_file(const std::string& path, const std::string& what) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + what + " " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string coverage_word(const claim_coverage& c) {
  return c.fully_proved() ? "fully proved" : c.theorems.empty() ? "not proved" : "partially proved";
}

}  // namespace

int run_list_command(const list_options& opt) {
  if (opt.claims_md) {
    fmt::print("{}", claims_ledger_markdown(all_properties()));
    return 0;
  }
  for (const property* p : select_properties(opt.glob)) {
    const claim_coverage& c = p->info.coverage;
    const trust_assessment reach = reachable_level(c, supported_modes(*p));
    fmt::print("{}\n  claim:     {}\n  kind:      {}\n", p->info.name, p->info.claim,
               to_string(c.kind));
    for (const auto& t : c.theorems)
      fmt::print("  theorem:   {} ({})\n", t.text(), to_string(t.role));
    for (const auto& paper : c.papers) fmt::print("  paper:     {}\n", paper);
    fmt::print("  coverage:  {}\n", c.coverage_text());
    fmt::print("  can reach: {}{}\n", to_string(reach.level),
               reach.limited_by.empty() || !c.unproved.empty()
                   ? ""
                   : " (limited by: " + reach.limited_by + ")");
    std::string runs, not_in;
    for (scalar_kind k : all_scalar_kinds) {
      if (p->applies_in(k))
        runs += std::string(runs.empty() ? "" : ", ") + scalar_kind_name(k);
      else
        not_in +=
            fmt::format("\n  not in {}: {}", scalar_kind_name(k), p->not_applicable_reason(k));
    }
    fmt::print("  runs in:   {}{}\n", runs, not_in);
    const std::string sizes = size_statement_of(p->info.name);
    fmt::print("  sizes:     {}{}\n",
               sizes.empty() ? "no statement: keeps the sizes it draws under every --size" : sizes,
               p->applies_in(scalar_kind::rational) && sizes.rfind("fixed", 0) != 0
                   ? "; " + std::string(exact_scalar_size_note)
                   : std::string());
  }
  return 0;
}

namespace {
std::string shard_note(const check_options& opt) {
  if (opt.shard.whole()) return "";
  const auto [b, e] = shard_cases(opt.cases, opt.shard);
  return fmt::format(" (shard {}/{}: cases [{}, {}) of each property)", opt.shard.index,
                     opt.shard.count, b, e);
}

// Everything a check run needs before any property runs: options validated, precision set,
// properties selected, audit and recorded levels read (bad input fails here, before work).
struct check_setup {
  int bits = 0;
  std::string scalar;
  bool exact = false;
  std::vector<const property*> selected;
  proof_audit audit;
  std::map<std::string, trust_level> recorded;
};

check_setup prepare_check(const check_options& opt) {
  check_setup setup;
  if (opt.certified && opt.scalar != scalar_kind::mpfr)
    throw std::invalid_argument(
        "--certified chooses the scalar per property (exact, interval, else MPFR); drop --scalar");
  if (opt.ci && opt.certified && opt.trust_levels_path.empty())
    throw std::invalid_argument(
        "--ci --certified needs --trust-levels FILE (the recorded levels, "
        "properties/trust_levels.txt)");
  if (!opt.trust_levels_path.empty() && !opt.certified)
    throw std::invalid_argument("--trust-levels applies to --certified runs only");
  // The output file first: a long run must not end in "cannot write".
  if (!opt.json_path.empty()) require_writable_file(opt.json_path, "--json");
  // Precision first: set once for the whole run, before any MPFR value exists.
  int& bits = setup.bits;
  setup.scalar = opt.certified ? "certified" : scalar_kind_name(opt.scalar);
  const std::string& scalar = setup.scalar;
  setup.exact = opt.scalar == scalar_kind::rational;
  const bool exact = setup.exact;
  if (opt.jobs < 1) throw std::invalid_argument("--jobs must be at least 1");
  if (opt.scalar == scalar_kind::mpfr) {
    bits = set_mpfr_precision(opt.precision_bits.value_or(default_precision_bits)).actual_bits;
  } else if (opt.scalar == scalar_kind::interval) {
    // The endpoints' precision is the MPFR setting (core/precision.hpp): report what they carry.
    set_mpfr_precision(opt.precision_bits.value_or(default_precision_bits));
    bits = scalar_traits<interval_real>::bits();
  } else if (exact) {
    if (opt.precision_bits)
      throw std::invalid_argument(fmt::format(
          "--precision {} does not apply to --scalar rational (exact); use --scalar mpfr",
          *opt.precision_bits));
  } else {
    bits = opt.scalar == scalar_kind::double_precision ? scalar_traits<double>::bits()
                                                       : scalar_traits<long double>::bits();
    if (opt.precision_bits && *opt.precision_bits != bits)
      throw std::invalid_argument(fmt::format(
          "--precision {} does not apply to --scalar {} (fixed at {} bits); use --scalar mpfr",
          *opt.precision_bits, scalar, bits));
  }
  setup.selected = select_properties(opt.property_glob);
  // Fail early (before any long work) on an unreadable audit or recorded-levels file.
  if (!opt.proof_audit_path.empty()) setup.audit = proof_audit::load(opt.proof_audit_path);
  if (!opt.trust_levels_path.empty())
    setup.recorded = parse_recorded_levels(read_text_file(opt.trust_levels_path, "trust levels"),
                                           opt.trust_levels_path);
  if (!opt.record_levels_path.empty())
    require_writable_file(opt.record_levels_path, "--record-levels");
  return setup;
}

void print_check_header(const check_options& opt, const check_setup& setup) {
  const int bits = setup.bits;
  const std::string& scalar = setup.scalar;
  const bool exact = setup.exact;
  const proof_audit& audit = setup.audit;
  if (exact)
    fmt::print(
        "iclproof check: scalar rational, exact arithmetic (eps = 0, every check is an equality), "
        "{} cases per property, seed {}, size {}{}\n",
        opt.cases, opt.seed, size_profile_name(opt.size), shard_note(opt));
  else
    fmt::print(
        "iclproof check: scalar {}, precision {} bits, eps = 2^{} = {}, {} cases per property, "
        "seed {}, size {}{}\n",
        scalar, bits, 1 - bits, format_log2(1.0 - bits), opt.cases, opt.seed,
        size_profile_name(opt.size), shard_note(opt));
  if (opt.certified)
    fmt::print(
        "--certified: each property runs in its strongest mode (rational if it has an exact body "
        "and an exact claim, else interval if it has an interval body, else rational if it has an "
        "exact body (an approximation under a Qed bound compared exactly), else MPFR)\n");
  if (audit.path.empty())
    fmt::print("no --proof-audit: no property is `proved` in this run (shared/TRUST.md)\n");
  std::fflush(stdout);
}

std::vector<run_request> requests_for(const check_options& opt, const check_setup& setup) {
  std::vector<run_request> requests;
  for (const property* p : setup.selected) {
    run_request q;
    q.prop = p;
    q.cfg.scalar = opt.certified ? certified_scalar(*p) : opt.scalar;
    q.cfg.cases = opt.cases;
    q.cfg.seed = opt.seed;
    q.cfg.size = opt.size;
    if (q.cfg.scalar == scalar_kind::mpfr || q.cfg.scalar == scalar_kind::interval)
      q.cfg.precision_bits = opt.precision_bits.value_or(default_precision_bits);
    q.id = p->info.name + " " + scalar_kind_name(q.cfg.scalar);
    requests.push_back(std::move(q));
  }
  return requests;
}
}  // namespace

nlohmann::json check_parameters_json(const check_options& opt) {
  return {{"property_glob", opt.property_glob},
          {"cases", opt.cases},
          {"precision_bits",
           opt.precision_bits ? nlohmann::json(*opt.precision_bits) : nlohmann::json(nullptr)},
          {"scalar", scalar_kind_name(opt.scalar)},
          {"seed", opt.seed},
          {"proof_audit_path", opt.proof_audit_path},
          {"ci", opt.ci},
          {"certified", opt.certified},
          {"trust_levels_path", opt.trust_levels_path},
          {"size", size_profile_name(opt.size)}};
}

check_options check_options_from_parameters(const nlohmann::json& j) {
  check_options opt;
  try {
    opt.property_glob = j.at("property_glob").get<std::string>();
    opt.cases = j.at("cases").get<int>();
    if (!j.at("precision_bits").is_null()) opt.precision_bits = j.at("precision_bits").get<int>();
    const auto kind = parse_scalar_kind(j.at("scalar").get<std::string>());
    if (!kind) throw std::invalid_argument("unknown scalar " + j.at("scalar").dump());
    opt.scalar = *kind;
    opt.seed = j.at("seed").get<std::uint64_t>();
    opt.proof_audit_path = j.at("proof_audit_path").get<std::string>();
    opt.ci = j.at("ci").get<bool>();
    opt.certified = j.at("certified").get<bool>();
    opt.trust_levels_path = j.at("trust_levels_path").get<std::string>();
    const auto size = parse_size_profile(j.at("size").get<std::string>());
    if (!size) throw std::invalid_argument("unknown size profile " + j.at("size").dump());
    opt.size = *size;
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("shard parameters of a check run: ") + e.what());
  }
  return opt;
}

std::vector<run_request> check_run_requests(const check_options& opt) {
  return requests_for(opt, prepare_check(opt));
}

int run_check_command(const check_options& opt) {
  const check_setup setup = prepare_check(opt);
  if (!opt.shard.whole() && opt.json_path.empty())
    throw std::invalid_argument("--shard needs --json FILE (the shard's results, for merge)");
  if (!opt.shard.whole() && !opt.record_levels_path.empty())
    throw std::invalid_argument(
        "--record-levels records a whole run's levels: not with --shard (a shard's part is not "
        "the run)");
  const std::vector<run_request> requests = requests_for(opt, setup);
  print_check_header(opt, setup);
  progress_reporter reporter("iclproof check");  // stderr, throttled; --quiet silences it
  const run_progress progress = [&](std::size_t i, int cases_done, int total) {
    reporter.update(i, requests.size(), requests[i].prop->info.name, cases_done, total);
  };
  const std::vector<run_part> parts = run_requests(requests, opt.jobs, opt.shard, progress);
  if (!opt.shard.whole())
    write_shard_file(opt.json_path, "check", opt.shard, check_parameters_json(opt), requests,
                     parts);
  std::vector<property_result> results;
  for (std::size_t i = 0; i < requests.size(); ++i)
    results.push_back(result_of(requests[i], parts[i]));
  check_options shown = opt;
  if (!opt.shard.whole()) shown.json_path.clear();  // the shard file is written above
  return present_check_results(shown, results, false);
}

int present_check_results(const check_options& opt, const std::vector<property_result>& all,
                          bool print_header) {
  const check_setup setup = prepare_check(opt);
  const int bits = setup.bits;
  const std::string& scalar = setup.scalar;
  const bool exact = setup.exact;
  const std::vector<const property*>& selected = setup.selected;
  const proof_audit& audit = setup.audit;
  const std::map<std::string, trust_level>& recorded = setup.recorded;
  if (print_header) print_check_header(opt, setup);
  fmt::print("{:<58} {:>6} {:>10} {:>10} {:>10} {:>7}  {:<7}  {}\n", "property", "cases", "error",
             "tolerance", "maxerr/eps", "margin", "verdict", "trust level");

  nlohmann::json results = nlohmann::json::array();
  int passed = 0, failed = 0, fully_proved = 0, not_applicable = 0;
  std::map<trust_level, int> level_counts;
  std::vector<std::pair<std::string, trust_level>> reached;
  std::vector<std::string> regressions;
  for (const property_result& r : all) {
    if (r.outcome == verdict::not_applicable) {
      ++not_applicable;
      fmt::print("{:<58} {:>6} {:>10} {:>10} {:>10} {:>7}  not applicable in {}: {}\n", r.info.name,
                 "-", "-", "-", "-", "-", r.scalar, r.not_applicable_reason);
      results.push_back({{"name", r.info.name},
                         {"claim", r.info.claim},
                         {"claim_kind", std::string(to_string(r.info.coverage.kind))},
                         {"coverage", coverage_word(r.info.coverage)},
                         {"scalar", r.scalar},
                         {"verdict", "not-applicable"},
                         {"not_applicable_reason", r.not_applicable_reason}});
      continue;
    }
    const property_trust trust = assess_property_run(r, audit);
    const claim_coverage& cov = r.info.coverage;
    bool ok = r.outcome == verdict::pass;
    std::string verdict_text = to_string(r.outcome);
    if (ok && opt.ci && !audit.path.empty()) {
      for (const auto& c : trust.citations)
        if (!c.checked) {
          ok = false;
          verdict_text = "FAIL (proof " + c.status + ": " + c.theorem.name + ")";
          break;
        }
    }
    const trust_level level = trust.assessment.level;
    if (opt.certified) {
      if (const auto it = recorded.find(r.info.name); it != recorded.end()) {
        if (std::string msg = level_regression(r.info.name, it->second, level); !msg.empty()) {
          regressions.push_back(msg);
          if (opt.ci) {
            ok = false;
            verdict_text = "FAIL (level fell)";
          }
        }
      }
    }
    // Sharpness gate (harness/sharpness.hpp): a tolerance far above every error is vacuous.
    // Every named check is judged against its own limit too: a loosened bound in a check that is
    // not the property's tightest leaves the property's margin unchanged.
    const sharpness_limit sharp = sharpness_limit_of(r.info.name);
    const std::vector<vacuous_check> loose_checks =
        ok ? vacuous_checks(r) : std::vector<vacuous_check>{};
    const bool vacuous_worst = ok && is_vacuous(r, sharp);
    const bool vacuous = vacuous_worst || !loose_checks.empty();
    if (vacuous) {
      verdict_text = vacuous_worst ? fmt::format("VACUOUS (margin > +{:.1f})", sharp.log10_factor)
                                   : fmt::format("VACUOUS (a check's margin > +{:.1f})",
                                                 loose_checks.front().limit_log10);
      if (opt.ci) ok = false;
    }
    (ok ? passed : failed)++;
    fully_proved += cov.fully_proved();
    level_counts[level]++;
    reached.emplace_back(r.info.name, level);
    // Exact mode: the tolerance is 0 and the check is equality, shown as "exact"; the error
    // is 0 when it holds ("maxerr/eps" has no meaning without eps). Where the worst check was
    // an exact comparison with a nonzero Qed bound (an approximation), that bound is shown.
    fmt::print(
        "{:<58} {:>6} {:>10} {:>10} {:>10} {:>7}  {:<7}  {}\n", r.info.name, r.cases,
        format_log2(r.worst_log2_err),
        r.exact && !std::isfinite(r.worst_log2_bound) ? "exact" : format_log2(r.worst_log2_bound),
        r.exact                                ? "-"
        : std::isfinite(r.max_log2_err_in_eps) ? format_log2(r.max_log2_err_in_eps)
                                               : "0",
        format_margin(r), verdict_text, to_string(level));
    if (!cov.fully_proved()) fmt::print("    {}\n", cov.coverage_text());
    // TRUST.md: a level is shown with the sizes at which it was reached.
    if (opt.certified) fmt::print("    reached at: {}\n", drawn_size_text(r.drawn));
    for (const vacuous_check& v : loose_checks)
      fmt::print("    vacuous check '{}': margin {:+.1f} > +{:.1f} (worst of {} comparisons)\n",
                 v.label, v.margin_log10, v.limit_log10, v.checks);
    if (r.outcome != verdict::pass) {
      fmt::print("---- {}\n{}\n", r.info.name, r.failure);
      if (!r.counterexample.empty()) fmt::print("shrunk counterexample:\n{}", r.counterexample);
      fmt::print("reproduce: {}\n----\n", r.reproduce);
    }
    nlohmann::json theorems = nlohmann::json::array();
    for (const auto& c : trust.citations)
      theorems.push_back({{"file", c.theorem.file},
                          {"name", c.theorem.name},
                          {"role", std::string(to_string(c.theorem.role))},
                          {"proof_status", c.status},
                          {"proof_checked", c.checked}});
    nlohmann::json j = {
        {"name", r.info.name},
        {"claim", r.info.claim},
        {"claim_kind", std::string(to_string(cov.kind))},
        {"theorems", theorems},
        {"papers", cov.papers},
        {"coverage", coverage_word(cov)},
        {"fully_proved", cov.fully_proved()},
        {"unproved", cov.unproved},
        {"check_mode", std::string(to_string(trust.mode))},
        {"trust_level", std::string(to_string(level))},
        {"trust_limited_by", trust.assessment.limited_by},
        {"scalar", r.scalar},
        {"precision_bits", r.exact ? nlohmann::json("exact") : nlohmann::json(r.precision_bits)},
        {"comparison", r.exact ? "exact" : "tolerance"},
        {"cases", r.cases},
        {"checks", r.checks},
        {"seed", r.seed},
        {"verdict", ok ? "pass" : "fail"},
        {"vacuous", vacuous},
        {"sharpness_limit_log10",
         sharp.exempt ? nlohmann::json(nullptr) : nlohmann::json(sharp.log10_factor)},
        {"log2_max_error", std::isfinite(r.worst_log2_err) ? nlohmann::json(r.worst_log2_err)
                                                           : nlohmann::json(nullptr)},
        {"log2_tolerance", std::isfinite(r.worst_log2_bound) ? nlohmann::json(r.worst_log2_bound)
                                                             : nlohmann::json(nullptr)},
        {"tolerance", r.exact && !std::isfinite(r.worst_log2_bound) ? nlohmann::json("exact")
                                                                    : nlohmann::json(nullptr)},
        {"margin_log10",
         std::isfinite(r.margin_log10) ? nlohmann::json(r.margin_log10) : nlohmann::json(nullptr)},
        {"drawn_sizes", drawn_sizes_to_json(r.drawn)},
        {"check_margins", check_margins_json(r)},
        {"vacuous_checks", vacuous_checks_json(loose_checks)},
        {"seconds", r.seconds},
        {"failure", r.failure},
        {"counterexample", r.counterexample},
        {"reproduce", r.reproduce}};
    results.push_back(std::move(j));
  }
  nlohmann::json counts = nlohmann::json::object();
  for (const auto& [level, n] : level_counts) counts[std::string(to_string(level))] = n;
  if (!opt.json_path.empty()) {
    std::ofstream out(opt.json_path);
    if (!out) throw std::runtime_error("cannot write " + opt.json_path);
    out << nlohmann::json{{"schema", "iclproof-check/2"},
                          {"scalar", scalar},
                          {"certified", opt.certified},
                          {"precision_bits",
                           exact ? nlohmann::json("exact") : nlohmann::json(bits)},
                          {"cases", opt.cases},
                          {"seed", opt.seed},
                          {"size", size_profile_name(opt.size)},
                          {"proof_audit", audit.path.empty() ? nlohmann::json(nullptr)
                                                             : nlohmann::json(audit.path)},
                          {"fully_proved", fully_proved},
                          {"trust_level_counts", counts},
                          {"level_regressions", regressions},
                          {"properties", results}}
               .dump(2)
        << "\n";
    if (!out) throw std::runtime_error("cannot write " + opt.json_path);
  }
  if (!opt.record_levels_path.empty()) {
    std::ofstream out(opt.record_levels_path);
    out << format_recorded_levels(reached);
    if (!out) throw std::runtime_error("cannot write " + opt.record_levels_path);
  }
  for (const auto& msg : regressions) fmt::print("{}{}\n", opt.ci ? "FAIL: " : "warning: ", msg);
  std::string levels_text;
  for (auto it = level_counts.rbegin(); it != level_counts.rend(); ++it)
    levels_text +=
        fmt::format("{}{} {}", levels_text.empty() ? "" : ", ", it->second, to_string(it->first));
  const std::string na_text =
      not_applicable > 0 ? fmt::format(", {} not applicable in {}", not_applicable, scalar) : "";
  fmt::print("{} passed, {} failed{}; {} fully proved of {}; levels: {}\n", passed, failed, na_text,
             fully_proved, selected.size(), levels_text);
  return failed == 0 ? 0 : 1;
}

}  // namespace iclproof
