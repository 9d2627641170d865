// Linear algebra on interval_real: the products (mpfi_t kernel) and the certified solves.
#include "core/interval_matrix_norm.hpp"
#include "core/linalg_impl.hpp"

#include <fmt/format.h>

namespace iclproof {
ICLPROOF_INSTANTIATE_PRODUCTS(interval_real)

namespace {
Mat<mpfr_real> midpoints(const Mat<interval_real>& A) {
  Mat<mpfr_real> m(A.rows(), A.cols());
  for (Eigen::Index j = 0; j < A.cols(); ++j)
    for (Eigen::Index i = 0; i < A.rows(); ++i) {
      mpfr_set_prec(m(i, j).backend().data(), mpfi_get_prec(A(i, j).backend().data()));
      mpfi_mid(m(i, j).backend().data(), A(i, j).backend().data());
    }
  return m;
}
Mat<interval_real> points(const Mat<mpfr_real>& A) {
  Mat<interval_real> m(A.rows(), A.cols());
  for (Eigen::Index j = 0; j < A.cols(); ++j)
    for (Eigen::Index i = 0; i < A.rows(); ++i)
      mpfi_set_fr(m(i, j).backend().data(), A(i, j).backend().data());
  return m;
}
// Upper end of the largest |entry| sum over the rows of column block M (max norm of a column).
mpfr_real column_max_upper(const Mat<interval_real>& M, Eigen::Index j) {
  mpfr_real r(0);
  for (Eigen::Index i = 0; i < M.rows(); ++i) {
    const mpfr_real a = upper(abs_of(M(i, j)));
    if (r < a) r = a;
  }
  return r;
}
}  // namespace

mpfr_real infinity_norm_upper(const Mat<interval_real>& M) {
  mpfr_real norm(0);
  for (Eigen::Index i = 0; i < M.rows(); ++i) {
    interval_real s(0);
    for (Eigen::Index j = 0; j < M.cols(); ++j) s += abs_of(M(i, j));
    const mpfr_real u = upper(s);
    // Every comparison with NaN is false, so `norm < u` would skip a NaN row: return NaN.
    if (mpfr_nan_p(u.backend().data()) || mpfr_nan_p(lower(s).backend().data())) {
      mpfr_real nan;
      mpfr_set_nan(nan.backend().data());
      return nan;
    }
    if (norm < u) norm = u;
  }
  return norm;
}

Mat<interval_real> certified_solve(const Mat<interval_real>& A, const Mat<interval_real>& B) {
  if (A.rows() != A.cols() || A.rows() != B.rows())
    throw std::invalid_argument("certified_solve: dimensions differ");
  const Eigen::Index n = A.rows();
  const Mat<mpfr_real> R = inverse<mpfr_real>(midpoints(A));
  const Mat<interval_real> Ri = points(R);
  const Mat<interval_real> X0 = points(matmul<mpfr_real>(R, midpoints(B)));
  const Mat<interval_real> Z = matmul<interval_real>(Ri, Mat<interval_real>(B - matmul(A, X0)));
  const Mat<interval_real> C =
      Mat<interval_real>(Mat<interval_real>::Identity(n, n)) - matmul<interval_real>(Ri, A);
  // beta: upper end of ||C||_inf. A NaN beta refuses the solve: R is the MPFR inverse of the
  // midpoint, which for an exactly singular midpoint holds inf and NaN entries, and every
  // comparison with NaN is false, so `beta < 1` alone would return [nan, nan] enclosures as if
  // certified.
  const mpfr_real beta = infinity_norm_upper(C);
  const bool beta_is_nan = mpfr_nan_p(beta.backend().data()) != 0;
  if (beta_is_nan || !(beta < mpfr_real(1)))
    throw std::domain_error(
        fmt::format("certified solve: ||I - R A||_inf <= {} is not < 1 (matrix singular or too "
                    "ill-conditioned at {} bits)",
                    beta_is_nan ? std::string("NaN") : fmt::format("{}", static_cast<double>(beta)),
                    scalar_traits<interval_real>::bits()));
  const interval_real one_minus_beta = interval_real(1) - interval_point(beta);
  Mat<interval_real> X(n, B.cols());
  for (Eigen::Index j = 0; j < B.cols(); ++j) {
    const interval_real zmax = interval_point(column_max_upper(Z, j));
    const mpfr_real delta = upper(interval_real(zmax / one_minus_beta));
    const interval_real ball = interval_from_endpoints(mpfr_real(-delta), delta);
    for (Eigen::Index i = 0; i < n; ++i) {
      interval_real ce(0);
      for (Eigen::Index k = 0; k < n; ++k) ce += C(i, k) * ball;
      X(i, j) = X0(i, j) + Z(i, j) + ce;
      if (mpfr_nan_p(lower(X(i, j)).backend().data()) ||
          mpfr_nan_p(upper(X(i, j)).backend().data()))
        throw std::domain_error(
            "certified solve: the enclosure is NaN (matrix singular or too ill-conditioned)");
    }
  }
  return X;
}

template <>
Mat<interval_real> spd_solve(const Mat<interval_real>& A, const Mat<interval_real>& B) {
  return certified_solve(A, B);
}
template <>
Mat<interval_real> lu_solve(const Mat<interval_real>& A, const Mat<interval_real>& B) {
  return certified_solve(A, B);
}
template <>
Mat<interval_real> inverse(const Mat<interval_real>& A) {
  return certified_solve(A, Mat<interval_real>::Identity(A.rows(), A.cols()));
}

}  // namespace iclproof
