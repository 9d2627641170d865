// The MPFR kernels of core/kernels.hpp, in ONE run, as ratios (CPU time per iteration):
//  1. dot products of length 11 and 40 (the inner dimensions of the d = 10, N = 40 workloads) at
//     257, 513 and 1027 bits (Boost's "256", "512", "1024"): the raw-MPFR floor (mpfr_mul +
//     mpfr_add into a preallocated accumulator, raw_mpfr_floor.hpp's loop), mpfr_fma
//     (acc = a b + acc), mpfr_dot (MPFR 4.2) and core/kernels.hpp's mpfr_dot_into (the exact
//     long accumulator, equal to mpfr_dot bit for bit). Ratio: kernel / floor.
//  2. the dense LSA layer (d = 10, N = 40, one head, dense random weights; vonoswald_benchmark's
//     lsa_layer_dense_256) and the L = 7, d = 10, N = 40 LFOM and CGD Memformer forward passes
//     (memformer_benchmark's), at 257 bits, each three ways: NEW (the library's code), OLD (the
//     code before this change, copied verbatim below: products by the sequential mul-then-add
//     workspace kernel into a temporary accumulator moved into place, entrywise updates as Eigen
//     expressions) and the floor (the same number of multiply-adds as raw MPFR calls).
//     Ratios: new / floor, old / floor, old / new. The dense layer's inputs are exact doubles
//     (short significands, which the exact accumulator multiplies limb by limb without their zero
//     limbs); dense_lsa_layer_full is the same layer with every input divided by 3 (full 257-bit
//     significands, like the floor's operands).
#include "core/kernels.hpp"
#include "core/precision.hpp"
#include "lsa/vonoswald_weights.hpp"
#include "memformer/memformers.hpp"
#include "raw_mpfr_floor.hpp"
#include "references/first_order_methods.hpp"
#include "tasks/regression_task.hpp"

#include <benchmark/benchmark.h>
#include <mpfr.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace {
using namespace iclproof;
using T = mpfr_real;

// ------------------------------------------------------------------------------------------
// OLD: the code before the fast kernels (src/core/kernels.hpp, linalg_impl.hpp, lsa_layer_impl.hpp,
// z_form_transformer_impl.hpp, memformers_impl.hpp at commit 4833dd5), restricted to mpfr_real.
namespace old_code {
class mpfr_dot_workspace {
 public:
  explicit mpfr_dot_workspace(mpfr_prec_t prec) { mpfr_init2(prod_, prec); }
  ~mpfr_dot_workspace() { mpfr_clear(prod_); }
  mpfr_dot_workspace(const mpfr_dot_workspace&) = delete;
  mpfr_dot_workspace& operator=(const mpfr_dot_workspace&) = delete;
  void accumulate(mpfr_real& acc, const mpfr_real* a, std::ptrdiff_t sa, const mpfr_real* b,
                  std::ptrdiff_t sb, std::ptrdiff_t n) {
    mpfr_ptr s = acc.backend().data();
    for (std::ptrdiff_t k = 0; k < n; ++k) {
      mpfr_mul(prod_, a[k * sa].backend().data(), b[k * sb].backend().data(), MPFR_RNDN);
      mpfr_add(s, s, prod_, MPFR_RNDN);
    }
  }

