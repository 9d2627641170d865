// A generic linear self-attention (LSA) layer on tokens (von Oswald et al. 2023, section 2;
// CONSTRUCTIONS.md section 1). It knows nothing about gradient descent: the constructions of
// lsa/vonoswald_weights.hpp are weights fed to it.
//
// Tokens are the columns e_j of a D x M token matrix E (D = d + o for the regression prompts);
// the first n_context columns are the context, the rest are query tokens. One head with key and
// query maps W_K, W_Q (h x D), value map W_V (v x D) and projection P (D x v) updates every token,
// query tokens included:
//     e_j <- e_j + sum_heads P (sum_{i in keys} (W_V e_i) (W_K e_i)^T) (W_Q e_j)
// (proofs/VonOswald.v:lsa_tokenwise). There is no 1/N factor outside the heads: a construction
// that wants one puts it into P (Prop. 1 uses P = (eta/N) I). The keys/values are
//   masked:   the n_context context tokens only (the query tokens are not keys/values);
//   unmasked: every token, the query tokens included.
// All heads read the layer's input (parallel update), and the residual is added once.
//
// Cost: per head the v x h matrix A = sum_i v_i k_i^T is formed ONCE from the keys (n_keys (v + h)
// D + n_keys v h multiply-adds), then P A (D v h) and (P A)(W_Q E) (D h M plus h D M for W_Q E):
// O(N D^2) for h, v <= D, never an M x M attention matrix. Products go through core/linalg.hpp's
// kernels.
#pragma once

#include "core/linalg.hpp"

#include <vector>

namespace iclproof {

template <class T>
struct lsa_head {
  Mat<T> W_K;  // h x D
  Mat<T> W_Q;  // h x D
  Mat<T> W_V;  // v x D
  Mat<T> P;    // D x v
};

enum class lsa_mask {
  context_keys,  // masked: keys/values are the context tokens only
  all_keys,      // unmasked: every token, queries included, is a key/value
};

template <class T>
struct lsa_layer {
  std::vector<lsa_head<T>> heads;  // their updates are summed
  lsa_mask mask = lsa_mask::context_keys;
};

// K layers, each with its own weights, applied in order.
template <class T>
struct lsa_stack {
  std::vector<lsa_layer<T>> layers;
};

// Throws std::invalid_argument (one line) unless every head's matrices fit tokens of dimension
// E.rows() and 0 <= n_context <= E.cols() (a masked layer needs n_context >= 1).
template <class T>
void check_lsa_shapes(const lsa_layer<T>& layer, const Mat<T>& E, Eigen::Index n_context);

// The update of one head, P (sum_{i in keys} v_i k_i^T) (W_Q E), without the residual.
template <class T>
Mat<T> lsa_head_update(const lsa_head<T>& head, const Mat<T>& E, Eigen::Index n_keys);

// E + sum_heads update: the layer's output token matrix.
template <class T>
Mat<T> lsa_layer_forward(const lsa_layer<T>& layer, const Mat<T>& E, Eigen::Index n_context);

// E_0 = E, E_{k+1} = layer_k(E_k): K + 1 token matrices.
template <class T>
std::vector<Mat<T>> lsa_stack_forward(const lsa_stack<T>& stack, const Mat<T>& E,
                                      Eigen::Index n_context);

// A recurrent stack: the same layer applied K times; K + 1 token matrices.
template <class T>
std::vector<Mat<T>> lsa_recurrent_forward(const lsa_layer<T>& layer, const Mat<T>& E,
                                          Eigen::Index n_context, int K);

}  // namespace iclproof
