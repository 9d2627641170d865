// Definitions of memformer/memformers.hpp and ICLPROOF_INSTANTIATE_MEMFORMERS(T). Included only by
// the memformers_<scalar>.cpp files, one translation unit per group of scalar types, so each
// scalar's instantiations compile once and in parallel.
#pragma once
#include "memformer/memformers.hpp"

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
lfom_memformer<T> scalar_lfom_memformer(int d, int N, const std::vector<T>& a,
                                        const Mat<T>& lambda) {
  const int L = static_cast<int>(a.size());
  if (lambda.rows() != L || lambda.cols() != L)
    throw std::invalid_argument("scalar LFOM Memformer: lambda must be L x L, L = a.size()");
  lfom_memformer<T> m;
  const Mat<T> I = Mat<T>::Identity(d, d);
  for (int l = 0; l < L; ++l) {
    m.layers.push_back({{ahn_head<T>(Mat<T>(a[l] * I))}});
    std::vector<Mat<T>> row;
    for (int j = 0; j <= l; ++j) row.push_back(Mat<T>::Constant(d + 1, N + 1, lambda(l, j)));
    m.gamma.push_back(std::move(row));
  }
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
  template lfom_memformer<T> scalar_lfom_memformer<T>(int, int, const std::vector<T>&,             \
                                                      const Mat<T>&);                              \
  template cgd_memformer<T> cg_memformer<T>(int, const std::vector<T>&, const std::vector<T>&);

}  // namespace iclproof
