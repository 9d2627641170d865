// Exact linear algebra over Q (rational_real): the products of linalg.hpp instantiated for the
// exact scalar, and the solvers replaced by rational elimination. No rounding, so no pivoting
// for stability: a pivot is any entry that is not exactly zero, and "singular" / "not positive
// definite" are exact statements. Denominators grow with the size (Bareiss: the entries of an
// elimination step are ratios of minors of A, so their bit length grows linearly in the order).
#include "core/linalg_impl.hpp"
#include "core/rational.hpp"

#include <stdexcept>
#include <string>

namespace iclproof {

using R = rational_real;

template Mat<R> matmul(const Mat<R>&, const Mat<R>&);
template Mat<R> matmul_tn(const Mat<R>&, const Mat<R>&);
template Mat<R> matmul_nt(const Mat<R>&, const Mat<R>&);

template <>
R rank_tolerance(Eigen::Index, Eigen::Index) {
  return R(0);
}

// A = L D L^T with L unit lower triangular, D diagonal; every D_j must be > 0 exactly.
template <>
Mat<R> spd_solve(const Mat<R>& A, const Mat<R>& B) {
  require_dims(A.rows() == A.cols() && A.rows() == B.rows(), "spd_solve: dimensions differ");
  const Eigen::Index n = A.rows();
  Mat<R> L = Mat<R>::Identity(n, n);
  Vec<R> D(n);
  for (Eigen::Index j = 0; j < n; ++j) {
    R djj = A(j, j);
    for (Eigen::Index k = 0; k < j; ++k) djj -= L(j, k) * L(j, k) * D(k);
    if (!(djj > R(0)))
      throw std::domain_error("spd_solve: matrix is not positive definite (exact LDL^T pivot " +
                              std::to_string(j) + " is " + full_digits(djj) + ")");
    D(j) = djj;
    for (Eigen::Index i = j + 1; i < n; ++i) {
      R s = A(i, j);
      for (Eigen::Index k = 0; k < j; ++k) s -= L(i, k) * L(j, k) * D(k);
      L(i, j) = s / djj;
    }
  }
  Mat<R> X = B;
  for (Eigen::Index c = 0; c < X.cols(); ++c) {
    for (Eigen::Index i = 0; i < n; ++i)  // L z = b
      for (Eigen::Index k = 0; k < i; ++k) X(i, c) -= L(i, k) * X(k, c);
    for (Eigen::Index i = 0; i < n; ++i) X(i, c) /= D(i);  // D y = z
    for (Eigen::Index i = n - 1; i >= 0; --i)              // L^T x = y
      for (Eigen::Index k = i + 1; k < n; ++k) X(i, c) -= L(k, i) * X(k, c);
  }
  return X;
}

// Gaussian elimination on [A | B]; pivot: the first row with an exactly nonzero entry.
template <>
Mat<R> lu_solve(const Mat<R>& A, const Mat<R>& B) {
  require_dims(A.rows() == A.cols() && A.rows() == B.rows(), "lu_solve: dimensions differ");
  const Eigen::Index n = A.rows(), m = B.cols();
  Mat<R> a = A, b = B;
  for (Eigen::Index col = 0; col < n; ++col) {
    Eigen::Index p = col;
    while (p < n && a(p, col) == R(0)) ++p;
    if (p == n)
      throw std::domain_error("lu_solve: matrix is singular (exact zero column " +
                              std::to_string(col) + " below the diagonal)");
    if (p != col) {
      a.row(p).swap(a.row(col));
      b.row(p).swap(b.row(col));
    }
    for (Eigen::Index i = col + 1; i < n; ++i) {
      if (a(i, col) == R(0)) continue;
      const R f = a(i, col) / a(col, col);
      for (Eigen::Index j = col; j < n; ++j) a(i, j) -= f * a(col, j);
      for (Eigen::Index j = 0; j < m; ++j) b(i, j) -= f * b(col, j);
    }
  }
  for (Eigen::Index i = n - 1; i >= 0; --i)
    for (Eigen::Index j = 0; j < m; ++j) {
      R s = b(i, j);
      for (Eigen::Index k = i + 1; k < n; ++k) s -= a(i, k) * b(k, j);
      b(i, j) = s / a(i, i);
    }
  return b;
}

template <>
Mat<R> inverse(const Mat<R>& A) {
  require_dims(A.rows() == A.cols(), "inverse: matrix is not square");
  return lu_solve<R>(A, Mat<R>::Identity(A.rows(), A.rows()));
}

Mat<R> reduced_row_echelon(const Mat<R>& A, std::vector<Eigen::Index>& pivots) {
  Mat<R> a = A;
  const Eigen::Index m = a.rows(), n = a.cols();
  pivots.clear();
  Eigen::Index row = 0;
  for (Eigen::Index col = 0; col < n && row < m; ++col) {
    Eigen::Index p = row;
    while (p < m && a(p, col) == R(0)) ++p;
    if (p == m) continue;
    if (p != row) a.row(p).swap(a.row(row));
    const R inv = R(1) / a(row, col);
    for (Eigen::Index j = col; j < n; ++j) a(row, j) *= inv;
    for (Eigen::Index i = 0; i < m; ++i) {
      if (i == row || a(i, col) == R(0)) continue;
      const R f = a(i, col);
      for (Eigen::Index j = col; j < n; ++j) a(i, j) -= f * a(row, j);
    }
    pivots.push_back(col);
    ++row;
  }
  return a;
}

Mat<R> null_space_basis(const Mat<R>& A) {
  std::vector<Eigen::Index> pivots;
  const Mat<R> rref = reduced_row_echelon(A, pivots);
  const Eigen::Index n = A.cols(), r = static_cast<Eigen::Index>(pivots.size());
  std::vector<bool> is_pivot(static_cast<std::size_t>(n), false);
  for (Eigen::Index p : pivots) is_pivot[static_cast<std::size_t>(p)] = true;
  Mat<R> V = Mat<R>::Zero(n, n - r);
  Eigen::Index c = 0;
  for (Eigen::Index f = 0; f < n; ++f) {
    if (is_pivot[static_cast<std::size_t>(f)]) continue;
    V(f, c) = R(1);  // free variable f = 1, the others 0; pivot variables from rref
    for (Eigen::Index k = 0; k < r; ++k) V(pivots[static_cast<std::size_t>(k)], c) = -rref(k, f);
    ++c;
  }
  return V;
}

Mat<R> psd_generalised_inverse(const Mat<R>& H) {
  if (H.rows() != H.cols())
    throw std::invalid_argument("psd_generalised_inverse: the matrix is not square");
  std::vector<Eigen::Index> pivots;
  reduced_row_echelon(H, pivots);
  const Eigen::Index r = static_cast<Eigen::Index>(pivots.size());
  Mat<R> H_pp(r, r);
  for (Eigen::Index i = 0; i < r; ++i)
    for (Eigen::Index j = 0; j < r; ++j)
      H_pp(i, j) = H(pivots[static_cast<std::size_t>(i)], pivots[static_cast<std::size_t>(j)]);
  const Mat<R> H_pp_inv = r > 0 ? inverse(H_pp) : Mat<R>(0, 0);  // throws if singular
  Mat<R> G = Mat<R>::Zero(H.rows(), H.cols());
  for (Eigen::Index i = 0; i < r; ++i)
    for (Eigen::Index j = 0; j < r; ++j)
      G(pivots[static_cast<std::size_t>(i)], pivots[static_cast<std::size_t>(j)]) = H_pp_inv(i, j);
  return G;
}

std::optional<ldl_factors> psd_ldl_factorisation(const Mat<R>& M) {
  if (M.rows() != M.cols())
    throw std::invalid_argument("psd_ldl_factorisation: the matrix is not square");
  if (M != Mat<R>(M.transpose())) return std::nullopt;
  const Eigen::Index n = M.rows();
  Mat<R> S = M;  // the Schur complement on the indices not yet taken
  ldl_factors f{Mat<R>::Zero(n, n), Vec<R>::Zero(n)};
  std::vector<bool> taken(static_cast<std::size_t>(n), false);
  const auto open = [&](Eigen::Index i) { return !taken[static_cast<std::size_t>(i)]; };
  for (Eigen::Index step = 0; step < n; ++step) {
    Eigen::Index p = -1;
    for (Eigen::Index i = 0; i < n; ++i) {
      if (!open(i)) continue;
      if (S(i, i) < R(0)) return std::nullopt;  // e_i^T M e_i restricted: not PSD
      if (p < 0 && S(i, i) != R(0)) p = i;
    }
    if (p < 0) {  // every remaining diagonal is 0: PSD only if the rest is 0 too
      for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index j = 0; j < n; ++j)
          if (open(i) && open(j) && S(i, j) != R(0)) return std::nullopt;
      break;
    }
    const R pivot = S(p, p);
    f.D(step) = pivot;
    for (Eigen::Index i = 0; i < n; ++i)
      if (open(i)) f.L(i, step) = S(i, p) / pivot;
    taken[static_cast<std::size_t>(p)] = true;
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index j = 0; j < n; ++j)
        if (open(i) && open(j)) S(i, j) -= f.L(i, step) * pivot * f.L(j, step);
  }
  return f;
}

