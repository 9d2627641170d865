// Definitions of iterative_newton/fu_relu_weights.hpp and ICLPROOF_INSTANTIATE_FU_RELU(T),
// included only by the iterative_newton_weights*.cpp files.
#pragma once
#include "iterative_newton/fu_relu_weights.hpp"

#include <stdexcept>
#include <string>

namespace iclproof {

namespace fu_relu_detail {
template <class T>
Mat<T> selector(Eigen::Index rows, Eigen::Index D, Eigen::Index col) {
  Mat<T> s = Mat<T>::Zero(rows, D);
  s.block(0, col, rows, rows) = Mat<T>::Identity(rows, rows);
  return s;
}
inline void require_d(Eigen::Index d, const char* what) {
  if (d < 1) throw std::invalid_argument(std::string(what) + ": d = " + std::to_string(d) + " < 1");
}
// The identity MLP (no hidden units).
template <class T>
mlp_layer<T> identity_mlp(Eigen::Index D) {
  mlp_layer<T> m;
  m.W1 = Mat<T>(0, D);
  m.W2 = Mat<T>(D, 0);
  return m;
}
// An MLP adding `scale` s(from) = scale (sigma(from) - sigma(-from)) to the block at `to`
// (both blocks `rows` wide): exact, sigma(a) - sigma(-a) = a.
template <class T>
mlp_layer<T> signed_copy_mlp(Eigen::Index rows, Eigen::Index D, Eigen::Index from, Eigen::Index to,
                             const T& scale) {
  const Mat<T> s = selector<T>(rows, D, from);
  const Mat<T> e = Mat<T>(selector<T>(rows, D, to).transpose() * scale);
  mlp_layer<T> m;
  m.W1 = Mat<T>(2 * rows, D);
  m.W1 << s, Mat<T>(-s);
  m.W2 = Mat<T>(D, 2 * rows);
  m.W2 << e, Mat<T>(-e);
  return m;
}
// An attention layer of two heads with opposite queries and opposite values (context keys, no
// 1/n): token t gets sum_j <Q h_t, K h_j> V h_j exactly.
template <class T>
relu_attention_layer<T> signed_pair(const Mat<T>& Q, const Mat<T>& K, const Mat<T>& V) {
  relu_attention_layer<T> a;
  a.keys = relu_attention_keys::context_tokens;
  a.scale = relu_attention_scale::none;
  a.heads.push_back({Q, K, V});
  a.heads.push_back({Mat<T>(-Q), K, Mat<T>(-V)});
  return a;
}
template <class T>
relu_attention_layer<T> no_attention() {
  relu_attention_layer<T> a;
  a.keys = relu_attention_keys::context_tokens;
  a.scale = relu_attention_scale::none;
  return a;
}
}  // namespace fu_relu_detail

template <class T>
Mat<T> fu_relu_tokens(const Mat<T>& X, const Mat<T>& y, const Mat<T>& Xq) {
  const Eigen::Index d = X.rows(), n = X.cols(), Q = Xq.cols();
  if (d < 1 || n < 1 || y.rows() != 1 || y.cols() != n || Xq.rows() != d)
    throw std::invalid_argument(
        "fu_relu_tokens: need X d x n, y 1 x n, Xq d x Q with d, n >= 1; "
        "got X " +
        std::to_string(d) + "x" + std::to_string(n) + ", y " + std::to_string(y.rows()) + "x" +
        std::to_string(y.cols()) + ", Xq " + std::to_string(Xq.rows()) + "x" + std::to_string(Q));
  const fu_relu_rows r{d};
  Mat<T> E = Mat<T>::Zero(r.D(), n + Q);
  E.block(r.x(), 0, d, n) = X;
  E.block(r.y(), 0, 1, n) = y;
  E.block(r.x(), n, d, Q) = Xq;
  return E;
}

template <class T>
relu_transformer_block<T> fu_relu_copy_block(Eigen::Index d, const T& sign) {
  fu_relu_detail::require_d(d, "fu_relu_copy_block");
  const fu_relu_rows r{d};
  return {fu_relu_detail::no_attention<T>(),
          fu_relu_detail::signed_copy_mlp<T>(d, r.D(), r.x(), r.u(), sign)};
}

template <class T>
relu_transformer_block<T> fu_relu_init_block(Eigen::Index d, const T& alpha) {
  using fu_relu_detail::selector;
  fu_relu_detail::require_d(d, "fu_relu_init_block");
  const fu_relu_rows r{d};
  const Eigen::Index D = r.D();
  const Mat<T> su = selector<T>(d, D, r.u()), sx = selector<T>(d, D, r.x());
  // scores x_t^T x_j, values alpha u_j (u_j = x_j after the copy block)
  return {fu_relu_detail::signed_pair<T>(sx, sx, Mat<T>(su.transpose() * su * alpha)),
          fu_relu_detail::identity_mlp<T>(D)};
}

template <class T>
relu_transformer_block<T> fu_relu_newton_block(Eigen::Index d) {
  using fu_relu_detail::selector;
  fu_relu_detail::require_d(d, "fu_relu_newton_block");
  const fu_relu_rows r{d};
  const Eigen::Index D = r.D();
  const Mat<T> su = selector<T>(d, D, r.u()), sx = selector<T>(d, D, r.x());
  // scores -(1/2) x_t^T u_j, values u_j: u += -(1/2) T S T^T x_t; then u += u
  return {
      fu_relu_detail::signed_pair<T>(Mat<T>(sx * T(-T(1) / T(2))), su, Mat<T>(su.transpose() * su)),
      fu_relu_detail::signed_copy_mlp<T>(d, D, r.u(), r.u(), T(1))};
}

template <class T>
relu_transformer_block<T> fu_relu_readout_block(Eigen::Index d) {
  using fu_relu_detail::selector;
  fu_relu_detail::require_d(d, "fu_relu_readout_block");
  const fu_relu_rows r{d};
  const Eigen::Index D = r.D();
  const Mat<T> su = selector<T>(d, D, r.u()), sx = selector<T>(d, D, r.x());
  const Mat<T> sy = selector<T>(1, D, r.y()), ep = selector<T>(1, D, r.p()).transpose();
  // scores x_t^T u_j = x_t^T T x_j, values y_j into p
  return {fu_relu_detail::signed_pair<T>(sx, su, Mat<T>(ep * sy)),
          fu_relu_detail::identity_mlp<T>(D)};
}

template <class T>
relu_transformer<T> fu_relu_transformer(Eigen::Index d, int k, const T& alpha) {
  fu_relu_detail::require_d(d, "fu_relu_transformer");
  if (k < 0)
    throw std::invalid_argument("fu_relu_transformer: k = " + std::to_string(k) + " < 0 steps");
  relu_transformer<T> tf;
  tf.blocks.push_back(fu_relu_copy_block<T>(d, T(1)));
  tf.blocks.push_back(fu_relu_init_block<T>(d, alpha));
  tf.blocks.push_back(fu_relu_copy_block<T>(d, T(-1)));
  for (int j = 0; j < k; ++j) tf.blocks.push_back(fu_relu_newton_block<T>(d));
  tf.blocks.push_back(fu_relu_readout_block<T>(d));
  return tf;
}

template <class T>
Mat<T> fu_relu_context_u(const Mat<T>& E, Eigen::Index d, Eigen::Index n) {
  const fu_relu_rows r{d};
  if (E.rows() != r.D() || E.cols() < n)
    throw std::invalid_argument("fu_relu_context_u: not a token matrix of this d and n");
  return E.block(r.u(), 0, d, n);
}

template <class T>
Mat<T> fu_relu_predictions(const Mat<T>& E, Eigen::Index d, Eigen::Index n) {
  const fu_relu_rows r{d};
  if (E.rows() != r.D() || E.cols() < n)
    throw std::invalid_argument("fu_relu_predictions: not a token matrix of this d and n");
  return E.block(r.p(), n, 1, E.cols() - n);
}

#define ICLPROOF_INSTANTIATE_FU_RELU(T)                                             \
  template Mat<T> fu_relu_tokens<T>(const Mat<T>&, const Mat<T>&, const Mat<T>&);   \
  template relu_transformer_block<T> fu_relu_copy_block<T>(Eigen::Index, const T&); \
  template relu_transformer_block<T> fu_relu_init_block<T>(Eigen::Index, const T&); \
  template relu_transformer_block<T> fu_relu_newton_block<T>(Eigen::Index);         \
  template relu_transformer_block<T> fu_relu_readout_block<T>(Eigen::Index);        \
  template relu_transformer<T> fu_relu_transformer<T>(Eigen::Index, int, const T&); \
  template Mat<T> fu_relu_context_u<T>(const Mat<T>&, Eigen::Index, Eigen::Index);  \
  template Mat<T> fu_relu_predictions<T>(const Mat<T>&, Eigen::Index, Eigen::Index);

}  // namespace iclproof
