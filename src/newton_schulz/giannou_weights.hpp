// Giannou, Yang, Wang, Papailiopoulos, Lee (AISTATS 2025; arXiv 2403.03183 v1) with the
// resources their statements give, through the generic LSA layer (lsa/lsa_layer.hpp, unmasked or
// masked, several heads summed). The paper's display equations (its token layout and weight
// matrices) were lost in the transcription we read, so the layouts below are ours; the layer,
// head and width counts are the paper's (docs/constructions/newton_schulz.md quotes the text).
//
// Lemma 4.1 ("2 linear attention layers, each of which has 2 attention heads and width 4d ...
// one step of Newton's iteration for any target matrix A", X_1 = X_0 (2 I_d - A X_0)):
//   tokens: d columns of dimension 4d, E = [X; A; I; Z] (row blocks X, A, C = I, Z = scratch,
//   input Z = 0). sel_X: the d x 4d selector of block X; emb_X = sel_X^T. Every token a key.
//   layer 1: head 1 (V = sel_C, K = sel_A, Q = sel_C, P = emb_Z):  Z += I A^T I = A^T
//            head 2 (V = sel_X, K = sel_C, Q = sel_C, P = emb_X):  X += X        (X <- 2X)
//   layer 2: head 1 (V = sel_X, K = sel_Z, Q = sel_X, P = -(1/4) emb_X):
//                                                   X -= (1/4)(2X) A (2X) = X A X
//            head 2 (V = sel_C, K = sel_A, Q = sel_C, P = -emb_Z): Z -= A^T  (Z back to 0)
//   output [X_0 (2I - A X_0); A; I; 0]: the input's layout, so k copies give k steps
//   (proofs/GiannouNewton.v:g41_two_layer_step, g41_stack_iter).
// Symmetric A, one layer ("if restricted to only symmetric A, then 1 layer suffices"):
//   head 1 (V = sel_X, K = sel_C, Q = sel_C, P = emb_X): X += X
//   head 2 (V = sel_X, K = sel_A, Q = sel_X, P = -emb_X): X -= X A^T X (= X A X iff A^T = A)
//   (GiannouNewton.v:g41_symmetric_layer; on a non-symmetric A the same layer gives
//   2X - X A^T X, g41_symmetric_layer_any).
//
// Theorem 4.2 ("3 + T layers, where each layer has 2 attention heads and width equal to
// 4d + 3", prediction a_test^T X_T A^T y, X_T after T Newton steps on A^T A from
// X_0 = eps A^T A): tokens, in this order: n context (a_i; y_i; 0), d registers
// (0; 0; e_j; R_j; X_j; 0), Q queries (a_test; 0; ...). Row blocks a (d), y (1), C (d), R (d),
// X (d), p (1): D = 4d + 2 (one row fewer than the paper's 4d + 3).
//   layer 1 (masked: the n context tokens are the keys), two heads on register j:
//     R += sum_i a_i a_i^T e_j = (A^T A) e_j,   X += eps (A^T A) e_j = X_0 e_j
//   layers 2..T+1 (every token a key), two heads (the one-layer symmetric step, R = A^T A):
//     X += X e_j (values X, keys C, query C),  X -= X R X e_j (values X, keys R, query X)
//   layer T+2 (every token a key), one head: X += sum_j (X_T e_j) e_j^T a = X_T a on every
//     token with an a block (context and queries; registers have a = 0)
//   layer T+3 (masked: context keys), one head: p += sum_i y_i (X_T a_i)^T a_test
//     = a_test^T X_T A^T y (a 1 x 1 matrix is its own transpose; no symmetry needed).
// eps is a weight (a number in P): the checked transformer takes it from a bound on the data
// class, not from the prompt (newton_schulz_checks::class_eps).
#pragma once

#include "lsa/lsa_layer.hpp"

namespace iclproof {

// Lemma 4.1: [X0; A; I; 0], 4d x d. Throws std::invalid_argument unless A, X0 are d x d, d >= 1.
template <class T>
Mat<T> giannou_lemma41_tokens(const Mat<T>& A, const Mat<T>& X0);

// The X block (rows 0..d) and the scratch block Z (rows 3d..4d) of Lemma 4.1's tokens.
template <class T>
Mat<T> giannou_lemma41_iterate(const Mat<T>& E);
template <class T>
Mat<T> giannou_lemma41_scratch(const Mat<T>& E);

// The two layers of one step (two heads each), and k steps (2k layers). k >= 0.
template <class T>
lsa_stack<T> giannou_lemma41_step(Eigen::Index d);
template <class T>
lsa_stack<T> giannou_lemma41_stack(Eigen::Index d, int k);

// The one-layer symmetric step (two heads) on Lemma 4.1's tokens.
template <class T>
lsa_layer<T> giannou_symmetric_layer(Eigen::Index d);

// Theorem 4.2: row offsets of the blocks for dimension d.
struct giannou_regression_rows {
  Eigen::Index d;
  Eigen::Index a() const { return 0; }
  Eigen::Index y() const { return d; }
  Eigen::Index C() const { return d + 1; }
  Eigen::Index R() const { return 2 * d + 1; }
  Eigen::Index X() const { return 3 * d + 1; }
  Eigen::Index p() const { return 4 * d + 1; }
  Eigen::Index D() const { return 4 * d + 2; }
};

// The prompt: A^T as a d x n matrix of columns a_i, y (1 x n), the queries (d x Q).
template <class T>
Mat<T> giannou_regression_tokens(const Mat<T>& At, const Mat<T>& y, const Mat<T>& Aq);

// 1 + T + 2 layers; run with n_context = n. T >= 0.
template <class T>
lsa_stack<T> giannou_regression_stack(Eigen::Index d, int T_steps, const T& eps);

// The registers' X block (d x d) and the queries' p entries (1 x Q) of a token matrix with n
// context tokens.
template <class T>
Mat<T> giannou_regression_iterate(const Mat<T>& E, Eigen::Index d, Eigen::Index n);
template <class T>
Mat<T> giannou_regression_predictions(const Mat<T>& E, Eigen::Index d, Eigen::Index n);

}  // namespace iclproof
