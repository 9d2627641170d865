// Definitions of linalg.hpp. Included only by the linalg_<scalar>.cpp files, one
// scalar type each, so the heavy Eigen instantiations compile in parallel and only once.
#pragma once
#include "core/linalg.hpp"

#include "core/kernels.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <Eigen/SVD>

#include <stdexcept>
#include <type_traits>

namespace iclproof {

namespace {
// C(i, j) = sum_k A(i*ars + k*acs) B(k*brs + j*bcs): one loop nest for N, TN and NT products.
template <class T>
Mat<T> product_loops(const T* a, Eigen::Index m, Eigen::Index k, std::ptrdiff_t a_row,
                     std::ptrdiff_t a_inner, const T* b, Eigen::Index n, std::ptrdiff_t b_inner,
                     std::ptrdiff_t b_col) {
  Mat<T> C(m, n);
  if constexpr (std::is_same_v<T, mpfr_real>) {
    // In place: each entry is the correctly rounded dot product, written into C(i, j).
    for (Eigen::Index j = 0; j < n; ++j)
      for (Eigen::Index i = 0; i < m; ++i)
        mpfr_dot_into(C(i, j).backend().data(), a + i * a_row, a_inner, b + j * b_col, b_inner, k);
  } else if constexpr (std::is_same_v<T, interval_real>) {
    mpfi_dot_workspace ws(scalar_traits<T>::bits());
    for (Eigen::Index j = 0; j < n; ++j)
      for (Eigen::Index i = 0; i < m; ++i) {
        T acc(0);
        ws.accumulate(acc, a + i * a_row, a_inner, b + j * b_col, b_inner, k);
        C(i, j) = std::move(acc);
      }
  } else if constexpr (is_ball_scalar<T>) {
    // Arb's arb_dot per entry (one rounding of the midpoint sum, radii bounded together).
    for (Eigen::Index j = 0; j < n; ++j)
      for (Eigen::Index i = 0; i < m; ++i)
        ball_dot_into(C(i, j), a + i * a_row, a_inner, b + j * b_col, b_inner, k);
  } else {
    for (Eigen::Index j = 0; j < n; ++j)
      for (Eigen::Index i = 0; i < m; ++i) {
        T acc(0);
        dot_accumulate(acc, a + i * a_row, a_inner, b + j * b_col, b_inner, k);
        C(i, j) = acc;
      }
  }
  return C;
}

void require_dims(bool ok, const char* what) {
  if (!ok) throw std::invalid_argument(what);
}
}  // namespace

template <class T>
Mat<T> matmul(const Mat<T>& A, const Mat<T>& B) {
  require_dims(A.cols() == B.rows(), "matmul: inner dimensions differ");
  // Column-major: A(i,k) at i + k*lda; B(k,j) at k + j*ldb.
  return product_loops<T>(A.data(), A.rows(), A.cols(), 1, A.rows(), B.data(), B.cols(), 1,
                          B.rows());
}
template <class T>
Mat<T> matmul_tn(const Mat<T>& A, const Mat<T>& B) {
  require_dims(A.rows() == B.rows(), "matmul_tn: inner dimensions differ");
  // (A^T)(i,k) = A(k,i) at k + i*lda.
  return product_loops<T>(A.data(), A.cols(), A.rows(), A.rows(), 1, B.data(), B.cols(), 1,
                          B.rows());
}
template <class T>
Mat<T> matmul_nt(const Mat<T>& A, const Mat<T>& B) {
  require_dims(A.cols() == B.cols(), "matmul_nt: inner dimensions differ");
  // (B^T)(k,j) = B(j,k) at j + k*ldb.
  return product_loops<T>(A.data(), A.rows(), A.cols(), 1, A.rows(), B.data(), B.rows(), B.rows(),
                          1);
}

template <class T>
Mat<T> spd_solve(const Mat<T>& A, const Mat<T>& B) {
  require_dims(A.rows() == A.cols() && A.rows() == B.rows(), "spd_solve: dimensions differ");
  Eigen::LLT<Mat<T>> llt(A);
  if (llt.info() != Eigen::Success)
    throw std::domain_error("spd_solve: matrix is not numerically positive definite");
  return llt.solve(B);
}
template <class T>
Mat<T> lu_solve(const Mat<T>& A, const Mat<T>& B) {
  require_dims(A.rows() == A.cols() && A.rows() == B.rows(), "lu_solve: dimensions differ");
  return Eigen::PartialPivLU<Mat<T>>(A).solve(B);
}
template <class T>
Mat<T> inverse(const Mat<T>& A) {
  require_dims(A.rows() == A.cols(), "inverse: matrix is not square");
  return Eigen::PartialPivLU<Mat<T>>(A).inverse();
}
template <class T>
T rank_tolerance(Eigen::Index rows, Eigen::Index cols) {
  // Rank decisions at 64 * max(m, n) * eps relative to the largest pivot: the backward error
  // of Householder QR is O(max(m,n) eps ||A||) (Higham, ASNA 2nd ed., Thm 19.4); the factor 64
  // separates it from the smallest genuine singular values our generators produce
  // (condition numbers <= 1e6, far above 64 n eps even in double).
  return T(64) * T(std::max(rows, cols)) * eps<T>();
}
template <class T>
Mat<T> min_norm_lstsq(const Mat<T>& A, const Mat<T>& B) {
  require_dims(A.rows() == B.rows(), "min_norm_lstsq: dimensions differ");
  Eigen::CompleteOrthogonalDecomposition<Mat<T>> cod;
  cod.setThreshold(rank_tolerance<T>(A.rows(), A.cols()));
  cod.compute(A);
  return cod.solve(B);
}
template <class T>
Eigen::Index numerical_rank(const Mat<T>& A) {
  Eigen::CompleteOrthogonalDecomposition<Mat<T>> cod;
  cod.setThreshold(rank_tolerance<T>(A.rows(), A.cols()));
  cod.compute(A);
  return cod.rank();
}
template <class T>
Vec<T> symmetric_eigenvalues(const Mat<T>& A) {
  require_dims(A.rows() == A.cols(), "symmetric_eigenvalues: matrix is not square");
  Eigen::SelfAdjointEigenSolver<Mat<T>> es(A, Eigen::EigenvaluesOnly);
  return es.eigenvalues();
}
template <class T>
Mat<T> symmetric_eigenvectors(const Mat<T>& A) {
  require_dims(A.rows() == A.cols(), "symmetric_eigenvectors: matrix is not square");
  Eigen::SelfAdjointEigenSolver<Mat<T>> es(A);
  return es.eigenvectors();
}
template <class T>
Mat<T> spd_sqrt(const Mat<T>& A) {
  Eigen::SelfAdjointEigenSolver<Mat<T>> es(A);
  Vec<T> s = es.eigenvalues();
  for (Eigen::Index i = 0; i < s.size(); ++i) {
    using boost::multiprecision::sqrt;
    using std::sqrt;
    s(i) = s(i) > T(0) ? T(sqrt(s(i))) : T(0);
  }
  return es.eigenvectors() * s.asDiagonal() * es.eigenvectors().transpose();
}
template <class T>
T spd_condition_number(const Mat<T>& A) {
  const Vec<T> ev = symmetric_eigenvalues(A);
  return ev(ev.size() - 1) / ev(0);
}
template <class T>
Vec<T> singular_values(const Mat<T>& A) {
  Eigen::JacobiSVD<Mat<T>> svd(A);
  return svd.singularValues();
}

#define ICLPROOF_INSTANTIATE_PRODUCTS(T)                   \
  template Mat<T> matmul(const Mat<T>&, const Mat<T>&);    \
  template Mat<T> matmul_tn(const Mat<T>&, const Mat<T>&); \
  template Mat<T> matmul_nt(const Mat<T>&, const Mat<T>&);

#define ICLPROOF_INSTANTIATE_LINALG(T)                          \
  ICLPROOF_INSTANTIATE_PRODUCTS(T)                              \
  template Mat<T> spd_solve(const Mat<T>&, const Mat<T>&);      \
  template Mat<T> lu_solve(const Mat<T>&, const Mat<T>&);       \
  template Mat<T> inverse(const Mat<T>&);                       \
  template T rank_tolerance<T>(Eigen::Index, Eigen::Index);     \
  template Mat<T> min_norm_lstsq(const Mat<T>&, const Mat<T>&); \
  template Eigen::Index numerical_rank(const Mat<T>&);          \
  template Vec<T> symmetric_eigenvalues(const Mat<T>&);         \
  template Mat<T> symmetric_eigenvectors(const Mat<T>&);        \
  template Mat<T> spd_sqrt(const Mat<T>&);                      \
  template T spd_condition_number(const Mat<T>&);               \
  template Vec<T> singular_values(const Mat<T>&);

}  // namespace iclproof
