#include "compare/compare_metrics.hpp"
#include "compare/task_progress.hpp"

#include "compare/loss_tails.hpp"
#include "references/gradient_descent.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace iclproof::compare_detail {

double to_d(const T& x) { return static_cast<double>(x); }

std::vector<std::vector<double>> to_rows(const Mat<T>& m) {
  std::vector<std::vector<double>> rows(static_cast<std::size_t>(m.rows()));
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) rows[std::size_t(i)].push_back(to_d(m(i, j)));
  return rows;
}
void add_matrix_pair(compare_result& r, std::string title, const Mat<T>& learned,
                     std::string construction_label, const Mat<T>& construction) {
  r.matrix_pairs.push_back({std::move(title), "learned", std::move(construction_label),
                            to_rows(learned), to_rows(construction)});
}

std::vector<T> one_step_preconditioned_predictions(const std::vector<fresh_task>& tasks,
                                                   const Mat<T>& A) {
  std::vector<T> pred(tasks.size());
  task_phase phase("one preconditioned GD step per task", tasks.size());
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    const int d = int(tasks[t].X.rows());
    const auto W =
        preconditioned_gd_iterates(Mat<T>(Mat<T>::Zero(1, d)), tasks[t].X, tasks[t].Y, {A});
    pred[t] = matmul(W.back(), tasks[t].xq)(0, 0);
    phase.advance();
  }
  return pred;
}

T half_mean_square(const std::vector<T>& pred, const std::vector<fresh_task>& tasks) {
  T s(0);
  for (std::size_t i = 0; i < tasks.size(); ++i)
    s += (pred[i] - tasks[i].yq) * (pred[i] - tasks[i].yq);
  return s / T(2 * tasks.size());
}

T relative_l2(const std::vector<T>& a, const std::vector<T>& b) {  // ||a - b|| / ||b||
  T num(0), den(0);
  for (std::size_t i = 0; i < a.size(); ++i) {
    num += (a[i] - b[i]) * (a[i] - b[i]);
    den += b[i] * b[i];
  }
  return sqrt(num / den);
}

T cosine(const Vec<T>& a, const Vec<T>& b) {
  return a.dot(b) / sqrt(a.squaredNorm() * b.squaredNorm());
}

T relative_frobenius(const Mat<T>& a, const Mat<T>& b) {
  return sqrt((a - b).squaredNorm() / b.squaredNorm());
}

// von Oswald A.3: only the products W_K^T W_Q and P W_V act, and a layer is unchanged under
// (W_K^T W_Q, P W_V) -> (W_K^T W_Q / c, c P W_V) for any c != 0. We fix c by making the mean of
// the first d diagonal entries of W_K^T W_Q equal to 1 (the construction's x-block is I_d; its
// last diagonal entry is 0 and is excluded):
//     beta = (1/d) sum_{i<d} (W_K^T W_Q)_ii,   KQ_n = W_K^T W_Q / beta,   PV_n = beta P W_V.
// Nothing else is normalised: the off-diagonal blocks, the y-entries and the value of eta are
// compared as they are.
normalised_products normalise_lsa_products(const learned_parameters<T>& p, int l) {
  const Mat<T> KQ = matmul_tn(p.at(l, "W_K"), p.at(l, "W_Q"));
  const Mat<T> PV = matmul(p.at(l, "P"), p.at(l, "W_V"));
  T beta(0);
  for (int i = 0; i < p.d; ++i) beta += KQ(i, i);
  beta /= T(p.d);
  if (beta == T(0))
    throw std::domain_error("compare: the mean x-diagonal of W_K^T W_Q is exactly 0");
  return {Mat<T>(KQ / beta), Mat<T>(PV * beta), beta};
}

// The same products of a construction of lsa/vonoswald_weights.hpp (one head, o = 1): the
// reference a trained layer is compared with, built by the construction the properties check.
construction_products lsa_construction_products(const lsa_layer<T>& layer) {
  const lsa_head<T>& h = layer.heads.at(0);
  return {matmul_tn(h.W_K, h.W_Q), matmul(h.P, h.W_V)};
}

// K GD steps from w = 0 on every task's R(w): predictions after each step for a given eta.
std::vector<std::vector<T>> gd_predictions(const std::vector<fresh_task>& tasks, const T& eta,
                                           int K) {
  std::vector<std::vector<T>> pred(static_cast<std::size_t>(K), std::vector<T>(tasks.size()));
  task_phase phase("GD steps per task", tasks.size());
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    Vec<T> wv = Vec<T>::Zero(tasks[t].q.b.size());
    for (int k = 0; k < K; ++k) {
      wv -= eta * tasks[t].q.gradient(wv);
      pred[k][t] = wv.dot(tasks[t].xq.col(0));
    }
    phase.advance();
  }
  return pred;
}

