// Cost of the exact rational mode: how the time of a Prop. 1 LSA layer, of a stack of
// K GD layers (the von Oswald stack) and of an exact ridge solve grows with d, N and K, against
// the same computation at 256-bit MPFR in the same run.
//
// What grows: the inputs are doubles, i.e. dyadic rationals (53-bit numerators, power-of-two
// denominators). Sums and products of dyadics stay dyadic and GMP keeps them in lowest terms, so
// a layer on dyadic data with a dyadic eta adds bit length additively and costs O(N D^2)
// multiply-adds on numbers of a few hundred bits; K layers make each entry a polynomial of degree
// ~2K+1 in the data, so the bit length grows linearly in K. Ridge (exact LDL^T of X X^T + lambda I)
// makes true rationals: after elimination step j the entries are ratios of j x j minors, whose bit
// length grows linearly in d, on top of the d^3 operation count.
// Measured (2026-11-23, loaded 2-core machine, --benchmark_min_time=0.05, CPU time): rational /
// MPFR-256 = 2.5-3.6 for one LSA layer (d = 2..10, N = 10..160; exponent in N 0.92 at d = 10);
// 2.8 -> 3.5 for the GD stack from K = 1 to 8 (exponent in K 1.07: the bit growth is not yet
// visible at K <= 8 with eta = 1/8); ridge 2.9, 3.4, 5.8, 13.1 at d = 2, 4, 8, 16 (exponent in d
// 2.71 for rationals against ~2 for MPFR at these sizes): denominator growth is what makes exact
// solves expensive, so the exact properties keep d <= 8.
#include "core/precision.hpp"
#include "core/rational.hpp"
#include "lsa/vonoswald_weights.hpp"
#include "references/regression_solutions.hpp"
#include "tasks/regression_task.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {
using namespace iclproof;
constexpr int o = 1;

std::map<std::string, double>& seconds() {
  static std::map<std::string, double> s;
  return s;
}

template <class T>
void set_up_scalar() {
  if constexpr (std::is_same_v<T, mpfr_real>) set_mpfr_precision(256);
}
template <class T>
const char* scalar_tag() {
  return std::is_same_v<T, mpfr_real> ? "mpfr256" : "rational";
}

template <class T>
struct lsa_data {
  Mat<T> X, Y, Xq, W0, E;
  lsa_data(int d, int N) {
    data_rng rng(1);
    X = from_double<T>(rng.normal_matrix(d, N));
    Y = from_double<T>(rng.normal_matrix(o, N));
    Xq = from_double<T>(rng.normal_matrix(d, 1));
    W0 = from_double<T>(rng.normal_matrix(o, d));
    E = regression_tokens<T>(X, Y, Xq, prop1_query_init<T>(W0, Xq));
  }
};

