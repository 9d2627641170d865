// Fu, Chen, Jia, Sharan (NeurIPS 2024), Theorem 5.1 as App. B.2 builds it, on the generic
// ReLU-attention and MLP layers (lsa/relu_layers.hpp): full attention with ReLU scores, one
// attention layer and one MLP per Newton step, weights that do not depend on the prompt
// (docs/constructions/iterative_newton.md quotes App. B.2 and lists every difference). Two
// read-outs on the same set-up and Newton blocks:
//   * the paper's layout (fu_paper_transformer): k + 8 blocks, the paper's prompt format
//     {x_1, y_1, ..., x_n, y_n, x_test} (one token per x and per y), the 5 read-out layers of
//     eqs. 33-35 each doing the role the paper gives it (mov, mul, Lemma B.3's sum, mov, mul),
//     all exact ReLU-attention layers;
//   * the compact layout (fu_relu_transformer): k + 4 blocks, one token per example, one
//     attention block for the 5 read-out layers.
//
// Set-up and Newton blocks (both layouts). Keys: the context tokens; no 1/n factor
// (relu_attention_scale::none: the paper's 1/n in front of the sum and its n in V (eq. 22) or in
// Q (the -n/2 of eq. 27) cancel; without them no weight depends on n).
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
// In the paper's layout the label tokens have x = u = 0: as keys they add nothing, as queries
// they get nothing, so these blocks are the same weights there.
//
// Compact read-out, block k+4: two heads, scores +-x_t^T u_j, values +-y_j into p:
//   p += sum_j (x_t^T T_k x_j) y_j = x_t^T M_k X y.
//
// Paper read-out, blocks k+4..k+8 (attention only; t the token's column, 1-based):
//   R1 mov (eq. 33):  one head, score sigma(label_t - (t - 1 - j)^2): 1 from the previous
//                     column into a label token, 0 from every other key (integer positions);
//                     v += u_{t-1}: the label token of example j gets T x_j.
//   R2 mul (eq. 33):  two heads, scores +-y_t - Y (t - j)^2, values +-v_j into m: the own
//                     column gives sigma(y_t) - sigma(-y_t) = y_t, every other key a score
//                     <= |y_t| - Y <= 0 while |y_t| <= Y (Y a weight fixed by the data class,
//                     like alpha): m = y_j T x_j, exactly.
//   R3 sum (Lemma B.3, as printed: Q_1 = K_1 = Q_2 select the constant 1, K_2 = -K_1,
//                     V_1 = V_2; scores +-1, ReLU(1) + ReLU(-1) = 1): w += sum over the context
//                     keys of m = sum_j y_j T x_j = T X y, in every token.
//   R4 mov (eq. 35):  R1's head with the query flag: wq += w_{t-1} in the query token only.
//   R5 mul (eq. 35):  two heads, scores +-<x_t, wq_j>, values +-1 (the constant entry) into p:
//                     only the query token has wq != 0, so p += <x_test, w> there.
// 3 + k + 5 = k + 8 blocks, at most 2 heads each, width 6d + 7.
// alpha and Y are weights fixed for a data class (the properties' class: fu_class_alpha,
// fu_class_label_bound), never read off the prompt.
#pragma once

#include "lsa/relu_layers.hpp"

