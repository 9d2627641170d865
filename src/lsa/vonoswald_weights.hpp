// The weight constructions of von Oswald et al. (2023) for the generic LSA layer
// (CONSTRUCTIONS.md sections 1-2; proofs/VonOswald.v). Every construction is a set of explicit
// weight matrices run through lsa/lsa_layer.hpp, never the closed form it is checked against.
//
// Tokens e_j = (x_j; y_j), D = d + o; the regression prompt is the token matrix
//     E = [[X, Xq], [Y, Yq0]]     (d + o) x (N + Q),  the first N columns are the context.
//
// Proposition 1 (prop1_weights): one masked head
//     W_K = W_Q = [[I_d, 0], [0, 0]],  W_V = [[0, 0], [W0, -I_o]],  P = (eta/N) I_D,
// maps every token (queries included) to (x_j; y_j - DeltaW x_j), DeltaW = -eta grad L(W0)
// (proofs/VonOswald.v:prop1_lsa_gd_step). W0 enters through W_V; with the query's initial
// y-part y_q0 = -W0 x_q (prop1_query_init) the prediction -(new y_q) is (W0 + DeltaW) x_q
// (prop1_readout).
//
// The K-layer GD stack (gd_stack_weights): K Prop. 1 heads with W0 = 0 (the y-parts carry the
// residuals Y - W_k X, so every layer's step is taken from the current model;
// lsa_stack_gd_steps), started from y_q0 = 0.
//
// GD++ (gdpp_weights, von Oswald A.10): W_V = [[-gamma I_d, 0], [W0, -I_o]],
// P = blockdiag(I_d, (eta/N) I_o) (our scaling: gamma carries no 1/N): x_j <- (I - gamma X X^T)
// x_j, y_j <- y_j - DeltaW x_j (gdpp_layer_identity); layers (gamma_l, eta_l) with W0 = 0 are
// preconditioned GD with S_l^2 (gdpp_preconditioned_gd).
#pragma once

#include "lsa/lsa_layer.hpp"

#include <vector>

namespace iclproof {

// [[X, Xq], [Y, Yq0]]; throws std::invalid_argument (one line) on inconsistent shapes.
template <class T>
Mat<T> regression_tokens(const Mat<T>& X, const Mat<T>& Y, const Mat<T>& Xq, const Mat<T>& Yq0);

// y_q0 = -W0 x_q, the query initialisation of the read-out convention.
template <class T>
Mat<T> prop1_query_init(const Mat<T>& W0, const Mat<T>& Xq);

// The prediction read off the query tokens: -(y-part of the query columns), o x Q.
template <class T>
Mat<T> lsa_query_prediction(const Mat<T>& E, Eigen::Index d, Eigen::Index n_context);

// Proposition 1: one masked head (W0 is o x d; N the number of context tokens, N >= 1).
template <class T>
lsa_layer<T> prop1_weights(Eigen::Index d, Eigen::Index o, Eigen::Index N, const T& eta,
                           const Mat<T>& W0);

// K masked Prop. 1 layers with W0 = 0 and step sizes eta[0..K-1].
template <class T>
lsa_stack<T> gd_stack_weights(Eigen::Index d, Eigen::Index o, Eigen::Index N,
                              const std::vector<T>& eta);

// One GD++ head (masked).
template <class T>
lsa_layer<T> gdpp_weights(Eigen::Index d, Eigen::Index o, Eigen::Index N, const T& gamma,
                          const T& eta, const Mat<T>& W0);

// GD++ layers l = 0..L-1 with (gamma[l], eta[l]) and W0 = 0.
template <class T>
lsa_stack<T> gdpp_stack_weights(Eigen::Index d, Eigen::Index o, Eigen::Index N,
                                const std::vector<T>& gamma, const std::vector<T>& eta);

}  // namespace iclproof
