// The trained models of iclproof-train and the task distributions they train on (LibTorch).
//
// Conventions (CONSTRUCTIONS.md sections 1-4): a batch holds B independent in-context tasks;
// X is B x d x N (columns are examples), y is B x N, the query x_q is B x d, its target y_q is B.
// Every model returns the prediction for the query. The loss is
//     loss = (1/2) mean_b (y_hat_b - y_q,b)^2.
//
// lsa (von Oswald et al. 2023): tokens e_j = (x_j, y_j) in R^(d+1), query token (x_q, 0); each
//   layer updates every token (query included) from the layer's input, summing over the N
//   context tokens only:   e_j <- e_j + P sum_i (W_V e_i)(W_K e_i)^T (W_Q e_j)
//   i.e. E <- E + (P W_V) C (W_K^T W_Q) E with C = sum_i e_i e_i^T. Read-out y_hat = -(y-part of
//   the query token) after the last layer. Parameters per layer: W_K, W_Q, W_V, P ((d+1)x(d+1));
//   `tied` applies one set `layers` times (recurrent).
// ahn_linear (Ahn et al. Lemma 1, B_l = 0): Z_{l+1} = Z_l + (1/N) P Z M Z^T Q Z with
//   P = [[0,0],[0,1]], Q = -[[A_l,0],[0,0]]: only the last row changes,
//   y_row <- y_row - (1/N) (y_ctx X^T) A_l [X, x_q];   y_hat = -y_row[query]. Parameters: A_l (d x
//   d).
// memformer_cgd (Memformer eqs 17-18, A_l = I): R_l = Attn(Z_l) + gamma_l R_{l-1} (gamma_0 = 0,
//   not trained), Z_{l+1} = Z_l + (alpha_l / N) R_l. Parameters: alpha_l, gamma_l (scalars).
// memformer_lfom (Memformer eqs 19-20, Gamma_j^l = Gamma_j scalar, as in the paper's runs):
//   R_l = Attn_{A_l}(Z_l), Z_{l+1} = Z_l + (1/N) sum_{j<=l} Gamma_j R_j. Parameters: A_l, Gamma_l.
#pragma once

#include "trainer/experiment_config.hpp"

#include <torch/torch.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace iclproof::trainer {

struct task_batch {
  torch::Tensor X;   // B x d x N
  torch::Tensor y;   // B x N
  torch::Tensor xq;  // B x d
  torch::Tensor yq;  // B
};

// Mixes a seed and a stream index into a new seed (SplitMix64 finaliser): the tasks of step t
// depend only on (seed, t), so a resumed run sees exactly the tasks of an uninterrupted one.
std::uint64_t mix_seed(std::uint64_t seed, std::uint64_t stream);

class task_sampler {
 public:
  task_sampler(const experiment_settings& s, torch::Device device, torch::Dtype dtype);
  // B fresh tasks drawn from the stream `stream_seed` (seeds torch's global generators).
  task_batch sample(std::uint64_t stream_seed, int batch) const;
  // Anisotropic inputs: Sigma = U^T D U (double, CPU); undefined tensors otherwise.
  const torch::Tensor& sigma() const { return sigma_; }
  const torch::Tensor& rotation() const { return rotation_; }

 private:
  experiment_settings s_;
  torch::Device device_;
  torch::Dtype dtype_;
  torch::Tensor rotation_, sigma_, sigma_sqrt_, sigma_inv_sqrt_;  // double, CPU
  torch::Tensor sigma_sqrt_dev_, sigma_inv_sqrt_dev_;             // on device, dtype
};

using named_tensors = std::vector<std::pair<std::string, torch::Tensor>>;

class icl_model {
 public:
  // Initial weights drawn from the settings' seed.
  icl_model(const experiment_settings& s, torch::Device device, torch::Dtype dtype);

  // Prediction for the query after the last layer (B).
  torch::Tensor predict(const task_batch& t) const;
  // Prediction after each layer (layers entries of B).
  std::vector<torch::Tensor> predict_per_layer(const task_batch& t) const;

  std::vector<torch::Tensor> parameters() const;
  // The trainable tensors whose name is in `names`, in parameter-set order (a training stage's
  // parameter groups; memformer_cgd's gamma_0 is never trainable).
  std::vector<torch::Tensor> parameters_named(const std::vector<std::string>& names) const;
  // Parameter sets in order (one per layer, or one if tied), each a list of (name, tensor).
  const std::vector<named_tensors>& parameter_sets() const { return sets_; }
  // Overwrites the values (shapes must agree); used by resume and by tests.
  void assign(const std::vector<named_tensors>& values);
  const experiment_settings& settings() const { return s_; }

 private:
  std::vector<torch::Tensor> forward(const task_batch& t, bool every_layer) const;
  experiment_settings s_;
  std::vector<named_tensors> sets_;
};

torch::Tensor regression_loss(const torch::Tensor& prediction, const torch::Tensor& target);

torch::Device resolve_device(const std::string& name);  // "auto" | "cpu" | "cuda"
torch::Dtype resolve_dtype(const std::string& name);    // "float32" | "float64"

}  // namespace iclproof::trainer
