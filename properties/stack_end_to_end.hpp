// End-to-end floating-point checks of the affine layer stacks whose per-layer checks are local
// (issue 41, item 2): the von Oswald GD stacks (properties/vonoswald.hpp) and Ahn et al.'s
// Lemma 1 with B = 0 (properties/ahn.hpp). Their local checks compare layer l's realised output
// with the exact step from layer l-1's REALISED output; these compare the realised tokens after
// l layers with the EXACT algorithm the paper claims the stack runs (l steps of GD or
// preconditioned GD from the same rounded inputs, in GMP rationals, rounded once to T), within
// the propagated bound of properties/propagated_rounding.hpp:
//
//  * Both stacks are affine in the rows they change, with coefficients fixed by the inputs:
//        GD stack (y-parts R, o x (N+Q)):   R_k = R_(k-1) M_k,  M_k = I - (eta_k / N) U X_all,
//        Ahn B = 0 (last row r, 1 x (N+1)): r_l = r_(l-1) M_l,  M_l = I - (1/N) U P_l X_all,
//    U = [X^T; 0] (the context columns' X^T, zero for the query columns), P_l = sum_h A_lh
//    (proofs/VonOswald.v:prop1_lsa_gd_step with W0 = 0 and Y = the context part;
//    proofs/AhnLemma1.v:ahn_lemma1, one layer). So the errors e_k = R_k - R*_k obey
//    e_k = e_(k-1) M_k + delta_k exactly, delta_k the rounding of layer k at its realised input,
//    and |e_k| <= sum_(j<=k) |delta_j| |M_(j+1) ... M_k| entrywise (propagated_rounding.hpp: the
//    propagator with its signs, in double with its own rounding bound).
//  * |delta_k| <= 2 gamma_n shadow_k entrywise: one layer's program run in absolute values at its
//    realised input (Higham, ASNA 2nd ed., Lemma 3.1 and section 3.1; the shadows and depths n
//    are the local checks' own: vonoswald.hpp's Prop. 1 shadow and n_layer, ahn.hpp's
//    zform_y_shadow_step and zform_checks.hpp's layer_depth).
//  * The reference is exact; rounding it once to T adds 2 eps |rounded| per entry.
// A rigorous upper bound, HAND-DERIVED (the argument above; not machine-checked), no tuned
// constant. Floating-point scalars only: rationals check the end-to-end identity with
// tolerance 0, intervals and balls check enclosure (their branches are the local checks').
#pragma once

#include "core/rational.hpp"
#include "propagated_rounding.hpp"
#include "rounding_shadow.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace iclproof::stack_end_to_end {

// The scalars whose runs round (not exact, not enclosures): the ones these checks apply to.
template <class T>
inline constexpr bool is_rounded_scalar = !is_exact_scalar<T> && !is_interval_scalar<T>;

template <class T>
Mat<double> to_double_matrix(const Mat<T>& M) {
  return M.unaryExpr([](const T& x) { return static_cast<double>(x); });
}

// The step matrix M = I - c U V of a right-multiplied affine layer (dim x dim, in double) and its
// shadow I + |c| |U| |V_hat| (V_hat >= |V| entrywise, e.g. sum_h |A_h| folded in), for
// propagated_rounding::linear_recurrence.
struct affine_step {
  Mat<double> M, M_hat;
};
inline affine_step make_affine_step(double c, const Mat<double>& U, const Mat<double>& V,
                                    const Mat<double>& V_hat) {
  const Eigen::Index n = U.rows();
  return {Mat<double>(Mat<double>::Identity(n, n) - c * (U * V)),
          Mat<double>(Mat<double>::Identity(n, n) + std::abs(c) * (U.cwiseAbs() * V_hat))};
}

// Entrywise bounds B_0 = 0, B_1..B_K on |R_k - R*_k| for R_k = R_(k-1) M_k + delta_k (every row
// of R separately), |delta_k| <= local[k] (local[0] unused; rows x dim), entry_depth the rounding
// depth of one entry of M_k computed in double from the inputs.
template <class T>
std::vector<Mat<T>> affine_stack_error_bounds(const std::vector<affine_step>& steps,
                                              double entry_depth,
                                              const std::vector<Mat<T>>& local) {
  const int K = static_cast<int>(steps.size());
  const Eigen::Index n = steps.front().M.rows(), rows = local.back().rows();
  propagated_rounding::linear_recurrence r;
  r.dim = n;
  r.entry_depth = entry_depth;
  for (int m = 0; m < K; ++m) {
    r.L.emplace_back(m + 1);  // only L(m, m) = M_(m+1) is nonzero (empty blocks are zero)
    r.L_hat.emplace_back(m + 1);
    r.L.back()[m] = steps[m].M;
    r.L_hat.back()[m] = steps[m].M_hat;
  }
  const auto up = propagated_rounding::propagator_bounds(r);
  std::vector<Mat<T>> B(K + 1, Mat<T>::Zero(rows, n));
  for (Eigen::Index i = 0; i < rows; ++i) {
    std::vector<Mat<T>> row_local{Mat<T>::Zero(1, n)};
    for (int k = 1; k <= K; ++k) row_local.push_back(local[k].row(i));
    const auto Bi = propagated_rounding::propagated_bounds<T>(up, row_local);
    for (int k = 1; k <= K; ++k) B[k].row(i) = Bi[k];
  }
  return B;
}

