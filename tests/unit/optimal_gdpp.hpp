// The right model of a gated GD++ comparison in the compare tests (compare_gated_lsa_test,
// compare_weights_reader_test): GD++ with its population-optimal coefficients.
#pragma once

#include "compare/gdpp_tuning.hpp"
#include "tasks/regression_task.hpp"

#include <vector>

namespace iclproof {

// The right model of a gated GD++ comparison: GD++ with its population-optimal coefficients,
// estimated by tune_gdpp (tested on its own in compare_gdpp_tuning_test.cpp: a closed-form one-
// layer step, a teacher's coefficients recovered) on 4000 tasks of the same data model (x ~
// U(-1, 1)^d, w ~ N(0, I)) drawn here with a seed of this test's own, not compare's stream. The
// tuned reference compare builds from its own sample must then agree with it to sampling error.
inline gdpp_tuning_result optimal_gdpp(int d, int N, int layers, bool tied) {
  data_rng rng(99);
  std::vector<gdpp_tuning_task> tasks;
  for (int t = 0; t < 4000; ++t) {
    const Mat<double> Xall = rng.uniform_matrix(d, N + 1, -1.0, 1.0);
    const Mat<double> wv = rng.normal_matrix(1, d);
    tasks.push_back({Xall.leftCols(N), wv * Xall.leftCols(N), Xall.rightCols(1),
                     (wv * Xall.rightCols(1))(0, 0)});
  }
  return tune_gdpp(tasks, layers, tied, {{2.0, 0.0}});  // from plain GD, as compare starts
}

}  // namespace iclproof
