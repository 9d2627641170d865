// The content of one verification report (what `iclproof report` ran and found) and the writers
// that turn it into report.json, report.md and report.html. The schema of report.json is
// reports/SCHEMA.md (machine-readable: reports/report.schema.json).
#pragma once

#include "compare/compare.hpp"
#include "compare/trajectory.hpp"
#include "harness/result_text.hpp"
#include "harness/runner.hpp"
#include "report/families.hpp"
#include "report/findings.hpp"
#include "report/plot_series.hpp"
#include "trust/proof_audit.hpp"
#include "trust/trust_level.hpp"
#include "trust/verdict.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace iclproof {

// Version 2: `run.weights` is an array (one entry per --weights), `run.compare_tasks`,
// `summary.trained_models`, top-level `trained_models`. Version 3: per property `coverage`
// (cited theorems with roles, unproved part) and `trust` (level) replace `theorem` and `proof`;
// `summary.fully_proved`, `summary.trust_levels`. Version 4: per property `certified` (the run in
// its strongest mode, as `check --certified`) and `summary.certified_trust_levels`.
// Version 5: `gate` is the rule of `check --ci` (sharpness included), with `gate_text` and
// `gate_reasons` (reports/SCHEMA.md, "Changes"). Version 6: `coverage.state` "fully proved"
// also needs the property's statement-file claim checked (`coverage.statement`), and a cited
// constant that is not a theorem has the status "not a theorem (<kind>)". Version 8: a certified
// run's `scalar` may be "ball" (--certified runs the interval mode on Arb balls where a property
// has a ball body), and `certified.enclosure_width_log2_in_eps` gives its widest enclosure.
inline constexpr int report_schema_version = 8;

// ---- results ------------------------------------------------------------------------------
// The same property run as `iclproof check --certified` runs it (its strongest mode: exact
// rational, interval (on balls where it has a ball body), else MPFR), at the report's cases and
// seed: the trust level it reaches.
struct certified_run {
  std::string scalar;  // "rational", "interval", "mpfr", ...
  int cases = 0;
  verdict outcome = verdict::fail;
  check_mode mode = check_mode::floating_point;
  trust_assessment trust;
  std::string failure;      // the certified run's failure message ("" if it passed)
  drawn_size_maxima drawn;  // the largest sizes its cases drew: where its level was reached
  // An enclosure run's (interval mode's) widest enclosure, log2 of hi - lo in eps (-inf: every
  // enclosure a point); NaN for other modes.
  double enclosure_width_log2_in_eps = std::numeric_limits<double>::quiet_NaN();
};

struct property_entry {
  property_result result;
  // The certified run (always set by generate_report; the main run itself when the property's
  // strongest mode is the report's scalar).
  std::optional<certified_run> certified;
  // Every theorem the property cites (result.info.coverage) with its status in this run's audit.
  std::vector<citation_status> citations;
  check_mode mode = check_mode::floating_point;
  trust_assessment trust;  // the trust level of this run (trust/property_trust.hpp)
  // The gate for this property (trust/verdict.hpp, in gate mode as `check --ci`): numerics,
  // cited proofs when an audit was given, sharpness; then the certified run's, under the same
  // rule.
  property_verdict gate;
  // "checked" (every cited theorem), "no audit", "none cited", else the first failing status.
  std::string proof_summary() const;
  // The trust level shown beside the verdict: this run's level, and the level the certified run
  // reached when it ran in another mode ("<level> (mpfr); certified in rational: <level>"), each
  // with the sizes at which it was reached (shared/TRUST.md; "... at d <= 8, N <= 20").
  std::string level_summary() const;
};

struct sweep_point {
  std::string property;
  int requested_bits = 0;
  int bits = 0;               // bits the values carried
  double log2_max_error = 0;  // -inf: exact (zero error); NaN: error was NaN
  double log2_tolerance = 0;  // tolerance at the worst check
  std::string verdict;
};

struct finding_entry {
  finding info;
  std::optional<finding_measurement> measurement;
  std::string measurement_error;  // measure() threw: its message
  // Evidence property -> its verdict in this run ("PASS", "FAIL", "not run").
  std::vector<std::pair<std::string, std::string>> evidence_verdicts;
  // "confirmed erratum" (measured in this run: the paper's side is off, the corrected side
  // holds, and no evidence property failed), "not reproduced" (the measurement does not support
  // the correction, it threw, or an evidence property failed), "not measured" (no measurement
  // in this run: its family was not selected, or none is registered).
  std::string status;
};

struct rendered_plot {
  plot_figure figure;
  std::string svg_file;  // relative to the run folder ("plots/x.svg"); "" if not drawn
  std::string svg;       // the SVG text (for inlining into the HTML); "" if not drawn
  std::string error;     // why it was not drawn
};

