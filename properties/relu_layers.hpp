// Checks of the generic ReLU-attention and MLP layers (lsa/relu_layers.hpp; Bai et al. 2023,
// Definitions 1-2; docs/constructions/bai.md). Each check is a template on the scalar and takes
// the layers under test as functions (constructions<T>), so tests/unit/relu_layers_test.cpp can
// feed them a broken layer.
//
// The reference is the definition written out as loops over tokens i, keys j and heads m, in the
// same scalar:
//     out_i = h_i + sum_m c_i sum_{j in keys(i)} sigma(sum_a (Q_m h_i)_a (K_m h_j)_a) (V_m h_j)
//     out_i = h_i + W_2 sigma(W_1 h_i + b_1) + b_2.
// Tolerances (properties/rounding_shadow.hpp, Higham Lemma 3.1): both sides are straight-line
// programs of +, -, x, division by an exact integer and sigma on the same inputs computing the
// same function. sigma is exact and 1-Lipschitz, so an error delta in a score moves sigma by at
// most |delta| and the shadow argument goes through sigma unchanged (sigma(score) <= shadow of
// the score). Longest chain: Q h and K h (D), the score (k), V h_j (D) times sigma (1), the sum
// over at most M keys (M), the scale (1), the heads (H), the residual (1): we use
// n = 2D + k + M + H + 4 for the attention and n = 2D + D' + 4 for the MLP, and 2 gamma_n (shadow
// layer + shadow reference) with the shadows the same programs on |inputs|.
// In rationals the tolerance is 0 and every check is an equality; in intervals compare() is an
// identity check (the enclosure of layer - reference contains 0), relu enclosing by
// [max(0, a), max(0, b)].
#pragma once

#include "core/interval.hpp"
#include "harness/property.hpp"
#include "harness/tolerance.hpp"
#include "lsa/relu_layers.hpp"
#include "rounding_shadow.hpp"
#include "tasks/regression_task.hpp"

#include <rapidcheck.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace iclproof::relu_layer_checks {

using rounding_shadow::compare_within;
using rounding_shadow::shadow_bound;

// The layers under test (the real ones: relu_attention_forward, mlp_forward).
template <class T>
struct constructions {
  std::function<Mat<T>(const relu_attention_layer<T>&, const Mat<T>&, Eigen::Index)> attention;
  std::function<Mat<T>(const mlp_layer<T>&, const Mat<T>&)> mlp;
};

template <class T>
constructions<T> real_constructions() {
  return {&relu_attention_forward<T>, &mlp_forward<T>};
}

inline const char* keys_name(relu_attention_keys k) {
  switch (k) {
    case relu_attention_keys::all_tokens:
      return "all_tokens";
    case relu_attention_keys::context_tokens:
      return "context_tokens";
    case relu_attention_keys::causal:
      return "causal";
  }
  return "?";
}
inline const char* scale_name(relu_attention_scale s) {
  switch (s) {
    case relu_attention_scale::inverse_context_count:
      return "1/n_context";
    case relu_attention_scale::inverse_key_count:
      return "1/|keys(i)|";
    case relu_attention_scale::none:
      return "none";
  }
  return "?";
}

// A dyadic matrix: entries k/4, k an integer in [lo, hi].
inline Mat<double> dyadic_matrix(data_rng& rng, Eigen::Index r, Eigen::Index c, int lo = -8,
                                 int hi = 8) {
  Mat<double> m(r, c);
  for (Eigen::Index j = 0; j < c; ++j)
    for (Eigen::Index i = 0; i < r; ++i) m(i, j) = std::floor(rng.uniform(lo, hi + 1.0)) / 4.0;
  return m;
}

// The number of keys token i sees and the scale c_i (definition, not the layer's code).
inline Eigen::Index keys_of_token(relu_attention_keys keys, Eigen::Index i, Eigen::Index M,
                                  Eigen::Index n_context) {
  switch (keys) {
    case relu_attention_keys::all_tokens:
      return M;
    case relu_attention_keys::context_tokens:
      return n_context;
    case relu_attention_keys::causal:
      return i + 1;
  }
  return 0;
}

