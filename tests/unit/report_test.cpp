// Tests of the report: the JSON Schema subset validator, report.json against its documented
// schema, determinism, the proof gate, findings and plot sources, trained models (--weights),
// and the HTML's self-containment. Mutation tests: a report broken on purpose must be rejected.
#include "core/precision.hpp"
#include "report/findings.hpp"
#include "report/json_schema.hpp"
#include "report/plot_series.hpp"
#include "report/report_builder.hpp"

#include "errata_catalogue.hpp"

#include "harness/statement_ledger.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>

using namespace iclproof;
using json = nlohmann::json;

namespace {

const std::string sm_property = "references.iterated_sherman_morrison_equals_ridge";

report_options quick_options() {
  report_options opt;
  opt.property_glob = sm_property;
  opt.cases = 3;
  opt.seed = 11;
  opt.sweep_bits = {64, 128};
  opt.sweep_cases = 1;
  opt.draw_plots = false;
  return opt;
}

json as_json(const run_report& r) { return json::parse(report_to_json(r).dump()); }

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("iclproof_report_test_" + name)).string();
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
}

// A finding and a plot source registered the way families do (unique ids: test-only). The
// test findings differ in their title, evidence and measurement only.
finding test_finding(std::string id, std::string title, std::vector<std::string> evidence,
                     std::function<finding_measurement()> measure) {
  return {
      .id = std::move(id),
      .family = "references",
      .title = std::move(title),
      .source = "tests/unit/report_test.cpp",
      .paper_claim = "paper",
      .corrected_claim = "corrected",
      .paper_value = "1",
      .corrected_value = "2",
      .evidence = std::move(evidence),
      .measure = std::move(measure),
  };
}
const finding_registrar contradicted_finding{test_finding(
    "references.report_test_contradicted", "test finding whose measurement supports the paper",
    {sm_property},
    [] { return finding_measurement{"x", "paper: 1", "corrected: 1", "never", false, ""}; })};
const finding_registrar confirmed_finding{test_finding(
    "references.report_test_confirmed", "test finding confirmed by a passing property",
    {sm_property, "tests/unit/report_test.cpp: a unit test"},
    [] { return finding_measurement{"x", "paper: 1", "corrected: 2", "always", true, ""}; })};
const finding_registrar unmeasured_finding{
    test_finding("references.report_test_unmeasured",
                 "test finding with evidence but no measurement", {sm_property}, {})};
const plot_source_registrar test_plot{{
    .id = "references.report_test_knob",
    .family = "references",
    .produce =
        [](const plot_request& req) {
          plot_figure fig;
          fig.id = "references.report_test_knob";
          fig.title = "error vs knob";
          fig.x_label = "log10 s";
          fig.y_label = "log10 error";
          fig.lines.push_back({"measured", line_style::measured, {{1, -2}, {2, -4}}});
          fig.lines.push_back({"bound",
                               line_style::bound,
                               {{1, -1}, {2, -3}, {3, std::numeric_limits<double>::infinity()}}});
          fig.caption = "precision " + std::to_string(req.precision_bits);
          return std::vector<plot_figure>{fig};
        },
}};

}  // namespace

TEST_CASE("schema validator: the subset it supports", "[report]") {
  const json schema = json::parse(R"({
    "type": "object", "required": ["a", "b"], "additionalProperties": false,
    "properties": {
      "a": {"type": "integer", "minimum": 1},
      "b": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/s"}]},
      "c": {"type": "array", "minItems": 2, "items": {"enum": ["x", "y"]}}
    },
    "$defs": {"s": {"type": "string", "pattern": "^ok"}}})");
  CHECK(validate_json(json::parse(R"({"a": 1, "b": null})"), schema).empty());
  CHECK(validate_json(json::parse(R"({"a": 2, "b": "ok!", "c": ["x", "y"]})"), schema).empty());
  CHECK(validate_json(json::parse(R"({"b": null})"), schema).size() == 1);            // required
  CHECK(validate_json(json::parse(R"({"a": 0, "b": null})"), schema).size() == 1);    // minimum
  CHECK(validate_json(json::parse(R"({"a": 1.5, "b": null})"), schema).size() == 1);  // integer
  CHECK(validate_json(json::parse(R"({"a": 1, "b": "no"})"), schema).size() == 1);    // anyOf
  CHECK(validate_json(json::parse(R"({"a": 1, "b": null, "z": 0})"), schema).size() == 1);
  CHECK(validate_json(json::parse(R"({"a": 1, "b": null, "c": ["x"]})"), schema).size() == 1);
  CHECK(validate_json(json::parse(R"({"a": 1, "b": null, "c": ["x", "q"]})"), schema).size() == 1);
  // A keyword it does not implement is an error, not a silent pass.
  CHECK_THROWS_AS(validate_json(json(1), json::parse(R"({"multipleOf": 2})")),
                  std::invalid_argument);
}

