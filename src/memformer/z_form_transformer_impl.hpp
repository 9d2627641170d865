// Definitions of memformer/z_form_transformer.hpp and ICLPROOF_INSTANTIATE_Z_FORM(T). Included only
// by the z_form_transformer_<scalar>.cpp files, one translation unit per group of scalar types, so
// each scalar's instantiations compile once and in parallel.
#pragma once
#include "memformer/z_form_transformer.hpp"

#include "core/kernels.hpp"

#include <stdexcept>
#include <string>

namespace iclproof {

template <class T>
Mat<T> make_prompt(const Mat<T>& X, const Mat<T>& y, const Mat<T>& xq) {
  if (y.rows() != 1 || y.cols() != X.cols())
    throw std::invalid_argument("make_prompt: y must be 1 x N with N the columns of X");
  if (xq.rows() != X.rows() || xq.cols() != 1)
    throw std::invalid_argument("make_prompt: x_q must be d x 1");
  if (X.cols() < 1) throw std::invalid_argument("make_prompt: need N >= 1 context examples");
  const Eigen::Index d = X.rows(), N = X.cols();
  Mat<T> Z = Mat<T>::Zero(d + 1, N + 1);
  Z.topLeftCorner(d, N) = X;
  Z.topRightCorner(d, 1) = xq;
  Z.bottomLeftCorner(1, N) = y;
  return Z;
}

template <class T>
attention_head<T> ahn_head(const Mat<T>& A, const Mat<T>& B) {
  const Eigen::Index d = A.rows();
  if (A.cols() != d || B.rows() != d || B.cols() != d)
    throw std::invalid_argument("ahn_head: A and B must be d x d");
  attention_head<T> h{Mat<T>::Zero(d + 1, d + 1), Mat<T>::Zero(d + 1, d + 1)};
  h.P.topLeftCorner(d, d) = B;
  h.P(d, d) = T(1);
  h.Q.topLeftCorner(d, d) = -A;
  return h;
}

template <class T>
attention_head<T> ahn_head(const Mat<T>& A) {
  return ahn_head<T>(A, Mat<T>::Zero(A.rows(), A.rows()));
}

template <class T>
void check_layer_shapes(const Mat<T>& Z, const linear_transformer_layer<T>& layer) {
  const Eigen::Index D = Z.rows();
  if (D < 2 || Z.cols() < 2)
    throw std::invalid_argument("Z-form transformer: Z must be (d+1) x (N+1) with d, N >= 1");
  for (const auto& h : layer.heads)
    if (h.P.rows() != D || h.P.cols() != D || h.Q.rows() != D || h.Q.cols() != D)
      throw std::invalid_argument(
          "Z-form transformer: P and Q must be (d+1) x (d+1), got " + std::to_string(h.P.rows()) +
          "x" + std::to_string(h.P.cols()) + " and " + std::to_string(h.Q.rows()) + "x" +
          std::to_string(h.Q.cols()) + " for Z with " + std::to_string(D) + " rows");
}

template <class T>
Mat<T> masked_linear_attention(const Mat<T>& Z, const attention_head<T>& head) {
  const Eigen::Index N = Z.cols() - 1;
  const Mat<T> context = Z.leftCols(N);             // Z M without the zero column
  const Mat<T> gram = matmul_nt(context, context);  // Z M Z^T, (d+1) x (d+1)
  const Mat<T> QZ = matmul(head.Q, Z);              // (d+1) x (N+1)
  return matmul(head.P, Mat<T>(matmul(gram, QZ)));
}

template <class T>
Mat<T> multi_head_attention(const Mat<T>& Z, const linear_transformer_layer<T>& layer) {
  check_layer_shapes(Z, layer);
  if (layer.heads.empty()) return Mat<T>::Zero(Z.rows(), Z.cols());
  Mat<T> sum = masked_linear_attention(Z, layer.heads[0]);
  for (std::size_t h = 1; h < layer.heads.size(); ++h) {
    const Mat<T> next = masked_linear_attention(Z, layer.heads[h]);
    add_in_place(sum.data(), next.data(), sum.size());
  }
  return sum;
}

template <class T>
std::vector<Mat<T>> linear_transformer_forward(
    const Mat<T>& Z0, const std::vector<linear_transformer_layer<T>>& layers) {
  const T n = T(Z0.cols() - 1);
  std::vector<Mat<T>> Zs{Z0};
  for (const auto& layer : layers) {
    Mat<T> next = multi_head_attention(Zs.back(), layer);
    divide_in_place(next.data(), n, next.size());
    add_in_place(next.data(), Zs.back().data(), next.size());  // Z + attn / n, in place
    Zs.push_back(std::move(next));
  }
  return Zs;
}

#define ICLPROOF_INSTANTIATE_Z_FORM(T)                                                        \
  template Mat<T> make_prompt<T>(const Mat<T>&, const Mat<T>&, const Mat<T>&);                \
  template attention_head<T> ahn_head<T>(const Mat<T>&, const Mat<T>&);                       \
  template attention_head<T> ahn_head<T>(const Mat<T>&);                                      \
  template void check_layer_shapes<T>(const Mat<T>&, const linear_transformer_layer<T>&);     \
  template Mat<T> masked_linear_attention<T>(const Mat<T>&, const attention_head<T>&);        \
  template Mat<T> multi_head_attention<T>(const Mat<T>&, const linear_transformer_layer<T>&); \
  template std::vector<Mat<T>> linear_transformer_forward<T>(                                 \
      const Mat<T>&, const std::vector<linear_transformer_layer<T>>&);

}  // namespace iclproof
