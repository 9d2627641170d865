// The gate of a loss ratio on heavy-tailed losses (compare/loss_tails.hpp), on synthetic paired
// losses whose tail index and mean ratio are known in closed form:
//   reference v_i = g_i^2, g_i ~ N(0, 1)   (E v = 1; an exponential tail, every moment finite)
//   model     u_i = a v_i + c P_i, P_i ~ Pareto(alpha, x_m = 1)   (E P = alpha / (alpha - 1))
// so that E u / E v = a + c alpha / (alpha - 1) exactly for alpha > 1 (infinite for alpha <= 1),
// and u has tail index alpha (c > 0). Each verdict must be the same at 10 seeds: PASS (ratio 0.5)
// and FAIL (ratio 2) at alpha = 4 (a finite variance) and at alpha = 1.5 (a finite mean, an
// infinite variance); INCONCLUSIVE at alpha = 0.7 (an infinite mean) where the model's loss
// without its top 0.1% of tasks is below the reference's and the sample ratio alone gives PASS at
// some seeds and FAIL at others; FAIL at alpha = 0.7 where even that trimmed ratio is decisive.
#include "compare/loss_tails.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace iclproof;

namespace {

constexpr int tail_tasks = 10000;

// Uniform in (0, 1) from the top 53 bits of mt19937_64 (the standard fixes its output).
double tail_uniform01(std::mt19937_64& g) {
  return (static_cast<double>(g() >> 11) + 0.5) * 0x1p-53;
}
double tail_normal(std::mt19937_64& g) {  // Box-Muller
  const double u1 = tail_uniform01(g), u2 = tail_uniform01(g);
  return std::sqrt(-2 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}
double tail_pareto(std::mt19937_64& g, double alpha) {
  return std::pow(tail_uniform01(g), -1 / alpha);
}

struct tail_losses {
  std::vector<double> u, v;
};
tail_losses tail_synthetic(std::uint64_t seed, double a, double c, double alpha) {
  std::mt19937_64 g(seed);
  tail_losses l;
  for (int i = 0; i < tail_tasks; ++i) {
    const double z = tail_normal(g);
    l.v.push_back(z * z);
    l.u.push_back(a * l.v.back() + c * tail_pareto(g, alpha));
  }
  return l;
}

}  // namespace

TEST_CASE("loss_tails: the Hill estimate recovers a Pareto tail index") {
  for (const double alpha : {0.7, 1.5, 4.0})
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      std::mt19937_64 g(seed);
      std::vector<double> x;
      for (int i = 0; i < tail_tasks; ++i) x.push_back(tail_pareto(g, alpha));
      const loss_tail t = measure_loss_tail(x);
      CHECK(t.hill_k == 100);  // ceil(sqrt(10000))
      CHECK(t.top_count == 10);
      // The Hill estimate of an exact Pareto sample is 1 / (mean of k Exp(alpha)): its
      // standard deviation is alpha / sqrt(k); 4 of them.
      INFO("alpha " << alpha << " seed " << seed << ": " << t.hill_tail_index);
      CHECK(std::abs(t.hill_tail_index - alpha) < 4 * alpha / std::sqrt(100.0));
      CHECK(t.infinite_mean == (alpha < 1));
      CHECK(t.infinite_variance == (alpha < 2));
    }
}

TEST_CASE("loss_tails: edges of the diagnostic") {
  // No tail to measure: the (k+1)-th largest is 0.
  const loss_tail zeros = measure_loss_tail(std::vector<double>(50, 0.0));
  CHECK(std::isinf(zeros.hill_tail_index));
  CHECK_FALSE(zeros.infinite_mean);
  CHECK_FALSE(zeros.infinite_variance);
  CHECK(zeros.top_share == 0);
  // Two losses: k = n - 1 = 1; 1001 losses: the top 0.1% is 2 tasks (ceil, not floor).
  CHECK(measure_loss_tail({1.0, 2.0}).hill_k == 1);
  std::vector<double> x(1001, 1.0);
  x.back() = 1000;
  const loss_tail t = measure_loss_tail(x);
  CHECK(t.top_count == 2);
  CHECK(t.top_share == Approx(1001.0 / 2000.0).epsilon(1e-15));
  CHECK(t.hill_k == 32);  // ceil(sqrt(1001))
  CHECK_THROWS_AS(measure_loss_tail({1.0}), std::invalid_argument);
  CHECK_THROWS_AS(measure_loss_tail({1.0, -1.0}), std::invalid_argument);
  CHECK_THROWS_AS(measure_loss_tail({1.0, NAN}), std::invalid_argument);
  CHECK_THROWS_AS(judge_loss_ratio({1.0, 2.0}, {1.0}, 1.0), std::invalid_argument);
}

TEST_CASE(
    "loss_tails: a finite-variance heavy tail (alpha = 4) gives the same verdict at 10 seeds") {
  // E u / E v = c * 4/3: c = 0.375 gives 0.5, c = 1.5 gives 2.
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    INFO("seed " << seed);
    const tail_losses below = tail_synthetic(seed, 0, 0.375, 4);
    const loss_ratio_gate p = judge_loss_ratio(below.u, below.v, 1.0);
    INFO(to_json(p).dump());
    CHECK(p.status == gate_status::pass);
    CHECK_FALSE(p.model.infinite_variance);
    CHECK_FALSE(p.not_significant);
    const tail_losses above = tail_synthetic(seed, 0, 1.5, 4);
    const loss_ratio_gate f = judge_loss_ratio(above.u, above.v, 1.0);
    INFO(to_json(f).dump());
    CHECK(f.status == gate_status::fail);
    CHECK(f.reason.empty());  // the sample ratio's FAIL, not the heavy-tail rule's
  }
}

