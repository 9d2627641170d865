// report.json: the report's results in reading order (schema reports/report.schema.json,
// documented in reports/SCHEMA.md).
#include "report/report_model.hpp"

#include "harness/parallel_runner.hpp"

#include <fmt/format.h>

#include <cmath>
#include <map>

namespace iclproof {

using json = nlohmann::ordered_json;

namespace {
// The certified run (report_model.hpp: certified_run); null if the report has none.
json certified_json(const property_entry& e) {
  if (!e.certified) return json(nullptr);
  const certified_run& c = *e.certified;
  return {{"scalar", c.scalar},
          {"cases", c.cases},
          {"verdict", c.outcome == verdict::pass             ? "pass"
                      : c.outcome == verdict::gave_up        ? "gave-up"
                      : c.outcome == verdict::not_applicable ? "not-applicable"
                                                             : "fail"},
          {"level", std::string(to_string(c.trust.level))},
          {"limited_by", c.trust.limited_by},
          {"mode", std::string(to_string(c.mode))},
          {"failure", c.failure},
          {"drawn_sizes", drawn_sizes_to_json(c.drawn)},
          {"enclosure_width_log2_in_eps",
           c.mode == check_mode::interval && !std::isnan(c.enclosure_width_log2_in_eps)
               ? number_or_null<json>(c.enclosure_width_log2_in_eps)
               : json(nullptr)}};
}
std::string value_kind(double log2_value) {
  if (std::isnan(log2_value)) return "nan";
  if (std::isinf(log2_value)) return log2_value < 0 ? "zero" : "infinite";
  return "finite";
}
std::string line_style_name(line_style s) {
  switch (s) {
    case line_style::measured:
      return "measured";
    case line_style::bound:
      return "bound";
    case line_style::reference:
      return "reference";
  }
  return "measured";
}
json plot_to_json(const rendered_plot& p) {
  json lines = json::array();
  for (const auto& l : p.figure.lines) {
    json pts = json::array();
    for (const auto& pt : l.points)
      if (std::isfinite(pt.x) && std::isfinite(pt.y)) pts.push_back({pt.x, pt.y});
    lines.push_back({{"label", l.label}, {"style", line_style_name(l.style)}, {"points", pts}});
  }
  json matrices = json::array();
  for (const auto& m : p.figure.matrices) {
    json rows = json::array();
    for (const auto& row : m.values) {
      json r = json::array();
      for (double v : row) r.push_back(number_or_null<json>(v));
      rows.push_back(r);
    }
    matrices.push_back({{"label", m.label}, {"values", rows}});
  }
  return {{"id", p.figure.id},
          {"family", p.figure.family},
          {"title", p.figure.title},
          {"x_label", p.figure.x_label},
          {"y_label", p.figure.y_label},
          {"log_x", p.figure.log_x},
          {"log_y", p.figure.log_y},
          {"caption", p.figure.caption},
          {"file", p.svg_file.empty() ? json(nullptr) : json(p.svg_file)},
          {"lines", lines},
          {"matrices", matrices}};
}
}  // namespace

nlohmann::ordered_json report_to_json(const run_report& r) {
  const auto& p = r.params;
  json tools = json::object();
  for (const auto& [k, v] : r.tools) tools[k] = v;
  json props = json::array();
  for (const auto& e : r.properties) {
    const auto& res = e.result;
    const double log2_max_err = res.max_log2_err_in_eps + res.log2_eps;
    const claim_coverage& cov = res.info.coverage;
    json theorems = json::array();
    for (const auto& c : e.citations)
      theorems.push_back({{"file", c.theorem.file},
                          {"name", c.theorem.name},
                          {"role", std::string(to_string(c.theorem.role))},
                          {"status", c.status},
                          {"checked_in_this_run", c.checked},
                          {"assumptions", c.assumptions}});
    json j = {{"name", res.info.name},
              {"family", res.info.family()},
              {"claim", res.info.claim},
              {"coverage",
               {{"kind", std::string(to_string(cov.kind))},
                {"state", std::string(cov.coverage_word())},
                {"unproved", cov.unproved},
                {"statement",
                 {{"claim", cov.statement.claim},
                  {"checked", cov.statement.checked},
                  {"source", cov.statement.source},
                  {"printed", cov.statement.printed}}},
                {"theorems", theorems},
                {"papers", cov.papers}}},
              {"trust",
               {{"level", std::string(to_string(e.trust.level))},
                {"limited_by", e.trust.limited_by},
                {"mode", std::string(to_string(e.mode))}}},
              {"certified", certified_json(e)},
              {"drawn_sizes", drawn_sizes_to_json(res.drawn)},
              {"scalar", res.scalar},
              {"precision_bits", res.precision_bits},
              {"log2_eps", res.log2_eps},
              {"cases", res.cases},
              {"checks", res.checks},
              {"seed", res.seed},
              {"max_error",
               {{"log2", number_or_null<json>(log2_max_err)},
                {"kind", res.checks > 0 ? value_kind(log2_max_err) : "none"},
                {"text", res.checks > 0 ? format_pow2(log2_max_err) : "n/a"},
                {"log2_in_eps", number_or_null<json>(res.max_log2_err_in_eps)}}},
              {"worst_check",
               {{"log2_error", number_or_null<json>(res.worst_log2_err)},
                {"error_kind", res.checks > 0 ? value_kind(res.worst_log2_err) : "none"},
                {"log2_tolerance", number_or_null<json>(res.worst_log2_bound)},
                {"error_text", format_pow2(res.worst_log2_err)},
                {"tolerance_text", format_pow2(res.worst_log2_bound)}}},
              {"margin_log10", number_or_null<json>(res.margin_log10)},
              {"margin_text", margin_text(res)},
              {"verdict", res.outcome == verdict::pass      ? "pass"
                          : res.outcome == verdict::gave_up ? "gave-up"
                                                            : "fail"},
              {"gate", e.gate.pass ? "pass" : "fail"},
              {"gate_text", e.gate.text},
              {"gate_reasons", e.gate.reasons},
              {"reproduce", res.reproduce}};
    if (res.outcome != verdict::pass) {
      j["failure"] = {{"description", res.failure}, {"counterexample", res.counterexample}};
    } else {
      j["failure"] = nullptr;
    }
    props.push_back(std::move(j));
  }
  json sweep = json::array();
  for (const auto& s : r.sweep)
    sweep.push_back({{"property", s.property},
                     {"requested_bits", s.requested_bits},
                     {"precision_bits", s.bits},
                     {"log2_max_error", number_or_null<json>(s.log2_max_error)},
                     {"max_error_kind", value_kind(s.log2_max_error)},
                     {"log2_tolerance", number_or_null<json>(s.log2_tolerance)},
                     {"verdict", s.verdict}});
  json findings = json::array();
  for (const auto& f : r.findings) {
    json ev = json::array();
    for (const auto& [name, v] : f.evidence_verdicts)
      ev.push_back({{"property", name}, {"verdict", v}});
    json m = nullptr;
    if (f.measurement)
      m = {{"quantity", f.measurement->quantity},
           {"paper_side", f.measurement->paper_side},
           {"corrected_side", f.measurement->corrected_side},
           {"criterion", f.measurement->criterion},
           {"supports_correction", f.measurement->supports_correction},
           {"details", f.measurement->details}};
    findings.push_back({{"id", f.info.id},
                        {"family", f.info.family},
                        {"title", f.info.title},
                        {"source", f.info.source},
                        {"paper_claim", f.info.paper_claim},
                        {"corrected_claim", f.info.corrected_claim},
                        {"paper_value", f.info.paper_value},
                        {"corrected_value", f.info.corrected_value},
                        {"evidence", ev},
                        {"measurement", m},
                        {"measurement_error",
                         f.measurement_error.empty() ? json(nullptr) : json(f.measurement_error)},
                        {"status", f.status}});
  }
  json plots = json::array();
  for (const auto& pl : r.plots) plots.push_back(plot_to_json(pl));
  json trained = json::array();
  for (const auto& t : r.trained) {
    json c = to_json(t.comparison);
    json metrics = json::array();
    for (const auto& m : c["metrics"]) {
      json mm = m;
      mm["verdict"] = !m["gated"].get<bool>()
                          ? (m["passed"].get<bool>() ? "info: holds" : "info: does not hold")
                      : m["passed"].get<bool>()        ? "pass"
                      : m.value("inconclusive", false) ? "inconclusive"
                                                       : "fail";
      metrics.push_back(mm);
    }
    trained.push_back({{"weights", t.path},
                       {"experiment", t.experiment},
                       {"preset", t.preset},
                       {"training_seed", t.training_seed},
                       {"training_steps", t.training_steps},
                       {"final_training_loss", number_or_null<json>(t.final_loss)},
                       {"comparison",
                        {{"precision_bits", t.comparison.precision_bits},
                         {"tasks", t.comparison.tasks},
                         {"seed", t.comparison.seed},
                         {"metrics", metrics},
                         {"tables", c["tables"]},
                         {"notes", c["notes"]}}},
                       {"plots", t.plot_ids},
                       {"verdict", compare_verdict(t.comparison)},
                       // A trained model's distances are empirical (shared/TRUST.md).
                       {"trust_level", std::string(to_string(trust_level::measured))}});
  }
  json seed_sweeps = json::array();
  for (const auto& sw : r.seed_sweeps) {
    json j = to_json(sw.summary);
    json seeds = json::array();
    for (std::size_t i = 0; i < sw.comparisons.size(); ++i) {
      const auto& c = sw.comparisons[i];
      json failing = json::array();
      for (const auto& m : c.metrics)
        if (m.gated && !m.passed) failing.push_back(m.name);
      std::uint64_t seed = 0;
      // The training seed is the weights file's; compare_result carries the task seed only.
      if (i < sw.training_seeds.size()) seed = sw.training_seeds[i];
      seeds.push_back({{"weights", sw.paths[i]},
                       {"training_seed", seed},
                       {"verdict", compare_verdict(c)},
                       {"failing", failing}});
    }
    j["seeds"] = seeds;
    j["trust_level"] = std::string(to_string(trust_level::measured));
    seed_sweeps.push_back(std::move(j));
  }
  json trajectories = json::array();
  for (const auto& tr : r.trajectories) {
    json j = to_json(tr.result);
    j["plots"] = tr.plot_ids;
    j["trust_level"] = std::string(to_string(trust_level::measured));
    trajectories.push_back(std::move(j));
  }
  int proofs_cited = 0, proofs_checked = 0, fully_proved = 0;
  std::map<trust_level, int> levels, certified_levels;
  for (const auto& e : r.properties) {
    proofs_cited += !e.citations.empty();
    proofs_checked += !e.citations.empty() && e.proof_summary() == "checked";
    fully_proved += e.result.info.coverage.fully_proved();
    levels[e.trust.level]++;
    if (e.certified) certified_levels[e.certified->trust.level]++;
  }
  const auto level_counts = [](const std::map<trust_level, int>& counts) {
    json out = json::object();
    for (const auto& [level, name] :
         {std::pair{trust_level::proved_exact, to_string(trust_level::proved_exact)},
          std::pair{trust_level::proved_enclosed, to_string(trust_level::proved_enclosed)},
          std::pair{trust_level::enclosed_hand_derived,
                    to_string(trust_level::enclosed_hand_derived)},
          std::pair{trust_level::tolerance_rounding_model,
                    to_string(trust_level::tolerance_rounding_model)},
          std::pair{trust_level::measured, to_string(trust_level::measured)}})
      out[std::string(name)] = counts.count(level) ? counts.at(level) : 0;
    return out;
  };
  const json trust_levels = level_counts(levels);
  const json certified_trust_levels = level_counts(certified_levels);
  return {{"schema", "iclproof-report"},
          {"schema_version", report_schema_version},
          {"generated_at", r.generated_at},
          {"run",
           {{"scalar", p.scalar},
            {"requested_precision_bits", p.requested_precision_bits},
            {"precision_bits", p.precision_bits},
            {"log2_eps", 1 - p.precision_bits},
            {"cases", p.cases},
            {"seed", p.seed},
            {"property_glob", p.property_glob},
            {"proof_audit", p.proof_audit_path.empty() ? json(nullptr) : json(p.proof_audit_path)},
            {"weights", p.weights_paths},
            {"compare_tasks", p.compare_tasks},
            {"seed_sweep_weights", p.seed_sweep_paths},
            {"trajectory_weights", p.trajectory_paths},
            {"trajectory_tasks", p.trajectory_tasks},
            {"trajectory_calibration_tasks", p.trajectory_calibration_tasks},
            {"sweep_bits", p.sweep_bits},
            {"sweep_cases", p.sweep_cases},
            {"size", p.size},
            {"command", report_command_line(p)}}},
          {"tools", tools},
          {"summary",
           {{"properties", r.properties.size()},
            {"passed", r.passed()},
            {"failed", r.failed()},
            {"proofs_cited", proofs_cited},
            {"proofs_checked", proofs_checked},
            {"fully_proved", fully_proved},
            {"trust_levels", trust_levels},
            {"certified_trust_levels", certified_trust_levels},
            {"trained_models",
             {{"compared", r.trained.size()},
              {"passed", r.trained_passed()},
              {"failed", r.trained_failed()},
              {"inconclusive", r.trained_inconclusive()}}},
            {"verdict", r.verdict()}}},
          {"properties", props},
          {"precision_sweep", sweep},
          {"findings", findings},
          {"trained_models", trained},
          {"seed_sweeps", seed_sweeps},
          {"trajectories", trajectories},
          {"plots", plots},
          {"notes", r.notes}};
}

}  // namespace iclproof
