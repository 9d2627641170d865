// Speed of the generic LSA layer: one Prop. 1 layer forward, d = 10, o = 1, one query,
// for N in {10, 40, 160, 640}, at 256 bits and in double. The layer forms the D x D matrix
// sum_i v_i k_i^T once (O(N D^2)); the fitted exponent of N (log-log least squares over the four
// points, CPU time) is printed at the end and should be about 1 (an N x N attention matrix would
// give 2).
//
// And the foundation's LSA-size workload (d = 10, N = 40, one layer forward, 256 bits) against
// the floor: the same number of multiply-adds done as raw MPFR calls on preallocated mpfr_t.
// Multiply-adds of one head on D x M tokens with n_keys keys (lsa_head_update), D = d + o:
//   W_V C, W_K C, (W_V C)(W_K C)^T: 3 D^2 n_keys;  P A: D^3;  W_Q E and (P A)(W_Q E): 2 D^2 M.
// The ratio time(layer) / time(floor) is printed at the end (aim <= 2).
//
// And the interval mode's cost: the same layer on interval_real (MPFI, endpoints of
// the same 257 bits, products through the mpfi_t kernel) against the MPFR layer, Prop. 1 and
// dense weights, d = 10, N = 40; the ratio interval / MPFR is printed at the end (target <= 4).
#include "core/precision.hpp"
#include "lsa/vonoswald_weights.hpp"
#include "raw_mpfr_floor.hpp"
#include "tasks/regression_task.hpp"

#include <benchmark/benchmark.h>
#include <mpfr.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {
using namespace iclproof;
constexpr int d = 10, o = 1, Q = 1;

double layer_mul_adds(int N) {
  const double D = d + o, M = N + Q;
  return 3 * D * D * N + D * D * D + 2 * D * D * M;
}

// dense = false: the Prop. 1 weights (mostly exact zeros, which MPFR multiplies fast);
// dense = true: one head with dense random W_K, W_Q, W_V, P of the same shapes (D x D), the
// honest comparison with the floor's random operands.
template <class T, bool dense>
void lsa_layer_forward_bench(benchmark::State& state) {
  if constexpr (std::is_same_v<T, mpfr_real> || std::is_same_v<T, interval_real>)
    set_mpfr_precision(256);
  const int N = static_cast<int>(state.range(0));
  data_rng rng(1);
  const Mat<T> X = from_double<T>(rng.normal_matrix(d, N));
  const Mat<T> Y = from_double<T>(rng.normal_matrix(o, N));
  const Mat<T> Xq = from_double<T>(rng.normal_matrix(d, Q));
  const Mat<T> W0 = from_double<T>(rng.normal_matrix(o, d));
  const Mat<T> E = regression_tokens<T>(X, Y, Xq, prop1_query_init<T>(W0, Xq));
  lsa_layer<T> layer = prop1_weights<T>(d, o, N, T(0.1), W0);
  if constexpr (dense)
    for (Mat<T>* m :
         {&layer.heads[0].W_K, &layer.heads[0].W_Q, &layer.heads[0].W_V, &layer.heads[0].P})
      *m = from_double<T>(rng.normal_matrix(d + o, d + o));
  for (auto _ : state) {
    Mat<T> out = lsa_layer_forward<T>(layer, E, N);
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["N"] = N;
  state.counters["bits"] = precision_of(E(0, 0));
  state.counters["ns_per_mul_add"] =
      benchmark::Counter(layer_mul_adds(N), benchmark::Counter::kIsIterationInvariantRate |
                                                benchmark::Counter::kInvert);
}
void lsa_layer_256(benchmark::State& s) { lsa_layer_forward_bench<mpfr_real, false>(s); }
void lsa_layer_double(benchmark::State& s) { lsa_layer_forward_bench<double, false>(s); }
void lsa_layer_dense_256(benchmark::State& s) { lsa_layer_forward_bench<mpfr_real, true>(s); }
void lsa_layer_interval_256(benchmark::State& s) {
  lsa_layer_forward_bench<interval_real, false>(s);
}
void lsa_layer_dense_interval_256(benchmark::State& s) {
  lsa_layer_forward_bench<interval_real, true>(s);
}

// The floor for N = 40 (raw_mpfr_floor.hpp): layer_mul_adds(40) multiply-adds, dot products of
// length D like the kernels.
void raw_mpfr_floor_n40(benchmark::State& state) {
  constexpr int N = 40, D = d + o;
  raw_mpfr_floor(state, static_cast<long>(layer_mul_adds(N)), D, D * (N + Q));
}

// Console output plus, at the end, the fitted exponent of N per scalar and the ratio to the
// floor (CPU time per iteration; with --benchmark_repetitions the median of the repetitions).
class exponent_reporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& r : runs)
      if (!r.error_occurred && (r.run_type == Run::RT_Iteration || r.aggregate_name == "median"))
        times_[r.run_name.function_name][r.run_name.args] = r.GetAdjustedCPUTime();
    ConsoleReporter::ReportRuns(runs);
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    for (const char* f : {"lsa_layer_256", "lsa_layer_double", "lsa_layer_dense_256"}) {
      const auto& t = times_[f];
      if (t.size() < 2) continue;
      // Least squares of log t = a + b log N.
      double sx = 0, sy = 0, sxx = 0, sxy = 0;
      for (const auto& [arg, time] : t) {
        const double x = std::log(std::stod(arg)), y = std::log(time);
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
      }
      const double n = static_cast<double>(t.size());
      std::printf("%s: fitted exponent of N over %zu points = %.3f\n", f, t.size(),
                  (n * sxy - sx * sy) / (n * sxx - sx * sx));
    }
    for (const auto& [interval, mpfr] :
         {std::pair{"lsa_layer_interval_256", "lsa_layer_256"},
          std::pair{"lsa_layer_dense_interval_256", "lsa_layer_dense_256"}}) {
      const auto a = times_[interval].find("40"), b = times_[mpfr].find("40");
      if (a != times_[interval].end() && b != times_[mpfr].end())
        std::printf("%s / %s, d = 10, N = 40, 256 bits: %.1f us / %.1f us = ratio %.2f\n", interval,
                    mpfr, a->second, b->second, a->second / b->second);
    }
    const auto floor = times_["raw_mpfr_floor_n40"].find("");
    if (floor == times_["raw_mpfr_floor_n40"].end()) return;
    for (const char* f : {"lsa_layer_256", "lsa_layer_dense_256"}) {
      const auto layer = times_[f].find("40");
      if (layer != times_[f].end())
        std::printf("%s, d = 10, N = 40: %.1f us, raw-MPFR floor %.1f us, ratio %.2f\n", f,
                    layer->second, floor->second, layer->second / floor->second);
    }
  }

 private:
  std::map<std::string, std::map<std::string, double>> times_;
};

}  // namespace

BENCHMARK(lsa_layer_256)->Arg(10)->Arg(40)->Arg(160)->Arg(640)->Unit(benchmark::kMicrosecond);
BENCHMARK(lsa_layer_double)->Arg(10)->Arg(40)->Arg(160)->Arg(640)->Unit(benchmark::kMicrosecond);
BENCHMARK(lsa_layer_dense_256)->Arg(10)->Arg(40)->Arg(160)->Arg(640)->Unit(benchmark::kMicrosecond);
BENCHMARK(raw_mpfr_floor_n40)->Unit(benchmark::kMicrosecond);
BENCHMARK(lsa_layer_interval_256)->Arg(40)->Unit(benchmark::kMicrosecond);
BENCHMARK(lsa_layer_dense_interval_256)->Arg(40)->Unit(benchmark::kMicrosecond);

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  exponent_reporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