// One --weights file: what the trainer recorded, and `iclproof compare` run on it by the report.
struct trained_model_entry {
  std::string path;  // as given
  std::string experiment, preset;
  std::uint64_t training_seed = 0;
  std::int64_t training_steps = 0;    // last step of the loss curve (0: empty curve)
  double final_loss = 0;              // last loss-curve point (NaN: empty curve)
  compare_result comparison;          // fresh tasks drawn from the report's seed
  std::vector<std::string> plot_ids;  // figures of this model in run_report::plots
};

// --seed-sweep files of one experiment: each compared (as --weights), and the distribution
// (compare.hpp: summarise_sweep). A measurement: it does not gate the report.
struct report_seed_sweep {
  std::vector<std::string> paths;
  std::vector<compare_result> comparisons;    // in the order of paths
  std::vector<std::uint64_t> training_seeds;  // the weights files' seeds, same order
  sweep_summary summary;
};

// --trajectory snapshots of one experiment (iclproof-train --trajectory K): each compared on
// trajectory_tasks fresh tasks, by seed and step, with the crossing steps. Does not gate.
struct report_trajectory {
  compare_trajectory_result result;
  int calibration_tasks = 0;  // per snapshot, where eta* of K > 1 GD steps is line-searched
  std::vector<std::string> plot_ids;
};

struct report_parameters {
  std::string scalar = "mpfr";
  int requested_precision_bits = 256;
  int precision_bits = 0;  // what values carried
  int cases = 100;
  std::uint64_t seed = 1;
  std::string property_glob = "*";
  std::string proof_audit_path;
  std::vector<std::string> weights_paths;     // --weights, in the order given
  int compare_tasks = default_compare_tasks;  // fresh tasks per comparison (--compare-tasks)
  std::vector<std::string> seed_sweep_paths;  // --seed-sweep, in the order given
  std::vector<std::string> trajectory_paths;  // --trajectory, in the order given
  int trajectory_tasks = 1000;                // fresh tasks per snapshot (--trajectory-tasks)
  int trajectory_calibration_tasks = 10000;   // --trajectory-calibration-tasks
  std::vector<int> sweep_bits;                // empty: no sweep
  int sweep_cases = 5;
  std::string size = "small";  // --size (harness/size_profile.hpp)
};

struct run_report {
  report_parameters params;
  std::string generated_at;  // ISO 8601 UTC; the one field allowed to differ between reruns
  std::vector<std::pair<std::string, std::string>> tools;  // name -> version, in order
  std::vector<property_entry> properties;
  std::vector<sweep_point> sweep;
  std::vector<finding_entry> findings;
  std::vector<rendered_plot> plots;
  std::vector<trained_model_entry> trained;     // one per --weights file
  std::vector<report_seed_sweep> seed_sweeps;   // one per experiment among --seed-sweep files
  std::vector<report_trajectory> trajectories;  // one per experiment among --trajectory files
  bool draw_plots = true;  // false: figures kept in report.json, gnuplot not run (--no-plots)
  std::vector<std::string> notes;  // warnings the reader should see (e.g. gnuplot missing)
  // Wall-clock seconds per phase/property. Written to timings.json and the Markdown/HTML only,
  // never to report.json (which must be byte-identical across reruns).
  std::vector<std::pair<std::string, double>> timings;
  int passed() const;  // properties (the CI gate)
  int failed() const;
  int trained_failed() const;  // trained models with a failed gated comparison metric
  // trained models with no failed gated metric and an inconclusive one (compare's exit 3)
  int trained_inconclusive() const;
  int trained_passed() const;  // trained models whose every gated metric passed
  // No property failed, at least one ran, and every trained model passed its comparison.
  bool all_pass() const;
  // "pass", "fail", or "inconclusive" (no property or trained model failed, and a trained model
  // is inconclusive); exit_code() is 0, 1 or 3 accordingly, as `iclproof compare`'s.
  const char* verdict() const;
  int exit_code() const;
};

// Library and tool versions: compiled-in ones (Eigen, Boost, MPFR, GMP, fmt, nlohmann-json,
// compiler) and external ones (coqc, mathcomp, gnuplot), "unavailable" when they cannot be found.
std::vector<std::pair<std::string, std::string>> collect_tool_versions(const proof_audit& audit);

// The families of the report's sections: report/families.hpp.

// ---- writers ------------------------------------------------------------------------------
// The `iclproof report` command line that reproduces these parameters.
std::string report_command_line(const report_parameters& p);
// Keys in reading order (ordered_json); deterministic for fixed parameters except generated_at.
nlohmann::ordered_json report_to_json(const run_report& r);
std::string report_to_markdown(const run_report& r);
std::string report_to_html(const run_report& r);

// Plots: writes plots/<id>.gp (a gnuplot script with the data inline) and runs gnuplot on it
// to make plots/<id>.svg. Sets svg_file/svg, or error if gnuplot is missing or fails.
bool gnuplot_available();
rendered_plot render_plot(const plot_figure& fig, const std::string& run_dir);
std::string plot_file_stem(const std::string& id);

}  // namespace iclproof
