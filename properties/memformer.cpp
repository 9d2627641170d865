// The CGD and LFOM Memformers (CONSTRUCTIONS.md section 4; the Memformer paper eqs 17-21).
#include "memformer.hpp"

#include "core/ball_linalg.hpp"
#include "core/rational.hpp"

using namespace iclproof;
using namespace iclproof::cite;
using namespace iclproof::memformer_checks;

ICLPROOF_PROPERTY(
    cgd_cg, "memformer.cgd_with_cg_coefficients_reproduces_cg_iterates",
    "The CGD Memformer (A_l = I, B_l = 0) with the per-instance CG coefficients alpha_l, gamma_l "
    "holds y_i - <x_i, w_l^CG> in the last row after layer l, for every token and layer.",
    exact_identity(identity("proofs/Memformer.v:cgd_memformer_cg"),
                   composition("proofs/ConjugateGradient.v:cg_form_cg"))) {
  cgd_reproduces_cg<T>(ctx, [](const Mat<T>& Z0, const std::vector<T>& a, const std::vector<T>& g) {
    return cg_memformer_model<T>(Z0, a, g);
  });
}
ICLPROOF_PROPERTY_BODY(cgd_cg, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(cgd_cg, ::iclproof::ball_real);
ICLPROOF_SIZES(cgd_cg, cg_sizes);

ICLPROOF_PROPERTY(
    cgd_min_norm, "memformer.cgd_after_rank_layers_equals_min_norm_prediction",
    "After rank(H) layers the CGD Memformer with CG coefficients predicts x_q^T w+, w+ the "
    "minimum-norm least-squares solution (rank-deficient X included; identity proved in exact "
    "arithmetic; the CG-termination rounding tolerance is a first-order model, see "
    "properties/memformer.hpp).",
    exact_identity(
        identity("proofs/ConjugateGradient.v:cgd_after_rank_layers_equals_min_norm_prediction"))) {
  cgd_after_rank_layers_equals_min_norm<T>(
      ctx, [](const Mat<T>& Z0, const std::vector<T>& a, const std::vector<T>& g) {
        return cg_memformer_model<T>(Z0, a, g);
      });
}
ICLPROOF_PROPERTY_BODY(cgd_min_norm, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(cgd_min_norm, ::iclproof::ball_real);
ICLPROOF_SIZES(cgd_min_norm, cg_sizes);

ICLPROOF_PROPERTY(
    lfom_scalar, "memformer.lfom_scalar_gamma_equals_lfom",
    "The LFOM Memformer with A_j = a_j I and Gamma_j^l = lambda_j^l ones runs the LFOM "
    "w_{l+1} = w_l - sum_{j<=l} lambda_j^l a_j grad R(w_j).",
    exact_identity(identity("proofs/Memformer.v:lfom_memformer_scalar"))) {
  lfom_scalar_gamma_equals_lfom<T>(
      ctx, [](const Mat<T>& Z0, const std::vector<T>& a, const Mat<T>& lambda) {
        return scalar_lfom_model<T>(Z0, a, lambda);
      });
}
ICLPROOF_PROPERTY_BODY(lfom_scalar, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(lfom_scalar, ::iclproof::ball_real);
ICLPROOF_SIZES(lfom_scalar, zform_sizes);

ICLPROOF_PROPERTY(
    momentum, "memformer.momentum_gd_is_an_lfom_memformer",
    "Heavy-ball momentum (eta, beta; the paper's eta = 0.005, beta = 0.9 included) is the LFOM "
    "Memformer with A_j = I, Gamma_j^l = eta beta^(l-j) ones.",
    exact_identity(identity("proofs/Memformer.v:memformer_momentum"))) {
  momentum_is_lfom_memformer<T>(ctx, [](const Mat<T>& Z0, const T& eta, const T& beta, int L) {
    return momentum_memformer_model<T>(Z0, eta, beta, L);
  });
}
ICLPROOF_PROPERTY_BODY(momentum, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(momentum, ::iclproof::ball_real);
ICLPROOF_SIZES(momentum, lfom_sizes);

ICLPROOF_PROPERTY(
    nesterov, "memformer.nesterov_is_an_lfom_memformer",
    "Nesterov's method (eta, beta; the paper's eta = 0.03, beta = 0.9 included) is the LFOM "
    "Memformer with A_j = I, Gamma_l^l = eta (1 + beta), Gamma_j^l = eta beta^(l-j+1); the "
    "Memformer tracks the look-ahead point v_l.",
    exact_identity(identity("proofs/Memformer.v:memformer_nesterov"))) {
  nesterov_is_lfom_memformer<T>(ctx, [](const Mat<T>& Z0, const T& eta, const T& beta, int L) {
    return nesterov_memformer_model<T>(Z0, eta, beta, L);
  });
}
ICLPROOF_PROPERTY_BODY(nesterov, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(nesterov, ::iclproof::ball_real);
ICLPROOF_SIZES(nesterov, lfom_sizes);

ICLPROOF_PROPERTY(
    diagonal_a, "memformer.diagonal_a_reaches_only_scalings_lambda_times_a_transpose",
    "With scalar Gamma rows and diagonal (or general) A_j the LFOM Memformer is the "
    "preconditioned LFOM with Lambda_j^l = lambda_j^l A_j^T: one matrix per j times scalars, "
    "not an arbitrary diagonal Lambda_j^l as Prop. 2 / eq 21 claims (erratum, CONSTRUCTIONS.md "
    "section 4).",
    exact_identity(identity("proofs/Memformer.v:lfom_memformer_precond"),
                   identity("proofs/Memformer.v:lfom_precond_one_matrix_per_j"),
                   identity("proofs/Memformer.v:lfom_precond_not_arbitrary_diagonal"))) {
  diagonal_a_scalings_are_lambda_a_transpose<T>(
      ctx, [](const Mat<T>& Z0, const std::vector<Mat<T>>& A, const Mat<T>& lambda) {
        return matrix_a_lfom_model<T>(Z0, A, lambda);
      });
}
ICLPROOF_PROPERTY_BODY(diagonal_a, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(diagonal_a, ::iclproof::ball_real);
ICLPROOF_SIZES(diagonal_a, zform_sizes);

ICLPROOF_PROPERTY(
    token_gamma, "memformer.nonconstant_gamma_row_breaks_the_linear_model_reading",
    "On random data, one LFOM Memformer layer whose Gamma has a non-constant last row leaves a "
    "Z_1 that is the state of NO single linear model w (the gap in Prop. 2's proof, A.3; erratum, "
    "CONSTRUCTIONS.md section 4). Exact rationals check a certificate on each case: a solution "
    "W of the normal equations of fitting the last row by W [X, Xq] whose residual is not zero. "
    "Floating point checks instead that the least-squares deviation exceeds 1024 times a "
    "hand-derived rounding bound.",
    exact_identity(identity("proofs/Memformer.v:no_linear_model_certificate"),
                   identity("proofs/Memformer.v:lfom_memformer_nonconstant_gamma"))) {
  nonconstant_gamma_row_breaks_linear_model<T>(ctx,
                                               [](const Mat<T>& Z0, const T& a, const Mat<T>& row) {
                                                 return token_gamma_model<T>(Z0, a, row);
                                               });
}
ICLPROOF_PROPERTY_BODY(token_gamma, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(token_gamma, ::iclproof::ball_real);
ICLPROOF_SIZES(
    token_gamma,
    "fixed: a lower-bound claim (the deviation exceeds a rounding floor) shown on one layer "
    "with d <= 5, N <= 16; larger sizes do not strengthen an existence claim");
