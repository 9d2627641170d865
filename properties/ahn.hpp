// Checks of Ahn et al.'s Lemma 1 on the Z-form linear transformer (CONSTRUCTIONS.md section 3;
// proofs/AhnLemma1.v). Each check is a template on the scalar and on the construction under
// test, so tests/unit/memformer_test.cpp can feed it deliberately broken constructions
// (mutation tests). Tolerances: the rounding shadows of properties/rounding_shadow.hpp with the
// Z-form depths of properties/zform_checks.hpp.
#pragma once

#include "stack_end_to_end.hpp"
#include "zform_checks.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace iclproof::memformer_checks {

// The shadow of the last row of Z-form layers with B = 0: per layer
//   Y_{l+1} = Y_l + sum_h (Y_l M X^T) |A_lh| |X| / N    (|Q_h| = [[|A_h|, 0], [0, 0]], |P| row 1).
template <class T>
Mat<T> zform_y_shadow_step(const Mat<T>& Y_hat, const Mat<T>& absX_all,
                           const std::vector<Mat<T>>& absA) {
  const Eigen::Index N = absX_all.cols() - 1;
  const Mat<T> YX = matmul_nt(Mat<T>(Y_hat.leftCols(N)), Mat<T>(absX_all.leftCols(N)));  // 1 x d
  Mat<T> out = Y_hat;
  for (const auto& A : absA) out += matmul(Mat<T>(matmul(YX, A)), absX_all) / T(N);
  return out;
}

// The rounding bound of one B = 0 Z-form layer (heads A_h) on a last row r against one PGD
// step from it (lemma1_preconditioned_gd): 2 gamma_n (s + s), s = max zform_y_shadow_step(|r|),
// n = depth (rounding_shadow.hpp: proved argument, hand-derived depth). 0 in exact scalars.
template <class T>
T lemma1_local_bound(const Mat<T>& r, const Mat<T>& absX_all, const std::vector<Mat<T>>& absA,
                     double depth) {
  return tolerance<T>([&](auto) {
    const T s_max = zform_y_shadow_step(abs_of(r), absX_all, absA).maxCoeff();
    return shadow_bound<T>(depth, T(s_max + s_max));
  });
}

// The rounding bound of one B != 0 Z-form layer (A, B) on Z against the sheet's formulas from Z
// (lemma1_x_rows): both programs have the shadow Xh' = Xh + |B| Xhb Xhb^T |A| Xh / N,
// Yh' = Yh + Yhb Xhb^T |A| Xh / N from (Xh, Yh) = |Z| (bars: the N context columns), so they
// differ by at most 2 x 2 gamma_n max(Xh', Yh'), n = depth (one layer; rounding_shadow.hpp:
// proved argument, hand-derived depth). 0 in exact scalars.
template <class T>
T x_rows_local_bound(const Mat<T>& Z, const Mat<T>& A, const Mat<T>& B, Eigen::Index N,
                     double depth) {
  return tolerance<T>([&](auto) {
    const Eigen::Index d = Z.rows() - 1;
    const Mat<T> Xh = abs_of(Mat<T>(Z.topRows(d))), Yh = abs_of(Mat<T>(Z.bottomRows(1)));
    const Mat<T> Xhb = Xh.leftCols(N), Yhb = Yh.leftCols(N);
    const Mat<T> AXh = matmul(abs_of(A), Xh);
    const Mat<T> Xhn = Xh + matmul(Mat<T>(matmul(abs_of(B), matmul_nt(Xhb, Xhb))), AXh) / T(N);
    const Mat<T> Yhn = Yh + matmul(Mat<T>(matmul_nt(Yhb, Xhb)), AXh) / T(N);
    return T(2) * shadow_bound<T>(depth, std::max(Xhn.maxCoeff(), Yhn.maxCoeff()));
  });
}

