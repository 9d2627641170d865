// The verifier's own evaluation of a trained model (read from a weights file) in the scalar T,
// written from the layer definitions — NOT from the trainer's code — so that agreement between
// the two (tests/trainer/trainer_model_test.cpp) is evidence, not a tautology.
//
//  lsa (von Oswald et al. 2023, CONSTRUCTIONS.md section 1): tokens are the columns of
//    E = [[X, Xq], [Y, 0]] ((d+1) x (N+Q)); each layer computes, for every token j,
//        e_j <- e_j + P sum_{i <= N} (W_V e_i) (W_K e_i)^T (W_Q e_j)
//    from the layer's input (keys and values from the N context tokens only), i.e. the
//    attention scores S = (W_K E_ctx)^T (W_Q E) and E <- E + P (W_V E_ctx) S, evaluated by the
//    generic lsa_layer as P (sum_i v_i k_i^T) (W_Q E) in O(N D^2). Prediction for
//    query q: -(y-part of token N+q) after the last layer. Several query columns are
//    independent (queries are never keys or values), so they are evaluated together.
//  ahn_linear / memformer (Ahn et al. Lemma 1 and the Memformer paper eqs 17-20, sections 3-4):
//    Z_0 = [[X, Xq], [Y, 0]], M = diag(I_N, 0), Attn_{P,Q}(Z) = P Z M Z^T Q Z,
//    P = [[0, 0], [0, 1]], Q = -[[A, 0], [0, 0]] (A = I for memformer_cgd), evaluated with the
//    full (d+1) x (d+1) matrices literally, as the papers write them.
//  ahn_full_linear (Ahn et al. eq. (3) with P and Q trained): generic lsa layers, one head per
//    (P_h, Q_h) (compare/ahn_full_model.hpp).
//
// The mask (M above, the context-only keys of lsa) is part of the model, not of the weights.
// learned_predictions can drop it (learned_attention_mask::none: every token, the query
// included, is a key and a value, so the query attends to itself and, from layer 2 on, to its
// own prediction in its label slot). That is a WRONG model, kept for the tests that show
// compare's gated metrics failing on it (tests/unit/compare_gated_*_test.cpp); compare
// itself always evaluates the masked models of the papers.
#pragma once

#include "compare/ahn_full_model.hpp"
#include "compare/weights_file.hpp"
#include "core/linalg.hpp"
#include "lsa/lsa_layer.hpp"

#include <functional>
#include <vector>

