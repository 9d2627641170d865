// The training loop of iclproof-train: Adam on fresh tasks, deterministic seeds, checkpoint and
// resume, a loss curve streamed to CSV, and the versioned weights file (WEIGHTS_FORMAT.md).
// Torch-free interface: main.cpp does not include torch.
#pragma once

#include "trainer/experiment_config.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace iclproof::trainer {

inline constexpr int weights_schema_version = 1;
inline constexpr const char* weights_schema_name = "iclproof-weights";

struct train_options {
  std::string config_path;
  std::string preset = "ci";
  std::string out_path;               // weights file (JSON)
  std::string device = "auto";        // auto | cpu | cuda
  std::string checkpoint_path;        // empty: <out>.ckpt
  std::string loss_curve_path;        // empty: <out>.loss.csv
  bool resume = false;                // continue from checkpoint_path
  std::optional<std::int64_t> steps;  // overrides the preset
  std::optional<std::uint64_t> seed;  // overrides the preset
  std::optional<std::string> dtype;   // overrides the preset
  std::optional<int> batch_size;      // overrides the preset
  bool quiet = false;                 // no progress bar even on a TTY
  int trajectory_points = 0;          // > 0: weights files at log-spaced steps (trajectory_steps)
};

// The steps at which a run of `steps` steps writes a trajectory snapshot when asked for `points`
// of them: round(steps^(i / (points - 1))), i = 0..points-1, without repeats (so 1 and `steps`
// are always there and fewer than `points` remain when steps is small). Empty for points <= 0.
std::vector<std::int64_t> trajectory_steps(std::int64_t steps, int points);

// The weights file of the snapshot at `step` of a run writing OUT: OUT without its ".json"
// suffix, then ".step-<step>.json" (e.g. w.json -> w.step-120.json).
std::string trajectory_path(const std::string& out_path, std::int64_t step);

struct train_summary {
  std::int64_t steps = 0;
  double final_loss = 0;    // mean loss over the last loss-curve window
  double wall_seconds = 0;  // training loop only (no start-up, no file writing)
  double steps_per_second = 0;
};

// Trains and writes the weights file. Throws std::runtime_error (one-line message) on bad
// settings, unreadable checkpoints, divergence (non-finite loss) or unwritable outputs.
train_summary run_training(const train_options& opt);

// The settings after applying the command-line overrides (exposed for tests).
experiment_settings settings_for(const train_options& opt);

}  // namespace iclproof::trainer
