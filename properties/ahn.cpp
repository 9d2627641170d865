// Ahn et al. (2024) Lemma 1 on the Z-form linear transformer (CONSTRUCTIONS.md section 3).
#include "ahn.hpp"

#include "core/ball_linalg.hpp"
#include "core/rational.hpp"

using namespace iclproof;
using namespace iclproof::cite;
using namespace iclproof::memformer_checks;

ICLPROOF_PROPERTY(
    ahn_lemma1, "ahn.lemma1_layers_run_preconditioned_gd_with_a_transpose",
    "L Z-form layers with P = [[0,0],[0,1]], Q = -[[A_lh,0],[0,0]] (A general, non-symmetric, "
    "heads summed) leave the x-rows unchanged and hold y_i - <x_i, w_l> in the last row, with "
    "w_{l+1} = w_l - (sum_h A_lh)^T grad R(w_l), w_0 = 0, noisy labels included; the read-out "
    "-Z_L[d, N] is <x_q, w_L>.",
    exact_identity(identity("proofs/AhnLemma1.v:ahn_lemma1_multihead"),
                   identity("proofs/AhnLemma1.v:ahn_lemma1_multihead_readout"))) {
  lemma1_preconditioned_gd<T>(
      ctx, [](const Mat<T>& Z0, const auto& layers) { return zform_model<T>(Z0, layers); });
}
ICLPROOF_PROPERTY_BODY(ahn_lemma1, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(ahn_lemma1, ::iclproof::ball_real);
ICLPROOF_SIZES(ahn_lemma1, zform_sizes);

ICLPROOF_PROPERTY(
    ahn_x_rows, "ahn.x_rows_follow_the_sheet_formula_when_b_is_nonzero",
    "With B_l != 0 the rows move as X_{l+1} = X_l - (1/N) B_l Xbar_l Xbar_l^T A_l X_l and "
    "Y_{l+1} = Y_l - (1/N) Ybar_l Xbar_l^T A_l X_l (bars: context columns).",
    exact_identity(identity("proofs/AhnLemma1.v:ahn_lemma1_x_rows"))) {
  lemma1_x_rows<T>(ctx,
                   [](const Mat<T>& Z0, const auto& layers) { return zform_model<T>(Z0, layers); });
}
ICLPROOF_PROPERTY_BODY(ahn_x_rows, ::iclproof::rational_real);
ICLPROOF_PROPERTY_BODY(ahn_x_rows, ::iclproof::ball_real);
ICLPROOF_SIZES(
    ahn_x_rows,
    "partly: d, N follow the profile (gen_zform_spec); the layers stay 1..3 because with "
    "B != 0 the x-rows are cubic in the previous layer's, so the exact run's rationals triple "
    "in length per layer (the floating-point tolerance is one layer's, local)");
