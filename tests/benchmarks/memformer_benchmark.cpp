// Speed of the Memformer forward pass at 256 bits: L = 7, d = 10, N = 40, against the
// floor: the same number of multiply-adds done as raw MPFR calls on preallocated mpfr_t.
//
// Multiply-add count of one forward pass (the floor does exactly this many mpfr_mul + mpfr_add):
//   per layer, one head: Z M Z^T (d+1)^2 N, Q Z, (Z M Z^T)(Q Z), P (...) 3 (d+1)^2 (N+1);
//   LFOM Memformer: Hadamard sums (l+1) (d+1)(N+1) and the 1/N scaling (d+1)(N+1) per layer;
//   CGD Memformer: gamma R and (alpha/N) R, 2 (d+1)(N+1) per layer.
// The ratio time(forward) / time(floor) is the overhead of the construction over raw MPFR.
#include "core/precision.hpp"
#include "memformer/memformers.hpp"
#include "raw_mpfr_floor.hpp"
#include "references/first_order_methods.hpp"
#include "tasks/regression_task.hpp"

#include <benchmark/benchmark.h>
#include <mpfr.h>

#include <vector>

namespace {
using namespace iclproof;
using T = mpfr_real;
constexpr int L = 7, d = 10, N = 40;

double attention_mul_adds() {
  const double D = d + 1;
  return D * D * N + 3 * D * D * (N + 1);
}
double lfom_mul_adds() {
  double total = 0;
  for (int l = 0; l < L; ++l) total += attention_mul_adds() + (l + 2) * (d + 1.0) * (N + 1);
  return total;
}
double cgd_mul_adds() { return L * (attention_mul_adds() + 2 * (d + 1.0) * (N + 1)); }

Mat<T> prompt() {
  data_rng rng(1);
  return make_prompt<T>(from_double<T>(rng.normal_matrix(d, N)),
                        from_double<T>(rng.normal_matrix(1, N)),
                        from_double<T>(rng.normal_matrix(d, 1)));
}

void lfom_memformer_forward_256(benchmark::State& state) {
  set_mpfr_precision(256);
  const Mat<T> Z0 = prompt();
  const Mat<T> lambda = momentum_lfom_coefficients(T(0.03), T(0.9), L);
  const auto m = scalar_lfom_memformer<T>(d, N, std::vector<T>(L, T(1) / T(N)), lambda);
  for (auto _ : state) {
    auto Zs = lfom_memformer_forward(Z0, m);
    benchmark::DoNotOptimize(Zs.back().data());
  }
  state.counters["mul_adds"] = lfom_mul_adds();
  state.counters["bits"] = precision_of(Z0(0, 0));
  state.counters["ns_per_mul_add"] = benchmark::Counter(
      lfom_mul_adds(), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void cgd_memformer_forward_256(benchmark::State& state) {
  set_mpfr_precision(256);
  const Mat<T> Z0 = prompt();
  const auto m = cg_memformer<T>(d, std::vector<T>(L, T(1) / T(4)), std::vector<T>(L, T(1) / T(2)));
  for (auto _ : state) {
    auto Zs = cgd_memformer_forward(Z0, m);
    benchmark::DoNotOptimize(Zs.back().data());
  }
  state.counters["mul_adds"] = cgd_mul_adds();
  state.counters["ns_per_mul_add"] = benchmark::Counter(
      cgd_mul_adds(), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// The floor (raw_mpfr_floor.hpp): dot products of length d + 1, the inner dimension of three
// of the four products per head.
void raw_mpfr_floor_lfom(benchmark::State& state) {
  raw_mpfr_floor(state, static_cast<long>(lfom_mul_adds()), d + 1, (d + 1) * (N + 1));
}
void raw_mpfr_floor_cgd(benchmark::State& state) {
  raw_mpfr_floor(state, static_cast<long>(cgd_mul_adds()), d + 1, (d + 1) * (N + 1));
}

}  // namespace

BENCHMARK(lfom_memformer_forward_256)->Unit(benchmark::kMillisecond);
BENCHMARK(raw_mpfr_floor_lfom)->Unit(benchmark::kMillisecond);
BENCHMARK(cgd_memformer_forward_256)->Unit(benchmark::kMillisecond);
BENCHMARK(raw_mpfr_floor_cgd)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