namespace iclproof {

enum class learned_attention_mask {
  context_only,  // the papers' models: keys/values are the N context tokens
  none,          // wrong on purpose (tests): every token, the query included, is a key/value
};

template <class T>
struct learned_parameters {
  learned_model_kind kind = learned_model_kind::lsa;
  int d = 0, N = 0, layers = 0;
  bool tied = false;
  std::vector<std::map<std::string, Mat<T>>> sets;
  const Mat<T>& at(int layer, const std::string& name) const {
    return sets.at(tied ? 0 : layer).at(name);
  }
  T scalar(int layer, const std::string& name) const { return at(layer, name)(0, 0); }
};

// Exact conversion of the file's doubles to T.
template <class T>
learned_parameters<T> to_scalar(const weights_file& w) {
  learned_parameters<T> p{w.kind, w.d, w.N, w.layers, w.tied, {}};
  for (const auto& set : w.parameter_sets) {
    std::map<std::string, Mat<T>> s;
    for (const auto& [name, m] : set) s[name] = from_double<T>(m);
    p.sets.push_back(std::move(s));
  }
  return p;
}

// Predictions for the query columns Xq (d x Q) after each layer: result[l](q).
// X is d x N, Y is 1 x N. Every query column is independent of the others: masked, queries are
// never keys or values; unmasked, each query column is evaluated alone with the context (a
// prompt of N + 1 tokens), so that queries do not attend to each other.
template <class T>
std::vector<RowVec<T>> learned_predictions(
    const learned_parameters<T>& p, const Mat<T>& X, const Mat<T>& Y, const Mat<T>& Xq,
    learned_attention_mask mask = learned_attention_mask::context_only) {
  const Eigen::Index d = p.d, N = p.N, Q = Xq.cols(), D = d + 1;
  if (X.rows() != d || X.cols() != N || Y.rows() != 1 || Y.cols() != N || Xq.rows() != d)
    throw std::invalid_argument("learned_predictions: task dimensions differ from the model's");
  const bool masked = mask == learned_attention_mask::context_only;
  if (!masked && Q != 1) {
    std::vector<RowVec<T>> out(static_cast<std::size_t>(p.layers), RowVec<T>(Q));
    for (Eigen::Index q = 0; q < Q; ++q) {
      const auto one = learned_predictions(p, X, Y, Mat<T>(Xq.col(q)), mask);
      for (int l = 0; l < p.layers; ++l)
        out[static_cast<std::size_t>(l)](q) = one[static_cast<std::size_t>(l)](0);
    }
    return out;
  }
  Mat<T> Z(D, N + Q);  // E for lsa, Z for the Z-form models: the same layout
  Z.topLeftCorner(d, N) = X;
  Z.topRightCorner(d, Q) = Xq;
  Z.bottomLeftCorner(1, N) = Y;
  Z.bottomRightCorner(1, Q).setZero();
  std::vector<RowVec<T>> out;
  auto read_out = [&] { out.push_back(RowVec<T>(-Z.bottomRightCorner(1, Q))); };

  if (p.kind == learned_model_kind::lsa) {
    // The generic layer of lsa/lsa_layer.hpp (masked: keys/values are the N context tokens),
    // which forms sum_i v_i k_i^T once instead of the N x (N+Q) score matrix.
    for (int l = 0; l < p.layers; ++l) {
      const lsa_layer<T> layer{{{p.at(l, "W_K"), p.at(l, "W_Q"), p.at(l, "W_V"), p.at(l, "P")}},
                               masked ? lsa_mask::context_keys : lsa_mask::all_keys};
      Z = lsa_layer_forward<T>(layer, Z, N);
      read_out();
    }
    return out;
  }
  if (p.kind == learned_model_kind::ahn_full_linear) {
    // Ahn et al.'s full model (P and Q per head) as generic lsa layers
    // (compare/ahn_full_model.hpp).
    for (int l = 0; l < p.layers; ++l) {
      const lsa_layer<T> layer =
          ahn_full_layer<T>(p.sets.at(static_cast<std::size_t>(l)), N,
                            masked ? lsa_mask::context_keys : lsa_mask::all_keys);
      Z = lsa_layer_forward<T>(layer, Z, N);
      read_out();
    }
    return out;
  }

  // Z-form: P = [[0,0],[0,1]], Q_l = -[[A_l,0],[0,0]], M = diag(I_N, 0).
  Mat<T> Pm = Mat<T>::Zero(D, D);
  Pm(d, d) = T(1);
  Mat<T> M = Mat<T>::Zero(N + Q, N + Q);
  for (Eigen::Index i = 0; i < (masked ? N : N + Q); ++i) M(i, i) = T(1);
  auto attention = [&](const Mat<T>& A) {
    Mat<T> Qm = Mat<T>::Zero(D, D);
    Qm.topLeftCorner(d, d) = -A;
    return Mat<T>(
        matmul(matmul(matmul(Pm, Z), M), matmul(matmul_tn(Z, Qm), Z)));  // P Z M (Z^T Q Z)
  };
  const T n = T(N);
  std::vector<Mat<T>> R;
  for (int l = 0; l < p.layers; ++l) {
    switch (p.kind) {
      case learned_model_kind::ahn_linear:
        Z += attention(p.at(l, "A")) / n;
        break;
      case learned_model_kind::memformer_cgd: {
        Mat<T> Rl = attention(Mat<T>::Identity(d, d));
        if (l > 0) Rl += p.scalar(l, "gamma") * R.back();
        Z += (p.scalar(l, "alpha") / n) * Rl;
        R.push_back(std::move(Rl));
        break;
      }
      case learned_model_kind::memformer_lfom: {
        R.push_back(attention(p.at(l, "A")));
        Mat<T> sum = Mat<T>::Zero(D, N + Q);
        for (int j = 0; j <= l; ++j) sum += p.scalar(j, "Gamma") * R[j];  // Gamma_j^l = Gamma_j
        Z += sum / n;
        break;
      }
      case learned_model_kind::lsa:
      case learned_model_kind::ahn_full_linear:
        break;
    }
    read_out();
  }
  return out;
}

// The forward pass `compare` evaluates a model with (compare/compare.hpp, compare_weights):
// parameters and prompt (X, Y, query columns Xq) -> predictions after each layer, with the
// contract of learned_predictions (query columns independent). compare passes
// learned_predictions (masked); a test passes a wrong one.
template <class T>
using learned_forward_pass = std::function<std::vector<RowVec<T>>(
    const learned_parameters<T>&, const Mat<T>&, const Mat<T>&, const Mat<T>&)>;

}  // namespace iclproof
