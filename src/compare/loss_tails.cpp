#include "compare/loss_tails.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace iclproof {

namespace {

nlohmann::json number(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(v > 0 ? "inf" : "nan");
}

}  // namespace

loss_tail measure_loss_tail(const std::vector<double>& losses) {
  const std::size_t n = losses.size();
  if (n < 2) throw std::invalid_argument("loss tail: fewer than 2 losses");
  for (const double x : losses)
    if (!std::isfinite(x) || x < 0)
      throw std::invalid_argument(fmt::format("loss tail: a loss of {} (not finite and >= 0)", x));
  std::vector<double> x = losses;
  std::sort(x.begin(), x.end(), std::greater<>());
  loss_tail t;
  t.tasks = static_cast<int>(n);
  const auto root = static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(n))));
  const std::size_t k = std::min(n - 1, std::max<std::size_t>(10, root));
  t.hill_k = static_cast<int>(k);
  if (x[k] > 0) {
    double h = 0;
    for (std::size_t i = 0; i < k; ++i) h += std::log(x[i] / x[k]);
    h /= static_cast<double>(k);
    t.hill_tail_index = h > 0 ? 1 / h : std::numeric_limits<double>::infinity();
  } else {
    t.hill_tail_index = std::numeric_limits<double>::infinity();
  }
  t.top_count = static_cast<int>((n + 999) / 1000);
  const double total = std::accumulate(x.begin(), x.end(), 0.0);
  const double top = std::accumulate(x.begin(), x.begin() + t.top_count, 0.0);
  t.top_share = total > 0 ? top / total : 0;
  t.infinite_mean = t.hill_tail_index <= infinite_mean_tail_index;
  t.infinite_variance = t.hill_tail_index <= infinite_variance_tail_index;
  return t;
}

const char* to_string(gate_status s) {
  switch (s) {
    case gate_status::pass:
      return "pass";
    case gate_status::fail:
      return "fail";
    case gate_status::inconclusive:
      return "inconclusive";
  }
  return "?";
}

double paired_ratio_standard_error(const std::vector<double>& u, const std::vector<double>& v) {
  const std::size_t n = u.size();
  if (n < 2 || v.size() != n) return 0;
  const double su = std::accumulate(u.begin(), u.end(), 0.0),
               sv = std::accumulate(v.begin(), v.end(), 0.0);
  const double R = su / sv, mean_v = sv / static_cast<double>(n);
  double s = 0;
  for (std::size_t i = 0; i < n; ++i) s += (u[i] - R * v[i]) * (u[i] - R * v[i]);
  return std::sqrt(s / (static_cast<double>(n) * static_cast<double>(n - 1))) / mean_v;
}

loss_ratio_gate judge_loss_ratio(const std::vector<double>& u, const std::vector<double>& v,
                                 double threshold) {
  if (u.size() != v.size())
    throw std::invalid_argument("loss ratio: the model and the reference have different tasks");
  loss_ratio_gate g;
  g.threshold = threshold;
  g.model = measure_loss_tail(u);
  g.reference = measure_loss_tail(v);
  const double su = std::accumulate(u.begin(), u.end(), 0.0),
               sv = std::accumulate(v.begin(), v.end(), 0.0);
  g.ratio = su / sv;
  g.standard_error = paired_ratio_standard_error(u, v);
  // The trimmed ratio: the model's losses without its top_count largest (set to 0, so that the
  // pairing and n stay), over the reference's full sum.
  std::vector<std::size_t> order(u.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::partial_sort(order.begin(), order.begin() + g.model.top_count, order.end(),
                    [&](std::size_t a, std::size_t b) { return u[a] > u[b]; });
  std::vector<double> trimmed = u;
  for (int i = 0; i < g.model.top_count; ++i) trimmed[order[std::size_t(i)]] = 0;
  const double st = std::accumulate(trimmed.begin(), trimmed.end(), 0.0);
  g.trimmed_ratio = st / sv;
  g.trimmed_standard_error = paired_ratio_standard_error(trimmed, v);
  g.trimmed_tail_share = su > 0 ? (su - st) / su : 0;
  const auto alpha_text = [](const loss_tail& t) {
    return fmt::format("Hill tail index {:.3g} (k = {} of {} tasks) <= {}", t.hill_tail_index,
                       t.hill_k, t.tasks, infinite_mean_tail_index);
  };
  if (!std::isfinite(g.ratio)) {
    g.status = gate_status::fail;  // NaN or an infinite ratio fails, as every metric
  } else if (g.reference.infinite_mean) {
    g.status = gate_status::inconclusive;
    g.reason = fmt::format(
        "the reference's per-task loss is in the infinite-mean regime ({}): its mean, the "
        "ratio's denominator, is not estimable from the sample",
        alpha_text(g.reference));
  } else if (g.model.infinite_mean) {
    if (g.trimmed_ratio - trimmed_ratio_z * g.trimmed_standard_error > threshold) {
      g.status = gate_status::fail;
      g.reason = fmt::format(
          "the model's per-task loss is heavy-tailed ({}), but even without its top {} tasks "
          "the ratio is {:.4g} > {:.4g} + {} se ({:.2g}): a heavy tail only adds to the mean",
          alpha_text(g.model), g.model.top_count, g.trimmed_ratio, threshold, trimmed_ratio_z,
          g.trimmed_standard_error);
    } else {
      g.status = gate_status::inconclusive;
      g.reason = fmt::format(
          "the model's per-task loss is in the infinite-mean regime ({}; its top {} tasks "
          "carry {:.3g} of the sum): its mean is not estimable from the sample, and the ratio "
          "without them ({:.4g}, se {:.2g}) is not beyond {:.4g}",
          alpha_text(g.model), g.model.top_count, g.trimmed_tail_share, g.trimmed_ratio,
          g.trimmed_standard_error, threshold);
    }
  } else {
    g.status = g.ratio <= threshold ? gate_status::pass : gate_status::fail;
    g.not_significant = !(std::abs(g.ratio - threshold) >= 2 * g.standard_error);
  }
  return g;
}

nlohmann::json to_json(const loss_tail& t) {
  return {{"tasks", t.tasks},
          {"hill_tail_index", number(t.hill_tail_index)},
          {"hill_k", t.hill_k},
          {"top_0.1%_tasks", t.top_count},
          {"top_0.1%_share", t.top_share},
          {"infinite_mean", t.infinite_mean},
          {"infinite_variance", t.infinite_variance}};
}

nlohmann::json to_json(const loss_ratio_gate& g) {
  nlohmann::json j = {{"ratio", number(g.ratio)},
                      {"standard_error", number(g.standard_error)},
                      {"threshold", g.threshold},
                      {"model_tail", to_json(g.model)},
                      {"reference_tail", to_json(g.reference)},
                      {"trimmed_ratio", number(g.trimmed_ratio)},
                      {"trimmed_standard_error", number(g.trimmed_standard_error)},
                      {"trimmed_tail_share", g.trimmed_tail_share},
                      {"status", to_string(g.status)}};
  if (!g.reason.empty()) j["reason"] = g.reason;
  return j;
}

std::string loss_ratio_rule_text() {
  return fmt::format(
      "gated loss ratios: Hill tail index of each model's per-task loss (k = max(10, ceil(sqrt "
      "n)) largest); at <= {} (infinite mean) no PASS: INCONCLUSIVE, or FAIL if the ratio "
      "without the model's top 0.1% of tasks exceeds the threshold by {} se (src/compare/"
      "loss_tails.hpp)",
      infinite_mean_tail_index, trimmed_ratio_z);
}

}  // namespace iclproof
