// The measurements of `iclproof compare`: distances, cosines, losses and their standard errors,
// the scale correction of LSA products, and the metric records (compare_metric) they feed.
#pragma once

#include "compare/compare.hpp"
#include "compare/validation_tasks.hpp"
#include "lsa/lsa_layer.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace iclproof::compare_detail {

double to_d(const T& x);
std::vector<std::vector<double>> to_rows(const Mat<T>& m);
// A learned matrix beside the construction's, for the report's heatmaps.
void add_matrix_pair(compare_result& r, std::string title, const Mat<T>& learned,
                     std::string construction_label, const Mat<T>& construction);

// (1/2n) sum (pred - y_q)^2 over the tasks.
T half_mean_square(const std::vector<T>& pred, const std::vector<fresh_task>& tasks);
T relative_l2(const std::vector<T>& a, const std::vector<T>& b);  // ||a - b|| / ||b||
T cosine(const Vec<T>& a, const Vec<T>& b);
T relative_frobenius(const Mat<T>& a, const Mat<T>& b);  // ||a - b||_F / ||b||_F

// von Oswald A.3 scale correction of a layer's products (definition and convention in
// compare_metrics.cpp).
struct normalised_products {
  Mat<T> KQ, PV;
  T beta;
};
normalised_products normalise_lsa_products(const learned_parameters<T>& p, int l);
// The same products of a construction of lsa/vonoswald_weights.hpp (one head, o = 1).
struct construction_products {
  Mat<T> KQ, PV;
};
construction_products lsa_construction_products(const lsa_layer<T>& layer);

// K GD steps from w = 0 on every task's R(w): predictions after each step for a given eta.
std::vector<std::vector<T>> gd_predictions(const std::vector<fresh_task>& tasks, const T& eta,
                                           int K);
// One preconditioned GD step from w = 0 with preconditioner A (the one-layer exact optimum A*,
// references/gradient_descent.hpp): its prediction on every task's query.
std::vector<T> one_step_preconditioned_predictions(const std::vector<fresh_task>& tasks,
                                                   const Mat<T>& A);
// Paired standard error of a loss ratio (delta method; compare_metrics.cpp).
T loss_ratio_standard_error(const std::vector<T>& model, const std::vector<T>& reference,
                            const std::vector<fresh_task>& tasks);

void add_metric(compare_result& r, const std::string& name, const T& value,
                const std::string& relation, double threshold, bool gated,
                const std::string& meaning);
// The loss ratio L(model) / L(reference) on the same tasks, `name <= threshold`: its value as
// add_metric, the tail of each model's per-task loss in tables.loss_tails[name], and when gated
// the heavy-tail rule of compare/loss_tails.hpp (INCONCLUSIVE, a trimmed-ratio FAIL, or the
// sample ratio with a "not significant" note within two standard errors of the threshold).
void add_loss_ratio_metric(compare_result& r, const std::string& name, const std::vector<T>& model,
                           const std::vector<T>& reference, const std::vector<fresh_task>& tasks,
                           double threshold, bool gated, const std::string& meaning);
nlohmann::json per_layer_losses(const std::vector<std::pair<std::string, std::vector<T>>>& columns);
std::vector<T> losses_per_layer(const std::vector<std::vector<T>>& pred,
                                const std::vector<fresh_task>& tasks);
// worst = max(worst, v) where a NaN, once seen, stays.
void keep_worst(T& worst, const T& v);
// Memformer App. D: Dist(M, I) = ||M - alpha I||_F / ||M||_F with alpha = tr(M) / d.
T dist_to_scaled_identity(const Mat<T>& M);

}  // namespace iclproof::compare_detail