// The definition as loops: out_i = h_i + sum_m c_i sum_{j in keys(i)} sigma(<Q h_i, K h_j>) V h_j.
// With `absolute` every input is replaced by its absolute value (the rounding shadow).
template <class T>
Mat<T> attention_by_definition(const relu_attention_layer<T>& layer, const Mat<T>& H,
                               Eigen::Index n_context, bool absolute = false) {
  const Eigen::Index D = H.rows(), M = H.cols();
  const auto val = [&](const T& x) { return absolute ? T(abs_of(x)) : x; };
  Mat<T> out(D, M);
  for (Eigen::Index i = 0; i < M; ++i) {
    const Eigen::Index n_keys = keys_of_token(layer.keys, i, M, n_context);
    T c(1);
    if (layer.scale == relu_attention_scale::inverse_context_count) c = T(n_context);
    if (layer.scale == relu_attention_scale::inverse_key_count) c = T(n_keys);
    for (Eigen::Index r = 0; r < D; ++r) out(r, i) = val(H(r, i));
    for (const auto& head : layer.heads) {
      Vec<T> acc = Vec<T>::Zero(D);
      for (Eigen::Index j = 0; j < n_keys; ++j) {
        T score(0);
        for (Eigen::Index a = 0; a < head.Q.rows(); ++a) {
          T qa(0), ka(0);
          for (Eigen::Index b = 0; b < D; ++b) {
            qa += val(head.Q(a, b)) * val(H(b, i));
            ka += val(head.K(a, b)) * val(H(b, j));
          }
          score += qa * ka;
        }
        const T s = relu(score);
        for (Eigen::Index r = 0; r < D; ++r) {
          T v(0);
          for (Eigen::Index b = 0; b < D; ++b) v += val(head.V(r, b)) * val(H(b, j));
          acc(r) += s * v;
        }
      }
      for (Eigen::Index r = 0; r < D; ++r) out(r, i) += acc(r) / c;
    }
  }
  return out;
}

// out_i = h_i + W_2 sigma(W_1 h_i + b_1) + b_2 as loops (absolute: the shadow).
template <class T>
Mat<T> mlp_by_definition(const mlp_layer<T>& layer, const Mat<T>& H, bool absolute = false) {
  const Eigen::Index D = H.rows(), M = H.cols(), Dp = layer.W1.rows();
  const auto val = [&](const T& x) { return absolute ? T(abs_of(x)) : x; };
  Mat<T> out(D, M);
  for (Eigen::Index i = 0; i < M; ++i) {
    Vec<T> hidden(Dp);
    for (Eigen::Index a = 0; a < Dp; ++a) {
      T pre = layer.b1.size() ? val(layer.b1(a)) : T(0);
      for (Eigen::Index b = 0; b < D; ++b) pre += val(layer.W1(a, b)) * val(H(b, i));
      hidden(a) = relu(pre);
    }
    for (Eigen::Index r = 0; r < D; ++r) {
      T o = val(H(r, i));
      for (Eigen::Index a = 0; a < Dp; ++a) o += val(layer.W2(r, a)) * hidden(a);
      if (layer.b2.size()) o += val(layer.b2(r));
      out(r, i) = o;
    }
  }
  return out;
}

// A random attention layer and tokens: D in 1..4, M in 1..6 tokens, n_context in 1..M, 1..3
// heads with k in 1..3, keys and scale drawn; dyadic entries.
template <class T>
struct attention_case {
  relu_attention_layer<T> layer;
  Mat<T> H;
  Eigen::Index n_context;
};

template <class T>
attention_case<T> gen_attention_case(case_context& ctx) {
  const int D = *rc::gen::inRange(1, 5);
  const int M = *rc::gen::inRange(1, 7);
  const int n = *rc::gen::inRange(1, M + 1);
  const int heads = *rc::gen::inRange(1, 4);
  const int k = *rc::gen::inRange(1, 4);
  const auto keys = static_cast<relu_attention_keys>(*rc::gen::inRange(0, 3));
  const auto scale = static_cast<relu_attention_scale>(*rc::gen::inRange(0, 3));
  const auto seed = *rc::gen::inRange<std::uint64_t>(0, 1u << 30);
  ctx.note("D, M, n_context, heads, k", std::to_string(D) + ", " + std::to_string(M) + ", " +
                                            std::to_string(n) + ", " + std::to_string(heads) +
                                            ", " + std::to_string(k));
  ctx.note("keys, scale, data seed",
           std::string(keys_name(keys)) + ", " + scale_name(scale) + ", " + std::to_string(seed));
  data_rng rng(seed);
  attention_case<T> c;
  c.layer.keys = keys;
  c.layer.scale = scale;
  for (int m = 0; m < heads; ++m)
    c.layer.heads.push_back({from_double<T>(dyadic_matrix(rng, k, D)),
                             from_double<T>(dyadic_matrix(rng, k, D)),
                             from_double<T>(dyadic_matrix(rng, D, D))});
  c.H = from_double<T>(dyadic_matrix(rng, D, M));
  c.n_context = n;
  return c;
}

// 1. The attention layer is Definition 1 (any heads, keys, scale), token by token.
template <class T>
void attention_matches_the_definition(case_context& ctx, const constructions<T>& make) {
  const auto c = gen_attention_case<T>(ctx);
  const Mat<T> out = make.attention(c.layer, c.H, c.n_context);
  const Mat<T> ref = attention_by_definition<T>(c.layer, c.H, c.n_context);
  const T bound = tolerance<T>([&](auto) {
    const double n = 2.0 * c.H.rows() + c.layer.heads.front().Q.rows() + c.H.cols() +
                     static_cast<double>(c.layer.heads.size()) + 4.0;
    return shadow_bound<T>(
        n, T(T(2) * max_abs(attention_by_definition<T>(c.layer, c.H, c.n_context, true))));
  });
  compare_within<T>(ctx, "ReLU-attention layer vs Definition 1 token by token", out, ref, bound);
}

