// Checks of the CGD and LFOM Memformers (CONSTRUCTIONS.md section 4; the Memformer paper eqs
// 17-21; proofs/Memformer.v). Each check is a template on the scalar and on the construction
// under test, so tests/unit/memformer_test.cpp can feed it deliberately broken constructions
// (mutation tests); the constructions themselves are src/memformer/memformers.hpp's.
// Tolerances: the layer-by-layer checks against an LFOM or CG iterate compare with the EXACT
// reference (rationals) within the propagated bound of properties/propagated_rounding.hpp
// (local rounding at the realised rows, carried by the exact propagator of the layers); the
// other checks use the rounding shadows of properties/rounding_shadow.hpp. Depths: those of
// properties/zform_checks.hpp.
#pragma once

#include "memformer/memformers.hpp"
#include "propagated_rounding.hpp"
#include "zform_checks.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace iclproof::memformer_checks {

// Shadow of the CGD Memformer's last row: R = (Y M X^T) |X| + |gamma| R, Y += |alpha|/N R.
template <class T>
std::vector<Mat<T>> cgd_memformer_shadow(const zform_task<T>& z, const std::vector<T>& alpha,
                                         const std::vector<T>& gamma) {
  const Eigen::Index N = z.X.cols();
  const Mat<T> absX_all = abs_of(z.X_all), absX = abs_of(z.X);
  Mat<T> Y_hat = abs_of(z.y_ext), R_hat = Mat<T>::Zero(1, N + 1);
  std::vector<Mat<T>> out{Y_hat};
  for (std::size_t l = 0; l < alpha.size(); ++l) {
    const Mat<T> YX = matmul_nt(Mat<T>(Y_hat.leftCols(N)), absX);
    R_hat = matmul(YX, absX_all) + abs_of(gamma[l]) * R_hat;
    Y_hat = Y_hat + abs_of(alpha[l]) / T(N) * R_hat;
    out.push_back(Y_hat);
  }
  return out;
}

// The task with every value exact (rationals), for the exact references.
template <class T>
zform_task<rational_real> exact_zform(const zform_task<T>& z) {
  using propagated_rounding::exact_of;
  return {exact_of(z.X),     exact_of(z.y),     exact_of(z.xq),
          exact_of(z.X_all), exact_of(z.y_ext), exact_of(z.Z0)};
}

// Bounds on |Y_l - Y*_l| (entrywise, l = 0..L) for a Memformer in LFOM form (B = 0, scalar Gamma
// rows), from its realised last rows Y_0..Y_L (propagated_rounding.hpp). Its last row obeys
// EXACTLY, for any rows (Attn = P Z M (Z^T Q Z) with Q = -[[A, 0], [0, 0]] is linear in the last
// row, which meets Q's zero block only),
//     Y_(l+1) = Y_l - sum_(j<=l) lambda(l, j) / N  Y_j[:N] X^T A_j X_all;
// the CGD Memformer (R_l = Attn_l + gamma_l R_(l-1), Z += alpha_l / N R_l) is this with
// lambda(l, j) = alpha_l gamma_(j+1) ... gamma_l and A_j = I. Hence
//   local bound of layer l (its program on the realised Y_0..Y_l, registers recomputed from
//   them, depth layer_depth(d, N, 1, L), zform_checks.hpp):
//       2 gamma_n (|Y_l| + sum_(j<=l) |lambda(l, j)| / N  |Y_j[:N]| |X|^T |A_j| |X_all|),
//   propagator step L_(l,j) = [j = l] I - lambda(l, j) / N [X^T; 0] A_j X_all ((N+1) x (N+1)),
//   its entries computed in double from X, A_j and lambda (depth coefficient_depth + 2d + 6:
//   lambda's own computation from the inputs, 3 conversions, two inner products of length d,
//   the scaling and the identity).
template <class T>
std::vector<Mat<T>> lfom_form_row_error_bounds(const zform_task<T>& z, const std::vector<Mat<T>>& A,
                                               const Mat<T>& lambda, const std::vector<Mat<T>>& Y,
                                               double coefficient_depth) {
  const int d = static_cast<int>(z.X.rows()), N = static_cast<int>(z.X.cols());
  const int L = static_cast<int>(A.size());
  const Eigen::Index n = N + 1;
  // Local bounds at the realised rows.
  const Mat<T> absX = abs_of(z.X), absX_all = abs_of(z.X_all);
  std::vector<Mat<T>> reg_hat;  // |Y_j[:N]| |X|^T |A_j| |X_all|
  for (int j = 0; j < L; ++j)
    reg_hat.push_back(
        matmul(Mat<T>(matmul(Mat<T>(matmul_nt(Mat<T>(abs_of(Y[j]).leftCols(N)), absX)),
                             Mat<T>(abs_of(A[j])))),
               absX_all));
  const T two_gamma = shadow_bound<T>(layer_depth(d, N, 1, L), T(1));
  std::vector<Mat<T>> local{Mat<T>::Zero(1, n)};
  for (int l = 0; l < L; ++l) {
    Mat<T> s = abs_of(Y[l]);
    for (int j = 0; j <= l; ++j) s += abs_of(lambda(l, j)) / T(N) * reg_hat[j];
    local.push_back(Mat<T>(two_gamma * s));
  }
  // The exact propagator, in double.
  const auto to_d = [](const Mat<T>& M) {
    return Mat<double>(M.unaryExpr([](const T& x) { return static_cast<double>(x); }));
  };
  Mat<double> U = Mat<double>::Zero(n, d);
  U.topRows(N) = to_d(z.X).transpose();
  const Mat<double> V = to_d(z.X_all);
  propagated_rounding::linear_recurrence r;
  r.dim = n;
  r.entry_depth = coefficient_depth + 2.0 * d + 6.0;
  std::vector<Mat<double>> P, P_hat;
  for (int j = 0; j < L; ++j) {
    const Mat<double> Aj = to_d(A[j]);
    P.push_back(U * Aj * V);
    P_hat.push_back(U.cwiseAbs() * Aj.cwiseAbs() * V.cwiseAbs());
  }
  for (int l = 0; l < L; ++l) {
    r.L.emplace_back();
    r.L_hat.emplace_back();
    for (int j = 0; j <= l; ++j) {
      const double c = static_cast<double>(lambda(l, j)) / N;
      Mat<double> step = -c * P[j], step_hat = std::abs(c) * P_hat[j];
      if (j == l) {
        step += Mat<double>::Identity(n, n);
        step_hat += Mat<double>::Identity(n, n);
      }
      r.L.back().push_back(step);
      r.L_hat.back().push_back(step_hat);
    }
  }
  return propagated_rounding::propagated_bounds<T>(propagated_rounding::propagator_bounds(r),
                                                   local);
}

