// Ahn et al.'s full linear transformer: P AND Q trained in every layer (their Transformer_F
// without zero_p; docs/weights.md, layout ahn_allparam), as the verifier evaluates it.
//
// Paper form (Ahn et al. 2023, eq. (3); tokens as COLUMNS, Z = [[X, x_q], [Y, 0]]):
//     Z <- Z + (1/N) sum_h Pbar_h Z M Z^T Qbar_h Z,   M = diag(I_N, 0),
//     Pbar_h = [[P_h, 0], [0, 1]],   Qbar_h = [[Q_h, 0], [0, 0]],
// prediction -Z[d, N] (the query's y-slot). The parameter sets of learned_model_kind::
// ahn_full_linear hold, per layer, "P_1", "Q_1", ..., "P_H", "Q_H" (d x d each) in this paper
// form; the peer's code writes tokens as rows and z_n^T Q z_m, so its allparam[l, h, 1] is Q_h^T
// and its allparam[l, h, 0] is P_h (compare/ahn_full_reader.cpp does the conversion).
//
// As an lsa_stack (lsa/lsa_layer.hpp: e_j <- e_j + P (sum_{i <= N} (W_V e_i)(W_K e_i)^T) W_Q e_j),
// head h of a layer is {W_K = I, W_Q = Qbar_h, W_V = I, P = Pbar_h / N}: the same map, so the
// implicit-weights reading (implicit_weights/implicit_weights.hpp) applies to it as it is.
// With every P_h = 0 the model is iclproof's ahn_linear with A_l = -sum_h Q_h.
#pragma once

#include "compare/weights_file.hpp"
#include "core/linalg.hpp"
#include "lsa/lsa_layer.hpp"

#include <fmt/format.h>

#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace iclproof {

// The names of head h's matrices (h counted from 1) in a parameter set.
inline std::string ahn_full_p_name(int head) { return fmt::format("P_{}", head); }
inline std::string ahn_full_q_name(int head) { return fmt::format("Q_{}", head); }

// Heads of a parameter set: its size / 2; throws std::invalid_argument unless it holds exactly
// P_1, Q_1, ..., P_H, Q_H.
template <class M>
int ahn_full_heads(const std::map<std::string, M>& set) {
  const int H = static_cast<int>(set.size() / 2);
  bool ok = H >= 1 && set.size() % 2 == 0;
  for (int h = 1; ok && h <= H; ++h)
    ok = set.count(ahn_full_p_name(h)) == 1 && set.count(ahn_full_q_name(h)) == 1;
  if (!ok)
    throw std::invalid_argument(
        "ahn_full_linear: a parameter set must hold P_1, Q_1, ..., P_H, Q_H and nothing else");
  return H;
}

// One layer of the model from its parameter set (d x d matrices), for N context tokens.
template <class T>
lsa_layer<T> ahn_full_layer(const std::map<std::string, Mat<T>>& set, Eigen::Index N,
                            lsa_mask mask = lsa_mask::context_keys) {
  const int H = ahn_full_heads(set);
  const Eigen::Index d = set.at(ahn_full_p_name(1)).rows(), D = d + 1;
  lsa_layer<T> layer;
  layer.mask = mask;
  for (int h = 1; h <= H; ++h) {
    const Mat<T>& P = set.at(ahn_full_p_name(h));
    const Mat<T>& Q = set.at(ahn_full_q_name(h));
    if (P.rows() != d || P.cols() != d || Q.rows() != d || Q.cols() != d)
      throw std::invalid_argument("ahn_full_linear: P_h and Q_h must be d x d");
    Mat<T> Pbar = Mat<T>::Zero(D, D), Qbar = Mat<T>::Zero(D, D);
    Pbar.topLeftCorner(d, d) = P;
    Pbar(d, d) = T(1);
    Qbar.topLeftCorner(d, d) = Q;
    layer.heads.push_back(
        {Mat<T>::Identity(D, D), Qbar, Mat<T>::Identity(D, D), Mat<T>(Pbar / T(N))});
  }
  return layer;
}

// sum_h Q_h of a layer (the model's y-row reads x through it alone).
template <class T>
Mat<T> ahn_full_q_sum(const std::map<std::string, Mat<T>>& set) {
  const int H = ahn_full_heads(set);
  Mat<T> S = set.at(ahn_full_q_name(1));
  for (int h = 2; h <= H; ++h) S += set.at(ahn_full_q_name(h));
  return S;
}

// The parameter sets of the peer's allparam (block(l, h, k) = allparam[l, h, k], d x d, layers
// and heads from 0): P_h = allparam[l, h - 1, 0], Q_h = allparam[l, h - 1, 1]^T (rows to columns).
std::vector<std::map<std::string, Eigen::MatrixXd>> ahn_full_parameter_sets(
    const std::function<Eigen::MatrixXd(int, int, int)>& block, int layers, int heads);

}  // namespace iclproof