TEST_CASE(
    "loss_tails: an infinite-variance tail (alpha = 1.5) gives the same verdict at 10 seeds") {
  // E P = 3: c = 1/6 gives E u / E v = 0.5, c = 2/3 gives 2. The mean exists, so the sample ratio
  // is judged; the diagnostic flags the infinite variance.
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    INFO("seed " << seed);
    const tail_losses below = tail_synthetic(seed, 0, 1.0 / 6, 1.5);
    const loss_ratio_gate p = judge_loss_ratio(below.u, below.v, 1.0);
    INFO(to_json(p).dump());
    CHECK(p.status == gate_status::pass);
    CHECK(p.model.infinite_variance);
    CHECK_FALSE(p.model.infinite_mean);
    const tail_losses above = tail_synthetic(seed, 0, 2.0 / 3, 1.5);
    const loss_ratio_gate f = judge_loss_ratio(above.u, above.v, 1.0);
    INFO(to_json(f).dump());
    CHECK(f.status == gate_status::fail);
  }
}

TEST_CASE("loss_tails: an infinite-mean tail (alpha = 0.7) is INCONCLUSIVE at 10 seeds") {
  // E u = infinity; without its top 0.1% (10 tasks) the model's mean is about
  // c (0.7 / 0.3) (1000^(0.3 / 0.7) - 1) = 43 c = 0.21 for c = 1/200, below the threshold 1; the
  // sample ratio is carried by a few tasks and lands on either side of 1.
  std::set<bool> sample_ratio_verdicts;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    INFO("seed " << seed);
    const tail_losses l = tail_synthetic(seed, 0, 1.0 / 200, 0.7);
    const loss_ratio_gate g = judge_loss_ratio(l.u, l.v, 1.0);
    INFO(to_json(g).dump());
    CHECK(g.status == gate_status::inconclusive);
    CHECK(g.model.infinite_mean);
    CHECK_FALSE(g.reference.infinite_mean);
    CHECK(g.reason.find("infinite-mean regime") != std::string::npos);
    sample_ratio_verdicts.insert(g.ratio <= 1.0);
  }
  // What the rule is for: the sample ratio alone flips with the seed.
  CHECK(sample_ratio_verdicts.size() == 2);
}

TEST_CASE("loss_tails: a heavy tail above a decisive trimmed ratio FAILS at 10 seeds") {
  // u = v + P / 20, alpha = 0.7: without its top 0.1% the model's loss is still about
  // (1 + 43 / 20) E v = 3.2 E v; P / 20 exceeds every v of the top 100 (P > 400: 1.5% of tasks), so
  // the Hill estimate sees the Pareto tail alone.
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    INFO("seed " << seed);
    const tail_losses l = tail_synthetic(seed, 1, 1.0 / 20, 0.7);
    const loss_ratio_gate g = judge_loss_ratio(l.u, l.v, 1.0);
    INFO(to_json(g).dump());
    CHECK(g.status == gate_status::fail);
    CHECK(g.model.infinite_mean);
    CHECK(g.trimmed_ratio - 2 * g.trimmed_standard_error > 1.0);
    CHECK(g.reason.find("a heavy tail only adds to the mean") != std::string::npos);
  }
}

TEST_CASE(
    "loss_tails: a heavy-tailed reference is INCONCLUSIVE, and a decisive ratio is significant") {
  const tail_losses l = tail_synthetic(7, 0, 1.0 / 200, 0.7);
  // The roles swapped: the reference carries the heavy tail.
  const loss_ratio_gate g = judge_loss_ratio(l.v, l.u, 1.0);
  CHECK(g.status == gate_status::inconclusive);
  CHECK(g.reason.find("reference") != std::string::npos);
  // Ratios of ~1e27 and more with an infinite-MEAN tail (alpha = 0.8, issue 39's "not
  // significant" message for a ratio of 5e27): at some seeds the sum is carried by one task, so
  // |R - 1| < 2 se (the old note's condition), yet every verdict is a decisive FAIL (the trimmed
  // ratio) and never "not significant".
  int old_note = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    INFO("seed " << seed);
    std::mt19937_64 gen(seed);
    std::vector<double> u, v;
    for (int i = 0; i < 2000; ++i) {
      const double z = tail_normal(gen);
      v.push_back(z * z);
      u.push_back(1e27 * tail_pareto(gen, 0.8));
    }
    const loss_ratio_gate f = judge_loss_ratio(u, v, 1.0);
    INFO(to_json(f).dump());
    CHECK(f.ratio > 1e27);
    old_note += std::abs(f.ratio - 1) < 2 * f.standard_error;
    CHECK(f.status == gate_status::fail);
    CHECK_FALSE(f.not_significant);
  }
  CHECK(old_note > 0);
}