// The set-up both Lemma 1 checks share: the task (noted), lambda_max(X X^T / N) of its double
// data (the scale of the random weights), the weights' generator and the task in T.
template <class T>
struct lemma1_setup {
  double lmax;
  data_rng rng;
  zform_task<T> z;
};
template <class T>
lemma1_setup<T> make_lemma1_setup(case_context& ctx, const task_spec& spec,
                                  std::uint64_t weight_seed) {
  ctx.note_value("task", spec);
  return {lambda_max_double(make_task_double(spec).X), data_rng(weight_seed),
          make_zform_task<T>(spec)};
}

// The END-TO-END floating-point check of Lemma 1 with B = 0 (lemma1_preconditioned_gd; issue
// 41): the realised last row r_l after l layers against y - w*_l^T X_all, w*_l = l steps of
// preconditioned GD w' = w - (sum_h A_h)^T grad R(w) from w = 0 computed EXACTLY (rationals, the
// heads summed exactly) from the same rounded inputs, within the propagated bound of
// properties/stack_end_to_end.hpp (HAND-DERIVED, rigorous):
//     |r_l - r*_l| <= (1 + 2 gamma) sum_(j<=l) delta_j |M_(j+1) ... M_l| + 2 eps |r*_l|,
//     M_j = I - (1/N) [X^T; 0] P_(j-1) X_all, P = sum_h A_h   (r_j = r_(j-1) M_j exactly),
//     delta_j = 2 gamma_n zform_y_shadow_step(|r_(j-1)|)   (layer j at its realised input,
//     n = layer_depth; Higham ASNA Lemma 3.1),
// the propagator in double with its own rounding bound (entry depth heads + 2d + 6: the head
// sum, two inner products of length d, the 1/N, the identity, three conversions).
template <class T>
void lemma1_end_to_end(case_context& ctx, const zform_task<T>& z,
                       const std::vector<std::vector<Mat<T>>>& heads_of,
                       const std::vector<Mat<T>>& Zs, double depth) {
  using propagated_rounding::exact_of;
  using stack_end_to_end::to_double_matrix;
  const Eigen::Index d = z.X.rows(), N = z.X.cols();
  const int L = static_cast<int>(heads_of.size());
  const Mat<T> absX_all = abs_of(z.X_all);
  const Mat<double> X_all_d = to_double_matrix<T>(z.X_all);
  Mat<double> U = Mat<double>::Zero(N + 1, d);
  U.topRows(N) = to_double_matrix<T>(z.X).transpose();
  const T two_gamma = shadow_bound<T>(depth, T(1));
  std::vector<Mat<T>> local{Mat<T>()};
  std::vector<stack_end_to_end::affine_step> steps;
  std::vector<Mat<rational_real>> P_x;
  std::size_t heads = 1;
  for (int l = 1; l <= L; ++l) {
    std::vector<Mat<T>> absA;
    Mat<double> P = Mat<double>::Zero(d, d), P_hat = P;
    Mat<rational_real> Px = Mat<rational_real>::Zero(d, d);
    for (const Mat<T>& A : heads_of[l - 1]) {
      absA.push_back(abs_of(A));
      P += to_double_matrix<T>(A);
      P_hat += to_double_matrix<T>(A).cwiseAbs();
      Px += exact_of(A);
    }
    heads = std::max(heads, heads_of[l - 1].size());
    P_x.push_back(Px);
    local.push_back(
        Mat<T>(two_gamma *
               zform_y_shadow_step<T>(abs_of(Mat<T>(Zs[l - 1].bottomRows(1))), absX_all, absA)));
    steps.push_back(stack_end_to_end::make_affine_step(1.0 / static_cast<double>(N), U,
                                                       Mat<double>(P * X_all_d),
                                                       Mat<double>(P_hat * X_all_d.cwiseAbs())));
  }
  const auto B = stack_end_to_end::affine_stack_error_bounds<T>(
      steps, static_cast<double>(heads) + 2.0 * d + 6.0, local);
  const Mat<rational_real> Xx = exact_of(z.X), yx = exact_of(z.y), X_all_x = exact_of(z.X_all),
                           y_ext_x = exact_of(z.y_ext);
  const auto W =
      preconditioned_gd_iterates<rational_real>(Mat<rational_real>::Zero(1, d), Xx, yx, P_x);
  for (int l = 1; l <= L; ++l)
    stack_end_to_end::compare_with_exact_reference<T>(
        ctx,
        "layer " + std::to_string(l) + ": last row of Z vs " + std::to_string(l) +
            " exact PGD steps (A^T, rationals) within the propagated bound",
        Mat<T>(Zs[l].bottomRows(1)), Mat<rational_real>(y_ext_x - matmul(W[l], X_all_x)), B[l]);
}

