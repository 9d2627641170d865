// Definitions of lsa/relu_layers.hpp and ICLPROOF_INSTANTIATE_RELU_LAYERS(T). Included only by
// the relu_layers_<scalar>.cpp files, one translation unit per group of scalar types.
#pragma once
#include "lsa/relu_layers.hpp"

#include "core/kernels.hpp"

#include <stdexcept>
#include <string>

namespace iclproof {

namespace relu_layers_detail {
inline std::string shape_of(const auto& m) {
  return std::to_string(m.rows()) + "x" + std::to_string(m.cols());
}
}  // namespace relu_layers_detail

template <class T>
void check_relu_attention_shapes(const relu_attention_layer<T>& layer, const Mat<T>& E,
                                 Eigen::Index n_context) {
  using relu_layers_detail::shape_of;
  const Eigen::Index D = E.rows();
  if (D < 1 || E.cols() < 1)
    throw std::invalid_argument("relu_attention_layer: the token matrix is empty (" + shape_of(E) +
                                ")");
  if (n_context < 0 || n_context > E.cols())
    throw std::invalid_argument("relu_attention_layer: n_context = " + std::to_string(n_context) +
                                " is not between 0 and the " + std::to_string(E.cols()) +
                                " tokens");
  if (n_context < 1 && (layer.keys == relu_attention_keys::context_tokens ||
                        layer.scale == relu_attention_scale::inverse_context_count))
    throw std::invalid_argument(
        "relu_attention_layer: context keys or the 1/n_context scale need at least one context "
        "token (n_context = 0)");
  for (std::size_t h = 0; h < layer.heads.size(); ++h) {
    const auto& hd = layer.heads[h];
    const bool ok = hd.Q.cols() == D && hd.K.cols() == D && hd.Q.rows() == hd.K.rows() &&
                    hd.V.rows() == D && hd.V.cols() == D;
    if (!ok)
      throw std::invalid_argument("relu_attention_layer: head " + std::to_string(h) + " has Q " +
                                  shape_of(hd.Q) + ", K " + shape_of(hd.K) + ", V " +
                                  shape_of(hd.V) + "; tokens of dimension " + std::to_string(D) +
                                  " need Q, K k x D and V D x D");
  }
}

template <class T>
void check_mlp_shapes(const mlp_layer<T>& layer, const Mat<T>& E) {
  using relu_layers_detail::shape_of;
  const Eigen::Index D = E.rows();
  if (D < 1 || E.cols() < 1)
    throw std::invalid_argument("mlp_layer: the token matrix is empty (" + shape_of(E) + ")");
  const Eigen::Index Dp = layer.W1.rows();
  const bool ok = layer.W1.cols() == D && layer.W2.rows() == D && layer.W2.cols() == Dp &&
                  (layer.b1.size() == 0 || layer.b1.size() == Dp) &&
                  (layer.b2.size() == 0 || layer.b2.size() == D);
  if (!ok)
    throw std::invalid_argument(
        "mlp_layer: W1 " + shape_of(layer.W1) + ", b1 of size " + std::to_string(layer.b1.size()) +
        ", W2 " + shape_of(layer.W2) + ", b2 of size " + std::to_string(layer.b2.size()) +
        "; tokens of dimension " + std::to_string(D) +
        " need W1 D' x D, b1 of size D' or 0, W2 D x D', b2 of size D or 0");
}

template <class T>
Mat<T> relu_attention_head_update(const relu_attention_head<T>& head, const Mat<T>& E,
                                  Eigen::Index n_context, relu_attention_keys keys,
                                  relu_attention_scale scale) {
  const Eigen::Index M = E.cols();
  const Eigen::Index n_keys = keys == relu_attention_keys::context_tokens ? n_context : M;
  const Mat<T> C = E.leftCols(n_keys);
  const Mat<T> Qe = matmul(head.Q, E);         // k x M
  const Mat<T> Ke = matmul(head.K, C);         // k x n_keys
  const Mat<T> Ve = matmul(head.V, C);         // D x n_keys
  Mat<T> A = relu(Mat<T>(matmul_tn(Ke, Qe)));  // n_keys x M: A(j, i) = sigma(<Q h_i, K h_j>)
  if (keys == relu_attention_keys::causal)
    for (Eigen::Index i = 0; i < M; ++i)
      for (Eigen::Index j = i + 1; j < n_keys; ++j) A(j, i) = T(0);
  Mat<T> out = matmul(Ve, A);  // D x M
  if (scale == relu_attention_scale::none) return out;
  for (Eigen::Index i = 0; i < M; ++i) {
    Eigen::Index count = n_context;
    if (scale == relu_attention_scale::inverse_key_count)
      count = keys == relu_attention_keys::causal ? i + 1 : n_keys;
    divide_in_place(out.col(i).data(), T(count), out.rows());
  }
  return out;
}

template <class T>
Mat<T> relu_attention_forward(const relu_attention_layer<T>& layer, const Mat<T>& E,
                              Eigen::Index n_context) {
  check_relu_attention_shapes(layer, E, n_context);
  if (layer.heads.empty()) return E;
  Mat<T> update = relu_attention_head_update(layer.heads[0], E, n_context, layer.keys, layer.scale);
  for (std::size_t h = 1; h < layer.heads.size(); ++h) {
    const Mat<T> next =
        relu_attention_head_update(layer.heads[h], E, n_context, layer.keys, layer.scale);
    add_in_place(update.data(), next.data(), update.size());
  }
  add_in_place(update.data(), E.data(), update.size());  // E + update, in place
  return update;
}

template <class T>
Mat<T> mlp_forward(const mlp_layer<T>& layer, const Mat<T>& E) {
  check_mlp_shapes(layer, E);
  Mat<T> out = E;
  if (layer.W1.rows() > 0) {
    Mat<T> pre = matmul(layer.W1, E);  // D' x M
    if (layer.b1.size() > 0)
      for (Eigen::Index i = 0; i < pre.cols(); ++i)
        add_in_place(pre.col(i).data(), layer.b1.data(), pre.rows());
    const Mat<T> hidden = matmul(layer.W2, relu(pre));  // D x M
    add_in_place(out.data(), hidden.data(), out.size());
  }
  if (layer.b2.size() > 0)
    for (Eigen::Index i = 0; i < out.cols(); ++i)
      add_in_place(out.col(i).data(), layer.b2.data(), out.rows());
  return out;
}

template <class T>
Mat<T> relu_transformer_block_forward(const relu_transformer_block<T>& block, const Mat<T>& E,
                                      Eigen::Index n_context) {
  return mlp_forward(block.mlp, relu_attention_forward(block.attention, E, n_context));
}

template <class T>
std::vector<Mat<T>> relu_transformer_forward(const relu_transformer<T>& tf, const Mat<T>& E,
                                             Eigen::Index n_context) {
  std::vector<Mat<T>> out{E};
  out.reserve(tf.blocks.size() + 1);
  for (const auto& block : tf.blocks)
    out.push_back(relu_transformer_block_forward(block, out.back(), n_context));
  return out;
}

#define ICLPROOF_INSTANTIATE_RELU_LAYERS(T)                                                   \
  template void check_relu_attention_shapes<T>(const relu_attention_layer<T>&, const Mat<T>&, \
                                               Eigen::Index);                                 \
  template void check_mlp_shapes<T>(const mlp_layer<T>&, const Mat<T>&);                      \
  template Mat<T> relu_attention_head_update<T>(const relu_attention_head<T>&, const Mat<T>&, \
                                                Eigen::Index, relu_attention_keys,            \
                                                relu_attention_scale);                        \
  template Mat<T> relu_attention_forward<T>(const relu_attention_layer<T>&, const Mat<T>&,    \
                                            Eigen::Index);                                    \
  template Mat<T> mlp_forward<T>(const mlp_layer<T>&, const Mat<T>&);                         \
  template Mat<T> relu_transformer_block_forward<T>(const relu_transformer_block<T>&,         \
                                                    const Mat<T>&, Eigen::Index);             \
  template std::vector<Mat<T>> relu_transformer_forward<T>(const relu_transformer<T>&,        \
                                                           const Mat<T>&, Eigen::Index);

}  // namespace iclproof
