#include "compare/compare.hpp"

#include "compare/compare_forward.hpp"
#include "compare/gdpp_tuning.hpp"
#include "compare/learned_models.hpp"
#include "core/precision.hpp"
#include "lsa/vonoswald_weights.hpp"
#include "references/population_optima.hpp"
#include "references/references.hpp"
#include "tasks/regression_task.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
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
// against GD++ whose per-layer coefficients are TUNED ("a different GD learning rate as well as
// gamma per step (layer) need to be tuned to match the Transformer performance"; all gated, same
// thresholds; compare_lsa_gdpp). Against GD++ with the coefficients read off the weights these
// three are reported only for an untied stack.
//
// Multi-layer LSA models (tied and untied) against K plain GD steps with the line-searched eta:
// von Oswald et al. Sec. 3, "When optimizing such Transformers with K layers, we observe that
// these models generally outperform K steps of plain gradient descent, see Figure 3", and for
// the recurrent model "we find that the trained model surpasses plain gradient descent". The
// loss ratio must therefore be <= 1 (gated since issue 17 item 5; measured 0.71 (gdpp) and 0.68
// (stack) on the CI presets, 0.71 and 0.61 on the paper presets, src/trainer/README.md).
constexpr double beats_plain_gd = 1.0;
}  // namespace thresholds