TEST_CASE("report.json validates against reports/report.schema.json", "[report]") {
  run_report r = generate_report(quick_options());
  const json j = as_json(r);
  const auto problems = validate_json(j, report_schema());
  INFO((problems.empty() ? std::string() : problems.front()));
  CHECK(problems.empty());
  CHECK(j["schema_version"] == report_schema_version);
  REQUIRE(j["properties"].size() == 1);
  const json& p = j["properties"][0];
  CHECK(p["name"] == sm_property);
  // Fully proved only with its statement-file claim checked (no audit here: the static ledger,
  // proofs/statements/printed.txt, decides); otherwise partially proved, saying why.
  const bool in_ledger = find_statement_claim(builtin_statement_ledger(), sm_property) != nullptr;
  CHECK(p["coverage"]["state"] == (in_ledger ? "fully proved" : "partially proved"));
  CHECK(p["coverage"]["statement"]["claim"] == statement_claim_name(sm_property));
  CHECK(p["coverage"]["statement"]["checked"] == in_ledger);
  CHECK(p["coverage"]["statement"]["source"] == "static ledger");
  if (!in_ledger) CHECK(p["coverage"]["unproved"] == "");  // the theorems state the whole claim
  CHECK(p["coverage"]["theorems"][0]["role"] == "identity");
  CHECK(p["coverage"]["theorems"][0]["status"] == "no audit");
  // No --proof-audit: nothing is proved; a floating-point run is a rounding-model tolerance.
  CHECK(p["trust"]["level"] == "tolerance under a rounding model");
  CHECK(j["summary"]["trust_levels"]["proved + exact"] == 0);
  // The certified run (as `check --certified`): exact rationals for this exact identity; without
  // an audit nothing is proved, so an exact pass is 'enclosed under a hand-derived bound'.
  CHECK(p["certified"]["scalar"] == "rational");
  CHECK(p["certified"]["verdict"] == "pass");
  CHECK(p["certified"]["mode"] == "exact rational");
  CHECK(p["certified"]["level"] == "enclosed under a hand-derived bound");
  CHECK(j["summary"]["certified_trust_levels"]["enclosed under a hand-derived bound"] == 1);
  CHECK(p["cases"] == 3);
  CHECK(p["verdict"] == "pass");
  CHECK(p["max_error"]["log2"].is_number());
  CHECK(j["precision_sweep"].size() == 2);
  for (const char* tool : {"eigen", "boost", "mpfr", "gmp", "coq", "mathcomp"})
    CHECK(!j["tools"][tool].get<std::string>().empty());
  // The registered plot source ran, at the run's precision; its infinite point was dropped.
  bool found = false;
  for (const auto& plot : j["plots"])
    if (plot["id"] == "references.report_test_knob") {
      found = true;
      CHECK(plot["caption"] == "precision 257");
      CHECK(plot["lines"][1]["points"].size() == 2);
      CHECK(plot["lines"][1]["style"] == "bound");
    }
  CHECK(found);
}

TEST_CASE("schema mutation: broken reports are rejected", "[report][mutation]") {
  const json good = as_json(generate_report(quick_options()));
  REQUIRE(validate_json(good, report_schema()).empty());
  json missing = good;
  missing.erase("generated_at");
  CHECK(!validate_json(missing, report_schema()).empty());
  json bad_verdict = good;
  bad_verdict["properties"][0]["verdict"] = "probably";
  CHECK(!validate_json(bad_verdict, report_schema()).empty());
  json bad_type = good;
  bad_type["properties"][0]["cases"] = "three";
  CHECK(!validate_json(bad_type, report_schema()).empty());
  json extra = good;
  extra["run"]["wall_seconds"] = 1.5;  // timings must not leak into report.json
  CHECK(!validate_json(extra, report_schema()).empty());
}

