#include "report/report_text_parts.hpp"

#include "harness/statement_ledger.hpp"
#include "trust/claims_ledger.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace iclproof {

namespace report_text {

// ---- shared helpers -----------------------------------------------------------------------

// The gate's verdict (trust/verdict.hpp), as `check --ci` shows it.
std::string verdict_text(const property_entry& e) { return e.gate.text; }
// Why the gate failed, every reason.
std::string gate_reasons_text(const property_entry& e) {
  std::string s;
  for (const auto& reason : e.gate.reasons) s += (s.empty() ? "" : "; ") + reason;
  return s;
}

// The cited theorems with their roles, then the papers: "name (identity), ...; paper: ...".
std::string citations_text(const property_entry& e) {
  const claim_coverage& c = e.result.info.coverage;
  std::string s;
  for (const auto& t : c.theorems)
    s += (s.empty() ? "" : ", ") + t.text() + " (" + std::string(to_string(t.role)) + ")";
  for (const auto& p : c.papers) s += (s.empty() ? "" : "; ") + ("paper: " + p);
  return s;
}

std::string coverage_text(const property_entry& e) {
  return e.result.info.coverage.coverage_text();
}

// The statement-file claim as Coq prints it (one line, spaces collapsed), to be shown next to
// the property's sentence, or why there is none.
std::string statement_text(const property_entry& e) {
  const statement_status& st = e.result.info.coverage.statement;
  if (st.printed.empty())
    return st.claim + ": " + std::string(no_statement_claim_reason) +
           (st.source == "audit" ? " (not in this run's audit)" : "");
  std::string one;
  bool space = false;
  for (char c : st.printed) {
    if (c == ' ' || c == '\n' || c == '\t') {
      space = !one.empty();
      continue;
    }
    if (space) one += ' ';
    space = false;
    one += c;
  }
  return "Coq: " + one + (st.checked ? "" : " (its check did not pass)");
}

std::string proof_text(const property_entry& e) {
  const std::string s = e.proof_summary();
  if (s == "none cited") return "no theorem cited";
  if (s == "checked") return "cited theorems checked in this run";
  if (s == "no audit") return "not checked in this run (no --proof-audit)";
  return s;
}

std::string level_text(const property_entry& e) { return e.level_summary(); }

// Error and tolerance are shown at the same check: the one with the smallest margin.
std::string worst_error_text(const property_result& r) {
  return r.checks > 0 ? format_pow2(r.worst_log2_err) : "n/a";
}
std::string err_in_eps_text(const property_result& r) {
  if (r.checks == 0) return "n/a";
  if (std::isinf(r.max_log2_err_in_eps) && r.max_log2_err_in_eps < 0) return "0";
  if (std::isnan(r.max_log2_err_in_eps)) return "NaN";
  return fmt::format("{:.3g}", std::exp2(r.max_log2_err_in_eps));
}

std::string headline(const run_report& r) {
  int cited = 0, checked = 0, fully = 0;
  std::map<trust_level, int> levels, certified_levels;
  for (const auto& e : r.properties) {
    cited += !e.citations.empty();
    checked += !e.citations.empty() && e.proof_summary() == "checked";
    fully += e.result.info.coverage.fully_proved();
    levels[e.trust.level]++;
    if (e.certified) certified_levels[e.certified->trust.level]++;
  }
  std::string s = r.failed() == 0
                      ? fmt::format("All {} properties hold.", r.properties.size())
                      : fmt::format("{} of {} properties FAILED.", r.failed(), r.properties.size());
  const auto counts = [](const std::map<trust_level, int>& m) {
    std::string lv;
    for (auto it = m.rbegin(); it != m.rend(); ++it)
      lv += fmt::format("{}{} {}", lv.empty() ? "" : ", ", it->second, to_string(it->first));
    return lv;
  };
  // What was proved leads: each property's strongest verified level is its certified run's
  // (its strongest mode, as `check --certified`).
  if (!certified_levels.empty())
    s += " Strongest verified level per property (its certified run, as `check --certified`): " +
         counts(certified_levels) + ".";
  s += fmt::format(
      " {} fully proved of {} ({} of {} in all, as proofs/CLAIMS.md; the cited theorems state the "
      "whole claim).",
      fully, r.properties.size(), count_fully_proved(all_properties()), all_properties().size());
  if (r.params.proof_audit_path.empty())
    s += fmt::format(
        " {} cite Coq theorems; proofs were not consulted (no --proof-audit), so none is "
        "`proved` in this run.",
        cited);
  else
    s += fmt::format(" {} of {} properties citing theorems had all of them checked in this run.",
                     checked, cited);
  s += fmt::format(" Levels of the {} run: {}.", r.params.scalar, counts(levels));
  if (!r.trained.empty()) {
    const int failed = r.trained_failed(), inconclusive = r.trained_inconclusive();
    if (failed == 0 && inconclusive == 0)
      s += fmt::format(" {} trained model(s) match the constructions.", r.trained.size());
    if (failed > 0)
      s += fmt::format(" {} of {} trained models FAILED the comparison with the constructions.",
                       failed, r.trained.size());
    if (inconclusive > 0)
      s += fmt::format(
          " {} of {} trained models are INCONCLUSIVE: no gated metric failed, and a gated loss "
          "ratio rests on heavy-tailed per-task losses (Hill tail index <= 1), so it neither "
          "passes nor fails.",
          inconclusive, r.trained.size());
  }
  return s;
}

// ---- trained models vs constructions (shared by Markdown and HTML) --------------------------

std::string number_text(double x) {
  if (std::isnan(x)) return "NaN";
  if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
  return fmt::format("{:.6g}", x);
}

std::string json_value_text(const nlohmann::json& v) {
  if (v.is_number_integer() || v.is_number_unsigned()) return v.dump();
  if (v.is_number()) return number_text(v.get<double>());
  if (v.is_null()) return "NaN";  // compare writes non-finite values as null
  if (v.is_string()) return v.get<std::string>();
  if (v.is_object()) {
    std::string out;
    for (const auto& [k, x] : v.items()) {
      if (!out.empty()) out += ", ";
      out += k + " " + json_value_text(x);
    }
    return out;
  }
  return v.dump();
}

std::string metric_verdict(const compare_metric& m) {
  if (!m.gated) return m.passed ? "holds (reported only)" : "does not hold (reported only)";
  return m.passed ? "PASS" : "FAIL";
}

text_table metrics_table(const compare_result& c) {
  text_table t;
  t.head = {"Metric", "Value", "Test", "Gated", "Verdict", "Meaning"};
  t.numeric = {false, true, true, false, false, false};
  for (const auto& m : c.metrics)
    t.rows.push_back({m.name, number_text(m.value), m.relation + " " + number_text(m.threshold),
                      m.gated ? "yes" : "no", metric_verdict(m), m.meaning});
  return t;
}

// Per-layer tables (arrays of objects) as tables; everything else (objects flattened to
// "key.entry") as one "quantity | value" table.
std::vector<std::pair<std::string, text_table>> comparison_tables(const compare_result& c) {
  std::vector<std::pair<std::string, text_table>> out;
  text_table scalars;
  scalars.head = {"Quantity", "Value"};
  scalars.numeric = {false, true};
  for (const auto& [key, value] : c.tables.items()) {
    const bool rows = value.is_array() && !value.empty() &&
                      std::all_of(value.begin(), value.end(),
                                  [](const nlohmann::json& x) { return x.is_object(); });
    if (value.is_object()) {  // e.g. the GD step calibration: one row per entry
      for (const auto& [k, x] : value.items())
        scalars.rows.push_back({key + "." + k, json_value_text(x)});
      continue;
    }
    if (!rows) {
      scalars.rows.push_back({key, json_value_text(value)});
      continue;
    }
    text_table t;
    for (const char* first : {"layer", "parameter_set"})
      if (value.front().contains(first)) t.head.push_back(first);
    for (const auto& [k, x] : value.front().items())
      if (k != "layer" && k != "parameter_set") t.head.push_back(k);
    t.numeric.assign(t.head.size(), true);
    for (const auto& row : value) {
      std::vector<std::string> cells;
      for (const auto& k : t.head) cells.push_back(row.contains(k) ? json_value_text(row[k]) : "");
      t.rows.push_back(std::move(cells));
    }
    out.emplace_back(key, std::move(t));
  }
  if (!scalars.rows.empty()) out.emplace_back("other quantities", std::move(scalars));
  return out;
}

std::string trained_heading(std::size_t index, const trained_model_entry& t) {
  return fmt::format("{}. {} ({} preset): {}", index + 1, t.experiment, t.preset,
                     t.comparison.passed         ? "PASS"
                     : t.comparison.inconclusive ? "INCONCLUSIVE"
                                                 : "FAIL");
}

std::string trained_provenance(const trained_model_entry& t) {
  const auto& c = t.comparison;
  return fmt::format(
      "Weights file {}, trained by iclproof-train with seed {} for {} steps (final training loss "
      "{}). Compared on {} fresh tasks (seed {}) in MPFR at {} bits.",
      t.path, t.training_seed, t.training_steps, number_text(t.final_loss), c.tasks, c.seed,
      c.precision_bits);
}

std::string sweep_heading(const report_seed_sweep& sw) {
  return fmt::format("Seed sweep: {} ({} seeds): {} of {} pass every gated metric",
                     sw.summary.experiment, sw.summary.files, sw.summary.passed, sw.summary.files);
}

std::string sweep_provenance(const report_seed_sweep& sw) {
  const auto& c = sw.comparisons.front();
  return fmt::format(
      "{} weights files of one experiment (scripts/train-seeds.sh), each compared as above on {} "
      "fresh tasks (seed {}) in MPFR at {} bits. Per metric: how many seeds pass, and the "
      "median, minimum and maximum over the seeds (NaN counts as failing). A measurement: the "
      "sweep does not enter the report's verdict.",
      sw.summary.files, c.tasks, c.seed, c.precision_bits);
}

text_table sweep_table(const report_seed_sweep& sw) {
  text_table t;
  t.head = {"Metric", "Seeds passing", "Median", "Min", "Max", "Test", "Gated"};
  t.numeric = {false, true, true, true, true, true, false};
  for (const auto& m : sw.summary.metrics)
    t.rows.push_back({m.name, fmt::format("{}/{}", m.passed, m.total), number_text(m.median),
                      number_text(m.min), number_text(m.max),
                      m.relation + " " + number_text(m.threshold), m.gated ? "yes" : "no"});
  return t;
}

text_table sweep_seed_table(const report_seed_sweep& sw) {
  text_table t;
  t.head = {"Seed", "Verdict", "Failing gated metrics", "Weights"};
  t.numeric = {true, false, false, false};
  for (std::size_t i = 0; i < sw.comparisons.size(); ++i) {
    std::string failing;
    for (const auto& m : sw.comparisons[i].metrics)
      if (m.gated && !m.passed) failing += (failing.empty() ? "" : ", ") + m.name;
    t.rows.push_back({std::to_string(i < sw.training_seeds.size() ? sw.training_seeds[i] : 0),
                      sw.comparisons[i].passed ? "PASS" : "FAIL", failing.empty() ? "-" : failing,
                      sw.paths[i]});
  }
  return t;
}

std::string trajectory_heading(const report_trajectory& tr) {
  return fmt::format("Convergence along training: {} ({} preset)", tr.result.experiment,
                     tr.result.preset);
}

std::string trajectory_provenance(const report_trajectory& tr) {
  std::size_t seeds = tr.result.crossings.size();
  const auto& c = tr.result.points.front().comparison;
  return fmt::format(
      "{} snapshots of {} training seed(s), written by iclproof-train --trajectory at "
      "log-spaced steps, each compared on {} fresh tasks (seed {}) in MPFR at {} bits (where the "
      "GD reference of K > 1 steps is line-searched: on {} calibration tasks per snapshot). The "
      "crossing step of a seed is the first snapshot step from which every gated metric passes "
      "at every later snapshot; the true crossing lies between it and the snapshot before. A "
      "measurement: the trajectory does not enter the report's verdict.",
      tr.result.points.size(), seeds, c.tasks, c.seed, c.precision_bits, tr.calibration_tasks);
}

text_table crossing_table(const report_trajectory& tr) {
  text_table t;
  t.head = {"Seed", "All gated metrics pass from step"};
  t.numeric = {true, true};
  if (!tr.result.crossings.empty())
    for (const auto& [name, step] : tr.result.crossings.front().per_metric) {
      t.head.push_back(name + " from step");
      t.numeric.push_back(true);
    }
  for (const auto& c : tr.result.crossings) {
    std::vector<std::string> row{std::to_string(c.seed),
                                 c.all_gated ? std::to_string(*c.all_gated) : "never"};
    for (const auto& [name, step] : c.per_metric)
      row.push_back(step ? std::to_string(*step) : "never");
    t.rows.push_back(std::move(row));
  }
  return t;
}

const char* trained_intro =
    "Each --weights file is a model trained by iclproof-train. `iclproof compare` evaluates it "
    "with the verifier's own forward pass in MPFR on fresh tasks drawn by iclproof's generator "
    "(not the trainer's) and measures it against the constructions. A model passes when every "
    "gated metric satisfies its test (value relation threshold; NaN fails); the other metrics "
    "are reported only. A failed model fails the report (exit code 1).";

std::string run_line(const run_report& r) {
  const auto& p = r.params;
  return fmt::format(
      "scalar {} at {} bits (eps = 2^{} = {}), {} random cases per property, run seed {}, "
      "properties matching '{}', size profile {}",
      p.scalar, p.precision_bits, 1 - p.precision_bits, format_pow2(1.0 - p.precision_bits),
      p.cases, p.seed, p.property_glob, p.size);
}

std::map<std::string, std::vector<const property_entry*>> by_family(const run_report& r) {
  std::map<std::string, std::vector<const property_entry*>> m;
  for (const auto& e : r.properties) m[e.result.info.family()].push_back(&e);
  return m;
}

std::vector<std::string> section_families(const run_report& r) {
  std::vector<std::string> fams;
  for (const auto& e : r.properties) fams.push_back(e.result.info.family());
  for (const auto& p : r.plots)
    if (p.figure.family != "trained") fams.push_back(p.figure.family);
  return families_in_order(fams);
}

const char* errata_intro =
    "Places where a paper and the verified mathematics disagree. Each erratum is measured in this "
    "run, at the run's MPFR precision (256 bits when the run is in double or long double) on "
    "fixed inputs: the paper's statement and the corrected one "
    "are evaluated on the same data. Status: confirmed erratum = the paper's side is off and the "
    "corrected side holds by the stated criterion (and no evidence property failed); not "
    "reproduced = it does not, or an evidence property failed; not measured = the finding's "
    "family was not selected in this run.";

const char* how_to_read =
    "Each property draws random in-context regression tasks (RapidCheck), runs the construction "
    "through the generic layers in the working precision, and compares it with the closed form "
    "it claims to implement. *Error* and *tolerance* are shown at the check with the smallest "
    "margin; the tolerance is a formula in eps = 2^(1-p), the sizes and the data's scale, "
    "derived from a cited rounding-error analysis. *Max error / eps* is the largest error over "
    "all checks and cases in units of eps. *Margin* is log10(tolerance / error) at that check: +3 "
    "means three decimal "
    "orders to spare, \"exact\" means zero error. A property passes when every check satisfies "
    "error <= tolerance (NaN fails) and, as under `iclproof check --ci`, no tolerance is vacuous "
    "(at 100 cases or more, a margin above the property's or the check's sharpness limit is "
    "VACUOUS and fails) and, with a proof audit, every cited theorem checked. *Coverage* says "
    "whether the cited Coq theorems, taken "
    "together, state the whole claim (fully proved) or name what is missing (partially proved). "
    "*Trust level* says what backs the verdict, strongest first: proved + exact, proved + "
    "enclosed, enclosed under a hand-derived bound, tolerance under a rounding model, measured; "
    "`proved` needs full coverage and a passing proof audit in the same run.";

}  // namespace report_text