// Layer l's last row against the EXACT reference row y_i - <x_i, w*_l> (w_exact: the reference
// iterates in rationals from the exact inputs, rounded once to T), within the propagated bound
// B_l of lfom_form_row_error_bounds plus that one rounding.
template <class T, class Bounds>
void compare_rows_with_exact_iterates(case_context& ctx, const std::string& what,
                                      const zform_task<T>& z, const std::vector<Mat<T>>& Zs,
                                      const std::vector<Mat<rational_real>>& w_exact,
                                      const Bounds& bounds, int L) {
  require_one_z_per_layer(ctx, Zs, L);
  const zform_task<rational_real> zx = exact_zform(z);
  std::vector<Mat<T>> Y;
  for (const Mat<T>& Zl : Zs) Y.push_back(Zl.bottomRows(1));
  std::vector<Mat<T>> B;
  tolerance<T>([&](auto) {
    B = bounds(Y);
    return T(0);
  });
  for (int l = 1; l <= L; ++l) {
    const Mat<T> ref =
        propagated_rounding::rounded_from_exact<T>(token_row<rational_real>(zx, w_exact[l]));
    const T bound = tolerance<T>([&](auto) {
      return T((B[l] + propagated_rounding::rounding_of_reference<T>(ref)).maxCoeff());
    });
    compare_within<T>(ctx, "layer " + std::to_string(l) + ": " + what, Y[l], ref, bound);
  }
}

// On enclosures (interval_real, ball_real) the rows are compared with the reference iterates run
// on the same enclosures: case_context::compare checks an identity there (the enclosures contain
// every rounding; no bound is used), so no exact reference is needed (nor could one be read off a
// ball that is not a point, such as a CG coefficient the run computed).
template <class T>
void compare_rows_with_enclosed_iterates(case_context& ctx, const std::string& what,
                                         const zform_task<T>& z, const std::vector<Mat<T>>& Zs,
                                         const std::vector<Mat<T>>& w, int L) {
  require_one_z_per_layer(ctx, Zs, L);
  for (int l = 1; l <= L; ++l)
    ctx.compare<T>("layer " + std::to_string(l) + ": " + what, Mat<T>(Zs[l].bottomRows(1)),
                   token_row<T>(z, w[l]), T(0));
}

