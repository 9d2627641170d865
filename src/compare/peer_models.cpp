#include "compare/peer_models.hpp"

#include "compare/ahn_full_model.hpp"

#include <fmt/format.h>
#include <Eigen/Core>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

namespace iclproof {

namespace {

[[noreturn]] void fail(const std::string& source, const std::string& what) {
  std::string msg = fmt::format("peer model {}: {}", source, what);
  for (char& c : msg)
    if (c == '\n' || c == '\r') c = ' ';
  throw weights_file_error(msg);
}

std::uint64_t little_endian_u64(std::string_view b) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b[std::size_t(i)]);
  return v;
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

}  // namespace

std::map<std::string, peer_tensor> parse_safetensors(std::string_view bytes,
                                                     const std::string& source,
                                                     const weights_limits& limits) {
  static_assert(std::endian::native == std::endian::little,
                "safetensors data are little-endian; this reader copies them as they are");
  if (bytes.size() > limits.max_bytes)
    fail(source,
         fmt::format("{} bytes, more than the limit of {}", bytes.size(), limits.max_bytes));
  if (bytes.size() < 8) fail(source, "shorter than the 8-byte safetensors header length");
  const std::uint64_t n = little_endian_u64(bytes);
  if (n > bytes.size() - 8)
    fail(source, fmt::format("header length {} exceeds the file ({} bytes)", n, bytes.size()));
  // Bounded nesting before parsing: a deeply nested value is destroyed recursively.
  const int max_depth = nesting_depth(bytes.substr(8, std::size_t(n)), limits.max_nesting);
  if (max_depth > limits.max_nesting)
    fail(source,
         fmt::format("safetensors header nested deeper than {} levels", limits.max_nesting));
  nlohmann::json header;
  try {
    const std::string_view text = bytes.substr(8, std::size_t(n));
    header = nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::exception& e) {
    fail(source, fmt::format("safetensors header is not valid JSON: {}", e.what()));
  }
  if (!header.is_object()) fail(source, "safetensors header is not a JSON object");
  const std::string_view data = bytes.substr(8 + std::size_t(n));
  std::map<std::string, peer_tensor> out;
  for (const auto& [name, t] : header.items()) {
    if (name == "__metadata__") continue;
    const std::string where = "tensor '" + name + "'";
    if (!t.is_object() || !t.contains("dtype") || !t["dtype"].is_string() || !t.contains("shape") ||
        !t["shape"].is_array() || !t.contains("data_offsets") || !t["data_offsets"].is_array() ||
        t["data_offsets"].size() != 2)
      fail(source, where + ": expected {dtype, shape, data_offsets}");
    const std::string dtype = t["dtype"].get<std::string>();
    const std::size_t width = dtype == "F32" ? 4 : dtype == "F64" ? 8 : 0;
    if (width == 0) fail(source, where + ": dtype " + dtype + " (this reader takes F32 and F64)");
    peer_tensor pt;
    std::uint64_t count = 1;
    for (const auto& s : t["shape"]) {
      if (!s.is_number_unsigned() || s.get<std::uint64_t>() > (std::uint64_t{1} << 31))
        fail(source, where + ": shape entries must be non-negative integers below 2^31");
      count *= s.get<std::uint64_t>();
      if (count > limits.max_bytes) fail(source, where + ": more entries than the size limit");
      pt.shape.push_back(static_cast<std::int64_t>(s.get<std::uint64_t>()));
    }
    const auto& off = t["data_offsets"];
    if (!off[0].is_number_unsigned() || !off[1].is_number_unsigned())
      fail(source, where + ": data_offsets must be non-negative integers");
    const std::uint64_t begin = off[0].get<std::uint64_t>(), end = off[1].get<std::uint64_t>();
    if (begin > end || end > data.size() || end - begin != count * width)
      fail(source, fmt::format("{}: data_offsets [{}, {}) do not hold {} {} values in {} bytes",
                               where, begin, end, count, dtype, data.size()));
    pt.data.resize(std::size_t(count));
    for (std::size_t i = 0; i < count; ++i) {
      const char* p = data.data() + begin + i * width;
      double v;
      if (width == 4) {
        float f;
        std::memcpy(&f, p, 4);
        v = f;  // exact
      } else {
        std::memcpy(&v, p, 8);
      }
      if (!std::isfinite(v)) fail(source, fmt::format("{}: entry {} is not finite", where, i));
      pt.data[i] = v;
    }
    out.emplace(name, std::move(pt));
  }
  return out;
}

