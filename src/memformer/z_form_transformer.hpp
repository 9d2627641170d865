// The Z-form linear transformer of Ahn et al. (2024), as restated in the Memformer paper
// (eqs 2-9; CONSTRUCTIONS.md section 3).
//
//   Z_0 = [[X, x_q], [y, 0]]              in R^((d+1) x (N+1)), columns are tokens,
//   Attn_{P,Q}(Z) = P Z M (Z^T Q Z),      M = diag(I_N, 0) (the query is not a key/value),
//   Z_{l+1} = Z_l + (1/N) sum_heads Attn_{P_lh, Q_lh}(Z_l),
//   TF_L = -[Z_L]_{d, N}                  (0-based: last row, last column).
//
// Cost: Attn is evaluated as P ((Z M Z^T) (Q Z)); Z M Z^T is (d+1) x (d+1) (the Gram matrix
// of the N context tokens), so one head costs 4 (d+1)^2 (N+1) multiply-adds and no
// (N+1) x (N+1) matrix is ever formed. Products go through core/linalg.hpp's kernels.
//
// The Ahn et al. parameterisation (eq 9): P = [[B, 0], [0, 1]], Q = -[[A, 0], [0, 0]].
// With B = 0 the layers run preconditioned GD with preconditioner A^T (Lemma 1;
// proofs/AhnLemma1.v:ahn_lemma1).
#pragma once

#include "core/linalg.hpp"

#include <vector>

namespace iclproof {

template <class T>
struct attention_head {
  Mat<T> P;  // (d+1) x (d+1), the value/projection matrix
  Mat<T> Q;  // (d+1) x (d+1), W_k^T W_q
};

template <class T>
struct linear_transformer_layer {
  std::vector<attention_head<T>> heads;  // outputs are summed
};

// Z_0 from context inputs X (d x N), labels y (1 x N) and one query x_q (d x 1).
template <class T>
Mat<T> make_prompt(const Mat<T>& X, const Mat<T>& y, const Mat<T>& xq);

// P = [[B, 0], [0, 1]], Q = -[[A, 0], [0, 0]] (A, B are d x d).
template <class T>
attention_head<T> ahn_head(const Mat<T>& A, const Mat<T>& B);
// The same with B = 0.
template <class T>
attention_head<T> ahn_head(const Mat<T>& A);

// Attn_{P,Q}(Z) = P Z M (Z^T Q Z), in O(N (d+1)^2).
template <class T>
Mat<T> masked_linear_attention(const Mat<T>& Z, const attention_head<T>& head);

// Sum over the heads of one layer.
template <class T>
Mat<T> multi_head_attention(const Mat<T>& Z, const linear_transformer_layer<T>& layer);

// Z_0, Z_1, ..., Z_L with Z_{l+1} = Z_l + (1/N) Attn_l(Z_l).
template <class T>
std::vector<Mat<T>> linear_transformer_forward(
    const Mat<T>& Z0, const std::vector<linear_transformer_layer<T>>& layers);

// TF = -[Z]_{d, N}: the prediction for the query.
template <class T>
T read_out(const Mat<T>& Z) {
  return -Z(Z.rows() - 1, Z.cols() - 1);
}

// Throws std::invalid_argument (one line) unless Z is (d+1) x (N+1) with N >= 1 and every
// head's P, Q is (d+1) x (d+1).
template <class T>
void check_layer_shapes(const Mat<T>& Z, const linear_transformer_layer<T>& layer);

}  // namespace iclproof
