// report.md: the report for a repository viewer (the same content as report.html).
#include "core/markdown_text.hpp"
#include "report/report_text_parts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

namespace iclproof {

using namespace report_text;

namespace {

// ---- Markdown -----------------------------------------------------------------------------

std::string md_cell(const std::string& s) { return markdown_cell(s); }

std::string md_anchor(const std::string& family) { return "family-" + family; }

}  // namespace

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
    md << "| `" << e.result.info.name << "` | "
       << md_cell(e.result.info.claim + " Statement file: " + statement_text(e)) << " | "
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
        if (res.outcome == verdict::pass && e->gate.pass) continue;
        md << "### FAILED: `" << res.info.name << "`\n\n";
        if (res.outcome != verdict::pass) {
          md << "```\n" << res.failure << "\n```\n\n";
          if (!res.counterexample.empty())
            md << "Shrunk counterexample:\n\n```\n" << res.counterexample << "```\n\n";
        } else {
          md << "The numerics hold but the gate fails (as `check --ci`): "
             << md_cell(gate_reasons_text(*e)) << ".\n\n";
        }
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

}  // namespace iclproof