 private:
  mpfr_t prod_;
};
Mat<T> product_loops(const T* a, Eigen::Index m, Eigen::Index k, std::ptrdiff_t a_row,
                     std::ptrdiff_t a_inner, const T* b, Eigen::Index n, std::ptrdiff_t b_inner,
                     std::ptrdiff_t b_col) {
  Mat<T> C(m, n);
  mpfr_dot_workspace ws(scalar_traits<T>::bits());
  for (Eigen::Index j = 0; j < n; ++j)
    for (Eigen::Index i = 0; i < m; ++i) {
      T acc(0);
      ws.accumulate(acc, a + i * a_row, a_inner, b + j * b_col, b_inner, k);
      C(i, j) = std::move(acc);
    }
  return C;
}
Mat<T> matmul(const Mat<T>& A, const Mat<T>& B) {
  return product_loops(A.data(), A.rows(), A.cols(), 1, A.rows(), B.data(), B.cols(), 1, B.rows());
}
Mat<T> matmul_nt(const Mat<T>& A, const Mat<T>& B) {
  return product_loops(A.data(), A.rows(), A.cols(), 1, A.rows(), B.data(), B.rows(), B.rows(), 1);
}
Mat<T> lsa_head_update(const lsa_head<T>& head, const Mat<T>& E, Eigen::Index n_keys) {
  const Mat<T> C = E.leftCols(n_keys);
  const Mat<T> V = matmul(head.W_V, C);
  const Mat<T> K = matmul(head.W_K, C);
  const Mat<T> A = matmul_nt(V, K);
  const Mat<T> PA = matmul(head.P, A);
  const Mat<T> Qm = matmul(head.W_Q, E);
  return matmul(PA, Qm);
}
Mat<T> lsa_layer_forward(const lsa_layer<T>& layer, const Mat<T>& E, Eigen::Index n_context) {
  check_lsa_shapes(layer, E, n_context);
  const Eigen::Index n_keys = layer.mask == lsa_mask::context_keys ? n_context : E.cols();
  Mat<T> update = lsa_head_update(layer.heads[0], E, n_keys);
  for (std::size_t h = 1; h < layer.heads.size(); ++h)
    update += lsa_head_update(layer.heads[h], E, n_keys);
  return E + update;
}
Mat<T> masked_linear_attention(const Mat<T>& Z, const attention_head<T>& head) {
  const Eigen::Index N = Z.cols() - 1;
  const Mat<T> context = Z.leftCols(N);
  const Mat<T> gram = matmul_nt(context, context);
  const Mat<T> QZ = matmul(head.Q, Z);
  return matmul(head.P, Mat<T>(matmul(gram, QZ)));
}
Mat<T> multi_head_attention(const Mat<T>& Z, const linear_transformer_layer<T>& layer) {
  check_layer_shapes(Z, layer);
  Mat<T> sum = Mat<T>::Zero(Z.rows(), Z.cols());
  for (const auto& h : layer.heads) sum += masked_linear_attention(Z, h);
  return sum;
}
std::vector<Mat<T>> cgd_memformer_forward(const Mat<T>& Z0, const cgd_memformer<T>& m) {
  const std::size_t L = m.layers.size();
  const T n = T(Z0.cols() - 1);
  std::vector<Mat<T>> Zs{Z0};
  Mat<T> R = Mat<T>::Zero(Z0.rows(), Z0.cols());
  for (std::size_t l = 0; l < L; ++l) {
    const Mat<T> attn = multi_head_attention(Zs.back(), m.layers[l]);
    R = l == 0 ? attn : Mat<T>(attn + m.gamma[l] * R);
    const T step = m.alpha[l] / n;
    Zs.push_back(Zs.back() + step * R);
  }
  return Zs;
}
std::vector<Mat<T>> lfom_memformer_forward(const Mat<T>& Z0, const lfom_memformer<T>& m) {
  const std::size_t L = m.layers.size();
  const T n = T(Z0.cols() - 1);
  std::vector<Mat<T>> Zs{Z0};
  std::vector<Mat<T>> registers;
  for (std::size_t l = 0; l < L; ++l) {
    registers.push_back(multi_head_attention(Zs.back(), m.layers[l]));
    Mat<T> update = Mat<T>::Zero(Z0.rows(), Z0.cols());
    for (std::size_t j = 0; j <= l; ++j) update += m.gamma[l][j].cwiseProduct(registers[j]);
    Zs.push_back(Zs.back() + update / n);
  }
  return Zs;
}
}  // namespace old_code

// ------------------------------------------------------------------------------------------
// 1. Dot kernels. Operands as raw_mpfr_floor.hpp's: full significands, a ~ N(0,1)/3,
// b ~ N(0,1) 1e-3 / 7, a pool of 440 of each, dot products of length n cycling through it.
constexpr int pool = 440;
enum class dot_kind { floor, fma, mpfr_dot, exact };

