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

template <class T>
void check_bai_selection_weights(const bai_selection_weights<T>& p, int steps) {
  const std::size_t K = p.eta.size();
  if (p.d < 1 || p.n_train < 1 || p.n_train >= p.N || K < 1 || p.lambda.size() != K ||
      p.R.size() != K || !(p.gamma > T(0)) || steps < 0)
    throw std::invalid_argument(
        "bai_selection: need d >= 1, 1 <= n_train < N, K >= 1 runs with eta, lambda, R of one "
        "size, gamma > 0, steps >= 0 (got d = " +
        std::to_string(p.d) + ", n_train = " + std::to_string(p.n_train) +
        ", N = " + std::to_string(p.N) + ", sizes " + std::to_string(K) + "/" +
        std::to_string(p.lambda.size()) + "/" + std::to_string(p.R.size()) +
        ", steps = " + std::to_string(steps) + ")");
}

template <class T>
Mat<T> bai_selection_tokens(const Mat<T>& X, const Mat<T>& y, Eigen::Index n_train,
                            const Mat<T>& x_query, Eigen::Index K) {
  const Eigen::Index d = X.rows(), N = X.cols();
  if (d < 1 || N < 2 || K < 1 || n_train < 1 || n_train >= N || y.rows() != 1 || y.cols() != N ||
      x_query.rows() != d || x_query.cols() != 1)
    throw std::invalid_argument(
        "bai_selection_tokens: need X d x N (d >= 1, N >= 2), y 1 x N, x_query d x 1, "
        "1 <= n_train < N, K >= 1 (got X " +
        std::to_string(X.rows()) + "x" + std::to_string(X.cols()) + ", y " +
        std::to_string(y.rows()) + "x" + std::to_string(y.cols()) + ", x_query " +
        std::to_string(x_query.rows()) + "x" + std::to_string(x_query.cols()) +
        ", n_train = " + std::to_string(n_train) + ", K = " + std::to_string(K) + ")");
  const bai_selection_layout L{d, K};
  Mat<T> H = Mat<T>::Zero(L.D(), N + 1);
  for (Eigen::Index i = 0; i <= N; ++i) {
    for (Eigen::Index k = 0; k < d; ++k) H(L.x(k), i) = i < N ? T(X(k, i)) : T(x_query(k, 0));
    H(L.y(), i) = i < N ? T(y(0, i)) : T(0);
    H(L.one(), i) = T(1);
    H(L.t(), i) = i < n_train ? T(1) : i < N ? T(-1) : T(0);
  }
  return H;
}

template <class T>
relu_attention_layer<T> bai_split_gd_attention(const bai_selection_weights<T>& p) {
  check_bai_selection_weights(p, 0);
  const Eigen::Index d = p.d, K = static_cast<Eigen::Index>(p.eta.size());
  const bai_selection_layout L{d, K};
  const T split = T(p.N) / T(p.n_train);  // (1/N) sum over D_train -> mean over D_train
  relu_attention_layer<T> layer;
  layer.keys = relu_attention_keys::all_tokens;
  layer.scale = relu_attention_scale::inverse_context_count;
  for (Eigen::Index r = 0; r < K; ++r) {
    const T eta = p.eta[r], R = p.R[r];
    for (int sign : {1, -1}) {
      const T b(sign), c(-sign);
      relu_attention_head<T> h{Mat<T>::Zero(d + 3, L.D()), Mat<T>::Zero(d + 3, L.D()),
                               Mat<T>::Zero(L.D(), L.D())};
      for (Eigen::Index k = 0; k < d; ++k) {
        h.Q(k, L.w(r, k)) = b;                         // b w_r
        h.K(k, L.x(k)) = T(1);                         // x_j
        h.V(L.w(r, k), L.x(k)) = T(-eta * b * split);  // -eta a x_j (N / n_train)
      }
      h.Q(d, L.one()) = c;  // c * 1 against y_j
      h.K(d, L.y()) = T(1);
      h.Q(d + 1, L.one()) = T(-R);  // -R * 1 against 1
      h.K(d + 1, L.one()) = T(1);
      h.Q(d + 2, L.one()) = R;  // R * 1 against t_j
      h.K(d + 2, L.t()) = T(1);
      layer.heads.push_back(std::move(h));
    }
    if (p.lambda[r] != T(0)) {
      relu_attention_head<T> h{Mat<T>::Zero(1, L.D()), Mat<T>::Zero(1, L.D()),
                               Mat<T>::Zero(L.D(), L.D())};
      h.Q(0, L.one()) = T(1);
      h.K(0, L.t()) = T(1);  // sigma(t_j): 1 on D_train, 0 on D_val and the query
      for (Eigen::Index k = 0; k < d; ++k)
        h.V(L.w(r, k), L.w(r, k)) = T(-eta * p.lambda[r] * split);
      layer.heads.push_back(std::move(h));
    }
  }
  return layer;
}