namespace {

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

std::vector<fresh_task> draw_tasks(const weights_file& w, const compare_options& o) {
  task_source source(w, o.seed);
  std::vector<fresh_task> tasks;
  tasks.reserve(static_cast<std::size_t>(o.tasks));
  for (int t = 0; t < o.tasks; ++t) tasks.push_back(source.next());
  return tasks;
}

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

// The same products of a construction of lsa/vonoswald_weights.hpp (one head, o = 1): the
// reference a trained layer is compared with, built by the construction the properties check.
struct construction_products {
  Mat<T> KQ, PV;
};
construction_products lsa_construction_products(const lsa_layer<T>& layer) {
  const lsa_head<T>& h = layer.heads.at(0);
  return {matmul_tn(h.W_K, h.W_Q), matmul(h.P, h.W_V)};
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

// The GD reference step eta*: the minimiser of the mean loss after K GD steps, estimated on a
// calibration sample of its own (options.calibration_tasks, default 100000, a seed stream
// disjoint from the validation tasks). Fitted on the validation tasks themselves, eta* moved by
// ~2-4% between seeds at 1000 tasks, as much as the 5% thresholds it feeds (PV distance,
// prediction difference): the verdict then measured the sample, not the weights. The relative
// sampling error of a ratio estimator falls as 1/sqrt(n); it is reported (delta method).
// Measured on the checked-in CI weights (tests/report/vonoswald_single_lsa_ci.json, learned
// eta 1.515): eta* = 1.489 from the 1000 validation tasks of seed 20261122 (PV distance 0.020);
// 1.515-1.521 from 100000 calibration tasks of seeds 1-3, relative standard error 0.35% (PV
// distance 0.008-0.009).
//
// The prediction after K steps is a polynomial in eta, p(eta) = sum_{j=1..K} (c_j^T x_q) eta^j
// (gd_iterate_polynomial), so the mean loss (1/2n) sum (p(eta) - y_q)^2 is one polynomial of
// degree 2K accumulated task by task, exactly, in O(K^2 d^2) per task. K = 1: it is quadratic
// and eta* = sum a y / sum a^2 (a = x_q^T b). K > 1: a grid on (0, 4 / mean lambda_bar]
// (lambda_bar = tr H / d; GD diverges beyond 2 / lambda_max) locates the basin, then 60
// golden-section steps on the polynomial refine it (the bracket shrinks by 0.618^60 ~ 3e-13).
struct gd_step_fit {
  T eta;
  T relative_standard_error;  // of eta* over the calibration sample (sampled, K = 1 only; else 0)
  int tasks;                  // calibration tasks; 0 for the exact optimum
  std::string method;         // "exact population optimum" or "line-searched on n calibration ..."
  std::optional<T> population_loss;  // exact only: E (1/2)(y_hat - y_q)^2 at eta*
};

// The exact population optimum of ONE GD step (K = 1) wherever the data model has one
// (references/population_optima.hpp, derivations there): x ~ U(-1, 1)^d ("uniform") or
// N(0, I) ("gaussian") with w ~ N(0, I): eta* = N s2 / (m4 + (N + d - 2) s2^2); x ~ N(0, Sigma)
// with w ~ N(0, Sigma^-1) ("anisotropic", task_source above): eta* = N tr Sigma /
// ((N + d + 1) tr Sigma^2). The population loss is halved to match half_mean_square. K > 1 (a
// degree-2K polynomial in eta whose coefficients need higher moments) has no closed form here:
// std::nullopt, and the caller line-searches on a calibration sample.
std::optional<gd_step_fit> exact_gd_eta(const weights_file& w, int K) {
  if (K != 1) return std::nullopt;
  step_size_quadratic<T> q;
  if (w.inputs == "uniform")
    q = one_step_gd_isotropic<T>(w.d, w.N, uniform_coordinate_moments<T>(T(1)));
  else if (w.inputs == "gaussian")
    q = one_step_gd_isotropic<T>(w.d, w.N, gaussian_coordinate_moments<T>(T(1)));
  else if (w.inputs == "anisotropic") {
    const Mat<T> Sigma = from_double<T>(w.Sigma);
    q = one_step_gd_gaussian<T>(Sigma, inverse(Sigma), w.N);
  } else
    return std::nullopt;
  return gd_step_fit{q.minimiser(), T(0), 0, "exact population optimum", T(q.minimum() / T(2))};
}

// The data model of a weights file, the step count and the options that fix a sample drawn from
// it: the key under which a sweep or a trajectory (many files of one experiment, one data model)
// computes a calibration or a tuning once instead of once per file. Sigma's entries are written
// exactly (%a).
std::string sample_key(const weights_file& w, const compare_options& o, int K,
                       const std::string& what) {
  std::string key = fmt::format("{} {} d={} N={} K={} seed={} n={} bits={} Sigma=", what, w.inputs,
                                w.d, w.N, K, o.seed, o.calibration_tasks, o.precision_bits);
  for (Eigen::Index i = 0; i < w.Sigma.size(); ++i) key += fmt::format("{:a},", w.Sigma.data()[i]);
  return key;
}

// Memoised f(): each key computed once per process (guarded: compare may run on threads).
template <class V, class F>
V memoised(std::map<std::string, V>& memo, const std::string& key, F f) {
  static std::mutex m;
  {
    const std::lock_guard<std::mutex> lock(m);
    if (const auto it = memo.find(key); it != memo.end()) return it->second;
  }
  V v = f();
  const std::lock_guard<std::mutex> lock(m);
  return memo.emplace(key, std::move(v)).first->second;
}

gd_step_fit calibrate_gd_eta_uncached(const weights_file& w, const compare_options& o, int K);

// A sweep or trajectory of one experiment shares one calibration (it depends on the data model,
// K and the options, never on the weights): computed once, not once per file.
gd_step_fit calibrate_gd_eta(const weights_file& w, const compare_options& o, int K) {
  static std::map<std::string, gd_step_fit> memo;
  return memoised(memo, sample_key(w, o, K, "calibration"),
                  [&] { return calibrate_gd_eta_uncached(w, o, K); });
}

gd_step_fit calibrate_gd_eta_uncached(const weights_file& w, const compare_options& o, int K) {
  // A fixed constant ("calibrat" in ASCII) keeps this stream apart from the validation seed's.
  task_source source(w, o.seed ^ 0x6361'6c69'6272'6174ULL);
  std::vector<T> loss(static_cast<std::size_t>(2 * K + 1), T(0));  // sum over tasks, by power
  T mean_trace(0);
  std::vector<T> a_values, y_values;  // K = 1 only: for the standard error of eta*
  for (int t = 0; t < o.calibration_tasks; ++t) {
    const fresh_task k = source.next();
    const std::vector<Vec<T>> c = gd_iterate_polynomial(k.q, K);
    std::vector<T> r(static_cast<std::size_t>(K + 1));  // residual p(eta) - y_q by power
    r[0] = -k.yq;
    for (int j = 1; j <= K; ++j) r[static_cast<std::size_t>(j)] = c[j - 1].dot(k.xq.col(0));
    for (int i = 0; i <= K; ++i)
      for (int j = 0; j <= K; ++j)
        loss[static_cast<std::size_t>(i + j)] +=
            r[static_cast<std::size_t>(i)] * r[static_cast<std::size_t>(j)];
    mean_trace += k.q.H.trace() / T(k.q.H.rows());
    if (K == 1) {
      a_values.push_back(r[1]);
      y_values.push_back(k.yq);
    }
  }
  const T n = T(o.calibration_tasks);
  mean_trace /= n;
  if (K == 1) {
    // sum (a eta - y)^2 = loss[2] eta^2 + loss[1] eta + loss[0], loss[1] = -2 sum a y.
    const T eta = -loss[1] / (T(2) * loss[2]);
    // Delta method for a ratio of means: var(eta*) ~ sum (a y - eta a^2)^2 / (sum a^2)^2.
    T v(0);
    for (std::size_t i = 0; i < a_values.size(); ++i) {
      const T e = a_values[i] * y_values[i] - eta * a_values[i] * a_values[i];
      v += e * e;
    }
    return {eta,
            T(sqrt(v) / loss[2] / abs_of(eta)),
            o.calibration_tasks,
            fmt::format("line-searched on {} calibration tasks", o.calibration_tasks),
            {}};
  }
  auto summed_loss = [&](const T& eta) {  // Horner
    T s(0);
    for (std::size_t i = loss.size(); i-- > 0;) s = s * eta + loss[i];
    return s;
  };
  const T hi = T(4) / mean_trace;
  const int grid = 40;
  int best = 1;
  T best_loss = summed_loss(hi / T(grid));
  for (int i = 2; i <= grid; ++i) {
    const T l = summed_loss(hi * T(i) / T(grid));
    if (l < best_loss) {
      best_loss = l;
      best = i;
    }
  }
  T a = hi * T(best - 1) / T(grid), b = hi * T(best + 1) / T(grid);
  const T g = (sqrt(T(5)) - T(1)) / T(2);
  T c = b - g * (b - a), e = a + g * (b - a), fc = summed_loss(c), fe = summed_loss(e);
  for (int i = 0; i < 60; ++i) {
    if (fc < fe) {
      b = e;
      e = c;
      fe = fc;
      c = b - g * (b - a);
      fc = summed_loss(c);
    } else {
      a = c;
      c = e;
      fc = fe;
      e = a + g * (b - a);
      fe = summed_loss(e);
    }
  }
  return {T((a + b) / T(2)),
          T(0),
          o.calibration_tasks,
          fmt::format("line-searched on {} calibration tasks", o.calibration_tasks),
          {}};
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
                                 const compare_forward_pass& forward) {
  trained_outputs o;
  o.pred.assign(static_cast<std::size_t>(p.layers), std::vector<T>(tasks.size()));
  const int d = p.d;
  Mat<T> Xq = Mat<T>::Zero(d, d + 2);
  for (int k = 0; k < d; ++k) Xq(k, 2 + k) = T(1);
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    Xq.col(0) = tasks[t].xq.col(0);
    const auto out = forward(p, tasks[t].X, tasks[t].Y, Xq);
    if (out.size() != static_cast<std::size_t>(p.layers) || out.back().size() != Xq.cols())
      throw std::logic_error("compare: the forward pass returned the wrong number of predictions");
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

// worst = max(worst, v) where a NaN, once seen, stays: a NaN value (e.g. Dist of a collapsed,
// all-zero layer, 0/0) must fail the metric. The previous `if (!(v <= worst)) worst = v` let a
// later finite layer overwrite the NaN, so a model with a collapsed middle layer passed
// (tests/unit/compare_gated_metrics_test.cpp, "ahn_collapsed_layer").
void keep_worst(T& worst, const T& v) {
  if (isnan(worst)) return;
  if (!(v <= worst)) worst = v;
}

// Memformer App. D: Dist(M, I) = ||M - alpha I||_F / ||M||_F with alpha = tr(M) / d.
T dist_to_scaled_identity(const Mat<T>& M) {
  const T alpha = M.trace() / T(M.rows());
  return sqrt((M - alpha * Mat<T>::Identity(M.rows(), M.cols())).squaredNorm() / M.squaredNorm());
}

void compare_single_layer(const weights_file& w, const learned_parameters<T>& p,
                          const std::vector<fresh_task>& tasks, const gd_step_fit& gd_fit,
                          compare_result& r, const compare_forward_pass& forward) {
  const int d = p.d;
  const T eta = gd_fit.eta;
  const trained_outputs tf = evaluate_trained(p, tasks, forward);
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
  // Prop. 1 with W0 = 0: W_K^T W_Q = [[I, 0], [0, 0]], P W_V = [[0, 0], [0, -eta/N]].
  const auto [KQ_star, PV_star] =
      lsa_construction_products(prop1_weights<T>(d, 1, p.N, eta, Mat<T>::Zero(1, d)));
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
             "||(beta P W_V)[d, :] - [0, -eta*/N]||_2 / (eta*/N), eta* of gd_step_reference "
             "(Prop 1; identifiable row)");
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
  r.tables["loss_ratio_standard_errors"] = {
      {"ratio_to_gd", to_d(loss_ratio_standard_error(tf.pred[0], gd, tasks))}};
  add_matrix_pair(r, "W_K^T W_Q / beta", n.KQ, "construction (Prop. 1)", KQ_star);
  add_matrix_pair(r, "beta P W_V", n.PV, "construction (Prop. 1, eta*)", PV_star);
  const T eta_learned = -T(p.N) * n.PV(d, d);
  r.tables["eta_reference"] = to_d(eta);
  r.tables["eta_learned"] = to_d(eta_learned);
  r.tables["eta_learned_relative_difference"] = to_d(abs_of(T(eta_learned - eta)) / abs_of(eta));
  r.tables["beta"] = to_d(n.beta);
  r.tables["loss"] = {{"trained", to_d(loss_tf)}, {"gd", to_d(loss_gd)}};
  if (gd_fit.population_loss)
    r.tables["loss"]["gd_population_exact"] = to_d(*gd_fit.population_loss);
  r.notes.push_back(
      "scale correction (von Oswald A.3): beta = mean of the first d diagonal entries of W_K^T "
      "W_Q; "
      "compared: W_K^T W_Q / beta and beta P W_V, nothing else normalised");
  (void)w;
}

// GD++ with (eta_l, gamma_l) tuned on a sample of its own (compare/gdpp_tuning.hpp): the
// reference of von Oswald et al. Sec. 3 for deep untied stacks, and the one reference of the GD++
// metrics that does not come from the weights. The sample: min(calibration_tasks, 4000) tasks
// of a seed stream disjoint from the validation and the calibration streams, in double, and a
// holdout sample of as many from another stream, whose loss is reported beside the fitting loss.
// One start, from data only (nothing from the weights): plain GD, every layer at the
// line-searched K-step GD eta with gamma = 0, so the minimum is the one continued from plain GD.
// A second start with gamma = 1/(4 mean tr(X X^T)/d) was tried and dropped: on the stack's data
// it reached a minimum that fits the sample better and blows up on rarer tasks (sample loss
// 0.172, 0.69 on 20000 other tasks, 1.79 on 100000; gdpp_tuning.hpp), and a holdout of 4000
// tasks did not see it (0.168). Compare's stack verdicts against that minimum read loss ratios
// of 0.002 and prediction differences of ~1 (tests/unit/compare_gdpp_tuning_test.cpp).
struct tuned_gdpp {
  gdpp_tuning_result fit;
  int sample_tasks;
};
tuned_gdpp tune_gdpp_reference_uncached(const weights_file& w, const compare_options& o, int L,
                                        bool tied, const T& eta_gd);
// Computed once per data model, depth and options (a sweep's files share it; eta_gd is itself a
// function of the same key).
tuned_gdpp tune_gdpp_reference(const weights_file& w, const compare_options& o, int L, bool tied,
                               const T& eta_gd) {
  static std::map<std::string, tuned_gdpp> memo;
  return memoised(memo, sample_key(w, o, L, tied ? "gdpp tuned tied" : "gdpp tuned untied"),
                  [&] { return tune_gdpp_reference_uncached(w, o, L, tied, eta_gd); });
}
tuned_gdpp tune_gdpp_reference_uncached(const weights_file& w, const compare_options& o, int L,
                                        bool tied, const T& eta_gd) {
  // "gdpptune" and "gdppheld" in ASCII: the fitting and holdout streams.
  const int n = std::min(o.calibration_tasks, 4000);
  auto draw = [&](std::uint64_t stream) {
    task_source source(w, o.seed ^ stream);
    std::vector<gdpp_tuning_task> sample;
    sample.reserve(static_cast<std::size_t>(n));
    for (int t = 0; t < n; ++t) {
      const fresh_task k = source.next();
      sample.push_back({k.X.cast<double>(), k.Y.cast<double>(), k.xq.cast<double>(), to_d(k.yq)});
    }
    return sample;
  };
  const std::vector<gdpp_tuning_task> sample = draw(0x6764'7070'7475'6e65ULL),
                                      holdout = draw(0x6764'7070'6865'6c64ULL);
  const double eta0 = to_d(eta_gd);
  return {tune_gdpp(sample, L, tied, {{eta0, 0.0}}, holdout), n};
}

void compare_lsa_gdpp(const weights_file& w, const learned_parameters<T>& p,
                      const std::vector<fresh_task>& tasks, const gd_step_fit& gd_fit,
                      const compare_options& o, compare_result& r,
                      const compare_forward_pass& forward) {
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
    // GD++ with W0 = 0: W_K^T W_Q = [[I, 0], [0, 0]], P W_V = [[-gamma I, 0], [0, -eta/N]].
    const auto [KQ_star, PV_star] =
        lsa_construction_products(gdpp_weights<T>(d, 1, p.N, gamma, eta, Mat<T>::Zero(1, d)));
    // The last layer of an untied stack: its x-row updates are never read, so the first d rows of
    // its P W_V get zero gradient; they are left out (as in the single-layer comparison).
    const bool last_untied = !p.tied && s == L - 1 && L > 1;
    const T dKQ = relative_frobenius(n.KQ, KQ_star);
    const T dPV =
        last_untied ? relative_frobenius(Mat<T>(n.PV.bottomRows(1)), Mat<T>(PV_star.bottomRows(1)))
                    : relative_frobenius(n.PV, PV_star);
    keep_worst(worst_align, dKQ);
    keep_worst(worst_align, dPV);
    const std::string set_name = p.tied ? "tied layers" : fmt::format("layer {}", s + 1);
    add_matrix_pair(r, set_name + ": W_K^T W_Q / beta", n.KQ, "GD++ construction", KQ_star);
    add_matrix_pair(r, set_name + ": beta P W_V", n.PV, "GD++ construction (fitted eta, gamma)",
                    PV_star);
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
  const trained_outputs tf = evaluate_trained(p, tasks, forward);
  std::vector<std::vector<T>> gdpp(static_cast<std::size_t>(L), std::vector<T>(tasks.size()));
  T cos_sum(0);
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    const auto W = gdpp_preconditioned_iterates(tasks[t].X, tasks[t].Y, eta_l, gamma_l);
    for (int l = 0; l < L; ++l) gdpp[l][t] = matmul(W[l + 1], tasks[t].xq)(0, 0);
    cos_sum += cosine(tf.sensitivity[t], Vec<T>(W.back().row(0).transpose()));
  }
  const T eta_gd = gd_fit.eta;
  const auto gd = gd_predictions(tasks, eta_gd, L);
  // GD++ with tuned coefficients (tune_gdpp_reference), evaluated at the working precision.
  const tuned_gdpp tuned = tune_gdpp_reference(w, o, L, p.tied, eta_gd);
  std::vector<T> eta_tuned, gamma_tuned;
  for (int l = 0; l < L; ++l) {
    eta_tuned.emplace_back(tuned.fit.eta[static_cast<std::size_t>(l)]);
    gamma_tuned.emplace_back(tuned.fit.gamma[static_cast<std::size_t>(l)]);
  }
  std::vector<std::vector<T>> gdpp_tuned(static_cast<std::size_t>(L), std::vector<T>(tasks.size()));
  T cos_tuned_sum(0);
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    const auto W = gdpp_preconditioned_iterates(tasks[t].X, tasks[t].Y, eta_tuned, gamma_tuned);
    for (int l = 0; l < L; ++l) gdpp_tuned[l][t] = matmul(W[l + 1], tasks[t].xq)(0, 0);
    cos_tuned_sum += cosine(tf.sensitivity[t], Vec<T>(W.back().row(0).transpose()));
  }
  r.tables["loss_ratio_standard_errors"] = {
      {"ratio_to_gdpp", to_d(loss_ratio_standard_error(tf.pred.back(), gdpp.back(), tasks))},
      {"ratio_to_gdpp_tuned",
       to_d(loss_ratio_standard_error(tf.pred.back(), gdpp_tuned.back(), tasks))},
      {"ratio_to_gd", to_d(loss_ratio_standard_error(tf.pred.back(), gd.back(), tasks))}};
  const auto loss_tf = losses_per_layer(tf.pred, tasks), loss_gdpp = losses_per_layer(gdpp, tasks),
             loss_gd = losses_per_layer(gd, tasks),
             loss_gdpp_tuned = losses_per_layer(gdpp_tuned, tasks);

  // Against GD++ with the coefficients read off the weights: gated for the recurrent (tied)
  // model, whose weights von Oswald et al. show realigning with GD++ and interpolating with the
  // construction (Sec. 3, Fig. 3); reported only for an untied stack, where the paper says the
  // weight correction does not work ("the naive correction necessary for model interpolation
  // used in the aforementioned experiments is not enough to interpolate without a loss
  // increase") and matches it with TUNED per-layer coefficients instead (below).
  add_metric(r, "weights.worst_alignment_distance", worst_align,
             "<=", thresholds::relative_distance, p.tied,
             "max over layers of the relative Frobenius distances of W_K^T W_Q / beta and beta P "
             "W_V from the GD++ "
             "construction [[I,0],[0,0]], [[-gamma I,0],[0,-eta/N]] with the layer's own fitted "
             "(eta, gamma)" +
                 std::string(p.tied ? ""
                                    : "; reported only for an untied stack (von Oswald Sec. 3: the "
                                      "naive scale correction does not align untied layers)"));
  const std::string untied_note =
      p.tied ? "" : "; reported only for an untied stack (von Oswald Sec. 3)";
  add_metric(r, "predictions.relative_difference_to_gdpp", relative_l2(tf.pred.back(), gdpp.back()),
             "<=", thresholds::relative_distance, p.tied,
             "||y_TF - y_GD++||_2 / ||y_GD++||_2, GD++ with the (eta_l, gamma_l) read off the "
             "weights" +
                 untied_note);
  add_metric(r, "sensitivities.mean_cosine_to_gdpp", cos_sum / T(tasks.size()),
             ">=", thresholds::cosine, p.tied,
             "mean cos(d y_TF / d x_q, w_L of GD++ read off the weights)" + untied_note);
  add_metric(r, "loss.ratio_to_gdpp", loss_tf.back() / loss_gdpp.back(),
             "<=", thresholds::loss_ratio, p.tied,
             "L(TF) / L(GD++ with the coefficients read off the weights)" + untied_note);
  // Against GD++ with TUNED coefficients (von Oswald Sec. 3: "a different GD learning rate as
  // well as gamma per step (layer) need to be tuned to match the Transformer performance. This
  // slight modification leads again to almost perfect alignment between the trained TF and GD++";
  // for the recurrent model "we tune a single parameter gamma"): gated for both, same thresholds
  // as the single layer. Not from the weights, so it also sees a model that is GD++ with wrong
  // coefficients (a wrong scale that still beats plain GD).
  add_metric(r, "predictions.relative_difference_to_gdpp_tuned",
             relative_l2(tf.pred.back(), gdpp_tuned.back()), "<=", thresholds::relative_distance,
             true,
             "||y_TF - y_GD++||_2 / ||y_GD++||_2, GD++ with (eta_l, gamma_l) tuned on a sample "
             "of its own (tables.gdpp_tuned)");
  add_metric(r, "sensitivities.mean_cosine_to_gdpp_tuned", cos_tuned_sum / T(tasks.size()),
             ">=", thresholds::cosine, true, "mean cos(d y_TF / d x_q, w_L of tuned GD++)");
  add_metric(r, "loss.ratio_to_gdpp_tuned", loss_tf.back() / loss_gdpp_tuned.back(),
             "<=", thresholds::loss_ratio, true, "L(TF) / L(GD++ with tuned coefficients)");
  // Gated (issue 17 item 5): the GD++ read off the weights is that model's own coefficients, so
  // a model wrong by a sign or a scale of its step, or with a collapsed layer, passes the three
  // weight-read metrics; the references not from the weights (plain GD here, tuned GD++ above)
  // catch it. von Oswald et al. claim this one (thresholds::beats_plain_gd);
  // tests/unit/compare_gated_metrics_test.cpp shows each of those models failing a gated metric.
  add_metric(r, "loss.ratio_to_gd", loss_tf.back() / loss_gd.back(),
             "<=", thresholds::beats_plain_gd, true,
             "L(TF) / L(K GD steps, line-searched eta) <= 1: von Oswald Sec. 3, trained K-layer "
             "LSA models \"generally outperform K steps of plain gradient descent\" (Fig. 3)");
  r.tables["layers"] = layer_rows;
  r.tables["eta_gd_line_searched"] = to_d(eta_gd);
  r.tables["loss_per_layer"] = per_layer_losses({{"trained", loss_tf},
                                                 {"gdpp_fitted", loss_gdpp},
                                                 {"gdpp_tuned", loss_gdpp_tuned},
                                                 {"gd", loss_gd}});
  r.tables["gdpp_tuned"] = {
      {"eta", tuned.fit.eta},
      {"gamma", tuned.fit.gamma},
      {"sample_tasks", tuned.sample_tasks},
      {"sample_loss", tuned.fit.loss},
      {"loss_from_each_start", tuned.fit.start_losses},
      {"holdout_loss_from_each_start", tuned.fit.holdout_losses},
      {"holdout_loss", tuned.fit.holdout_loss},
      {"evaluations", tuned.fit.evaluations},
      {"method",
       fmt::format("Levenberg-Marquardt on {} tasks of a stream of its own, in double, from "
                   "plain GD, (eta*_GD, gamma = 0) in every layer; holdout loss on {} other "
                   "tasks; {}",
                   tuned.sample_tasks, tuned.sample_tasks,
                   p.tied ? "one (eta, gamma) for all layers" : "one (eta_l, gamma_l) per layer")}};
  r.notes.push_back(
      "GD++ convention: P W_V = [[-gamma I, 0], [0, -eta/N]], x <- (I - gamma X X^T) x (no 1/N)");
  (void)w;
}

void compare_zform(const weights_file& w, const learned_parameters<T>& p,
                   const std::vector<fresh_task>& tasks, const gd_step_fit& gd_fit,
                   compare_result& r, const compare_forward_pass& forward) {
  const int d = p.d, L = p.layers;
  const trained_outputs tf = evaluate_trained(p, tasks, forward);
  const T eta_gd = gd_fit.eta;
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
  r.tables["loss_ratio_standard_errors"] = {
      {"ratio_to_gd", to_d(loss_ratio_standard_error(tf.pred.back(), gd.back(), tasks))},
      {"ratio_to_cg", to_d(loss_ratio_standard_error(tf.pred.back(), cg.back(), tasks))}};
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
  // Noiseless labels and L >= rank(H) = d layers: CG is exact, its loss is rounding (the paper
  // presets have L = 5 = d), and the ratio measures the working precision, not the model.
  if (L >= d && loss_cg.back() <= sqrt(eps<T>()) * loss_gd.back())
    r.notes.push_back(fmt::format(
        "loss.ratio_to_cg: CG has solved every task exactly after L = {} >= d = {} layers (its "
        "loss {:.3g} is rounding at {} bits), so this ratio measures the precision, not the model",
        L, d, to_d(loss_cg.back()), r.precision_bits));

  if (p.kind == learned_model_kind::ahn_linear || p.kind == learned_model_kind::memformer_lfom) {
    const Mat<T> S12 = spd_sqrt(from_double<T>(w.Sigma));
    nlohmann::json rows = nlohmann::json::array();
    T worst(0);
    std::vector<Mat<T>> A;
    for (int l = 0; l < L; ++l) {
      const Mat<T> M = matmul(matmul(S12, p.at(l, "A")), S12);
      const T dist = dist_to_scaled_identity(M);
      // Drawn divided by a_l = tr M / d (Dist is scale-free), beside I (Ahn Thm 3).
      add_matrix_pair(r, fmt::format("layer {}: Sigma^1/2 A_l Sigma^1/2 / a_l", l + 1),
                      Mat<T>(M / (M.trace() / T(d))), "I (A_l = a_l Sigma^-1)",
                      Mat<T>::Identity(d, d));
      keep_worst(worst, dist);
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
    // One layer: the exact optimal preconditioner A* (references/population_optima.hpp; for
    // w ~ N(0, Sigma^-1), A* = (N / (N + d + 1)) Sigma^-1). No scale freedom in the Z-form with
    // A only, so A itself is compared. Reported: no checked-in preset has one layer.
    if (p.kind == learned_model_kind::ahn_linear && L == 1 &&
        (w.inputs == "anisotropic" || w.inputs == "gaussian")) {
      const Mat<T> Sigma =
          w.inputs == "anisotropic" ? from_double<T>(w.Sigma) : Mat<T>(Mat<T>::Identity(d, d));
      const preconditioner_optimum<T> opt =
          one_step_optimal_preconditioner<T>(Sigma, inverse(Sigma), p.N);
      add_metric(r, "weights.A_relative_distance_to_exact_optimum",
                 relative_frobenius(p.at(0, "A"), opt.P), "<=", thresholds::relative_distance,
                 false,
                 "||A - A*||_F / ||A*||_F, A* = (N/(N+d+1)) Sigma^-1 the exact population optimum "
                 "of one layer (w ~ N(0, Sigma^-1)); reported");
      r.tables["A_exact_optimum_population_loss"] = to_d(T(opt.loss / T(2)));
    }
    if (p.kind == learned_model_kind::ahn_linear) {
      // Lemma 1 read exactly: the trained transformer IS preconditioned GD with P_l = A_l.
      T worst_rel(0);
      for (std::size_t t = 0; t < tasks.size(); ++t) {
        const auto Wp =
            preconditioned_gd_iterates(Mat<T>(Mat<T>::Zero(1, d)), tasks[t].X, tasks[t].Y, A);
        const T ref = matmul(Wp.back(), tasks[t].xq)(0, 0);
        using boost::multiprecision::abs;
        const T rel = abs(tf.pred.back()[t] - ref) / (abs(ref) + abs(tasks[t].yq));
        keep_worst(worst_rel, rel);
      }
      r.tables["lemma1_worst_relative_difference"] = to_d(worst_rel);
      r.tables["lemma1_worst_relative_difference_log2"] = log2_abs(worst_rel);
      // Gated (issue 17 item 5): Lemma 1 is an identity of the MASKED model in exact arithmetic
      // (proofs/AhnLemma1.v:ahn_lemma1), so this is the metric that sees a missing mask (the
      // loss ratio need not: without the mask, three A* layers at N = 20 are still about as
      // good as plain GD, tests/unit/compare_gated_metrics_test.cpp). Both sides are 256-bit
      // computations in different orders, measured 2^-249 apart; threshold: the square root of
      // the unit roundoff at the working precision, 2^-(bits/2), far above rounding and far
      // below any difference of models.
      add_metric(r, "forward.lemma1_worst_relative_difference", worst_rel,
                 "<=", std::ldexp(1.0, -r.precision_bits / 2), true,
                 "max over tasks of |y_TF - y_PGD| / (|y_PGD| + |y_q|), y_PGD preconditioned GD "
                 "with the learned A_l (Ahn Lemma 1, an identity of the masked model); threshold "
                 "2^-(bits/2), sqrt of the unit roundoff");
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
  return compare_weights(
      w, o, [](const learned_parameters<T>& p, const Mat<T>& X, const Mat<T>& Y, const Mat<T>& Xq) {
        return learned_predictions(p, X, Y, Xq);
      });
}

compare_result compare_weights(const weights_file& w, const compare_options& o,
                               const compare_forward_pass& forward) {
  if (!forward) throw std::invalid_argument("compare: no forward pass");
  if (o.tasks < 1 || o.tasks > 1000000)
    throw std::invalid_argument("compare: --tasks must be in [1, 1000000]");
  if (o.calibration_tasks < 1 || o.calibration_tasks > 10000000)
    throw std::invalid_argument("compare: --calibration-tasks must be in [1, 10000000]");
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
  const bool single = w.experiment == "vonoswald_single_lsa";
  const int K = single ? 1 : p.layers;
  // The GD reference step: exact wherever the data model has one (one step), else sampled.
  const std::optional<gd_step_fit> exact = exact_gd_eta(w, K);
  const gd_step_fit gd_fit = exact ? *exact : calibrate_gd_eta(w, o, K);
  r.tables["gd_step_reference"] = {{"method", gd_fit.method}, {"eta", to_d(gd_fit.eta)}};
  if (gd_fit.population_loss)
    r.tables["gd_step_reference"]["population_loss"] = to_d(*gd_fit.population_loss);
  if (!exact) r.tables["gd_step_reference"]["tasks"] = gd_fit.tasks;
  if (!exact && K == 1)  // the delta-method error of eta* is computed for the one-step fit only
    r.tables["gd_step_reference"]["eta_relative_standard_error"] =
        to_d(gd_fit.relative_standard_error);
  r.notes.push_back("GD reference step eta* = " + full_digits(gd_fit.eta) + ": " + gd_fit.method);
  if (single)
    compare_single_layer(w, p, tasks, gd_fit, r, forward);
  else if (w.kind == learned_model_kind::lsa)
    compare_lsa_gdpp(w, p, tasks, gd_fit, o, r, forward);
  else
    compare_zform(w, p, tasks, gd_fit, r, forward);
  // A gated loss ratio nearer its threshold than two paired standard errors: the verdict is the
  // sample's rather than the model's, and the output says so (rerun with more --tasks).
  if (r.tables.contains("loss_ratio_standard_errors"))
    for (const auto& [key, se] : r.tables["loss_ratio_standard_errors"].items())
      for (const auto& m : r.metrics)
        if (m.name == "loss." + key && m.gated &&
            !(std::abs(m.value - m.threshold) >= 2 * se.get<double>()))
          r.notes.push_back(fmt::format(
              "{} = {:.4g} lies within two standard errors ({:.2g} each) of its threshold {:.4g}: "
              "not significant at {} tasks; rerun with more --tasks",
              m.name, m.value, se.get<double>(), m.threshold, o.tasks));
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
  return {{"weights", r.path},
          {"experiment", r.experiment},
          {"preset", r.preset},
          {"precision_bits", r.precision_bits},
          {"tasks", r.tasks},
          {"seed", r.seed},
          {"metrics", metrics},
          {"tables", r.tables},
          {"notes", r.notes},
          {"verdict", r.passed ? "pass" : "fail"},
          // Distances of trained weights are empirical quantities (shared/TRUST.md).
          {"trust_level", "measured"}};
}

sweep_summary summarise_sweep(const std::vector<compare_result>& results) {
  if (results.empty()) throw std::invalid_argument("compare: no weights files");
  sweep_summary s;
  s.experiment = results.front().experiment;
  s.files = static_cast<int>(results.size());
  for (const auto& r : results) {
    if (r.experiment != s.experiment)
      throw std::invalid_argument(
          fmt::format("compare: {} is a {} model, {} a {} model: a sweep compares one experiment",
                      r.path, r.experiment, results.front().path, s.experiment));
    if (r.passed) ++s.passed;
  }
  for (const auto& m0 : results.front().metrics) {
    sweep_metric_summary m{m0.name, m0.relation, m0.threshold, m0.gated};
    std::vector<double> values;
    for (const auto& r : results)
      for (const auto& m1 : r.metrics)
        if (m1.name == m0.name) {
          ++m.total;
          if (m1.passed) ++m.passed;
          if (std::isfinite(m1.value)) values.push_back(m1.value);
        }
    m.finite = static_cast<int>(values.size());
    if (!values.empty()) {
      std::sort(values.begin(), values.end());
      const std::size_t n = values.size();
      m.median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
      m.min = values.front();
      m.max = values.back();
    } else {
      m.median = m.min = m.max = std::numeric_limits<double>::quiet_NaN();
    }
    s.metrics.push_back(m);
  }
  return s;
}

nlohmann::json to_json(const sweep_summary& s) {
  auto num = [](double v) {
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
  };
  nlohmann::json metrics = nlohmann::json::array();
  for (const auto& m : s.metrics)
    metrics.push_back({{"name", m.name},
                       {"relation", m.relation},
                       {"threshold", m.threshold},
                       {"gated", m.gated},
                       {"passed", m.passed},
                       {"total", m.total},
                       {"finite", m.finite},
                       {"median", num(m.median)},
                       {"min", num(m.min)},
                       {"max", num(m.max)}});
  return {{"experiment", s.experiment},
          {"files", s.files},
          {"files_passed", s.passed},
          {"metrics", metrics}};
}

int run_compare_sweep_command(const std::vector<std::string>& paths, const compare_options& o,
                              const std::string& json_path) {
  if (paths.empty()) throw std::invalid_argument("compare: no weights files");
  std::vector<weights_file> files;
  for (const auto& p : paths) files.push_back(read_weights_file(p));  // all checked first
  for (const auto& w : files)
    if (w.experiment != files.front().experiment)
      throw std::invalid_argument(
          fmt::format("compare: {} is a {} model, {} a {} model: a sweep compares one experiment",
                      w.source, w.experiment, files.front().source, files.front().experiment));
  if (!json_path.empty()) {  // fail on an unwritable path before the long work
    std::ofstream probe(json_path);
    if (!probe) throw std::runtime_error(fmt::format("cannot write {}", json_path));
  }
  std::vector<compare_result> results;
  for (const auto& w : files) {
    results.push_back(compare_weights(w, o));
    const compare_result& r = results.back();
    std::string failed;
    for (const auto& m : r.metrics)
      if (m.gated && !m.passed) failed += (failed.empty() ? "" : ", ") + m.name;
    fmt::print("{}: {} (seed {}){}\n", r.path, r.passed ? "PASS" : "FAIL", w.seed,
               failed.empty() ? "" : "; failing: " + failed);
  }
  const sweep_summary s = summarise_sweep(results);
  fmt::print("iclproof compare sweep: {}, {} files, {} fresh tasks (seed {}), MPFR {} bits\n",
             s.experiment, s.files, o.tasks, o.seed, results.front().precision_bits);
  fmt::print("{:<48} {:>9} {:>13} {:>13} {:>13} {:>4} {:>9}\n", "metric", "passing", "median",
             "min", "max", "", "threshold");
  for (const auto& m : s.metrics)
    fmt::print("{:<48} {:>4}/{:<4} {:>13.6g} {:>13.6g} {:>13.6g} {:>4} {:>9.4g}{}\n", m.name,
               m.passed, m.total, m.median, m.min, m.max, m.relation, m.threshold,
               m.gated ? "" : "  (info)");
  fmt::print("verdict: {} of {} files pass every gated metric\n", s.passed, s.files);
  if (!json_path.empty()) {
    nlohmann::json j = to_json(s);
    j["comparisons"] = nlohmann::json::array();
    for (const auto& r : results) j["comparisons"].push_back(to_json(r));
    std::ofstream out(json_path);
    if (!out) throw std::runtime_error(fmt::format("cannot write {}", json_path));
    out << j.dump(2) << "\n";
    if (!out) throw std::runtime_error(fmt::format("write to {} failed", json_path));
  }
  return s.passed == s.files ? 0 : 1;
}

int run_compare_command(const std::string& path, const compare_options& options,
                        const std::string& json_path) {
  const compare_result r = compare_weights_file(path, options);
  fmt::print("iclproof compare: {} ({} preset), {} fresh tasks, seed {}, MPFR {} bits\n",
             r.experiment, r.preset, r.tasks, r.seed, r.precision_bits);
  fmt::print("{:<48} {:>13} {:>4} {:>9}  {}\n", "metric", "value", "", "threshold", "verdict");
  for (const auto& m : r.metrics)
    fmt::print("{:<48} {:>13.6g} {:>4} {:>9.4g}  {}\n", m.name, m.value, m.relation, m.threshold,
               !m.gated ? (m.passed ? "(info) ok" : "(info) no") : (m.passed ? "pass" : "FAIL"));
  for (const auto& [key, value] : r.tables.items()) fmt::print("  {}: {}\n", key, value.dump());
  for (const auto& n : r.notes) fmt::print("  note: {}\n", n);
  fmt::print("verdict: {}  [trust level: measured]\n",
             r.passed ? "PASS (trained weights match the construction)" : "FAIL");
  if (!json_path.empty()) {
    std::ofstream out(json_path);
    if (!out) throw std::runtime_error(fmt::format("cannot write {}", json_path));
    out << to_json(r).dump(2) << "\n";
    if (!out) throw std::runtime_error(fmt::format("write to {} failed", json_path));
  }
  return r.passed ? 0 : 1;
}

}  // namespace iclproof
