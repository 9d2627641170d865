#include "cli/report_command.hpp"

#include "cli/output_paths.hpp"
#include "cli/run_parameters.hpp"
#include "cli/scheduler_shard.hpp"
#include "harness/shard_file.hpp"

#include "core/precision.hpp"
#include "harness/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace iclproof {

progress_line::progress_line() : tty_(::isatty(::fileno(stderr)) != 0) {}

void progress_line::show(const std::string& text) {
  if (!tty_) return;
  std::string line = text.size() > 118 ? text.substr(0, 117) + "~" : text;
  const std::size_t width = line.size();
  if (width < shown_) line += std::string(shown_ - width, ' ');
  std::fprintf(stderr, "\r%s", line.c_str());
  std::fflush(stderr);
  shown_ = width;
}

void progress_line::clear() {
  if (!tty_ || shown_ == 0) return;
  std::fprintf(stderr, "\r%s\r", std::string(shown_, ' ').c_str());
  std::fflush(stderr);
  shown_ = 0;
}

namespace {
std::vector<int> parse_bits_list(const std::string& text) {
  std::vector<int> bits;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    std::size_t used = 0;
    int b = 0;
    try {
      b = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != item.size())
      throw std::invalid_argument("--sweep-bits: '" + item + "' is not a whole number of bits");
    bits.push_back(b);
  }
  if (bits.empty()) throw std::invalid_argument("--sweep-bits: empty list (use --no-sweep)");
  return bits;
}
}  // namespace

report_subcommand::report_subcommand(CLI::App& app) {
  cmd_ = app.add_subcommand(
      "report",
      "Run properties and write a report folder (report.json, report.md, report.html, plots)");
  cmd_->add_option("--out", out_dir_,
                   "Report folder (default reports/runs/<date>_seed<S>, relative to the current "
                   "directory)");
  cmd_->add_option("--property", opt_.property_glob, "Glob over property names")
      ->capture_default_str();
  cmd_->add_option("--cases", opt_.cases, "Random cases per property")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  precision_opt_ =
      cmd_->add_option("--precision", precision_,
                       fmt::format("MPFR precision in bits [{}, {}] (default {})",
                                   min_precision_bits, max_precision_bits, default_precision_bits));
  cmd_->add_option("--scalar", scalar_name_, "mpfr | double | long-double")
      ->check(CLI::IsMember({"mpfr", "double", "long-double"}))
      ->capture_default_str();
  cmd_->add_option("--seed", opt_.seed, "Run seed")->capture_default_str();
  cmd_->add_option("--size", size_text_,
                   "small (the CI ranges) | paper (the papers' sizes: d <= 20, N <= 100, depth <= "
                   "16) | large (d <= 64, N <= 512, depth <= 16); per property: iclproof list")
      ->check(CLI::IsMember({"small", "paper", "large"}))
      ->capture_default_str();
  cmd_->add_option("--proof-audit", opt_.proof_audit_path,
                   "audit.json of the Coq build: report whether each cited theorem checked")
      ->check(CLI::ExistingFile);
  cmd_->add_option("--weights", opt_.weights_paths,
                   "Weights file written by iclproof-train (src/trainer/WEIGHTS_FORMAT.md); "
                   "repeat for several models. Plots its loss curve and compares it with the "
                   "constructions (as `iclproof compare`); a failed gated comparison fails the "
                   "report (exit 1)")
      ->check(CLI::ExistingFile);
  cmd_->add_option("--seed-sweep", opt_.seed_sweep_paths,
                   "Weights file of a seed sweep (scripts/train-seeds.sh); repeat for every seed. "
                   "Grouped by experiment; shows per metric how many seeds pass and the median, "
                   "min, max. Does not gate the report")
      ->check(CLI::ExistingFile);
  cmd_->add_option("--trajectory", opt_.trajectory_paths,
                   "Snapshot written by iclproof-train --trajectory K; repeat for every snapshot "
                   "(and seed). Plots each gated metric vs training step, one line per seed, "
                   "with the threshold, and the crossing steps. Does not gate the report")
      ->check(CLI::ExistingFile);
  cmd_->add_option("--trajectory-tasks", opt_.trajectory_tasks,
                   "Fresh tasks per --trajectory snapshot")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  cmd_->add_option("--trajectory-calibration-tasks", opt_.trajectory_calibration_tasks,
                   "Calibration tasks fixing eta* of K > 1 GD steps, per --trajectory snapshot")
      ->check(CLI::Range(1, 10000000))
      ->capture_default_str();
  cmd_->add_option("--compare-tasks", opt_.compare_tasks,
                   "Fresh tasks per --weights comparison (seed: --seed; precision: --precision)")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  cmd_->add_option("--sweep-bits", sweep_bits_text_,
                   "Precisions (bits, comma-separated) of the error-vs-precision plot")
      ->capture_default_str();
  cmd_->add_option("--sweep-cases", opt_.sweep_cases,
                   "Cases per property and precision in the sweep")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  cmd_->add_flag("--no-sweep", no_sweep_, "Skip the error-vs-precision sweep");
  cmd_->add_flag("--no-plots", no_plots_, "Do not run gnuplot (plot data stays in report.json)");
  cmd_->add_option("--jobs", opt_.jobs,
                   "Worker processes for the property runs (default: every core); results do "
                   "not depend on it")
      ->check(CLI::Range(1, 4096))
      ->default_val(default_jobs());
  cmd_->add_flag_callback(
      "--quiet", [] { set_progress_quiet(true); }, "No progress lines on stderr");
  cmd_->add_option("--shard", shard_text_,
                   "k/n: run only the k-th of n blocks of every property's cases and write "
                   "<--out>/shard.json for `iclproof merge` (no report). auto, auto/n: k (and "
                   "n) from a Slurm array task or a Kubernetes Indexed Job (docs/slurm.md)");
}

