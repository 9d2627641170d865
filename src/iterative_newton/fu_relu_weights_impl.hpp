// Definitions of iterative_newton/fu_relu_weights.hpp and ICLPROOF_INSTANTIATE_FU_RELU(T),
// included only by the iterative_newton_weights*.cpp files.
#pragma once
#include "iterative_newton/fu_relu_weights.hpp"
#include "lsa/block_selectors.hpp"

#include <stdexcept>
#include <string>

namespace iclproof {

namespace fu_relu_detail {
using block_selectors::require_d;
using block_selectors::selector;
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
inline void require_k(int k, const char* what) {
  if (k < 0)
    throw std::invalid_argument(std::string(what) + ": k = " + std::to_string(k) + " < 0 steps");
}
inline void require_row(const fu_relu_rows& r, Eigen::Index row, Eigen::Index rows,
                        const char* what) {
  if (!r.paper_readout || row < 0 || row + rows > r.D())
    throw std::invalid_argument(std::string(what) + ": rows " + std::to_string(row) + ".." +
                                std::to_string(row + rows) + " are not a block of the paper " +
                                "layout of d = " + std::to_string(r.d));
}
// The 3 x D key K h_j = (1, t_j, t_j^2) of the position rows.
template <class T>
Mat<T> position_key(const fu_relu_rows& r) {
  Mat<T> K = Mat<T>::Zero(3, r.D());
  K(0, r.one()) = T(1);
  K(1, r.pos()) = T(1);
  K(2, r.pos_sq()) = T(1);
  return K;
}
// The 3 x D query Q h_t with <Q h_t, (1, t_j, t_j^2)> = f_t - c (t - shift - t_j)^2, f_t the
// entry `flag_row` times `flag_scale` (written over the 1, t, t^2 rows of h_t):
//   f_t - c (t - shift)^2  +  2 c (t - shift) t_j  -  c t_j^2.
template <class T>
Mat<T> position_query(const fu_relu_rows& r, Eigen::Index flag_row, const T& flag_scale, const T& c,
                      const T& shift) {
  Mat<T> Q = Mat<T>::Zero(3, r.D());
  Q(0, flag_row) += flag_scale;
  Q(0, r.pos_sq()) += T(-c);
  Q(0, r.pos()) += T(T(2) * c * shift);
  Q(0, r.one()) += T(-T(c * shift) * shift);
  Q(1, r.pos()) += T(T(2) * c);
  Q(1, r.one()) += T(T(-2) * c * shift);
  Q(2, r.one()) += T(-c);
  return Q;
}
template <class T>
relu_attention_layer<T> no_attention() {
  relu_attention_layer<T> a;
  a.keys = relu_attention_keys::context_tokens;
  a.scale = relu_attention_scale::none;
  return a;
}
// The 3 set-up blocks and k Newton blocks (both layouts).
template <class T>
void append_setup_and_newton(relu_transformer<T>& tf, const fu_relu_rows& r, int k,
                             const T& alpha) {
  tf.blocks.push_back(fu_relu_copy_block<T>(r, T(1)));
  tf.blocks.push_back(fu_relu_init_block<T>(r, alpha));
  tf.blocks.push_back(fu_relu_copy_block<T>(r, T(-1)));
  for (int j = 0; j < k; ++j) tf.blocks.push_back(fu_relu_newton_block<T>(r));
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
  const fu_relu_rows r(d);
  Mat<T> E = Mat<T>::Zero(r.D(), n + Q);
  E.block(r.x(), 0, d, n) = X;
  E.block(r.y(), 0, 1, n) = y;
  E.block(r.x(), n, d, Q) = Xq;
  return E;
}

template <class T>
relu_transformer_block<T> fu_relu_copy_block(const fu_relu_rows& r, const T& sign) {
  fu_relu_detail::require_d(r.d, "fu_relu_copy_block");
  return {fu_relu_detail::no_attention<T>(),
          fu_relu_detail::signed_copy_mlp<T>(r.d, r.D(), r.x(), r.u(), sign)};
}

template <class T>
relu_transformer_block<T> fu_relu_init_block(const fu_relu_rows& r, const T& alpha) {
  using fu_relu_detail::selector;
  const Eigen::Index d = r.d, D = r.D();
  fu_relu_detail::require_d(d, "fu_relu_init_block");
  const Mat<T> su = selector<T>(d, D, r.u()), sx = selector<T>(d, D, r.x());
  // scores x_t^T x_j, values alpha u_j (u_j = x_j after the copy block)
  return {fu_relu_detail::signed_pair<T>(sx, sx, Mat<T>(su.transpose() * su * alpha)),
          fu_relu_detail::identity_mlp<T>(D)};
}

template <class T>
relu_transformer_block<T> fu_relu_newton_block(const fu_relu_rows& r) {
  using fu_relu_detail::selector;
  const Eigen::Index d = r.d, D = r.D();
  fu_relu_detail::require_d(d, "fu_relu_newton_block");
  const Mat<T> su = selector<T>(d, D, r.u()), sx = selector<T>(d, D, r.x());
  // scores -(1/2) x_t^T u_j, values u_j: u += -(1/2) T S T^T x_t; then u += u
  return {
      fu_relu_detail::signed_pair<T>(Mat<T>(sx * T(-T(1) / T(2))), su, Mat<T>(su.transpose() * su)),
      fu_relu_detail::signed_copy_mlp<T>(d, D, r.u(), r.u(), T(1))};
}

template <class T>
relu_transformer_block<T> fu_relu_readout_block(const fu_relu_rows& r) {
  using fu_relu_detail::selector;
  const Eigen::Index d = r.d, D = r.D();
  fu_relu_detail::require_d(d, "fu_relu_readout_block");
  const Mat<T> su = selector<T>(d, D, r.u()), sx = selector<T>(d, D, r.x());
  const Mat<T> sy = selector<T>(1, D, r.y()), ep = selector<T>(1, D, r.p()).transpose();
  // scores x_t^T u_j = x_t^T T x_j, values y_j into p
  return {fu_relu_detail::signed_pair<T>(sx, su, Mat<T>(ep * sy)),
          fu_relu_detail::identity_mlp<T>(D)};
}

template <class T>
relu_transformer<T> fu_relu_transformer(Eigen::Index d, int k, const T& alpha) {
  fu_relu_detail::require_d(d, "fu_relu_transformer");
  fu_relu_detail::require_k(k, "fu_relu_transformer");
  relu_transformer<T> tf;
  fu_relu_detail::append_setup_and_newton<T>(tf, fu_relu_rows(d), k, alpha);
  tf.blocks.push_back(fu_relu_readout_block<T>(fu_relu_rows(d)));
  return tf;
}

template <class T>
Mat<T> fu_relu_context_u(const Mat<T>& E, Eigen::Index d, Eigen::Index n) {
  const fu_relu_rows r(d);
  if (E.rows() != r.D() || E.cols() < n)
    throw std::invalid_argument("fu_relu_context_u: not a token matrix of this d and n");
  return E.block(r.u(), 0, d, n);
}

template <class T>
Mat<T> fu_relu_predictions(const Mat<T>& E, Eigen::Index d, Eigen::Index n) {
  const fu_relu_rows r(d);
  if (E.rows() != r.D() || E.cols() < n)
    throw std::invalid_argument("fu_relu_predictions: not a token matrix of this d and n");
  return E.block(r.p(), n, 1, E.cols() - n);
}

template <class T>
Mat<T> fu_paper_tokens(const Mat<T>& X, const Mat<T>& y, const Mat<T>& x_test) {
  const Eigen::Index d = X.rows(), n = X.cols();
  if (d < 1 || n < 1 || y.rows() != 1 || y.cols() != n || x_test.rows() != d || x_test.cols() != 1)
    throw std::invalid_argument(
        "fu_paper_tokens: need X d x n, y 1 x n, x_test d x 1 with d, n >= 1; got X " +
        std::to_string(d) + "x" + std::to_string(n) + ", y " + std::to_string(y.rows()) + "x" +
        std::to_string(y.cols()) + ", x_test " + std::to_string(x_test.rows()) + "x" +
        std::to_string(x_test.cols()));
  const fu_relu_rows r(d, true);
  Mat<T> E = Mat<T>::Zero(r.D(), 2 * n + 1);
  for (Eigen::Index j = 0; j < n; ++j) {
    E.block(r.x(), 2 * j, d, 1) = X.col(j);
    E(r.y(), 2 * j + 1) = y(0, j);
    E(r.label(), 2 * j + 1) = T(1);
  }
  E.block(r.x(), 2 * n, d, 1) = x_test;
  E(r.query(), 2 * n) = T(1);
  for (Eigen::Index t = 0; t <= 2 * n; ++t) {
    E(r.one(), t) = T(1);
    E(r.pos(), t) = T(static_cast<int>(t + 1));
    E(r.pos_sq(), t) = T(static_cast<int>((t + 1) * (t + 1)));
  }
  return E;
}

template <class T>
relu_transformer_block<T> fu_paper_mov_block(const fu_relu_rows& r, Eigen::Index receiver,
                                             Eigen::Index from, Eigen::Index to) {
  using fu_relu_detail::selector;
  fu_relu_detail::require_row(r, receiver, 1, "fu_paper_mov_block (receiver)");
  fu_relu_detail::require_row(r, from, r.d, "fu_paper_mov_block (from)");
  fu_relu_detail::require_row(r, to, r.d, "fu_paper_mov_block (to)");
  // score flag_t - (t - 1 - t_j)^2: flag_t at the previous column, <= flag_t - 1 <= 0 elsewhere
  relu_attention_layer<T> a;
  a.keys = relu_attention_keys::all_tokens;
  a.scale = relu_attention_scale::none;
  a.heads.push_back(
      {fu_relu_detail::position_query<T>(r, receiver, T(1), T(1), T(1)),
       fu_relu_detail::position_key<T>(r),
       Mat<T>(selector<T>(r.d, r.D(), to).transpose() * selector<T>(r.d, r.D(), from))});
  return {a, fu_relu_detail::identity_mlp<T>(r.D())};
}

template <class T>
relu_transformer_block<T> fu_paper_label_mul_block(const fu_relu_rows& r, const T& label_bound) {
  using fu_relu_detail::selector;
  fu_relu_detail::require_row(r, r.v(), r.d, "fu_paper_label_mul_block");
  // scores +-y_t - Y (t - t_j)^2, values +-v_j into m
  const Mat<T> V = selector<T>(r.d, r.D(), r.m()).transpose() * selector<T>(r.d, r.D(), r.v());
  relu_attention_layer<T> a;
  a.keys = relu_attention_keys::all_tokens;
  a.scale = relu_attention_scale::none;
  for (const T& sign : {T(1), T(-1)})
    a.heads.push_back({fu_relu_detail::position_query<T>(r, r.y(), sign, label_bound, T(0)),
                       fu_relu_detail::position_key<T>(r), Mat<T>(V * sign)});
  return {a, fu_relu_detail::identity_mlp<T>(r.D())};
}

template <class T>
relu_transformer_block<T> fu_paper_sum_block(const fu_relu_rows& r) {
  using fu_relu_detail::selector;
  fu_relu_detail::require_row(r, r.w(), r.d, "fu_paper_sum_block");
  // Lemma B.3 as printed: Q_1 = K_1 = Q_2 = the constant-1 selector, K_2 = -K_1, V_1 = V_2
  const Mat<T> one = selector<T>(1, r.D(), r.one());
  const Mat<T> V = selector<T>(r.d, r.D(), r.w()).transpose() * selector<T>(r.d, r.D(), r.m());
  relu_attention_layer<T> a;
  a.keys = relu_attention_keys::context_tokens;
  a.scale = relu_attention_scale::none;
  a.heads.push_back({one, one, V});
  a.heads.push_back({one, Mat<T>(-one), V});
  return {a, fu_relu_detail::identity_mlp<T>(r.D())};
}

template <class T>
relu_transformer_block<T> fu_paper_query_mul_block(const fu_relu_rows& r) {
  using fu_relu_detail::selector;
  fu_relu_detail::require_row(r, r.wq(), r.d, "fu_paper_query_mul_block");
  // scores +-<x_t, wq_j>, values +-1 into p: only the query token has wq != 0
  relu_attention_layer<T> a = fu_relu_detail::signed_pair<T>(
      selector<T>(r.d, r.D(), r.x()), selector<T>(r.d, r.D(), r.wq()),
      Mat<T>(selector<T>(1, r.D(), r.p()).transpose() * selector<T>(1, r.D(), r.one())));
  a.keys = relu_attention_keys::all_tokens;
  return {a, fu_relu_detail::identity_mlp<T>(r.D())};
}

template <class T>
relu_transformer<T> fu_paper_transformer(Eigen::Index d, int k, const T& alpha,
                                         const T& label_bound) {
  fu_relu_detail::require_d(d, "fu_paper_transformer");
  fu_relu_detail::require_k(k, "fu_paper_transformer");
  const fu_relu_rows r(d, true);
  relu_transformer<T> tf;
  fu_relu_detail::append_setup_and_newton<T>(tf, r, k, alpha);
  tf.blocks.push_back(fu_paper_mov_block<T>(r, r.label(), r.u(), r.v()));   // R1, eq. 33
  tf.blocks.push_back(fu_paper_label_mul_block<T>(r, label_bound));         // R2, eq. 33
  tf.blocks.push_back(fu_paper_sum_block<T>(r));                            // R3, Lemma B.3
  tf.blocks.push_back(fu_paper_mov_block<T>(r, r.query(), r.w(), r.wq()));  // R4, eq. 35
  tf.blocks.push_back(fu_paper_query_mul_block<T>(r));                      // R5, eq. 35
  return tf;
}

namespace fu_relu_detail {
inline void require_paper_tokens(Eigen::Index rows, Eigen::Index cols, Eigen::Index d,
                                 Eigen::Index n, const char* what) {
  if (rows != fu_relu_rows(d, true).D() || cols != 2 * n + 1)
    throw std::invalid_argument(
        std::string(what) + ": a " + std::to_string(rows) + " x " + std::to_string(cols) +
        " matrix is not a paper-layout token matrix of d = " + std::to_string(d) +
        ", n = " + std::to_string(n));
}
}  // namespace fu_relu_detail

template <class T>
Mat<T> fu_paper_context_u(const Mat<T>& E, Eigen::Index d, Eigen::Index n) {
  fu_relu_detail::require_paper_tokens(E.rows(), E.cols(), d, n, "fu_paper_context_u");
  const fu_relu_rows r(d, true);
  Mat<T> U(d, n);
  for (Eigen::Index j = 0; j < n; ++j) U.col(j) = E.block(r.u(), 2 * j, d, 1);
  return U;
}

template <class T>
Mat<T> fu_paper_prediction(const Mat<T>& E, Eigen::Index d, Eigen::Index n) {
  fu_relu_detail::require_paper_tokens(E.rows(), E.cols(), d, n, "fu_paper_prediction");
  return E.block(fu_relu_rows(d, true).p(), 2 * n, 1, 1);
}

#define ICLPROOF_INSTANTIATE_FU_RELU(T)                                                          \
  template Mat<T> fu_relu_tokens<T>(const Mat<T>&, const Mat<T>&, const Mat<T>&);                \
  template relu_transformer_block<T> fu_relu_copy_block<T>(const fu_relu_rows&, const T&);       \
  template relu_transformer_block<T> fu_relu_init_block<T>(const fu_relu_rows&, const T&);       \
  template relu_transformer_block<T> fu_relu_newton_block<T>(const fu_relu_rows&);               \
  template relu_transformer_block<T> fu_relu_readout_block<T>(const fu_relu_rows&);              \
  template Mat<T> fu_paper_tokens<T>(const Mat<T>&, const Mat<T>&, const Mat<T>&);               \
  template relu_transformer_block<T> fu_paper_mov_block<T>(const fu_relu_rows&, Eigen::Index,    \
                                                           Eigen::Index, Eigen::Index);          \
  template relu_transformer_block<T> fu_paper_label_mul_block<T>(const fu_relu_rows&, const T&); \
  template relu_transformer_block<T> fu_paper_sum_block<T>(const fu_relu_rows&);                 \
  template relu_transformer_block<T> fu_paper_query_mul_block<T>(const fu_relu_rows&);           \
  template relu_transformer<T> fu_paper_transformer<T>(Eigen::Index, int, const T&, const T&);   \
  template Mat<T> fu_paper_context_u<T>(const Mat<T>&, Eigen::Index, Eigen::Index);              \
  template Mat<T> fu_paper_prediction<T>(const Mat<T>&, Eigen::Index, Eigen::Index);             \
  template relu_transformer<T> fu_relu_transformer<T>(Eigen::Index, int, const T&);              \
  template Mat<T> fu_relu_context_u<T>(const Mat<T>&, Eigen::Index, Eigen::Index);               \
  template Mat<T> fu_relu_predictions<T>(const Mat<T>&, Eigen::Index, Eigen::Index);

}  // namespace iclproof
