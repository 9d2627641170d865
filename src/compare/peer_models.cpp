#include "compare/peer_models.hpp"

#include "compare/ahn_full_model.hpp"
#include "compare/peer_model_sidecar.hpp"

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

}  // namespace

namespace peer_sidecar {

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

std::string shape_text(const peer_tensor& t) {
  return fmt::format("({})", fmt::join(t.shape, ", "));
}

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

}  // namespace peer_sidecar

using namespace peer_sidecar;

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
