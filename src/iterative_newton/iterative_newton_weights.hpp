// Iterative Newton for in-context linear regression in k + 2 generic LSA layers (Fu, Chen, Jia,
// Sharan, NeurIPS 2024, Sec. 5: k iterations of M_j = 2 M_{j-1} - M_{j-1} S M_{j-1} from
// M_0 = alpha S with k + O(1) layers; prediction x_q^T M_k X y). Our construction, built from
// that statement; the contract and what could not be checked against the paper's App. B weights
// are in docs/constructions/iterative_newton.md.
//
// Tokens (columns, in this order): N context (x_i; y_i; 0), d registers (0; 0; e_j; A_j; B_j;
// g_j), Q queries (x_q; 0; 0). Row blocks x (d), y (1), C (d), A (d), B (d), g (1): D = 4d + 2.
//   layer 0 (masked: the N context tokens are the keys), three heads, on register j:
//     A += S e_j, B += alpha S e_j = M_0 e_j, g += (X y)_j        (S = X X^T, X y = sum y_i x_i)
//   layers 1..k (all keys), two heads: B += M e_j (keys C, query C) and B -= M S M e_j
//     (values B, keys A, query B): B <- 2M - M S M
//   layer k + 1 (all keys): y += sum_j g_j (M e_j)^T x = x^T M_k X y on every token.
// alpha is a weight: 1/||S||_F^2 (exact, inverse_frobenius_squared_alpha) or the authors' code's
// 1/||S S^T||_F (authors_code_alpha; irrational, float scalars only).
#pragma once

#include "lsa/lsa_layer.hpp"

namespace iclproof {

// Row offsets of the blocks for dimension d.
struct iterative_newton_rows {
  Eigen::Index d;
  Eigen::Index x() const { return 0; }
  Eigen::Index y() const { return d; }
  Eigen::Index C() const { return d + 1; }
  Eigen::Index A() const { return 2 * d + 1; }
  Eigen::Index B() const { return 3 * d + 1; }
  Eigen::Index g() const { return 4 * d + 1; }
  Eigen::Index D() const { return 4 * d + 2; }
};

// The prompt: X (d x N), y (1 x N), Xq (d x Q); registers zero but for their one-hot C block.
template <class T>
Mat<T> iterative_newton_tokens(const Mat<T>& X, const Mat<T>& y, const Mat<T>& Xq);

template <class T>
lsa_layer<T> iterative_newton_setup_layer(Eigen::Index d, const T& alpha);
template <class T>
lsa_layer<T> iterative_newton_step_layer(Eigen::Index d);
template <class T>
lsa_layer<T> iterative_newton_readout_layer(Eigen::Index d);

// setup, k Newton layers, read-out: k + 2 layers. Run it with n_context = N.
template <class T>
lsa_stack<T> iterative_newton_stack(Eigen::Index d, int k, const T& alpha);

// The registers' B block (d x d: the iterate) and the queries' y entries (1 x Q: the
// predictions) of a token matrix of N context tokens.
template <class T>
Mat<T> iterative_newton_iterate(const Mat<T>& E, Eigen::Index d, Eigen::Index N);
template <class T>
Mat<T> iterative_newton_predictions(const Mat<T>& E, Eigen::Index d, Eigen::Index N);

// alpha = 1 / ||S||_F^2 (rational in rational data).
template <class T>
T inverse_frobenius_squared_alpha(const Mat<T>& S);

}  // namespace iclproof