// The CG recursion of references/first_order_methods.hpp with its coefficients given (the ones a
// floating-point CG run computed): s = r + gamma_l s, w += alpha_l s, r -= alpha_l H s; w_0..w_L.
template <class T>
std::vector<Mat<T>> cg_with_coefficients(const quadratic_problem<T>& q, const std::vector<T>& alpha,
                                         const std::vector<T>& gamma) {
  Mat<T> w = Mat<T>::Zero(q.b.size(), 1), r = q.b, s = w;
  std::vector<Mat<T>> out{w};
  for (std::size_t l = 0; l < alpha.size(); ++l) {
    s = r + gamma[l] * s;
    const Mat<T> Hs = matmul(q.H, s);
    w += alpha[l] * s;
    r -= alpha[l] * Hs;
    out.push_back(w);
  }
  return out;
}

// CGD Memformer with per-instance CG coefficients reproduces the CG iterates
// (proofs/Memformer.v:cgd_memformer_cg): with A_l = I, B_l = 0 and (alpha_l, gamma_l) from CG
// on R(w), the last row of Z_l is y_i - <x_i, w_l^CG> (context) and -<x_q, w_l^CG> (query)
// for every l. The coefficients are inputs to both programs: the reference is CG's recursion
// with these coefficients run exactly (rationals), the bound the Memformer's propagated
// rounding (lfom_form_row_error_bounds with lambda(l, j) = alpha_l gamma_(j+1)..gamma_l).
// Model: (Z0, alpha, gamma) -> Z_0..Z_L.
template <class T, class Model>
void cgd_reproduces_cg(case_context& ctx, const Model& model) {
  const cg_case c = gen_cg_case<T>();
  const int L = *rc::gen::inRange(1, static_cast<int>(c.rank) + 1);
  ctx.note_value("task", c.spec);
  ctx.note("exact rank, kappa_+(H), layers",
           std::to_string(c.rank) + ", " + std::to_string(c.kappa_plus) + ", " + std::to_string(L));
  const auto z = make_zform_task<T>(c.spec);
  const auto q = make_quadratic_problem<T>(z.X, z.y);
  const cg_trace<T> cg = conjugate_gradient(q, L);
  const std::vector<Mat<T>> Zs = model(z.Z0, cg.alpha, cg.gamma);
  if constexpr (is_interval_scalar<T>) {
    compare_rows_with_enclosed_iterates<T>(ctx, "CGD Memformer last row vs CG iterate w_l", z, Zs,
                                           cg_with_coefficients(q, cg.alpha, cg.gamma), L);
  } else {
    const int d = c.spec.d;
    std::vector<rational_real> alpha_x, gamma_x;
    for (int l = 0; l < L; ++l) {
      alpha_x.push_back(propagated_rounding::exact_of(cg.alpha[l]));
      gamma_x.push_back(propagated_rounding::exact_of(cg.gamma[l]));
    }
    const zform_task<rational_real> zx = exact_zform(z);
    const auto w_exact =
        cg_with_coefficients(make_quadratic_problem<rational_real>(zx.X, zx.y), alpha_x, gamma_x);
    compare_rows_with_exact_iterates<T>(
        ctx, "CGD Memformer last row vs CG iterate w_l", z, Zs, w_exact,
        [&](const std::vector<Mat<T>>& Y) {
          Mat<T> lambda = Mat<T>::Zero(L, L);
          for (int l = 0; l < L; ++l) {
            T p = cg.alpha[l];
            for (int j = l; j >= 0; --j) {
              lambda(l, j) = p;
              p *= cg.gamma[j];
            }
          }
          const std::vector<Mat<T>> A(L, Mat<T>::Identity(d, d));
          return lfom_form_row_error_bounds<T>(z, A, lambda, Y, L + 1.0);
        },
        L);
  }
}