TEST_CASE("same parameters give the same report.json except generated_at", "[report]") {
  json a = as_json(generate_report(quick_options()));
  json b = as_json(generate_report(quick_options()));
  a.erase("generated_at");
  b.erase("generated_at");
  CHECK(a.dump() == b.dump());
  // A different seed changes the cases, so the report must change too.
  report_options other = quick_options();
  other.seed = 12;
  json c = as_json(generate_report(other));
  c.erase("generated_at");
  CHECK(a.dump() != c.dump());
}

TEST_CASE("proof gate: a cited theorem that did not check fails the property", "[report]") {
  const std::string audit = temp_path("audit.json");
  write_file(audit, R"({"schema":1,"theorems":[{"file":"proofs/ShermanMorrison.v",
    "name":"iterated_sherman_morrison_ridge","status":"failed","assumptions":[]}]})");
  report_options opt = quick_options();
  opt.sweep_bits = {};
  opt.proof_audit_path = audit;
  run_report r = generate_report(opt);
  REQUIRE(r.properties.size() == 1);
  CHECK(r.properties[0].result.outcome == verdict::pass);  // numerics hold
  CHECK(r.properties[0].proof_summary() == "failed: iterated_sherman_morrison_ridge");
  CHECK_FALSE(r.properties[0].gate.pass);
  CHECK(r.failed() == 1);

  // Checked, and its statement-file claim checked too (a property is fully proved only through
  // a checked claim_<family>__<rest>: proofs/statements/).
  write_file(audit, R"({"schema":3,"theorems":[{"file":"ShermanMorrison.v",
    "name":"iterated_sherman_morrison_ridge","status":"closed","assumptions":[]}],
    "statements":[{"family":"references",
    "property":"references.iterated_sherman_morrison_equals_ridge",
    "claim":"claim_references__iterated_sherman_morrison_equals_ridge",
    "statement":"claim_references__iterated_sherman_morrison_equals_ridge = ... : Prop",
    "check":"checked","witness":"closed"}]})");
  r = generate_report(opt);
  CHECK(r.properties[0].proof_summary() == "checked");
  CHECK(r.properties[0].gate.pass);
  // With the theorem checked, the certified (exact rational) run is 'proved + exact', and the
  // level shown beside the verdict names both runs.
  REQUIRE(r.properties[0].certified.has_value());
  CHECK(r.properties[0].certified->trust.level == trust_level::proved_exact);
  // Each level is shown with the sizes its run drew (TRUST.md).
  const property_entry& e = r.properties[0];
  CHECK(e.level_summary() == "tolerance under a rounding model at " +
                                 drawn_size_text(e.result.drawn) +
                                 " (mpfr); certified in rational: proved + exact at " +
                                 drawn_size_text(e.certified->drawn));
  CHECK(e.result.drawn.dimension > 0);
  CHECK(e.certified->drawn.dimension > 0);

  write_file(audit, R"({"schema":1,"theorems":[]})");
  r = generate_report(opt);
  CHECK(r.properties[0].proof_summary() == "not in audit: iterated_sherman_morrison_ridge");
  CHECK_FALSE(r.properties[0].gate.pass);

  write_file(audit, "{not json");
  CHECK_THROWS_AS(generate_report(opt), std::runtime_error);
  std::remove(audit.c_str());
}

TEST_CASE("findings: catalogue, registered evidence and measurements", "[report]") {
  const auto all = all_findings();
  const auto has = [&](const std::string& id) {
    return std::any_of(all.begin(), all.end(), [&](const finding& f) { return f.id == id; });
  };
  CHECK(has("akyurek.lemma6_bypass_returns_n"));
  CHECK(has("memformer.eq26_27_extra_one_over_n"));
  CHECK(has("references.report_test_confirmed"));
  const auto again = std::find_if(all.begin(), all.end(), [](const finding& f) {
    return f.id == "references.report_test_confirmed";
  });
  CHECK_THROWS_AS(register_finding(*again), std::logic_error);  // ids are unique

  run_report r = generate_report(quick_options());
  for (const auto& f : r.findings) {
    if (f.info.id == "references.report_test_contradicted") {
      CHECK(f.status == "not reproduced");
      REQUIRE(f.measurement.has_value());
    } else if (f.info.id == "references.report_test_confirmed") {
      CHECK(f.status == "confirmed erratum");
      REQUIRE(f.evidence_verdicts.size() == 2);
      CHECK(f.evidence_verdicts[0].second == "PASS");
      CHECK(f.evidence_verdicts[1].second.rfind("not a property", 0) == 0);
    } else if (f.info.id == "references.report_test_unmeasured") {
      // Evidence passed, but without a measurement nothing is confirmed.
      CHECK(f.status == "not measured");
    } else if (f.info.family == "akyurek") {
      // Not selected in this run: not measured.
      CHECK(f.status == "not measured");
      CHECK(!f.measurement.has_value());
    }
  }
}

