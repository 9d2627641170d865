// Staged training schedules ("stages" in a preset, experiment_config.hpp) and checkpoint/resume
// across stages:
//  - configs without stages keep their meaning (one implicit stage training every parameter);
//    a staged preset round-trips through to_json; bad stage lists are one config_error;
//  - a stage trains only its parameter groups: the others are bit-for-bit unchanged;
//  - resuming inside a stage and at a stage boundary reproduces the uninterrupted run exactly
//    (same parameters and loss curve, compared as the weights file's round-trip doubles).
#include "trainer/experiment_config.hpp"
#include "trainer/training.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

using namespace iclproof::trainer;

namespace {

const nlohmann::json lfom_preset = {
    {"d", 3},
    {"N", 5},
    {"layers", 2},
    {"inputs", "anisotropic"},
    {"sigma_diag", {1, 0.5, 0.25}},
    {"batch_size", 16},
    {"learning_rate", 0.01},
    {"lr_schedule", "cosine"},
    {"init_std", 0.3},
    {"lfom_gamma_init", 0.7},
    {"resample_every", 3},
    {"dtype", "float64"},
    {"log_every", 2},
    {"checkpoint_every", 5},
    {"seed", 7},
    {"stages",
     {{{"steps", 6}, {"train", {"A"}}},
      {{"steps", 6}, {"train", {"Gamma"}}, {"learning_rate", 0.05}}}}};

struct scratch_dir {
  std::filesystem::path path;
  explicit scratch_dir(const std::string& name)
      : path(std::filesystem::temp_directory_path() / (name + "_" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~scratch_dir() { std::filesystem::remove_all(path); }
  std::string file(const std::string& f) const { return (path / f).string(); }
};

std::string write_config(const scratch_dir& dir, const nlohmann::json& preset) {
  const std::string path = dir.file("config.json");
  std::ofstream(path)
      << nlohmann::json{{"experiment", "memformer_lfom"}, {"presets", {{"ci", preset}}}}.dump();
  return path;
}

nlohmann::json train(const std::string& config, const std::string& out, const std::string& ckpt,
                     std::int64_t steps, bool resume) {
  train_options o;
  o.config_path = config;
  o.out_path = out;
  o.checkpoint_path = ckpt;
  o.device = "cpu";
  o.steps = steps;
  o.resume = resume;
  o.quiet = true;
  run_training(o);
  return nlohmann::json::parse(std::ifstream(out));
}

}  // namespace

TEST_CASE("trainer.config_without_stages_is_one_stage_over_every_parameter") {
  nlohmann::json p = lfom_preset;
  p.erase("stages");
  p["steps"] = 40;
  const experiment_settings s = parse_preset("memformer_lfom", "ci", p);
  REQUIRE(s.stages.empty());
  REQUIRE_FALSE(to_json(s).contains("stages"));  // old checkpoints' identity is unchanged
  const auto st = effective_stages(s);
  REQUIRE(st.size() == 1);
  CHECK(st[0].steps == 40);
  CHECK(st[0].train == std::vector<std::string>{"A", "Gamma"});
  CHECK(st[0].learning_rate == 0.01);
  CHECK(st[0].lr_schedule == "cosine");
}

TEST_CASE("trainer.staged_config_parses_round_trips_and_rejects_bad_stages") {
  const experiment_settings s = parse_preset("memformer_lfom", "ci", lfom_preset);
  REQUIRE(s.stages.size() == 2);
  CHECK(s.steps == 12);  // defaults to the sum of the stages
  CHECK(s.stages[0].learning_rate == 0.01);
  CHECK(s.stages[1].learning_rate == 0.05);
  CHECK(s.stages[1].lr_schedule == "cosine");  // inherited from the preset
  const experiment_settings back = parse_preset("memformer_lfom", "ci", to_json(s));
  CHECK(back.stages == s.stages);
  CHECK(back.steps == s.steps);

  auto rejects = [](nlohmann::json p) {
    CHECK_THROWS_AS(parse_preset("memformer_lfom", "ci", p), config_error);
  };
  nlohmann::json p = lfom_preset;
  p["steps"] = 13;  // beyond the schedule
  rejects(p);
  p = lfom_preset;
  p["stages"][0]["train"] = {"B"};  // not a parameter of memformer_lfom
  rejects(p);
  p = lfom_preset;
  p["stages"][0]["train"] = nlohmann::json::array();
  rejects(p);
  p = lfom_preset;
  p["stages"][0]["train"] = {"A", "A"};
  rejects(p);
  p = lfom_preset;
  p["stages"][1]["steps"] = 0;
  rejects(p);
  p = lfom_preset;
  p["stages"][1]["momentum"] = 0.9;  // unknown key
  rejects(p);
  p = lfom_preset;
  p["stages"] = nlohmann::json::array();
  rejects(p);
  // A truncated run inside the schedule is allowed (smoke runs).
  p = lfom_preset;
  p["steps"] = 3;
  CHECK(parse_preset("memformer_lfom", "ci", p).steps == 3);
}

TEST_CASE("trainer.stages_freeze_the_other_parameters_and_resume_exactly") {
  const scratch_dir dir("iclproof_stage_test");
  const std::string config = write_config(dir, lfom_preset);
  const nlohmann::json init = train(config, dir.file("init.json"), dir.file("init.ckpt"), 0, false);
  const nlohmann::json after_a = train(config, dir.file("a.json"), dir.file("a.ckpt"), 6, false);
  const nlohmann::json full =
      train(config, dir.file("full.json"), dir.file("full.ckpt"), 12, false);
  REQUIRE(full["training"]["schedule"].size() == 2);
  CHECK(full["config"]["stages"].size() == 2);
  for (int l = 0; l < 2; ++l) {
    const auto& i = init["parameter_sets"][l];
    const auto& a = after_a["parameter_sets"][l];
    const auto& f = full["parameter_sets"][l];
    CHECK(a["Gamma"] == i["Gamma"]);  // stage 1 trains A only
    CHECK(a["A"] != i["A"]);
    CHECK(f["A"] == a["A"]);  // stage 2 trains Gamma only
    CHECK(f["Gamma"] != a["Gamma"]);
  }

  // Stop inside stage 2 (step 8; a periodic checkpoint at 5 is inside stage 1), resume to 12.
  train(config, dir.file("part.json"), dir.file("part.ckpt"), 8, false);
  const nlohmann::json resumed_inside =
      train(config, dir.file("part.json"), dir.file("part.ckpt"), 12, true);
  CHECK(resumed_inside["training"]["resumed_from_step"] == 8);
  CHECK(resumed_inside["parameter_sets"] == full["parameter_sets"]);
  CHECK(resumed_inside["loss_curve"] == full["loss_curve"]);

  // Stop exactly at the boundary (step 6): stage 2 must start with a fresh Adam on resume.
  train(config, dir.file("edge.json"), dir.file("edge.ckpt"), 6, false);
  const nlohmann::json resumed_edge =
      train(config, dir.file("edge.json"), dir.file("edge.ckpt"), 12, true);
  CHECK(resumed_edge["parameter_sets"] == full["parameter_sets"]);
  CHECK(resumed_edge["loss_curve"] == full["loss_curve"]);

  // Stop inside stage 1 (step 3), resume across the boundary.
  train(config, dir.file("early.json"), dir.file("early.ckpt"), 3, false);
  const nlohmann::json resumed_early =
      train(config, dir.file("early.json"), dir.file("early.ckpt"), 12, true);
  CHECK(resumed_early["parameter_sets"] == full["parameter_sets"]);

  // A checkpoint of a different schedule is refused.
  nlohmann::json other = lfom_preset;
  other["stages"][1]["learning_rate"] = 0.02;
  write_config(dir, other);
  CHECK_THROWS_AS(train(config, dir.file("part.json"), dir.file("part.ckpt"), 12, true),
                  std::runtime_error);
}

// Trajectory snapshots (the report's convergence curves): log-spaced, strictly increasing, from
// step 1 to the last, at most `points` of them; the snapshot file names.
TEST_CASE("trajectory steps are log-spaced from 1 to the last step", "[trainer]") {
  CHECK(trajectory_steps(3000, 0).empty());
  CHECK(trajectory_steps(3000, 12) ==
        std::vector<std::int64_t>{1, 2, 4, 9, 18, 38, 79, 163, 338, 700, 1449, 3000});
  CHECK(trajectory_steps(3000, 1) == std::vector<std::int64_t>{3000});
  const auto few = trajectory_steps(5, 12);  // repeats dropped
  CHECK(few == std::vector<std::int64_t>{1, 2, 3, 4, 5});
  CHECK(trajectory_path("out/w.json", 120) == "out/w.step-120.json");
  CHECK(trajectory_path("w", 7) == "w.step-7.json");
}