// ---------------------------------------------------------------------------------------------
// Ahn et al. Lemma 1 (proofs/AhnLemma1.v:ahn_lemma1): L layers with heads A_lh (general,
// non-symmetric), B = 0, labels with or without noise. Claim: the last row of Z_l is
// y_i - <x_i, w_l> on context tokens and -<x_q, w_l> on the query, where w_{l+1} = w_l -
// (sum_h A_lh)^T grad R(w_l) (preconditioned GD with A^T); the x-rows never change.
// Model: (Z0, layers) -> Z_0..Z_L.

template <class T, class Model>
void lemma1_preconditioned_gd(case_context& ctx, const Model& model) {
  const task_spec spec = gen_zform_spec<T>(6, 20);
  const int L = draw_size<T>(size_axis::depth, 1, 5);
  const int heads = *rc::gen::inRange(1, 4);
  const double s = std::ldexp(1.0, -*rc::gen::inRange(0, 3));  // ||sum A^T H|| <= s
  const auto weight_seed = gen_weight_seed();
  auto [lmax, rng, z] = make_lemma1_setup<T>(ctx, spec, weight_seed);
  ctx.note("layers, heads, step scale s, weight seed",
           std::to_string(L) + ", " + std::to_string(heads) + ", " + std::to_string(s) + ", " +
               std::to_string(weight_seed));
  const int d = spec.d, N = spec.N;
  std::vector<linear_transformer_layer<T>> layers;
  std::vector<Mat<T>> precond;                // sum_h A_lh: w' = w - precond^T grad
  std::vector<std::vector<Mat<T>>> absA;      // |A_lh|
  std::vector<std::vector<Mat<T>>> heads_of;  // A_lh (the end-to-end check sums them exactly)
  for (int l = 0; l < L; ++l) {
    linear_transformer_layer<T> layer;
    Mat<T> sum = Mat<T>::Zero(d, d);
    std::vector<Mat<T>> abs_heads;
    for (int h = 0; h < heads; ++h) {
      const Mat<T> A = from_double<T>(scaled_random_matrix(rng, d, s / heads, lmax));
      layer.heads.push_back(ahn_head<T>(A));
      sum += A;
      abs_heads.push_back(abs_of(A));
      if (h == 0) heads_of.emplace_back();
      heads_of.back().push_back(A);
    }
    layers.push_back(layer);
    precond.push_back(sum);
    absA.push_back(abs_heads);
  }
  const std::vector<Mat<T>> Zs = model(z.Z0, layers);
  require_one_z_per_layer(ctx, Zs, L);
  // Exact scalars also compare every layer end to end with preconditioned GD,
  // W_{l+1} = W_l - grad L(W_l) P_l, i.e. w' = w - P_l^T grad R (tolerance 0).
  std::vector<Mat<T>> W;
  if constexpr (is_exact_scalar<T>)
    W = preconditioned_gd_iterates<T>(Mat<T>::Zero(1, d), z.X, z.y, precond);
  const Mat<T> absX_all = abs_of(z.X_all);
  const double D = layer_depth(d, N, heads, L);
  for (int l = 1; l <= L; ++l) {
    const std::string at = "layer " + std::to_string(l);
    // The local check: one PGD step (P_(l-1) = sum_h A_(l-1)h) from layer l-1's REALISED last
    // row r (r = y - w^T X_all for the w the earlier layers realised):
    //     r - (1/N) (r_ctx X^T) P_(l-1) X_all,
    // the same polynomial as the layer in (r, X_all, A_(l-1)h) (proofs/AhnLemma1.v:ahn_lemma1,
    // one layer). Both programs' shadows are at most |r| + (1/N) (|r_ctx| |X|^T) sum_h |A_h|
    // |X_all| (zform_y_shadow_step; |P| <= sum_h |A_h|), depth one layer_depth + d + 2: the
    // tolerance 2 gamma_n (s + s) is one layer's proved rounding bound (rounding_shadow.hpp,
    // hand-derived depth) at the realised intermediates. The end-to-end tolerance of the
    // floating-point run used to be the shadow of every earlier layer (margins 10^1.8 -> 10^2.8
    // over layers 1-5, growing); the local identity at every layer gives the end-to-end claim
    // by induction, which the exact run checks directly; lemma1_end_to_end bounds it in
    // floating point (exact PGD in rationals, the propagated bound).
    const Mat<T> r = Zs[l - 1].bottomRows(1);
    const Mat<T> rX = matmul_nt(Mat<T>(r.leftCols(N)), z.X);  // 1 x d
    const Mat<T> local_ref = r - matmul(Mat<T>(matmul(rX, precond[l - 1])), z.X_all) / T(N);
    const T bound = lemma1_local_bound<T>(r, absX_all, absA[l - 1], D + d + 2);
    compare_within<T>(ctx,
                      at + ": last row of Z vs one PGD step (A^T) from layer " +
                          std::to_string(l - 1) + "'s last row",
                      Mat<T>(Zs[l].bottomRows(1)), local_ref, bound);
    if constexpr (is_exact_scalar<T>)
      ctx.require(at + ": last row of Z = y - w_l^T x (PGD with A^T, exact)",
                  Mat<T>(Zs[l].bottomRows(1)) == token_row<T>(z, Mat<T>(W[l].transpose())),
                  "last row =\n" + case_context::matrix_full_digits(Mat<T>(Zs[l].bottomRows(1))));
    // B = 0: the x-rows are multiplied by exact zeros, so they stay bit-identical.
    ctx.require(at + ": x-rows unchanged", Zs[l].topRows(d) == z.Z0.topRows(d),
                "x-rows moved although B = 0");
  }
  if constexpr (stack_end_to_end::is_rounded_scalar<T>)
    lemma1_end_to_end<T>(ctx, z, heads_of, Zs, layer_depth(d, N, heads, L));
}

