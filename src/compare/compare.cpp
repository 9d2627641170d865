#include "compare/compare.hpp"

#include "compare/learned_models.hpp"
#include "core/precision.hpp"
#include "references/references.hpp"
#include "tasks/regression_task.hpp"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <stdexcept>

namespace iclproof {

// THRESHOLDS. These are acceptance criteria for a statistical claim ("training converges to the
// construction"), not floating-point error bounds: the 256-bit evaluation makes rounding
// irrelevant (errors ~2^-250), and what remains is the distance of a finite Adam run from the
// optimum. The values follow the issue (cosine >= 0.99, relative distance <= 0.05) and von
// Oswald et al. (Figure 2: after training, cosine similarity of sensitivities ~1 and prediction
// differences near 0; Figure 3: the recurrent model "realigns perfectly" with GD++), and
// the Memformer paper (Figures 1-2: Memformers match or beat GD, compete with CG).
namespace thresholds {
// One LSA layer: the optimum over LSA weights is Prop 1's construction with eta* (for x with a
// distribution invariant under signed coordinate permutations, the x-block of the optimal
// preconditioner commutes with them, hence is a multiple of I). A converged run is within Adam's
// noise floor of it: we accept 5% in relative Frobenius distance / prediction difference.
constexpr double relative_distance = 0.05;
constexpr double cosine = 0.99;
// Loss ratio trained / reference: the trained model may be slightly better (it has more freedom
// than GD) but must not be worse by more than the same 5%.
constexpr double loss_ratio = 1.05;
// Ahn Theorem 3 (as restated in the Memformer paper App. D): A_l -> a_l Sigma^-1 at the optimum.
// Appendix D's Figure 8 shows Dist falling to ~0.1 over training; we accept 0.1.
constexpr double ahn_dist = 0.10;
// Weight alignment with GD++ (relative_distance above) is gated for the recurrent (tied) model
// only. von Oswald et al. claim it there (Sec. 3, Fig. 3: the recurrent Transformer "realigns
// perfectly with GD++" and interpolates with the construction), but for deep untied stacks they
// report the opposite: with per-layer (eta_l, gamma_l) the trained stack aligns with GD++ as a
// function, "Nevertheless, we see that the naive correction necessary for model interpolation
// used in the aforementioned experiments is not enough to interpolate without a loss increase.
// We leave a search for better weight corrections to future work." (Sec. 3, the 5-layer
// non-recurrent paragraph). Per-layer weights of an untied stack are therefore not claimed to
// match the construction after the A.3 scale correction; the distance is reported, and the
// untied stack is judged by what the paper does claim: predictions, sensitivities and loss
// against GD++ with the fitted per-layer coefficients (all gated, same thresholds).
}  // namespace thresholds

namespace {

using T = mpfr_real;

struct fresh_task {
  Mat<T> X, Y, xq;  // d x N, 1 x N, d x 1
  T yq;
  quadratic_problem<T> q;
};

std::vector<fresh_task> draw_tasks(const weights_file& w, const compare_options& o) {
  data_rng rng(o.seed);
  Mat<T> S12, Sinv12;
  if (w.inputs == "anisotropic") {
    S12 = spd_sqrt(from_double<T>(w.Sigma));  // Sigma^1/2 at the working precision
    Sinv12 = inverse(S12);
  }
  std::vector<fresh_task> tasks;
  tasks.reserve(static_cast<std::size_t>(o.tasks));
  for (int t = 0; t < o.tasks; ++t) {
    fresh_task k;
    Mat<T> Xall, wv;
    if (w.inputs == "uniform") {
      Xall = from_double<T>(rng.uniform_matrix(w.d, w.N + 1, -1.0, 1.0));
      wv = from_double<T>(rng.normal_matrix(1, w.d));
    } else if (w.inputs == "gaussian") {
      Xall = from_double<T>(rng.normal_matrix(w.d, w.N + 1));
      wv = from_double<T>(rng.normal_matrix(1, w.d));
    } else {
      Xall = matmul(S12, from_double<T>(rng.normal_matrix(w.d, w.N + 1)));
      wv = matmul(from_double<T>(rng.normal_matrix(1, w.d)), Sinv12);  // Sigma^-1/2 symmetric
    }
    k.X = Xall.leftCols(w.N);
    k.xq = Xall.rightCols(1);
    k.Y = matmul(wv, k.X);
    k.yq = matmul(wv, k.xq)(0, 0);
    k.q = make_quadratic_problem(k.X, k.Y);
    tasks.push_back(std::move(k));
  }
  return tasks;
}

double to_d(const T& x) { return static_cast<double>(x); }

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
struct normalised_products {
  Mat<T> KQ, PV;
  T beta;
};
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

// K GD steps from w = 0 on every task's R(w): predictions after each step for a given eta.
std::vector<std::vector<T>> gd_predictions(const std::vector<fresh_task>& tasks, const T& eta,
                                           int K) {
  std::vector<std::vector<T>> pred(static_cast<std::size_t>(K), std::vector<T>(tasks.size()));
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    Vec<T> wv = Vec<T>::Zero(tasks[t].q.b.size());
    for (int k = 0; k < K; ++k) {
      wv -= eta * tasks[t].q.gradient(wv);
      pred[k][t] = wv.dot(tasks[t].xq.col(0));
    }
  }
  return pred;
}

// The step size minimising the mean loss after K GD steps on the validation tasks. K = 1: the
// loss is quadratic in eta and the minimiser is exact, eta* = sum a y / sum a^2 with
// a = x_q^T b. K > 1: the loss is a polynomial in eta; a grid on (0, 4 / mean lambda_bar]
// (lambda_bar = tr H / d; GD diverges beyond 2 / lambda_max) locates the basin, then 60
// golden-section steps refine it (the bracket shrinks by 0.618^60 ~ 3e-13).
T best_gd_eta(const std::vector<fresh_task>& tasks, int K) {
  if (K == 1) {
    T num(0), den(0);
    for (const auto& t : tasks) {
      const T a = t.q.b.dot(t.xq.col(0));
      num += a * t.yq;
      den += a * a;
    }
    return num / den;
  }
  T mean_trace(0);
  for (const auto& t : tasks) mean_trace += t.q.H.trace() / T(t.q.H.rows());
  mean_trace /= T(tasks.size());
  const T hi = T(4) / mean_trace;
  auto loss = [&](const T& eta) {
    return half_mean_square(gd_predictions(tasks, eta, K).back(), tasks);
  };
  const int grid = 40;
  int best = 1;
  T best_loss = loss(hi / T(grid));
  for (int i = 2; i <= grid; ++i) {
    const T l = loss(hi * T(i) / T(grid));
    if (l < best_loss) {
      best_loss = l;
      best = i;
    }
  }
  T a = hi * T(best - 1) / T(grid), b = hi * T(best + 1) / T(grid);
  const T r = (sqrt(T(5)) - T(1)) / T(2);
  T c = b - r * (b - a), e = a + r * (b - a), fc = loss(c), fe = loss(e);
  for (int i = 0; i < 60; ++i) {
    if (fc < fe) {
      b = e;
      e = c;
      fe = fc;
      c = b - r * (b - a);
      fc = loss(c);
    } else {
      a = c;
      c = e;
      fc = fe;
      e = a + r * (b - a);
      fe = loss(e);
    }
  }
  return (a + b) / T(2);
}

// Per-layer predictions of the trained model and its sensitivities d y_hat / d x_q. The masked
// models are linear in x_q (queries are never keys or values, and the x-rows of the Z-form
// models never change), so column k of the sensitivity is the prediction at x_q = e_k minus
// the prediction at x_q = 0, exactly.
struct trained_outputs {
  std::vector<std::vector<T>> pred;  // [layer][task]
  std::vector<Vec<T>> sensitivity;   // [task], final layer
};
trained_outputs evaluate_trained(const learned_parameters<T>& p,
                                 const std::vector<fresh_task>& tasks) {
  trained_outputs o;
  o.pred.assign(static_cast<std::size_t>(p.layers), std::vector<T>(tasks.size()));
  const int d = p.d;
  Mat<T> Xq = Mat<T>::Zero(d, d + 2);
  for (int k = 0; k < d; ++k) Xq(k, 2 + k) = T(1);
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    Xq.col(0) = tasks[t].xq.col(0);
    const auto out = learned_predictions(p, tasks[t].X, tasks[t].Y, Xq);
    for (int l = 0; l < p.layers; ++l) o.pred[l][t] = out[l](0);
    Vec<T> s(d);
    for (int k = 0; k < d; ++k) s(k) = out.back()(2 + k) - out.back()(1);
    o.sensitivity.push_back(std::move(s));
  }
  return o;
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

// Memformer App. D: Dist(M, I) = ||M - alpha I||_F / ||M||_F with alpha = tr(M) / d.
T dist_to_scaled_identity(const Mat<T>& M) {
  const T alpha = M.trace() / T(M.rows());
  return sqrt((M - alpha * Mat<T>::Identity(M.rows(), M.cols())).squaredNorm() / M.squaredNorm());
}

void compare_single_layer(const weights_file& w, const learned_parameters<T>& p,
                          const std::vector<fresh_task>& tasks, compare_result& r) {
  const int d = p.d;
  const T eta = best_gd_eta(tasks, 1);
  const trained_outputs tf = evaluate_trained(p, tasks);
  std::vector<T> gd(tasks.size());
  T cos_sum(0), cos_min(2);
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    const Vec<T> s_gd = eta * tasks[t].q.b;  // d(eta b^T x_q)/dx_q
    gd[t] = s_gd.dot(tasks[t].xq.col(0));
    const T c = cosine(tf.sensitivity[t], s_gd);
    cos_sum += c;
    if (!(c >= cos_min)) cos_min = c;
  }
  const normalised_products n = normalise_lsa_products(p, 0);
  Mat<T> KQ_star = Mat<T>::Zero(d + 1, d + 1), PV_star = Mat<T>::Zero(d + 1, d + 1);
  KQ_star.topLeftCorner(d, d) = Mat<T>::Identity(d, d);
  PV_star(d, d) = -eta / T(p.N);
  const T loss_tf = half_mean_square(tf.pred[0], tasks), loss_gd = half_mean_square(gd, tasks);

