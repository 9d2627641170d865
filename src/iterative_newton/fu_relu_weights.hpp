// Fu, Chen, Jia, Sharan (NeurIPS 2024), Theorem 5.1 as App. B.2 builds it, on the generic
// ReLU-attention and MLP layers (lsa/relu_layers.hpp): full attention with ReLU scores, one
// attention layer and one MLP per Newton step, weights that do not depend on the prompt
// (docs/constructions/iterative_newton.md quotes App. B.2 and lists every difference).
//
// Tokens: one per example, in this order: n context tokens (x_i; x_i-slot u = 0; y_i; 0) and Q
// query tokens (x_q; 0; 0; 0). Row blocks u (d: the paper's top block, T x_t), x (d), y (1),
// p (1: the prediction): D = 2d + 2. Every attention layer has the context tokens as its keys and
// no 1/n factor (relu_attention_scale::none: the paper's 1/n in front of the sum and its n in
// V (eq. 22) or in Q (the -n/2 of eq. 27) cancel; without them no weight depends on n).
// s(a) = sigma(a) - sigma(-a) = a: two ReLU heads with opposite queries and opposite values
// (the paper prints V_1 = V_2, which gives sigma(a) + sigma(-a) = |a|: the erratum
// `iterative_newton.app_b2_relu_heads_need_opposite_values`).
//   block 1 (mov, eq. 20):   MLP u += s(x)                               [u; x] = [x; x]
//   block 2 (eq. 21-22):     two heads, scores +-x_t^T x_j, values +-alpha u_j:
//                            u += alpha sum_j x_j x_j^T x_t = alpha S x_t
//   block 3 (aff, eq. 23):   MLP u -= s(x)                               u = alpha S x_t = T_0 x_t
//   blocks 4..k+3 (eq. 27-30): two heads, scores +-(-1/2) x_t^T u_j, values +-u_j:
//                            u += -(1/2) sum_j (T x_j)(T x_j)^T x_t = -(1/2) T S T^T x_t,
//                            then the MLP u += s(u) (doubling): u = (2T - T S T) x_t (T = T^T)
//   block k+4 (read-out):    two heads, scores +-x_t^T u_j, values +-y_j into p:
//                            p += sum_j (x_t^T T_k x_j) y_j = x_t^T M_k X y
// k + 4 blocks: the paper's 3 set-up layers and k Newton layers as printed; the paper's 5
// read-out layers (mov, mul, sum, mov, mul with Akyurek et al.'s primitives; a product of two
// entries of one token is not exact with ReLU layers) are one exact attention block here.
// alpha is a weight fixed for a data class (the property's class: fu_class_alpha), never read
// off the prompt.
#pragma once

#include "lsa/relu_layers.hpp"

namespace iclproof {

struct fu_relu_rows {
  Eigen::Index d;
  Eigen::Index u() const { return 0; }
  Eigen::Index x() const { return d; }
  Eigen::Index y() const { return 2 * d; }
  Eigen::Index p() const { return 2 * d + 1; }
  Eigen::Index D() const { return 2 * d + 2; }
};

// X (d x n), y (1 x n), queries Xq (d x Q). Throws std::invalid_argument on bad shapes.
template <class T>
Mat<T> fu_relu_tokens(const Mat<T>& X, const Mat<T>& y, const Mat<T>& Xq);

// The blocks; run with n_context = n.
template <class T>
relu_transformer_block<T> fu_relu_copy_block(Eigen::Index d, const T& sign);  // u += sign x
template <class T>
relu_transformer_block<T> fu_relu_init_block(Eigen::Index d, const T& alpha);
template <class T>
relu_transformer_block<T> fu_relu_newton_block(Eigen::Index d);
template <class T>
relu_transformer_block<T> fu_relu_readout_block(Eigen::Index d);

// 3 set-up blocks, k Newton blocks, 1 read-out block. k >= 0, alpha a weight.
template <class T>
relu_transformer<T> fu_relu_transformer(Eigen::Index d, int k, const T& alpha);

// The u block of the context tokens (d x n: T x_j) and the queries' p entries (1 x Q).
template <class T>
Mat<T> fu_relu_context_u(const Mat<T>& E, Eigen::Index d, Eigen::Index n);
template <class T>
Mat<T> fu_relu_predictions(const Mat<T>& E, Eigen::Index d, Eigen::Index n);

}  // namespace iclproof