weights_file read_peer_model(const nlohmann::json& j, const std::string& sidecar_path,
                             const weights_limits& limits) {
  const std::string& src = sidecar_path;
  if (!j.contains("schema_version") || j["schema_version"] != 1)
    fail(src, "schema_version must be 1");
  const std::string layout = string_field(j, "layout", src);
  if (layout != "ahn_allparam")
    fail(src, fmt::format("unknown layout '{}' (known: ahn_allparam; docs/weights.md)", layout));
  const std::string rel = string_field(j, "weights", src);
  const std::filesystem::path tensor_path =
      std::filesystem::path(sidecar_path).parent_path() / std::filesystem::path(rel);
  const std::string tensor_file = tensor_path.string();
  const std::string ext = tensor_path.extension().string();
  if (ext == ".pt" || ext == ".pth")
    fail(src, fmt::format("{}: PyTorch pickle checkpoints are not read by this build; save the "
                          "state_dict as safetensors (safetensors.torch.save_file) and name that",
                          tensor_file));
  if (ext != ".safetensors")
    fail(src, fmt::format("{}: expected a .safetensors file", tensor_file));
  const std::map<std::string, peer_tensor> tensors =
      parse_safetensors(read_model_file_bytes(tensor_file, limits), tensor_file, limits);
  const std::string name = j.contains("tensor") ? string_field(j, "tensor", src) : "allparam";
  const auto it = tensors.find(name);
  if (it == tensors.end()) fail(src, fmt::format("{} has no tensor '{}'", tensor_file, name));
  if (tensors.size() != 1)
    fail(src, fmt::format("{} holds {} tensors; Transformer_F's state_dict holds allparam only: "
                          "refusing to leave any out",
                          tensor_file, tensors.size()));
  const peer_tensor& t = it->second;
  if (t.shape.size() != 5 || t.shape[2] != 2 || t.shape[3] != t.shape[4] || t.shape[0] < 1 ||
      t.shape[1] < 1 || t.shape[3] < 1)
    fail(src, fmt::format("tensor '{}' has shape [{}]; ahn_allparam is (n_layer, n_head, 2, d, d)",
                          name, fmt::join(t.shape, ", ")));
  const int L = int(t.shape[0]), H = int(t.shape[1]), d = int(t.shape[3]);
  if (L > limits.max_layers || d > limits.max_d)
    fail(src, fmt::format("n_layer {} or d {} beyond the limits ({}, {})", L, d, limits.max_layers,
                          limits.max_d));
  auto block = [&](int l, int h, int which) {  // allparam[l, h, which] as a d x d matrix
    Eigen::MatrixXd m(d, d);
    const std::size_t base = ((std::size_t(l) * H + h) * 2 + which) * std::size_t(d) * d;
    for (int r = 0; r < d; ++r)
      for (int c = 0; c < d; ++c) m(r, c) = t.data[base + std::size_t(r) * d + c];
    return m;
  };

  weights_file w;
  w.source = sidecar_path;
  w.schema_version = supported_weights_schema_version;
  w.experiment = "ahn_linear_transformer";
  w.preset = "peer:ahn_allparam";
  w.kind = learned_model_kind::ahn_linear;
  w.d = d;
  w.layers = L;
  w.provenance.push_back(fmt::format(
      "read from {} (layout ahn_allparam: Ahn et al.'s Transformer_F, n_layer {}, n_head {}, "
      "d {}): A_l = -sum_h Q_(l,h)^T (tokens as rows, docs/weights.md)",
      tensor_file, L, H, d));
  // A P != 0 before the last layer makes the x-parts change from layer to layer, which later
  // layers read: the full linear transformer (compare/ahn_full_model.hpp), read with every P
  // and Q as they are; never dropped.
  bool full = false;
  for (int l = 0; l + 1 < L; ++l)
    for (int h = 0; h < H; ++h) full = full || block(l, h, 0).norm() != 0;
  if (full) {
    w.kind = learned_model_kind::ahn_full_linear;
    w.experiment = "ahn_full_linear_transformer";
    w.parameter_sets = ahn_full_parameter_sets(block, L, H);
    w.provenance.back() = fmt::format(
        "read from {} (layout ahn_allparam: Ahn et al.'s Transformer_F, n_layer {}, n_head {}, "
        "d {}) with P != 0 before the last layer: the full linear transformer, P_h = "
        "allparam[l, h, 0] and Q_h = allparam[l, h, 1]^T in the paper's column form (tokens as "
        "rows in the peer's code, docs/weights.md)",
        tensor_file, L, H, d);
  }
  for (int l = 0; l < L && !full; ++l) {
    Eigen::MatrixXd A = Eigen::MatrixXd::Zero(d, d);
    for (int h = 0; h < H; ++h) {
      const Eigen::MatrixXd P = block(l, h, 0);
      const double p_norm = P.norm();
      if (p_norm != 0)
        w.provenance.push_back(fmt::format(
            "layer {} head {}: P != 0 (||P||_F = {:.6g}) in the last layer, where it updates only "
            "x-parts that no later layer reads: it does not act on the prediction",
            l + 1, h + 1, p_norm));
      A -= block(l, h, 1).transpose();
    }
    w.parameter_sets.push_back({{"A", A}});
  }

  if (!j.contains("data") || !j["data"].is_object()) fail(src, "missing object 'data'");
  const auto& data = j["data"];
  if (!data.contains("N") || !data["N"].is_number_unsigned() ||
      data["N"].get<std::uint64_t>() < 1 ||
      data["N"].get<std::uint64_t>() > std::uint64_t(limits.max_N))
    fail(src, fmt::format("data.N must be an integer in [1, {}]", limits.max_N));
  w.N = int(data["N"].get<std::uint64_t>());
  w.inputs = string_field(data, "inputs", src);
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
  } else if (w.inputs != "gaussian") {
    fail(src, fmt::format("data.inputs '{}' (Ahn et al.'s generate_data: gaussian, or "
                          "anisotropic with U and D)",
                          w.inputs));
  }
  // The data model is checked as in a weights file (the same function).
  if (w.inputs == "anisotropic")
    if (const std::string defect = sigma_defect(w.Sigma); !defect.empty())
      fail(src, "Sigma " + defect);
  return w;
}

}  // namespace iclproof