// Every erratum of the catalogue (CONSTRUCTIONS.md) must carry a measurement that evaluates both
// sides and confirms the correction: a finding without one fails here.
TEST_CASE("every catalogue erratum is measured, both sides, and confirmed at 256 bits",
          "[report][errata]") {
  scoped_mpfr_precision p(256);
  const auto all = all_findings();
  for (const auto& entry : errata::catalogue()) {
    const auto it =
        std::find_if(all.begin(), all.end(), [&](const finding& f) { return f.id == entry.id; });
    REQUIRE(it != all.end());
    CAPTURE(entry.id);
    REQUIRE(it->measure);
    CHECK(!it->evidence.empty());
    const finding_measurement m = it->measure();
    CAPTURE(m.paper_side, m.corrected_side, m.criterion, m.details);
    CHECK(!m.quantity.empty());
    CHECK(!m.paper_side.empty());
    CHECK(!m.corrected_side.empty());
    CHECK(!m.criterion.empty());
    CHECK(m.supports_correction);
  }
}

TEST_CASE("precision sweep exclusions leave approximate constructions out", "[report]") {
  CHECK(precision_sweep_exclusion_reason(sm_property).empty());
  exclude_from_precision_sweep("references.report_test_excluded_*", "approximate");
  CHECK(precision_sweep_exclusion_reason("references.report_test_excluded_x") == "approximate");
}

// A two-layer Ahn model whose A_l are far from Sigma^-1 (A_1 = I with a correlated Sigma:
// Dist(Sigma^1/2 A_1 Sigma^1/2, I) = Dist(Sigma, I) = ||[[0, .5], [.5, 0]]||_F / ||Sigma||_F
// = 0.447 > 0.10, compare/thresholds.hpp's ahn_dist), in the weights-file format.
const char* far_from_construction_weights =
    R"({"schema": "iclproof-weights", "schema_version": 1, "experiment": "ahn_linear_transformer",
 "preset": "unit", "seed": 5, "config": {},
 "model": {"kind": "ahn_linear", "d": 2, "N": 2, "layers": 2, "tied": false},
 "task": {"inputs": "anisotropic", "d": 2, "N": 2,
          "Sigma": {"shape": [2, 2], "data": [[1, 0.5], [0.5, 1]]}},
 "parameter_sets": [{"A": {"shape": [2, 2], "data": [[1, 0], [0, 1]]}},
                    {"A": {"shape": [2, 2], "data": [[0.5, 0.1], [0.1, 0.5]]}}],
 "loss_curve": {"steps": [10, 20, 30], "loss": [1.64, 1.66, 0.5]}, "training": {}})";

