// Linear algebra on ball_real (linalg_ball.cpp): the products (Arb's arb_dot per entry) and the
// certified solves (Arb's arb_mat_solve / arb_mat_spd_solve). Include this, not only
// core/linalg.hpp, wherever a Mat<ball_real> is multiplied or solved: it declares the
// specialisations. As on interval_real, Eigen's decompositions (eigen-, SVD-, QR-based routines)
// are not instantiated for balls and a call does not link.
#pragma once

#include "core/ball.hpp"
#include "core/linalg.hpp"

#include <cstddef>

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

// Entrywise outward MPFI enclosures (the verdicts compare these, harness/case_context.hpp).
Mat<interval_real> to_interval_enclosure(const Mat<ball_real>& M);

}  // namespace iclproof
