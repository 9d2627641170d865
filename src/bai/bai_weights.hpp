// Bai et al. 2023 ("Transformers as Statisticians", NeurIPS 2023, arXiv 2306.04637): in-context
// gradient descent on ridge regression and proximal gradient descent on the Lasso, as weights of
// the generic ReLU-attention and MLP layers (lsa/relu_layers.hpp). docs/constructions/bai.md is
// the contract: which weights are the paper's (the inner products of its Figure 3 and the proofs
// of Proposition C.2, Corollary C.1, Theorem 13 (b), Proposition C.1) and which are ours (the
// matrices that realise them: the paper's displayed matrices were lost in the transcription we
// read).
//
// Tokens (the paper's input format (3) with D = 2d + 3, no zero padding):
//     h_i = [x_i; y'_i; w; 1; t_i],   y'_i = y_i and t_i = 1 for the N examples,
//                                     y'_{N+1} = 0 and t_{N+1} = 0 for the query x_{N+1};
// w (the GD iterate) starts at w_0 in every token. Attention: every token is a key, scale 1/N
// (N = n_context, the number of examples), as in Figure 3 and Proposition C.2.
//
// * bai_gd_attention(d, eta, lambda, R): one layer, one ridge-GD step on every token's w:
//     w <- w - eta ((1/N) sum_j (<w, x_j> - y_j) x_j + lambda w).
//   Heads 1-2 (the square loss, d_s l(s, t) = s - t = sigma(s - t) - sigma(t - s), D.1):
//     score_j = b <w, x_j> + c y'_j - R + R t_j, (b, c) = (1, -1) and (-1, 1),
//     value V h_j = -eta a x_j into the w rows, a = b.
//   For t_j = 0 (the query) the score is b <w, x_{N+1}> - R <= 0 when |<w, x_{N+1}>| <= R: the
//   query drops out exactly (the paper: "so that the above relu equals 0 if t_j <= 0").
//   Head 3 (only if lambda != 0; Corollary C.1's extra head): score t_j, value -eta lambda w.
// * bai_readout_attention(d, R): two heads, score a <x_i, w> - R + R t_j, value a e_y (a = +-1):
//   adds <x_i, w> to every token's y-slot (sigma(s) - sigma(-s) = s), so the query's y-slot is
//   the prediction <x_{N+1}, w> (Theorem 13 (b)), exact when |<x_i, w>| <= R.
// * bai_soft_threshold_mlp(d, theta): W2 sigma(W1 h) adds S_theta(w) - w to the w rows, with
//   4d hidden units per token (Proposition C.1's count): for each coordinate
//   sigma(w_k - theta), sigma(-w_k - theta) (the soft threshold, two ReLUs) and sigma(w_k),
//   sigma(-w_k) (minus w_k, so that the residual connection leaves S_theta(w_k)); theta enters
//   through the token's constant 1.
// * bai_ridge_transformer(d, eta, lambda, R, T): T GD layers then the readout (T + 1 layers,
//   attention-only, as Theorem 4 / Corollary C.1).
// * bai_lasso_transformer(d, eta, lambda, R, T): T blocks (two square-loss heads, then the
//   soft-threshold MLP with theta = eta lambda) then the readout (Theorem 10 / C.1).
// Every weight is one of eta, lambda, eta lambda, R, +-1: fixed numbers, no weight depends on
// the prompt (R and eta are constants of the data class, chosen by the caller).
#pragma once

#include "core/linalg.hpp"
#include "lsa/relu_layers.hpp"

namespace iclproof {

// Row indices of a token h = [x; y; w; 1; t] for inputs of dimension d.
struct bai_layout {
  Eigen::Index d;
  Eigen::Index x(Eigen::Index k) const { return k; }
  Eigen::Index y() const { return d; }
  Eigen::Index w(Eigen::Index k) const { return d + 1 + k; }
  Eigen::Index one() const { return 2 * d + 1; }
  Eigen::Index t() const { return 2 * d + 2; }
  Eigen::Index D() const { return 2 * d + 3; }
};

// The input sequence (D x (N + 1)) for examples X (d x N), labels y (1 x N), query x_q (d x 1)
// and start w0 (d x 1). Throws std::invalid_argument on bad shapes.
template <class T>
Mat<T> bai_tokens(const Mat<T>& X, const Mat<T>& y, const Mat<T>& x_query, const Mat<T>& w0);

// The w rows of token `token` (d x 1).
template <class T>
Mat<T> bai_iterate(const Mat<T>& H, Eigen::Index token);

// The read-out: the query's (last token's) y-slot.
template <class T>
T bai_prediction(const Mat<T>& H);

template <class T>
relu_attention_layer<T> bai_gd_attention(Eigen::Index d, const T& eta, const T& lambda, const T& R);
template <class T>
relu_attention_layer<T> bai_readout_attention(Eigen::Index d, const T& R);
template <class T>
mlp_layer<T> bai_soft_threshold_mlp(Eigen::Index d, const T& theta);
template <class T>
relu_transformer<T> bai_ridge_transformer(Eigen::Index d, const T& eta, const T& lambda, const T& R,
                                          int steps);
template <class T>
relu_transformer<T> bai_lasso_transformer(Eigen::Index d, const T& eta, const T& lambda, const T& R,
                                          int steps);

}  // namespace iclproof
