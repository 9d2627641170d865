// Cross-checks of the closed-form references against each other (CONSTRUCTIONS.md section 6).
// Each check is a template on the scalar and on the implementation under test, so the
// mutation tests in tests/unit/references_test.cpp can feed it a broken variant.
#pragma once

#include "harness/property.hpp"
#include "harness/tolerance.hpp"
#include "references/references.hpp"
#include "tasks/rapidcheck_gen.hpp"

#include <algorithm>
#include <cmath>

namespace iclproof::reference_checks {

// ||A||_F
template <class T> T frobenius(const Mat<T>& A) {
  using std::sqrt;
  using boost::multiprecision::sqrt;
  return sqrt(A.squaredNorm());
}

// Iterated Sherman-Morrison == ridge (proofs/ShermanMorrison.v:iterated_sherman_morrison_ridge).
// Tolerance: both compute W = Y X^T A^-1, A = lambda I + X X^T, by backward-stable steps.
// Ridge: Cholesky, relative error <= kappa c / (1 - kappa c), c = 4 d (3d+1) u (Higham Thm 10.4).
// Sherman-Morrison: each of the N rank-one updates is a backward-stable O(d^2) operation whose
// rounding perturbs A_i^-1 by at most gamma_{2d+3} relative; propagated to A_N^-1 these add at
// most N gamma_{2d+3} kappa(A_N) relative (first-order; Yip, SIAM J. Sci. Stat. Comput. 7, 1986).
// The final product Y X^T A^-1 adds gamma_{N+d} relative in |.| norms, bounded by the Frobenius
// norms used here. The sum, times ||W||_F and a factor 2 for second-order terms, is the bound.
template <class T, class SM>
void sherman_morrison_equals_ridge(case_context& ctx, const SM& sherman_morrison) {
  task_ranges r;
  r.d_max = 8;
  r.o_max = 2;
  r.N_max = 20;
  r.max_noise = 0.1;
  const task_spec spec = *gen_task_spec(r);
  const int lambda_exp = *rc::gen::inRange(-3, 4);  // lambda = 2^k, exact in every precision
  const T lambda = std::ldexp(1.0, lambda_exp);
  ctx.note_value("task", spec);
  ctx.note("lambda", full_digits(lambda));
  const auto task = make_task<T>(spec);
  const Mat<T> W_sm = sherman_morrison(task.X, task.Y, lambda);
  const Mat<T> W_ridge = ridge_closed_form(task.X, task.Y, lambda);
  const Mat<T> A = matmul_nt(task.X, task.X) + lambda * Mat<T>::Identity(spec.d, spec.d);
  const T kappa = spd_condition_number(A);
  const double d = spec.d, n = spec.N;
  const T XY = frobenius<T>(task.X) * frobenius<T>(task.Y);
  const T Ainv_norm = T(1) / symmetric_eigenvalues(A)(0);
  const T scale = std::max(frobenius<T>(W_ridge), T(XY * Ainv_norm));
  const T bound = T(2) * scale *
                  (cholesky_solve_relative_bound<T>(d, kappa) + T(n) * higham_gamma<T>(2 * d + 3) * kappa +
                   T(2) * higham_gamma<T>(n + d));
  ctx.compare<T>("W_sherman_morrison vs W_ridge", W_sm, W_ridge, bound);
}

}  // namespace iclproof::reference_checks
