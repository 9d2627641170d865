#include "trainer/models.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace iclproof::trainer {

std::uint64_t mix_seed(std::uint64_t seed, std::uint64_t stream) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * (stream + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return (z ^ (z >> 31)) & ((std::uint64_t{1} << 63) - 1);  // torch seeds are taken as int64
}

torch::Device resolve_device(const std::string& name) {
  if (name == "cpu") return torch::kCPU;
  if (name == "cuda") {
    if (!torch::cuda::is_available())
      throw std::runtime_error("--device cuda: no CUDA device is available to this LibTorch");
    return torch::kCUDA;
  }
  if (name == "auto") return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  throw std::runtime_error(fmt::format("--device {}: want auto, cpu or cuda", name));
}

torch::Dtype resolve_dtype(const std::string& name) {
  if (name == "float32") return torch::kFloat32;
  if (name == "float64") return torch::kFloat64;
  throw std::runtime_error(fmt::format("dtype {}: want float32 or float64", name));
}

namespace {
constexpr std::uint64_t sigma_stream = 0x5167'6d61ull;  // "Sigma": the rotation U
constexpr std::uint64_t init_stream = 0x1d17ull;        // initial weights
}  // namespace

task_sampler::task_sampler(const experiment_settings& s, torch::Device device, torch::Dtype dtype)
    : s_(s), device_(device), dtype_(dtype) {
  if (s.inputs != input_kind::anisotropic) return;
  torch::NoGradGuard no_grad;
  torch::manual_seed(mix_seed(s.seed, sigma_stream));
  const auto cpu64 = torch::TensorOptions().dtype(torch::kFloat64).device(torch::kCPU);
  // A Haar-distributed orthogonal U: QR of a Gaussian matrix with the signs of diag(R) fixed.
  const torch::Tensor G = torch::randn({s.d, s.d}, cpu64);
  auto [Q, R] = torch::linalg_qr(G);
  rotation_ = Q * torch::sign(torch::diagonal(R)).unsqueeze(0);
  const torch::Tensor D = torch::tensor(s.sigma_diag, cpu64);
  const torch::Tensor U = rotation_;
  sigma_ = U.t().matmul(torch::diag(D)).matmul(U);
  sigma_ = 0.5 * (sigma_ + sigma_.t());  // exactly symmetric, as the weights-file reader demands
  sigma_sqrt_ = U.t().matmul(torch::diag(D.sqrt())).matmul(U);
  sigma_inv_sqrt_ = U.t().matmul(torch::diag(D.rsqrt())).matmul(U);
  sigma_sqrt_dev_ = sigma_sqrt_.to(device_, dtype_);
  sigma_inv_sqrt_dev_ = sigma_inv_sqrt_.to(device_, dtype_);
}

task_batch task_sampler::sample(std::uint64_t stream_seed, int batch) const {
  torch::NoGradGuard no_grad;
  torch::manual_seed(stream_seed);
  const auto opt = torch::TensorOptions().dtype(dtype_).device(device_);
  const int d = s_.d, N = s_.N;
  torch::Tensor Xall, w;
  switch (s_.inputs) {
    case input_kind::uniform:
      Xall = torch::rand({batch, d, N + 1}, opt) * 2 - 1;
      w = torch::randn({batch, d}, opt);
      break;
    case input_kind::gaussian:
      Xall = torch::randn({batch, d, N + 1}, opt);
      w = torch::randn({batch, d}, opt);
      break;
    case input_kind::anisotropic:
      Xall = torch::matmul(sigma_sqrt_dev_, torch::randn({batch, d, N + 1}, opt));
      w = torch::matmul(torch::randn({batch, d}, opt),
                        sigma_inv_sqrt_dev_);  // Sigma^-1/2 symmetric
      break;
  }
  const torch::Tensor yall = torch::bmm(w.unsqueeze(1), Xall).squeeze(1);  // B x (N+1)
  using torch::indexing::Slice;
  return {Xall.index({Slice(), Slice(), Slice(0, N)}).contiguous(),
          yall.index({Slice(), Slice(0, N)}).contiguous(),
          Xall.index({Slice(), Slice(), N}).contiguous(), yall.index({Slice(), N}).contiguous()};
}

