// Memformers (the Memformer paper, eqs 17-20; CONSTRUCTIONS.md section 4): the Z-form
// transformer with memory registers that keep earlier layers' attention outputs.
//
// CGD Memformer (one register):
//   R_l = Attn_l(Z_l) + gamma_l R_{l-1}   (R_{-1} = 0, so gamma_0 plays no role),
//   Z_{l+1} = Z_l + (alpha_l / N) R_l.
// With A_l = I, B_l = 0 and the per-instance conjugate-gradient coefficients it runs CG
// (proofs/Memformer.v:cgd_memformer_cg).
//
// LFOM Memformer (a register per layer):
//   R_l = Attn_l(Z_l),
//   Z_{l+1} = Z_l + (1/N) sum_{j<=l} Gamma_j^l (.) R_j     ((.) = Hadamard product).
// With A_j = a_j I and Gamma_j^l = lambda_j^l * ones it is the LFOM
// w_{l+1} = w_l - sum_j lambda_j^l a_j grad R(w_j) (proofs/Memformer.v:lfom_memformer_scalar).
#pragma once

#include "memformer/z_form_transformer.hpp"

#include <vector>

namespace iclproof {

template <class T>
struct cgd_memformer {
  std::vector<linear_transformer_layer<T>> layers;
  std::vector<T> alpha;  // alpha_0 .. alpha_{L-1}
  std::vector<T> gamma;  // gamma_0 .. gamma_{L-1} (gamma_0 multiplies R_{-1} = 0)
};

// Z_0 .. Z_L.
template <class T>
std::vector<Mat<T>> cgd_memformer_forward(const Mat<T>& Z0, const cgd_memformer<T>& m);

template <class T>
struct lfom_memformer {
  std::vector<linear_transformer_layer<T>> layers;
  // gamma[l][j], j = 0..l: the (d+1) x (N+1) Hadamard weights Gamma_j^l.
  std::vector<std::vector<Mat<T>>> gamma;
};

// Z_0 .. Z_L.
template <class T>
std::vector<Mat<T>> lfom_memformer_forward(const Mat<T>& Z0, const lfom_memformer<T>& m);

// An LFOM Memformer with A_j = a_j I, B_j = 0 and scalar Gamma rows Gamma_j^l = lambda(l, j)
// ones((d+1) x (N+1)); lambda is L x L lower triangular. It runs the LFOM with coefficients
// lambda(l, j) a_j.
template <class T>
lfom_memformer<T> scalar_lfom_memformer(int d, int N, const std::vector<T>& a,
                                        const Mat<T>& lambda);

// The CGD Memformer with A_l = I, B_l = 0 and the given coefficients.
template <class T>
cgd_memformer<T> cg_memformer(int d, const std::vector<T>& alpha, const std::vector<T>& gamma);

}  // namespace iclproof
