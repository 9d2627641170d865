// The ball scalar (Arb, core/ball.hpp) against MPFI intervals and MPFR, in ONE run, as ratios
// (CPU time per iteration):
//  1. the dense LSA layer (d = 10, N = 40, one head, dense random W_K, W_Q, W_V, P; the same
//     workload as vonoswald_benchmark's lsa_layer_dense_256 and kernel_benchmark's
//     dense_lsa_layer) at 257 bits on mpfr_real (products: mpfr_dot_into), interval_real
//     (products: the mpfi_t kernel) and ball_real (products: arb_dot), and the raw-MPFR floor
//     (raw_mpfr_floor.hpp: the same number of multiply-adds as mpfr_mul + mpfr_add);
//  2. the L = 7, d = 10, N = 40 LFOM (momentum coefficients) and CGD Memformer forward passes
//     (kernel_benchmark's and memformer_benchmark's workloads: identity-block weights, whose
//     exact zeros every kernel skips) on the three scalars, with the raw-MPFR floor of the same
//     multiply-add count (the Memformers and the Z-form layer are instantiated here for
//     interval_real and ball_real from their _impl.hpp definitions: the library instantiates
//     them for double, long double, MPFR and rationals);
//  3. a linear solve of the d x d system (X X^T + I) w = X y^T (d = 10, N = 40) at 257 bits:
//     MPFR LU (Eigen, not certified), the MPFI certified solve (linalg_interval.cpp: MPFR
//     inverse of the midpoint plus a Krawczyk-style verification) and Arb's arb_mat_solve and
//     arb_mat_spd_solve (certified).
// Ratios printed at the end: ball / mpfr, interval / mpfr, ball / interval, each / floor.
#include "core/ball_linalg.hpp"
#include "core/precision.hpp"
#include "lsa/vonoswald_weights.hpp"
#include "memformer/memformers_impl.hpp"
#include "memformer/z_form_transformer_impl.hpp"
#include "raw_mpfr_floor.hpp"
#include "tasks/regression_task.hpp"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace {
using namespace iclproof;
constexpr int d = 10, N = 40, L = 7;

double lsa_mul_adds() {
  const double D = d + 1, M = N + 1;
  return 3 * D * D * N + D * D * D + 2 * D * D * M;
}

// The dense layer and its tokens in mpfr_real (the other scalars get the same values exactly).
struct dense_case {
  lsa_layer<mpfr_real> layer;
  Mat<mpfr_real> E;
};
dense_case make_dense_case() {
  set_mpfr_precision(256);
  using T = mpfr_real;
  data_rng rng(1);
  const Mat<T> X = from_double<T>(rng.normal_matrix(d, N));
  const Mat<T> Y = from_double<T>(rng.normal_matrix(1, N));
  const Mat<T> Xq = from_double<T>(rng.normal_matrix(d, 1));
  const Mat<T> W0 = from_double<T>(rng.normal_matrix(1, d));
  dense_case c{prop1_weights<T>(d, 1, N, T(0.1), W0),
               regression_tokens<T>(X, Y, Xq, prop1_query_init<T>(W0, Xq))};
  for (Mat<T>* m :
       {&c.layer.heads[0].W_K, &c.layer.heads[0].W_Q, &c.layer.heads[0].W_V, &c.layer.heads[0].P})
    *m = from_double<T>(rng.normal_matrix(d + 1, d + 1));
  return c;
}
template <class S>
Mat<S> convert(const Mat<mpfr_real>& m) {
  Mat<S> r(m.rows(), m.cols());
  for (Eigen::Index j = 0; j < m.cols(); ++j)
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
      if constexpr (std::is_same_v<S, mpfr_real>)
        r(i, j) = m(i, j);
      else if constexpr (std::is_same_v<S, interval_real>)
        r(i, j) = interval_point(m(i, j));
      else
        r(i, j) = S(m(i, j));  // ball_real: the exact value
    }
  return r;
}
template <class S>
lsa_layer<S> convert(const lsa_layer<mpfr_real>& l) {
  lsa_layer<S> r;
  r.mask = l.mask;
  for (const auto& h : l.heads)
    r.heads.push_back({convert<S>(h.W_K), convert<S>(h.W_Q), convert<S>(h.W_V), convert<S>(h.P)});
  return r;
}