namespace {
const run_parameters<report_options>& report_parameter_list() {
  static const run_parameters<report_options> list =
      run_parameters<report_options>()
          .add("scalar", &report_options::scalar)
          .add("precision_bits", &report_options::precision_bits)
          .add("cases", &report_options::cases)
          .add("seed", &report_options::seed)
          .add("property_glob", &report_options::property_glob)
          .add("proof_audit_path", &report_options::proof_audit_path)
          .add("weights_paths", &report_options::weights_paths)
          .add("compare_tasks", &report_options::compare_tasks)
          .add("sweep_bits", &report_options::sweep_bits)
          .add("sweep_cases", &report_options::sweep_cases)
          .add("size", &report_options::size);
  return list;
}
}  // namespace

nlohmann::json report_parameters_json(const report_options& opt) {
  return report_parameter_list().to_json(opt);
}

report_options report_options_from_parameters(const nlohmann::json& j) {
  return report_parameter_list().from_json(j, "a report run");
}

int report_subcommand::run_shard(const shard_spec& shard, const std::string& dir,
                                 progress_line& line) {
  const std::vector<run_request> requests = report_run_requests(opt_);
  const std::string path = (std::filesystem::path(dir) / "shard.json").string();
  require_writable_file(path, "--out");
  const run_progress progress = [&](std::size_t i, int done, int cases) {
    line.show(fmt::format("  shard {}/{} [{}/{}] {}  {}/{} cases", shard.index, shard.count, i + 1,
                          requests.size(), requests[i].id, done, cases));
  };
  const std::vector<run_part> parts =
      run_requests(requests, opt_.jobs, shard, line.active() ? progress : run_progress{});
  write_shard_file(path, "report", shard, report_parameters_json(opt_), requests, parts);
  line.clear();
  int failed = 0;
  for (std::size_t i = 0; i < requests.size(); ++i)
    failed += result_of(requests[i], parts[i]).outcome == verdict::fail;
  const auto [b, e] = shard_cases(opt_.cases, shard);
  fmt::print(
      "iclproof report: shard {}/{}: its share of {} property runs (cases [{}, {}) of each main "
      "run), {} of them failed\nshard file: {} (combine all {} shards with `iclproof merge "
      "SHARD.json... --out DIR`)\n",
      shard.index, shard.count, requests.size(), b, e, failed, path, shard.count);
  return failed == 0 ? 0 : 1;
}

