// GD++ with per-layer coefficients TUNED on a sample of tasks: the reference von Oswald et al.
// match deep untied LSA stacks against (Sec. 3, the 5-layer non-recurrent paragraph: "We see
// that a different GD learning rate as well as gamma per step (layer) need to be tuned to match
// the Transformer performance. This slight modification leads again to almost perfect alignment
// between the trained TF and GD++ with in this case 10 additional parameters").
//
// The GD++ algorithm is the one of references/gradient_descent.hpp
// (gdpp_preconditioned_iterates, the preconditioned form CONSTRUCTIONS.md section 2 states); this
// file only chooses its coefficients theta = (eta_1, gamma_1, ..., eta_L, gamma_L) (tied: one
// pair for every layer) to minimise the sample loss
//     (1 / 2n) sum_t (W_L(theta; X_t, Y_t) x_q,t - y_q,t)^2,
// by Levenberg-Marquardt (Eigen's unsupported module) with forward-difference Jacobians, from
// each start given, keeping the lowest loss. The loss is a polynomial in theta, not convex: the
// result is the best local minimum found from the starts, a MEASURED reference (shared/TRUST.md),
// computed in double (its sampling error, O(1/sqrt(n)), is far above double's rounding).
#pragma once

#include "core/eigen_scalar.hpp"

#include <string>
#include <utility>
#include <vector>

namespace iclproof {

struct gdpp_tuning_task {
  Mat<double> X, Y, xq;  // d x N, 1 x N, d x 1
  double yq = 0;
};

struct gdpp_tuning_result {
  // Per layer (tied: the one pair repeated). The last layer's gamma acts after the last step,
  // so nothing depends on it: it is not tuned and is 0.
  std::vector<double> eta, gamma;
  double loss = 0;  // (1/2n) sum of squared errors at (eta, gamma)
  int tasks = 0, starts = 0, evaluations = 0;
  std::vector<double> start_losses;  // the loss reached from each start, in order
};

// GD++'s prediction W_L x_q on one task (gdpp_preconditioned_iterates).
double gdpp_prediction(const gdpp_tuning_task& t, const std::vector<double>& eta,
                       const std::vector<double>& gamma);

// (1/2n) sum_t (prediction - y_q)^2.
double gdpp_sample_loss(const std::vector<gdpp_tuning_task>& tasks, const std::vector<double>& eta,
                        const std::vector<double>& gamma);

// Tunes (eta_l, gamma_l) for `layers` layers (tied: one pair). Each start is one (eta, gamma)
// pair used for every layer. Throws std::invalid_argument on no tasks, no starts or layers < 1.
gdpp_tuning_result tune_gdpp(const std::vector<gdpp_tuning_task>& tasks, int layers, bool tied,
                             const std::vector<std::pair<double, double>>& starts);

}  // namespace iclproof
