// The comparisons of `iclproof compare`, one per model family: a single LSA layer against
// Prop. 1 (compare_lsa.cpp), LSA stacks against GD++ (compare_lsa.cpp), and the Z-form models of
// Ahn et al. and the Memformer paper against preconditioned GD and CG (compare_zform.cpp). Each
// appends its metrics, tables and notes to r.
#pragma once

#include "compare/compare.hpp"
#include "compare/compare_forward.hpp"
#include "compare/reference_optima.hpp"
#include "compare/validation_tasks.hpp"

#include <vector>

namespace iclproof::compare_detail {

void compare_single_layer(const weights_file& w, const learned_parameters<T>& p,
                          const std::vector<fresh_task>& tasks, const gd_step_fit& gd_fit,
                          compare_result& r, const compare_forward_pass& forward);
void compare_lsa_gdpp(const weights_file& w, const learned_parameters<T>& p,
                      const std::vector<fresh_task>& tasks, const gd_step_fit& gd_fit,
                      const compare_options& o, compare_result& r,
                      const compare_forward_pass& forward);
void compare_zform(const weights_file& w, const learned_parameters<T>& p,
                   const std::vector<fresh_task>& tasks, const gd_step_fit& gd_fit,
                   compare_result& r, const compare_forward_pass& forward);

}  // namespace iclproof::compare_detail
