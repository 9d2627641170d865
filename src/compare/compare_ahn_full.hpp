// `iclproof compare` on Ahn et al.'s full linear transformer (P and Q trained per layer;
// compare/ahn_full_model.hpp): what is gated and what is reported, and why, is in
// compare_ahn_full.cpp's header comment and docs/weights.md.
#pragma once

#include "compare/compare.hpp"
#include "compare/compare_forward.hpp"
#include "compare/implicit_weights_reading.hpp"
#include "compare/reference_optima.hpp"
#include "compare/validation_tasks.hpp"

#include <vector>

namespace iclproof::compare_detail {

// Appends the metrics, tables and notes to r. The implicit-weights reading is a parameter (the
// tests pass a broken one: compare then stops with std::logic_error, never a verdict).
void compare_ahn_full(const weights_file& w, const learned_parameters<T>& p,
                      const std::vector<fresh_task>& tasks, const gd_step_fit& gd_fit,
                      compare_result& r, const compare_forward_pass& forward,
                      const implicit_reader& read = default_implicit_reader());

}  // namespace iclproof::compare_detail
