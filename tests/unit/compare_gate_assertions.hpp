// Assertions on a compare_result shared by the compare gate tests (compare_gated_lsa_test,
// compare_gated_memformer_test, compare_sweep_test): a metric by name, every gated metric passing,
// one gated metric (or each of several) failing (alone), compare_weights on a right model changed
// into a wrong one, and compare_weights on the forward pass without the mask.
#pragma once

#include "compare/compare.hpp"
#include "compare/compare_forward.hpp"
#include "compare/learned_models.hpp"
#include "compare/weights_file.hpp"

#include <catch2/catch.hpp>

#include <initializer_list>
#include <stdexcept>
#include <string>

namespace iclproof {

inline const compare_metric& find_metric(const compare_result& r, const std::string& name) {
  for (const auto& m : r.metrics)
    if (m.name == name) return m;
  FAIL("no metric " << name);
  throw std::logic_error("unreachable");
}

// Every gated metric passes.
inline void require_all_gated_pass(const compare_result& r) {
  INFO(to_json(r).dump(1));
  for (const auto& m : r.metrics)
    if (m.gated) {
      INFO(m.name << " = " << m.value);
      CHECK(m.passed);
    }
  CHECK(r.passed);
}

// The named gated metric fails (and therefore the verdict).
inline void require_fails(const compare_result& r, const std::string& name) {
  const compare_metric& m = find_metric(r, name);
  INFO(name << " = " << m.value << " " << m.relation << " " << m.threshold);
  CHECK(m.gated);
  CHECK_FALSE(m.passed);
  CHECK_FALSE(r.passed);
}

// Each named gated metric fails (require_fails for each, in this order).
inline void require_each_fails(const compare_result& r, std::initializer_list<const char*> names) {
  for (const char* name : names) require_fails(r, name);
}

// The named gated metric fails and every other gated metric passes: the metric is what fails
// the model (it is not redundant with another gate on this model).
inline void require_fails_alone(const compare_result& r, const std::string& name) {
  require_fails(r, name);
  INFO(to_json(r).dump(1));
  for (const auto& m : r.metrics)
    if (m.gated && m.name != name) {
      INFO(m.name << " = " << m.value << " " << m.relation << " " << m.threshold);
      CHECK(m.passed);
    }
}

// compare's options with `tasks` validation tasks and `calibration_tasks` calibration tasks (by
// default compare's own).
inline compare_options compare_tasks(int tasks,
                                     int calibration_tasks = compare_options{}.calibration_tasks) {
  compare_options o;
  o.tasks = tasks;
  o.calibration_tasks = calibration_tasks;
  return o;
}

// compare_weights on a copy of the right model `good` made wrong by `change(weights_file&)`.
template <class Change>
compare_result compare_changed(weights_file w, const compare_options& o, Change change) {
  change(w);
  return compare_weights(w, o);
}

// compare_weights with the forward pass WITHOUT the attention mask (a wrong model).
inline compare_result compare_unmasked(const weights_file& w, const compare_options& o) {
  return compare_weights(w, o,
                         [](const learned_parameters<mpfr_real>& p, const Mat<mpfr_real>& X,
                            const Mat<mpfr_real>& Y, const Mat<mpfr_real>& Xq) {
                           return learned_predictions(p, X, Y, Xq, learned_attention_mask::none);
                         });
}

}  // namespace iclproof
