// report.html: the report for a browser (the same content as report.md), self-contained: inline
// CSS, plots as inline SVG, no script, no external URL.
#include "report/report_text_parts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

namespace iclproof {

using namespace report_text;

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
.v-inconclusive{font-weight:700}
.s-confirmed-erratum{color:var(--pass);font-weight:600}
.s-not-reproduced{color:var(--fail);font-weight:700}
.s-not-measured{color:var(--muted)}
figure{margin:14px 0 22px}
figure .plot{max-width:880px;border:1px solid #e5e7eb;border-radius:4px}
figure .plot svg{display:block;width:100%;height:auto}
figcaption{font-size:13.5px;color:var(--muted);max-width:880px;margin-top:4px}
.missing{color:var(--fail)}
details summary{cursor:pointer}
)css";

// Long text folded into <details> so that the summary table fits a 1400-px window: the first
// `keep` characters (up to a word boundary) as the summary line, the whole text inside.
std::string folded(const std::string& text, std::size_t keep, bool code) {
  const auto wrap = [&](const std::string& t) {
    return code ? "<code>" + esc_name(t) + "</code>" : esc(t);
  };
  if (text.size() <= keep + 20) return wrap(text);
  std::size_t cut = text.rfind(' ', keep);
  if (cut == std::string::npos || cut < keep / 2) cut = keep;
  return "<details><summary>" + wrap(text.substr(0, cut)) + " &hellip;</summary>" + wrap(text) +
         "</details>";
}

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
      << esc_name(e.result.info.name) << "</code></a></td><td>"
      << folded(e.result.info.claim, 100, false)
      << "<br><small>statement file: " << esc(statement_text(e)) << "</small></td><td>"
      << folded(citations_text(e), 80, true) << "</td><td>" << esc(coverage_text(e)) << "</td><td>"
      << esc(proof_text(e)) << "</td>" << verdict_cell(e) << "<td>" << esc(level_text(e))
      << "</td></tr>\n";
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
        if (res.outcome == verdict::pass && e->gate.pass) continue;
        h << "<h3 class=\"v-fail\">FAILED: <code>" << esc(res.info.name) << "</code></h3>\n";
        if (res.outcome != verdict::pass) {
          h << "<pre>" << esc(res.failure) << "</pre>\n";
          if (!res.counterexample.empty())
            h << "<p>Shrunk counterexample:</p>\n<pre>" << esc(res.counterexample) << "</pre>\n";
        } else {
          h << "<p>The numerics hold but the gate fails (as <code>check --ci</code>): "
            << esc(gate_reasons_text(*e)) << ".</p>\n";
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
        << (t.comparison.passed         ? "v-pass"
            : t.comparison.inconclusive ? "v-inconclusive"
                                        : "v-fail")
        << "\">" << esc(trained_heading(i, t)) << "</h3>\n<p>" << esc(trained_provenance(t))
        << "</p>\n";
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
