// Definitions of bai/bai_weights.hpp and ICLPROOF_INSTANTIATE_BAI(T), included only by the
// bai_weights*.cpp files.
#pragma once
#include "bai/bai_weights.hpp"

#include <stdexcept>
#include <string>

namespace iclproof {

template <class T>
Mat<T> bai_tokens(const Mat<T>& X, const Mat<T>& y, const Mat<T>& x_query, const Mat<T>& w0) {
  const Eigen::Index d = X.rows(), N = X.cols();
  if (d < 1 || N < 1 || y.rows() != 1 || y.cols() != N || x_query.rows() != d ||
      x_query.cols() != 1 || w0.rows() != d || w0.cols() != 1)
    throw std::invalid_argument(
        "bai_tokens: need X d x N (d, N >= 1), y 1 x N, x_query d x 1, w0 d x 1 (got X " +
        std::to_string(X.rows()) + "x" + std::to_string(X.cols()) + ", y " +
        std::to_string(y.rows()) + "x" + std::to_string(y.cols()) + ", x_query " +
        std::to_string(x_query.rows()) + "x" + std::to_string(x_query.cols()) + ", w0 " +
        std::to_string(w0.rows()) + "x" + std::to_string(w0.cols()) + ")");
  const bai_layout L{d};
  Mat<T> H = Mat<T>::Zero(L.D(), N + 1);
  for (Eigen::Index i = 0; i <= N; ++i) {
    for (Eigen::Index k = 0; k < d; ++k) {
      H(L.x(k), i) = i < N ? T(X(k, i)) : T(x_query(k, 0));
      H(L.w(k), i) = w0(k, 0);
    }
    H(L.y(), i) = i < N ? T(y(0, i)) : T(0);
    H(L.one(), i) = T(1);
    H(L.t(), i) = i < N ? T(1) : T(0);
  }
  return H;
}

template <class T>
Mat<T> bai_iterate(const Mat<T>& H, Eigen::Index token) {
  const bai_layout L{(H.rows() - 3) / 2};
  if (L.D() != H.rows() || token < 0 || token >= H.cols())
    throw std::invalid_argument("bai_iterate: tokens of dimension " + std::to_string(H.rows()) +
                                " are not 2d + 3, or token " + std::to_string(token) +
                                " is not one of the " + std::to_string(H.cols()));
  return H.block(L.w(0), token, L.d, 1);
}

template <class T>
T bai_prediction(const Mat<T>& H) {
  const bai_layout L{(H.rows() - 3) / 2};
  if (L.D() != H.rows() || H.cols() < 1)
    throw std::invalid_argument("bai_prediction: tokens of dimension " + std::to_string(H.rows()) +
                                " are not 2d + 3");
  return H(L.y(), H.cols() - 1);
}

template <class T>
relu_attention_layer<T> bai_gd_attention(Eigen::Index d, const T& eta, const T& lambda,
                                         const T& R) {
  const bai_layout L{d};
  relu_attention_layer<T> layer;
  layer.keys = relu_attention_keys::all_tokens;
  layer.scale = relu_attention_scale::inverse_context_count;
  for (int sign : {1, -1}) {
    const T b(sign), c(-sign);
    relu_attention_head<T> h{Mat<T>::Zero(d + 3, L.D()), Mat<T>::Zero(d + 3, L.D()),
                             Mat<T>::Zero(L.D(), L.D())};
    for (Eigen::Index k = 0; k < d; ++k) {
      h.Q(k, L.w(k)) = b;                 // b w
      h.K(k, L.x(k)) = T(1);              // x_j
      h.V(L.w(k), L.x(k)) = T(-eta * b);  // -eta a x_j, a = b
    }
    h.Q(d, L.one()) = c;  // c * 1 against y_j
    h.K(d, L.y()) = T(1);
    h.Q(d + 1, L.one()) = T(-R);  // -R * 1 against 1
    h.K(d + 1, L.one()) = T(1);
    h.Q(d + 2, L.one()) = R;  // R * 1 against t_j
    h.K(d + 2, L.t()) = T(1);
    layer.heads.push_back(std::move(h));
  }
  if (lambda != T(0)) {
    relu_attention_head<T> h{Mat<T>::Zero(1, L.D()), Mat<T>::Zero(1, L.D()),
                             Mat<T>::Zero(L.D(), L.D())};
    h.Q(0, L.one()) = T(1);
    h.K(0, L.t()) = T(1);
    for (Eigen::Index k = 0; k < d; ++k) h.V(L.w(k), L.w(k)) = T(-eta * lambda);
    layer.heads.push_back(std::move(h));
  }
  return layer;
}

template <class T>
relu_attention_layer<T> bai_readout_attention(Eigen::Index d, const T& R) {
  const bai_layout L{d};
  relu_attention_layer<T> layer;
  layer.keys = relu_attention_keys::all_tokens;
  layer.scale = relu_attention_scale::inverse_context_count;
  for (int sign : {1, -1}) {
    const T a(sign);
    relu_attention_head<T> h{Mat<T>::Zero(d + 2, L.D()), Mat<T>::Zero(d + 2, L.D()),
                             Mat<T>::Zero(L.D(), L.D())};
    for (Eigen::Index k = 0; k < d; ++k) {
      h.Q(k, L.x(k)) = a;     // a x_i
      h.K(k, L.w(k)) = T(1);  // w
    }
    h.Q(d, L.one()) = T(-R);
    h.K(d, L.one()) = T(1);
    h.Q(d + 1, L.one()) = R;
    h.K(d + 1, L.t()) = T(1);
    h.V(L.y(), L.one()) = a;  // a e_y
    layer.heads.push_back(std::move(h));
  }
  return layer;
}

template <class T>
mlp_layer<T> bai_soft_threshold_mlp(Eigen::Index d, const T& theta) {
  const bai_layout L{d};
  mlp_layer<T> mlp{Mat<T>::Zero(4 * d, L.D()), Vec<T>(), Mat<T>::Zero(L.D(), 4 * d), Vec<T>()};
  for (Eigen::Index k = 0; k < d; ++k) {
    const Eigen::Index u = 4 * k;
    mlp.W1(u, L.w(k)) = T(1);  // sigma(w_k - theta)
    mlp.W1(u, L.one()) = T(-theta);
    mlp.W1(u + 1, L.w(k)) = T(-1);  // sigma(-w_k - theta)
    mlp.W1(u + 1, L.one()) = T(-theta);
    mlp.W1(u + 2, L.w(k)) = T(1);   // sigma(w_k)
    mlp.W1(u + 3, L.w(k)) = T(-1);  // sigma(-w_k)
    mlp.W2(L.w(k), u) = T(1);
    mlp.W2(L.w(k), u + 1) = T(-1);
    mlp.W2(L.w(k), u + 2) = T(-1);
    mlp.W2(L.w(k), u + 3) = T(1);
  }
  return mlp;
}

namespace bai_detail {
inline void check_steps(const char* who, Eigen::Index d, int steps) {
  if (d < 1 || steps < 0)
    throw std::invalid_argument(std::string(who) + ": need d >= 1 and steps >= 0 (got d = " +
                                std::to_string(d) + ", steps = " + std::to_string(steps) + ")");
}
}  // namespace bai_detail

template <class T>
relu_transformer<T> bai_ridge_transformer(Eigen::Index d, const T& eta, const T& lambda, const T& R,
                                          int steps) {
  bai_detail::check_steps("bai_ridge_transformer", d, steps);
  relu_transformer<T> tf;
  const bai_layout L{d};
  const mlp_layer<T> none{Mat<T>(0, L.D()), Vec<T>(), Mat<T>(L.D(), 0), Vec<T>()};
  for (int s = 0; s < steps; ++s)
    tf.blocks.push_back({bai_gd_attention<T>(d, eta, lambda, R), none});
  tf.blocks.push_back({bai_readout_attention<T>(d, R), none});
  return tf;
}

template <class T>
relu_transformer<T> bai_lasso_transformer(Eigen::Index d, const T& eta, const T& lambda, const T& R,
                                          int steps) {
  bai_detail::check_steps("bai_lasso_transformer", d, steps);
  relu_transformer<T> tf;
  const bai_layout L{d};
  const mlp_layer<T> none{Mat<T>(0, L.D()), Vec<T>(), Mat<T>(L.D(), 0), Vec<T>()};
  for (int s = 0; s < steps; ++s)
    tf.blocks.push_back(
        {bai_gd_attention<T>(d, eta, T(0), R), bai_soft_threshold_mlp<T>(d, T(eta * lambda))});
  tf.blocks.push_back({bai_readout_attention<T>(d, R), none});
  return tf;
}

#define ICLPROOF_INSTANTIATE_BAI(T)                                                          \
  template Mat<T> bai_tokens<T>(const Mat<T>&, const Mat<T>&, const Mat<T>&, const Mat<T>&); \
  template Mat<T> bai_iterate<T>(const Mat<T>&, Eigen::Index);                               \
  template T bai_prediction<T>(const Mat<T>&);                                               \
  template relu_attention_layer<T> bai_gd_attention<T>(Eigen::Index, const T&, const T&,     \
                                                       const T&);                            \
  template relu_attention_layer<T> bai_readout_attention<T>(Eigen::Index, const T&);         \
  template mlp_layer<T> bai_soft_threshold_mlp<T>(Eigen::Index, const T&);                   \
  template relu_transformer<T> bai_ridge_transformer<T>(Eigen::Index, const T&, const T&,    \
                                                        const T&, int);                      \
  template relu_transformer<T> bai_lasso_transformer<T>(Eigen::Index, const T&, const T&,    \
                                                        const T&, int);

}  // namespace iclproof
