// Newton–Schulz for matrix inversion in two linear-attention layers (Giannou, Yang, Wang,
// Papailiopoulos, Lee, AISTATS 2025: "linear attention-only transformers implement one step of
// Newton's iteration for matrix inversion with two layers"). The weights are fed to the generic
// LSA layer (lsa/lsa_layer.hpp); the contract, including what could not be checked against the
// paper's own weights, is docs/constructions/newton_schulz.md.
//
// Tokens: d columns of dimension 3d, E = [S^T; M; I] (blocks A, B, C). With sel_X the d x 3d
// selector of block X and emb_X = sel_X^T, all layers unmasked (every token a key):
//   doubling layer:   W_V = sel_B, W_K = sel_C, W_Q = sel_C, P = emb_B        B <- 2M
//   correction layer: W_V = sel_B, W_K = sel_A, W_Q = sel_B, P = -(1/4) emb_B B <- 2M - M S M
// (the correction reads the doubled iterate: (2M) S (2M) / 4 = M S M). k steps = 2k layers
// (proofs/NewtonSchulz.v:ns_two_layer_step, ns_stack_iter).
#pragma once

#include "lsa/lsa_layer.hpp"

namespace iclproof {

// [S^T; M; I], 3d x d. Throws std::invalid_argument unless S and M are d x d, d >= 1.
template <class T>
Mat<T> newton_schulz_tokens(const Mat<T>& S, const Mat<T>& M);

// The B block (rows d..2d) of a token matrix: the iterate.
template <class T>
Mat<T> newton_schulz_iterate(const Mat<T>& E);

template <class T>
lsa_layer<T> newton_schulz_doubling_layer(Eigen::Index d);

template <class T>
lsa_layer<T> newton_schulz_correction_layer(Eigen::Index d);

// k Newton–Schulz steps: (doubling, correction) k times, 2k layers. k >= 0.
template <class T>
lsa_stack<T> newton_schulz_stack(Eigen::Index d, int k);

// The reference: one step 2M - M S M, and M_0, ..., M_k.
template <class T>
Mat<T> newton_schulz_step(const Mat<T>& S, const Mat<T>& M);

template <class T>
std::vector<Mat<T>> newton_schulz_iterates(const Mat<T>& S, const Mat<T>& M0, int k);

}  // namespace iclproof
