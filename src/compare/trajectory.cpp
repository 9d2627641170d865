#include "compare/trajectory.hpp"

#include "compare/model_files.hpp"
#include "compare/weights_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <stdexcept>

namespace iclproof {

namespace {

std::int64_t snapshot_step(const weights_file& w) {
  if (w.training.is_object() && w.training.contains("steps") &&
      w.training["steps"].is_number_integer())
    return w.training["steps"].get<std::int64_t>();
  return w.curve_steps.empty() ? 0 : w.curve_steps.back();
}

}  // namespace

std::vector<trajectory_crossing> trajectory_crossings(const std::vector<trajectory_point>& points) {
  std::vector<trajectory_crossing> out;
  for (std::size_t i = 0; i < points.size();) {
    std::size_t j = i;
    while (j < points.size() && points[j].seed == points[i].seed) ++j;
    trajectory_crossing c;
    c.seed = points[i].seed;
    // Walking back from the last snapshot: the earliest step of the final all-passing run.
    auto first_of_final_run = [&](auto passes) -> std::optional<std::int64_t> {
      std::optional<std::int64_t> first;
      for (std::size_t k = j; k-- > i;) {
        if (!passes(points[k])) break;
        first = points[k].step;
      }
      return first;
    };
    c.all_gated = first_of_final_run([](const trajectory_point& p) { return p.comparison.passed; });
    for (const auto& m : points[i].comparison.metrics) {
      if (!m.gated) continue;
      c.per_metric.emplace_back(m.name, first_of_final_run([&](const trajectory_point& p) {
                                  for (const auto& q : p.comparison.metrics)
                                    if (q.name == m.name) return q.passed;
                                  return false;
                                }));
    }
    out.push_back(std::move(c));
    i = j;
  }
  return out;
}

compare_trajectory_result compare_trajectory(const std::vector<std::string>& paths,
                                             const compare_options& o) {
  std::vector<weights_file> files;
  for (const auto& p : paths) files.push_back(read_weights_file(p));  // all checked first
  return compare_trajectory(files, o);
}

compare_trajectory_result compare_trajectory(const std::vector<weights_file>& files,
                                             const compare_options& o) {
  if (files.empty()) throw std::invalid_argument("compare --trajectory: no weights files");
  for (const auto& w : files)
    if (w.experiment != files.front().experiment)
      throw std::invalid_argument(fmt::format(
          "compare --trajectory: {} is a {} model, {} a {} model: a trajectory is one experiment",
          w.source, w.experiment, files.front().source, files.front().experiment));
  compare_trajectory_result t;
  t.experiment = files.front().experiment;
  t.preset = files.front().preset;
  for (const auto& w : files) {
    trajectory_point p;
    p.path = w.source;
    p.seed = w.seed;
    p.step = snapshot_step(w);
    const auto start = std::chrono::steady_clock::now();
    p.comparison = compare_weights(w, o);
    if (o.progress)
      fmt::print(stderr, "iclproof compare: [{}/{}] {} (seed {}, step {}): {} ({:.1f} s)\n",
                 t.points.size() + 1, files.size(), w.source, w.seed, p.step,
                 p.comparison.passed ? "PASS" : "FAIL",
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (p.comparison.tables.contains("eta_learned_relative_difference"))
      p.eta_relative_difference =
          p.comparison.tables["eta_learned_relative_difference"].get<double>();
    t.points.push_back(std::move(p));
  }
  std::stable_sort(t.points.begin(), t.points.end(), [](const auto& a, const auto& b) {
    return a.seed != b.seed ? a.seed < b.seed : a.step < b.step;
  });
  t.crossings = trajectory_crossings(t.points);
  return t;
}

nlohmann::json to_json(const compare_trajectory_result& t) {
  nlohmann::json j = {{"experiment", t.experiment}, {"preset", t.preset}};
  j["points"] = nlohmann::json::array();
  for (const auto& p : t.points) {
    nlohmann::json metrics = nlohmann::json::object();
    for (const auto& m : p.comparison.metrics)
      metrics[m.name] = {{"value", std::isfinite(m.value) ? nlohmann::json(m.value) : nullptr},
                         {"relation", m.relation},
                         {"threshold", m.threshold},
                         {"gated", m.gated},
                         {"passed", m.passed}};
    nlohmann::json e = {{"path", p.path},
                        {"seed", p.seed},
                        {"step", p.step},
                        {"passed", p.comparison.passed},
                        {"tasks", p.comparison.tasks},
                        {"metrics", metrics}};
    e["eta_relative_difference"] =
        p.eta_relative_difference ? nlohmann::json(*p.eta_relative_difference) : nullptr;
    j["points"].push_back(std::move(e));
  }
  j["crossings"] = nlohmann::json::array();
  for (const auto& c : t.crossings) {
    nlohmann::json per = nlohmann::json::object();
    for (const auto& [name, step] : c.per_metric)
      per[name] = step ? nlohmann::json(*step) : nullptr;
    j["crossings"].push_back({{"seed", c.seed},
                              {"all_gated", c.all_gated ? nlohmann::json(*c.all_gated) : nullptr},
                              {"per_metric", per}});
  }
  return j;
}

int run_compare_trajectory_command(const std::vector<std::string>& paths, const compare_options& o,
                                   const std::string& json_path) {
  if (!json_path.empty()) {  // fail on an unwritable path before the long work
    std::ofstream probe(json_path);
    if (!probe) throw std::runtime_error(fmt::format("cannot write {}", json_path));
  }
  compare_options with_progress = o;
  with_progress.progress = true;
  const compare_trajectory_result t = compare_trajectory(paths, with_progress);
  fmt::print(
      "iclproof compare --trajectory: {} ({} preset), {} snapshots, {} fresh tasks (seed "
      "{}) each\n",
      t.experiment, t.preset, t.points.size(), o.tasks, o.seed);
  std::vector<std::string> gated;
  for (const auto& m : t.points.front().comparison.metrics)
    if (m.gated) gated.push_back(m.name);
  std::string header = fmt::format("{:>6} {:>7}", "seed", "step");
  for (const auto& g : gated) header += fmt::format(" {:>14.14}", g);
  header += fmt::format(" {:>12} {}", "eta*-reldiff", "verdict");
  fmt::print("{}\n", header);
  for (const auto& p : t.points) {
    std::string line = fmt::format("{:>6} {:>7}", p.seed, p.step);
    for (const auto& g : gated) {
      double v = std::nan("");
      for (const auto& m : p.comparison.metrics)
        if (m.name == g) v = m.value;
      line += fmt::format(" {:>14.6g}", v);
    }
    line += fmt::format(" {:>12}", p.eta_relative_difference
                                       ? fmt::format("{:.3g}", *p.eta_relative_difference)
                                       : "-");
    fmt::print("{} {}\n", line, p.comparison.passed ? "pass" : "FAIL");
  }
  fmt::print("thresholds:");
  for (const auto& m : t.points.front().comparison.metrics)
    if (m.gated) fmt::print(" {} {} {:.4g};", m.name, m.relation, m.threshold);
  fmt::print("\n");
  for (const auto& c : t.crossings)
    fmt::print("seed {}: every gated metric passes from step {} on (of the snapshots)\n", c.seed,
               c.all_gated ? std::to_string(*c.all_gated) : "- (the last snapshot fails)");
  if (!json_path.empty()) {
    std::ofstream out(json_path);
    if (!out) throw std::runtime_error(fmt::format("cannot write {}", json_path));
    out << to_json(t).dump(2) << "\n";
    if (!out) throw std::runtime_error(fmt::format("write to {} failed", json_path));
  }
  return 0;
}

}  // namespace iclproof