// The cubic stacks' exact reference (GD++ stacks, the preconditioning layers, Ahn's B != 0
// chain) is a rational recursion whose entries grow about threefold in bits per layer: at the
// small profile's depths (L <= 5) and sizes it is cheap, at --size paper / large depths (up to
// 16) and sizes (d up to 64, N up to 512) one case took over a minute (measured: 8 cases of
// vonoswald.gdpp_stack_equals_preconditioned_gd at --size large did not finish in 60 s). So the
// end-to-end check of a cubic stack runs when L <= 5 and d N <= 2000 (the paper profile's d = 20,
// N = 100), and otherwise the case says so in its notes ("end-to-end check": "not run ...");
// the local per-layer checks run at every size.
inline bool cubic_end_to_end_affordable(case_context& ctx, int layers, Eigen::Index d,
                                        Eigen::Index n) {
  if (layers <= 5 && d * n <= 2000) return true;
  ctx.note("end-to-end check",
           "not run at L = " + std::to_string(layers) + ", d N = " + std::to_string(d * n) +
               " (the cubic stack's exact rational reference grows ~3x in bits per layer; run "
               "when L <= 5 and d N <= 2000); the local per-layer checks ran");
  return false;
}

// The realised rows against the exact reference rounded once to T, within the propagated bound
// plus that rounding: max_abs(realised - ref) <= max(B + 2 eps |ref|).
template <class T>
void compare_with_exact_reference(case_context& ctx, const std::string& label,
                                  const Mat<T>& realised, const Mat<rational_real>& exact,
                                  const Mat<T>& B) {
  const Mat<T> ref = propagated_rounding::rounded_from_exact<T>(exact);
  const T bound = T((B + propagated_rounding::rounding_of_reference<T>(ref)).maxCoeff());
  rounding_shadow::compare_within<T>(ctx, label, realised, ref, bound);
}

// ---------------------------------------------------------------------------------------------
// Cubic token stacks: the GD++ layers (vonoswald.hpp, gdpp_rate.hpp) and Ahn et al.'s Z-form
// layers with B != 0 (ahn.hpp) move the x-rows too, so a layer is a CUBIC map of its input
// tokens [X; Y] (d + o rows, n columns, the first N the context):
//     X' = X - cx Bm Xc Xc^T Am X,      Y' = Y - cy Yc Xc^T Am X
// (GD++: cx = gamma, Bm = Am = I, cy = eta / N, proofs/VonOswald.v:gdpp_layer_identity with
// W0 = 0; Z-form: cx = cy = 1/N, Bm = B, Am = A, proofs/AhnLemma1.v:ahn_lemma1_x_rows). Along
// the exact trajectory E_k (rationals) the errors e_k = R_k - E_k obey EXACTLY
//     e_k = J_k(e_(k-1)) + rho_k + delta_k,
// J_k the Jacobian of layer k at E_(k-1) (linear, with its signs), rho_k the second- and
// third-order terms of the cubic's Taylor expansion at E_(k-1) (finitely many: the map is a
// polynomial), delta_k layer k's rounding at its realised input. Hence (the recurrence is linear
// in e with inhomogeneity rho + delta) e_k = sum_(j<=k) (delta_j + rho_j) Phi(k, j) and
//     |e_k| <= (1 + 2 gamma) sum_(j<=k) (|delta_j| + |rho_j|) |Phi(k, j)|   (propagated_rounding),
// with, for |e_(j-1)| <= (alpha; beta) (the bound at depth j - 1, by induction) and
// A_hat >= |E_x|, B_hat >= |E_y| (the exact tokens, rounded and scaled by 1 + 2 eps):
//     |rho_x| <= |cx| |Bm| (ac ac^T |Am| A_hat + ac A_hat_c^T |Am| alpha + A_hat_c ac^T |Am| alpha
//                           + ac ac^T |Am| alpha),
//     |rho_y| <= |cy| (bc ac^T |Am| A_hat + bc A_hat_c^T |Am| alpha + B_hat_c ac^T |Am| alpha
//                      + bc ac^T |Am| alpha)          (ac, bc: alpha's, beta's context columns),
// the four perturbed-argument terms of the trilinear products (P Q^T Am R at (Xc, Xc, X) and
// (Yc, Xc, X)) of order >= 2, each bounded in absolute values; evaluated in T and scaled by
// 1 + 2 gamma_(2N + 3d + 10) (sums of nonnegative terms rounded). The Jacobian (state
// vec = rows of [X; Y] one after another) at (X, Y) = E_(k-1), s' = s J:
//     dX'(i,t)/dX(p,u) = [i=p][t=u] - cx ([t=u] (Bm Xc Xc^T Am)(i,p)
//                        + [u<N] (Bm Xc)(i,u) (Am X)(p,t) + [u<N] Bm(i,p) (Xc^T Am X)(u,t)),
//     dY'(i,t)/dY(p,u) = [i=p] ([t=u] - cy [u<N] (Xc^T Am X)(u,t)),
//     dY'(i,t)/dX(p,u) = -cy ([u<N] Yc(i,u) (Am X)(p,t) + [t=u] (Yc Xc^T Am)(i,p)),
//     dX'/dY = 0,
// computed in double from the exact tokens rounded to double, with its shadow (the same sums
// in absolute values) for the propagator's own rounding bound (entry depth N + 2d + 12: a
// conversion of each factor, products of inner lengths N, d, d, the scalings and the identity).
// HAND-DERIVED (the argument above; not machine-checked), rigorous, no tuned constant.
template <class T>
struct cubic_layer {
  T cx, cy;
  Mat<T> Bm, Am;  // d x d
};

