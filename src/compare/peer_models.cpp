#include "compare/peer_models.hpp"

#include "compare/ahn_full_model.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <Eigen/Core>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <regex>
#include <set>
#include <utility>

namespace iclproof {

namespace {

const std::vector<std::string> peer_layouts = {"ahn_allparam", "memformer_cgd", "memformer_lfom",
                                               "vonoswald_haiku"};

[[noreturn]] void fail(const std::string& source, const std::string& what) {
  std::string msg = fmt::format("peer model {}: {}", source, what);
  for (char& c : msg)
    if (c == '\n' || c == '\r') c = ' ';
  throw weights_file_error(msg);
}

// A d x d matrix given as nested JSON arrays of numbers.
Eigen::MatrixXd json_matrix(const nlohmann::json& j, int d, const std::string& source,
                            const std::string& what) {
  if (!j.is_array() || j.size() != std::size_t(d))
    fail(source, fmt::format("{} must be {} rows of {} numbers", what, d, d));
  Eigen::MatrixXd m(d, d);
  for (int i = 0; i < d; ++i) {
    const auto& row = j[std::size_t(i)];
    if (!row.is_array() || row.size() != std::size_t(d))
      fail(source, fmt::format("{} must be {} rows of {} numbers", what, d, d));
    for (int k = 0; k < d; ++k) {
      const auto& x = row[std::size_t(k)];
      if (!x.is_number() || !std::isfinite(x.get<double>()))
        fail(source, fmt::format("{}[{}][{}] is not a finite number", what, i, k));
      m(i, k) = x.get<double>();
    }
  }
  return m;
}

std::string string_field(const nlohmann::json& j, const char* key, const std::string& source) {
  if (!j.contains(key) || !j[key].is_string())
    fail(source, fmt::format("missing string field '{}'", key));
  return j[key].get<std::string>();
}

// The tensors of a sidecar's file; every layout takes its own by name and must use them all.
class tensor_set {
 public:
  tensor_set(std::map<std::string, peer_tensor> t, std::string file, std::string src)
      : t_(std::move(t)), file_(std::move(file)), src_(std::move(src)) {}
  const peer_tensor& take(const std::string& name, const std::string& layout) {
    const auto it = t_.find(name);
    if (it == t_.end())
      fail(src_,
           fmt::format("{} has no tensor '{}' (layout {}; docs/weights.md)", file_, name, layout));
    used_.insert(name);
    return it->second;
  }
  const std::map<std::string, peer_tensor>& all() const { return t_; }
  void mark_used(const std::string& name) { used_.insert(name); }
  // Weights are never dropped silently: a tensor the layout does not read is an error.
  void require_all_used(const std::string& layout) const {
    for (const auto& [name, t] : t_)
      if (!used_.count(name))
        fail(src_, fmt::format("{} holds tensor '{}', which layout {} does not read: refusing to "
                               "leave any weights out",
                               file_, name, layout));
  }
  const std::string& file() const { return file_; }

