// The raw-MPFR floor the benchmarks compare the verifier with: `mul_adds` mpfr_mul + mpfr_add on
// preallocated mpfr_t at the bit count Boost really uses for "256" (257 bits, the same number of
// limbs as the verifier's values), with full 257-bit significands (MPFR multiplies operands with
// trailing zero limbs, e.g. exact doubles, faster), in dot products of length `dot_length` that
// restart from zero like the kernels, cycling through `pool` preallocated operands.
#pragma once

#include "core/precision.hpp"
#include "core/scalar.hpp"
#include "tasks/regression_task.hpp"

#include <benchmark/benchmark.h>
#include <mpfr.h>

#include <vector>

namespace iclproof {

inline void raw_mpfr_floor(benchmark::State& state, long mul_adds, int dot_length, int pool) {
  set_mpfr_precision(256);
  const mpfr_prec_t prec = mpfr_get_prec(mpfr_real(1).backend().data());
  std::vector<__mpfr_struct> a(static_cast<std::size_t>(pool)), b(a.size());
  data_rng rng(2);
  for (auto* v : {&a, &b})
    for (auto& x : *v) mpfr_init2(&x, prec);
  for (std::size_t i = 0; i < a.size(); ++i) {
    mpfr_set_d(&a[i], rng.normal(), MPFR_RNDN);
    mpfr_set_d(&b[i], rng.normal() * 1e-3, MPFR_RNDN);
    mpfr_div_ui(&a[i], &a[i], 3, MPFR_RNDN);  // full significands
    mpfr_div_ui(&b[i], &b[i], 7, MPFR_RNDN);
  }
  mpfr_t acc, prod;
  mpfr_init2(acc, prec);
  mpfr_init2(prod, prec);
  for (auto _ : state) {
    mpfr_set_zero(acc, 1);
    for (long k = 0, i = 0, j = 7 % pool, t = 0; k < mul_adds; ++k) {
      mpfr_mul(prod, &a[i], &b[j], MPFR_RNDN);
      mpfr_add(acc, acc, prod, MPFR_RNDN);
      if (++i == pool) i = 0;
      if (++j == pool) j = 0;
      if (++t == dot_length) {
        t = 0;
        benchmark::DoNotOptimize(acc);
        mpfr_set_zero(acc, 1);
      }
    }
    benchmark::DoNotOptimize(acc);
  }
  state.counters["mul_adds"] = static_cast<double>(mul_adds);
  state.counters["bits"] = static_cast<double>(prec);
  state.counters["ns_per_mul_add"] = benchmark::Counter(
      static_cast<double>(mul_adds),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  mpfr_clear(acc);
  mpfr_clear(prod);
  for (auto* v : {&a, &b})
    for (auto& x : *v) mpfr_clear(&x);
}

}  // namespace iclproof
