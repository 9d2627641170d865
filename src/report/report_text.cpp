// report.md and report.html: the same content, for a repository viewer and for a browser.
// The HTML is self-contained: inline CSS, plots as inline SVG, no script, no external URL.
#include "report/report_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

namespace iclproof {

namespace {

// ---- shared helpers -----------------------------------------------------------------------

std::string verdict_text(const property_entry& e) {
  const auto& r = e.result;
  if (r.outcome != verdict::pass) return to_string(r.outcome);
  if (e.certified && e.certified->outcome != verdict::pass)
    return "FAIL (certified run in " + e.certified->scalar + ")";
  if (!e.gate_pass) return "FAIL (proof " + e.proof_summary() + ")";
  return "PASS";
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
  s += fmt::format(" {} fully proved of {} (the cited theorems state the whole claim).", fully,
                   r.properties.size());
  if (r.params.proof_audit_path.empty())
    s += fmt::format(
        " {} cite Coq theorems; proofs were not consulted (no --proof-audit), so none is "
        "`proved` in this run.",
        cited);
  else
    s += fmt::format(" {} of {} properties citing theorems had all of them checked in this run.",
                     checked, cited);
  const auto counts = [](const std::map<trust_level, int>& m) {
    std::string lv;
    for (auto it = m.rbegin(); it != m.rend(); ++it)
      lv += fmt::format("{}{} {}", lv.empty() ? "" : ", ", it->second, to_string(it->first));
    return lv;
  };
  s += " Trust levels: " + counts(levels) + ".";
  if (!certified_levels.empty())
    s += " Trust levels of the certified runs (each property in its strongest mode, as `check "
         "--certified`): " +
         counts(certified_levels) + ".";
  if (!r.trained.empty()) {
    const int failed = r.trained_failed();
    s += failed == 0
             ? fmt::format(" {} trained model(s) match the constructions.", r.trained.size())
             : fmt::format(
                   " {} of {} trained models FAILED the comparison with the "
                   "constructions.",
                   failed, r.trained.size());
  }
  return s;
}

// ---- trained models vs constructions (shared by Markdown and HTML) --------------------------

struct text_table {
  std::vector<std::string> head;
  std::vector<bool> numeric;  // right-aligned columns
  std::vector<std::vector<std::string>> rows;
};

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
                     t.comparison.passed ? "PASS" : "FAIL");
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
    "error <= tolerance (NaN fails). *Coverage* says whether the cited Coq theorems, taken "
    "together, state the whole claim (fully proved) or name what is missing (partially proved). "
    "*Trust level* says what backs the verdict, strongest first: proved + exact, proved + "
    "enclosed, enclosed under a hand-derived bound, tolerance under a rounding model, measured; "
    "`proved` needs full coverage and a passing proof audit in the same run.";

// ---- Markdown -----------------------------------------------------------------------------

std::string md_cell(std::string s) {
  std::string out;
  for (char c : s) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n')
      out += "<br>";
    else
      out += c;
  }
  return out;
}

std::string md_anchor(const std::string& family) { return "family-" + family; }

}  // namespace

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