// Paired standard error of a loss ratio R = mean(u) / mean(v) over the validation tasks
// (u, v the squared errors of the two models on the same task), by the delta method:
// se(R) ~ sqrt(sum (u_i - R v_i)^2 / (n (n - 1))) / mean(v).
T loss_ratio_standard_error(const std::vector<T>& model, const std::vector<T>& reference,
                            const std::vector<fresh_task>& tasks) {
  const std::size_t n = tasks.size();
  if (n < 2) return T(0);
  T su(0), sv(0);
  std::vector<T> u(n), v(n);
  for (std::size_t i = 0; i < n; ++i) {
    u[i] = (model[i] - tasks[i].yq) * (model[i] - tasks[i].yq);
    v[i] = (reference[i] - tasks[i].yq) * (reference[i] - tasks[i].yq);
    su += u[i];
    sv += v[i];
  }
  const T R = su / sv, mean_v = sv / T(n);
  T s(0);
  for (std::size_t i = 0; i < n; ++i) s += (u[i] - R * v[i]) * (u[i] - R * v[i]);
  return sqrt(s / (T(n) * T(n - 1))) / mean_v;
}

void add_metric(compare_result& r, const std::string& name, const T& value,
                const std::string& relation, double threshold, bool gated,
                const std::string& meaning) {
  compare_metric m;
  m.name = name;
  m.value = to_d(value);
  m.relation = relation;
  m.threshold = threshold;
  m.gated = gated;
  // NaN fails both tests.
  m.passed = relation == "<=" ? (value <= T(threshold)) : (value >= T(threshold));
  m.meaning = meaning;
  r.metrics.push_back(std::move(m));
}

void add_loss_ratio_metric(compare_result& r, const std::string& name, const std::vector<T>& model,
                           const std::vector<T>& reference, const std::vector<fresh_task>& tasks,
                           double threshold, bool gated, const std::string& meaning) {
  add_metric(r, name, half_mean_square(model, tasks) / half_mean_square(reference, tasks),
             "<=", threshold, gated, meaning);
  std::vector<double> u(tasks.size()), v(tasks.size());
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    u[i] = to_d(T((model[i] - tasks[i].yq) * (model[i] - tasks[i].yq)));
    v[i] = to_d(T((reference[i] - tasks[i].yq) * (reference[i] - tasks[i].yq)));
  }
  bool finite = true;
  for (std::size_t i = 0; i < u.size(); ++i)
    if (!std::isfinite(u[i]) || !std::isfinite(v[i])) finite = false;
  compare_metric& m = r.metrics.back();
  if (!finite || tasks.size() < 2) {  // a NaN or overflowing loss fails as add_metric says
    r.tables["loss_tails"][name] = {{"status", "not measured: a loss is not finite"}};
    return;
  }
  const loss_ratio_gate g = judge_loss_ratio(u, v, threshold);
  nlohmann::json j = to_json(g);
  if (!gated) j["status"] = "reported only";
  r.tables["loss_tails"][name] = j;
  if (!gated) return;
  if (g.status == gate_status::inconclusive) {
    m.passed = false;
    m.inconclusive = true;
  } else if (!g.reason.empty()) {  // a heavy-tailed FAIL; else the sample ratio as add_metric
    m.passed = false;
  }
  m.reason = g.reason;
  if (!g.reason.empty()) r.notes.push_back(name + ": " + to_string(g.status) + ": " + g.reason);
  if (g.not_significant)
    r.notes.push_back(fmt::format(
        "{} = {:.4g} lies within two standard errors ({:.2g} each) of its threshold {:.4g}: "
        "not significant at {} tasks; rerun with more --tasks",
        name, m.value, g.standard_error, threshold, tasks.size()));
}

nlohmann::json per_layer_losses(
    const std::vector<std::pair<std::string, std::vector<T>>>& columns) {
  nlohmann::json rows = nlohmann::json::array();
  for (std::size_t l = 0; l < columns.front().second.size(); ++l) {
    nlohmann::json row = {{"layer", l + 1}};
    for (const auto& [name, v] : columns) row[name] = to_d(v[l]);
    rows.push_back(row);
  }
  return rows;
}

std::vector<T> losses_per_layer(const std::vector<std::vector<T>>& pred,
                                const std::vector<fresh_task>& tasks) {
  std::vector<T> out;
  for (const auto& p : pred) out.push_back(half_mean_square(p, tasks));
  return out;
}

// worst = max(worst, v) where a NaN, once seen, stays: a NaN value (e.g. Dist of a collapsed,
// all-zero layer, 0/0) must fail the metric. The previous `if (!(v <= worst)) worst = v` let a
// later finite layer overwrite the NaN, so a model with a collapsed middle layer passed
// (tests/unit/compare_gated_memformer_test.cpp, "ahn_collapsed_layer").
void keep_worst(T& worst, const T& v) {
  if (isnan(worst)) return;
  if (!(v <= worst)) worst = v;
}

// Memformer App. D: Dist(M, I) = ||M - alpha I||_F / ||M||_F with alpha = tr(M) / d.
T dist_to_scaled_identity(const Mat<T>& M) {
  const T alpha = M.trace() / T(M.rows());
  return sqrt((M - alpha * Mat<T>::Identity(M.rows(), M.cols())).squaredNorm() / M.squaredNorm());
}

}  // namespace iclproof::compare_detail
