// Speed of the Memformer forward pass at 256 bits (issue 4): L = 7, d = 10, N = 40, against the
// floor: the same number of multiply-adds done as raw MPFR calls on preallocated mpfr_t.
//
// Multiply-add count of one forward pass (the floor does exactly this many mpfr_mul + mpfr_add):
//   per layer, one head: Z M Z^T (d+1)^2 N, Q Z, (Z M Z^T)(Q Z), P (...) 3 (d+1)^2 (N+1);
//   LFOM Memformer: Hadamard sums (l+1) (d+1)(N+1) and the 1/N scaling (d+1)(N+1) per layer;
//   CGD Memformer: gamma R and (alpha/N) R, 2 (d+1)(N+1) per layer.
// The ratio time(forward) / time(floor) is the overhead of the construction over raw MPFR.
#include "core/precision.hpp"
#include "memformer/memformers.hpp"
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

// The floor: n multiply-adds as mpfr_mul + mpfr_add on preallocated mpfr_t at the bit count
// Boost really uses for "256" (257 bits, the same number of limbs as the forward pass).
void raw_mpfr_floor(benchmark::State& state, double mul_adds) {
  set_mpfr_precision(256);
  const mpfr_prec_t prec = mpfr_get_prec(T(1).backend().data());
  constexpr int K = (d + 1) * (N + 1);
  std::vector<__mpfr_struct> a(K), b(K);
  data_rng rng(2);
  for (int i = 0; i < K; ++i) {
    mpfr_init2(&a[i], prec);
    mpfr_init2(&b[i], prec);
    mpfr_set_d(&a[i], rng.normal(), MPFR_RNDN);
    mpfr_set_d(&b[i], rng.normal() * 1e-3, MPFR_RNDN);
  }
  mpfr_t acc, prod;
  mpfr_init2(acc, prec);
  mpfr_init2(prod, prec);
  const long n = static_cast<long>(mul_adds);
  for (auto _ : state) {
    mpfr_set_zero(acc, 1);
    // Dot products of length d + 1 (the inner dimension of three of the four products per
    // head), like the kernels: the accumulator restarts from zero for every output entry.
    for (long k = 0, i = 0, j = 7, t = 0; k < n; ++k) {
      mpfr_mul(prod, &a[i], &b[j], MPFR_RNDN);
      mpfr_add(acc, acc, prod, MPFR_RNDN);
      if (++i == K) i = 0;
      if (++j == K) j = 0;
      if (++t == d + 1) {
        t = 0;
        benchmark::DoNotOptimize(acc);
        mpfr_set_zero(acc, 1);
      }
    }
    benchmark::DoNotOptimize(acc);
  }
  state.counters["mul_adds"] = mul_adds;
  state.counters["bits"] = static_cast<double>(prec);
  state.counters["ns_per_mul_add"] = benchmark::Counter(
      mul_adds, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  mpfr_clear(acc);
  mpfr_clear(prod);
  for (int i = 0; i < K; ++i) {
    mpfr_clear(&a[i]);
    mpfr_clear(&b[i]);
  }
}

void raw_mpfr_floor_lfom(benchmark::State& state) { raw_mpfr_floor(state, lfom_mul_adds()); }
void raw_mpfr_floor_cgd(benchmark::State& state) { raw_mpfr_floor(state, cgd_mul_adds()); }

}  // namespace

BENCHMARK(lfom_memformer_forward_256)->Unit(benchmark::kMillisecond);
BENCHMARK(raw_mpfr_floor_lfom)->Unit(benchmark::kMillisecond);
BENCHMARK(cgd_memformer_forward_256)->Unit(benchmark::kMillisecond);
BENCHMARK(raw_mpfr_floor_cgd)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
