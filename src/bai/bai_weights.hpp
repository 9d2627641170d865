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

#include <vector>

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

// ---------------------------------------------------------------------------------------------
// Post-ICL validation (Section 4.1; Theorem H.2 with Theorem H.3 = Proposition H.3 + H.2): K
// ridge-GD runs with their own lambda_k on the training split, the square validation loss of each
// run computed in context on the validation split, then the selection. docs/constructions/bai.md
// quotes the proofs and says which matrices are ours (the displays were lost in the text read).
//
// Tokens (the paper's h_i = [x_i; y'_i; *; f_1(x_i); ...; f_K(x_i); 0_{K+1}; 1; t_i] with the
// GD iterates in *):
//     h_i = [x_i; y'_i; w_1; ...; w_K; f_1; ...; f_K; L_1; ...; L_K; 0; 1; t_i],
// D = d + 1 + K d + 2 K + 3; t_i = 1 on D_train (the first n_train examples), -1 on D_val (the
// other N - n_train), 0 on the query (the paper's "generalized positional encoding").
//
// * bai_split_gd_attention: one layer, 3 K heads (2 without the ridge head when lambda_k = 0):
//   run k's heads are bai_gd_attention's on w_k, with the values times N / n_train, so that
//   (1/N) sum over D_train is the mean over D_train (the paper's footnote 7: "the underlying ICGD
//   mechanism operates on the training split (with t_i = 1) with size N_train"). The mask
//   -R + R t_j is -2R on D_val: validation keys drop out as the query does.
// * bai_split_readout_attention: 2 K heads writing <x_i, w_k> into f_k of every token.
// * bai_validation_attention (Proposition H.3): 2 K heads, scores a (f_k(x_j) - y'_j) -
//   2 R_val (1 + t_j) (a = +-1), values a (f_k(x_j) - y'_j) N / (2 n_val) into L_k:
//   sigma(a e) a e summed over a is e^2, so every token gets
//   L_k = (1 / (2 n_val)) sum_{j in D_val} (f_k(x_j) - y_j)^2, exactly when |f_k(x_j) - y'_j| <=
//   2 R_val on every token (the paper's "|f_k(x_j) - y_j| <= 2R").
// * bai_selection_gap_mlp (Proposition H.2 step 1): K (K - 1) + 2 K hidden units
//   sigma(L_k - L_l) (l != k), sigma(L_k), sigma(-L_k); L_k's slot becomes
//   c_k = sum_{l != k} sigma(L_k - L_l) (c_k <= gamma implies L_k <= min_l L_l + gamma).
// * bai_selection_indicator_mlp (step 2): 2 K hidden units sigma(1 - c_k / gamma), sigma(c_k);
//   the slot becomes u_k = sigma(1 - c_k / gamma) (in [0, 1], > 0 only if c_k < gamma).
// * bai_selection_attention (step 3): 2 (K + 1) heads; with S_k = u_1 + ... + u_k (S_0 = 0),
//   f_0 = f_{K+1} = 0, head (k, 0) has score (f_k(x_i) + R_f)(1 - S_{k-1}) (query side
//   f_k + R_f, key side 1 - S_{k-1}: the u's are the same in every token) and value +e_y, head
//   (k, 1) the score (f_{k-1}(x_i) + R_f)(1 - S_{k-1}) and value -e_y. With f + R_f >= 0,
//   sigma((f + R_f) s) = (f + R_f) sigma(s), so the y-slot gains
//   sum_k lambda_k f_k(x_i), lambda_k = sigma(1 - S_{k-1}) - sigma(1 - S_k). Keys: every token,
//   scale 1 / (N + 1), the number of columns (Definition 1's normalisation taken literally).
// * bai_selection_transformer: `steps` GD layers, the read-out, then the three layers of
//   Theorem H.3 as Definition 3 blocks (validation attention + gap MLP; identity attention +
//   indicator MLP; selection attention): steps + 4 layers (Theorem H.2: L - 3 for the ridge part
//   with its read-out, 3 for the selection).
// Every weight is one of eta_k, eta_k lambda_k, R_k, R_val, R_f, 1 / gamma, N / n_train,
// N / (2 n_val), +-1: constants of the data class and of the split sizes, never of the prompt.
struct bai_selection_layout {
  Eigen::Index d = 0, K = 0;
  Eigen::Index x(Eigen::Index k) const { return k; }
  Eigen::Index y() const { return d; }
  Eigen::Index w(Eigen::Index run, Eigen::Index k) const { return d + 1 + run * d + k; }
  Eigen::Index f(Eigen::Index run) const { return d + 1 + K * d + run; }
  Eigen::Index loss(Eigen::Index run) const { return d + 1 + K * d + K + run; }
  Eigen::Index zero() const { return d + 1 + K * d + 2 * K; }
  Eigen::Index one() const { return zero() + 1; }
  Eigen::Index t() const { return zero() + 2; }
  Eigen::Index D() const { return zero() + 3; }
};

// The fixed weights of a selection transformer: d inputs, N examples of which the first n_train
// are D_train (1 <= n_train < N), K = eta.size() runs with step eta[k], ridge lambda[k], mask
// R[k]; the validation mask R_val, the selection's shift R_f and gamma > 0.
template <class T>
struct bai_selection_weights {
  Eigen::Index d = 0, N = 0, n_train = 0;
  std::vector<T> eta, lambda, R;
  T R_val, R_f, gamma;
};

// Throws std::invalid_argument (one line) unless d >= 1, 1 <= n_train < N, K >= 1 runs with
// eta, lambda, R of the same size, gamma > 0, and steps >= 0.
template <class T>
void check_bai_selection_weights(const bai_selection_weights<T>& p, int steps);

// Tokens for examples X (d x N), labels y (1 x N), query x_query (d x 1), K runs: w_k, f_k, L_k
// all 0.
template <class T>
Mat<T> bai_selection_tokens(const Mat<T>& X, const Mat<T>& y, Eigen::Index n_train,
                            const Mat<T>& x_query, Eigen::Index K);

template <class T>
relu_attention_layer<T> bai_split_gd_attention(const bai_selection_weights<T>& p);
template <class T>
relu_attention_layer<T> bai_split_readout_attention(const bai_selection_weights<T>& p);
template <class T>
relu_attention_layer<T> bai_validation_attention(const bai_selection_weights<T>& p);
template <class T>
mlp_layer<T> bai_selection_gap_mlp(const bai_selection_weights<T>& p);
template <class T>
mlp_layer<T> bai_selection_indicator_mlp(const bai_selection_weights<T>& p);
template <class T>
relu_attention_layer<T> bai_selection_attention(const bai_selection_weights<T>& p);
// The three layers of Theorem H.3 (validation + gap MLP, indicator MLP, selection).
template <class T>
relu_transformer<T> bai_selection_layers(const bai_selection_weights<T>& p);
// steps GD layers, the read-out, the three layers: steps + 4 blocks.
template <class T>
relu_transformer<T> bai_selection_transformer(const bai_selection_weights<T>& p, int steps);

}  // namespace iclproof
