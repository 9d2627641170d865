#include "compare/gdpp_tuning.hpp"

#include "core/linalg.hpp"
#include "references/gradient_descent.hpp"

#include <unsupported/Eigen/LevenbergMarquardt>
#include <unsupported/Eigen/NumericalDiff>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace iclproof {

double gdpp_prediction(const gdpp_tuning_task& t, const std::vector<double>& eta,
                       const std::vector<double>& gamma) {
  return matmul(gdpp_preconditioned_iterates<double>(t.X, t.Y, eta, gamma).back(), t.xq)(0, 0);
}

double gdpp_sample_loss(const std::vector<gdpp_tuning_task>& tasks, const std::vector<double>& eta,
                        const std::vector<double>& gamma) {
  double s = 0;
  for (const auto& t : tasks) {
    const double e = gdpp_prediction(t, eta, gamma) - t.yq;
    s += e * e;
  }
  return s / (2.0 * static_cast<double>(tasks.size()));
}

namespace {

// theta -> per-layer (eta, gamma). The last layer's gamma transforms the data after the last
// step, so no prediction depends on it: it is not a parameter, and is reported as 0. Untied
// theta = (eta_1, gamma_1, ..., eta_{L-1}, gamma_{L-1}, eta_L) (2L - 1 entries), tied theta =
// (eta, gamma) (gamma acts between layers when L > 1; one layer: theta = (eta)).
int parameter_count(int layers, bool tied) { return tied ? (layers > 1 ? 2 : 1) : 2 * layers - 1; }
void unpack(const Eigen::VectorXd& theta, int layers, bool tied, std::vector<double>& eta,
            std::vector<double>& gamma) {
  eta.assign(static_cast<std::size_t>(layers), 0.0);
  gamma.assign(static_cast<std::size_t>(layers), 0.0);
  for (int l = 0; l < layers; ++l) {
    const int k = tied ? 0 : 2 * l;
    eta[static_cast<std::size_t>(l)] = theta(k);
    if (l + 1 < layers) gamma[static_cast<std::size_t>(l)] = theta(k + 1);
  }
}

// Residuals r_t(theta) = prediction_t - y_q,t, scaled by 1/sqrt(2n) so that |r|^2 is the loss.
struct gdpp_residuals : Eigen::DenseFunctor<double> {
  gdpp_residuals(const std::vector<gdpp_tuning_task>& tasks, int layers, bool tied)
      : Eigen::DenseFunctor<double>(parameter_count(layers, tied), static_cast<int>(tasks.size())),
        tasks_(tasks),
        layers_(layers),
        tied_(tied) {}
  int operator()(const Eigen::VectorXd& theta, Eigen::VectorXd& r) const {
    std::vector<double> eta, gamma;
    unpack(theta, layers_, tied_, eta, gamma);
    const double scale = 1.0 / std::sqrt(2.0 * static_cast<double>(tasks_.size()));
    for (std::size_t t = 0; t < tasks_.size(); ++t)
      r(static_cast<Eigen::Index>(t)) =
          scale * (gdpp_prediction(tasks_[t], eta, gamma) - tasks_[t].yq);
    ++evaluations;
    return 0;
  }
  const std::vector<gdpp_tuning_task>& tasks_;
  int layers_;
  bool tied_;
  mutable int evaluations = 0;
};

}  // namespace

gdpp_tuning_result tune_gdpp(const std::vector<gdpp_tuning_task>& tasks, int layers, bool tied,
                             const std::vector<std::pair<double, double>>& starts,
                             const std::vector<gdpp_tuning_task>& holdout) {
  if (tasks.empty()) throw std::invalid_argument("tune_gdpp: no tasks");
  if (starts.empty()) throw std::invalid_argument("tune_gdpp: no starting point");
  if (layers < 1) throw std::invalid_argument("tune_gdpp: layers must be >= 1");
  gdpp_tuning_result best;
  double best_selection = std::numeric_limits<double>::infinity();
  best.tasks = static_cast<int>(tasks.size());
  best.starts = static_cast<int>(starts.size());
  const int P = parameter_count(layers, tied);
  for (const auto& [eta0, gamma0] : starts) {
    gdpp_residuals f(tasks, layers, tied);
    Eigen::NumericalDiff<gdpp_residuals> numeric(f);
    Eigen::LevenbergMarquardt<Eigen::NumericalDiff<gdpp_residuals>> lm(numeric);
    lm.setMaxfev(100 * (P + 1));
    Eigen::VectorXd theta(P);
    for (int k = 0; k < P; ++k) theta(k) = k % 2 == 0 ? eta0 : gamma0;
    lm.minimize(theta);
    std::vector<double> eta, gamma;
    unpack(theta, layers, tied, eta, gamma);
    const double loss = gdpp_sample_loss(tasks, eta, gamma);
    best.evaluations += static_cast<int>(lm.nfev()) + 1;
    best.start_losses.push_back(loss);
    double selection = loss;
    if (!holdout.empty()) {
      selection = gdpp_sample_loss(holdout, eta, gamma);
      best.holdout_losses.push_back(selection);
    }
    if (selection < best_selection) {  // a NaN loss is never kept
      best_selection = selection;
      best.loss = loss;
      best.holdout_loss = holdout.empty() ? 0.0 : selection;
      best.eta = eta;
      best.gamma = gamma;
    }
  }
  if (best.eta.empty())
    throw std::domain_error("tune_gdpp: the loss is not finite from any starting point");
  return best;
}

}  // namespace iclproof
