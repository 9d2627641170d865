#include "compare/compare.hpp"
#include "compare/task_progress.hpp"

#include "compare/compare_ahn_full.hpp"
#include "compare/compare_forward.hpp"
#include "compare/compare_metrics.hpp"
#include "compare/model_comparisons.hpp"
#include "compare/model_files.hpp"
#include "compare/reference_optima.hpp"
#include "compare/validation_tasks.hpp"
#include "core/precision.hpp"

#include <fmt/format.h>

#include <cmath>
#include <optional>
#include <stdexcept>

namespace iclproof {

using namespace compare_detail;

compare_result compare_weights(const weights_file& w, const compare_options& o) {
  return compare_weights(
      w, o, [](const learned_parameters<T>& p, const Mat<T>& X, const Mat<T>& Y, const Mat<T>& Xq) {
        return learned_predictions(p, X, Y, Xq);
      });
}

compare_result compare_weights(const weights_file& w, const compare_options& o,
                               const compare_forward_pass& forward) {
  if (!forward) throw std::invalid_argument("compare: no forward pass");
  if (o.tasks < 1 || o.tasks > 1000000)
    throw std::invalid_argument("compare: --tasks must be in [1, 1000000]");
  if (o.calibration_tasks < 1 || o.calibration_tasks > 10000000)
    throw std::invalid_argument("compare: --calibration-tasks must be in [1, 10000000]");
  const scoped_mpfr_precision precision(o.precision_bits);
  const task_progress_scope progress_scope(o.task_progress);
  compare_result r;
  r.path = w.source;
  r.experiment = w.experiment;
  r.preset = w.preset;
  r.precision_bits = precision.setting().actual_bits;
  r.requested_precision_bits = o.precision_bits;
  r.tasks = o.tasks;
  r.seed = o.seed;
  r.notes = w.provenance;  // how a peer's model was read (compare/peer_models.hpp)
  const learned_parameters<T> p = to_scalar<T>(w);
  const std::vector<fresh_task> tasks = draw_tasks(w, o);
  const bool single = w.experiment == "vonoswald_single_lsa";
  const int K = single ? 1 : p.layers;
  // The GD reference step: exact wherever the data model has one (one step), else sampled.
  const std::optional<gd_step_fit> exact = exact_gd_eta(w, K);
  const gd_step_fit gd_fit = exact ? *exact : calibrate_gd_eta(w, o, K);
  r.tables["gd_step_reference"] = {{"method", gd_fit.method}, {"eta", to_d(gd_fit.eta)}};
  if (gd_fit.population_loss)
    r.tables["gd_step_reference"]["population_loss"] = to_d(*gd_fit.population_loss);
  if (!exact) r.tables["gd_step_reference"]["tasks"] = gd_fit.tasks;
  if (!exact && K == 1)  // the delta-method error of eta* is computed for the one-step fit only
    r.tables["gd_step_reference"]["eta_relative_standard_error"] =
        to_d(gd_fit.relative_standard_error);
  r.notes.push_back("GD reference step eta* = " + full_digits(gd_fit.eta) + ": " + gd_fit.method);
  if (single)
    compare_single_layer(w, p, tasks, gd_fit, r, forward);
  else if (w.kind == learned_model_kind::ahn_full_linear)
    compare_ahn_full(w, p, tasks, gd_fit, r, forward);
  else if (w.kind == learned_model_kind::lsa)
    compare_lsa_gdpp(w, p, tasks, gd_fit, o, r, forward);
  else
    compare_zform(w, p, tasks, gd_fit, r, forward);
  // A gated loss ratio on a heavy-tailed loss is judged by compare/loss_tails.hpp
  // (add_loss_ratio_metric): INCONCLUSIVE, a trimmed-ratio FAIL, or the sample ratio with a "not
  // significant" note when it lies within two standard errors of its threshold.
  bool failed = false, inconclusive = false;
  for (const auto& m : r.metrics)
    if (m.gated && !m.passed) (m.inconclusive ? inconclusive : failed) = true;
  r.passed = !failed && !inconclusive;
  r.inconclusive = !failed && inconclusive;
  return r;
}

std::string carried_bits_text(const compare_result& r) {
  if (r.precision_bits == r.requested_precision_bits)
    return fmt::format("MPFR {} bits", r.precision_bits);
  return fmt::format(
      "MPFR {} bits carried for --precision {} (Boost keeps the MPFR precision in decimal digits: "
      "the fewest digits giving at least {} bits carry {})",
      r.precision_bits, r.requested_precision_bits, r.requested_precision_bits, r.precision_bits);
}

const char* compare_verdict(const compare_result& r) {
  return r.passed ? "pass" : r.inconclusive ? "inconclusive" : "fail";
}

int compare_exit_code(const compare_result& r) { return r.passed ? 0 : r.inconclusive ? 3 : 1; }

compare_result compare_weights_file(const std::string& path, const compare_options& o) {
  return compare_weights(read_weights_file(path), o);
}

nlohmann::json to_json(const compare_result& r) {
  nlohmann::json metrics = nlohmann::json::array();
  for (const auto& m : r.metrics)
    metrics.push_back(
        {{"name", m.name},
         {"value", std::isfinite(m.value) ? nlohmann::json(m.value) : nlohmann::json(nullptr)},
         {"relation", m.relation},
         {"threshold", m.threshold},
         {"gated", m.gated},
         {"passed", m.passed},
         {"inconclusive", m.inconclusive},
         {"reason", m.reason},
         {"meaning", m.meaning}});
  return {{"weights", r.path},
          {"experiment", r.experiment},
          {"preset", r.preset},
          {"precision_bits", r.precision_bits},
          {"precision_bits_requested", r.requested_precision_bits},
          {"tasks", r.tasks},
          {"seed", r.seed},
          {"metrics", metrics},
          {"tables", r.tables},
          {"notes", r.notes},
          {"verdict", compare_verdict(r)},
          // Distances of trained weights are empirical quantities (shared/TRUST.md).
          {"trust_level", "measured"}};
}

}  // namespace iclproof
