// Dense linear algebra on the three scalar types, instantiated once in linalg.cpp
// (Eigen's decompositions on mpfr_real cost ~80 s and ~2 GB to compile per scalar type:
// they must not be instantiated in every translation unit).
#pragma once

#include "core/eigen_scalar.hpp"

namespace iclproof {

// A B, as plain loops (for mpfr_real: every entry the correctly rounded dot product of
// core/kernels.hpp's mpfr_dot_into, written in place, below the raw-MPFR mul+add floor at 257
// bits, docs/benchmarks.md; Eigen's generic product is ~2.7x the floor). Cost m n k.
template <class T>
Mat<T> matmul(const Mat<T>& A, const Mat<T>& B);
// A^T B without forming A^T.
template <class T>
Mat<T> matmul_tn(const Mat<T>& A, const Mat<T>& B);
// A B^T without forming B^T.
template <class T>
Mat<T> matmul_nt(const Mat<T>& A, const Mat<T>& B);

// The same for any Eigen expressions (evaluated first), so `matmul(A - B, C)` works.
template <class A, class B>
Mat<typename A::Scalar> matmul(const Eigen::MatrixBase<A>& a, const Eigen::MatrixBase<B>& b) {
  using S = typename A::Scalar;
  return matmul<S>(Mat<S>(a), Mat<S>(b));
}
template <class A, class B>
Mat<typename A::Scalar> matmul_tn(const Eigen::MatrixBase<A>& a, const Eigen::MatrixBase<B>& b) {
  using S = typename A::Scalar;
  return matmul_tn<S>(Mat<S>(a), Mat<S>(b));
}
template <class A, class B>
Mat<typename A::Scalar> matmul_nt(const Eigen::MatrixBase<A>& a, const Eigen::MatrixBase<B>& b) {
  using S = typename A::Scalar;
  return matmul_nt<S>(Mat<S>(a), Mat<S>(b));
}

// Solve A X = B for symmetric positive definite A (Cholesky, LLT). Throws
// std::domain_error if A is not numerically SPD.
template <class T>
Mat<T> spd_solve(const Mat<T>& A, const Mat<T>& B);
// Solve A X = B for square nonsingular A (LU with partial pivoting).
template <class T>
Mat<T> lu_solve(const Mat<T>& A, const Mat<T>& B);
template <class T>
Mat<T> inverse(const Mat<T>& A);
// Minimum-norm least-squares solution of A X ~ B (complete orthogonal decomposition: a
// rank-revealing QR, never the normal equations). rank_tol is relative to the largest
// diagonal of R; default: eps * max(rows, cols) * 64 (see rank_tolerance).
template <class T>
Mat<T> min_norm_lstsq(const Mat<T>& A, const Mat<T>& B);
template <class T>
Eigen::Index numerical_rank(const Mat<T>& A);
// Relative threshold on |R_ii| / |R_11| used for numerical rank.
template <class T>
T rank_tolerance(Eigen::Index rows, Eigen::Index cols);
// Eigenvalues (ascending) and eigenvectors of a symmetric matrix.
template <class T>
Vec<T> symmetric_eigenvalues(const Mat<T>& A);
template <class T>
Mat<T> symmetric_eigenvectors(const Mat<T>& A);
// Symmetric positive semidefinite square root and 2-norm condition number (via eigenvalues).
template <class T>
Mat<T> spd_sqrt(const Mat<T>& A);
template <class T>
T spd_condition_number(const Mat<T>& A);
// Singular values (descending), JacobiSVD.
template <class T>
Vec<T> singular_values(const Mat<T>& A);

// On interval_real (linalg_interval.cpp) only the products and the certified solves below
// exist: Eigen's decompositions are not interval algorithms (LLT / PartialPivLU on MPFI return
// NaN enclosures, TOOLCHAIN.md), so the eigen-, SVD- and QR-based routines are not instantiated
// for intervals and a call does not link.
//
// Certified solve of A X = B (Rump / Krawczyk style): R ~ mid(A)^-1 and X0 = R mid(B) in MPFR,
// then in interval arithmetic C = I - R A, beta = upper end of ||C||_inf, and if beta < 1 every
// solution of every A in the enclosure lies in X0 + R (B - A X0) + C [-delta, delta],
// delta = ||R (B - A X0)||_inf / (1 - beta) per column. Throws std::domain_error (one line)
// when beta >= 1 (A singular or too ill-conditioned for the precision): never a guess.
Mat<interval_real> certified_solve(const Mat<interval_real>& A, const Mat<interval_real>& B);
template <>
Mat<interval_real> spd_solve(const Mat<interval_real>& A, const Mat<interval_real>& B);
template <>
Mat<interval_real> lu_solve(const Mat<interval_real>& A, const Mat<interval_real>& B);
template <>
Mat<interval_real> inverse(const Mat<interval_real>& A);

}  // namespace iclproof
