// Cross-checks of the first-order-method references (CONSTRUCTIONS.md section 6): CG after
// rank(H) steps against the min-norm least-squares solution, heavy ball and Nesterov against the
// LFOM they are special cases of. Each check is a template on the scalar and on the
// implementation under test (tests/unit/memformer_test.cpp feeds broken ones). Tolerances: the
// CG check, the rounding shadows of properties/rounding_shadow.hpp; the heavy-ball and Nesterov
// checks, the exact LFOM (rationals) against the method's own propagated rounding
// (properties/propagated_rounding.hpp). Depths: those of properties/zform_checks.hpp.
#pragma once

#include "propagated_rounding.hpp"
#include "zform_checks.hpp"

#include <string>
#include <vector>

namespace iclproof::memformer_checks {

// CG after rank(H) steps == the min-norm least-squares prediction (paper: Memformer eqs 17-18
// with CG finite termination, Nocedal-Wright Thm 5.1; for singular H the iterates stay in
// range(X), so the limit is the min-norm solution). Exact arithmetic, any real field:
// proofs/ConjugateGradient.v:cg_after_rank_steps_equals_min_norm (the CG of
// first_order_methods.hpp, its x/0 = 0 guards included). Model: (q, L) -> cg_trace.
template <class T, class CG>
void cg_after_rank_steps_equals_min_norm(case_context& ctx, const CG& cg_run) {
  const cg_case c = gen_cg_case<T>();
  ctx.note_value("task", c.spec);
  ctx.note("exact rank, kappa_+(H)", std::to_string(c.rank) + ", " + std::to_string(c.kappa_plus));
  const auto z = make_zform_task<T>(c.spec);
  const auto q = make_quadratic_problem<T>(z.X, z.y);
  const int r = static_cast<int>(c.rank);
  const cg_trace<T> cg = cg_run(q, r);
  // On balls: the certified min-norm solve (min_norm_lstsq on balls, core/ball_linalg.hpp: the
  // rank decided exactly on the point X, every Gram matrix certified positive definite).
  const Mat<T> w_plus = min_norm_least_squares<T>(z.X, z.y).transpose();  // d x 1
  const T pred_cg = z.xq.col(0).dot(cg.w.back());
  const T pred_ls = z.xq.col(0).dot(w_plus.col(0));
  if constexpr (is_ball_scalar<T>) {
    // An exact identity on enclosures: the enclosure of pred_cg - pred_ls must contain 0 (the
    // termination tolerance models floating-point rounding, which the balls contain).
    ctx.check_identity("x_q^T w_CG after rank steps vs x_q^T w_min_norm", pred_cg, pred_ls);
  } else {
    const T bound = tolerance<T>([&](auto) {
      return cg_termination_bound<T>(z, c, cg_shadow(z, cg.alpha, cg.gamma).back(), w_plus);
    });
    ctx.check_le<T>(
        "|x_q^T (w_CG after rank steps - w_min_norm)|", abs_of(T(pred_cg - pred_ls)), bound,
        [&] { return "CG: " + full_digits(pred_cg) + "\nLS: " + full_digits(pred_ls); });
  }
}

// CGD Memformer after rank(H) layers == the min-norm least-squares prediction: the rigorous

// The propagated rounding bounds (propagated_rounding.hpp) of the heavy-ball and Nesterov
// programs of references/first_order_methods.hpp, from their realised iterates w (d x 1 each,
// 0..L): entrywise bounds (1 x d) on |w_l - w*_l|. Both programs compute H = X X^T / N and
// b = X y^T / N once (depth N + 1) and each step from them; a step on its realised inputs has
// depth <= layer_depth(d, N, 1, L) (zform_checks.hpp). H_hat, b_hat: make_quadratic_shadow.
//  * Heavy ball, w' = w - eta (H w - b) + beta (w - w_prev): local shadow |w| + |eta| (H_hat |w|
//    + b_hat) + |beta| (|w| + |w_prev|); exact linear part (rows e^T; H symmetric)
//    e' = e ((1 + beta) I - eta H) - beta e_prev (entries from X, eta, beta: depth N + 9).
//  * Nesterov's look-ahead v (w_(l+1) = v_l - eta (H v_l - b), v_(l+1) = w_(l+1) + beta
//    (w_(l+1) - w_l), w_0 = 0): the realised w_l is the program's deterministic image of the
//    realised v_(l-1), so v_(l+1) is a program of (v_l, v_(l-1)) with shadow (1 + |beta|) wh(v_l)
//    + |beta| wh(v_(l-1)) (the second term absent for l = 0), wh(v) = |v| + |eta| (H_hat |v| +
//    b_hat); exact linear part e' = (1 + beta) e (I - eta H) - beta e_prev (I - eta H)
//    (depth N + 12).
template <class T>
struct step_recurrence {
  std::vector<Mat<T>> local;  // 1 x d, index 1..L
  propagated_rounding::linear_recurrence propagator;
};

template <class T>
std::vector<Mat<T>> method_error_bounds(const zform_task<T>& z, const T& eta, const T& beta,
                                        const std::vector<Vec<T>>& w, bool nesterov) {
  const int d = static_cast<int>(z.X.rows()), N = static_cast<int>(z.X.cols());
  const int L = static_cast<int>(w.size()) - 1;
  const quadratic_shadow<T> sh = make_quadratic_shadow(z);
  const T two_gamma = shadow_bound<T>(layer_depth(d, N, 1, L), T(1));
  const auto step_hat = [&](const Vec<T>& v) {  // |v| + |eta| (H_hat |v| + b_hat), d x 1
    const Mat<T> av = abs_of(Mat<T>(v));
    return Mat<T>(av + abs_of(eta) * (matmul(sh.H, av) + sh.b));
  };
  std::vector<Mat<T>> local{Mat<T>::Zero(1, d)};
  for (int l = 0; l < L; ++l) {
    Mat<T> s;
    if (nesterov) {
      s = (T(1) + abs_of(beta)) * step_hat(w[l]);
      if (l >= 1) s += abs_of(beta) * step_hat(w[l - 1]);
    } else {
      const Mat<T> aw = abs_of(Mat<T>(w[l]));
      s = step_hat(w[l]) + abs_of(beta) * aw;
      if (l >= 1) s += abs_of(beta) * abs_of(Mat<T>(w[l - 1]));
    }
    local.push_back(Mat<T>(two_gamma * s.transpose()));
  }
  const auto to_d = [](const Mat<T>& M) {
    return Mat<double>(M.unaryExpr([](const T& x) { return static_cast<double>(x); }));
  };
  const Mat<double> X = to_d(z.X);
  const Mat<double> H = X * X.transpose() / N, H_hat = X.cwiseAbs() * X.cwiseAbs().transpose() / N;
  const double e = static_cast<double>(eta), b = static_cast<double>(beta);
  const Mat<double> I = Mat<double>::Identity(d, d);
  propagated_rounding::linear_recurrence r;
  r.dim = d;
  r.entry_depth = N + (nesterov ? 12.0 : 9.0);
  for (int m = 0; m < L; ++m) {
    r.L.push_back(std::vector<Mat<double>>(m + 1));
    r.L_hat.push_back(std::vector<Mat<double>>(m + 1));
    if (nesterov) {
      const Mat<double> G = I - e * H, G_hat = I + std::abs(e) * H_hat;
      r.L[m][m] = (1.0 + b) * G;
      r.L_hat[m][m] = (1.0 + std::abs(b)) * G_hat;
      if (m >= 1) {
        r.L[m][m - 1] = -b * G;
        r.L_hat[m][m - 1] = std::abs(b) * G_hat;
      }
    } else {
      r.L[m][m] = (1.0 + b) * I - e * H;
      r.L_hat[m][m] = (1.0 + std::abs(b)) * I + std::abs(e) * H_hat;
      if (m >= 1) {
        r.L[m][m - 1] = -b * I;
        r.L_hat[m][m - 1] = std::abs(b) * I;
      }
    }
  }
  return propagated_rounding::propagated_bounds<T>(propagated_rounding::propagator_bounds(r),
                                                   local);
}

// A first-order method (zform_checks.hpp, lfom_method) == the LFOM with its coefficients.
// Model: (q, eta, beta, L) -> the method's iterates 0..L (the implementation under test, in T).
// Reference: lfom() with the method's coefficients, run exactly (rationals) from the exact
// inputs and rounded once; tolerance: the method's own propagated rounding (method_error_bounds)
// plus that rounding. The steps are L in 1..12, (eta, beta) drawn around the paper's eta below
// 2 / lambda_max.
template <class T, class Method>
void lfom_method_equals_lfom(case_context& ctx, const Method& run, const lfom_method<T>& method,
                             const lfom_method<rational_real>& exact_method, bool nesterov) {
  const lfom_method_case<T> c = gen_lfom_method_case<T>(ctx, method, 12, "steps");
  const int L = c.L;
  const T &eta = c.eta, &beta = c.beta;
  const zform_task<T>& z = c.z;
  const auto q = make_quadratic_problem<T>(z.X, z.y);
  const auto w = run(q, eta, beta, L);
  ctx.require("L + 1 iterates", w.size() == static_cast<std::size_t>(L + 1),
              "got " + std::to_string(w.size()));
  if constexpr (is_ball_scalar<T>) {
    // Balls: the reference is lfom() with the method's coefficients run on the same balls, and
    // each step is an identity (case_context::compare: the enclosure of w_l - w*_l contains 0).
    // No rounding bound is evaluated: its propagation takes maxima of values that are equal in
    // exact arithmetic (maxCoeff over the bound rows), which balls cannot order (an ambiguous
    // comparison: the reason this body was not applicable on balls).
    const std::vector<Vec<T>> w_lfom = lfom(q, method.coefficients(eta, beta, L));
    for (int l = 1; l <= L; ++l)
      ctx.compare<T>("step " + std::to_string(l) + ": " + method.step_label + " vs LFOM",
                     Mat<T>(w[l]), Mat<T>(w_lfom[l]), T(0));
  } else {
    using propagated_rounding::exact_of;
    const Mat<rational_real> coeff_x = exact_method.coefficients(exact_of(eta), exact_of(beta), L);
    const std::vector<Vec<rational_real>> w_lfom =
        lfom(make_quadratic_problem<rational_real>(exact_of(z.X), exact_of(z.y)), coeff_x);
    std::vector<Mat<T>> B;
    tolerance<T>([&](auto) {
      B = method_error_bounds<T>(z, eta, beta, w, nesterov);
      return T(0);
    });
    for (int l = 1; l <= L; ++l) {
      const Mat<T> ref = propagated_rounding::rounded_from_exact<T>(Mat<rational_real>(w_lfom[l]));
      const T bound = tolerance<T>([&](auto) {
        return T(
            (B[l].transpose() + propagated_rounding::rounding_of_reference<T>(ref)).maxCoeff());
      });
      compare_within<T>(ctx, "step " + std::to_string(l) + ": " + method.step_label + " vs LFOM",
                        Mat<T>(w[l]), ref, bound);
    }
  }
}

// Heavy ball == LFOM with momentum coefficients (proofs/Memformer.v:momentum_as_lfom).
template <class T, class Momentum>
void momentum_equals_lfom(case_context& ctx, const Momentum& momentum) {
  lfom_method_equals_lfom<T>(ctx, momentum, heavy_ball_method<T>(),
                             heavy_ball_method<rational_real>(), false);
}

// Nesterov look-ahead == LFOM with Nesterov coefficients (proofs/Memformer.v:nesterov_as_lfom).
template <class T, class Nesterov>
void nesterov_equals_lfom(case_context& ctx, const Nesterov& nesterov) {
  lfom_method_equals_lfom<T>(ctx, nesterov, nesterov_method<T>(), nesterov_method<rational_real>(),
                             true);
}

}  // namespace iclproof::memformer_checks
