// iclproof-train: trains the in-context-learning models of iclproof (LibTorch, CPU or CUDA) and
// writes a versioned weights file for `iclproof compare` (WEIGHTS_FORMAT.md). Deliberately
// independent of the verifier: no MPFR, no verifier headers.
#include "trainer/training.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>

int main(int argc, char** argv) {
  using namespace iclproof::trainer;
  CLI::App app{
      "iclproof-train: train ICL transformers on in-context regression and write their weights"};
  train_options opt;
  std::int64_t steps = 0;
  std::uint64_t seed = 0;
  int batch = 0;
  std::string dtype;
  app.add_option("--config", opt.config_path, "Experiment config (src/trainer/configs/*.json)")
      ->required();
  app.add_option("--preset", opt.preset, "Preset in the config: ci | paper")->capture_default_str();
  app.add_option("--out", opt.out_path, "Weights file to write (JSON)")->required();
  app.add_option("--device", opt.device, "auto | cpu | cuda (auto: CUDA when available)")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}))
      ->capture_default_str();
  app.add_option("--checkpoint", opt.checkpoint_path, "Checkpoint file (default OUT.ckpt)");
  app.add_option("--loss-curve", opt.loss_curve_path, "Loss curve CSV (default OUT.loss.csv)");
  app.add_flag("--resume", opt.resume, "Continue from the checkpoint");
  auto* steps_opt = app.add_option("--steps", steps, "Override the preset's step count")
                        ->check(CLI::NonNegativeNumber);
  auto* seed_opt = app.add_option("--seed", seed, "Override the preset's seed");
  auto* dtype_opt =
      app.add_option("--dtype", dtype, "Override the preset's dtype: float32 | float64")
          ->check(CLI::IsMember({"float32", "float64"}));
  auto* batch_opt = app.add_option("--batch-size", batch, "Override the preset's batch size")
                        ->check(CLI::PositiveNumber);
  app.add_flag("--quiet", opt.quiet,
               "No progress: neither the bar (terminal) nor the lines every few seconds (log)");
  app.add_option("--trajectory", opt.trajectory_points,
                 "Also write the weights at K log-spaced steps, 1 to the last, as "
                 "OUT-without-.json.step-<step>.json (for `iclproof compare --trajectory`)")
      ->check(CLI::Range(0, 1000));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::cerr << "iclproof-train: error: " << e.what() << "\n";
    return 2;
  }
  if (steps_opt->count()) opt.steps = steps;
  if (seed_opt->count()) opt.seed = seed;
  if (dtype_opt->count()) opt.dtype = dtype;
  if (batch_opt->count()) opt.batch_size = batch;
  try {
    const train_summary r = run_training(opt);
    fmt::print("iclproof-train: {} steps, final loss {:.6e}, {:.1f} s, {:.1f} steps/s -> {}\n",
               r.steps, r.final_loss, r.wall_seconds, r.steps_per_second, opt.out_path);
    return 0;
  } catch (const std::exception& e) {
    std::string msg = e.what();
    if (const auto nl = msg.find('\n'); nl != std::string::npos) msg.resize(nl);  // one line
    std::cerr << "iclproof-train: error: " << msg << "\n";
    return 2;
  }
}
