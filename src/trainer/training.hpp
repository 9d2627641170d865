// The training loop of iclproof-train: Adam on fresh tasks, deterministic seeds, checkpoint and
// resume, a loss curve streamed to CSV, and the versioned weights file (WEIGHTS_FORMAT.md).
// Torch-free interface: main.cpp does not include torch.
#pragma once

#include "trainer/experiment_config.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace iclproof::trainer {

inline constexpr int weights_schema_version = 1;
inline constexpr const char* weights_schema_name = "iclproof-weights";

struct train_options {
  std::string config_path;
  std::string preset = "ci";
  std::string out_path;              // weights file (JSON)
  std::string device = "auto";       // auto | cpu | cuda
  std::string checkpoint_path;       // empty: <out>.ckpt
  std::string loss_curve_path;       // empty: <out>.loss.csv
  bool resume = false;               // continue from checkpoint_path
  std::optional<std::int64_t> steps; // overrides the preset
  std::optional<std::uint64_t> seed; // overrides the preset
  std::optional<std::string> dtype;  // overrides the preset
  std::optional<int> batch_size;     // overrides the preset
  bool quiet = false;                // no progress bar even on a TTY
};

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