  // Identifiability: a single layer's prediction reads only the query's y-part, and the query's
  // y-entry is 0 on input, so the prediction depends on P W_V only through its last row and on
  // W_K^T W_Q only through its first d columns. The other entries get exactly zero gradient
  // (Adam leaves them at their initial values): the verdict uses the identifiable blocks, the
  // full matrices are reported.
  add_metric(r, "weights.KQ_relative_distance",
             relative_frobenius(Mat<T>(n.KQ.leftCols(d)), Mat<T>(KQ_star.leftCols(d))),
             "<=", thresholds::relative_distance, true,
             "||(W_K^T W_Q / beta)[:, :d] - [[I],[0]]||_F / sqrt(d) (Prop 1; scale of A.3; "
             "identifiable columns)");
  add_metric(r, "weights.PV_relative_distance",
             relative_frobenius(Mat<T>(n.PV.bottomRows(1)), Mat<T>(PV_star.bottomRows(1))),
             "<=", thresholds::relative_distance, true,
             "||(beta P W_V)[d, :] - [0, -eta*/N]||_2 / (eta*/N), line-searched eta* (Prop 1; "
             "identifiable row)");
  add_metric(r, "weights.KQ_full_relative_distance", relative_frobenius(n.KQ, KQ_star),
             "<=", thresholds::relative_distance, false,
             "the same on the full matrix (includes never-trained entries)");
  add_metric(r, "weights.PV_full_relative_distance", relative_frobenius(n.PV, PV_star),
             "<=", thresholds::relative_distance, false,
             "the same on the full matrix (includes never-trained entries)");
  add_metric(r, "predictions.relative_difference", relative_l2(tf.pred[0], gd),
             "<=", thresholds::relative_distance, true,
             "||y_TF - y_GD||_2 / ||y_GD||_2 over the fresh tasks, one GD step with eta*");
  add_metric(r, "sensitivities.mean_cosine", cos_sum / T(tasks.size()), ">=", thresholds::cosine,
             true, "mean over tasks of cos(d y_TF / d x_q, d y_GD / d x_q) (von Oswald Fig. 2)");
  add_metric(r, "sensitivities.min_cosine", cos_min, ">=", thresholds::cosine, false,
             "worst task (reported)");
  add_metric(r, "loss.ratio_to_gd", loss_tf / loss_gd, "<=", thresholds::loss_ratio, true,
             "L(TF) / L(one GD step with eta*) on the fresh tasks");
  r.tables["eta_line_searched"] = to_d(eta);
  r.tables["eta_learned"] = to_d(-T(p.N) * n.PV(d, d));
  r.tables["beta"] = to_d(n.beta);
  r.tables["loss"] = {{"trained", to_d(loss_tf)}, {"gd", to_d(loss_gd)}};
  r.notes.push_back(
      "scale correction (von Oswald A.3): beta = mean of the first d diagonal entries of W_K^T "
      "W_Q; "
      "compared: W_K^T W_Q / beta and beta P W_V, nothing else normalised");
  (void)w;
}

