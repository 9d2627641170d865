// `iclproof compare WEIGHTS.json`: do trained weights become the constructions?
//
// Reads a weights file written by iclproof-train (strictly: compare/weights_file.hpp), evaluates
// the trained model with the verifier's own forward pass (compare/learned_models.hpp) in MPFR at
// options.precision_bits on FRESH tasks drawn by iclproof's portable generator (not the
// trainer's), and measures it against the closed-form references (src/references/):
//
//  vonoswald_single_lsa  W_K^T W_Q and P W_V against Proposition 1's construction with the
//                        exact population-optimal GD step eta* (references/
//                        population_optima.hpp; exact_gd_eta), after the scale correction of von
//                        Oswald A.3 (see normalise_lsa_products); relative Frobenius distances;
//                        relative prediction difference and cosine of the sensitivities
//                        d y_hat / d x_q against one GD step with eta*; loss ratio.
//  vonoswald_gdpp/stack  per layer: learned (eta_l, gamma_l) read off the normalised products,
//                        alignment with the GD++ construction with those values; predictions,
//                        sensitivities and loss against GD++ with the values read off (gated for
//                        the tied model only) and against GD++ with (eta_l, gamma_l) TUNED on a
//                        sample of its own (compare/gdpp_tuning.hpp; gated for both: von Oswald
//                        Sec. 3 matches untied stacks with tuned per-layer coefficients); loss
//                        against K GD steps with the line-searched eta (gated <= 1).
//  ahn_linear_transformer  Dist(Sigma^1/2 A_l Sigma^1/2, I) per layer (Memformer paper App. D)
//                        and the sign of each a_l = tr(Sigma^1/2 A_l Sigma^1/2) / d (gated; Dist
//                        is sign-free); loss per layer against GD (line-searched eta) and CG;
//                        Lemma 1's identity TF == preconditioned GD with the learned A_l
//                        (reported: no weights can fail it; a forward pass that breaks it, e.g.
//                        without the mask, stops compare with an error).
// The forward pass is the verifier's masked learned_predictions; compare/compare_forward.hpp
// takes it as a parameter (for the tests that show a missing mask failing).
//  ahn_full_linear_transformer  Ahn et al.'s model with P and Q trained per layer
//                        (compare_ahn_full.cpp): the loss against L GD steps (gated <= 1; one
//                        layer: against the exact optimum); Vladymyrov et al.'s implicit weights
//                        read off every prompt must reproduce the forward pass (an identity:
//                        else an error, no verdict); the implicit preconditioner per layer and
//                        the implicit weights against GD iterates (reported).
//  every lsa/ahn model   tables.implicit_weights: the implicit weights read off the model per
//                        layer against the iterates of the construction compared with
//                        (implicit_weights_reading.hpp).
//  memformer_cgd/lfom    learned coefficients next to CG's per-task mean coefficients; loss per
//                        layer against GD and CG.
//  one Z-form layer      (any of the three) the loss against the exact population optimum of the
//                        layer's class, paired on the same tasks, gated at 1 + 0.05 + 3 se
//                        (compare/thresholds.hpp); loss.ratio_to_gd is then reported only. For
//                        ahn_linear also ||Sigma^1/2 (A - A*) Sigma^1/2||_F / ||Sigma^1/2 A*
//                        Sigma^1/2||_F (reported).
// Peers' models (Ahn et al.'s Transformer_F, ...) are read through a sidecar file:
// compare/peer_models.hpp, docs/weights.md.
// The GD reference step: exact (closed form in the data's moments) for one step on uniform,
// Gaussian or anisotropic-Gaussian data; line-searched on a calibration sample of
// calibration_tasks tasks for K > 1 steps. tables.gd_step_reference.method says which.
// Each metric carries a threshold, the direction of the test, whether it gates the verdict,
// and the justification (compare/thresholds.hpp).
#pragma once

#include "compare/weights_file.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace iclproof {

// Fresh validation tasks by default. The squared errors of the Z-form models are heavy-tailed:
// on the CI-preset CGD Memformer the loss ratio to GD was 0.78 +- 0.31 (paired standard error)
// on 1000 tasks and 0.48 +- 0.045 on 10000 (LFOM: 0.75 +- 0.16 and 0.86 +- 0.033), so the
// verdict `<= 1` needs 10000 to mean anything.
inline constexpr int default_compare_tasks = 10000;

// Per-task progress of a comparison's long phases (compare/task_progress.hpp): the phase's name,
// tasks done and its total, at its start (done = 0) and after every task.
using compare_task_progress = std::function<void(const std::string& phase, long done, long total)>;