icl_model::icl_model(const experiment_settings& s, torch::Device device, torch::Dtype dtype)
    : s_(s) {
  torch::manual_seed(mix_seed(s.seed, init_stream));
  const auto opt = torch::TensorOptions().dtype(dtype).device(device);
  const int D = s.d + 1;
  const int sets = s.tied ? 1 : s.layers;
  auto gaussian = [&](std::vector<int64_t> shape) {
    return (torch::randn(shape, opt) * s.init_std).set_requires_grad(true);
  };
  auto constant = [&](double v) { return torch::full({}, v, opt).set_requires_grad(true); };
  for (int l = 0; l < sets; ++l) {
    named_tensors p;
    switch (s.model) {
      case model_kind::lsa:
        p = {{"W_K", gaussian({D, D})},
             {"W_Q", gaussian({D, D})},
             {"W_V", gaussian({D, D})},
             {"P", gaussian({D, D})}};
        break;
      case model_kind::ahn_linear:
        p = {{"A", gaussian({s.d, s.d})}};
        break;
      case model_kind::memformer_cgd:
        // gamma_0 multiplies R_{-1} = 0: it has no effect and is not trained (kept at 0).
        p = {{"alpha", constant(s.alpha_init)},
             {"gamma", l == 0 ? torch::zeros({}, opt) : constant(s.gamma_init)}};
        break;
      case model_kind::memformer_lfom:
        p = {{"A", gaussian({s.d, s.d})}, {"Gamma", constant(s.lfom_gamma_init)}};
        break;
      case model_kind::gdpp_stack:
        p = {{"gamma", constant(s.gamma_init)}, {"eta", constant(s.alpha_init)}};
        break;
    }
    sets_.push_back(std::move(p));
  }
}

std::vector<torch::Tensor> icl_model::parameters() const {
  std::vector<torch::Tensor> out;
  for (const auto& set : sets_)
    for (const auto& [name, t] : set)
      if (t.requires_grad()) out.push_back(t);
  return out;
}

std::vector<torch::Tensor> icl_model::parameters_named(
    const std::vector<std::string>& names) const {
  std::vector<torch::Tensor> out;
  for (const auto& set : sets_)
    for (const auto& [name, t] : set)
      if (t.requires_grad() && std::find(names.begin(), names.end(), name) != names.end())
        out.push_back(t);
  return out;
}

void icl_model::assign(const std::vector<named_tensors>& values) {
  torch::NoGradGuard no_grad;
  if (values.size() != sets_.size())
    throw std::runtime_error(
        fmt::format("assign: {} parameter sets, model has {}", values.size(), sets_.size()));
  for (std::size_t l = 0; l < sets_.size(); ++l) {
    if (values[l].size() != sets_[l].size())
      throw std::runtime_error("assign: parameter count differs");
    for (std::size_t k = 0; k < sets_[l].size(); ++k) {
      auto& [name, t] = sets_[l][k];
      if (values[l][k].first != name || values[l][k].second.sizes() != t.sizes())
        throw std::runtime_error(
            fmt::format("assign: parameter {} of layer {} differs in name or shape", name, l));
      t.copy_(values[l][k].second);
    }
  }
}

torch::Tensor icl_model::predict(const task_batch& t) const { return forward(t, false).back(); }

std::vector<torch::Tensor> icl_model::predict_per_layer(const task_batch& t) const {
  return forward(t, true);
}