void dot_kernel(benchmark::State& state, dot_kind kind) {
  const int bits = static_cast<int>(state.range(0)), n = static_cast<int>(state.range(1));
  set_mpfr_precision(bits);
  const mpfr_prec_t prec = mpfr_get_prec(mpfr_real(1).backend().data());
  std::vector<mpfr_real> a(pool), b(pool);
  std::vector<mpfr_ptr> pa(pool), pb(pool);
  data_rng rng(2);
  for (int i = 0; i < pool; ++i) {
    a[i] = mpfr_real(rng.normal()) / 3;
    b[i] = mpfr_real(rng.normal() * 1e-3) / 7;
  }
  for (int i = 0; i < pool; ++i) {
    pa[i] = a[i].backend().data();
    pb[i] = b[i].backend().data();
  }
  mpfr_t acc, prod;
  mpfr_init2(acc, prec);
  mpfr_init2(prod, prec);
  const int dots = pool / n;
  for (auto _ : state) {
    for (int t = 0; t < dots; ++t) {
      const int s = t * n;
      switch (kind) {
        case dot_kind::floor:
          mpfr_set_zero(acc, 1);
          for (int k = 0; k < n; ++k) {
            mpfr_mul(prod, pa[s + k], pb[s + k], MPFR_RNDN);
            mpfr_add(acc, acc, prod, MPFR_RNDN);
          }
          break;
        case dot_kind::fma:
          mpfr_set_zero(acc, 1);
          for (int k = 0; k < n; ++k) mpfr_fma(acc, pa[s + k], pb[s + k], acc, MPFR_RNDN);
          break;
        case dot_kind::mpfr_dot:
          mpfr_dot(acc, &pa[s], &pb[s], static_cast<unsigned long>(n), MPFR_RNDN);
          break;
        case dot_kind::exact:
          mpfr_dot_into(acc, &a[s], 1, &b[s], 1, n);
          break;
      }
      benchmark::DoNotOptimize(acc);
    }
  }
  state.counters["bits"] = static_cast<double>(prec);
  state.counters["ns_per_mul_add"] = benchmark::Counter(
      static_cast<double>(dots * n),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  mpfr_clear(acc);
  mpfr_clear(prod);
}
void dot_floor(benchmark::State& s) { dot_kernel(s, dot_kind::floor); }
void dot_fma(benchmark::State& s) { dot_kernel(s, dot_kind::fma); }
void dot_mpfr_dot(benchmark::State& s) { dot_kernel(s, dot_kind::mpfr_dot); }
void dot_exact(benchmark::State& s) { dot_kernel(s, dot_kind::exact); }

// ------------------------------------------------------------------------------------------
// 2. Workloads (vonoswald_benchmark.cpp, memformer_benchmark.cpp: same data and counts).
constexpr int d = 10, N = 40, L = 7;

double lsa_mul_adds() {
  const double D = d + 1, M = N + 1;
  return 3 * D * D * N + D * D * D + 2 * D * D * M;
}
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

// full: every entry of the tokens and weights divided by 3 (a full 257-bit significand, as the
// floor's operands), so that no product is short; otherwise exact doubles, as the layer's inputs.
template <bool old, bool full = false>
void dense_lsa_layer(benchmark::State& state) {
  set_mpfr_precision(256);
  data_rng rng(1);
  const Mat<T> X = from_double<T>(rng.normal_matrix(d, N));
  const Mat<T> Y = from_double<T>(rng.normal_matrix(1, N));
  const Mat<T> Xq = from_double<T>(rng.normal_matrix(d, 1));
  const Mat<T> W0 = from_double<T>(rng.normal_matrix(1, d));
  const Mat<T> E = regression_tokens<T>(X, Y, Xq, prop1_query_init<T>(W0, Xq));
  lsa_layer<T> layer = prop1_weights<T>(d, 1, N, T(0.1), W0);
  for (Mat<T>* m :
       {&layer.heads[0].W_K, &layer.heads[0].W_Q, &layer.heads[0].W_V, &layer.heads[0].P})
    *m = from_double<T>(rng.normal_matrix(d + 1, d + 1));
  Mat<T> tokens = E;
  if (full)
    for (Mat<T>* m : {&layer.heads[0].W_K, &layer.heads[0].W_Q, &layer.heads[0].W_V,
                      &layer.heads[0].P, &tokens})
      for (Eigen::Index k = 0; k < m->size(); ++k) (*m)(k) /= 3;
  for (auto _ : state) {
    Mat<T> out = old ? old_code::lsa_layer_forward(layer, tokens, N)
                     : lsa_layer_forward<T>(layer, tokens, N);
    benchmark::DoNotOptimize(out.data());
  }
}

Mat<T> prompt() {
  data_rng rng(1);
  return make_prompt<T>(from_double<T>(rng.normal_matrix(d, N)),
                        from_double<T>(rng.normal_matrix(1, N)),
                        from_double<T>(rng.normal_matrix(d, 1)));
}
template <bool old>
void lfom_forward(benchmark::State& state) {
  set_mpfr_precision(256);
  const Mat<T> Z0 = prompt();
  const Mat<T> lambda = momentum_lfom_coefficients(T(0.03), T(0.9), L);
  const auto m = scalar_lfom_memformer<T>(d, N, std::vector<T>(L, T(1) / T(N)), lambda);
  for (auto _ : state) {
    auto Zs = old ? old_code::lfom_memformer_forward(Z0, m) : lfom_memformer_forward(Z0, m);
    benchmark::DoNotOptimize(Zs.back().data());
  }
}
template <bool old>
void cgd_forward(benchmark::State& state) {
  set_mpfr_precision(256);
  const Mat<T> Z0 = prompt();
  const auto m = cg_memformer<T>(d, std::vector<T>(L, T(1) / T(4)), std::vector<T>(L, T(1) / T(2)));
  for (auto _ : state) {
    auto Zs = old ? old_code::cgd_memformer_forward(Z0, m) : cgd_memformer_forward(Z0, m);
    benchmark::DoNotOptimize(Zs.back().data());
  }
}
void dense_lsa_layer_new(benchmark::State& s) { dense_lsa_layer<false>(s); }
void dense_lsa_layer_old(benchmark::State& s) { dense_lsa_layer<true>(s); }
void dense_lsa_layer_full_new(benchmark::State& s) { dense_lsa_layer<false, true>(s); }
void dense_lsa_layer_full_old(benchmark::State& s) { dense_lsa_layer<true, true>(s); }
void dense_lsa_layer_full_floor(benchmark::State& s) {
  raw_mpfr_floor(s, static_cast<long>(lsa_mul_adds()), d + 1, (d + 1) * (N + 1));
}
void dense_lsa_layer_floor(benchmark::State& s) {
  raw_mpfr_floor(s, static_cast<long>(lsa_mul_adds()), d + 1, (d + 1) * (N + 1));
}
void lfom_forward_new(benchmark::State& s) { lfom_forward<false>(s); }
void lfom_forward_old(benchmark::State& s) { lfom_forward<true>(s); }
void lfom_forward_floor(benchmark::State& s) {
  raw_mpfr_floor(s, static_cast<long>(lfom_mul_adds()), d + 1, (d + 1) * (N + 1));
}
void cgd_forward_new(benchmark::State& s) { cgd_forward<false>(s); }
void cgd_forward_old(benchmark::State& s) { cgd_forward<true>(s); }
void cgd_forward_floor(benchmark::State& s) {
  raw_mpfr_floor(s, static_cast<long>(cgd_mul_adds()), d + 1, (d + 1) * (N + 1));
}

// Console output plus, at the end, the ratios (CPU time per iteration; with
// --benchmark_repetitions the median of the repetitions, and for the workloads the spread: the
// smallest and largest ratio of repetition i to repetition i of the floor, which
// --benchmark_enable_random_interleaving=true runs close together in time).
class ratio_reporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& r : runs) {
      if (r.error_occurred) continue;
      if (r.run_type == Run::RT_Iteration || r.aggregate_name == "median")
        times_[r.run_name.function_name][r.run_name.args] = r.GetAdjustedCPUTime();
      if (r.run_type == Run::RT_Iteration)
        repetitions_[r.run_name.function_name].push_back(r.GetAdjustedCPUTime());
    }
    ConsoleReporter::ReportRuns(runs);
  }
  // "min-max of k": the ratios of repetition i of `a` to repetition i of `b`.
  std::string spread(const std::string& a, const std::string& b) {
    const auto& x = repetitions_[a];
    const auto& y = repetitions_[b];
    const std::size_t k = std::min(x.size(), y.size());
    if (k < 2) return "";
    double lo = x[0] / y[0], hi = lo;
    for (std::size_t i = 1; i < k; ++i)
      lo = std::min(lo, x[i] / y[i]), hi = std::max(hi, x[i] / y[i]);
    char buf[96];
    std::snprintf(buf, sizeof buf, " (repetitions: %.2f-%.2f over %zu)", lo, hi, k);
    return buf;
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    std::printf("\nDot kernels, time / raw-MPFR floor (mpfr_mul + mpfr_add):\n");
    for (const auto& [args, floor] : times_["dot_floor"]) {
      std::printf("  bits/length %-9s", args.c_str());
      for (const char* k : {"dot_fma", "dot_mpfr_dot", "dot_exact"}) {
        const auto t = times_[k].find(args);
        if (t != times_[k].end()) std::printf("  %s %.2f", k + 4, t->second / floor);
      }
      std::printf("\n");
    }
    std::printf("\nWorkloads at 257 bits (d = 10, N = 40; Memformers L = 7):\n");
    for (const char* w :
         {"dense_lsa_layer", "dense_lsa_layer_full", "lfom_forward", "cgd_forward"}) {
      const std::string base = w;
      const auto nw = times_[base + "_new"].find(""), od = times_[base + "_old"].find(""),
                 fl = times_[base + "_floor"].find("");
      if (nw == times_[base + "_new"].end() || od == times_[base + "_old"].end() ||
          fl == times_[base + "_floor"].end())
        continue;
      std::printf(
          "  %-20s new %.1f us, old %.1f us, floor %.1f us: new / floor %.2f%s, old / floor "
          "%.2f%s, old / new %.2f\n",
          w, nw->second, od->second, fl->second, nw->second / fl->second,
          spread(base + "_new", base + "_floor").c_str(), od->second / fl->second,
          spread(base + "_old", base + "_floor").c_str(), od->second / nw->second);
    }
  }

 private:
  std::map<std::string, std::map<std::string, double>> times_;
  std::map<std::string, std::vector<double>> repetitions_;  // the workloads' (no arguments)
};

