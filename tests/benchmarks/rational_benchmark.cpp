// Cost of the exact rational mode (issue 12): how the time of a Prop. 1 LSA layer, of a stack of
// K GD layers (the von Oswald stack) and of an exact ridge solve grows with d, N and K, against
// the same computation at 256-bit MPFR in the same run.
//
// Why it grows faster than the flop count: the inputs are doubles, i.e. dyadic rationals whose
// numerators have ~53 bits and denominators are powers of two up to ~2^60. Sums and products of
// dyadics stay dyadic, so one layer on dyadic data grows the bit length additively (a product of
// two entries adds their lengths; a sum of N adds log2 N), and the layer's cost is O(N D^2)
// multiply-adds on numbers of O(L) bits (L ~ 100-200 here). A stack of K layers multiplies the
// data by itself K times: after k layers an entry is a polynomial of degree ~2k+1 in the inputs,
// so its bit length grows linearly in k and a multiplication costs O(k^2) (schoolbook GMP) at
// these sizes: the stack costs roughly sum_k k^2 ~ K^3 times a layer's per-entry work. The step
// size eta = 1/N is not dyadic when N is not a power of two; then denominators pick up N^k and
// gcd reductions (GMP canonicalises every result) add a further log factor. Ridge (exact LDL^T of
// X X^T + lambda I, d x d) creates true rationals: the entries after elimination step j are
// ratios of j x j minors (Bareiss), so bit lengths grow linearly in d and the solve costs about
// d^3 multiplications of O(d L)-bit numbers, i.e. O(d^5 L^2) bit operations in the schoolbook
// range. The ratios printed at the end (rational / MPFR-256 for the same workload) and the fitted
// exponents (log-log slope of time in K, d) are what to read; absolute times depend on the
// machine.
#include "core/precision.hpp"
#include "core/rational.hpp"
#include "lsa/vonoswald_weights.hpp"
#include "references/regression_solutions.hpp"
#include "tasks/regression_task.hpp"

#include <benchmark/benchmark.h>

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
void lsa_layer(benchmark::State& state) {
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
void gd_stack(benchmark::State& state) {
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
void ridge(benchmark::State& state) {
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

BENCHMARK_TEMPLATE(lsa_layer, rational_real)->Apply(lsa_args)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(lsa_layer, mpfr_real)->Apply(lsa_args)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(gd_stack, rational_real)->Apply(stack_args)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(gd_stack, mpfr_real)->Apply(stack_args)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(ridge, rational_real)->Apply(ridge_args)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(ridge, mpfr_real)->Apply(ridge_args)->Unit(benchmark::kMicrosecond);

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
      const std::string a = "/" + std::to_string(d) + "/" + std::to_string(N);
      std::printf("  LSA layer d=%2d N=%3d: %6.2f\n", d, N,
                  t("lsa_layer<rational_real>" + a) / t("lsa_layer<mpfr_real>" + a));
    }
  std::vector<std::pair<double, double>> stack_pts, ridge_pts, n_pts;
  for (int K : {1, 2, 4, 8}) {
    const std::string a = "/5/20/" + std::to_string(K);
    std::printf("  GD stack d=5 N=20 K=%d: %6.2f\n", K,
                t("gd_stack<rational_real>" + a) / t("gd_stack<mpfr_real>" + a));
    stack_pts.push_back({double(K), t("gd_stack<rational_real>" + a)});
  }
  for (int d : {2, 4, 8, 16}) {
    const std::string a = "/" + std::to_string(d) + "/40";
    std::printf("  ridge d=%2d N=40: %6.2f\n", d,
                t("ridge<rational_real>" + a) / t("ridge<mpfr_real>" + a));
    ridge_pts.push_back({double(d), t("ridge<rational_real>" + a)});
  }
  for (int N : {10, 40, 160})
    n_pts.push_back({double(N), t("lsa_layer<rational_real>/10/" + std::to_string(N))});
  std::printf(
      "fitted exponents (rational CPU time): LSA layer in N (d=10): %.2f; GD stack in K: "
      "%.2f; ridge in d: %.2f\n",
      slope(n_pts), slope(stack_pts), slope(ridge_pts));
  benchmark::Shutdown();
  return 0;
}