int report_subcommand::run() {
  static const std::map<std::string, scalar_kind> kinds{
      {"mpfr", scalar_kind::mpfr},
      {"double", scalar_kind::double_precision},
      {"long-double", scalar_kind::long_double_precision}};
  opt_.scalar = kinds.at(scalar_name_);
  if (precision_opt_->count() > 0) opt_.precision_bits = precision_;
  opt_.size = parse_size_profile(size_text_).value();
  opt_.sweep_bits = no_sweep_ ? std::vector<int>{} : parse_bits_list(sweep_bits_text_);
  opt_.draw_plots = !no_plots_;
  const std::optional<shard_spec> shard =
      shard_text_.empty() ? std::nullopt
                          : std::optional<shard_spec>(parse_shard_option(shard_text_));
  if (shard && out_dir_.empty())
    throw std::invalid_argument("--shard needs --out DIR (the shard writes DIR/shard.json)");
  const std::string dir = out_dir_.empty() ? default_run_folder(opt_.seed) : out_dir_;
  // Fail on an unusable folder before the long run, not after it.
  require_writable_folder(dir, out_dir_.empty() ? "report folder" : "--out");

  progress_line line;
  if (shard) return run_shard(*shard, dir, line);
  // Progress on stderr (harness/progress.hpp): a line per phase and family of property runs,
  // trained model, sweep seed and trajectory; throttled ones for cases, plots and findings.
  progress_reporter reporter("iclproof report");
  const report_progress progress = [&](const std::string& phase, int index, int total,
                                       const std::string& name, int done, int cases) {
    if (cases > 0)
      reporter.update(index - 1, total, name, done, cases, "cases",
                      phase + " " + name.substr(0, name.find('.')));
    else
      reporter.step(phase, index, total, name, phase == "plot" || phase == "finding");
  };
  run_report report = generate_report(opt_, progress);
  reporter.note("writing " + dir);
  write_report_folder(report, dir);

  const auto& p = report.params;
  fmt::print(
      "iclproof report: scalar {}, precision {} bits, {} cases per property, seed {}, size {}\n",
      p.scalar, p.precision_bits, p.cases, p.seed, p.size);
  std::size_t width = 8;
  for (const auto& e : report.properties) width = std::max(width, e.result.info.name.size());
  fmt::print("{:<{}} {:>6} {:>10} {:>10} {:>7}  {:<7}  {}\n", "property", width, "cases", "error",
             "tolerance", "margin", "verdict", "trust level");
  for (const auto& e : report.properties) {
    const auto& r = e.result;
    const std::string& verdict_text = e.gate.text;  // the one judge's (trust/verdict.hpp)
    fmt::print("{:<{}} {:>6} {:>10} {:>10} {:>7}  {:<7}  {}\n", r.info.name, width, r.cases,
               r.checks > 0 ? format_pow2(r.worst_log2_err) : "n/a",
               format_pow2(r.worst_log2_bound), margin_text(r), verdict_text, e.level_summary());
    if (!r.info.coverage.fully_proved()) fmt::print("    {}\n", r.info.coverage.coverage_text());
  }
  for (const auto& t : report.trained) {
    const auto& c = t.comparison;
    int gated = 0, gated_failed = 0;
    for (const auto& m : c.metrics) {
      gated += m.gated;
      gated_failed += m.gated && !m.passed;
    }
    fmt::print(
        "trained model {} ({} preset): {} ({} of {} gated metrics passed; {} tasks, {} "
        "bits)\n",
        t.path, t.preset,
        c.passed         ? "PASS"
        : c.inconclusive ? "INCONCLUSIVE"
                         : "FAIL",
        gated - gated_failed, gated, c.tasks, c.precision_bits);
  }
  for (const auto& n : report.notes) fmt::print(stderr, "iclproof: note: {}\n", n);
  fmt::print("report: {}/report.html (also report.md, report.json)\n", dir);
  if (!report.trained.empty())
    fmt::print("trained models vs constructions: {} passed, {} failed, {} inconclusive\n",
               report.trained_passed(), report.trained_failed(), report.trained_inconclusive());
  fmt::print("{} passed, {} failed\n", report.passed(), report.failed());
  return report.exit_code();
}

}  // namespace iclproof
