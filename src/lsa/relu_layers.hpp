// Generic ReLU-attention and MLP layers (Bai et al. 2023, "Transformers as Statisticians",
// arXiv 2306.04637, Definitions 1-3; docs/constructions/bai.md), templated on the scalar like the
// LSA layer beside them (lsa/lsa_layer.hpp). They know nothing about any algorithm: the
// constructions (src/bai, the Newton transformer of Fu et al.) are weights fed to them. They live
// in src/lsa, the lowest construction layer (it uses core only), so every construction folder may
// use them without a new include edge (cmake/check_include_layers.cmake).
//
// STABLE API (other families depend on it: do not change these signatures; add, never alter).
//
// Tokens are the columns h_i of a D x M token matrix H; the first n_context columns are the
// context, the rest are query tokens. sigma(t) = max(0, t) (relu below).
//
// * relu_attention_layer: heads m = 1..H_m, each with Q_m, K_m (k x D, any k >= 0) and V_m (D x D):
//       h_i <- h_i + sum_m c_i sum_{j in keys(i)} sigma(<Q_m h_i, K_m h_j>) V_m h_j
//   keys(i) = relu_attention_keys:
//       all_tokens      every token j = 1..M (the paper's encoder, Definition 1);
//       context_tokens  the n_context context tokens only (the query tokens are not keys);
//       causal          j = 1..i (the paper's decoder form, Definition 3: token i sees j <= i).
//   c_i = relu_attention_scale:
//       inverse_context_count  1 / n_context (Definition 1's 1/N, N the number of in-context
//                              examples; needs n_context >= 1);
//       inverse_key_count      1 / |keys(i)| (1/M, 1/n_context, or 1/i for causal);
//       none                   1 (a construction puts any factor into V_m).
//   All heads read the layer's input (parallel update); the residual is added once.
// * mlp_layer: W_1 (D' x D, any D' >= 0), optional b_1 (size D' or 0 = no bias), W_2 (D x D'),
//   optional b_2 (size D or 0):
//       h_i <- h_i + W_2 sigma(W_1 h_i + b_1) + b_2          (Definition 2; b_2 outside sigma)
//   The paper has no biases (a constant-1 token coordinate carries them); b_1, b_2 are there for
//   constructions that prefer them.
// * relu_transformer_block = attention then MLP (the paper's TF layer, MLP o Attn);
//   relu_transformer = blocks applied in order; relu_transformer_forward returns the L + 1 token
//   matrices H_0 = H, H_l = MLP_l(Attn_l(H_{l-1})).
// * relu(x): max(0, x). Exact for double/long double/MPFR/rationals (no rounding: it returns
//   one of its arguments); for an MPFI interval [a, b] it is the enclosure [max(0, a), max(0, b)]
//   (core/interval.hpp: hull_max), never an ambiguous comparison.
//
// Bad shapes: std::invalid_argument with one line naming the matrix and both shapes.
//
// Rounding: each score <Q_m h_i, K_m h_j> is a dot product of length k of two products of length
// D (Q_m h_i and K_m h_j are formed first); sigma is exact; the sum over keys is a plain sum of
// |keys(i)| terms V_m h_j * sigma(..) (each V_m h_j a dot product of length D), then the scale.
// Cost per head: O(M D (k + D) + M^2 (k + D)): the M x |keys| score matrix is formed (ReLU is
// not bilinear, so the LSA's O(N D^2) reassociation does not apply).
#pragma once

#include "core/interval.hpp"
#include "core/linalg.hpp"

#include <vector>

namespace iclproof {

// sigma(x) = max(0, x); the interval enclosure [max(0, a), max(0, b)] for intervals.
template <class T>
T relu(const T& x) {
  return max_of(T(0), x);
}

// sigma applied to every entry.
template <class T>
Mat<T> relu(const Mat<T>& A) {
  Mat<T> out(A.rows(), A.cols());
  for (Eigen::Index j = 0; j < A.cols(); ++j)
    for (Eigen::Index i = 0; i < A.rows(); ++i) out(i, j) = relu(T(A(i, j)));
  return out;
}

template <class T>
struct relu_attention_head {
  Mat<T> Q;  // k x D
  Mat<T> K;  // k x D
  Mat<T> V;  // D x D
};

enum class relu_attention_keys {
  all_tokens,      // every token is a key/value (encoder)
  context_tokens,  // the n_context context tokens only
  causal,          // token i sees tokens 1..i (decoder)
};

enum class relu_attention_scale {
  inverse_context_count,  // 1 / n_context (the paper's 1/N)
  inverse_key_count,      // 1 / (number of keys token i sees)
  none,                   // 1
};

template <class T>
struct relu_attention_layer {
  std::vector<relu_attention_head<T>> heads;  // their updates are summed
  relu_attention_keys keys = relu_attention_keys::all_tokens;
  relu_attention_scale scale = relu_attention_scale::inverse_context_count;
};

template <class T>
struct mlp_layer {
  Mat<T> W1;  // D' x D
  Vec<T> b1;  // D' or empty (no bias)
  Mat<T> W2;  // D x D'
  Vec<T> b2;  // D or empty (no bias)
};

template <class T>
struct relu_transformer_block {
  relu_attention_layer<T> attention;  // no heads: the identity
  mlp_layer<T> mlp;                   // W1 with 0 rows (and no b2): the identity
};

template <class T>
struct relu_transformer {
  std::vector<relu_transformer_block<T>> blocks;
};

// Throw std::invalid_argument (one line) unless the weights fit tokens of dimension E.rows() and
// 0 <= n_context <= E.cols() (n_context >= 1 where the keys or the scale need context tokens).
template <class T>
void check_relu_attention_shapes(const relu_attention_layer<T>& layer, const Mat<T>& E,
                                 Eigen::Index n_context);
template <class T>
void check_mlp_shapes(const mlp_layer<T>& layer, const Mat<T>& E);

// The update of one head, sum_{j in keys(i)} c_i sigma(<Q h_i, K h_j>) V h_j for every token i
// (D x M), without the residual.
template <class T>
Mat<T> relu_attention_head_update(const relu_attention_head<T>& head, const Mat<T>& E,
                                  Eigen::Index n_context, relu_attention_keys keys,
                                  relu_attention_scale scale);

// E + sum_heads update.
template <class T>
Mat<T> relu_attention_forward(const relu_attention_layer<T>& layer, const Mat<T>& E,
                              Eigen::Index n_context);

// E + W2 sigma(W1 E + b1) + b2.
template <class T>
Mat<T> mlp_forward(const mlp_layer<T>& layer, const Mat<T>& E);

// MLP(Attn(E)).
template <class T>
Mat<T> relu_transformer_block_forward(const relu_transformer_block<T>& block, const Mat<T>& E,
                                      Eigen::Index n_context);

// H_0 = E, H_l = block_l(H_{l-1}): blocks.size() + 1 token matrices.
template <class T>
std::vector<Mat<T>> relu_transformer_forward(const relu_transformer<T>& tf, const Mat<T>& E,
                                             Eigen::Index n_context);

}  // namespace iclproof
