// RapidCheck generators of task specifications (dimensions, distribution, conditioning,
// rank, noise, data seed). Shrinking moves towards small dimensions, isotropic data and
// seed 0, so a counterexample ends up as small as the property allows.
#pragma once

#include "tasks/regression_task.hpp"

#include <rapidcheck.h>

#include <vector>

namespace iclproof {

struct task_ranges {
  int d_min = 1, d_max = 8;
  int o_min = 1, o_max = 1;
  int N_min = 1, N_max = 24;
  int queries = 1;
  std::vector<input_distribution> distributions = {
      input_distribution::gaussian, input_distribution::uniform, input_distribution::anisotropic,
      input_distribution::rank_deficient};
  double max_condition = 1e3;  // anisotropic: cond drawn log-uniformly in [1, max_condition]
  double max_noise = 0.0;      // noise drawn in {0, max_noise}
};

rc::Gen<task_spec> gen_task_spec(const task_ranges& r);

}  // namespace iclproof