void compare_lsa_gdpp(const weights_file& w, const learned_parameters<T>& p,
                      const std::vector<fresh_task>& tasks, compare_result& r) {
  const int d = p.d, L = p.layers, sets = p.tied ? 1 : L;
  nlohmann::json layer_rows = nlohmann::json::array();
  std::vector<T> eta_fit, gamma_fit;
  T worst_align(0);
  for (int s = 0; s < sets; ++s) {
    const normalised_products n = normalise_lsa_products(p, s);
    T gamma(0);
    for (int i = 0; i < d; ++i) gamma -= n.PV(i, i);
    gamma /= T(d);
    const T eta = -T(p.N) * n.PV(d, d);
    Mat<T> KQ_star = Mat<T>::Zero(d + 1, d + 1), PV_star = Mat<T>::Zero(d + 1, d + 1);
    KQ_star.topLeftCorner(d, d) = Mat<T>::Identity(d, d);
    PV_star.topLeftCorner(d, d) = -gamma * Mat<T>::Identity(d, d);
    PV_star(d, d) = -eta / T(p.N);
    // The last layer of an untied stack: its x-row updates are never read, so the first d rows of
    // its P W_V get zero gradient; they are left out (as in the single-layer comparison).
    const bool last_untied = !p.tied && s == L - 1 && L > 1;
    const T dKQ = relative_frobenius(n.KQ, KQ_star);
    const T dPV =
        last_untied ? relative_frobenius(Mat<T>(n.PV.bottomRows(1)), Mat<T>(PV_star.bottomRows(1)))
                    : relative_frobenius(n.PV, PV_star);
    if (!(dKQ <= worst_align)) worst_align = dKQ;
    if (!(dPV <= worst_align)) worst_align = dPV;
    layer_rows.push_back({{"parameter_set", s},
                          {"beta", to_d(n.beta)},
                          {"eta", to_d(eta)},
                          {"gamma", to_d(gamma)},
                          {"KQ_relative_distance", to_d(dKQ)},
                          {"PV_relative_distance", to_d(dPV)}});
    eta_fit.push_back(eta);
    gamma_fit.push_back(gamma);
  }
  // GD++ reference with the fitted (eta_l, gamma_l), one pair per layer application.
  std::vector<T> eta_l, gamma_l;
  for (int l = 0; l < L; ++l) {
    eta_l.push_back(eta_fit[p.tied ? 0 : l]);
    gamma_l.push_back(gamma_fit[p.tied ? 0 : l]);
  }
  const trained_outputs tf = evaluate_trained(p, tasks);
  std::vector<std::vector<T>> gdpp(static_cast<std::size_t>(L), std::vector<T>(tasks.size()));
  T cos_sum(0);
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    const auto W = gdpp_preconditioned_iterates(tasks[t].X, tasks[t].Y, eta_l, gamma_l);
    for (int l = 0; l < L; ++l) gdpp[l][t] = matmul(W[l + 1], tasks[t].xq)(0, 0);
    cos_sum += cosine(tf.sensitivity[t], Vec<T>(W.back().row(0).transpose()));
  }
  const T eta_gd = best_gd_eta(tasks, L);
  const auto gd = gd_predictions(tasks, eta_gd, L);
  const auto loss_tf = losses_per_layer(tf.pred, tasks), loss_gdpp = losses_per_layer(gdpp, tasks),
             loss_gd = losses_per_layer(gd, tasks);

  // Gated for the tied model only: see THRESHOLDS (von Oswald Sec. 3 on untied stacks).
  add_metric(r, "weights.worst_alignment_distance", worst_align,
             "<=", thresholds::relative_distance, p.tied,
             "max over layers of the relative Frobenius distances of W_K^T W_Q / beta and beta P "
             "W_V from the GD++ "
             "construction [[I,0],[0,0]], [[-gamma I,0],[0,-eta/N]] with the layer's own fitted "
             "(eta, gamma)" +
                 std::string(p.tied ? ""
                                    : "; reported only for an untied stack (von Oswald Sec. 3: the "
                                      "naive scale correction does not align untied layers)"));
  add_metric(r, "predictions.relative_difference_to_gdpp", relative_l2(tf.pred.back(), gdpp.back()),
             "<=", thresholds::relative_distance, true,
             "||y_TF - y_GD++||_2 / ||y_GD++||_2, GD++ with the fitted (eta_l, gamma_l)");
  add_metric(r, "sensitivities.mean_cosine_to_gdpp", cos_sum / T(tasks.size()),
             ">=", thresholds::cosine, true, "mean cos(d y_TF / d x_q, w_L of GD++)");
  add_metric(r, "loss.ratio_to_gdpp", loss_tf.back() / loss_gdpp.back(),
             "<=", thresholds::loss_ratio, true, "L(TF) / L(GD++ with the fitted coefficients)");
  add_metric(r, "loss.ratio_to_gd", loss_tf.back() / loss_gd.back(), "<=", 1.0, false,
             "L(TF) / L(K GD steps, line-searched eta); von Oswald: the trained model beats plain "
             "GD (< 1)");
  r.tables["layers"] = layer_rows;
  r.tables["eta_gd_line_searched"] = to_d(eta_gd);
  r.tables["loss_per_layer"] =
      per_layer_losses({{"trained", loss_tf}, {"gdpp_fitted", loss_gdpp}, {"gd", loss_gd}});
  r.notes.push_back(
      "GD++ convention: P W_V = [[-gamma I, 0], [0, -eta/N]], x <- (I - gamma X X^T) x (no 1/N)");
  (void)w;
}