template <class T>
relu_attention_layer<T> bai_split_readout_attention(const bai_selection_weights<T>& p) {
  check_bai_selection_weights(p, 0);
  const Eigen::Index d = p.d, K = static_cast<Eigen::Index>(p.eta.size());
  const bai_selection_layout L{d, K};
  const T split = T(p.N) / T(p.n_train);
  relu_attention_layer<T> layer;
  layer.keys = relu_attention_keys::all_tokens;
  layer.scale = relu_attention_scale::inverse_context_count;
  for (Eigen::Index r = 0; r < K; ++r)
    for (int sign : {1, -1}) {
      const T a(sign), R = p.R[r];
      relu_attention_head<T> h{Mat<T>::Zero(d + 2, L.D()), Mat<T>::Zero(d + 2, L.D()),
                               Mat<T>::Zero(L.D(), L.D())};
      for (Eigen::Index k = 0; k < d; ++k) {
        h.Q(k, L.x(k)) = a;        // a x_i
        h.K(k, L.w(r, k)) = T(1);  // w_r
      }
      h.Q(d, L.one()) = T(-R);
      h.K(d, L.one()) = T(1);
      h.Q(d + 1, L.one()) = R;
      h.K(d + 1, L.t()) = T(1);
      h.V(L.f(r), L.one()) = T(a * split);  // a e_{f_r}
      layer.heads.push_back(std::move(h));
    }
  return layer;
}

template <class T>
relu_attention_layer<T> bai_validation_attention(const bai_selection_weights<T>& p) {
  check_bai_selection_weights(p, 0);
  const Eigen::Index K = static_cast<Eigen::Index>(p.eta.size());
  const bai_selection_layout L{p.d, K};
  const T scale = T(p.N) / T(2 * (p.N - p.n_train));  // (1/N) sum over D_val -> 1/(2 n_val)
  relu_attention_layer<T> layer;
  layer.keys = relu_attention_keys::all_tokens;
  layer.scale = relu_attention_scale::inverse_context_count;
  for (Eigen::Index r = 0; r < K; ++r)
    for (int sign : {1, -1}) {
      const T a(sign);
      relu_attention_head<T> h{Mat<T>::Zero(4, L.D()), Mat<T>::Zero(4, L.D()),
                               Mat<T>::Zero(L.D(), L.D())};
      h.Q(0, L.one()) = a;  // a f_r(x_j)
      h.K(0, L.f(r)) = T(1);
      h.Q(1, L.one()) = T(-a);  // -a y'_j
      h.K(1, L.y()) = T(1);
      h.Q(2, L.one()) = T(T(-2) * p.R_val);  // -2 R_val (1 + t_j)
      h.K(2, L.one()) = T(1);
      h.Q(3, L.one()) = T(T(-2) * p.R_val);
      h.K(3, L.t()) = T(1);
      h.V(L.loss(r), L.f(r)) = T(a * scale);  // a (f_r(x_j) - y'_j) N / (2 n_val)
      h.V(L.loss(r), L.y()) = T(-a * scale);
      layer.heads.push_back(std::move(h));
    }
  return layer;
}

