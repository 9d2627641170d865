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

// An LFOM Memformer with one head per layer, general d x d matrices A_j, B_j = 0, and scalar
// Gamma rows Gamma_j^l = lambda(l, j) ones((d+1) x (N+1)); lambda is L x L, L = A.size(), and
// only its lower triangle is read. It runs the preconditioned LFOM
// w_{l+1} = w_l - sum_{j<=l} lambda(l, j) A_j^T grad R(w_j) (proofs/Memformer.v:
// lfom_memformer_precond): for diagonal A_j the per-coordinate scalings are lambda(l, j) A_j^T,
// one matrix per j (the Prop. 2 erratum, CONSTRUCTIONS.md section 4).
template <class T>
lfom_memformer<T> matrix_a_lfom_memformer(int N, const std::vector<Mat<T>>& A,
                                          const Mat<T>& lambda);

// The same with A_j = a_j I: it runs the LFOM with coefficients lambda(l, j) a_j
// (proofs/Memformer.v:lfom_memformer_scalar).
template <class T>
lfom_memformer<T> scalar_lfom_memformer(int d, int N, const std::vector<T>& a,
                                        const Mat<T>& lambda);

// Heavy-ball momentum (eta, beta), L layers: A_j = I and Gamma_j^l = eta beta^(l-j) ones
// (proofs/Memformer.v:memformer_momentum; the coefficients are momentum_lfom_coefficients of
// references/first_order_methods.hpp).
template <class T>
lfom_memformer<T> momentum_memformer(int d, int N, const T& eta, const T& beta, int L);

// Nesterov (eta, beta), L layers: A_j = I, Gamma_l^l = eta (1 + beta), Gamma_j^l =
// eta beta^(l-j+1) for j < l; the last row tracks the look-ahead point v_l
// (proofs/Memformer.v:memformer_nesterov; nesterov_lfom_coefficients).
template <class T>
lfom_memformer<T> nesterov_memformer(int d, int N, const T& eta, const T& beta, int L);

// One LFOM Memformer layer with A = a I, B = 0 and per-token weights: Gamma = ones except its
// last row, gamma_row (1 x (N+1)). With a non-constant row no single linear model explains the
// output (the gap in the Memformer paper's Prop. 2 proof; proofs/Memformer.v:
// lfom_memformer_nonconstant_gamma).
template <class T>
lfom_memformer<T> token_gamma_memformer(int d, const T& a, const Mat<T>& gamma_row);

// The CGD Memformer with A_l = I, B_l = 0 and the given coefficients.
template <class T>
cgd_memformer<T> cg_memformer(int d, const std::vector<T>& alpha, const std::vector<T>& gamma);

}  // namespace iclproof