template <class T, class Model>
void cgd_after_rank_layers_equals_min_norm(case_context& ctx, const Model& model) {
  const cg_case c = gen_cg_case<T>();
  ctx.note_value("task", c.spec);
  ctx.note("exact rank, kappa_+(H)", std::to_string(c.rank) + ", " + std::to_string(c.kappa_plus));
  const int d = c.spec.d, N = c.spec.N;
  const int r = static_cast<int>(c.rank);
  const auto z = make_zform_task<T>(c.spec);
  const auto q = make_quadratic_problem<T>(z.X, z.y);
  const cg_trace<T> cg = conjugate_gradient(q, r);
  const std::vector<Mat<T>> Zs = model(z.Z0, cg.alpha, cg.gamma);
  require_one_z_per_layer(ctx, Zs, r);
  // On balls: the certified min-norm solve (min_norm_lstsq on balls, core/ball_linalg.hpp: the
  // rank decided exactly on the point X, every Gram matrix certified positive definite).
  const Mat<T> w_plus = min_norm_least_squares<T>(z.X, z.y).transpose();
  const T tf = read_out(Zs.back());
  const T pred_ls = z.xq.col(0).dot(w_plus.col(0));
  if constexpr (is_ball_scalar<T>) {
    // An exact identity on enclosures: the enclosure of TF - x_q^T w+ must contain 0 (the
    // tolerance below models floating-point rounding, which the balls contain).
    ctx.check_identity("TF after rank(H) layers vs x_q^T w_min_norm", tf, pred_ls);
  } else {
    const T bound = tolerance<T>([&](auto) {
      const auto w_hat = cg_shadow(z, cg.alpha, cg.gamma);
      const auto Y_hat = cgd_memformer_shadow(z, cg.alpha, cg.gamma);
      const T memformer_vs_cg =
          shadow_bound<T>(r * layer_depth(d, N, 1, r) + d + 2,
                          T(Y_hat.back()(0, N) + token_row_shadow<T>(z, w_hat.back())(0, N)));
      return memformer_vs_cg + cg_termination_bound<T>(z, c, w_hat.back(), w_plus);
    });
    ctx.check_le<T>("|TF after rank(H) layers - x_q^T w_min_norm|", abs_of(T(tf - pred_ls)), bound,
                    [&] { return "TF: " + full_digits(tf) + "\nLS: " + full_digits(pred_ls); });
  }
}

// ---------------------------------------------------------------------------------------------
// LFOM Memformers.

// LFOM Memformer with A_j = a_j I and scalar Gamma rows lambda(l, j) ones == the LFOM with
// coefficients lambda(l, j) a_j (proofs/Memformer.v:lfom_memformer_scalar).
// Model: (Z0, a, lambda) -> Z_0..Z_L.
template <class T, class Model>
void lfom_scalar_gamma_equals_lfom(case_context& ctx, const Model& model) {
  const task_spec spec = gen_zform_spec<T>(6, 20);
  const int L = draw_size<T>(size_axis::depth, 1, 6);
  const auto weight_seed = gen_weight_seed();
  ctx.note_value("task", spec);
  ctx.note("layers, weight seed", std::to_string(L) + ", " + std::to_string(weight_seed));
  const double lmax = lambda_max_double(make_task_double(spec).X);
  data_rng rng(weight_seed);
  std::vector<T> a;
  Mat<T> lambda = Mat<T>::Zero(L, L);
  for (int l = 0; l < L; ++l) a.push_back(T(rng.uniform(0.1, 1.0) / lmax));
  for (int l = 0; l < L; ++l)
    for (int j = 0; j <= l; ++j) lambda(l, j) = T(rng.uniform(-0.5, 1.0) / (l + 1));
  const auto z = make_zform_task<T>(spec);
  const std::vector<Mat<T>> Zs = model(z.Z0, a, lambda);
  if constexpr (is_interval_scalar<T>) {
    // On enclosures: lfom() with coefficients lambda(l, j) a_j run on the same enclosures, an
    // identity per layer (compare_rows_with_enclosed_iterates). The exact reference's rounding
    // bound is not evaluated: it takes maxima of values equal in exact arithmetic, which balls
    // cannot order (an ambiguous comparison: why this body was not applicable on balls).
    Mat<T> coeff = Mat<T>::Zero(L, L);
    for (int l = 0; l < L; ++l)
      for (int j = 0; j <= l; ++j) coeff(l, j) = lambda(l, j) * a[j];
    const auto w_vec = lfom(make_quadratic_problem<T>(z.X, z.y), coeff);
    compare_rows_with_enclosed_iterates<T>(ctx, "LFOM Memformer vs LFOM", z, Zs,
                                           std::vector<Mat<T>>(w_vec.begin(), w_vec.end()), L);
  } else {
    std::vector<Mat<T>> A;  // A_j = a_j I, as the Memformer's propagator sees them
    for (int l = 0; l < L; ++l) A.push_back(Mat<T>(a[l] * Mat<T>::Identity(spec.d, spec.d)));
    // Exact reference: lfom() of first_order_methods.hpp in rationals from the exact inputs.
    const zform_task<rational_real> zx = exact_zform(z);
    Mat<rational_real> coeff_x = Mat<rational_real>::Zero(L, L);
    for (int l = 0; l < L; ++l)
      for (int j = 0; j <= l; ++j)
        coeff_x(l, j) =
            propagated_rounding::exact_of(lambda(l, j)) * propagated_rounding::exact_of(a[j]);
    const auto w_vec = lfom(make_quadratic_problem<rational_real>(zx.X, zx.y), coeff_x);
    const std::vector<Mat<rational_real>> w(w_vec.begin(), w_vec.end());
    compare_rows_with_exact_iterates<T>(
        ctx, "LFOM Memformer vs LFOM", z, Zs, w,
        [&](const std::vector<Mat<T>>& Y) {
          return lfom_form_row_error_bounds<T>(z, A, lambda, Y, 0.0);
        },
        L);
  }
}