namespace iclproof {

// The row blocks of both layouts. The compact layout (k + 4 blocks) has u, x, y, p: D = 2d + 2.
// The paper's layout (k + 8 blocks, `paper_readout`) appends the rows its five read-out layers
// use: a constant 1, the position t and t^2 (t = 1, 2, ... the column), the flags "is a label
// token" and "is the query token", and four d-blocks: v (eq. 33's mov target: T x_j in the label
// token), m (eq. 33's mul: y_j T x_j), w (Lemma B.3's sum: T X y), wq (eq. 35's mov target: w in
// the query token): D = 6d + 7. The set-up and Newton blocks read and write u, x only, so they
// are the same weights in both layouts (padded to D).
struct fu_relu_rows {
  Eigen::Index d;
  bool paper_readout;
  explicit fu_relu_rows(Eigen::Index d_, bool paper_readout_ = false)
      : d(d_), paper_readout(paper_readout_) {}
  Eigen::Index u() const { return 0; }
  Eigen::Index x() const { return d; }
  Eigen::Index y() const { return 2 * d; }
  Eigen::Index p() const { return 2 * d + 1; }
  Eigen::Index one() const { return 2 * d + 2; }
  Eigen::Index pos() const { return 2 * d + 3; }
  Eigen::Index pos_sq() const { return 2 * d + 4; }
  Eigen::Index label() const { return 2 * d + 5; }
  Eigen::Index query() const { return 2 * d + 6; }
  Eigen::Index v() const { return 2 * d + 7; }
  Eigen::Index m() const { return 3 * d + 7; }
  Eigen::Index w() const { return 4 * d + 7; }
  Eigen::Index wq() const { return 5 * d + 7; }
  Eigen::Index D() const { return paper_readout ? 6 * d + 7 : 2 * d + 2; }
};

// X (d x n), y (1 x n), queries Xq (d x Q). Throws std::invalid_argument on bad shapes.
template <class T>
Mat<T> fu_relu_tokens(const Mat<T>& X, const Mat<T>& y, const Mat<T>& Xq);

// The blocks, for either layout; run with n_context = n (compact) or 2n (paper).
template <class T>
relu_transformer_block<T> fu_relu_copy_block(const fu_relu_rows& r, const T& sign);  // u += sign x
template <class T>
relu_transformer_block<T> fu_relu_init_block(const fu_relu_rows& r, const T& alpha);
template <class T>
relu_transformer_block<T> fu_relu_newton_block(const fu_relu_rows& r);
// The compact layout's single read-out block.
template <class T>
relu_transformer_block<T> fu_relu_readout_block(const fu_relu_rows& r);

// 3 set-up blocks, k Newton blocks, 1 read-out block. k >= 0, alpha a weight.
template <class T>
relu_transformer<T> fu_relu_transformer(Eigen::Index d, int k, const T& alpha);

// The u block of the context tokens (d x n: T x_j) and the queries' p entries (1 x Q).
template <class T>
Mat<T> fu_relu_context_u(const Mat<T>& E, Eigen::Index d, Eigen::Index n);
template <class T>
Mat<T> fu_relu_predictions(const Mat<T>& E, Eigen::Index d, Eigen::Index n);

// The paper's layout. Tokens, in the paper's order x_1, y_1, ..., x_n, y_n, x_test: column 2j-1
// (x_j; u = 0; flags 0), column 2j (y_j; label flag 1), column 2n+1 (x_test; query flag 1); every
// token has one = 1, pos = t, pos_sq = t^2. X d x n, y 1 x n, x_test d x 1 (one query, as the
// paper). Throws std::invalid_argument on bad shapes. Run with n_context = 2n.
template <class T>
Mat<T> fu_paper_tokens(const Mat<T>& X, const Mat<T>& y, const Mat<T>& x_test);

// R1 and R4: one head moving the block `from` of the previous column into the block `to` of
// every token whose row `receiver` is 1 (tokens whose flag is 0 get nothing).
template <class T>
relu_transformer_block<T> fu_paper_mov_block(const fu_relu_rows& r, Eigen::Index receiver,
                                             Eigen::Index from, Eigen::Index to);
// R2: m += y_t v_t, exact while |y_t| <= label_bound.
template <class T>
relu_transformer_block<T> fu_paper_label_mul_block(const fu_relu_rows& r, const T& label_bound);
// R3: Lemma B.3 as printed: w += sum over the context keys of m.
template <class T>
relu_transformer_block<T> fu_paper_sum_block(const fu_relu_rows& r);
// R5: p += sum over the keys of <x_t, wq_j>.
template <class T>
relu_transformer_block<T> fu_paper_query_mul_block(const fu_relu_rows& r);

// 3 set-up blocks, k Newton blocks, 5 read-out blocks (k + 8). k >= 0; alpha and label_bound
// are weights.
template <class T>
relu_transformer<T> fu_paper_transformer(Eigen::Index d, int k, const T& alpha,
                                         const T& label_bound);

// The u block of the x tokens (d x n: T x_j) and the query token's prediction p (1 x 1).
template <class T>
Mat<T> fu_paper_context_u(const Mat<T>& E, Eigen::Index d, Eigen::Index n);
template <class T>
Mat<T> fu_paper_prediction(const Mat<T>& E, Eigen::Index d, Eigen::Index n);

}  // namespace iclproof