template <class S>
void dense_lsa_layer(benchmark::State& state) {
  const dense_case c = make_dense_case();
  const lsa_layer<S> layer = convert<S>(c.layer);
  const Mat<S> E = convert<S>(c.E);
  for (auto _ : state) {
    Mat<S> out = lsa_layer_forward<S>(layer, E, N);
    benchmark::DoNotOptimize(out.data());
  }
}
void dense_lsa_layer_mpfr(benchmark::State& s) { dense_lsa_layer<mpfr_real>(s); }
void dense_lsa_layer_interval(benchmark::State& s) { dense_lsa_layer<interval_real>(s); }
void dense_lsa_layer_ball(benchmark::State& s) { dense_lsa_layer<ball_real>(s); }
void dense_lsa_layer_floor(benchmark::State& s) {
  raw_mpfr_floor(s, static_cast<long>(lsa_mul_adds()), d + 1, (d + 1) * (N + 1));
}

// The Memformer workloads (kernel_benchmark.cpp's counts and data).
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

template <class S>
Mat<S> memformer_prompt() {
  set_mpfr_precision(256);
  data_rng rng(1);
  const Mat<mpfr_real> X = from_double<mpfr_real>(rng.normal_matrix(d, N));
  const Mat<mpfr_real> Y = from_double<mpfr_real>(rng.normal_matrix(1, N));
  const Mat<mpfr_real> Xq = from_double<mpfr_real>(rng.normal_matrix(d, 1));
  return convert<S>(make_prompt<mpfr_real>(X, Y, Xq));
}
template <class S>
void lfom_forward(benchmark::State& state) {
  const Mat<S> Z0 = memformer_prompt<S>();
  const Mat<S> lambda = momentum_lfom_coefficients(S(0.03), S(0.9), L);
  const auto m = scalar_lfom_memformer<S>(d, N, std::vector<S>(L, S(1) / S(N)), lambda);
  for (auto _ : state) {
    auto Zs = lfom_memformer_forward(Z0, m);
    benchmark::DoNotOptimize(Zs.back().data());
  }
}
template <class S>
void cgd_forward(benchmark::State& state) {
  const Mat<S> Z0 = memformer_prompt<S>();
  const auto m = cg_memformer<S>(d, std::vector<S>(L, S(1) / S(4)), std::vector<S>(L, S(1) / S(2)));
  for (auto _ : state) {
    auto Zs = cgd_memformer_forward(Z0, m);
    benchmark::DoNotOptimize(Zs.back().data());
  }
}
void lfom_forward_mpfr(benchmark::State& s) { lfom_forward<mpfr_real>(s); }
void lfom_forward_interval(benchmark::State& s) { lfom_forward<interval_real>(s); }
void lfom_forward_ball(benchmark::State& s) { lfom_forward<ball_real>(s); }
void lfom_forward_floor(benchmark::State& s) {
  raw_mpfr_floor(s, static_cast<long>(lfom_mul_adds()), d + 1, (d + 1) * (N + 1));
}
void cgd_forward_mpfr(benchmark::State& s) { cgd_forward<mpfr_real>(s); }
void cgd_forward_interval(benchmark::State& s) { cgd_forward<interval_real>(s); }
void cgd_forward_ball(benchmark::State& s) { cgd_forward<ball_real>(s); }
void cgd_forward_floor(benchmark::State& s) {
  raw_mpfr_floor(s, static_cast<long>(cgd_mul_adds()), d + 1, (d + 1) * (N + 1));
}

// (X X^T + I) and X y^T in mpfr_real.
std::pair<Mat<mpfr_real>, Mat<mpfr_real>> normal_equations() {
  set_mpfr_precision(256);
  using T = mpfr_real;
  data_rng rng(3);
  const Mat<T> X = from_double<T>(rng.normal_matrix(d, N));
  const Mat<T> y = from_double<T>(rng.normal_matrix(1, N));
  Mat<T> A = matmul_nt(X, X);
  for (int i = 0; i < d; ++i) A(i, i) += T(1);
  return {A, matmul_nt(X, y)};
}
enum class solver { mpfr_lu, interval_certified, ball_solve, ball_spd_solve };
template <solver s>
void solve(benchmark::State& state) {
  const auto [A, b] = normal_equations();
  if constexpr (s == solver::mpfr_lu) {
    for (auto _ : state) {
      Mat<mpfr_real> x = lu_solve(A, b);
      benchmark::DoNotOptimize(x.data());
    }
  } else if constexpr (s == solver::interval_certified) {
    const Mat<interval_real> Ai = convert<interval_real>(A), bi = convert<interval_real>(b);
    for (auto _ : state) {
      Mat<interval_real> x = certified_solve(Ai, bi);
      benchmark::DoNotOptimize(x.data());
    }
  } else {
    const Mat<ball_real> Ab = convert<ball_real>(A), bb = convert<ball_real>(b);
    for (auto _ : state) {
      Mat<ball_real> x =
          s == solver::ball_solve ? certified_solve(Ab, bb) : certified_spd_solve(Ab, bb);
      benchmark::DoNotOptimize(x.data());
    }
  }
}
void solve_mpfr_lu(benchmark::State& s) { solve<solver::mpfr_lu>(s); }
void solve_interval_certified(benchmark::State& s) { solve<solver::interval_certified>(s); }
void solve_ball(benchmark::State& s) { solve<solver::ball_solve>(s); }
void solve_ball_spd(benchmark::State& s) { solve<solver::ball_spd_solve>(s); }

