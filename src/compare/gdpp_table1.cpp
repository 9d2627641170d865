#include "compare/gdpp_table1.hpp"

#include "tasks/regression_task.hpp"

#include <cmath>
#include <stdexcept>

namespace iclproof {

sampled_loss mean_with_standard_error(const std::vector<double>& losses) {
  const auto n = static_cast<long>(losses.size());
  if (n < 2) throw std::invalid_argument("mean_with_standard_error: need at least 2 losses");
  double mean = 0;
  for (double l : losses) mean += l;
  mean /= static_cast<double>(n);
  double ss = 0;
  for (double l : losses) ss += (l - mean) * (l - mean);
  const double sd = std::sqrt(ss / static_cast<double>(n - 1));
  return {mean, sd / std::sqrt(static_cast<double>(n)), n};
}

namespace {
constexpr int table1_d = 10, table1_N = 20;
gdpp_tuning_task draw_table1(data_rng& rng) {
  const Mat<double> X = rng.normal_matrix(table1_d, table1_N);
  const Mat<double> w = rng.normal_matrix(table1_d, 1);
  const Mat<double> xq = rng.normal_matrix(table1_d, 1);
  return {X, Mat<double>(w.transpose() * X), xq, (w.transpose() * xq)(0, 0)};
}
}  // namespace

std::vector<gdpp_tuning_task> table1_sequences(int n, std::uint64_t seed) {
  if (n < 1) throw std::invalid_argument("table1_sequences: n must be >= 1");
  data_rng rng(seed);
  std::vector<gdpp_tuning_task> out;
  out.reserve(static_cast<std::size_t>(n));
  for (int t = 0; t < n; ++t) out.push_back(draw_table1(rng));
  return out;
}

sampled_loss gdpp_fresh_loss(long n, std::uint64_t seed, const std::vector<double>& eta,
                             const std::vector<double>& gamma) {
  if (n < 2) throw std::invalid_argument("gdpp_fresh_loss: need at least 2 sequences");
  data_rng rng(seed);
  std::vector<double> losses;
  losses.reserve(static_cast<std::size_t>(n));
  for (long t = 0; t < n; ++t) {
    const gdpp_tuning_task k = draw_table1(rng);
    const double e = gdpp_prediction(k, eta, gamma) - k.yq;
    losses.push_back(0.5 * e * e);
  }
  return mean_with_standard_error(losses);
}

double table1_paper_gdpp(int layers) {
  static const double column[] = {1.768, 0.341, 0.019, 9.91e-5, 1.14e-7, 2.37e-10, 2.65e-12};
  if (layers < 1 || layers > 7) throw std::invalid_argument("table1_paper_gdpp: layers 1..7");
  return column[layers - 1];
}

std::vector<table1_minimum> table1_minima(const std::vector<gdpp_tuning_task>& tune, int layers,
                                          const std::vector<std::pair<double, double>>& starts,
                                          long fresh_n, std::uint64_t fresh_seed) {
  std::vector<table1_minimum> out;
  for (const auto& s : starts) {
    table1_minimum m;
    m.start = s;
    try {
      const gdpp_tuning_result r = tune_gdpp(tune, layers, false, {s});
      m.eta = r.eta;
      m.gamma = r.gamma;
      m.tuning_loss = r.loss;
    } catch (const std::domain_error&) {
      continue;  // this start diverged: no minimum to report
    }
    m.fresh = gdpp_fresh_loss(fresh_n, fresh_seed, m.eta, m.gamma);
    out.push_back(m);
  }
  return out;
}

}  // namespace iclproof