template <class T>
mlp_layer<T> bai_selection_gap_mlp(const bai_selection_weights<T>& p) {
  check_bai_selection_weights(p, 0);
  const Eigen::Index K = static_cast<Eigen::Index>(p.eta.size());
  const bai_selection_layout L{p.d, K};
  const Eigen::Index hidden = K * (K - 1) + 2 * K;
  mlp_layer<T> mlp{Mat<T>::Zero(hidden, L.D()), Vec<T>(), Mat<T>::Zero(L.D(), hidden), Vec<T>()};
  Eigen::Index u = 0;
  for (Eigen::Index k = 0; k < K; ++k) {
    for (Eigen::Index l = 0; l < K; ++l) {
      if (l == k) continue;
      mlp.W1(u, L.loss(k)) = T(1);  // sigma(L_k - L_l)
      mlp.W1(u, L.loss(l)) = T(-1);
      mlp.W2(L.loss(k), u) = T(1);
      ++u;
    }
    mlp.W1(u, L.loss(k)) = T(1);  // sigma(L_k): minus L_k ...
    mlp.W2(L.loss(k), u) = T(-1);
    ++u;
    mlp.W1(u, L.loss(k)) = T(-1);  // ... as sigma(L_k) - sigma(-L_k)
    mlp.W2(L.loss(k), u) = T(1);
    ++u;
  }
  return mlp;
}

template <class T>
mlp_layer<T> bai_selection_indicator_mlp(const bai_selection_weights<T>& p) {
  check_bai_selection_weights(p, 0);
  const Eigen::Index K = static_cast<Eigen::Index>(p.eta.size());
  const bai_selection_layout L{p.d, K};
  mlp_layer<T> mlp{Mat<T>::Zero(2 * K, L.D()), Vec<T>(), Mat<T>::Zero(L.D(), 2 * K), Vec<T>()};
  for (Eigen::Index k = 0; k < K; ++k) {
    mlp.W1(2 * k, L.one()) = T(1);  // sigma(1 - c_k / gamma)
    mlp.W1(2 * k, L.loss(k)) = T(T(-1) / p.gamma);
    mlp.W2(L.loss(k), 2 * k) = T(1);
    mlp.W1(2 * k + 1, L.loss(k)) = T(1);  // sigma(c_k) = c_k, subtracted
    mlp.W2(L.loss(k), 2 * k + 1) = T(-1);
  }
  return mlp;
}

template <class T>
relu_attention_layer<T> bai_selection_attention(const bai_selection_weights<T>& p) {
  check_bai_selection_weights(p, 0);
  const Eigen::Index K = static_cast<Eigen::Index>(p.eta.size());
  const bai_selection_layout L{p.d, K};
  relu_attention_layer<T> layer;
  layer.keys = relu_attention_keys::all_tokens;
  layer.scale = relu_attention_scale::inverse_key_count;  // 1 / (N + 1), every column
  // Heads (k, w), k = 1..K+1 (run index k - 1), w = 0: f_k, w = 1: f_{k-1}; f_0 = f_{K+1} = 0.
  for (Eigen::Index k = 1; k <= K + 1; ++k)
    for (int w : {0, 1}) {
      relu_attention_head<T> h{Mat<T>::Zero(1, L.D()), Mat<T>::Zero(1, L.D()),
                               Mat<T>::Zero(L.D(), L.D())};
      const Eigen::Index run = w == 0 ? k - 1 : k - 2;  // f_k or f_{k-1}, 0-based
      if (run >= 0 && run < K) h.Q(0, L.f(run)) = T(1);
      h.Q(0, L.one()) = p.R_f;  // query side: f + R_f
      h.K(0, L.one()) = T(1);   // key side: 1 - u_1 - ... - u_{k-1}
      for (Eigen::Index l = 0; l + 1 < k; ++l) h.K(0, L.loss(l)) = T(-1);
      h.V(L.y(), L.one()) = w == 0 ? T(1) : T(-1);
      layer.heads.push_back(std::move(h));
    }
  return layer;
}