TEST_CASE("trained models: comparison, figures and a failed model failing the report",
          "[report][mutation]") {
  const std::string path = temp_path("far_weights.json");
  write_file(path, far_from_construction_weights);
  report_options opt = quick_options();
  opt.weights_paths = {path};
  opt.compare_tasks = 10;
  const run_report r = generate_report(opt);
  std::remove(path.c_str());
  REQUIRE(r.trained.size() == 1);
  const auto& t = r.trained[0];
  CHECK(t.experiment == "ahn_linear_transformer");
  CHECK(t.training_seed == 5);
  CHECK(t.training_steps == 30);
  CHECK(t.comparison.tasks == 10);
  CHECK(t.comparison.seed == opt.seed);
  CHECK(t.comparison.precision_bits == 257);
  bool dist_failed = false;
  for (const auto& m : t.comparison.metrics)
    if (m.name == "weights.worst_dist_to_sigma_inverse") dist_failed = m.gated && !m.passed;
  CHECK(dist_failed);
  CHECK(!t.comparison.passed);
  // The property passed, the model did not: the report fails (exit code 1 in the CLI).
  CHECK(r.failed() == 0);
  CHECK(r.trained_failed() == 1);
  CHECK(!r.all_pass());
  const json j = as_json(r);
  const auto problems = validate_json(j, report_schema());
  INFO((problems.empty() ? std::string() : problems.front()));
  CHECK(problems.empty());
  CHECK(j["summary"]["verdict"] == "fail");
  CHECK(j["summary"]["trained_models"]["failed"] == 1);
  CHECK(j["run"]["weights"].size() == 1);
  CHECK(j["trained_models"][0]["verdict"] == "fail");
  // Figures: the loss curve (log scale), distance per layer with its threshold, loss per layer.
  std::vector<std::string> ids = t.plot_ids;
  CHECK(std::find(ids.begin(), ids.end(), "trained.1_ahn_linear_transformer.loss_curve") !=
        ids.end());
  bool threshold_drawn = false;
  for (const auto& p : r.plots) {
    if (p.figure.id == "trained.1_ahn_linear_transformer.loss_curve") {
      CHECK(p.figure.log_y);
      REQUIRE(p.figure.lines.size() == 1);
      CHECK(p.figure.lines[0].points.size() == 3);
      CHECK(p.figure.lines[0].points[1].x == 20);
    }
    if (p.figure.id == "trained.1_ahn_linear_transformer.distance_per_layer")
      for (const auto& l : p.figure.lines)
        threshold_drawn = threshold_drawn || l.style == line_style::bound;
  }
  CHECK(threshold_drawn);
  CHECK(std::find(ids.begin(), ids.end(), "trained.1_ahn_linear_transformer.loss_per_layer") !=
        ids.end());
  const std::string html = report_to_html(r);
  CHECK(html.find("Trained models vs constructions") != std::string::npos);
  CHECK(html.find("ahn_linear_transformer (unit preset): FAIL") != std::string::npos);
  CHECK(report_to_markdown(r).find("| weights.worst_dist_to_sigma_inverse |") != std::string::npos);
  // The implicit weights read off the model per layer (Vladymyrov et al. Thm 4.1) against the
  // GD iterates compare measures it against, with the sentence saying what was read and how.
  REQUIRE(t.comparison.tables.contains("implicit_weights"));
  CHECK(t.comparison.tables["implicit_weights"].size() == 2);
  const std::string md = report_to_markdown(r);
  CHECK(md.find("*implicit_weights*") != std::string::npos);
  CHECK(md.find("| layer | cosine_to_reference | relative_distance_to_reference |") !=
        std::string::npos);
  CHECK(md.find("was read off the trained weights and the prompt's context") != std::string::npos);
  // Mutation: the same report without the failed model passes.
  run_report without = r;
  without.trained.clear();
  CHECK(without.all_pass());
  CHECK(as_json(without)["summary"]["verdict"] == "pass");
  CHECK(j["summary"]["trained_models"]["inconclusive"] == 0);
  CHECK(r.exit_code() == 1);
  // The same model with its failing gated metric INCONCLUSIVE instead (a loss ratio on
  // heavy-tailed losses, compare's exit 3): counted as inconclusive, not as failed, and the run
  // is inconclusive (exit 3), neither a pass nor a fail.
  run_report undecided = r;
  for (auto& m : undecided.trained[0].comparison.metrics)
    if (m.gated && !m.passed) {
      m.inconclusive = true;
      m.reason = "Hill tail index 0.8 <= 1: the mean loss may not exist";
    }
  undecided.trained[0].comparison.inconclusive = true;
  CHECK(undecided.trained_failed() == 0);
  CHECK(undecided.trained_inconclusive() == 1);
  CHECK(undecided.trained_passed() == 0);
  CHECK(!undecided.all_pass());
  CHECK(std::string(undecided.verdict()) == "inconclusive");
  CHECK(undecided.exit_code() == 3);
  const json uj = as_json(undecided);
  const auto uproblems = validate_json(uj, report_schema());
  INFO((uproblems.empty() ? std::string() : uproblems.front()));
  CHECK(uproblems.empty());
  CHECK(uj["summary"]["verdict"] == "inconclusive");
  CHECK(uj["summary"]["trained_models"]["failed"] == 0);
  CHECK(uj["summary"]["trained_models"]["inconclusive"] == 1);
  CHECK(uj["trained_models"][0]["verdict"] == "inconclusive");
  const std::string umd = report_to_markdown(undecided);
  CHECK(umd.find("1 of 1 trained models are INCONCLUSIVE") != std::string::npos);
  CHECK(umd.find("FAILED the comparison") == std::string::npos);
  CHECK(report_to_html(undecided).find("(unit preset): INCONCLUSIVE") != std::string::npos);
  // A property failure still makes the run a fail, whatever the trained models say.
  run_report undecided_and_failed = undecided;
  undecided_and_failed.properties.front().gate.pass = false;
  CHECK(std::string(undecided_and_failed.verdict()) == "fail");
  CHECK(undecided_and_failed.exit_code() == 1);
}

