// `iclproof compare --trajectory W_1.json ... W_n.json`: the weights snapshots of one experiment
// along training (iclproof-train --trajectory K writes them at K log-spaced steps, for one or
// several seeds), each compared with the construction as `compare` does, ordered by seed and
// step; for each seed, the first snapshot step from which every gated metric passes at every
// later snapshot (the crossing step).
#pragma once

#include "compare/compare.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace iclproof {

struct trajectory_point {
  std::string path;
  std::uint64_t seed = 0;
  std::int64_t step = 0;  // training.steps of the snapshot (else the loss curve's last step)
  compare_result comparison;
  // |eta_learned - eta*| / eta* against the exact population optimum (single-layer only).
  std::optional<double> eta_relative_difference;
};

struct trajectory_crossing {
  std::uint64_t seed = 0;
  // The first snapshot step from which every gated metric passes at every later snapshot of
  // this seed; empty when the last snapshot fails.
  std::optional<std::int64_t> all_gated;
  // The same per gated metric, in the order of the comparison's metrics.
  std::vector<std::pair<std::string, std::optional<std::int64_t>>> per_metric;
};

struct compare_trajectory_result {
  std::string experiment, preset;
  std::vector<trajectory_point> points;        // by seed, then step
  std::vector<trajectory_crossing> crossings;  // one per seed
};

// Throws weights_file_error / std::invalid_argument as `compare` does, and unless every file is
// of one experiment.
compare_trajectory_result compare_trajectory(const std::vector<std::string>& paths,
                                             const compare_options& options = {});
compare_trajectory_result compare_trajectory(const std::vector<weights_file>& files,
                                             const compare_options& options = {});
std::vector<trajectory_crossing> trajectory_crossings(const std::vector<trajectory_point>& points);
nlohmann::json to_json(const compare_trajectory_result& t);

// Prints one line per snapshot (seed, step, each gated metric) and the crossing steps; writes the
// JSON when json_path is given. Returns 0 (a trajectory is a measurement, not a gate).
int run_compare_trajectory_command(const std::vector<std::string>& paths,
                                   const compare_options& options = {},
                                   const std::string& json_path = "");

}  // namespace iclproof
