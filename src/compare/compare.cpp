#include "compare/compare.hpp"

#include "compare/compare_ahn_full.hpp"
#include "compare/compare_forward.hpp"
#include "compare/compare_metrics.hpp"
#include "compare/model_comparisons.hpp"
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
  compare_result r;
  r.path = w.source;
  r.experiment = w.experiment;
  r.preset = w.preset;
  r.precision_bits = precision.setting().actual_bits;
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
  // A gated loss ratio nearer its threshold than two paired standard errors: the verdict is the
  // sample's rather than the model's, and the output says so (rerun with more --tasks).
  if (r.tables.contains("loss_ratio_standard_errors"))
    for (const auto& [key, se] : r.tables["loss_ratio_standard_errors"].items())
      for (const auto& m : r.metrics)
        if (m.name == "loss." + key && m.gated &&
            !(std::abs(m.value - m.threshold) >= 2 * se.get<double>()))
          r.notes.push_back(fmt::format(
              "{} = {:.4g} lies within two standard errors ({:.2g} each) of its threshold {:.4g}: "
              "not significant at {} tasks; rerun with more --tasks",
              m.name, m.value, se.get<double>(), m.threshold, o.tasks));
  r.passed = true;
  for (const auto& m : r.metrics)
    if (m.gated && !m.passed) r.passed = false;
  return r;
}

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
         {"meaning", m.meaning}});
  return {{"weights", r.path},
          {"experiment", r.experiment},
          {"preset", r.preset},
          {"precision_bits", r.precision_bits},
          {"tasks", r.tasks},
          {"seed", r.seed},
          {"metrics", metrics},
          {"tables", r.tables},
          {"notes", r.notes},
          {"verdict", r.passed ? "pass" : "fail"},
          // Distances of trained weights are empirical quantities (shared/TRUST.md).
          {"trust_level", "measured"}};
}

}  // namespace iclproof