// With A_j diagonal (and general) and scalar Gamma rows, the Memformer is the preconditioned
// LFOM with per-coordinate scalings Lambda_j^l = lambda(l, j) A_j^T: for each j the scalings
// of all later layers are multiples of ONE matrix A_j^T (rank-restricted), never an arbitrary
// diagonal Lambda_j^l (paper: Memformer Prop. 2 / eq 21, A.3; CONSTRUCTIONS.md section 4).
// Model: (Z0, A_list, lambda) -> Z_0..Z_L.
template <class T, class Model>
void diagonal_a_scalings_are_lambda_a_transpose(case_context& ctx, const Model& model) {
  const task_spec spec = gen_zform_spec<T>(6, 20);
  const int L = draw_size<T>(size_axis::depth, 1, 5);
  const bool diagonal = *rc::gen::inRange(0, 4) != 0;  // 3 in 4 diagonal, else general
  const auto weight_seed = gen_weight_seed();
  ctx.note_value("task", spec);
  ctx.note("layers, diagonal A, weight seed", std::to_string(L) + ", " + (diagonal ? "yes" : "no") +
                                                  ", " + std::to_string(weight_seed));
  const double lmax = lambda_max_double(make_task_double(spec).X);
  data_rng rng(weight_seed);
  std::vector<Mat<T>> A;
  for (int l = 0; l < L; ++l) {
    Mat<double> Ad = scaled_random_matrix(rng, spec.d, 1.0, lmax);
    if (diagonal) Ad = Mat<double>(Ad.diagonal().asDiagonal());
    A.push_back(from_double<T>(Ad));
  }
  Mat<T> lambda = Mat<T>::Zero(L, L);
  for (int l = 0; l < L; ++l)
    for (int j = 0; j <= l; ++j) lambda(l, j) = T(rng.uniform(-0.5, 1.0) / (l + 1));
  const auto z = make_zform_task<T>(spec);
  const std::vector<Mat<T>> Zs = model(z.Z0, A, lambda);
  if constexpr (is_interval_scalar<T>) {
    compare_rows_with_enclosed_iterates<T>(ctx,
                                           "Memformer vs LFOM with Lambda_j^l = lambda_j^l A_j^T",
                                           z, Zs, preconditioned_lfom<T>(z, A, lambda, nullptr), L);
  } else {
    // Exact reference: the preconditioned LFOM in rationals from the exact inputs.
    const zform_task<rational_real> zx = exact_zform(z);
    std::vector<Mat<rational_real>> A_x;
    for (const Mat<T>& Aj : A) A_x.push_back(propagated_rounding::exact_of(Aj));
    const auto w =
        preconditioned_lfom<rational_real>(zx, A_x, propagated_rounding::exact_of(lambda), nullptr);
    compare_rows_with_exact_iterates<T>(
        ctx, "Memformer vs LFOM with Lambda_j^l = lambda_j^l A_j^T", z, Zs, w,
        [&](const std::vector<Mat<T>>& Y) {
          return lfom_form_row_error_bounds<T>(z, A, lambda, Y, 0.0);
        },
        L);
  }
}