std::string report_to_markdown(const run_report& r) {
  std::ostringstream md;
  md << "# iclproof verification report\n\n";
  md << "Generated " << r.generated_at << ". " << run_line(r) << ".\n\n";
  md << "**" << headline(r) << "**\n\n";
  for (const auto& n : r.notes) md << "> Note: " << n << "\n\n";

  md << "## Summary\n\n";
  md << "| Construction (property) | Checked against (claim) | Cited (role) | Coverage | Proof "
        "| Verdict | Trust level |\n";
  md << "|---|---|---|---|---|---|---|\n";
  for (const auto& e : r.properties)
    md << "| `" << e.result.info.name << "` | " << md_cell(e.result.info.claim) << " | "
       << md_cell(citations_text(e)) << " | " << md_cell(coverage_text(e)) << " | "
       << md_cell(proof_text(e)) << " | **" << verdict_text(e) << "** | " << level_text(e)
       << " |\n";
  md << "\n" << how_to_read << "\n\n";

  const auto fams = by_family(r);
  for (const auto& fam : section_families(r)) {
    const family_info info = describe_family(fam);
    md << "## " << info.title << " {#" << md_anchor(fam) << "}\n\n";
    md << "*" << family_reference_text(info) << "*\n\n";
    auto it = fams.find(fam);
    if (it != fams.end()) {
      md << "| Property | Cases | Error (worst check) | Tolerance (worst check) | Max error / eps "
            "| Margin (log10) | Property seed | Time (s) | Verdict | Trust level |\n";
      md << "|---|--:|--:|--:|--:|--:|--:|--:|---|---|\n";
      for (const auto* e : it->second) {
        const auto& res = e->result;
        md << "| `" << res.info.name << "` | " << res.cases << " | " << worst_error_text(res)
           << " | " << format_pow2(res.worst_log2_bound) << " | " << err_in_eps_text(res) << " | "
           << margin_text(res) << " | " << res.seed << " | " << fmt::format("{:.2f}", res.seconds)
           << " | " << verdict_text(*e) << " | " << level_text(*e) << " |\n";
      }
      md << "\n";
      for (const auto* e : it->second) {
        const auto& res = e->result;
        if (res.outcome == verdict::pass) continue;
        md << "### FAILED: `" << res.info.name << "`\n\n```\n" << res.failure << "\n```\n\n";
        if (!res.counterexample.empty())
          md << "Shrunk counterexample:\n\n```\n" << res.counterexample << "```\n\n";
        md << "Reproduce: `" << res.reproduce << "`\n\n";
      }
    }
    for (const auto& p : r.plots) {
      if (p.figure.family != fam) continue;
      if (!p.svg_file.empty())
        md << "![" << p.figure.title << "](" << p.svg_file << ")\n\n";
      else
        md << "*Plot \"" << p.figure.title << "\" not drawn: " << p.error << "*\n\n";
      if (!p.figure.caption.empty()) md << p.figure.caption << "\n\n";
    }
  }

  md << "## Errata: paper against corrected\n\n";
  if (r.findings.empty()) {
    md << "No findings registered.\n\n";
  } else {
    md << errata_intro << "\n\n";
    md << "| Finding | Where | Paper: claim and measured in this run | Corrected: claim and "
          "measured in this run | What was measured; evidence | Status |\n";
    md << "|---|---|---|---|---|---|\n";
    for (const auto& f : r.findings) {
      std::string paper = "`" + f.info.paper_value + "`",
                  corrected = "`" + f.info.corrected_value + "`";
      std::string ev;
      if (f.measurement) {
        paper += "<br>" + f.measurement->paper_side;
        corrected += "<br>" + f.measurement->corrected_side;
        ev += f.measurement->quantity + "; decided by: " + f.measurement->criterion + " (" +
              f.measurement->details + ")<br>";
      } else {
        ev += (f.measurement_error.empty() ? "not measured in this run"
                                           : "measurement failed: " + f.measurement_error) +
              "<br>";
      }
      for (const auto& [name, v] : f.evidence_verdicts) ev += "`" + name + "`: " + v + "<br>";
      md << "| **" << md_cell(f.info.title) << "**<br>" << md_cell(f.info.corrected_claim) << " | "
         << md_cell(f.info.source) << " | " << md_cell(paper) << " | " << md_cell(corrected)
         << " | " << md_cell(ev) << " | **" << f.status << "** |\n";
    }
    md << "\n";
  }

  if (!r.trained.empty() || !r.seed_sweeps.empty() || !r.trajectories.empty()) {
    md << "## Trained models vs constructions {#trained}\n\n" << trained_intro << "\n\n";
    // The plots of one trained-models subsection, in the report's plot order.
    const auto md_plots = [&md, &r](const std::vector<std::string>& ids) {
      for (const auto& p : r.plots) {
        if (std::find(ids.begin(), ids.end(), p.figure.id) == ids.end()) continue;
        if (!p.svg_file.empty())
          md << "![" << p.figure.title << "](" << p.svg_file << ")\n\n";
        else
          md << "*Plot \"" << p.figure.title << "\" not drawn: " << p.error << "*\n\n";
        if (!p.figure.caption.empty()) md << p.figure.caption << "\n\n";
      }
    };
    const auto md_table = [&md](const text_table& t) {
      md << "|";
      for (const auto& h : t.head) md << " " << md_cell(h) << " |";
      md << "\n|";
      for (bool num : t.numeric) md << (num ? "--:|" : "---|");
      md << "\n";
      for (const auto& row : t.rows) {
        md << "|";
        for (const auto& cell : row) md << " " << md_cell(cell) << " |";
        md << "\n";
      }
      md << "\n";
    };
    for (std::size_t i = 0; i < r.trained.size(); ++i) {
      const auto& t = r.trained[i];
      md << "### " << trained_heading(i, t) << "\n\n" << trained_provenance(t) << "\n\n";
      md_table(metrics_table(t.comparison));
      for (const auto& [name, table] : comparison_tables(t.comparison)) {
        md << "*" << name << "*\n\n";
        md_table(table);
      }
      for (const auto& n : t.comparison.notes) md << "- " << n << "\n";
      if (!t.comparison.notes.empty()) md << "\n";
      md_plots(t.plot_ids);
    }
    for (const auto& sw : r.seed_sweeps) {
      md << "### " << sweep_heading(sw) << "\n\n" << sweep_provenance(sw) << "\n\n";
      md_table(sweep_table(sw));
      md_table(sweep_seed_table(sw));
    }
    for (const auto& tr : r.trajectories) {
      md << "### " << trajectory_heading(tr) << "\n\n" << trajectory_provenance(tr) << "\n\n";
      md_table(crossing_table(tr));
      md_plots(tr.plot_ids);
    }
  }

  md << "## Tools and versions\n\n| Tool | Version |\n|---|---|\n";
  for (const auto& [k, v] : r.tools) md << "| " << k << " | " << md_cell(v) << " |\n";
  md << "\n## Reproduce\n\n```\n" << report_command_line(r.params) << "\n```\n\n";
  md << "Machine-readable results: `report.json` (schema: reports/SCHEMA.md). Timings: "
        "`timings.json`.\n";
  return md.str();
}

