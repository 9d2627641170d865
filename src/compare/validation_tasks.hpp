// Fresh tasks from iclproof's portable generator for `iclproof compare`, and the trained
// model's outputs on them (predictions per layer, sensitivities d y_hat / d x_q).
#pragma once

#include "compare/compare.hpp"
#include "compare/compare_forward.hpp"
#include "compare/learned_models.hpp"
#include "core/linalg.hpp"
#include "core/scalar.hpp"
#include "references/references.hpp"
#include "tasks/regression_task.hpp"

#include <vector>

namespace iclproof::compare_detail {

using T = mpfr_real;

struct fresh_task {
  Mat<T> X, Y, xq;  // d x N, 1 x N, d x 1
  T yq;
  quadratic_problem<T> q;
};

// Fresh tasks from iclproof's portable generator, one at a time (the calibration sample is
// streamed, never stored).
class task_source {
 public:
  task_source(const weights_file& w, std::uint64_t seed) : w_(w), rng_(seed) {
    if (w.inputs == "anisotropic") {
      S12_ = spd_sqrt(from_double<T>(w.Sigma));  // Sigma^1/2 at the working precision
      Sinv12_ = inverse(S12_);
    }
  }
  fresh_task next() {
    fresh_task k;
    Mat<T> Xall, wv;
    if (w_.inputs == "uniform") {
      Xall = from_double<T>(rng_.uniform_matrix(w_.d, w_.N + 1, -1.0, 1.0));
      wv = from_double<T>(rng_.normal_matrix(1, w_.d));
    } else if (w_.inputs == "gaussian") {
      Xall = from_double<T>(rng_.normal_matrix(w_.d, w_.N + 1));
      wv = from_double<T>(rng_.normal_matrix(1, w_.d));
    } else {
      Xall = matmul(S12_, from_double<T>(rng_.normal_matrix(w_.d, w_.N + 1)));
      wv = matmul(from_double<T>(rng_.normal_matrix(1, w_.d)), Sinv12_);  // Sigma^-1/2 symmetric
    }
    k.X = Xall.leftCols(w_.N);
    k.xq = Xall.rightCols(1);
    k.Y = matmul(wv, k.X);
    k.yq = matmul(wv, k.xq)(0, 0);
    k.q = make_quadratic_problem(k.X, k.Y);
    return k;
  }

 private:
  const weights_file& w_;
  data_rng rng_;
  Mat<T> S12_, Sinv12_;
};

std::vector<fresh_task> draw_tasks(const weights_file& w, const compare_options& o);

// The covariance E[x x^T] of the file's inputs, the geometry in which trained preconditioners
// are measured (Sigma^1/2 A Sigma^1/2): Sigma for "anisotropic", I for "gaussian", I/3 for
// "uniform" (x ~ U(-1, 1)^d, E x_i^2 = 1/3). A file with isotropic inputs carries no Sigma.
Mat<T> input_covariance(const weights_file& w);

// Per-layer predictions of the trained model and its sensitivities d y_hat / d x_q, by the
// forward pass given (compare_forward.hpp; learned_predictions for every real comparison). The
// masked models are linear in x_q (queries are never keys or values, and the x-rows of the
// Z-form models never change), so column k of the sensitivity is the prediction at x_q = e_k
// minus the prediction at x_q = 0, exactly. (For a forward pass that is not linear in x_q, e.g.
// one without the mask, this is the finite difference the same formula gives.)
struct trained_outputs {
  std::vector<std::vector<T>> pred;  // [layer][task]
  std::vector<Vec<T>> sensitivity;   // [task], final layer
};
trained_outputs evaluate_trained(const learned_parameters<T>& p,
                                 const std::vector<fresh_task>& tasks,
                                 const compare_forward_pass& forward);

}  // namespace iclproof::compare_detail
