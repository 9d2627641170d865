// Checks of Ahn et al.'s Lemma 1 on the Z-form linear transformer (CONSTRUCTIONS.md section 3;
// proofs/AhnLemma1.v). Each check is a template on the scalar and on the construction under
// test, so tests/unit/memformer_test.cpp can feed it deliberately broken constructions
// (mutation tests). Tolerances: the rounding shadows of properties/rounding_shadow.hpp with the
// Z-form depths of properties/zform_checks.hpp.
#pragma once

#include "zform_checks.hpp"

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
  std::vector<Mat<T>> precond;            // sum_h A_lh: w' = w - precond^T grad
  std::vector<std::vector<Mat<T>>> absA;  // |A_lh|
  for (int l = 0; l < L; ++l) {
    linear_transformer_layer<T> layer;
    Mat<T> sum = Mat<T>::Zero(d, d);
    std::vector<Mat<T>> abs_heads;
    for (int h = 0; h < heads; ++h) {
      const Mat<T> A = from_double<T>(scaled_random_matrix(rng, d, s / heads, lmax));
      layer.heads.push_back(ahn_head<T>(A));
      sum += A;
      abs_heads.push_back(abs_of(A));
    }
    layers.push_back(layer);
    precond.push_back(sum);
    absA.push_back(abs_heads);
  }
  const std::vector<Mat<T>> Zs = model(z.Z0, layers);
  require_one_z_per_layer(ctx, Zs, L);
  // Reference: preconditioned GD, W_{l+1} = W_l - grad L(W_l) P_l, i.e. w' = w - P_l^T grad R.
  const auto W = preconditioned_gd_iterates<T>(Mat<T>::Zero(1, d), z.X, z.y, precond);
  const Mat<T> absX = abs_of(z.X), absX_all = abs_of(z.X_all), absy = abs_of(z.y);
  Mat<T> Y_hat = abs_of(z.y_ext);     // shadow of the transformer's last row
  Mat<T> W_hat = Mat<T>::Zero(1, d);  // shadow of the reference's W (1 x d)
  const double D = layer_depth(d, N, heads, L);
  for (int l = 1; l <= L; ++l) {
    const Mat<T> ref_row = token_row<T>(z, Mat<T>(W[l].transpose()));
    const T bound = tolerance<T>([&](auto) {
      Y_hat = zform_y_shadow_step(Y_hat, absX_all, absA[l - 1]);
      Mat<T> absP = Mat<T>::Zero(d, d);
      for (const auto& A : absA[l - 1]) absP += A;
      const Mat<T> grad_hat = matmul_nt(Mat<T>(matmul(W_hat, absX) + absy), absX) / T(N);
      W_hat = W_hat + matmul(grad_hat, absP);
      const Mat<T> ref_hat = token_row_shadow<T>(z, Mat<T>(W_hat.transpose()));
      const double n = l * D + d + 2;
      return shadow_bound<T>(n, T(Y_hat.maxCoeff() + ref_hat.maxCoeff()));
    });
    compare_within<T>(
        ctx, "layer " + std::to_string(l) + ": last row of Z vs y - w_l^T x (PGD with A^T)",
        Mat<T>(Zs[l].bottomRows(1)), ref_row, bound);
    // B = 0: the x-rows are multiplied by exact zeros, so they stay bit-identical.
    ctx.require("layer " + std::to_string(l) + ": x-rows unchanged",
                Zs[l].topRows(d) == z.Z0.topRows(d), "x-rows moved although B = 0");
  }
}

// ---------------------------------------------------------------------------------------------
// Lemma 1 with B != 0 (proofs/AhnLemma1.v:ahn_lemma1_x_rows): the rows follow
//   X_{l+1} = X_l - (1/N) B_l Xbar_l Xbar_l^T A_l X_l,   Y_{l+1} = Y_l - (1/N) Ybar_l Xbar_l^T A_l
//   X_l
// (bars: the N context columns). Compared entrywise, all rows, every layer. Both programs have
// the same shadow (terms multiplied by the exact zero blocks of P, Q vanish exactly), with
// depth k_{l+1} = 3 k_l + layer_depth.
template <class T, class Model>
void lemma1_x_rows(case_context& ctx, const Model& model) {
  const task_spec spec = gen_zform_spec<T>(5, 16);
  // L stays 1..3 under every size profile: with B != 0 the rounding depth triples per layer
  // (3^L) and the shadows grow as their cubes, so deep stacks give bounds that overflow.
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
  Mat<T> Xl = z.X_all, Yl = z.y_ext;
  Mat<T> Xh = abs_of(z.X_all), Yh = abs_of(z.y_ext);
  double k = 0;
  const double D = layer_depth(d, N, 1, L);
  for (int l = 0; l < L; ++l) {
    // The sheet's formula (CONSTRUCTIONS.md section 3), from the layer's input.
    const Mat<T> Xbar = Xl.leftCols(N), Ybar = Yl.leftCols(N);
    const Mat<T> AX = matmul(As[l], Xl);
    const Mat<T> Xn = Xl - matmul(Mat<T>(matmul(Bs[l], matmul_nt(Xbar, Xbar))), AX) / T(N);
    const Mat<T> Yn = Yl - matmul(Mat<T>(matmul_nt(Ybar, Xbar)), AX) / T(N);
    Xl = Xn;
    Yl = Yn;
    Mat<T> ref(d + 1, N + 1);
    ref << Xl, Yl;
    const T bound = tolerance<T>([&](auto) {
      // Shadow of both programs.
      const Mat<T> Xhb = Xh.leftCols(N), Yhb = Yh.leftCols(N);
      const Mat<T> AXh = matmul(abs_of(As[l]), Xh);
      const Mat<T> Xhn =
          Xh + matmul(Mat<T>(matmul(abs_of(Bs[l]), matmul_nt(Xhb, Xhb))), AXh) / T(N);
      const Mat<T> Yhn = Yh + matmul(Mat<T>(matmul_nt(Yhb, Xhb)), AXh) / T(N);
      Xh = Xhn;
      Yh = Yhn;
      k = 3 * k + D;
      return T(2) * shadow_bound<T>(k, std::max(Xh.maxCoeff(), Yh.maxCoeff()));
    });
    compare_within<T>(ctx,
                      "layer " + std::to_string(l + 1) + ": Z vs the sheet's x- and y-row formulas",
                      Zs[l + 1], ref, bound);
  }
}

// The construction under test, as the properties call it (mutation tests pass others).
template <class T>
std::vector<Mat<T>> zform_model(const Mat<T>& Z0,
                                const std::vector<linear_transformer_layer<T>>& layers) {
  return linear_transformer_forward(Z0, layers);
}

}  // namespace iclproof::memformer_checks