bool is_psd_certificate(const Mat<R>& M, const ldl_factors& f) {
  if (f.L.rows() != M.rows() || f.L.cols() != f.D.size() || M.rows() != M.cols()) return false;
  for (Eigen::Index i = 0; i < f.D.size(); ++i)
    if (f.D(i) < R(0)) return false;
  Mat<R> LD = f.L;
  for (Eigen::Index j = 0; j < LD.cols(); ++j) LD.col(j) *= f.D(j);
  return matmul_nt(LD, f.L) == M;
}

template <>
Eigen::Index numerical_rank(const Mat<R>& A) {
  std::vector<Eigen::Index> pivots;
  reduced_row_echelon(A, pivots);
  return static_cast<Eigen::Index>(pivots.size());
}

// The exact minimum-norm least-squares solution A^+ B for any rank r, through the full-rank
// factorisation A = C F: C = the r pivot columns of A (full column rank), F = the nonzero rows
// of rref(A) (full row rank). Then A^+ = F^T (F F^T)^-1 (C^T C)^-1 C^T (both Gram matrices are
// positive definite, solved by exact LDL^T).
template <>
Mat<R> min_norm_lstsq(const Mat<R>& A, const Mat<R>& B) {
  require_dims(A.rows() == B.rows(), "min_norm_lstsq: dimensions differ");
  std::vector<Eigen::Index> pivots;
  const Mat<R> rref = reduced_row_echelon(A, pivots);
  const Eigen::Index r = static_cast<Eigen::Index>(pivots.size());
  if (r == 0) return Mat<R>::Zero(A.cols(), B.cols());
  Mat<R> C(A.rows(), r);
  for (Eigen::Index k = 0; k < r; ++k) C.col(k) = A.col(pivots[static_cast<std::size_t>(k)]);
  const Mat<R> F = rref.topRows(r);
  const Mat<R> s1 = spd_solve<R>(matmul_tn(C, C), matmul_tn(C, B));
  const Mat<R> s2 = spd_solve<R>(matmul_nt(F, F), s1);
  return matmul_tn(F, s2);
}

}  // namespace iclproof
