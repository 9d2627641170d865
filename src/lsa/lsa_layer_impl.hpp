// Definitions of lsa/lsa_layer.hpp and ICLPROOF_INSTANTIATE_LSA(T). Included only by the
// lsa_layer_<scalar>.cpp files, one translation unit per group of scalar types, so each
// scalar's instantiations compile once and in parallel.
#pragma once
#include "lsa/lsa_layer.hpp"

#include "core/kernels.hpp"

#include <stdexcept>
#include <string>

namespace iclproof {

namespace {
std::string shape(const auto& m) {
  return std::to_string(m.rows()) + "x" + std::to_string(m.cols());
}
}  // namespace

template <class T>
void check_lsa_shapes(const lsa_layer<T>& layer, const Mat<T>& E, Eigen::Index n_context) {
  const Eigen::Index D = E.rows();
  if (D < 1 || E.cols() < 1)
    throw std::invalid_argument("lsa_layer: the token matrix is empty (" + shape(E) + ")");
  if (n_context < 0 || n_context > E.cols())
    throw std::invalid_argument("lsa_layer: n_context = " + std::to_string(n_context) +
                                " is not between 0 and the " + std::to_string(E.cols()) +
                                " tokens");
  if (layer.mask == lsa_mask::context_keys && n_context < 1)
    throw std::invalid_argument("lsa_layer: a masked layer needs at least one context token");
  for (std::size_t h = 0; h < layer.heads.size(); ++h) {
    const auto& hd = layer.heads[h];
    const bool ok = hd.W_K.cols() == D && hd.W_Q.cols() == D && hd.W_V.cols() == D &&
                    hd.W_K.rows() == hd.W_Q.rows() && hd.P.rows() == D &&
                    hd.P.cols() == hd.W_V.rows();
    if (!ok)
      throw std::invalid_argument("lsa_layer: head " + std::to_string(h) + " has W_K " +
                                  shape(hd.W_K) + ", W_Q " + shape(hd.W_Q) + ", W_V " +
                                  shape(hd.W_V) + ", P " + shape(hd.P) + "; tokens of dimension " +
                                  std::to_string(D) +
                                  " need W_K, W_Q h x D, W_V v x D and P D x v");
  }
}

template <class T>
Mat<T> lsa_head_update(const lsa_head<T>& head, const Mat<T>& E, Eigen::Index n_keys) {
  const Mat<T> C = E.leftCols(n_keys);    // the keys/values
  const Mat<T> V = matmul(head.W_V, C);   // v x n_keys
  const Mat<T> K = matmul(head.W_K, C);   // h x n_keys
  const Mat<T> A = matmul_nt(V, K);       // v x h = sum_i v_i k_i^T
  const Mat<T> PA = matmul(head.P, A);    // D x h
  const Mat<T> Qm = matmul(head.W_Q, E);  // h x M
  return matmul(PA, Qm);                  // D x M
}

template <class T>
Mat<T> lsa_layer_forward(const lsa_layer<T>& layer, const Mat<T>& E, Eigen::Index n_context) {
  check_lsa_shapes(layer, E, n_context);
  const Eigen::Index n_keys = layer.mask == lsa_mask::context_keys ? n_context : E.cols();
  if (layer.heads.empty()) return E;
  Mat<T> update = lsa_head_update(layer.heads[0], E, n_keys);
  for (std::size_t h = 1; h < layer.heads.size(); ++h) {
    const Mat<T> next = lsa_head_update(layer.heads[h], E, n_keys);
    add_in_place(update.data(), next.data(), update.size());
  }
  add_in_place(update.data(), E.data(), update.size());  // E + update, in place
  return update;
}

template <class T>
std::vector<Mat<T>> lsa_stack_forward(const lsa_stack<T>& stack, const Mat<T>& E,
                                      Eigen::Index n_context) {
  std::vector<Mat<T>> out{E};
  out.reserve(stack.layers.size() + 1);
  for (const auto& layer : stack.layers)
    out.push_back(lsa_layer_forward(layer, out.back(), n_context));
  return out;
}

template <class T>
std::vector<Mat<T>> lsa_recurrent_forward(const lsa_layer<T>& layer, const Mat<T>& E,
                                          Eigen::Index n_context, int K) {
  if (K < 0)
    throw std::invalid_argument("lsa_recurrent_forward: K = " + std::to_string(K) +
                                " layers is negative");
  std::vector<Mat<T>> out{E};
  out.reserve(static_cast<std::size_t>(K) + 1);
  for (int k = 0; k < K; ++k) out.push_back(lsa_layer_forward(layer, out.back(), n_context));
  return out;
}

#define ICLPROOF_INSTANTIATE_LSA(T)                                                         \
  template void check_lsa_shapes<T>(const lsa_layer<T>&, const Mat<T>&, Eigen::Index);      \
  template Mat<T> lsa_head_update<T>(const lsa_head<T>&, const Mat<T>&, Eigen::Index);      \
  template Mat<T> lsa_layer_forward<T>(const lsa_layer<T>&, const Mat<T>&, Eigen::Index);   \
  template std::vector<Mat<T>> lsa_stack_forward<T>(const lsa_stack<T>&, const Mat<T>&,     \
                                                    Eigen::Index);                          \
  template std::vector<Mat<T>> lsa_recurrent_forward<T>(const lsa_layer<T>&, const Mat<T>&, \
                                                        Eigen::Index, int);

}  // namespace iclproof