TEST_CASE("a malformed weights file stops the report before any property runs", "[report]") {
  const std::string path = temp_path("truncated_weights.json");
  write_file(path, std::string(far_from_construction_weights).substr(0, 200));
  report_options opt = quick_options();
  opt.weights_paths = {path};
  CHECK_THROWS_AS(generate_report(opt), weights_file_error);
  write_file(path, R"({"loss_curve": {"steps": [10, 20], "loss": [1.0, 0.5]}})");
  CHECK_THROWS_AS(generate_report(opt), weights_file_error);
  std::remove(path.c_str());
  opt.weights_paths = {"/nonexistent/w.json"};
  CHECK_THROWS_AS(generate_report(opt), weights_file_error);
  opt.weights_paths = {path};
  opt.compare_tasks = 0;
  CHECK_THROWS_AS(generate_report(opt), std::invalid_argument);
  set_mpfr_precision(default_precision_bits);
}

TEST_CASE("bad input is rejected before the run", "[report]") {
  report_options opt = quick_options();
  opt.property_glob = "nosuch.*";
  CHECK_THROWS_AS(generate_report(opt), std::invalid_argument);
  opt = quick_options();
  opt.sweep_bits = {52};
  CHECK_THROWS_AS(generate_report(opt), std::invalid_argument);
  opt = quick_options();
  opt.precision_bits = 100001;
  CHECK_THROWS_AS(generate_report(opt), std::invalid_argument);
  opt = quick_options();
  opt.scalar = scalar_kind::double_precision;
  opt.precision_bits = 256;
  CHECK_THROWS_AS(generate_report(opt), std::invalid_argument);
  set_mpfr_precision(default_precision_bits);
}

TEST_CASE("HTML is self-contained and Markdown links its plots", "[report]") {
  const std::string dir = temp_path("folder");
  std::filesystem::remove_all(dir);
  report_options opt = quick_options();
  opt.draw_plots = gnuplot_available();
  run_report r = generate_report(opt);
  write_report_folder(r, dir);
  std::ifstream in(dir + "/report.html");
  const std::string html((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(html.find("<script") == std::string::npos);
  CHECK(!std::regex_search(html, std::regex(R"((src|href)\s*=\s*["']https?:)")));
  CHECK(html.find("id=\"prop-" + sm_property + "\"") != std::string::npos);
  CHECK(html.find("Errata") != std::string::npos);
  std::ifstream md_in(dir + "/report.md");
  const std::string md((std::istreambuf_iterator<char>(md_in)), std::istreambuf_iterator<char>());
  if (opt.draw_plots) {
    CHECK(html.find("<svg") != std::string::npos);
    CHECK(md.find("](plots/references_error_vs_precision.svg)") != std::string::npos);
    CHECK(std::filesystem::exists(dir + "/plots/references_error_vs_precision.svg"));
  }
  CHECK(std::filesystem::exists(dir + "/timings.json"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("log2 quantities print as decimal numbers", "[report]") {
  CHECK(format_pow2(0) == "1.00e+0");
  CHECK(format_pow2(-256) == "8.64e-78");
  CHECK(format_pow2(-std::numeric_limits<double>::infinity()) == "0");
  CHECK(format_pow2(std::numeric_limits<double>::quiet_NaN()) == "NaN");
  CHECK(format_pow2(std::log2(9.999)) == "1.00e+1");  // not "10.00e+0"
  CHECK(format_margin(std::numeric_limits<double>::infinity()) == "exact");
  CHECK(format_margin(1.234) == "+1.2");
}

TEST_CASE("a zero error reads as exact even against a zero tolerance", "[report]") {
  property_result r;
  r.checks = 1;
  r.worst_log2_err = -std::numeric_limits<double>::infinity();
  r.worst_log2_bound = -std::numeric_limits<double>::infinity();
  r.margin_log10 = std::numeric_limits<double>::quiet_NaN();
  CHECK(margin_text(r) == "exact");
  r.worst_log2_err = -10;
  r.worst_log2_bound = -5;
  r.margin_log10 = 5 * std::log10(2.0);
  CHECK(margin_text(r) == "+1.5");
}
