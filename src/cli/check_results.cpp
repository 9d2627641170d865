// The table, summary, --json (check.json) and --record-levels of finished check runs: `check`
// after running, `merge` after merging check shards.
#include "cli/check_results.hpp"

#include "harness/result_text.hpp"
#include "harness/sharpness.hpp"
#include "trust/claims_ledger.hpp"
#include "trust/property_trust.hpp"
#include "trust/trust_level.hpp"
#include "trust/verdict.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <stdexcept>

namespace iclproof {

namespace {

// Each named check with its worst comparison (log2 of error and tolerance; margin null when the
// check is exact or NaN, like the property's own margin_log10).
nlohmann::json check_margins_json(const property_result& r) {
  nlohmann::json a = nlohmann::json::array();
  for (const check_margin_result& c : r.check_margins)
    a.push_back({{"label", c.label},
                 {"checks", c.checks},
                 {"log2_max_error", number_or_null(c.worst_log2_err)},
                 {"log2_tolerance", number_or_null(c.worst_log2_bound)},
                 {"margin_log10", number_or_null(c.margin_log10)},
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

std::string coverage_word(const claim_coverage& c) { return std::string(c.coverage_word()); }

}  // namespace

int present_check_results(const check_options& opt, const check_setup& setup,
                          const std::vector<property_result>& all, bool print_header) {
  const int bits = setup.bits;
  const std::string& scalar = setup.scalar;
  const bool exact = setup.exact;
  const proof_audit& audit = setup.audit;
  const gate_policy policy{opt.ci, opt.certified ? &setup.recorded : nullptr, opt.certified};
  if (print_header) print_check_header(opt, setup);
  fmt::print("{:<58} {:>6} {:>10} {:>10} {:>10} {:>7}  {:<7}  {}\n", "property", "cases", "error",
             "tolerance", "maxerr/eps", "margin", "verdict", "trust level");

  nlohmann::json results = nlohmann::json::array();
  int passed = 0, failed = 0, fully_proved = 0, not_applicable = 0;
  std::map<trust_level, int> level_counts;
  std::vector<std::pair<std::string, trust_level>> reached;
  std::vector<std::string> regressions;
  // Every result with the statement-file claims of this run's audit (when one is given).
  std::vector<property_result> audited = all;
  for (property_result& r : audited) apply_statement_audit(r, audit);
  for (const property_result& r : audited) {
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
    // The one judge (trust/verdict.hpp): numerics, cited proofs, recorded level, sharpness.
    const property_verdict judged = judge_property_run(r, trust, audit, policy);
    const bool ok = judged.pass;
    const std::string& verdict_text = judged.text;
    const trust_level level = trust.assessment.level;
    if (!judged.level_regression.empty()) regressions.push_back(judged.level_regression);
    const sharpness_limit& sharp = judged.sharpness;
    const std::vector<vacuous_check>& loose_checks = judged.loose_checks;
    const bool vacuous = judged.vacuous;
    (ok ? passed : failed)++;
    fully_proved += cov.fully_proved();
    level_counts[level]++;
    reached.emplace_back(r.info.name, level);
    // Exact mode: the tolerance is 0 and the check is equality, shown as "exact"; the error
    // is 0 when it holds ("maxerr/eps" has no meaning without eps). Where the worst check was
    // an exact comparison with a nonzero Qed bound (an approximation), that bound is shown.
    fmt::print(
        "{:<58} {:>6} {:>10} {:>10} {:>10} {:>7}  {:<7}  {}\n", r.info.name, r.cases,
        format_pow2(r.worst_log2_err),
        r.exact && !std::isfinite(r.worst_log2_bound) ? "exact" : format_pow2(r.worst_log2_bound),
        r.exact                                ? "-"
        : std::isfinite(r.max_log2_err_in_eps) ? format_pow2(r.max_log2_err_in_eps)
                                               : "0",
        format_margin(r.margin_log10), verdict_text, to_string(level));
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
        {"statement",
         {{"claim", cov.statement.claim},
          {"checked", cov.statement.checked},
          {"source", cov.statement.source},
          {"printed", cov.statement.printed}}},
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
        {"verdict_reasons", judged.reasons},
        {"vacuous", vacuous},
        {"sharpness_limit_log10",
         sharp.exempt ? nlohmann::json(nullptr) : nlohmann::json(sharp.log10_factor)},
        {"log2_max_error", number_or_null(r.worst_log2_err)},
        {"log2_tolerance", number_or_null(r.worst_log2_bound)},
        {"tolerance", r.exact && !std::isfinite(r.worst_log2_bound) ? nlohmann::json("exact")
                                                                    : nlohmann::json(nullptr)},
        {"margin_log10", number_or_null(r.margin_log10)},
        {"log2_max_enclosure_width_in_eps", trust.mode == check_mode::interval
                                                ? number_or_null(r.max_log2_width_in_eps)
                                                : nlohmann::json(nullptr)},
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
    out << nlohmann::json{{"schema", "iclproof-check/3"},
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
  // The numerator and the denominator count the same properties (those run: not the ones not
  // applicable in this scalar); the registry's count is CLAIMS.md's (count_fully_proved).
  fmt::print(
      "{} passed, {} failed{}; {} fully proved of the {} properties run ({} of {} in all); "
      "levels: {}\n",
      passed, failed, na_text, fully_proved, passed + failed, count_fully_proved(all_properties()),
      all_properties().size(), levels_text);
  return failed == 0 ? 0 : 1;
}

}  // namespace iclproof