// A first-order method that is an LFOM (heavy ball, Nesterov: zform_checks.hpp, lfom_method) is
// an LFOM Memformer with A_j = I and Gamma_j^l = lambda(l, j) ones, lambda its LFOM coefficients
// (proofs/Memformer.v:momentum_as_lfom, nesterov_as_lfom with lfom_memformer_scalar); compared
// with the method's own recursion. Model: (Z0, eta, beta, L) -> Z_0..Z_L.
template <class T, class Model>
void lfom_method_is_lfom_memformer(case_context& ctx, const Model& model,
                                   const lfom_method<T>& method,
                                   const lfom_method<rational_real>& exact_method) {
  const lfom_method_case<T> c = gen_lfom_method_case<T>(ctx, method, 8, "layers");
  const task_spec& spec = c.spec;
  const int L = c.L;
  const T &eta = c.eta, &beta = c.beta;
  const zform_task<T>& z = c.z;
  const std::vector<Mat<T>> Zs = model(z.Z0, eta, beta, L);
  if constexpr (is_interval_scalar<T>) {
    // On enclosures: the method's own recursion run on the same enclosures, an identity per
    // layer (compare_rows_with_enclosed_iterates; see lfom_scalar_gamma_equals_lfom for why the
    // exact reference's rounding bound is not evaluated on balls).
    const auto wv = method.iterates(make_quadratic_problem<T>(z.X, z.y), eta, beta, L);
    compare_rows_with_enclosed_iterates<T>(
        ctx, std::string("LFOM Memformer vs ") + method.memformer_label, z, Zs,
        std::vector<Mat<T>>(wv.begin(), wv.end()), L);
  } else {
    // Exact reference: the method's own recursion in rationals from the exact inputs.
    const zform_task<rational_real> zx = exact_zform(z);
    const auto wv = exact_method.iterates(make_quadratic_problem<rational_real>(zx.X, zx.y),
                                          propagated_rounding::exact_of(eta),
                                          propagated_rounding::exact_of(beta), L);
    const std::vector<Mat<rational_real>> w(wv.begin(), wv.end());
    compare_rows_with_exact_iterates<T>(
        ctx, std::string("LFOM Memformer vs ") + method.memformer_label, z, Zs, w,
        [&](const std::vector<Mat<T>>& Y) {
          const std::vector<Mat<T>> A(L, Mat<T>::Identity(spec.d, spec.d));
          // The Memformer computes Gamma_j^l = eta beta^k from (eta, beta): depth <= L + 1.
          return lfom_form_row_error_bounds<T>(z, A, method.coefficients(eta, beta, L), Y, L + 1.0);
        },
        L);
  }
}

// Momentum GD (eta, beta) is an LFOM Memformer with A_j = I and Gamma_j^l = eta beta^(l-j) ones.
template <class T, class Model>
void momentum_is_lfom_memformer(case_context& ctx, const Model& model) {
  lfom_method_is_lfom_memformer<T>(ctx, model, heavy_ball_method<T>(),
                                   heavy_ball_method<rational_real>());
}

// Nesterov (eta, beta) is an LFOM Memformer with A_j = I, Gamma_l^l = eta (1 + beta),
// Gamma_j^l = eta beta^(l-j+1) (j < l); its implicit iterate is the look-ahead point v.
template <class T, class Model>
void nesterov_is_lfom_memformer(case_context& ctx, const Model& model) {
  lfom_method_is_lfom_memformer<T>(ctx, model, nesterov_method<T>(),
                                   nesterov_method<rational_real>());
}

// ---------------------------------------------------------------------------------------------
// A non-constant Gamma row (per-token weights) breaks the single-linear-model reading: after
// one LFOM Memformer layer with A = a I and Gamma's last row c (c_i not all equal), NO vector
// w makes the last row y_i - <x_i, w> on all N + 1 tokens. The check is a LOWER bound on the
// deviation
//     dev = min_w ||Delta + w^T X_all||_2 / ||Delta||_2,   Delta = last row of Z_1 - of Z_0,
// computed as the residual of the min-norm least-squares fit (complete orthogonal
// decomposition). dev_true >= dev_computed - err, with err = the Memformer's rounding (shadow
// bound, relative to ||Delta||) + the fit's residual error kappa(X_all) gamma_{4(N+1)d} (Higham
// Thm 20.1), doubled. Asserted: dev_computed - err >= 2^10 err, i.e. the deviation exceeds any
// rounding explanation a thousandfold (paper: Memformer Prop. 2 proof, A.3; CONSTRUCTIONS.md 4).
// `paper_reading` = true runs the paper's claim instead (dev <= err), which must FAIL: the
// unit test prints its shrunk counterexample. Model: (Z0, a, gamma_row) -> Z_0, Z_1.
// The deviation dev and its rounding bound err (both relative to ||Delta||) of one layer's
// output Z1 from the closest linear model, as described above; also used by the Prop. 2
// erratum's measurement (properties/errata.cpp).
template <class T>
struct linear_model_deviation {
  T dev;
  T rounding;
};
template <class T>
linear_model_deviation<T> deviation_from_linear_model(const zform_task<T>& z, const T& a,
                                                      const Mat<T>& row, const Mat<T>& Z1) {
  const int d = static_cast<int>(z.X.rows()), N = static_cast<int>(z.X.cols());
  const Mat<T> delta = Z1.bottomRows(1) - z.Z0.bottomRows(1);  // 1 x (N+1)
  const Mat<T> neg = -delta;
  const Mat<T> w = min_norm_least_squares<T>(z.X_all, neg);  // 1 x d: w^T X_all ~ -Delta
  const T nd = two_norm<T>(delta);
  const T dev = two_norm<T>(Mat<T>(matmul(w, z.X_all) - neg)) / nd;
  // Rounding: the Memformer's shadow bound per entry (sqrt(N+1) entries), relative to ||Delta||.
  const Mat<T> absX = abs_of(z.X), absX_all = abs_of(z.X_all);
  const Mat<T> R_hat = matmul(Mat<T>(matmul_nt(abs_of(z.y), absX)), absX_all) * abs_of(a);
  const T shadow = (R_hat.cwiseProduct(abs_of(row))).maxCoeff() / T(N) + abs_of(z.y_ext).maxCoeff();
  using boost::multiprecision::sqrt;
  using std::sqrt;
  const T mem_err = shadow_bound<T>(layer_depth(d, N, 1, 1), shadow) * sqrt(T(N + 1)) / nd;
  const Vec<T> sv = singular_values<T>(z.X_all);
  const T fit_err = (sv(0) / sv(d - 1)) * higham_gamma<T>(4.0 * (N + 1) * d);
  return {dev, T(2) * (mem_err + fit_err)};
}

