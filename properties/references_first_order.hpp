// Cross-checks of the first-order-method references (CONSTRUCTIONS.md section 6): CG after
// rank(H) steps against the min-norm least-squares solution, heavy ball and Nesterov against the
// LFOM they are special cases of. Each check is a template on the scalar and on the
// implementation under test (tests/unit/memformer_test.cpp feeds broken ones). Tolerances: the
// rounding shadows of properties/rounding_shadow.hpp with the depths of
// properties/zform_checks.hpp.
#pragma once

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
  const Mat<T> w_plus = min_norm_least_squares<T>(z.X, z.y).transpose();  // d x 1
  const T bound = tolerance<T>([&](auto) {
    return cg_termination_bound<T>(z, c, cg_shadow(z, cg.alpha, cg.gamma).back(), w_plus);
  });
  const T pred_cg = z.xq.col(0).dot(cg.w.back());
  const T pred_ls = z.xq.col(0).dot(w_plus.col(0));
  ctx.check_le<T>("|x_q^T (w_CG after rank steps - w_min_norm)|", abs_of(T(pred_cg - pred_ls)),
                  bound,
                  [&] { return "CG: " + full_digits(pred_cg) + "\nLS: " + full_digits(pred_ls); });
}

// CGD Memformer after rank(H) layers == the min-norm least-squares prediction: the rigorous

// A first-order method (zform_checks.hpp, lfom_method) == the LFOM with its coefficients.
// Model: (q, eta, beta, L) -> the method's iterates 0..L. Tolerance: the shadows of both
// recursions; the steps are L in 1..12, (eta, beta) drawn around the paper's eta below
// 2 / lambda_max.
template <class T, class Method>
void lfom_method_equals_lfom(case_context& ctx, const Method& run, const lfom_method<T>& method) {
  const lfom_method_case<T> c = gen_lfom_method_case<T>(ctx, method, 12, "steps");
  const task_spec& spec = c.spec;
  const int L = c.L;
  const T &eta = c.eta, &beta = c.beta;
  const zform_task<T>& z = c.z;
  const auto q = make_quadratic_problem<T>(z.X, z.y);
  const Mat<T> coeff = method.coefficients(eta, beta, L);
  const std::vector<Vec<T>> w_lfom = lfom(q, coeff);
  std::vector<Mat<T>> w_hat_lfom, w_hat_method;
  tolerance<T>([&](auto) {
    std::vector<Mat<T>> A(L, Mat<T>::Identity(spec.d, spec.d));
    preconditioned_lfom<T>(z, A, abs_of(coeff), &w_hat_lfom);
    w_hat_method = method.shadow(make_quadratic_shadow(z), abs_of(eta), abs_of(beta), L);
    return T(0);
  });
  const auto w = run(q, eta, beta, L);
  ctx.require("L + 1 iterates", w.size() == static_cast<std::size_t>(L + 1),
              "got " + std::to_string(w.size()));
  const double D = layer_depth(spec.d, spec.N, 1, L);
  for (int l = 1; l <= L; ++l) {
    const T bound = tolerance<T>([&](auto) {
      return shadow_bound<T>((l + method.extra_steps) * D,
                             T(w_hat_method[l].maxCoeff() + w_hat_lfom[l].maxCoeff()));
    });
    compare_within<T>(ctx, "step " + std::to_string(l) + ": " + method.step_label + " vs LFOM",
                      Mat<T>(w[l]), Mat<T>(w_lfom[l]), bound);
  }
}

// Heavy ball == LFOM with momentum coefficients (proofs/Memformer.v:momentum_as_lfom).
template <class T, class Momentum>
void momentum_equals_lfom(case_context& ctx, const Momentum& momentum) {
  lfom_method_equals_lfom<T>(ctx, momentum, heavy_ball_method<T>());
}

// Nesterov look-ahead == LFOM with Nesterov coefficients (proofs/Memformer.v:nesterov_as_lfom).
template <class T, class Nesterov>
void nesterov_equals_lfom(case_context& ctx, const Nesterov& nesterov) {
  lfom_method_equals_lfom<T>(ctx, nesterov, nesterov_method<T>());
}

}  // namespace iclproof::memformer_checks