namespace detail {
inline Mat<double> cubic_jacobian(const Mat<double>& X, const Mat<double>& Y, Eigen::Index N,
                                  double cx, double cy, const Mat<double>& Bm,
                                  const Mat<double>& Am, bool absolute) {
  const Eigen::Index d = X.rows(), o = Y.rows(), n = X.cols(), dim = (d + o) * n;
  const auto f = [&](const Mat<double>& M) { return absolute ? Mat<double>(M.cwiseAbs()) : M; };
  const Mat<double> Xa = f(X), Ya = f(Y), Ba = f(Bm), Aa = f(Am);
  const double sx = absolute ? std::abs(cx) : cx, sy = absolute ? std::abs(cy) : cy;
  const double sign = absolute ? 1.0 : -1.0;
  const Mat<double> Xc = Xa.leftCols(N), Yc = Ya.leftCols(N);
  const Mat<double> AmX = Aa * Xa, K = Xc.transpose() * AmX, BXc = Ba * Xc;
  const Mat<double> G1 = BXc * Xc.transpose() * Aa, YXA = Yc * Xc.transpose() * Aa;
  Mat<double> J = Mat<double>::Identity(dim, dim);
  for (Eigen::Index p = 0; p < d; ++p)  // x inputs
    for (Eigen::Index u = 0; u < n; ++u) {
      const Eigen::Index row = p * n + u;
      for (Eigen::Index i = 0; i < d; ++i)  // x outputs
        for (Eigen::Index t = 0; t < n; ++t) {
          double v = (t == u ? G1(i, p) : 0.0);
          if (u < N) v += BXc(i, u) * AmX(p, t) + Ba(i, p) * K(u, t);
          J(row, i * n + t) += sign * sx * v;
        }
      for (Eigen::Index i = 0; i < o; ++i)  // y outputs
        for (Eigen::Index t = 0; t < n; ++t) {
          double v = (t == u ? YXA(i, p) : 0.0);
          if (u < N) v += Yc(i, u) * AmX(p, t);
          J(row, (d + i) * n + t) += sign * sy * v;
        }
    }
  for (Eigen::Index p = 0; p < o; ++p)  // y inputs -> y outputs
    for (Eigen::Index u = 0; u < N; ++u)
      for (Eigen::Index t = 0; t < n; ++t)
        J((d + p) * n + u, (d + p) * n + t) += sign * sy * K(u, t);
  return J;
}

template <class T>
Mat<T> flatten_rows(const Mat<T>& M) {
  Mat<T> r(1, M.size());
  for (Eigen::Index i = 0; i < M.rows(); ++i)
    for (Eigen::Index t = 0; t < M.cols(); ++t) r(0, i * M.cols() + t) = M(i, t);
  return r;
}
template <class T>
Mat<T> unflatten_rows(const Mat<T>& r, Eigen::Index rows, Eigen::Index cols) {
  Mat<T> M(rows, cols);
  for (Eigen::Index i = 0; i < rows; ++i)
    for (Eigen::Index t = 0; t < cols; ++t) M(i, t) = r(0, i * cols + t);
  return M;
}
}  // namespace detail

