// Speed of the Akyurek et al. RAW construction at 256 bits: one RAW layer as a real
// decoder layer (softmax attention, LayerNorm, erf GeLU MLP) as the hidden size H grows, and the
// whole Theorem 2 chain (d = 4: one Sherman-Morrison update per example, 10 layers per example).
//
// BM_raw_layer/D: a layer of D/4 parallel dots of length 2 (Hadamard RAW) on a D-row data region;
// H = D + T + 2 + scratch. Counters: H, the layer's non-zero weights (attention + MLP), and the
// time per layer. The generic layer costs O(T * (nnz(weights) + H)) plus one erfc per MLP unit
// per token and the O(H^2) scan of each weight matrix for its non-zeros.
#include "core/precision.hpp"
#include "raw/chains.hpp"
#include "tasks/regression_task.hpp"

#include <benchmark/benchmark.h>

#include <vector>

namespace {
using namespace iclproof;
using namespace iclproof::raw;
using T = mpfr_real;

long nonzeros(const Mat<T>& A) {
  long n = 0;
  for (Eigen::Index j = 0; j < A.cols(); ++j)
    for (Eigen::Index i = 0; i < A.rows(); ++i) n += A(i, j) != 0;
  return n;
}

void BM_raw_layer(benchmark::State& state) {
  set_mpfr_precision(256);
  const Index D = state.range(0), Tn = 5;
  const Index ndots = D / 4;
  std::vector<raw_op<T>>
      ops;  // h[4k+3] <- h[4k..4k+1] . h[4k+2] h[4k+2]... as dots of length 1 and 2
  for (Index k = 0; k < ndots; ++k)
    ops.push_back(dot_op<T>({4 * k, 4 * k + 1}, {4 * k + 2, 4 * k + 2}, 4 * k + 3, Tn));
  layer_spec<T> spec = named_layer<T>("parallel dots");
  spec.ops = ops;
  const raw_layout lay = layout_for<T>(D, Tn, std::vector<layer_spec<T>>{spec});
  const auto kn = balanced_knobs<T>(T(4), lay.H(), Tn);
  const auto W = build_layer(lay, spec, kn);
  data_rng rng(3);
  const Mat<T> h = embed_state(lay, from_double<T>(rng.uniform_matrix(D, Tn, -1, 1)), kn);
  for (auto _ : state) benchmark::DoNotOptimize(decoder_layer_forward(W, h));
  long nnz = nonzeros(W.W_in) + nonzeros(W.W_out) + nonzeros(W.WF);
  for (const auto& hd : W.heads) nnz += nonzeros(hd.Wq) + nonzeros(hd.Wk) + nonzeros(hd.Wv);
  state.counters["H"] = double(lay.H());
  state.counters["nnz"] = double(nnz);
  state.counters["mlp_units"] = double(W.W_in.rows());
}
BENCHMARK(BM_raw_layer)
    ->Arg(16)
    ->Arg(32)
    ->Arg(64)
    ->Arg(128)
    ->Arg(256)
    ->Unit(benchmark::kMillisecond);

// The whole Theorem 2 chain, d = 4, n examples: 10 n decoder layers.
void BM_theorem2_chain(benchmark::State& state) {
  set_mpfr_precision(256);
  const Index d = 4, n = state.range(0);
  data_rng rng(7);
  const Mat<T> X = from_double<T>(rng.normal_matrix(d, n + 1)),
               y = from_double<T>(rng.normal_matrix(1, n));
  const T lambda(1);
  const sm_rows R{d};
  const auto L = theorem2_chain<T>(d, n, lambda);
  const raw_layout lay = layout_for<T>(R.D(), 2 * n + 1, L);
  const auto kn = balanced_knobs<T>(T(64), lay.H(), lay.tokens);
  const auto W = build_chain(lay, L, kn);
  const Mat<T> h = embed_state(lay, chain_input<T>(R.D(), X, y), kn);
  for (auto _ : state) benchmark::DoNotOptimize(decoder_stack_forward(W, h));
  state.counters["H"] = double(lay.H());
  state.counters["layers"] = double(L.size());
  state.counters["seconds_per_layer"] =
      benchmark::Counter(double(L.size()), benchmark::Counter::kIsIterationInvariantRate |
                                               benchmark::Counter::kInvert);
}
BENCHMARK(BM_theorem2_chain)->Arg(1)->Arg(2)->Arg(4)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
