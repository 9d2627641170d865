// The Memformer paper's notebooks as peer models: layouts memformer_cgd and memformer_lfom
// (compare/peer_models.hpp).
#include "compare/peer_model_sidecar.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <string>

namespace iclproof::peer_sidecar {

// The P blocks the Memformer notebooks' forward zeroes (zero_p): named in a note, not refused.
void note_zeroed_p(weights_file& w, const allparam_view& a) {
  double worst = 0;
  for (int l = 0; l < a.L; ++l)
    for (int h = 0; h < a.H; ++h) worst = std::max(worst, a.block(l, h, 0).norm());
  if (worst != 0)
    w.provenance.push_back(fmt::format(
        "stored P blocks are nonzero (largest ||P||_F = {:.6g}); the notebook's forward sets them "
        "to 0 (zero_p) before every use, and so does this reading",
        worst));
}

// The Memformer notebooks' state_dict: allparam, alpha and gamma, and nothing else.
struct memformer_state {
  allparam_view a;
  const peer_tensor& alpha;
  const peer_tensor& gamma;
};

memformer_state take_memformer_state(tensor_set& ts, const std::string& layout,
                                     const std::string& src, const weights_limits& limits) {
  const allparam_view a = read_allparam(ts.take("allparam", layout), "allparam", src, limits);
  const peer_tensor& alpha = ts.take("alpha", layout);
  const peer_tensor& gamma = ts.take("gamma", layout);
  ts.require_all_used(layout + " (the notebook's state_dict holds allparam, alpha, gamma)");
  return {a, alpha, gamma};
}

// alpha and gamma both have `shape`; `expected` writes it out for the error.
void require_alpha_gamma_shape(const memformer_state& st, const std::vector<std::int64_t>& shape,
                               const std::string& expected, const std::string& src) {
  for (const auto* t : {&st.alpha, &st.gamma})
    if (t->shape != shape)
      fail(src,
           fmt::format("alpha and gamma must have shape {}, not {}", expected, shape_text(*t)));
}

// The data model of both Memformer notebooks (their generate_data).
void read_memformer_data_model(weights_file& w, const nlohmann::json& j, const std::string& src,
                               const weights_limits& limits) {
  read_data_model(w, j, src, limits, {"gaussian", "anisotropic"},
                  "the Memformer notebooks' generate_data ('normal', with U and D or without)");
}

// ---- memformer_cgd: "ICLR_2025 Dynamic Memory CGD Implementation.ipynb" --------------------

void read_memformer_cgd(weights_file& w, tensor_set& ts, const nlohmann::json& j,
                        const std::string& src, const weights_limits& limits) {
  const memformer_state st = take_memformer_state(ts, "memformer_cgd", src, limits);
  const auto& [a, alpha, gamma] = st;
  const int L = a.L, H = a.H, d = a.d;
  require_alpha_gamma_shape(st, {L}, fmt::format("({}) (one per layer)", L), src);
  const int run_mode = run_mode_field(j, src);
  w.experiment = "memformer_cgd";
  w.kind = learned_model_kind::memformer_cgd;
  w.d = d;
  w.layers = L;
  note_zeroed_p(w, a);
  // identity_q: Q_(l,h) := mean(diag Q_(l,h)) I before every use. Then the heads' attentions
  // add to (1/N) k_l R(I) with k_l = -sum_h q_(l,h), R(I) = P Z M Z^T Q Z of iclproof's
  // memformer_cgd with A = I (tokens as columns; the peer's z_n^T Q z_m is symmetric in n, m
  // for Q = q I).
  std::vector<double> k(std::size_t(L), 0.0);
  double off_identity = 0;
  for (int l = 0; l < L; ++l)
    for (int h = 0; h < H; ++h) {
      const Eigen::MatrixXd Q = a.block(l, h, 1);
      const double q = Q.diagonal().mean();
      off_identity = std::max(off_identity, (Q - q * Eigen::MatrixXd::Identity(d, d)).norm());
      k[std::size_t(l)] -= q;
    }
  if (off_identity != 0)
    w.provenance.push_back(fmt::format(
        "stored Q blocks are not multiples of I (largest ||Q - mean(diag Q) I||_F = {:.6g}); the "
        "notebook's forward replaces each by mean(diag Q) I (identity_q) before every use, and so "
        "does this reading (the mean in double, theirs in float32)",
        off_identity));
  // The peer's memory R_l = gamma_l R_(l-1) + (k_l / N) R_l(I) (run_mode 1; run_mode 0 drops
  // gamma), Z += alpha_l R_l, is iclproof's S_l = R_l(I) + g_l S_(l-1), Z += (a_l / N) S_l with
  // R_l = (k_l / N) S_l: a_l = alpha_l k_l, g_l = gamma_l k_(l-1) / k_l.
  for (int l = 0; l < L; ++l)
    if (k[std::size_t(l)] == 0)
      fail(src, fmt::format("layer {}: sum over heads of mean(diag Q) is 0, so the layer adds "
                            "nothing to the memory but its decay; iclproof's memformer_cgd adds "
                            "attention(I) in every layer: no construction of this suite covers "
                            "it",
                            l + 1));
  for (int l = 0; l < L; ++l) {
    const double g = l == 0 || run_mode == 0
                         ? 0.0
                         : gamma.data[std::size_t(l)] * k[std::size_t(l - 1)] / k[std::size_t(l)];
    Eigen::MatrixXd am(1, 1), gm(1, 1);
    am(0, 0) = alpha.data[std::size_t(l)] * k[std::size_t(l)];
    gm(0, 0) = g;
    w.parameter_sets.push_back({{"alpha", am}, {"gamma", gm}});
  }
  w.provenance.push_back(fmt::format(
      "read from {} (layout memformer_cgd: the Memformer paper's CGD notebook, n_layer {}, "
      "n_head {}, d {}, run_mode {}): alpha_l = alpha[l] k_l, gamma_l = gamma[l] k_(l-1) / k_l, "
      "k_l = -sum_h mean(diag Q_(l,h)) (docs/weights.md){}",
      ts.file(), L, H, d, run_mode,
      run_mode == 0 ? "; run_mode 0 uses no memory, so every gamma_l is 0" : ""));
  read_memformer_data_model(w, j, src, limits);
}

// ---- memformer_lfom: "ICLR_2025 Memformer LFOM on Isotropic Data.ipynb" ---------------------

void read_memformer_lfom(weights_file& w, tensor_set& ts, const nlohmann::json& j,
                         const std::string& src, const weights_limits& limits) {
  const memformer_state st = take_memformer_state(ts, "memformer_lfom", src, limits);
  // Named references, not a structured binding: alpha is captured by a lambda below, which
  // clang 14 (the fuzz harness's compiler) refuses for a structured binding.
  const allparam_view& a = st.a;
  const peer_tensor& alpha = st.alpha;
  const int L = a.L, H = a.H, d = a.d;
  const int run_mode = run_mode_field(j, src);
  w.d = d;
  w.layers = L;
  read_memformer_data_model(w, j, src, limits);
  const int N = w.N;
  require_alpha_gamma_shape(
      st, {L, 1, N + 1, d + 1},
      fmt::format("(n_layer, 1, N+1, d+1) = ({}, 1, {}, {}) for data.N = {}", L, N + 1, d + 1, N),
      src);
  note_zeroed_p(w, a);
  w.provenance.push_back(
      "tensor 'gamma' is not read by the notebook's forward (it uses alpha "
      "only); it is not read here either");
  std::vector<Eigen::MatrixXd> A;
  for (int l = 0; l < L; ++l) {
    Eigen::MatrixXd Al = Eigen::MatrixXd::Zero(d, d);
    for (int h = 0; h < H; ++h) Al -= a.block(l, h, 1).transpose();
    A.push_back(Al);
  }
  if (run_mode == 0) {
    // Z = Z_l + R_l: Ahn et al.'s model with P = 0 (alpha unused).
    w.experiment = "ahn_linear_transformer";
    w.kind = learned_model_kind::ahn_linear;
    for (int l = 0; l < L; ++l) w.parameter_sets.push_back({{"A", A[std::size_t(l)]}});
    w.provenance.push_back(fmt::format(
        "read from {} (layout memformer_lfom, run_mode 0: no memory, Z_(l+1) = Z_l + R_l, so the "
        "model is ahn_linear with A_l = -sum_h Q_(l,h)^T; alpha is not used in run_mode 0)",
        ts.file()));
    return;
  }
  // run_mode 1: Z_(l+1) = Z_l + sum_(k <= l) R_k * alpha_k (elementwise over the (N+1) x (d+1)
  // token grid). With P = 0 only the label column of R_k is nonzero, so only alpha_k[0, :, d]
  // acts; iclproof's memformer_lfom has one Gamma_k per layer: it must be the same at every token
  // whose entry can reach the prediction.
  //
  // Which entries reach it, exactly, from the layout: the prediction is Z[N, d] after the last
  // layer (in_context_loss reads output[:, N, d]). alpha_k multiplies R_k elementwise, so
  // alpha_k[n, d] acts only on token n's label entry. In a layer l < L - 1 a context token's label
  // entry is a key's value in the next layer's attention (A = I but for A[N, N] = 0), so it
  // reaches the query; the query's own label entry is read by nobody but the output (A[N, N] = 0
  // removes it from every sum; Q_full's label row and column are 0, so no score reads it). In the
  // LAST layer l = L - 1 the update of a context token n < N is written after the last read of
  // it: alpha_(L-1)[n, d] for n < N cannot reach the prediction. Those entries are ignored (and
  // named); every other per-token difference is refused.
  const auto at = [&](int l, int n) {
    return alpha.data[(std::size_t(l) * std::size_t(N + 1) + std::size_t(n)) * std::size_t(d + 1) +
                      std::size_t(d)];
  };
  for (int l = 0; l < L; ++l) {
    const bool last = l == L - 1;
    for (int n = 0; n < N; ++n)
      if (at(l, n) != at(l, N) && !last)
        fail(src, fmt::format("alpha[{}, 0, :, {}] weights the memory per token ({} at token {}, "
                              "{} at the query token {}): iclproof's memformer_lfom has one "
                              "Gamma_l per layer, and in a layer before the last every token's "
                              "entry reaches the prediction; no construction of this suite covers "
                              "per-token weights",
                              l, d, at(l, n), n, at(l, N), N));
    if (last) {
      std::vector<int> ignored;
      for (int n = 0; n < N; ++n)
        if (at(l, n) != at(l, N)) ignored.push_back(n);
      if (!ignored.empty())
        w.provenance.push_back(fmt::format(
            "ignored: alpha[{}, 0, n, {}] for the context tokens n = {} of the last layer "
            "(values {} where the query token's is {}): the last layer's update of a context "
            "token is written after its last read, so these entries cannot reach the prediction "
            "Z[N, d] (exact, from the layout); the last layer's Gamma is alpha[{}, 0, {}, {}], the "
            "query token's",
            l, d, fmt::join(ignored, ", "),
            [&] {
              std::vector<double> v;
              for (const int n : ignored) v.push_back(at(l, n));
              return fmt::format("{}", fmt::join(v, ", "));
            }(),
            at(l, N), l, N, d));
    }
    Eigen::MatrixXd G(1, 1);
    G(0, 0) = at(l, N);
    w.parameter_sets.push_back({{"A", A[std::size_t(l)]}, {"Gamma", G}});
  }
  w.experiment = "memformer_lfom";
  w.kind = learned_model_kind::memformer_lfom;
  w.provenance.push_back(fmt::format(
      "read from {} (layout memformer_lfom: the Memformer paper's LFOM notebook, n_layer {}, "
      "n_head {}, d {}, run_mode 1): A_l = -sum_h Q_(l,h)^T, Gamma_l = alpha[l, 0, n, d] (the "
      "same at every token n whose entry reaches the prediction; the x-columns of alpha multiply "
      "zeros) (docs/weights.md)",
      ts.file(), L, H, d));
}

}  // namespace iclproof::peer_sidecar