void compare_zform(const weights_file& w, const learned_parameters<T>& p,
                   const std::vector<fresh_task>& tasks, compare_result& r) {
  const int d = p.d, L = p.layers;
  const trained_outputs tf = evaluate_trained(p, tasks);
  const T eta_gd = best_gd_eta(tasks, L);
  const auto gd = gd_predictions(tasks, eta_gd, L);
  std::vector<std::vector<T>> cg(static_cast<std::size_t>(L), std::vector<T>(tasks.size()));
  std::vector<T> cg_alpha(L, T(0)), cg_gamma(L, T(0));
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    const auto trace = conjugate_gradient(tasks[t].q, L);
    for (int l = 0; l < L; ++l) {
      cg[l][t] = trace.w[l + 1].dot(tasks[t].xq.col(0));
      cg_alpha[l] += trace.alpha[l] / T(tasks.size());
      cg_gamma[l] += trace.gamma[l] / T(tasks.size());
    }
  }
  const auto loss_tf = losses_per_layer(tf.pred, tasks), loss_gd = losses_per_layer(gd, tasks),
             loss_cg = losses_per_layer(cg, tasks);
  r.tables["eta_gd_line_searched"] = to_d(eta_gd);
  r.tables["loss_per_layer"] =
      per_layer_losses({{"trained", loss_tf}, {"gd", loss_gd}, {"cg", loss_cg}});
  add_metric(r, "loss.ratio_to_gd", loss_tf.back() / loss_gd.back(), "<=", 1.0, true,
             "L(TF) / L(L GD steps, line-searched eta) after the last layer: the learned algorithm "
             "must be at least "
             "as good as tuned GD (Ahn Thm 3 / Memformer Figs 1-2)");
  add_metric(r, "loss.ratio_to_cg", loss_tf.back() / loss_cg.back(), "<=", 1.0, false,
             "L(TF) / L(L CG steps, per-task coefficients); reported (shared coefficients cannot "
             "match per-task CG "
             "once CG has converged)");

  if (p.kind == learned_model_kind::ahn_linear || p.kind == learned_model_kind::memformer_lfom) {
    const Mat<T> S12 = spd_sqrt(from_double<T>(w.Sigma));
    nlohmann::json rows = nlohmann::json::array();
    T worst(0);
    std::vector<Mat<T>> A;
    for (int l = 0; l < L; ++l) {
      const Mat<T> M = matmul(matmul(S12, p.at(l, "A")), S12);
      const T dist = dist_to_scaled_identity(M);
      if (!(dist <= worst)) worst = dist;
      nlohmann::json row = {{"layer", l + 1},
                            {"dist_sigma_half_A_sigma_half_to_I", to_d(dist)},
                            {"alpha", to_d(M.trace() / T(d))}};
      if (p.kind == learned_model_kind::memformer_lfom) row["Gamma"] = to_d(p.scalar(l, "Gamma"));
      rows.push_back(row);
      A.push_back(p.at(l, "A"));
    }
    r.tables["layers"] = rows;
    add_metric(r, "weights.worst_dist_to_sigma_inverse", worst, "<=", thresholds::ahn_dist,
               p.kind == learned_model_kind::ahn_linear,
               "max over layers of Dist(Sigma^1/2 A_l Sigma^1/2, I) = ||M - (tr M / d) I||_F / "
               "||M||_F (Memformer "
               "App. D; Ahn Thm 3: A_l -> a_l Sigma^-1)");
    if (p.kind == learned_model_kind::ahn_linear) {
      // Lemma 1 read exactly: the trained transformer IS preconditioned GD with P_l = A_l.
      T worst_rel(0);
      for (std::size_t t = 0; t < tasks.size(); ++t) {
        const auto Wp =
            preconditioned_gd_iterates(Mat<T>(Mat<T>::Zero(1, d)), tasks[t].X, tasks[t].Y, A);
        const T ref = matmul(Wp.back(), tasks[t].xq)(0, 0);
        using boost::multiprecision::abs;
        const T rel = abs(tf.pred.back()[t] - ref) / (abs(ref) + abs(tasks[t].yq));
        if (!(rel <= worst_rel)) worst_rel = rel;
      }
      r.tables["lemma1_worst_relative_difference"] = to_d(worst_rel);
      r.tables["lemma1_worst_relative_difference_log2"] = log2_abs(worst_rel);
      r.notes.push_back(
          "lemma1_worst_relative_difference: trained Z-form forward vs preconditioned GD with the "
          "learned A_l (Ahn Lemma 1), max over tasks of |diff| / (|ref| + |y_q|); rounding level "
          "at "
          "the working precision");
    }
  }
  if (p.kind == learned_model_kind::memformer_cgd) {
    nlohmann::json rows = nlohmann::json::array();
    for (int l = 0; l < L; ++l)
      rows.push_back({{"layer", l + 1},
                      {"alpha_learned", to_d(p.scalar(l, "alpha"))},
                      {"gamma_learned", to_d(p.scalar(l, "gamma"))},
                      {"alpha_cg_mean", to_d(cg_alpha[l])},
                      {"gamma_cg_mean", to_d(cg_gamma[l])}});
    r.tables["layers"] = rows;
  }
}

}  // namespace