struct compare_options {
  int precision_bits = 256;
  int tasks = default_compare_tasks;  // fresh validation tasks
  int calibration_tasks = 100000;     // a separate sample fixing eta* when it has no closed form
  std::uint64_t seed = 20261122;      // of the fresh tasks (independent of the training seed)
  bool progress = false;  // one line per model compared, with its time, on stderr (sweeps)
  // Empty: no per-task progress. The command line passes a progress_reporter's update.
  compare_task_progress task_progress;
};

struct compare_metric {
  std::string name;
  double value = 0;
  std::string relation;  // "<=" or ">=" (the test is value relation threshold; NaN fails)
  double threshold = 0;
  bool gated = false;  // false: reported only
  bool passed = true;
  // A gated loss ratio on a heavy-tailed loss (compare/loss_tails.hpp): neither passed nor
  // failed; `reason` says why. passed is false then.
  bool inconclusive = false;
  std::string reason;   // why INCONCLUSIVE, or why a heavy-tailed FAIL; "" otherwise
  std::string meaning;  // what is measured and why the threshold is what it is
};

// A learned matrix beside the construction's (after the scale correction), for the report's
// heatmaps: row-major values, both in double.
struct compare_matrix_pair {
  std::string title;               // "W_K^T W_Q / beta", "layer 2: Sigma^1/2 A_l Sigma^1/2 / a_l"
  std::string learned_label;       // "learned"
  std::string construction_label;  // "construction (Prop. 1, eta*)"
  std::vector<std::vector<double>> learned, construction;
};

struct compare_result {
  std::string path, experiment, preset;
  int precision_bits = 0;            // bits the values actually carried
  int requested_precision_bits = 0;  // --precision (precision_bits is the next 10-digit step up)
  int tasks = 0;
  std::uint64_t seed = 0;
  std::vector<compare_metric> metrics;
  nlohmann::json tables = nlohmann::json::object();  // per-layer tables, learned coefficients
  std::vector<std::string> notes;
  std::vector<compare_matrix_pair> matrix_pairs;  // heatmaps; not part of to_json
  bool passed = false;                            // every gated metric passed
  bool inconclusive = false;  // no gated metric failed, one or more are inconclusive
};

// "pass", "fail" or "inconclusive" (a gated metric failed: fail, whatever else is inconclusive).
const char* compare_verdict(const compare_result& r);
// The exit code of that verdict: 0 pass, 1 fail, 3 inconclusive (2 is an error).
int compare_exit_code(const compare_result& r);

// Throws weights_file_error for a bad file, std::invalid_argument for bad options.
compare_result compare_weights_file(const std::string& path, const compare_options& options = {});
compare_result compare_weights(const weights_file& w, const compare_options& options = {});

// The one JSON form of a comparison (`compare --json`, the sweep's "comparisons", the report).
nlohmann::json to_json(const compare_result& r);

// The working-precision convention in one sentence, e.g. "MPFR 257 bits carried for --precision
// 256 (Boost keeps MPFR precision in decimal digits: 77 digits, the fewest giving >= 256 bits)".
std::string carried_bits_text(const compare_result& r);

// Many weights files of one experiment (a seed sweep): for each metric, how many files pass it
// and the median, minimum and maximum of its value over the files (NaN values count as failing
// and are left out of the statistics).
struct sweep_metric_summary {
  std::string name, relation;
  double threshold = 0;
  bool gated = false;
  int passed = 0, total = 0, finite = 0, inconclusive = 0;
  double median = 0, min = 0, max = 0;
};
struct sweep_summary {
  std::string experiment;
  int files = 0, passed = 0;  // files whose every gated metric passes
  int inconclusive = 0;       // files with an inconclusive gated metric and no failing one
  std::vector<sweep_metric_summary> metrics;
};
// Throws std::invalid_argument unless every result is of one experiment (and there is one).
sweep_summary summarise_sweep(const std::vector<compare_result>& results);
nlohmann::json to_json(const sweep_summary& s);

// `iclproof compare W1.json W2.json ...`: every file is read (and rejected with one error) before
// any comparison runs, each comparison's verdict is printed on one line, then the distribution.
// Returns 0 when every file passes, 1 when one fails, else 3 (one or more inconclusive).
int run_compare_sweep_command(const std::vector<std::string>& paths,
                              const compare_options& options = {},
                              const std::string& json_path = "");

// The CLI handler of `iclproof compare WEIGHTS.json [--tasks N] [--precision BITS] [--seed S]
// [--json OUT]`: prints the metrics table and the verdict; returns compare_exit_code: 0 when every
// gated metric passes, 1 when one fails, 3 when none fails and one is inconclusive (a heavy-tailed
// loss, compare/loss_tails.hpp). Errors (bad file, bad options, unwritable JSON) are thrown as
// exceptions with one-line messages: the caller prints "iclproof: error: <message>" and exits 2.
int run_compare_command(const std::string& path, const compare_options& options = {},
                        const std::string& json_path = "");

}  // namespace iclproof