template <class T, class Model>
void nonconstant_gamma_row_breaks_linear_model(case_context& ctx, const Model& model,
                                               bool paper_reading = false) {
  task_ranges r;
  r.d_min = 1;
  r.d_max = 5;
  r.N_min = 2;
  r.N_max = 16;
  r.max_noise = 0.5;
  r.distributions = {input_distribution::gaussian, input_distribution::uniform,
                     input_distribution::anisotropic};
  task_spec spec = *gen_task_spec(r);
  spec.N = std::max(spec.N, spec.d + 1);  // N + 1 >= d + 2 tokens: the fit is overdetermined
  const auto weight_seed = gen_weight_seed();
  const double spread = *rc::gen::elementOf(std::vector<double>{0.5, 0.25, 1.0});
  ctx.note_value("task", spec);
  ctx.note("Gamma row spread, weight seed",
           std::to_string(spread) + ", " + std::to_string(weight_seed));
  const int N = spec.N;
  const double lmax = lambda_max_double(make_task_double(spec).X);
  data_rng rng(weight_seed);
  const T a = T(1.0 / lmax);
  Mat<T> row(1, N + 1);
  for (int i = 0; i <= N; ++i) row(0, i) = T(1.0 + spread * rng.uniform(-1.0, 1.0));
  row(0, 0) = T(1.0 - spread);  // two tokens certainly differ
  row(0, 1) = T(1.0 + spread);
  ctx.note("Gamma last row", case_context::matrix_full_digits(row));
  const auto z = make_zform_task<T>(spec);
  const std::vector<Mat<T>> Zs = model(z.Z0, a, row);
  require_one_z_per_layer(ctx, Zs, 1);
  if constexpr (is_exact_scalar<T>) {
    // Exact: the certificate of proofs/Memformer.v:no_linear_model_certificate. With the target
    // T = [y, 0] - (last row of Z1) (= -Delta, z.y_ext = [y, 0]), a W solving the normal
    // equations W X_all X_all^T = T X_all^T (checked as an equality in Q) whose residual
    // W X_all - T is not zero proves Z1 = ahn_state w for NO w; a zero residual would exhibit
    // one (the paper's reading).
    const Mat<T> neg = z.y_ext - Zs[1].bottomRows(1);          // T, 1 x (N+1)
    const Mat<T> w = min_norm_least_squares<T>(z.X_all, neg);  // 1 x d
    ctx.compare<T>("W X_all X_all^T vs T X_all^T (normal equations of the fit)",
                   matmul(w, Mat<T>(matmul_nt(z.X_all, z.X_all))), matmul_nt(neg, z.X_all), T(0));
    const Mat<T> residual = matmul(w, z.X_all) - neg;
    const bool zero = (residual.array() == T(0)).all();
    ctx.note("squared residual of the exact least-squares fit",
             full_digits(T(residual.squaredNorm())));
    if (paper_reading)
      ctx.require("paper's reading: a linear model reproduces the last row exactly", zero,
                  "residual =\n" + case_context::matrix_full_digits(residual));
    else
      ctx.require("no linear model reproduces the last row (exact residual != 0)", !zero,
                  "the exact least-squares fit has zero residual");
    return;
  } else if constexpr (is_ball_scalar<T>) {
    // Balls: the exact certificate on enclosures. W = the certified min-norm least-squares fit
    // (min_norm_lstsq on balls: X_all's rank decided exactly, its Gram matrix certified positive
    // definite) encloses the exact fit of every target in the balls; the normal equations are an
    // identity (the enclosure of the difference contains 0), and a residual entry whose ball
    // excludes 0 proves the exact least-squares residual nonzero: no w reproduces the row.
    const Mat<T> neg = z.y_ext - Zs[1].bottomRows(1);          // T, 1 x (N+1)
    const Mat<T> w = min_norm_least_squares<T>(z.X_all, neg);  // 1 x d
    ctx.compare<T>("W X_all X_all^T vs T X_all^T (normal equations of the fit)",
                   matmul(w, Mat<T>(matmul_nt(z.X_all, z.X_all))), matmul_nt(neg, z.X_all), T(0));
    const Mat<T> residual = matmul(w, z.X_all) - neg;
    bool certainly_nonzero = false;
    for (Eigen::Index i = 0; i < residual.cols(); ++i)
      certainly_nonzero = certainly_nonzero || !contains_zero(residual(0, i));
    ctx.note("residual of the certified least-squares fit",
             case_context::matrix_full_digits(residual));
    if (paper_reading)
      ctx.require("paper's reading: a linear model reproduces the last row exactly",
                  !certainly_nonzero, "residual =\n" + case_context::matrix_full_digits(residual));
    else
      ctx.require("no linear model reproduces the last row (a residual ball excludes 0)",
                  certainly_nonzero,
                  "every residual ball contains 0 (the enclosure does not decide it)");
  } else {
    const auto [dev, err] = deviation_from_linear_model<T>(z, a, row, Zs[1]);
    ctx.note("deviation (relative), rounding bound", full_digits(dev) + ", " + full_digits(err));
    if (paper_reading) {
      ctx.check_le<T>("paper's reading: deviation from a linear model <= rounding", dev, err);
    } else {
      ctx.check_le<T>("2^10 x rounding bound <= deviation - rounding bound (deviation is real)",
                      T(1024 * err), T(dev - err));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The constructions under test, as the properties call them (mutation tests pass others).

template <class T>
std::vector<Mat<T>> cg_memformer_model(const Mat<T>& Z0, const std::vector<T>& alpha,
                                       const std::vector<T>& gamma) {
  return cgd_memformer_forward(Z0, cg_memformer<T>(static_cast<int>(Z0.rows()) - 1, alpha, gamma));
}

template <class T>
std::vector<Mat<T>> scalar_lfom_model(const Mat<T>& Z0, const std::vector<T>& a,
                                      const Mat<T>& lambda) {
  const int d = static_cast<int>(Z0.rows()) - 1, N = static_cast<int>(Z0.cols()) - 1;
  return lfom_memformer_forward(Z0, scalar_lfom_memformer<T>(d, N, a, lambda));
}

// LFOM Memformer with matrix A_j (B = 0) and scalar Gamma rows.
template <class T>
std::vector<Mat<T>> matrix_a_lfom_model(const Mat<T>& Z0, const std::vector<Mat<T>>& A,
                                        const Mat<T>& lambda) {
  return lfom_memformer_forward(
      Z0, matrix_a_lfom_memformer<T>(static_cast<int>(Z0.cols()) - 1, A, lambda));
}

template <class T>
std::vector<Mat<T>> momentum_memformer_model(const Mat<T>& Z0, const T& eta, const T& beta, int L) {
  const int d = static_cast<int>(Z0.rows()) - 1, N = static_cast<int>(Z0.cols()) - 1;
  return lfom_memformer_forward(Z0, momentum_memformer<T>(d, N, eta, beta, L));
}

template <class T>
std::vector<Mat<T>> nesterov_memformer_model(const Mat<T>& Z0, const T& eta, const T& beta, int L) {
  const int d = static_cast<int>(Z0.rows()) - 1, N = static_cast<int>(Z0.cols()) - 1;
  return lfom_memformer_forward(Z0, nesterov_memformer<T>(d, N, eta, beta, L));
}

// One LFOM Memformer layer, A = a I, Gamma = ones except its last row (per-token weights).
template <class T>
std::vector<Mat<T>> token_gamma_model(const Mat<T>& Z0, const T& a, const Mat<T>& gamma_row) {
  return lfom_memformer_forward(
      Z0, token_gamma_memformer<T>(static_cast<int>(Z0.rows()) - 1, a, gamma_row));
}

}  // namespace iclproof::memformer_checks