compare_result compare_weights(const weights_file& w, const compare_options& o) {
  if (o.tasks < 1 || o.tasks > 1000000)
    throw std::invalid_argument("compare: --tasks must be in [1, 1000000]");
  const scoped_mpfr_precision precision(o.precision_bits);
  compare_result r;
  r.path = w.source;
  r.experiment = w.experiment;
  r.preset = w.preset;
  r.precision_bits = precision.setting().actual_bits;
  r.tasks = o.tasks;
  r.seed = o.seed;
  const learned_parameters<T> p = to_scalar<T>(w);
  const std::vector<fresh_task> tasks = draw_tasks(w, o);
  if (w.experiment == "vonoswald_single_lsa")
    compare_single_layer(w, p, tasks, r);
  else if (w.kind == learned_model_kind::lsa)
    compare_lsa_gdpp(w, p, tasks, r);
  else
    compare_zform(w, p, tasks, r);
  r.passed = true;
  for (const auto& m : r.metrics)
    if (m.gated && !m.passed) r.passed = false;
  return r;
}

compare_result compare_weights_file(const std::string& path, const compare_options& o) {
  return compare_weights(read_weights_file(path), o);
}

nlohmann::json to_json(const compare_result& r) {
  nlohmann::json metrics = nlohmann::json::array();
  for (const auto& m : r.metrics)
    metrics.push_back(
        {{"name", m.name},
         {"value", std::isfinite(m.value) ? nlohmann::json(m.value) : nlohmann::json(nullptr)},
         {"relation", m.relation},
         {"threshold", m.threshold},
         {"gated", m.gated},
         {"passed", m.passed},
         {"meaning", m.meaning}});
  return {{"weights", r.path},  {"experiment", r.experiment},
          {"preset", r.preset}, {"precision_bits", r.precision_bits},
          {"tasks", r.tasks},   {"seed", r.seed},
          {"metrics", metrics}, {"tables", r.tables},
          {"notes", r.notes},   {"verdict", r.passed ? "pass" : "fail"}};
}