std::string report_command_line(const report_parameters& p) {
  std::string s = fmt::format("iclproof report --scalar {}", p.scalar);
  if (p.scalar == "mpfr") s += fmt::format(" --precision {}", p.requested_precision_bits);
  s += fmt::format(" --cases {} --seed {} --property '{}'", p.cases, p.seed, p.property_glob);
  if (p.size != "small") s += " --size " + p.size;
  if (!p.proof_audit_path.empty()) s += " --proof-audit " + p.proof_audit_path;
  for (const auto& w : p.weights_paths) s += " --weights " + w;
  for (const auto& w : p.seed_sweep_paths) s += " --seed-sweep " + w;
  if (!p.weights_paths.empty() || !p.seed_sweep_paths.empty())
    s += fmt::format(" --compare-tasks {}", p.compare_tasks);
  for (const auto& w : p.trajectory_paths) s += " --trajectory " + w;
  if (!p.trajectory_paths.empty())
    s += fmt::format(" --trajectory-tasks {} --trajectory-calibration-tasks {}", p.trajectory_tasks,
                     p.trajectory_calibration_tasks);
  if (p.sweep_bits.empty()) {
    s += " --no-sweep";
  } else {
    std::string bits;
    for (int b : p.sweep_bits) {
      if (!bits.empty()) bits += ',';
      bits += std::to_string(b);
    }
    s += fmt::format(" --sweep-bits {} --sweep-cases {}", bits, p.sweep_cases);
  }
  return s;
}

}  // namespace iclproof