 private:
  std::map<std::string, peer_tensor> t_;
  std::set<std::string> used_;
  std::string file_, src_;
};

std::string shape_text(const peer_tensor& t) {
  return fmt::format("({})", fmt::join(t.shape, ", "));
}

// allparam of Ahn et al.'s Transformer_F (and of the Memformer notebooks, which copy it):
// (n_layer, n_head, 2, d, d), [l, h, 0] = P, [l, h, 1] = Q.
struct allparam_view {
  const peer_tensor& t;
  int L = 0, H = 0, d = 0;
  Eigen::MatrixXd block(int l, int h, int which) const {
    Eigen::MatrixXd m(d, d);
    const std::size_t base = ((std::size_t(l) * H + h) * 2 + which) * std::size_t(d) * d;
    for (int r = 0; r < d; ++r)
      for (int c = 0; c < d; ++c) m(r, c) = t.data[base + std::size_t(r) * d + c];
    return m;
  }
};

allparam_view read_allparam(const peer_tensor& t, const std::string& name, const std::string& src,
                            const weights_limits& limits) {
  if (t.shape.size() != 5 || t.shape[2] != 2 || t.shape[3] != t.shape[4] || t.shape[0] < 1 ||
      t.shape[1] < 1 || t.shape[3] < 1)
    fail(src, fmt::format("tensor '{}' has shape {}; allparam is (n_layer, n_head, 2, d, d)", name,
                          shape_text(t)));
  const int L = int(t.shape[0]), H = int(t.shape[1]), d = int(t.shape[3]);
  if (L > limits.max_layers || d > limits.max_d || H > 64)
    fail(src, fmt::format("n_layer {}, n_head {} or d {} beyond the limits ({}, 64, {})", L, H, d,
                          limits.max_layers, limits.max_d));
  return {t, L, H, d};
}

// The data model of the sidecar (`data`): N, inputs and, for anisotropic inputs, Sigma or the
// peer's U and D. `allowed` lists the input kinds the layout's source draws.
void read_data_model(weights_file& w, const nlohmann::json& j, const std::string& src,
                     const weights_limits& limits, const std::vector<std::string>& allowed,
                     const std::string& source_name) {
  if (!j.contains("data") || !j["data"].is_object()) fail(src, "missing object 'data'");
  const auto& data = j["data"];
  if (!data.contains("N") || !data["N"].is_number_unsigned() ||
      data["N"].get<std::uint64_t>() < 1 ||
      data["N"].get<std::uint64_t>() > std::uint64_t(limits.max_N))
    fail(src, fmt::format("data.N must be an integer in [1, {}]", limits.max_N));
  w.N = int(data["N"].get<std::uint64_t>());
  w.inputs = string_field(data, "inputs", src);
  if (std::find(allowed.begin(), allowed.end(), w.inputs) == allowed.end())
    fail(src, fmt::format("data.inputs '{}' ({} draws: {})", w.inputs, source_name,
                          fmt::join(allowed, ", ")));
  const int d = w.d;
  if (w.inputs == "anisotropic") {
    Eigen::MatrixXd Sigma;
    if (data.contains("Sigma")) {
      Sigma = json_matrix(data["Sigma"], d, src, "data.Sigma");
    } else if (data.contains("U") && data.contains("D")) {
      const Eigen::MatrixXd U = json_matrix(data["U"], d, src, "data.U"),
                            D = json_matrix(data["D"], d, src, "data.D");
      // U orthogonal to float32 rounding: |U^T U - I| <= 4 d 2^-24 entrywise (a float32 copy
      // of an orthogonal matrix is off by d rounding errors of 2^-24 per entry of the product).
      const double tol = 4.0 * d * std::ldexp(1.0, -24);
      const double off =
          (U.transpose() * U - Eigen::MatrixXd::Identity(d, d)).cwiseAbs().maxCoeff();
      if (!(off <= tol))
        fail(src, fmt::format("data.U is not orthogonal (max |U^T U - I| = {:.3g} > 4 d 2^-24 = "
                              "{:.3g}): the peer's w = xi D^-1 U^T then has a covariance other "
                              "than Sigma^-1",
                              off, tol));
      Sigma = U * D * D.transpose() * U.transpose();
      w.provenance.push_back("Sigma = U D D^T U^T from the peer's U and D (x = U D xi)");
    } else {
      fail(src, "data.inputs 'anisotropic' needs data.Sigma, or data.U and data.D");
    }
    w.Sigma = (Sigma + Sigma.transpose()) / 2;  // exactly symmetric
    // The data model is checked as in a weights file (the same function).
    if (const std::string defect = sigma_defect(w.Sigma); !defect.empty())
      fail(src, "Sigma " + defect);
  }
}

int run_mode_field(const nlohmann::json& j, const std::string& src) {
  if (!j.contains("run_mode") || !j["run_mode"].is_number_unsigned() ||
      j["run_mode"].get<std::uint64_t>() > 1)
    fail(src,
         "missing 'run_mode' (0 or 1): the notebook's Transformer_F(..., run_mode) runs "
         "with or without its memory, and the state_dict does not record which");
  return int(j["run_mode"].get<std::uint64_t>());
}

// ---- ahn_allparam: Ahn et al.'s Transformer_F ----------------------------------------------

void read_ahn_allparam(weights_file& w, tensor_set& ts, const nlohmann::json& j,
                       const std::string& src, const weights_limits& limits) {
  const std::string name = j.contains("tensor") ? string_field(j, "tensor", src) : "allparam";
  const allparam_view a = read_allparam(ts.take(name, "ahn_allparam"), name, src, limits);
  ts.require_all_used("ahn_allparam (Transformer_F's state_dict holds allparam only)");
  const int L = a.L, H = a.H, d = a.d;
  w.experiment = "ahn_linear_transformer";
  w.kind = learned_model_kind::ahn_linear;
  w.d = d;
  w.layers = L;
  w.provenance.push_back(fmt::format(
      "read from {} (layout ahn_allparam: Ahn et al.'s Transformer_F, n_layer {}, n_head {}, "
      "d {}): A_l = -sum_h Q_(l,h)^T (tokens as rows, docs/weights.md)",
      ts.file(), L, H, d));
  // A P != 0 before the last layer makes the x-parts change from layer to layer, which later
  // layers read: the full linear transformer (compare/ahn_full_model.hpp), read with every P
  // and Q as they are; never dropped.
  bool full = false;
  for (int l = 0; l + 1 < L; ++l)
    for (int h = 0; h < H; ++h) full = full || a.block(l, h, 0).norm() != 0;
  if (full) {
    w.kind = learned_model_kind::ahn_full_linear;
    w.experiment = "ahn_full_linear_transformer";
    w.parameter_sets = ahn_full_parameter_sets(
        [&](int l, int h, int which) { return a.block(l, h, which); }, L, H);
    w.provenance.back() = fmt::format(
        "read from {} (layout ahn_allparam: Ahn et al.'s Transformer_F, n_layer {}, n_head {}, "
        "d {}) with P != 0 before the last layer: the full linear transformer, P_h = "
        "allparam[l, h, 0] and Q_h = allparam[l, h, 1]^T in the paper's column form (tokens as "
        "rows in the peer's code, docs/weights.md)",
        ts.file(), L, H, d);
  }
  for (int l = 0; l < L && !full; ++l) {
    Eigen::MatrixXd A = Eigen::MatrixXd::Zero(d, d);
    for (int h = 0; h < H; ++h) {
      const double p_norm = a.block(l, h, 0).norm();
      if (p_norm != 0)
        w.provenance.push_back(fmt::format(
            "layer {} head {}: P != 0 (||P||_F = {:.6g}) in the last layer, where it updates only "
            "x-parts that no later layer reads: it does not act on the prediction",
            l + 1, h + 1, p_norm));
      A -= a.block(l, h, 1).transpose();
    }
    w.parameter_sets.push_back({{"A", A}});
  }
  read_data_model(w, j, src, limits, {"gaussian", "anisotropic"},
                  "Ahn et al.'s generate_data ('normal', with U and D or without)");
}

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

// ---- vonoswald_haiku: von Oswald et al.'s Haiku parameter tree ------------------------------

void read_vonoswald_haiku(weights_file& w, tensor_set& ts, const nlohmann::json& j,
                          const std::string& src, const weights_limits& limits) {
  const std::string layout = "vonoswald_haiku";
  // Flattened names "<module path>/<param>": <root>/~trans_block/layer_<l>/<proj>/w (one set
  // per layer) or <root>/multi_head_attention/<proj>/w (one set, shared: deq, or one layer).
  static const std::regex per_layer(
      R"(^([^/]+)/~trans_block/layer_([0-9]{1,3})/(query|key|value|linear)/(w|b)$)");
  static const std::regex shared(
      R"(^([^/]+)/multi_head_attention/(query|key|value|linear)/(w|b)$)");
  std::map<int, std::map<std::string, const peer_tensor*>> sets;
  bool tied = false, untied = false;
  for (const auto& [name, t] : ts.all()) {
    std::smatch m;
    int layer = 0;
    std::string proj, param;
    if (std::regex_match(name, m, per_layer)) {
      untied = true;
      layer = std::stoi(m[2].str());
      proj = m[3].str();
      param = m[4].str();
    } else if (std::regex_match(name, m, shared)) {
      tied = true;
      proj = m[2].str();
      param = m[3].str();
    } else {
      continue;  // refused below (require_all_used), by name
    }
    ts.mark_used(name);
    if (param == "b") {
      if (std::any_of(t.data.begin(), t.data.end(), [](double v) { return v != 0; }))
        fail(src, fmt::format("tensor '{}' is a nonzero bias: iclproof's linear self-attention "
                              "layer has none (use_bias_p = False in their GD construction); no "
                              "construction of this suite covers it",
                              name));
      w.provenance.push_back(fmt::format("tensor '{}' is a bias of zeros: no effect", name));
      continue;
    }
    sets[layer][proj] = &t;
  }
  ts.require_all_used(layout +
                      " (attention-only, linear, no layer norm, no embeddings: the "
                      "model of their GD construction)");
  if (tied && untied)
    fail(src, "the file mixes ~trans_block/layer_<l> and multi_head_attention parameters");
  if (sets.empty()) fail(src, fmt::format("{} holds no query/key/value/linear weights", ts.file()));
  const auto& model = j.contains("model") ? j["model"] : nlohmann::json::object();
  if (!model.is_object()) fail(src, "'model' must be an object");
  auto number = [&](const char* key, double fallback) {
    if (!model.contains(key)) return fallback;
    if (!model[key].is_number()) fail(src, fmt::format("model.{} must be a number", key));
    return model[key].get<double>();
  };
  if (number("num_heads", 1) != 1)
    fail(src,
         "model.num_heads != 1: iclproof's LSA layer is single-headed (their GD construction "
         "uses num_heads = 1); no construction of this suite covers several heads");
  const double dampening = number("dampening", 1.0);
  if (model.contains("y_update") && !model["y_update"].is_boolean())
    fail(src, "model.y_update must be true or false");
  const bool y_update = model.contains("y_update") && model["y_update"].get<bool>();
  int L = int(sets.size());
  if (tied) {
    if (!model.contains("num_layers") || !model["num_layers"].is_number_unsigned())
      fail(src,
           "shared (multi_head_attention) weights: give model.num_layers, the number of "
           "times their recurrent (deq) model applies them");
    L = int(model["num_layers"].get<std::uint64_t>());
  }
  if (L < 1 || L > limits.max_layers)
    fail(src, fmt::format("{} layers: outside [1, {}]", L, limits.max_layers));
  for (int l = 0; l < int(sets.size()); ++l)
    if (!sets.count(l))
      fail(src, fmt::format("layer_{} is missing (layers must be numbered 0, 1, ...)", l));
  int D = 0;
  for (auto& entry : sets) {  // not a structured binding: the lambda below uses l and set
    const int l = entry.first;
    auto& set = entry.second;
    for (const char* proj : {"query", "key", "value", "linear"})
      if (!set.count(proj)) fail(src, fmt::format("layer {}: no '{}/w'", l, proj));
    const peer_tensor& q = *set["query"];
    if (q.shape.size() != 2) fail(src, fmt::format("layer {}: query/w is not a matrix", l));
    if (D == 0) D = int(q.shape[0]);
    const std::int64_t K = q.shape[1],
                       V = set["value"]->shape.size() == 2 ? set["value"]->shape[1] : -1;
    const auto want = [&](const char* proj, std::int64_t r, std::int64_t c) {
      const auto& s = set[proj]->shape;
      if (s != std::vector<std::int64_t>{r, c})
        fail(src, fmt::format("layer {}: {}/w has shape {}, expected ({}, {}) (Haiku's x @ w, "
                              "tokens as rows)",
                              l, proj, shape_text(*set[proj]), r, c));
    };
    want("query", D, K);
    want("key", D, K);
    want("value", D, V);
    want("linear", V, D);
    if (K > D || V > D || K < 1 || V < 1)
      fail(src, fmt::format("layer {}: key size {} or value size {} exceeds the token size {}: "
                            "beyond iclproof's LSA layer, whose matrices are (d+1) x (d+1)",
                            l, K, V, D));
  }
  if (D < 2 || D - 1 > limits.max_d)
    fail(src, fmt::format("token size {} (d + 1 with d in [1, {}])", D, limits.max_d));
  w.d = D - 1;
  w.layers = L;
  w.tied = tied;
  w.kind = learned_model_kind::lsa;
  w.experiment = L == 1 ? "vonoswald_single_lsa" : tied ? "vonoswald_gdpp" : "vonoswald_stack";
  // Haiku computes x @ w with tokens as rows: W_Q = query.w^T, W_K = key.w^T, W_V = value.w^T,
  // P = dampening * linear.w^T (the layer adds dampening * attn), zero-padded to D x D (zero
  // rows of W_Q and W_K add 0 to every score; zero rows of W_V meet zero columns of P).
  auto padded_transpose = [&](const peer_tensor& t, double scale) {
    Eigen::MatrixXd m = Eigen::MatrixXd::Zero(D, D);
    const std::int64_t cols = t.shape[1];
    for (std::int64_t r = 0; r < t.shape[0]; ++r)
      for (std::int64_t c = 0; c < cols; ++c)
        m(Eigen::Index(c), Eigen::Index(r)) = scale * t.data[std::size_t(r * cols + c)];
    return m;
  };
  for (auto& [l, set] : sets) {
    Eigen::MatrixXd P = padded_transpose(*set["linear"], dampening);
    if (y_update) P.topRows(D - 1).setZero();  // their y_update: only the label row changes
    w.parameter_sets.push_back({{"W_Q", padded_transpose(*set["query"], 1.0)},
                                {"W_K", padded_transpose(*set["key"], 1.0)},
                                {"W_V", padded_transpose(*set["value"], 1.0)},
                                {"P", P}});
  }
  w.provenance.push_back(fmt::format(
      "read from {} (layout vonoswald_haiku: von Oswald et al.'s Transformer, {} layer(s){}, "
      "d {}): W_Q = query.w^T, W_K = key.w^T, W_V = value.w^T, P = {} linear.w^T{} (Haiku's "
      "x @ w, tokens as rows; docs/weights.md)",
      ts.file(), L, tied ? ", one shared set (multi_head_attention)" : "", D - 1, dampening,
      y_update ? " with its x-rows zeroed (y_update)" : ""));
  read_data_model(w, j, src, limits, {"uniform"},
                  "von Oswald et al.'s create_reg_data (x ~ U(-1, 1)^d at input_range 2, w ~ "
                  "N(0, I) at w_scale 1)");
  for (const char* key : {"input_range", "weight_scale"}) {
    const double want = key[0] == 'i' ? 2.0 : 1.0;
    if (j["data"].contains(key) &&
        !(j["data"][key].is_number() && j["data"][key].get<double>() == want))
      fail(src, fmt::format("data.{} must be {} (compare draws x ~ U(-1, 1)^d, w ~ N(0, I))", key,
                            want));
  }
}

}  // namespace

std::string peer_tensor_file_path(const nlohmann::json& j, const std::string& sidecar_path) {
  const std::string& src = sidecar_path;
  if (!j.contains("schema_version") || j["schema_version"] != 1)
    fail(src, "schema_version must be 1");
  const std::string layout = string_field(j, "layout", src);
  if (std::find(peer_layouts.begin(), peer_layouts.end(), layout) == peer_layouts.end())
    fail(src, fmt::format("unknown layout '{}' (known: {}; docs/weights.md)", layout,
                          fmt::join(peer_layouts, ", ")));
  const std::string rel = string_field(j, "weights", src);
  const std::filesystem::path tensor_file =
      std::filesystem::path(sidecar_path).parent_path() / std::filesystem::path(rel);
  std::error_code ec;
  if (std::filesystem::equivalent(tensor_file, sidecar_path, ec))
    fail(src, fmt::format("its 'weights' ({}) names this sidecar itself: it must name the tensor "
                          "file (.pt, .npz or .safetensors) the sidecar describes",
                          rel));
  return tensor_file.string();
}

weights_file read_peer_model(const nlohmann::json& j, const std::string& sidecar_path,
                             const std::string& tensor_file,
                             std::map<std::string, peer_tensor> tensors,
                             const weights_limits& limits) {
  const std::string& src = sidecar_path;
  const std::string layout = string_field(j, "layout", src);
  if (std::find(peer_layouts.begin(), peer_layouts.end(), layout) == peer_layouts.end())
    fail(src, fmt::format("unknown layout '{}' (known: {}; docs/weights.md)", layout,
                          fmt::join(peer_layouts, ", ")));
  tensor_set ts(std::move(tensors), tensor_file, src);
  weights_file w;
  w.source = sidecar_path;
  w.schema_version = supported_weights_schema_version;
  w.preset = "peer:" + layout;
  if (layout == "ahn_allparam") read_ahn_allparam(w, ts, j, src, limits);
  if (layout == "memformer_cgd") read_memformer_cgd(w, ts, j, src, limits);
  if (layout == "memformer_lfom") read_memformer_lfom(w, ts, j, src, limits);
  if (layout == "vonoswald_haiku") read_vonoswald_haiku(w, ts, j, src, limits);
  return w;
}

}  // namespace iclproof