// The END-TO-END floating-point check of Lemma 1 with B != 0 (lemma1_x_rows; issue 41): layer
// l's realised Z against the sheet's chain from Z_0 computed EXACTLY (rationals) from the same
// rounded inputs, within the propagated bound of stack_end_to_end.hpp's cubic stacks
// (cx = cy = 1/N, Bm = B_l, Am = A_l; HAND-DERIVED, rigorous): the Jacobian of every later
// layer at the exact Z carries each layer's local rounding 2 gamma_n (Xh'; Yh') (the shadows of
// x_rows_local_bound entrywise at the realised Z, one program, n = layer_depth; Higham ASNA
// Lemma 3.1) and the Taylor remainder of order >= 2, plus one rounding of the exact reference.
template <class T>
void lemma1_x_rows_end_to_end(case_context& ctx, const zform_task<T>& z,
                              const std::vector<Mat<T>>& As, const std::vector<Mat<T>>& Bs,
                              const std::vector<Mat<T>>& Zs, double depth) {
  using propagated_rounding::exact_of;
  using Q = rational_real;
  const Eigen::Index d = z.X.rows(), N = z.X.cols();
  const int L = static_cast<int>(As.size());
  std::vector<Mat<Q>> exact{exact_of(z.Z0)};
  for (int l = 0; l < L; ++l) {
    const Mat<Q>& Z = exact.back();
    const Mat<Q> Xe = Z.topRows(d), Ye = Z.bottomRows(1);
    const Mat<Q> Xeb = Xe.leftCols(N), Yeb = Ye.leftCols(N);
    const Mat<Q> AXe = matmul(exact_of(As[l]), Xe);
    Mat<Q> next(d + 1, N + 1);
    next << Mat<Q>(Xe - matmul(Mat<Q>(matmul(exact_of(Bs[l]), matmul_nt(Xeb, Xeb))), AXe) / Q(N)),
        Mat<Q>(Ye - matmul(Mat<Q>(matmul_nt(Yeb, Xeb)), AXe) / Q(N));
    exact.push_back(next);
  }
  const T two_gamma = shadow_bound<T>(depth, T(1));
  std::vector<stack_end_to_end::cubic_layer<T>> layers;
  std::vector<Mat<T>> delta{Mat<T>()};
  for (int l = 0; l < L; ++l) {
    layers.push_back({T(T(1) / T(N)), T(T(1) / T(N)), Bs[l], As[l]});
    const Mat<T> Xh = abs_of(Mat<T>(Zs[l].topRows(d))), Yh = abs_of(Mat<T>(Zs[l].bottomRows(1)));
    const Mat<T> Xhb = Xh.leftCols(N), Yhb = Yh.leftCols(N);
    const Mat<T> AXh = matmul(abs_of(As[l]), Xh);
    Mat<T> sh(d + 1, N + 1);
    sh << Mat<T>(Xh + matmul(Mat<T>(matmul(abs_of(Bs[l]), matmul_nt(Xhb, Xhb))), AXh) / T(N)),
        Mat<T>(Yh + matmul(Mat<T>(matmul_nt(Yhb, Xhb)), AXh) / T(N));
    delta.push_back(Mat<T>(two_gamma * sh));
  }
  const auto B = stack_end_to_end::cubic_stack_error_bounds<T>(
      layers, std::vector<Mat<Q>>(exact.begin(), exact.end() - 1), delta, d, N);
  for (int l = 1; l <= L; ++l)
    stack_end_to_end::compare_with_exact_reference<T>(
        ctx,
        "layer " + std::to_string(l) +
            ": Z vs the sheet's chain from Z_0 (exact, rationals) within the propagated bound",
        Zs[l], exact[l], B[l]);
}

