// The exact scalar: rationals p/q over GMP (Boost.Multiprecision's gmp_rational backend,
// expression templates off). Every +, -, *, / is exact, so a property whose claim is an
// algebraic identity checks EQUALITY in this scalar: error exactly 0 against tolerance 0.
//
// What it has: the field operations, comparisons, |x| (abs_of), exact p/q text (full_digits),
// log2|x| as a double (log2_abs), exact linear algebra by rational elimination (the linalg.hpp
// specialisations declared below, defined in linalg_rational.cpp).
// What it has not, on purpose: sqrt_of, pi_value, eigenvalues, singular values, spd_sqrt,
// condition numbers. Using them on rational_real is a compile error (static_assert in sqrt_of,
// deleted specialisations here), never a silently rounded value.
#pragma once

#include "core/linalg.hpp"
#include "core/scalar.hpp"

#include <boost/multiprecision/gmp.hpp>

#include <optional>
#include <string>
#include <vector>

namespace iclproof {

// rational_real, its scalar_traits, log2_abs and full_digits are in core/scalar.hpp (the
// generic code finds them there).

// Exact linear algebra (linalg_rational.cpp). Pivots are chosen by exact zero tests; a zero or
// negative pivot in spd_solve (LDL^T) and a singular matrix in lu_solve / inverse throw
// std::domain_error. min_norm_lstsq is the exact Moore-Penrose solution for any rank.
template <>
Mat<rational_real> spd_solve(const Mat<rational_real>& A, const Mat<rational_real>& B);
template <>
Mat<rational_real> lu_solve(const Mat<rational_real>& A, const Mat<rational_real>& B);
template <>
Mat<rational_real> inverse(const Mat<rational_real>& A);
template <>
Mat<rational_real> min_norm_lstsq(const Mat<rational_real>& A, const Mat<rational_real>& B);
template <>
Eigen::Index numerical_rank(const Mat<rational_real>& A);  // the exact rank
// The rank tolerance of an exact rank decision is 0.
template <>
rational_real rank_tolerance(Eigen::Index rows, Eigen::Index cols);

// Reduced row echelon form of A by exact elimination; `pivots` receives the pivot columns.
Mat<rational_real> reduced_row_echelon(const Mat<rational_real>& A,
                                       std::vector<Eigen::Index>& pivots);

// A basis of {v : A v = 0} (columns), from the free columns of rref(A); exact.
Mat<rational_real> null_space_basis(const Mat<rational_real>& A);

// A generalised inverse G of a symmetric positive semidefinite H (H G H = H), exact: the inverse
// of H's principal submatrix on the pivot columns P of rref(H), zero outside P x P. For a Gram
// matrix H = X X^T that submatrix is X_P X_P^T with the rows X_P independent, so invertible (a
// singular one throws std::domain_error). Not the Moore-Penrose inverse unless H is invertible;
// callers that rely on H G H = H check it exactly (proofs/LeastSquares.v:sv_lower_bound_ginv
// needs only that).
Mat<rational_real> psd_generalised_inverse(const Mat<rational_real>& H);

// A factorisation M = L diag(D) L^T of a symmetric positive semidefinite M, exact, by LDL^T
// with symmetric pivoting: each step takes a remaining index with a nonzero diagonal of the
// Schur complement as pivot. L is n x n but not triangular (its rows are in M's order: the
// permutation is folded in), D has one entry per step taken, the rest 0. proofs/
// SingularValueCertificate.v:ldl_psd needs no triangularity, only M == L diag(D) L^T and D >= 0,
// which is_psd_certificate checks exactly.
struct ldl_factors {
  Mat<rational_real> L;
  Vec<rational_real> D;
};
// nullopt when M is not symmetric positive semidefinite: M != M^T, a negative pivot, or every
// remaining diagonal 0 with a nonzero entry left (a PSD matrix with a zero diagonal entry has a
// zero row and column there).
std::optional<ldl_factors> psd_ldl_factorisation(const Mat<rational_real>& M);
// True iff every D_i >= 0 and M == L diag(D) L^T, both exactly: a certificate that M is
// positive semidefinite (SingularValueCertificate.v:ldl_psd), whatever produced L and D.
bool is_psd_certificate(const Mat<rational_real>& M, const ldl_factors& f);

// No exact form: these need square roots or iterations that do not terminate in Q.
template <>
Vec<rational_real> symmetric_eigenvalues(const Mat<rational_real>&) = delete;
template <>
Mat<rational_real> symmetric_eigenvectors(const Mat<rational_real>&) = delete;
template <>
Mat<rational_real> spd_sqrt(const Mat<rational_real>&) = delete;
template <>
rational_real spd_condition_number(const Mat<rational_real>&) = delete;
template <>
Vec<rational_real> singular_values(const Mat<rational_real>&) = delete;
template <>
rational_real pi_value<rational_real>() = delete;

}  // namespace iclproof