std::vector<torch::Tensor> icl_model::forward(const task_batch& t, bool every_layer) const {
  using torch::indexing::Slice;
  const int64_t B = t.X.size(0);
  const int d = s_.d, N = s_.N, L = s_.layers;
  const auto& param = [&](int l, int k) -> const torch::Tensor& {
    return sets_[s_.tied ? 0 : l][k].second;
  };
  std::vector<torch::Tensor> out;

  if (s_.model == model_kind::lsa) {
    // E: B x (d+1) x (N+1), columns are tokens; the last column is the query (x_q, 0).
    const torch::Tensor Xall = torch::cat({t.X, t.xq.unsqueeze(2)}, 2);
    const torch::Tensor yrow = torch::cat({t.y, torch::zeros({B, 1}, t.y.options())}, 1);
    torch::Tensor E = torch::cat({Xall, yrow.unsqueeze(1)}, 1);
    for (int l = 0; l < L; ++l) {
      const torch::Tensor PV = torch::matmul(param(l, 3), param(l, 2));      // P W_V
      const torch::Tensor KQ = torch::matmul(param(l, 0).t(), param(l, 1));  // W_K^T W_Q
      const torch::Tensor Ectx = E.index({Slice(), Slice(), Slice(0, N)});
      const torch::Tensor C = torch::bmm(Ectx, Ectx.transpose(1, 2));  // sum_i e_i e_i^T
      if (l == L - 1 && !every_layer) {
        // Only the query's y-part is read: row d of (P W_V) C (W_K^T W_Q) times e_q.
        const torch::Tensor eq = E.index({Slice(), Slice(), N});  // B x (d+1)
        const torch::Tensor r = torch::matmul(C, PV[d]);          // C symmetric: (PV_d^T C)^T
        const torch::Tensor u = torch::matmul(r, KQ);             // B x (d+1)
        out.push_back(-(eq.index({Slice(), d}) + (u * eq).sum(1)));
        return out;
      }
      const torch::Tensor M = torch::matmul(torch::matmul(PV, C), KQ);  // B x (d+1) x (d+1)
      E = E + torch::bmm(M, E);
      if (every_layer) out.push_back(-E.index({Slice(), d, N}));
    }
    if (out.empty()) out.push_back(-E.index({Slice(), d, N}));
    return out;
  }

  if (s_.model == model_kind::gdpp_stack) {
    // von Oswald's GD++ layer (CONSTRUCTIONS.md section 2) with its own (gamma_l, eta_l), both
    // scaled by 1/N (so that Adam's per-step move suits both: gamma_l/N ~ 1/lambda_max(S) and
    // eta_l/N are both O(1/N)); every token is updated from the layer's input:
    //   x_j <- x_j - (gamma_l / N) S x_j,  S = sum_i x_i x_i^T,
    //   y_j <- y_j - (eta_l / N) sum_i y_i x_i^T x_j  (sums over the N context tokens; the query's
    // y starts at 0); y_hat = -(query's y). The same map as the LSA layer with W_K = W_Q =
    // diag(I_d, 0), W_V = diag(-(gamma_l / N) I_d, -eta_l / N), P = I (gdpp_layer_as_lsa).
    torch::Tensor Xall = torch::cat({t.X, t.xq.unsqueeze(2)}, 2);  // B x d x (N+1)
    torch::Tensor yrow = torch::cat({t.y, torch::zeros({B, 1}, t.y.options())}, 1);
    for (int l = 0; l < L; ++l) {
      const torch::Tensor Xctx = Xall.index({Slice(), Slice(), Slice(0, N)});
      const torch::Tensor g =
          torch::bmm(yrow.index({Slice(), Slice(0, N)}).unsqueeze(1), Xctx.transpose(1, 2));
      const torch::Tensor y_next = yrow - (param(l, 1) / N) * torch::bmm(g, Xall).squeeze(1);
      if (l + 1 < L)
        Xall = Xall - (param(l, 0) / N) * torch::bmm(torch::bmm(Xctx, Xctx.transpose(1, 2)), Xall);
      yrow = y_next;
      if (every_layer || l == L - 1) out.push_back(-yrow.index({Slice(), N}));
    }
    return out;
  }

  // Z-form models: X never changes (B_l = 0); only the y-row (context y_i and query 0) evolves.
  const torch::Tensor Xall = torch::cat({t.X, t.xq.unsqueeze(2)}, 2);  // B x d x (N+1)
  const torch::Tensor Xt = t.X.transpose(1, 2);                        // B x N x d
  torch::Tensor yrow = torch::cat({t.y, torch::zeros({B, 1}, t.y.options())}, 1);
  // Attn_{P,Q}(Z) y-row with Q = -[[A,0],[0,0]]:  -(y_ctx X^T) A [X, x_q]  (no 1/N).
  auto attention_row = [&](const torch::Tensor& A) {
    const torch::Tensor u =
        torch::bmm(yrow.index({Slice(), Slice(0, N)}).unsqueeze(1), Xt);  // B x 1 x d
    const torch::Tensor v = A.defined() ? torch::matmul(u, A) : u;
    return -torch::bmm(v, Xall).squeeze(1);  // B x (N+1)
  };
  const double inv_n = 1.0 / N;
  torch::Tensor R_prev;
  std::vector<torch::Tensor> R_all;
  torch::Tensor memory;  // memformer_lfom: sum_{j<=l} Gamma_j R_j
  for (int l = 0; l < L; ++l) {
    switch (s_.model) {
      case model_kind::ahn_linear:
        yrow = yrow + inv_n * attention_row(param(l, 0));
        break;
      case model_kind::memformer_cgd: {
        torch::Tensor R = attention_row(torch::Tensor());
        if (l > 0) R = R + param(l, 1) * R_prev;
        yrow = yrow + (param(l, 0) * inv_n) * R;
        R_prev = R;
        break;
      }
      case model_kind::memformer_lfom: {
        const torch::Tensor R = attention_row(param(l, 0));
        memory = l == 0 ? param(l, 1) * R : memory + param(l, 1) * R;
        yrow = yrow + inv_n * memory;
        break;
      }
      case model_kind::lsa:
      case model_kind::gdpp_stack:
        break;
    }
    if (every_layer || l == L - 1) out.push_back(-yrow.index({Slice(), N}));
  }
  return out;
}

torch::Tensor regression_loss(const torch::Tensor& prediction, const torch::Tensor& target) {
  return 0.5 * (prediction - target).square().mean();
}

}  // namespace iclproof::trainer