int run_compare_command(const std::string& path, const compare_options& options,
                        const std::string& json_path) {
  const compare_result r = compare_weights_file(path, options);
  fmt::print("iclproof compare: {} ({} preset), {} fresh tasks, seed {}, MPFR {} bits\n",
             r.experiment, r.preset, r.tasks, r.seed, r.precision_bits);
  fmt::print("{:<42} {:>13} {:>4} {:>9}  {}\n", "metric", "value", "", "threshold", "verdict");
  for (const auto& m : r.metrics)
    fmt::print("{:<42} {:>13.6g} {:>4} {:>9.4g}  {}\n", m.name, m.value, m.relation, m.threshold,
               !m.gated ? (m.passed ? "(info) ok" : "(info) no") : (m.passed ? "pass" : "FAIL"));
  for (const auto& [key, value] : r.tables.items()) fmt::print("  {}: {}\n", key, value.dump());
  for (const auto& n : r.notes) fmt::print("  note: {}\n", n);
  fmt::print("verdict: {}\n", r.passed ? "PASS (trained weights match the construction)" : "FAIL");
  if (!json_path.empty()) {
    std::ofstream out(json_path);
    if (!out) throw std::runtime_error(fmt::format("cannot write {}", json_path));
    out << to_json(r).dump(2) << "\n";
    if (!out) throw std::runtime_error(fmt::format("write to {} failed", json_path));
  }
  return r.passed ? 0 : 1;
}

}  // namespace iclproof