// 2. The MLP layer is Definition 2 (with or without biases): D in 1..4, D' in 0..5, M in 1..5.
template <class T>
void mlp_matches_the_definition(case_context& ctx, const constructions<T>& make) {
  const int D = *rc::gen::inRange(1, 5);
  const int Dp = *rc::gen::inRange(0, 6);
  const int M = *rc::gen::inRange(1, 6);
  const bool biases = *rc::gen::arbitrary<bool>();
  const auto seed = *rc::gen::inRange<std::uint64_t>(0, 1u << 30);
  ctx.note("D, D', M, biases, data seed", std::to_string(D) + ", " + std::to_string(Dp) + ", " +
                                              std::to_string(M) + ", " + (biases ? "yes" : "no") +
                                              ", " + std::to_string(seed));
  data_rng rng(seed);
  mlp_layer<T> layer{from_double<T>(dyadic_matrix(rng, Dp, D)), Vec<T>(),
                     from_double<T>(dyadic_matrix(rng, D, Dp)), Vec<T>()};
  if (biases) {
    layer.b1 = from_double<T>(dyadic_matrix(rng, Dp, 1)).col(0);
    layer.b2 = from_double<T>(dyadic_matrix(rng, D, 1)).col(0);
  }
  const Mat<T> H = from_double<T>(dyadic_matrix(rng, D, M));
  const Mat<T> out = make.mlp(layer, H);
  const Mat<T> ref = mlp_by_definition<T>(layer, H);
  const T bound = tolerance<T>([&](auto) {
    return shadow_bound<T>(2.0 * D + Dp + 4.0,
                           T(T(2) * max_abs(mlp_by_definition<T>(layer, H, true))));
  });
  compare_within<T>(ctx, "MLP layer vs Definition 2 token by token", out, ref, bound);
}

// 3. sigma(t) - sigma(-t) = t, as layers: a head (Q, K, V) plus the head (-Q, K, -V) is the
//    linear attention h_i <- h_i + c_i sum_j <Q h_i, K h_j> V h_j (the pair every construction
//    that needs a bilinear form from ReLU attention uses; proofs/BaiRelu.v:relu_pair_linear).
template <class T>
void relu_head_pair_is_linear_attention(case_context& ctx, const constructions<T>& make) {
  auto c = gen_attention_case<T>(ctx);
  relu_attention_layer<T> pair = c.layer;
  pair.heads.clear();
  for (const auto& h : c.layer.heads) {
    pair.heads.push_back(h);
    pair.heads.push_back({Mat<T>(-h.Q), h.K, Mat<T>(-h.V)});
  }
  const Mat<T> out = make.attention(pair, c.H, c.n_context);
  // The linear attention, as loops: the score without sigma (absolute: the shadow). The shadows
  // of the layer (2 sigma(s^) v^ per pair) and of the loops (s^ v^) sum to at most 3 times the
  // loops' shadow: we use 4.
  const Eigen::Index D = c.H.rows(), M = c.H.cols();
  const auto linear = [&](bool absolute) {
    const auto val = [&](const T& x) { return absolute ? T(abs_of(x)) : x; };
    Mat<T> ref(D, M);
    for (Eigen::Index i = 0; i < M; ++i) {
      const Eigen::Index n_keys = keys_of_token(c.layer.keys, i, M, c.n_context);
      T cs(1);
      if (c.layer.scale == relu_attention_scale::inverse_context_count) cs = T(c.n_context);
      if (c.layer.scale == relu_attention_scale::inverse_key_count) cs = T(n_keys);
      for (Eigen::Index r = 0; r < D; ++r) ref(r, i) = val(c.H(r, i));
      for (const auto& head : c.layer.heads)
        for (Eigen::Index j = 0; j < n_keys; ++j) {
          T score(0);
          for (Eigen::Index a = 0; a < head.Q.rows(); ++a) {
            T qa(0), ka(0);
            for (Eigen::Index b = 0; b < D; ++b) {
              qa += val(head.Q(a, b)) * val(c.H(b, i));
              ka += val(head.K(a, b)) * val(c.H(b, j));
            }
            score += qa * ka;
          }
          for (Eigen::Index r = 0; r < D; ++r) {
            T v(0);
            for (Eigen::Index b = 0; b < D; ++b) v += val(head.V(r, b)) * val(c.H(b, j));
            ref(r, i) += score * v / cs;
          }
        }
    }
    return ref;
  };
  const T bound = tolerance<T>([&](auto) {
    // the layer: 2H heads (n = 2D + k + M + 2H + 4); the loops: every head's and key's term is
    // added to the one accumulator (a chain of H M additions after 2D + k + 2 operations).
    const double H = static_cast<double>(c.layer.heads.size());
    const double n = 2.0 * D + c.layer.heads.front().Q.rows() + H * M + M + 2.0 * H + 6.0;
    return shadow_bound<T>(n, T(T(4) * max_abs(linear(true))));
  });
  compare_within<T>(ctx, "heads (Q, K, V) + (-Q, K, -V) vs linear attention", out, linear(false),
                    bound);
}

}  // namespace iclproof::relu_layer_checks
