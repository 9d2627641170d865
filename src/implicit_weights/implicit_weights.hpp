// The implicit linear model of ANY masked linear transformer (Vladymyrov, von Oswald, Sandler,
// Ge 2024, Theorem 4.1 and Lemma 4.3; docs/constructions/implicit_weights.md). Works on
// arbitrary weights, built or trained: nothing here assumes a construction.
//
// A masked layer of lsa/lsa_layer.hpp moves every token by the SAME matrix,
//     e_j <- (I + C) e_j,   C = sum_heads P W_V G W_K^T W_Q,   G = sum_{i in context} e_i e_i^T,
// so by induction every token of layer l is
//     x^l_j = M^l x_j + u^l y_j,     y^l_j = a^l y_j - (w^l)^T x_j
// (the query with its own y-part; y_q = 0 gives the read-out -y^L_q = (w^L)^T x_q), with
//     M^{l+1} = (I + A) M^l - B (w^l)^T,      u^{l+1} = (I + A) u^l + B a^l,
//     a^{l+1} = (I + D) a^l + Cyx u^l,         w^{l+1} = w^l (I + D)^T - (M^l)^T Cyx^T,
// C^l = [[A, B], [Cyx, D]] (blocks d, o) and a^0 = I, w^0 = 0, M^0 = I, u^0 = 0
// (proofs/ImplicitWeights.v:implicit_layer_update). read_implicit_weights computes C^l from the
// context tokens GIVEN BY the state (M^l, u^l, a^l, w^l): it never runs the layers, so a check
// may compare it with lsa_stack_forward.
//
// How `compare` applies it to trained weights: build the lsa_stack<T> of the trained model (its
// masked heads W_K, W_Q, W_V, P per layer), then for each evaluation prompt (X, Y) call
// read_implicit_weights(stack, X, Y); entry l's w is the linear model the model holds after
// layer l (d x o), its a the scale of y, M and u the mixing of the x-parts.
#pragma once

#include "core/linalg.hpp"
#include "lsa/lsa_layer.hpp"

#include <vector>

namespace iclproof {

// (M, u, a, w) of one layer: d x d, d x o, o x o, d x o.
template <class T>
struct implicit_state {
  Mat<T> M, u, a, w;
};

// The layer's token map I + C on the context tokens E (D x n, all of them keys): C (D x D).
// Throws std::invalid_argument on an unmasked layer (its keys include the query, and the
// theorem is about masked layers) or shapes that do not fit.
template <class T>
Mat<T> lsa_token_map(const lsa_layer<T>& layer, const Mat<T>& context);

// The initial state a = I_o, w = 0, M = I_d, u = 0.
template <class T>
implicit_state<T> implicit_identity_state(Eigen::Index d, Eigen::Index o);

// The tokens the state describes: [[M X + u Y], [a Y - w^T X]] ((d + o) x n).
template <class T>
Mat<T> implicit_tokens(const implicit_state<T>& s, const Mat<T>& X, const Mat<T>& Y);

// One step of the recursion with the layer's C (the header's formulas).
template <class T>
implicit_state<T> implicit_layer_update(const implicit_state<T>& s, const Mat<T>& C);

// States l = 0..L of the stack on the context (X d x n, Y o x n): L + 1 entries.
template <class T>
std::vector<implicit_state<T>> read_implicit_weights(const lsa_stack<T>& stack, const Mat<T>& X,
                                                     const Mat<T>& Y);

}  // namespace iclproof
