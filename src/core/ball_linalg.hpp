// Linear algebra on ball_real (linalg_ball.cpp): the products (Arb's arb_dot per entry) and the
// certified solves (Arb's arb_mat_solve / arb_mat_spd_solve). Include this, not only
// core/linalg.hpp, wherever a Mat<ball_real> is multiplied or solved: it declares the
// specialisations. As on interval_real, Eigen's decompositions (eigen-, SVD-, QR-based routines)
// are not instantiated for balls and a call does not link.
#pragma once

#include "core/ball.hpp"
#include "core/linalg.hpp"

#include <cstddef>
#include <vector>

namespace iclproof {

// C = sum_k a[k sa] b[k sb] in one arb_dot (the exact sum lies in the ball).
void ball_dot_into(ball_real& c, const ball_real* a, std::ptrdiff_t sa, const ball_real* b,
                   std::ptrdiff_t sb, std::ptrdiff_t n);

// Certified solve of A X = B: every solution of every point system in the balls lies in X.
// Arb's arb_mat_solve (Gaussian elimination in ball arithmetic with a preconditioner, or the
// approximate solve plus a verified residual for larger n, Arb's own choice). Throws
// std::domain_error (one line) when Arb cannot certify A invertible at this precision.
Mat<ball_real> certified_solve(const Mat<ball_real>& A, const Mat<ball_real>& B);
// The same through Arb's Cholesky (arb_mat_spd_solve); throws unless A is certified SPD.
Mat<ball_real> certified_spd_solve(const Mat<ball_real>& A, const Mat<ball_real>& B);
template <>
Mat<ball_real> spd_solve(const Mat<ball_real>& A, const Mat<ball_real>& B);
template <>
Mat<ball_real> lu_solve(const Mat<ball_real>& A, const Mat<ball_real>& B);
template <>
Mat<ball_real> inverse(const Mat<ball_real>& A);

// The exact value of a point ball (radius 0, finite midpoint) as a rational; throws
// std::domain_error (one line) for a ball of nonzero radius: only exact data is read exactly.
rational_real exact_value_of_point(const ball_real& x);

// Indices of rank(A) linearly independent columns of A (the pivot columns of its reduced row
// echelon form), decided EXACTLY in rationals (FLINT's fmpq_mat_rref) on the point values of A.
// A rank is never decided on an enclosure: a matrix with an entry of nonzero radius throws
// std::domain_error (one line), as exact_value_of_point does.
std::vector<Eigen::Index> independent_columns_exact(const Mat<ball_real>& A);

// Min-norm least squares X = A^+ B on balls (the specialisation of core/linalg.hpp's
// min_norm_lstsq; references/regression_solutions.hpp's min_norm_least_squares calls it). A must
// be a point matrix: its rank r and r independent columns F = A[:, cols] are decided exactly
// (independent_columns_exact); then, with every solve certified by Arb's arb_mat_spd_solve
// (certified_spd_solve, whose success proves the Gram matrix positive definite):
//   r = n (full column rank):  X = (A^T A)^-1 A^T B;
//   r = m (full row rank):     X = A^T (A A^T)^-1 B;
//   otherwise A = F C with C = (F^T F)^-1 F^T A (r x n, full row rank; exact because the other
//   columns lie in span F), and X = C^T (C C^T)^-1 (F^T F)^-1 F^T B;
//   r = 0: X = 0.
// Every exact A^+ b for b in the balls of B lies in the result. B may have any radius.
template <>
Mat<ball_real> min_norm_lstsq(const Mat<ball_real>& A, const Mat<ball_real>& B);

// An upper bound, rounded up to a double, of max_i sum_j |S_ij| over every point of the balls
// (Arb's mag arithmetic, which rounds up): by Gershgorin's theorem (or ||S||_2 <= ||S||_inf for
// symmetric S), at least lambda_max(S) for every symmetric point matrix S in the balls.
double gershgorin_upper_bound(const Mat<ball_real>& S);

// Entrywise outward MPFI enclosures (the verdicts compare these, harness/case_context.hpp).
Mat<interval_real> to_interval_enclosure(const Mat<ball_real>& M);

}  // namespace iclproof