class ratio_reporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& r : runs)
      if (!r.error_occurred && (r.run_type == Run::RT_Iteration || r.aggregate_name == "median"))
        times_[r.run_name.function_name] = r.GetAdjustedCPUTime();
    ConsoleReporter::ReportRuns(runs);
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    std::printf("\n");
    for (const auto& [w, title] :
         {std::pair{"dense_lsa_layer", "Dense LSA layer, d = 10, N = 40"},
          std::pair{"lfom_forward", "LFOM Memformer L = 7, d = 10, N = 40"},
          std::pair{"cgd_forward", "CGD Memformer L = 7, d = 10, N = 40"}}) {
      const std::string base = w;
      const double m = times_[base + "_mpfr"], i = times_[base + "_interval"],
                   b = times_[base + "_ball"], f = times_[base + "_floor"];
      if (m > 0 && i > 0 && b > 0 && f > 0)
        std::printf(
            "%s, 257 bits: mpfr %.1f us, interval %.1f us, ball %.1f us, raw-MPFR floor %.1f "
            "us\n  ball / mpfr %.2f, interval / mpfr %.2f, ball / interval %.2f; / floor: mpfr "
            "%.2f, interval %.2f, ball %.2f\n",
            title, m, i, b, f, b / m, i / m, b / i, m / f, i / f, b / f);
    }
    const double lu = times_["solve_mpfr_lu"], ic = times_["solve_interval_certified"],
                 bs = times_["solve_ball"], bp = times_["solve_ball_spd"];
    if (lu > 0 && ic > 0 && bs > 0 && bp > 0)
      std::printf(
          "Solve (X X^T + I) w = X y^T, d = 10, 257 bits: MPFR LU %.1f us, interval certified "
          "%.1f us, arb_mat_solve %.1f us, arb_mat_spd_solve %.1f us\n  interval / MPFR LU "
          "%.2f, arb_mat_solve / MPFR LU %.2f, arb_mat_spd_solve / MPFR LU %.2f, arb_mat_solve "
          "/ interval %.2f\n",
          lu, ic, bs, bp, ic / lu, bs / lu, bp / lu, bs / ic);
  }

 private:
  std::map<std::string, double> times_;
};

}  // namespace

BENCHMARK(dense_lsa_layer_mpfr)->Unit(benchmark::kMicrosecond);
BENCHMARK(dense_lsa_layer_interval)->Unit(benchmark::kMicrosecond);
BENCHMARK(dense_lsa_layer_ball)->Unit(benchmark::kMicrosecond);
BENCHMARK(dense_lsa_layer_floor)->Unit(benchmark::kMicrosecond);
BENCHMARK(lfom_forward_mpfr)->Unit(benchmark::kMicrosecond);
BENCHMARK(lfom_forward_interval)->Unit(benchmark::kMicrosecond);
BENCHMARK(lfom_forward_ball)->Unit(benchmark::kMicrosecond);
BENCHMARK(lfom_forward_floor)->Unit(benchmark::kMicrosecond);
BENCHMARK(cgd_forward_mpfr)->Unit(benchmark::kMicrosecond);
BENCHMARK(cgd_forward_interval)->Unit(benchmark::kMicrosecond);
BENCHMARK(cgd_forward_ball)->Unit(benchmark::kMicrosecond);
BENCHMARK(cgd_forward_floor)->Unit(benchmark::kMicrosecond);
BENCHMARK(solve_mpfr_lu)->Unit(benchmark::kMicrosecond);
BENCHMARK(solve_interval_certified)->Unit(benchmark::kMicrosecond);
BENCHMARK(solve_ball)->Unit(benchmark::kMicrosecond);
BENCHMARK(solve_ball_spd)->Unit(benchmark::kMicrosecond);

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  ratio_reporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