// One Prop. 1 layer, args (d, N), eta = 1/8 (dyadic).
template <class T>
void layer_bench(benchmark::State& state) {
  set_up_scalar<T>();
  const int d = static_cast<int>(state.range(0)), N = static_cast<int>(state.range(1));
  const lsa_data<T> data(d, N);
  const lsa_layer<T> layer = prop1_weights<T>(d, o, N, T(0.125), data.W0);
  for (auto _ : state) {
    Mat<T> out = lsa_layer_forward<T>(layer, data.E, N);
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["d"] = d;
  state.counters["N"] = N;
}

// A stack of K GD layers (W0 = 0), args (d, N, K), eta = 1/8 per layer.
template <class T>
void stack_bench(benchmark::State& state) {
  set_up_scalar<T>();
  const int d = static_cast<int>(state.range(0)), N = static_cast<int>(state.range(1));
  const int K = static_cast<int>(state.range(2));
  lsa_data<T> data(d, N);
  data.E.bottomRightCorner(o, 1).setZero();
  const lsa_stack<T> stack = gd_stack_weights<T>(d, o, N, std::vector<T>(K, T(0.125)));
  for (auto _ : state) {
    auto outs = lsa_stack_forward<T>(stack, data.E, N);
    benchmark::DoNotOptimize(outs.back().data());
  }
  state.counters["K"] = K;
  state.SetLabel(std::string(scalar_tag<T>()) + " K=" + std::to_string(K));
}

// Exact ridge W = Y X^T (X X^T + lambda I)^-1 (LDL^T for rationals, Cholesky for MPFR), args
// (d, N), lambda = 1/4.
template <class T>
void ridge_bench(benchmark::State& state) {
  set_up_scalar<T>();
  const int d = static_cast<int>(state.range(0)), N = static_cast<int>(state.range(1));
  const lsa_data<T> data(d, N);
  for (auto _ : state) {
    Mat<T> W = ridge_closed_form<T>(data.X, data.Y, T(0.25));
    benchmark::DoNotOptimize(W.data());
  }
  state.counters["d"] = d;
}

void lsa_args(benchmark::internal::Benchmark* b) {
  for (int d : {2, 5, 10})
    for (int N : {10, 40, 160}) b->Args({d, N});
}
void stack_args(benchmark::internal::Benchmark* b) {
  for (int K : {1, 2, 4, 8}) b->Args({5, 20, K});
}
void ridge_args(benchmark::internal::Benchmark* b) {
  for (int d : {2, 4, 8, 16}) b->Args({d, 40});
}

BENCHMARK_TEMPLATE(layer_bench, rational_real)->Apply(lsa_args)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(layer_bench, mpfr_real)->Apply(lsa_args)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(stack_bench, rational_real)->Apply(stack_args)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(stack_bench, mpfr_real)->Apply(stack_args)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(ridge_bench, rational_real)->Apply(ridge_args)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(ridge_bench, mpfr_real)->Apply(ridge_args)->Unit(benchmark::kMicrosecond);

// Collects CPU time per run name, then prints rational / MPFR ratios and the log-log slopes.
class ratio_reporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& r : runs)
      seconds()[r.benchmark_name()] = r.GetAdjustedCPUTime() * 1e-6;  // kMicrosecond
    ConsoleReporter::ReportRuns(runs);
  }
};

double slope(const std::vector<std::pair<double, double>>& pts) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (auto [x, y] : pts) {
    sx += std::log(x);
    sy += std::log(y);
    sxx += std::log(x) * std::log(x);
    sxy += std::log(x) * std::log(y);
  }
  const double n = static_cast<double>(pts.size());
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}
}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  ratio_reporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  auto& s = seconds();
  auto t = [&](const std::string& name) { return s.count(name) ? s[name] : std::nan(""); };
  std::printf("\nrational / mpfr-256 CPU time, same workload:\n");
  for (int d : {2, 5, 10})
    for (int N : {10, 40, 160}) {
      // fmt::format, not "/" + std::to_string(...): with the precompiled header GCC 12 reports a
      // false -Wstringop-overflow in operator+(const char*, std::string&&) (the PR 105651 family).
      const std::string a = fmt::format("/{}/{}", d, N);
      std::printf("  LSA layer d=%2d N=%3d: %6.2f\n", d, N,
                  t("layer_bench<rational_real>" + a) / t("layer_bench<mpfr_real>" + a));
    }
  std::vector<std::pair<double, double>> stack_pts, ridge_pts, n_pts;
  for (int K : {1, 2, 4, 8}) {
    const std::string a = "/5/20/" + std::to_string(K);
    std::printf("  GD stack d=5 N=20 K=%d: %6.2f\n", K,
                t("stack_bench<rational_real>" + a) / t("stack_bench<mpfr_real>" + a));
    stack_pts.push_back({double(K), t("stack_bench<rational_real>" + a)});
  }
  for (int d : {2, 4, 8, 16}) {
    const std::string a = fmt::format("/{}/40", d);  // fmt: the same GCC 12 false positive
    std::printf("  ridge d=%2d N=40: %6.2f\n", d,
                t("ridge_bench<rational_real>" + a) / t("ridge_bench<mpfr_real>" + a));
    ridge_pts.push_back({double(d), t("ridge_bench<rational_real>" + a)});
  }
  for (int N : {10, 40, 160})
    n_pts.push_back({double(N), t("layer_bench<rational_real>/10/" + std::to_string(N))});
  std::printf(
      "fitted exponents (rational CPU time): LSA layer in N (d=10): %.2f; GD stack in K: "
      "%.2f; ridge in d: %.2f\n",
      slope(n_pts), slope(stack_pts), slope(ridge_pts));
  benchmark::Shutdown();
  return 0;
}
