// Runs what a report needs (the properties, the precision sweep, the findings' measurements,
// the registered plot sources, and for each --weights file its training curve and the comparison
// with the constructions) and writes the run folder:
//   report.json   results, schema iclproof-report version 1 (reports/SCHEMA.md); deterministic
//                 for fixed parameters except "generated_at"
//   report.md     the same for a repository viewer; plots linked from plots/
//   report.html   self-contained (inline CSS, inline SVG, no script, no network)
//   timings.json  wall-clock seconds per property (kept out of report.json on purpose)
//   plots/        <id>.gp (gnuplot script, data inline) and <id>.svg per figure
#pragma once

#include "core/scalar.hpp"
#include "harness/parallel_runner.hpp"
#include "report/report_figures.hpp"
#include "report/report_folder.hpp"
#include "report/report_model.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace iclproof {

struct report_options {
  scalar_kind scalar = scalar_kind::mpfr;
  std::optional<int> precision_bits;  // mpfr only; default 256
  int cases = 100;
  std::uint64_t seed = 1;
  std::string property_glob = "*";
  std::string proof_audit_path;  // audit.json of the Coq build; empty: proofs not consulted
  // Trainer outputs (src/trainer/WEIGHTS_FORMAT.md): each one's loss curve is plotted and
  // `iclproof compare` runs on it (fresh tasks from `seed`, the run's MPFR precision).
  std::vector<std::string> weights_paths;
  // As `iclproof compare`'s default (compare.hpp: default_compare_tasks, why 10000).
  int compare_tasks = default_compare_tasks;
  // Seed sweeps: weights files of one or more experiments (grouped by experiment), each compared
  // on compare_tasks tasks; the report shows how many seeds pass each gated metric and the
  // median, min and max of each metric. Not a gate.
  std::vector<std::string> seed_sweep_paths;
  // Trajectory snapshots (iclproof-train --trajectory K), grouped by experiment, each compared on
  // trajectory_tasks tasks: metric vs training step, one line per seed, with the threshold.
  std::vector<std::string> trajectory_paths;
  int trajectory_tasks = 1000;
  // The calibration sample fixing eta* of K > 1 GD steps (compare_options::calibration_tasks) for
  // each snapshot: smaller than compare's 100000 because every snapshot repeats it.
  int trajectory_calibration_tasks = 10000;
  std::vector<int> sweep_bits = {64, 128, 256, 512, 1024};  // empty: no precision sweep
  int sweep_cases = 5;
  bool draw_plots = true;  // false: figures are still computed and kept in report.json
  int jobs = 1;            // worker processes for the property runs (harness/parallel_runner.hpp)
  size_profile size = size_profile::small;  // --size (harness/size_profile.hpp)
};

// Progress of a long run: phase ("run", "sweep 512 bits", "finding", "plot"), the item's index
// and count, its name, and cases done / asked (0/0 when not case-based).
using report_progress =
    std::function<void(const std::string& phase, int index, int total, const std::string& name,
                       int cases_done, int cases_total)>;

// Throws std::invalid_argument / std::runtime_error with a one-line message on bad input
// (unknown property glob, precision out of range, unreadable audit, malformed weights file — the
// latter as weights_file_error, a std::runtime_error). Every input is read before any property
// runs.
// `merged`: the property runs' parts already made (by shards, merged in case order) instead of
// running them here; they must answer report_run_requests(opt) one for one.
run_report generate_report(const report_options& opt, const report_progress& progress = {},
                           const std::vector<run_part>* merged = nullptr);

// The property runs a report makes, in order: every selected property at the run's precision,
// then the precision sweep (each swept property at each --sweep-bits). Validates the options
// (as generate_report) and reads no other input. What `report --shard` runs a part of.
std::vector<run_request> report_run_requests(const report_options& opt);

}  // namespace iclproof
