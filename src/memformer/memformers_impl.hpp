// Definitions of memformer/memformers.hpp and ICLPROOF_INSTANTIATE_MEMFORMERS(T). Included only by
// the memformers_<scalar>.cpp files, one translation unit per group of scalar types, so each
// scalar's instantiations compile once and in parallel.
#pragma once
#include "memformer/memformers.hpp"
#include "references/first_order_methods.hpp"

#include <stdexcept>

namespace iclproof {

template <class T>
std::vector<Mat<T>> cgd_memformer_forward(const Mat<T>& Z0, const cgd_memformer<T>& m) {
  const std::size_t L = m.layers.size();
  if (m.alpha.size() != L || m.gamma.size() != L)
    throw std::invalid_argument("CGD Memformer: need one alpha and one gamma per layer");
  const T n = T(Z0.cols() - 1);
  std::vector<Mat<T>> Zs{Z0};
  Mat<T> R = Mat<T>::Zero(Z0.rows(), Z0.cols());  // R_{-1} = 0
  for (std::size_t l = 0; l < L; ++l) {
    const Mat<T> attn = multi_head_attention(Zs.back(), m.layers[l]);
    R = l == 0 ? attn : Mat<T>(attn + m.gamma[l] * R);
    const T step = m.alpha[l] / n;
    Zs.push_back(Zs.back() + step * R);
  }
  return Zs;
}

template <class T>
std::vector<Mat<T>> lfom_memformer_forward(const Mat<T>& Z0, const lfom_memformer<T>& m) {
  const std::size_t L = m.layers.size();
  if (m.gamma.size() != L)
    throw std::invalid_argument("LFOM Memformer: need one row of Gamma weights per layer");
  const T n = T(Z0.cols() - 1);
  std::vector<Mat<T>> Zs{Z0};
  std::vector<Mat<T>> registers;
  for (std::size_t l = 0; l < L; ++l) {
    if (m.gamma[l].size() != l + 1)
      throw std::invalid_argument("LFOM Memformer: layer l needs Gamma_0^l .. Gamma_l^l");
    registers.push_back(multi_head_attention(Zs.back(), m.layers[l]));
    Mat<T> update = Mat<T>::Zero(Z0.rows(), Z0.cols());
    for (std::size_t j = 0; j <= l; ++j) {
      const Mat<T>& G = m.gamma[l][j];
      if (G.rows() != Z0.rows() || G.cols() != Z0.cols())
        throw std::invalid_argument("LFOM Memformer: Gamma must have the shape of Z");
      update += G.cwiseProduct(registers[j]);
    }
    Zs.push_back(Zs.back() + update / n);
  }
  return Zs;
}

template <class T>
lfom_memformer<T> matrix_a_lfom_memformer(int N, const std::vector<Mat<T>>& A,
                                          const Mat<T>& lambda) {
  const Eigen::Index L = static_cast<Eigen::Index>(A.size());
  if (lambda.rows() != L || lambda.cols() != L)
    throw std::invalid_argument("LFOM Memformer: lambda must be L x L, L = the number of A_j");
  lfom_memformer<T> m;
  for (Eigen::Index l = 0; l < L; ++l) {
    const Eigen::Index d = A[l].rows();
    m.layers.push_back({{ahn_head<T>(A[l])}});
    std::vector<Mat<T>> row;
    for (Eigen::Index j = 0; j <= l; ++j)
      row.push_back(Mat<T>::Constant(d + 1, N + 1, lambda(l, j)));
    m.gamma.push_back(std::move(row));
  }
  return m;
}

template <class T>
lfom_memformer<T> scalar_lfom_memformer(int d, int N, const std::vector<T>& a,
                                        const Mat<T>& lambda) {
  std::vector<Mat<T>> A;
  for (const T& a_l : a) A.push_back(Mat<T>(a_l * Mat<T>::Identity(d, d)));
  return matrix_a_lfom_memformer<T>(N, A, lambda);
}

template <class T>
lfom_memformer<T> momentum_memformer(int d, int N, const T& eta, const T& beta, int L) {
  return scalar_lfom_memformer<T>(d, N, std::vector<T>(L, T(1)),
                                  momentum_lfom_coefficients(eta, beta, L));
}

template <class T>
lfom_memformer<T> nesterov_memformer(int d, int N, const T& eta, const T& beta, int L) {
  return scalar_lfom_memformer<T>(d, N, std::vector<T>(L, T(1)),
                                  nesterov_lfom_coefficients(eta, beta, L));
}

template <class T>
lfom_memformer<T> token_gamma_memformer(int d, const T& a, const Mat<T>& gamma_row) {
  if (gamma_row.rows() != 1 || gamma_row.cols() < 2)
    throw std::invalid_argument("token-Gamma Memformer: the Gamma row must be 1 x (N+1), N >= 1");
  lfom_memformer<T> m;
  m.layers.push_back({{ahn_head<T>(Mat<T>(a * Mat<T>::Identity(d, d)))}});
  Mat<T> G = Mat<T>::Ones(d + 1, gamma_row.cols());
  G.bottomRows(1) = gamma_row;
  m.gamma.push_back({G});
  return m;
}

template <class T>
cgd_memformer<T> cg_memformer(int d, const std::vector<T>& alpha, const std::vector<T>& gamma) {
  cgd_memformer<T> m;
  const Mat<T> I = Mat<T>::Identity(d, d);
  for (std::size_t l = 0; l < alpha.size(); ++l) m.layers.push_back({{ahn_head<T>(I)}});
  m.alpha = alpha;
  m.gamma = gamma;
  return m;
}

#define ICLPROOF_INSTANTIATE_MEMFORMERS(T)                                                         \
  template std::vector<Mat<T>> cgd_memformer_forward<T>(const Mat<T>&, const cgd_memformer<T>&);   \
  template std::vector<Mat<T>> lfom_memformer_forward<T>(const Mat<T>&, const lfom_memformer<T>&); \
  template lfom_memformer<T> matrix_a_lfom_memformer<T>(int, const std::vector<Mat<T>>&,           \
                                                        const Mat<T>&);                            \
  template lfom_memformer<T> scalar_lfom_memformer<T>(int, int, const std::vector<T>&,             \
                                                      const Mat<T>&);                              \
  template lfom_memformer<T> momentum_memformer<T>(int, int, const T&, const T&, int);             \
  template lfom_memformer<T> nesterov_memformer<T>(int, int, const T&, const T&, int);             \
  template lfom_memformer<T> token_gamma_memformer<T>(int, const T&, const Mat<T>&);               \
  template cgd_memformer<T> cg_memformer<T>(int, const std::vector<T>&, const std::vector<T>&);

}  // namespace iclproof