// ---- HTML ---------------------------------------------------------------------------------

namespace {

std::string esc(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// Property names break after '.' and '_' so narrow columns wrap there, not mid-word.
std::string esc_name(const std::string& s) {
  std::string out;
  for (char c : s) {
    out += esc(std::string(1, c));
    if (c == '.' || c == '_') out += "<wbr>";
  }
  return out;
}

// Markdown's *emphasis* as <em> (for the few sentences shared with report.md).
std::string emphasis(const std::string& s) {
  std::string out;
  bool open = false;
  for (char c : s) {
    if (c == '*') {
      out += open ? "</em>" : "<em>";
      open = !open;
    } else {
      out += c;
    }
  }
  if (open) out += "</em>";
  return out;
}

const char* css = R"css(
:root{--fg:#1f2328;--muted:#57606a;--line:#d0d7de;--pass:#116329;--fail:#b3261e}
*{box-sizing:border-box}
body{margin:0;background:#f3f4f6;color:var(--fg);
 font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:1180px;margin:0 auto;padding:28px 36px 48px;background:#fff;min-height:100vh}
h1{font-size:28px;margin:0 0 4px}
h2{font-size:21px;margin:36px 0 6px;padding-top:8px;border-top:1px solid var(--line)}
h3{font-size:16px;margin:20px 0 6px}
p.meta{color:var(--muted);margin:0 0 12px}
p.ref{color:var(--muted);font-style:italic;margin:0 0 10px}
.banner{padding:12px 16px;border-radius:6px;margin:14px 0 8px;font-weight:600}
.banner.pass{background:#e7f5ea;border:1px solid #9fd4ad}
.banner.fail{background:#fdecea;border:1px solid #f1a7a1}
.note{background:#fff8e1;border:1px solid #f0d58c;padding:8px 12px;border-radius:6px;margin:8px 0}
nav ul{margin:4px 0 0;padding-left:20px;columns:2}
table{border-collapse:collapse;width:100%;margin:10px 0 18px;font-size:13.5px}
th,td{border:1px solid var(--line);padding:5px 8px;vertical-align:top;text-align:left}
th{background:#f6f8fa;font-weight:600}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.name{min-width:190px}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;
 font-size:12.5px}
td code{overflow-wrap:anywhere}
pre{background:#f6f8fa;border:1px solid var(--line);border-radius:6px;padding:10px 12px;
 overflow-x:auto;white-space:pre-wrap;overflow-wrap:anywhere}
.v-pass{color:var(--pass);font-weight:700;white-space:nowrap}
.v-fail{color:var(--fail);font-weight:700}
.s-confirmed-erratum{color:var(--pass);font-weight:600}
.s-not-reproduced{color:var(--fail);font-weight:700}
.s-not-measured{color:var(--muted)}
figure{margin:14px 0 22px}
figure .plot{max-width:880px;border:1px solid #e5e7eb;border-radius:4px}
figure .plot svg{display:block;width:100%;height:auto}
figcaption{font-size:13.5px;color:var(--muted);max-width:880px;margin-top:4px}
.missing{color:var(--fail)}
)css";

std::string verdict_cell(const property_entry& e) {
  const std::string v = verdict_text(e);
  return fmt::format("<td class=\"{}\">{}</td>", v == "PASS" ? "v-pass" : "v-fail", esc(v));
}

void html_plot(std::ostringstream& h, const rendered_plot& p) {
  h << "<figure id=\"plot-" << esc(plot_file_stem(p.figure.id)) << "\">\n";
  if (!p.svg.empty())
    h << "<div class=\"plot\">" << p.svg << "</div>\n";
  else
    h << "<p class=\"missing\">Plot \"" << esc(p.figure.title) << "\" not drawn: " << esc(p.error)
      << "</p>\n";
  h << "<figcaption><b>" << esc(p.figure.title) << ".</b> " << esc(p.figure.caption)
    << "</figcaption>\n</figure>\n";
}

}  // namespace

std::string report_to_html(const run_report& r) {
  std::ostringstream h;
  const bool ok = r.all_pass();
  h << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    << "<title>iclproof report: " << (ok ? "all properties hold" : "FAILURES") << " (seed "
    << r.params.seed << ")</title>\n<style>" << css << "</style>\n</head>\n<body>\n<main>\n";
  h << "<h1>iclproof verification report</h1>\n";
  h << "<p class=\"meta\">Generated " << esc(r.generated_at) << ". " << esc(run_line(r))
    << ".</p>\n";
  h << "<div class=\"banner " << (ok ? "pass" : "fail") << "\">" << esc(headline(r)) << "</div>\n";
  for (const auto& n : r.notes) h << "<div class=\"note\">" << esc(n) << "</div>\n";

  const auto families = section_families(r);
  h << "<nav><b>Contents</b><ul><li><a href=\"#summary\">Summary</a></li>\n";
  for (const auto& fam : families)
    h << "<li><a href=\"#family-" << esc(fam) << "\">" << esc(describe_family(fam).title)
      << "</a></li>\n";
  h << "<li><a href=\"#errata\">Errata: paper against corrected</a></li>\n";
  if (!r.trained.empty() || !r.seed_sweeps.empty() || !r.trajectories.empty())
    h << "<li><a href=\"#trained\">Trained models vs constructions</a></li>\n";
  h << "<li><a href=\"#tools\">Tools and versions</a></li>\n"
    << "<li><a href=\"#reproduce\">Reproduce</a></li></ul></nav>\n";

  // Summary.
  h << "<h2 id=\"summary\">Summary</h2>\n<table>\n<thead><tr><th>Construction (property)</th>"
       "<th>Checked against (claim)</th><th>Cited (role)</th><th>Coverage</th><th>Proof</th>"
       "<th>Verdict</th><th>Trust level</th></tr></thead>\n<tbody>\n";
  for (const auto& e : r.properties) {
    h << "<tr><td class=\"name\"><a href=\"#prop-" << esc(e.result.info.name) << "\"><code>"
      << esc_name(e.result.info.name) << "</code></a></td><td>" << esc(e.result.info.claim)
      << "</td><td><code>" << esc_name(citations_text(e)) << "</code></td><td>"
      << esc(coverage_text(e)) << "</td><td>" << esc(proof_text(e)) << "</td>" << verdict_cell(e)
      << "<td>" << esc(level_text(e)) << "</td></tr>\n";
  }
  h << "</tbody></table>\n<p>" << emphasis(esc(how_to_read)) << "</p>\n";

  // One section per family.
  const auto fams = by_family(r);
  for (const auto& fam : families) {
    const family_info info = describe_family(fam);
    h << "<h2 id=\"family-" << esc(fam) << "\">" << esc(info.title) << "</h2>\n<p class=\"ref\">"
      << esc(family_reference_text(info)) << "</p>\n";
    auto it = fams.find(fam);
    if (it != fams.end()) {
      h << "<table>\n<thead><tr><th>Property</th><th class=\"num\">Cases</th>"
           "<th class=\"num\">Error<br>(worst check)</th><th class=\"num\">Tolerance<br>(worst "
           "check)</th>"
           "<th class=\"num\">Max error<br>/ eps</th><th class=\"num\">Margin<br>(log10)</th>"
           "<th class=\"num\">Property seed</th><th class=\"num\">Time (s)</th><th>Verdict</th>"
           "<th>Trust level</th></tr></thead>\n<tbody>\n";
      for (const auto* e : it->second) {
        const auto& res = e->result;
        h << "<tr id=\"prop-" << esc(res.info.name) << "\"><td class=\"name\"><code>"
          << esc_name(res.info.name) << "</code></td><td class=\"num\">" << res.cases
          << "</td><td class=\"num\">" << worst_error_text(res) << "</td><td class=\"num\">"
          << format_pow2(res.worst_log2_bound) << "</td><td class=\"num\">" << err_in_eps_text(res)
          << "</td><td class=\"num\">" << margin_text(res) << "</td><td class=\"num\">" << res.seed
          << "</td><td class=\"num\">" << fmt::format("{:.2f}", res.seconds) << "</td>"
          << verdict_cell(*e) << "<td>" << esc(level_text(*e)) << "</td></tr>\n";
      }
      h << "</tbody></table>\n";
      for (const auto* e : it->second) {
        const auto& res = e->result;
        if (res.outcome == verdict::pass && e->gate_pass) continue;
        h << "<h3 class=\"v-fail\">FAILED: <code>" << esc(res.info.name) << "</code></h3>\n";
        if (res.outcome != verdict::pass) {
          h << "<pre>" << esc(res.failure) << "</pre>\n";
          if (!res.counterexample.empty())
            h << "<p>Shrunk counterexample:</p>\n<pre>" << esc(res.counterexample) << "</pre>\n";
        } else {
          h << "<p>The numerics hold but a cited theorem did not check: " << esc(e->proof_summary())
            << ".</p>\n";
        }
        h << "<p>Reproduce: <code>" << esc(res.reproduce) << "</code></p>\n";
      }
    }
    for (const auto& p : r.plots)
      if (p.figure.family == fam) html_plot(h, p);
  }

  // Errata.
  h << "<h2 id=\"errata\">Errata: paper against corrected</h2>\n";
  if (r.findings.empty()) {
    h << "<p>No findings registered.</p>\n";
  } else {
    h << "<p>" << esc(errata_intro) << "</p>\n";
    h << "<table>\n<thead><tr><th>Finding</th><th>Where</th><th>Paper: claim and measured in "
         "this run</th><th>Corrected: claim and measured in this run</th><th>What was measured; "
         "evidence</th><th>Status</th></tr></thead>\n<tbody>\n";
    for (const auto& f : r.findings) {
      h << "<tr><td><b>" << esc(f.info.title) << "</b><br>" << esc(f.info.corrected_claim)
        << "</td><td>" << esc(f.info.source) << "</td><td><code>" << esc(f.info.paper_value)
        << "</code>";
      if (f.measurement) h << "<br>" << esc(f.measurement->paper_side);
      h << "</td><td><code>" << esc(f.info.corrected_value) << "</code>";
      if (f.measurement) h << "<br>" << esc(f.measurement->corrected_side);
      h << "</td><td>";
      if (f.measurement) {
        h << esc(f.measurement->quantity) << "; decided by: " << esc(f.measurement->criterion)
          << " (" << esc(f.measurement->details) << ")<br>";
      } else if (!f.measurement_error.empty()) {
        h << "<span class=\"v-fail\">measurement failed: " << esc(f.measurement_error)
          << "</span><br>";
      } else {
        h << "<span class=\"s-not-measured\">not measured in this run</span><br>";
      }
      for (const auto& [name, v] : f.evidence_verdicts)
        h << "<code>" << esc_name(name) << "</code>: " << esc(v) << "<br>";
      std::string cls = f.status;
      std::replace(cls.begin(), cls.end(), ' ', '-');
      h << "</td><td class=\"s-" << esc(cls) << "\">" << esc(f.status) << "</td></tr>\n";
    }
    h << "</tbody></table>\n";
  }

  if (!r.trained.empty() || !r.seed_sweeps.empty() || !r.trajectories.empty()) {
    h << "<h2 id=\"trained\">Trained models vs constructions</h2>\n<p>"
      << emphasis(esc(trained_intro)) << "</p>\n";
    const auto html_table = [&h](const text_table& t, bool verdict_column) {
      h << "<table>\n<thead><tr>";
      for (std::size_t k = 0; k < t.head.size(); ++k)
        h << "<th" << (t.numeric[k] ? " class=\"num\"" : "") << ">" << esc_name(t.head[k])
          << "</th>";
      h << "</tr></thead>\n<tbody>\n";
      for (const auto& row : t.rows) {
        h << "<tr>";
        for (std::size_t k = 0; k < row.size(); ++k) {
          std::string cls = t.numeric[k] ? "num" : "";
          if (verdict_column && t.head[k] == "Verdict")
            cls = row[k] == "PASS" ? "v-pass" : row[k] == "FAIL" ? "v-fail" : "";
          h << "<td" << (cls.empty() ? "" : " class=\"" + cls + "\"") << ">"
            << (k == 0 && !t.numeric[k] ? "<code>" + esc_name(row[k]) + "</code>" : esc(row[k]))
            << "</td>";
        }
        h << "</tr>\n";
      }
      h << "</tbody></table>\n";
    };
    for (std::size_t i = 0; i < r.trained.size(); ++i) {
      const auto& t = r.trained[i];
      h << "<h3 id=\"trained-" << i + 1 << "\" class=\""
        << (t.comparison.passed ? "v-pass" : "v-fail") << "\">" << esc(trained_heading(i, t))
        << "</h3>\n<p>" << esc(trained_provenance(t)) << "</p>\n";
      html_table(metrics_table(t.comparison), true);
      for (const auto& [name, table] : comparison_tables(t.comparison)) {
        h << "<p><i>" << esc(name) << "</i></p>\n";
        html_table(table, false);
      }
      if (!t.comparison.notes.empty()) {
        h << "<ul>\n";
        for (const auto& n : t.comparison.notes) h << "<li>" << esc(n) << "</li>\n";
        h << "</ul>\n";
      }
      for (const auto& p : r.plots)
        if (std::find(t.plot_ids.begin(), t.plot_ids.end(), p.figure.id) != t.plot_ids.end())
          html_plot(h, p);
    }
    for (std::size_t i = 0; i < r.seed_sweeps.size(); ++i) {
      const auto& sw = r.seed_sweeps[i];
      h << "<h3 id=\"seed-sweep-" << i + 1 << "\">" << esc(sweep_heading(sw)) << "</h3>\n<p>"
        << esc(sweep_provenance(sw)) << "</p>\n";
      html_table(sweep_table(sw), false);
      html_table(sweep_seed_table(sw), true);
    }
    for (std::size_t i = 0; i < r.trajectories.size(); ++i) {
      const auto& tr = r.trajectories[i];
      h << "<h3 id=\"trajectory-" << i + 1 << "\">" << esc(trajectory_heading(tr)) << "</h3>\n<p>"
        << esc(trajectory_provenance(tr)) << "</p>\n";
      html_table(crossing_table(tr), false);
      for (const auto& p : r.plots)
        if (std::find(tr.plot_ids.begin(), tr.plot_ids.end(), p.figure.id) != tr.plot_ids.end())
          html_plot(h, p);
    }
  }

  h << "<h2 id=\"tools\">Tools and versions</h2>\n<table style=\"width:auto\">\n<tbody>\n";
  for (const auto& [k, v] : r.tools)
    h << "<tr><th>" << esc(k) << "</th><td class=\"mono\">" << esc(v) << "</td></tr>\n";
  h << "</tbody></table>\n";
  h << "<h2 id=\"reproduce\">Reproduce</h2>\n<pre>" << esc(report_command_line(r.params))
    << "</pre>\n<p>Machine-readable results are in <code>report.json</code> (schema "
       "<code>iclproof-report</code> version "
    << report_schema_version
    << ", documented in reports/SCHEMA.md); timings in <code>timings.json</code>; each plot's "
       "gnuplot script and SVG in <code>plots/</code>.</p>\n";
  h << "</main>\n</body>\n</html>\n";
  return h.str();
}

}  // namespace iclproof
