// von Oswald et al.'s Haiku parameter tree as a peer model: layout vonoswald_haiku
// (compare/peer_models.hpp).
#include "compare/peer_model_sidecar.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <string>

namespace iclproof::peer_sidecar {

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

}  // namespace iclproof::peer_sidecar
