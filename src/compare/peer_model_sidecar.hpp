// What the per-layout readers of peer models share (compare/peer_models.cpp,
// peer_models_memformer.cpp, peer_models_haiku.cpp): the sidecar's fields, the tensor set every
// layout must use up, allparam's view, the data model. Internal to src/compare.
#pragma once

#include "compare/peer_models.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <Eigen/Core>

#include <set>
#include <string>
#include <vector>

namespace iclproof::peer_sidecar {

[[noreturn]] void fail(const std::string& source, const std::string& what);

// A d x d matrix given as nested JSON arrays of numbers.
Eigen::MatrixXd json_matrix(const nlohmann::json& j, int d, const std::string& source,
                            const std::string& what);

std::string string_field(const nlohmann::json& j, const char* key, const std::string& source);

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

std::string shape_text(const peer_tensor& t);

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
                            const weights_limits& limits);

// The data model of the sidecar (`data`): N, inputs and, for anisotropic inputs, Sigma or the
// peer's U and D. `allowed` lists the input kinds the layout's source draws.
void read_data_model(weights_file& w, const nlohmann::json& j, const std::string& src,
                     const weights_limits& limits, const std::vector<std::string>& allowed,
                     const std::string& source_name);

int run_mode_field(const nlohmann::json& j, const std::string& src);

// The readers of the layouts (one file each but Ahn's, which stays in peer_models.cpp).
void read_memformer_cgd(weights_file& w, tensor_set& ts, const nlohmann::json& j,
                        const std::string& src, const weights_limits& limits);
void read_memformer_lfom(weights_file& w, tensor_set& ts, const nlohmann::json& j,
                         const std::string& src, const weights_limits& limits);
void read_vonoswald_haiku(weights_file& w, tensor_set& ts, const nlohmann::json& j,
                          const std::string& src, const weights_limits& limits);

}  // namespace iclproof::peer_sidecar