template <class T>
relu_transformer<T> bai_selection_layers(const bai_selection_weights<T>& p) {
  check_bai_selection_weights(p, 0);
  const bai_selection_layout L{p.d, static_cast<Eigen::Index>(p.eta.size())};
  const mlp_layer<T> none{Mat<T>(0, L.D()), Vec<T>(), Mat<T>(L.D(), 0), Vec<T>()};
  relu_transformer<T> tf;
  tf.blocks.push_back({bai_validation_attention(p), bai_selection_gap_mlp(p)});
  tf.blocks.push_back({relu_attention_layer<T>{}, bai_selection_indicator_mlp(p)});
  tf.blocks.push_back({bai_selection_attention(p), none});
  return tf;
}

template <class T>
relu_transformer<T> bai_selection_transformer(const bai_selection_weights<T>& p, int steps) {
  check_bai_selection_weights(p, steps);
  const bai_selection_layout L{p.d, static_cast<Eigen::Index>(p.eta.size())};
  const mlp_layer<T> none{Mat<T>(0, L.D()), Vec<T>(), Mat<T>(L.D(), 0), Vec<T>()};
  relu_transformer<T> tf;
  for (int s = 0; s < steps; ++s) tf.blocks.push_back({bai_split_gd_attention(p), none});
  tf.blocks.push_back({bai_split_readout_attention(p), none});
  for (auto& b : bai_selection_layers(p).blocks) tf.blocks.push_back(std::move(b));
  return tf;
}

#define ICLPROOF_INSTANTIATE_BAI(T)                                                              \
  template Mat<T> bai_tokens<T>(const Mat<T>&, const Mat<T>&, const Mat<T>&, const Mat<T>&);     \
  template Mat<T> bai_iterate<T>(const Mat<T>&, Eigen::Index);                                   \
  template T bai_prediction<T>(const Mat<T>&);                                                   \
  template relu_attention_layer<T> bai_gd_attention<T>(Eigen::Index, const T&, const T&,         \
                                                       const T&);                                \
  template relu_attention_layer<T> bai_readout_attention<T>(Eigen::Index, const T&);             \
  template mlp_layer<T> bai_soft_threshold_mlp<T>(Eigen::Index, const T&);                       \
  template relu_transformer<T> bai_ridge_transformer<T>(Eigen::Index, const T&, const T&,        \
                                                        const T&, int);                          \
  template relu_transformer<T> bai_lasso_transformer<T>(Eigen::Index, const T&, const T&,        \
                                                        const T&, int);                          \
  template void check_bai_selection_weights<T>(const bai_selection_weights<T>&, int);            \
  template Mat<T> bai_selection_tokens<T>(const Mat<T>&, const Mat<T>&, Eigen::Index,            \
                                          const Mat<T>&, Eigen::Index);                          \
  template relu_attention_layer<T> bai_split_gd_attention<T>(const bai_selection_weights<T>&);   \
  template relu_attention_layer<T> bai_split_readout_attention<T>(                               \
      const bai_selection_weights<T>&);                                                          \
  template relu_attention_layer<T> bai_validation_attention<T>(const bai_selection_weights<T>&); \
  template mlp_layer<T> bai_selection_gap_mlp<T>(const bai_selection_weights<T>&);               \
  template mlp_layer<T> bai_selection_indicator_mlp<T>(const bai_selection_weights<T>&);         \
  template relu_attention_layer<T> bai_selection_attention<T>(const bai_selection_weights<T>&);  \
  template relu_transformer<T> bai_selection_layers<T>(const bai_selection_weights<T>&);         \
  template relu_transformer<T> bai_selection_transformer<T>(const bai_selection_weights<T>&, int);

}  // namespace iclproof