// Entrywise bounds B_0 = 0, B_1..B_L on |R_k - E_k| (token-shaped, d + o rows) for a cubic stack
// with layers[k-1], exact tokens E_0..E_(L-1) (E_0 = R_0, the rounded inputs), local rounding
// bounds delta[1..L] (token-shaped, |delta_k| of layer k at its realised input), x-rows d.
template <class T>
std::vector<Mat<T>> cubic_stack_error_bounds(const std::vector<cubic_layer<T>>& layers,
                                             const std::vector<Mat<rational_real>>& exact,
                                             const std::vector<Mat<T>>& delta, Eigen::Index d,
                                             Eigen::Index N) {
  const int L = static_cast<int>(layers.size());
  const Eigen::Index rows = exact.front().rows(), n = exact.front().cols(), o = rows - d;
  const Eigen::Index dim = rows * n;
  propagated_rounding::linear_recurrence r;
  r.dim = dim;
  r.entry_depth = static_cast<double>(N) + 2.0 * d + 12.0;
  std::vector<Mat<T>> hat;  // >= |E_(k-1)|
  for (int k = 0; k < L; ++k) {
    const Mat<double> Ed = propagated_rounding::rounded_from_exact<double>(exact[k]);
    const auto& ly = layers[k];
    const Mat<double> Bd = to_double_matrix<T>(ly.Bm), Ad = to_double_matrix<T>(ly.Am);
    const double cx = static_cast<double>(ly.cx), cy = static_cast<double>(ly.cy);
    r.L.emplace_back(k + 1);
    r.L_hat.emplace_back(k + 1);
    r.L.back()[k] = detail::cubic_jacobian(Mat<double>(Ed.topRows(d)),
                                           Mat<double>(Ed.bottomRows(o)), N, cx, cy, Bd, Ad, false);
    r.L_hat.back()[k] = detail::cubic_jacobian(
        Mat<double>(Ed.topRows(d)), Mat<double>(Ed.bottomRows(o)), N, cx, cy, Bd, Ad, true);
    const Mat<T> Et = propagated_rounding::rounded_from_exact<T>(exact[k]);
    hat.push_back(Mat<T>(abs_of(Et) * T(T(1) + T(2) * eps<T>())));
  }
  const auto up = propagated_rounding::propagator_bounds(r);
  const T sum_scale = T(1) + T(2) * higham_gamma<T>(2.0 * N + 3.0 * d + 10.0);
  std::vector<Mat<T>> B{Mat<T>::Zero(rows, n)}, local{Mat<T>::Zero(1, dim)};
  for (int k = 1; k <= L; ++k) {
    const auto& ly = layers[k - 1];
    const Mat<T>& Eh = hat[k - 1];
    const Mat<T> Ah = Eh.topRows(d), Bh = Eh.bottomRows(o), Ahc = Ah.leftCols(N),
                 Bhc = Bh.leftCols(N);
    const Mat<T> alpha = B[k - 1].topRows(d), beta = B[k - 1].bottomRows(o);
    const Mat<T> ac = alpha.leftCols(N), bc = beta.leftCols(N);
    const Mat<T> absAm = abs_of(ly.Am), absBm = abs_of(ly.Bm);
    const Mat<T> AmAh = matmul(absAm, Ah), AmAlpha = matmul(absAm, alpha);
    const Mat<T> rho_x = matmul(absBm, Mat<T>(matmul(Mat<T>(matmul_nt(ac, ac)), AmAh) +
                                              matmul(Mat<T>(matmul_nt(ac, Ahc)), AmAlpha) +
                                              matmul(Mat<T>(matmul_nt(Ahc, ac)), AmAlpha) +
                                              matmul(Mat<T>(matmul_nt(ac, ac)), AmAlpha))) *
                         T(abs_of(ly.cx) * sum_scale);
    Mat<T> rho(rows, n);
    rho.topRows(d) = rho_x;
    if (o > 0)
      rho.bottomRows(o) = Mat<T>(matmul(Mat<T>(matmul_nt(bc, ac)), AmAh) +
                                 matmul(Mat<T>(matmul_nt(bc, Ahc)), AmAlpha) +
                                 matmul(Mat<T>(matmul_nt(Bhc, ac)), AmAlpha) +
                                 matmul(Mat<T>(matmul_nt(bc, ac)), AmAlpha)) *
                          T(abs_of(ly.cy) * sum_scale);
    local.push_back(detail::flatten_rows<T>(Mat<T>(delta[k] + rho)));
    B.push_back(
        detail::unflatten_rows<T>(propagated_rounding::propagated_bound<T>(up, local, k), rows, n));
  }
  return B;
}

}  // namespace iclproof::stack_end_to_end
