#include "compare/reference_optima.hpp"
#include "compare/task_progress.hpp"

#include "compare/compare_metrics.hpp"
#include "references/population_optima.hpp"

#include <fmt/format.h>

namespace iclproof::compare_detail {

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
  task_phase phase("calibration of the GD step eta*",
                   static_cast<std::size_t>(o.calibration_tasks));
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
    phase.advance();
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
    task_phase phase("drawing the GD++ tuning sample", static_cast<std::size_t>(n));
    for (int t = 0; t < n; ++t) {
      const fresh_task k = source.next();
      sample.push_back({k.X.cast<double>(), k.Y.cast<double>(), k.xq.cast<double>(), to_d(k.yq)});
      phase.advance();
    }
    return sample;
  };
  const std::vector<gdpp_tuning_task> sample = draw(0x6764'7070'7475'6e65ULL),
                                      holdout = draw(0x6764'7070'6865'6c64ULL);
  const double eta0 = to_d(eta_gd);
  return {tune_gdpp(sample, L, tied, {{eta0, 0.0}}, holdout), n};
}

std::optional<one_layer_optimum> one_layer_exact_optimum(const weights_file& w,
                                                         learned_model_kind kind,
                                                         const gd_step_fit& gd_fit) {
  if (w.layers != 1 || kind == learned_model_kind::lsa || !gd_fit.population_loss)
    return std::nullopt;
  const Mat<T> I = Mat<T>::Identity(w.d, w.d);
  if (kind == learned_model_kind::memformer_cgd || w.inputs == "uniform")
    return one_layer_optimum{Mat<T>(gd_fit.eta * I), *gd_fit.population_loss,
                             "A* = eta* I, eta* the exact population-optimal GD step"};
  const Mat<T> Sigma = input_covariance(w);
  const preconditioner_optimum<T> opt =
      one_step_optimal_preconditioner<T>(Sigma, inverse(Sigma), w.N);
  return one_layer_optimum{opt.P, T(opt.loss / T(2)),
                           "A* = (N/(N+d+1)) Sigma^-1, the exact population optimum for "
                           "w ~ N(0, Sigma^-1)"};
}

}  // namespace iclproof::compare_detail
