// The seed-sweep summary and the command-line handlers of `iclproof compare` (compare.hpp).
#include "compare/compare.hpp"

#include "compare/loss_tails.hpp"
#include "compare/model_files.hpp"
#include "compare/task_progress.hpp"
#include "harness/progress.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <limits>
#include <stdexcept>

namespace iclproof {

namespace {
const char* verdict_word(const compare_result& r) {
  return r.passed ? "PASS" : r.inconclusive ? "INCONCLUSIVE" : "FAIL";
}
}  // namespace

sweep_summary summarise_sweep(const std::vector<compare_result>& results) {
  if (results.empty()) throw std::invalid_argument("compare: no weights files");
  sweep_summary s;
  s.experiment = results.front().experiment;
  s.files = static_cast<int>(results.size());
  for (const auto& r : results) {
    if (r.experiment != s.experiment)
      throw std::invalid_argument(
          fmt::format("compare: {} is a {} model, {} a {} model: a sweep compares one experiment",
                      r.path, r.experiment, results.front().path, s.experiment));
    if (r.passed) ++s.passed;
    if (r.inconclusive) ++s.inconclusive;
  }
  for (const auto& m0 : results.front().metrics) {
    sweep_metric_summary m{m0.name, m0.relation, m0.threshold, m0.gated};
    std::vector<double> values;
    for (const auto& r : results)
      for (const auto& m1 : r.metrics)
        if (m1.name == m0.name) {
          ++m.total;
          if (m1.passed) ++m.passed;
          if (m1.inconclusive) ++m.inconclusive;
          if (std::isfinite(m1.value)) values.push_back(m1.value);
        }
    m.finite = static_cast<int>(values.size());
    if (!values.empty()) {
      std::sort(values.begin(), values.end());
      const std::size_t n = values.size();
      m.median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
      m.min = values.front();
      m.max = values.back();
    } else {
      m.median = m.min = m.max = std::numeric_limits<double>::quiet_NaN();
    }
    s.metrics.push_back(m);
  }
  return s;
}

nlohmann::json to_json(const sweep_summary& s) {
  auto num = [](double v) {
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
  };
  nlohmann::json metrics = nlohmann::json::array();
  for (const auto& m : s.metrics)
    metrics.push_back({{"name", m.name},
                       {"relation", m.relation},
                       {"threshold", m.threshold},
                       {"gated", m.gated},
                       {"passed", m.passed},
                       {"inconclusive", m.inconclusive},
                       {"total", m.total},
                       {"finite", m.finite},
                       {"median", num(m.median)},
                       {"min", num(m.min)},
                       {"max", num(m.max)}});
  return {{"experiment", s.experiment},
          {"files", s.files},
          {"files_passed", s.passed},
          {"files_inconclusive", s.inconclusive},
          {"metrics", metrics}};
}

int run_compare_sweep_command(const std::vector<std::string>& paths, const compare_options& o,
                              const std::string& json_path) {
  if (paths.empty()) throw std::invalid_argument("compare: no weights files");
  std::vector<weights_file> files;
  for (const auto& p : paths) files.push_back(read_weights_file(p));  // all checked first
  for (const auto& w : files)
    if (w.experiment != files.front().experiment)
      throw std::invalid_argument(
          fmt::format("compare: {} is a {} model, {} a {} model: a sweep compares one experiment",
                      w.source, w.experiment, files.front().source, files.front().experiment));
  if (!json_path.empty()) {  // fail on an unwritable path before the long work
    std::ofstream probe(json_path);
    if (!probe) throw std::runtime_error(fmt::format("cannot write {}", json_path));
  }
  std::vector<compare_result> results;
  // Per-task lines of the long phases on stderr (compare/task_progress.hpp), each phase named
  // with its file; --quiet silences them.
  progress_reporter reporter("iclproof compare");
  const compare_task_progress lines = task_progress_lines(reporter);
  for (const auto& w : files) {
    const auto start = std::chrono::steady_clock::now();
    compare_options with_progress = o;
    const std::string file =
        fmt::format("[{}/{}] {}: ", results.size() + 1, files.size(), w.source);
    if (!with_progress.task_progress)
      with_progress.task_progress = [&](const std::string& phase, long done, long total) {
        lines(file + phase, done, total);
      };
    results.push_back(compare_weights(w, with_progress));
    // Progress on stderr (stdout keeps the table): which file, its verdict, its time.
    if (!progress_quiet())
      fmt::print(stderr, "iclproof compare: [{}/{}] {}: {} ({:.1f} s)\n", results.size(),
                 files.size(), w.source, verdict_word(results.back()),
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    const compare_result& r = results.back();
    std::string failed, inconclusive;
    for (const auto& m : r.metrics)
      if (m.gated && !m.passed)
        (m.inconclusive ? inconclusive : failed) +=
            ((m.inconclusive ? inconclusive : failed).empty() ? "" : ", ") + m.name;
    fmt::print("{}: {} (seed {}){}{}\n", r.path, verdict_word(r), w.seed,
               failed.empty() ? "" : "; failing: " + failed,
               inconclusive.empty() ? "" : "; inconclusive: " + inconclusive);
  }
  const sweep_summary s = summarise_sweep(results);
  fmt::print("iclproof compare sweep: {}, {} files, {} fresh tasks (seed {}), {}\n", s.experiment,
             s.files, o.tasks, o.seed, carried_bits_text(results.front()));
  fmt::print("  {}\n", loss_ratio_rule_text());
  fmt::print("{:<48} {:>9} {:>13} {:>13} {:>13} {:>4} {:>9}\n", "metric", "passing", "median",
             "min", "max", "", "threshold");
  for (const auto& m : s.metrics)
    fmt::print("{:<48} {:>4}/{:<4} {:>13.6g} {:>13.6g} {:>13.6g} {:>4} {:>9.4g}{}\n", m.name,
               m.passed, m.total, m.median, m.min, m.max, m.relation, m.threshold,
               m.gated ? "" : "  (info)");
  fmt::print("verdict: {} of {} files pass every gated metric{}\n", s.passed, s.files,
             s.inconclusive ? fmt::format(" ({} inconclusive, none of their gated metrics failing)",
                                          s.inconclusive)
                            : "");
  if (!json_path.empty()) {
    nlohmann::json j = to_json(s);
    j["comparisons"] = nlohmann::json::array();
    for (const auto& r : results) j["comparisons"].push_back(to_json(r));
    std::ofstream out(json_path);
    if (!out) throw std::runtime_error(fmt::format("cannot write {}", json_path));
    out << j.dump(2) << "\n";
    if (!out) throw std::runtime_error(fmt::format("write to {} failed", json_path));
  }
  return s.passed == s.files ? 0 : s.passed + s.inconclusive == s.files ? 3 : 1;
}

int run_compare_command(const std::string& path, const compare_options& options,
                        const std::string& json_path) {
  // Per-task lines of the long phases on stderr (compare/task_progress.hpp); --quiet silences
  // them.
  progress_reporter reporter("iclproof compare");
  compare_options with_progress = options;
  if (!with_progress.task_progress) with_progress.task_progress = task_progress_lines(reporter);
  const compare_result r = compare_weights_file(path, with_progress);
  fmt::print("iclproof compare: {} ({} preset), {} fresh tasks, seed {}, {}\n", r.experiment,
             r.preset, r.tasks, r.seed, carried_bits_text(r));
  fmt::print("  {}\n", loss_ratio_rule_text());
  fmt::print("{:<48} {:>13} {:>4} {:>9}  {}\n", "metric", "value", "", "threshold", "verdict");
  for (const auto& m : r.metrics)
    fmt::print("{:<48} {:>13.6g} {:>4} {:>9.4g}  {}\n", m.name, m.value, m.relation, m.threshold,
               !m.gated         ? (m.passed ? "(info) ok" : "(info) no")
               : m.inconclusive ? "INCONCLUSIVE"
               : m.passed       ? "pass"
                                : "FAIL");
  // The tail of each model's per-task loss, one line per loss ratio (tables.loss_tails).
  if (r.tables.contains("loss_tails"))
    for (const auto& [name, g] : r.tables["loss_tails"].items())
      if (g.contains("model_tail"))
        fmt::print(
            "  tail of {}: model Hill index {} (top 0.1%: {:.3g} of the loss), reference "
            "Hill index {} (top 0.1%: {:.3g}); {}\n",
            name, g["model_tail"]["hill_tail_index"].dump(),
            g["model_tail"]["top_0.1%_share"].get<double>(),
            g["reference_tail"]["hill_tail_index"].dump(),
            g["reference_tail"]["top_0.1%_share"].get<double>(), g["status"].get<std::string>());
  for (const auto& [key, value] : r.tables.items()) fmt::print("  {}: {}\n", key, value.dump());
  for (const auto& n : r.notes) fmt::print("  note: {}\n", n);
  std::string inconclusive;
  for (const auto& m : r.metrics)
    if (m.gated && m.inconclusive) inconclusive += "; " + m.name + ": " + m.reason;
  fmt::print("verdict: {}  [trust level: measured]\n",
             r.inconclusive ? "INCONCLUSIVE (exit 3)" + inconclusive
             : !r.passed    ? std::string("FAIL")
             : r.experiment == "ahn_full_linear_transformer"
                 ? std::string("PASS (no construction is this model: its loss passes the gated "
                               "comparison; the rest is reported)")
                 : std::string("PASS (trained weights match the construction)"));
  if (!json_path.empty()) {
    std::ofstream out(json_path);
    if (!out) throw std::runtime_error(fmt::format("cannot write {}", json_path));
    out << to_json(r).dump(2) << "\n";
    if (!out) throw std::runtime_error(fmt::format("write to {} failed", json_path));
  }
  return compare_exit_code(r);
}

}  // namespace iclproof