// ---------------------------------------------------------------------------------------------
// Lemma 1 with B != 0 (proofs/AhnLemma1.v:ahn_lemma1_x_rows): the rows follow
//   X_{l+1} = X_l - (1/N) B_l Xbar_l Xbar_l^T A_l X_l,   Y_{l+1} = Y_l - (1/N) Ybar_l Xbar_l^T A_l
//   X_l
// (bars: the N context columns). Compared entrywise, all rows, every layer, LOCALLY: layer l's
// realised Z against the formula applied to layer l-1's realised Z. Both programs are the same
// polynomial in those inputs and have the same shadow (terms multiplied by the exact zero blocks
// of P, Q vanish exactly), one layer deep (layer_depth): the tolerance 2 x 2 gamma_n max shadow
// is one layer's proved rounding bound at the realised intermediates (rounding_shadow.hpp,
// hand-derived depth). The end-to-end tolerance from Z_0 needed depth k_{l+1} = 3 k_l +
// layer_depth and shadows growing as cubes per layer (margins up to 10^4.66 at layer 3); the
// exact run checks the chain from Z_0 directly, and lemma1_x_rows_end_to_end compares the
// floating-point Z with it within the propagated bound (the later layers' Jacobians).
template <class T, class Model>
void lemma1_x_rows(case_context& ctx, const Model& model) {
  const task_spec spec = gen_zform_spec<T>(5, 16);
  // L stays 1..3 under every size profile: with B != 0 the x-rows are cubic in the previous
  // ones, so the exact run's rationals triple their length per layer (the floating-point
  // tolerance is local and no longer grows with L; the old end-to-end one overflowed).
  const int L = *rc::gen::inRange(1, 4);
  const double sA = std::ldexp(1.0, -*rc::gen::inRange(0, 3));
  const double sB = std::ldexp(1.0, -*rc::gen::inRange(0, 3));
  const auto weight_seed = gen_weight_seed();
  auto [lmax, rng, z] = make_lemma1_setup<T>(ctx, spec, weight_seed);
  ctx.note("layers, scale of A, scale of B, weight seed",
           std::to_string(L) + ", " + std::to_string(sA) + ", " + std::to_string(sB) + ", " +
               std::to_string(weight_seed));
  const int d = spec.d, N = spec.N;
  std::vector<linear_transformer_layer<T>> layers;
  std::vector<Mat<T>> As, Bs;
  for (int l = 0; l < L; ++l) {
    As.push_back(from_double<T>(scaled_random_matrix(rng, d, sA, lmax)));
    Bs.push_back(from_double<T>(scaled_random_matrix(rng, d, sB, 1.0)));
    layers.push_back({{ahn_head<T>(As.back(), Bs.back())}});
  }
  const std::vector<Mat<T>> Zs = model(z.Z0, layers);
  require_one_z_per_layer(ctx, Zs, L);
  // Exact scalars also follow the sheet's chain from Z_0 (tolerance 0).
  Mat<T> Xe = z.X_all, Ye = z.y_ext;
  const double D = layer_depth(d, N, 1, L);
  for (int l = 0; l < L; ++l) {
    const std::string at = "layer " + std::to_string(l + 1);
    // The sheet's formula (CONSTRUCTIONS.md section 3) from layer l's REALISED rows.
    const Mat<T> Xl = Zs[l].topRows(d), Yl = Zs[l].bottomRows(1);
    const Mat<T> Xbar = Xl.leftCols(N), Ybar = Yl.leftCols(N);
    const Mat<T> AX = matmul(As[l], Xl);
    const Mat<T> Xn = Xl - matmul(Mat<T>(matmul(Bs[l], matmul_nt(Xbar, Xbar))), AX) / T(N);
    const Mat<T> Yn = Yl - matmul(Mat<T>(matmul_nt(Ybar, Xbar)), AX) / T(N);
    Mat<T> ref(d + 1, N + 1);
    ref << Xn, Yn;
    const T bound = x_rows_local_bound<T>(Zs[l], As[l], Bs[l], N, D);
    compare_within<T>(
        ctx,
        at + ": Z vs the sheet's x- and y-row formulas from layer " + std::to_string(l) + "'s Z",
        Zs[l + 1], ref, bound);
    if constexpr (is_exact_scalar<T>) {
      const Mat<T> Xeb = Xe.leftCols(N), Yeb = Ye.leftCols(N);
      const Mat<T> AXe = matmul(As[l], Xe);
      const Mat<T> Xen = Xe - matmul(Mat<T>(matmul(Bs[l], matmul_nt(Xeb, Xeb))), AXe) / T(N);
      Ye = Ye - matmul(Mat<T>(matmul_nt(Yeb, Xeb)), AXe) / T(N);
      Xe = Xen;
      Mat<T> chain(d + 1, N + 1);
      chain << Xe, Ye;
      ctx.require(at + ": Z = the sheet's chain from Z_0 (exact)", Zs[l + 1] == chain,
                  "Z =\n" + case_context::matrix_full_digits(Zs[l + 1]));
    }
  }
  if constexpr (stack_end_to_end::is_rounded_scalar<T>) {
    if (stack_end_to_end::cubic_end_to_end_affordable(ctx, static_cast<int>(As.size()), z.X.rows(),
                                                      z.X.cols()))
      lemma1_x_rows_end_to_end<T>(ctx, z, As, Bs, Zs, D);
  }
}

// The construction under test, as the properties call it (mutation tests pass others).
template <class T>
std::vector<Mat<T>> zform_model(const Mat<T>& Z0,
                                const std::vector<linear_transformer_layer<T>>& layers) {
  return linear_transformer_forward(Z0, layers);
}

}  // namespace iclproof::memformer_checks
