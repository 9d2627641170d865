// Definitions of implicit_weights.hpp; instantiated per scalar group.
#pragma once
#include "implicit_weights/implicit_weights.hpp"

#include <stdexcept>
#include <string>

namespace iclproof::implicit_weights_detail {

template <class T>
Mat<T> token_map(const lsa_layer<T>& layer, const Mat<T>& context) {
  if (layer.mask != lsa_mask::context_keys)
    throw std::invalid_argument(
        "implicit weights: the layer is unmasked (the query is a key/value); Theorem 4.1 is "
        "about masked layers");
  const Eigen::Index D = context.rows();
  check_lsa_shapes(layer, context, context.cols());
  const Mat<T> G = matmul_nt(context, context);  // sum_i e_i e_i^T
  Mat<T> C = Mat<T>::Zero(D, D);
  for (const auto& h : layer.heads) {
    const Mat<T> PV = matmul(h.P, h.W_V);       // D x D
    const Mat<T> KQ = matmul_tn(h.W_K, h.W_Q);  // D x D
    C += matmul(matmul(PV, G), KQ);
  }
  return C;
}

template <class T>
implicit_state<T> layer_update(const implicit_state<T>& s, const Mat<T>& C) {
  const Eigen::Index d = s.M.rows(), o = s.a.rows();
  if (C.rows() != d + o || C.cols() != d + o)
    throw std::invalid_argument("implicit weights: the token map is " + std::to_string(C.rows()) +
                                "x" + std::to_string(C.cols()) + ", the state needs " +
                                std::to_string(d + o) + " rows and columns");
  const Mat<T> IA = Mat<T>::Identity(d, d) + C.topLeftCorner(d, d);
  const Mat<T> B = C.topRightCorner(d, o);
  const Mat<T> Cyx = C.bottomLeftCorner(o, d);
  const Mat<T> ID = Mat<T>::Identity(o, o) + C.bottomRightCorner(o, o);
  const T sign(-1);
  implicit_state<T> n;
  n.M = matmul(IA, s.M) + sign * matmul_nt(B, s.w);
  n.u = matmul(IA, s.u) + matmul(B, s.a);
  n.a = matmul(ID, s.a) + matmul(Cyx, s.u);
  n.w = matmul_nt(s.w, ID) + sign * matmul_tn(s.M, Mat<T>(Cyx.transpose()));
  return n;
}

template <class T>
Mat<T> tokens(const implicit_state<T>& s, const Mat<T>& X, const Mat<T>& Y) {
  const Eigen::Index d = s.M.rows(), o = s.a.rows();
  if (X.rows() != d || Y.rows() != o || X.cols() != Y.cols())
    throw std::invalid_argument("implicit weights: X must be d x n and Y o x n (d = " +
                                std::to_string(d) + ", o = " + std::to_string(o) + ")");
  const T sign(-1);
  Mat<T> E(d + o, X.cols());
  E.topRows(d) = matmul(s.M, X) + matmul(s.u, Y);
  E.bottomRows(o) = matmul(s.a, Y) + sign * matmul_tn(s.w, X);
  return E;
}

template <class T>
std::vector<implicit_state<T>> read(const lsa_stack<T>& stack, const Mat<T>& X0, const Mat<T>& Y0) {
  if (X0.cols() < 1 || X0.cols() != Y0.cols())
    throw std::invalid_argument(
        "implicit weights: the context needs n >= 1 columns in both X and Y");
  const Mat<T>&X = X0, &Y = Y0;
  std::vector<implicit_state<T>> out{implicit_identity_state<T>(X.rows(), Y.rows())};
  out.reserve(stack.layers.size() + 1);
  for (const auto& layer : stack.layers) {
    const Mat<T> context = tokens<T>(out.back(), X, Y);
    out.push_back(layer_update<T>(out.back(), token_map<T>(layer, context)));
  }
  return out;
}

}  // namespace iclproof::implicit_weights_detail

namespace iclproof {

template <class T>
Mat<T> lsa_token_map(const lsa_layer<T>& layer, const Mat<T>& context) {
  return implicit_weights_detail::token_map<T>(layer, context);
}

template <class T>
implicit_state<T> implicit_identity_state(Eigen::Index d, Eigen::Index o) {
  return {Mat<T>::Identity(d, d), Mat<T>::Zero(d, o), Mat<T>::Identity(o, o), Mat<T>::Zero(d, o)};
}

template <class T>
Mat<T> implicit_tokens(const implicit_state<T>& s, const Mat<T>& X, const Mat<T>& Y) {
  return implicit_weights_detail::tokens<T>(s, X, Y);
}

template <class T>
implicit_state<T> implicit_layer_update(const implicit_state<T>& s, const Mat<T>& C) {
  return implicit_weights_detail::layer_update<T>(s, C);
}

template <class T>
std::vector<implicit_state<T>> read_implicit_weights(const lsa_stack<T>& stack, const Mat<T>& X,
                                                     const Mat<T>& Y) {
  return implicit_weights_detail::read<T>(stack, X, Y);
}

#define ICLPROOF_INSTANTIATE_IMPLICIT_WEIGHTS(T)                                             \
  template Mat<T> lsa_token_map(const lsa_layer<T>&, const Mat<T>&);                         \
  template implicit_state<T> implicit_identity_state<T>(Eigen::Index, Eigen::Index);         \
  template Mat<T> implicit_tokens(const implicit_state<T>&, const Mat<T>&, const Mat<T>&);   \
  template implicit_state<T> implicit_layer_update(const implicit_state<T>&, const Mat<T>&); \
  template std::vector<implicit_state<T>> read_implicit_weights(const lsa_stack<T>&,         \
                                                                const Mat<T>&, const Mat<T>&);

}  // namespace iclproof