void dot_args(benchmark::internal::Benchmark* b) {
  for (int bits : {256, 512, 1024})
    for (int n : {11, 40}) b->Args({bits, n});
  b->Unit(benchmark::kMicrosecond);
}

}  // namespace

BENCHMARK(dot_floor)->Apply(dot_args);
BENCHMARK(dot_fma)->Apply(dot_args);
BENCHMARK(dot_mpfr_dot)->Apply(dot_args);
BENCHMARK(dot_exact)->Apply(dot_args);
BENCHMARK(dense_lsa_layer_new)->Unit(benchmark::kMicrosecond);
BENCHMARK(dense_lsa_layer_old)->Unit(benchmark::kMicrosecond);
BENCHMARK(dense_lsa_layer_floor)->Unit(benchmark::kMicrosecond);
BENCHMARK(dense_lsa_layer_full_new)->Unit(benchmark::kMicrosecond);
BENCHMARK(dense_lsa_layer_full_old)->Unit(benchmark::kMicrosecond);
BENCHMARK(dense_lsa_layer_full_floor)->Unit(benchmark::kMicrosecond);
BENCHMARK(lfom_forward_new)->Unit(benchmark::kMicrosecond);
BENCHMARK(lfom_forward_old)->Unit(benchmark::kMicrosecond);
BENCHMARK(lfom_forward_floor)->Unit(benchmark::kMicrosecond);
BENCHMARK(cgd_forward_new)->Unit(benchmark::kMicrosecond);
BENCHMARK(cgd_forward_old)->Unit(benchmark::kMicrosecond);
BENCHMARK(cgd_forward_floor)->Unit(benchmark::kMicrosecond);

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  ratio_reporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
