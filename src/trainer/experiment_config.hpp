// Experiment configurations of iclproof-train (torch-free: parsed and validated before any
// tensor exists, so a bad config file is one clear error line, never a torch exception).
//
// A config file (src/trainer/configs/*.json) names one experiment and holds its presets:
//   { "experiment": "vonoswald_single_lsa", "description": "...",
//     "presets": { "ci": { ...settings... }, "paper": { ...settings... } } }
// Every setting is listed in experiment_settings below with its meaning; unknown keys are an
// error (a typo must not silently fall back to a default).
//
// Staged training (optional "stages" list in a preset): the run is a sequence of stages, each
// training only the named parameter groups with a fresh Adam, e.g. the Memformer paper's
// schedule (App. D: "first train the A_l's ... and then fine-tune the Gamma_l's"):
//   "stages": [{"steps": 5000, "train": ["A"], "learning_rate": 0.01},
//              {"steps": 1000, "train": ["Gamma"], "learning_rate": 0.01}]
// A stage's keys: steps (>= 1), train (non-empty list of parameter names of the experiment's
// model, see parameter_names), optional learning_rate and lr_schedule (default: the preset's),
// optional comment. Without "stages" the run is one stage training every parameter for `steps`
// (the behaviour of every config written before stages existed). With stages, `steps` defaults
// to the sum of the stages' steps and may be smaller (the run stops inside the schedule, e.g. a
// smoke run; resuming with a larger `steps` continues it exactly), never larger.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace iclproof::trainer {

enum class model_kind {
  lsa,             // von Oswald: stacked linear self-attention (W_K, W_Q, W_V, P per layer)
  ahn_linear,      // Ahn et al. Z-form linear transformer, A_l only (B_l = 0)
  memformer_cgd,   // Memformer eqs 17-18: A_l = I, learned alpha_l, gamma_l
  memformer_lfom,  // Memformer eqs 19-20 with Gamma_j^l = Gamma_j scalar, learned A_l
  gdpp_stack,      // Vladymyrov et al. 2024 App. B: GD++ with a learned (gamma_l, eta_l) per layer
};

enum class input_kind {
  uniform,      // x ~ U(-1, 1)^d
  gaussian,     // x ~ N(0, I)
  anisotropic,  // x ~ N(0, Sigma), Sigma = U^T D U (U Haar-orthogonal from the seed), w ~ N(0,
                // Sigma^-1)
};

struct training_stage {
  std::int64_t steps = 0;                // length of the stage
  std::vector<std::string> train;        // parameter names trained in this stage (others frozen)
  double learning_rate = 1e-3;           // Adam's rate (cosine: the rate at the stage's first step)
  std::string lr_schedule = "constant";  // "constant" or "cosine" (anneals to 0 at stage end)
  bool operator==(const training_stage&) const = default;
};

struct experiment_settings {
  std::string experiment;  // e.g. "vonoswald_single_lsa"
  std::string preset;      // "ci" or "paper" (any name in the file)
  model_kind model = model_kind::lsa;
  int d = 10;         // input dimension
  int N = 10;         // context examples
  int layers = 1;     // layer applications (depth)
  bool tied = false;  // one parameter set applied `layers` times (recurrent)
  input_kind inputs = input_kind::uniform;
  std::vector<double> sigma_diag;  // D of Sigma = U^T D U (anisotropic only; length d)
  int batch_size = 2048;
  std::int64_t steps = 3000;
  double learning_rate = 1e-3;
  std::string lr_schedule = "constant";  // "constant" or "cosine" (anneals to 0 at `steps`)
  double init_std = 0.02;                // i.i.d. N(0, init_std^2) initial weights
  double alpha_init = 0.5;  // memformer_cgd: initial alpha_l; gdpp_stack: initial eta_l
  double gamma_init = 0.0;  // memformer_cgd: initial gamma_l (l >= 1); gdpp_stack: initial gamma_l;
                            // memformer_lfom: unused
  double lfom_gamma_init = 1.0;     // memformer_lfom: initial Gamma_j
  int resample_every = 1;           // fresh tasks every this many steps (von Oswald: 1; Ahn: 100)
  std::optional<double> grad_clip;  // max Frobenius norm of each parameter's gradient
  std::string dtype = "float32";    // "float32" or "float64"
  int log_every = 10;               // loss-curve resolution (mean loss over the window)
  std::int64_t checkpoint_every = 1000;
  std::uint64_t seed = 1;
  std::vector<training_stage> stages;  // empty: one stage, every parameter (see above)
};

// Thrown for every invalid config; the message is one line.
struct config_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string to_string(model_kind k);
std::string to_string(input_kind k);

// The model an experiment name trains (throws config_error for an unknown name).
model_kind model_for_experiment(const std::string& experiment);

// The parameter names of a model's parameter sets (what a stage's "train" may name).
std::vector<std::string> parameter_names(model_kind k);

// The schedule actually run: `stages`, or the single implicit stage {steps, every parameter,
// learning_rate, lr_schedule} when `stages` is empty. Stage k covers the steps
// [sum_{i<k} steps_i, sum_{i<=k} steps_i); training stops at s.steps.
std::vector<training_stage> effective_stages(const experiment_settings& s);

// Reads `path`, selects `preset`, validates. Throws config_error.
experiment_settings load_experiment(const std::string& path, const std::string& preset);

// Every effective setting as a preset object (parse_preset(to_json(s)) == s): what the weights
// file records as "config" and what a checkpoint must match to be resumed.
nlohmann::json to_json(const experiment_settings& s);

// Validates a preset object (exposed for tests).
experiment_settings parse_preset(const std::string& experiment, const std::string& preset,
                                 const nlohmann::json& settings);

}  // namespace iclproof::trainer
