// Linear algebra on ball_real: the products (arb_dot) and the certified solves (arb_mat).
#include "core/ball_linalg.hpp"
#include "core/linalg_impl.hpp"

#include <arb_mat.h>
#include <flint/fmpq_mat.h>
#include <fmt/format.h>

#include <stdexcept>
#include <vector>

namespace iclproof {

void ball_dot_into(ball_real& c, const ball_real* a, std::ptrdiff_t sa, const ball_real* b,
                   std::ptrdiff_t sb, std::ptrdiff_t n) {
  if (n == 0) {
    c = ball_real(0);
    return;
  }
  // arb_dot reads arb_srcptr + k * step; ball_real is exactly one arb_struct (checked below).
  arb_dot(c.data(), nullptr, 0, a[0].data(), sa, b[0].data(), sb, n, ball_precision());
}
static_assert(sizeof(ball_real) == sizeof(arb_struct),
              "ball_real must be layout-compatible with arb_struct for arb_dot strides");

ICLPROOF_INSTANTIATE_PRODUCTS(ball_real)

namespace {
// An arb_mat holding copies of the entries of M (RAII).
class arb_matrix {
 public:
  arb_matrix(Eigen::Index r, Eigen::Index c) { arb_mat_init(m_, r, c); }
  explicit arb_matrix(const Mat<ball_real>& M) : arb_matrix(M.rows(), M.cols()) {
    for (Eigen::Index i = 0; i < M.rows(); ++i)
      for (Eigen::Index j = 0; j < M.cols(); ++j) arb_set(arb_mat_entry(m_, i, j), M(i, j).data());
  }
  ~arb_matrix() { arb_mat_clear(m_); }
  arb_matrix(const arb_matrix&) = delete;
  arb_matrix& operator=(const arb_matrix&) = delete;
  arb_mat_struct* get() { return m_; }
  Mat<ball_real> to_mat() const {
    Mat<ball_real> r(arb_mat_nrows(m_), arb_mat_ncols(m_));
    for (Eigen::Index i = 0; i < r.rows(); ++i)
      for (Eigen::Index j = 0; j < r.cols(); ++j) arb_set(r(i, j).data(), arb_mat_entry(m_, i, j));
    return r;
  }

 private:
  arb_mat_t m_;
};

template <class Solve>
Mat<ball_real> solve_with(const Mat<ball_real>& A, const Mat<ball_real>& B, Solve solve,
                          const char* what, const char* certifies) {
  if (A.rows() != A.cols() || A.rows() != B.rows())
    throw std::invalid_argument(fmt::format("{}: dimensions differ", what));
  arb_matrix a(A), b(B), x(B.rows(), B.cols());
  if (!solve(x.get(), a.get(), b.get(), ball_precision()))
    throw std::domain_error(fmt::format(
        "{}: Arb could not certify the matrix {} at {} bits (singular, or too ill-conditioned "
        "for the precision)",
        what, certifies, ball_precision()));
  return x.to_mat();
}
}  // namespace

Mat<ball_real> certified_solve(const Mat<ball_real>& A, const Mat<ball_real>& B) {
  return solve_with(A, B, arb_mat_solve, "certified ball solve", "invertible");
}
Mat<ball_real> certified_spd_solve(const Mat<ball_real>& A, const Mat<ball_real>& B) {
  return solve_with(A, B, arb_mat_spd_solve, "certified ball spd solve", "positive definite");
}

template <>
Mat<ball_real> spd_solve(const Mat<ball_real>& A, const Mat<ball_real>& B) {
  return certified_spd_solve(A, B);
}
template <>
Mat<ball_real> lu_solve(const Mat<ball_real>& A, const Mat<ball_real>& B) {
  return certified_solve(A, B);
}
template <>
Mat<ball_real> inverse(const Mat<ball_real>& A) {
  return certified_solve(A, Mat<ball_real>::Identity(A.rows(), A.cols()));
}

rational_real exact_value_of_point(const ball_real& x) {
  if (!mag_is_zero(arb_radref(x.data())) || !arf_is_finite(arb_midref(x.data())))
    throw std::domain_error("exact value of a ball: " + full_digits(x) +
                            " is not an exact point (nonzero radius or not finite)");
  fmpq_t f;
  fmpq_init(f);
  arf_get_fmpq(f, arb_midref(x.data()));
  rational_real q;
  fmpq_get_mpq(q.backend().data(), f);
  fmpq_clear(f);
  return q;
}

std::vector<Eigen::Index> independent_columns_exact(const Mat<ball_real>& A) {
  const slong m = A.rows(), n = A.cols();
  fmpq_mat_t a, r;
  fmpq_mat_init(a, m, n);
  fmpq_mat_init(r, m, n);
  std::vector<Eigen::Index> cols;
  try {
    for (slong i = 0; i < m; ++i)
      for (slong j = 0; j < n; ++j) {
        if (!mag_is_zero(arb_radref(A(i, j).data())) || !arf_is_finite(arb_midref(A(i, j).data())))
          throw std::domain_error(fmt::format(
              "rank of a ball matrix: entry ({}, {}) = {} is not an exact point; a rank is "
              "decided only on exact data, never on an enclosure",
              i, j, full_digits(A(i, j))));
        arf_get_fmpq(fmpq_mat_entry(a, i, j), arb_midref(A(i, j).data()));
      }
    const slong rank = fmpq_mat_rref(r, a);
    slong j = 0;
    for (slong i = 0; i < rank; ++i) {  // the pivot of row i: its first nonzero entry
      while (fmpq_is_zero(fmpq_mat_entry(r, i, j))) ++j;
      cols.push_back(static_cast<Eigen::Index>(j));
      ++j;
    }
  } catch (...) {
    fmpq_mat_clear(a);
    fmpq_mat_clear(r);
    throw;
  }
  fmpq_mat_clear(a);
  fmpq_mat_clear(r);
  return cols;
}

template <>
Mat<ball_real> min_norm_lstsq(const Mat<ball_real>& A, const Mat<ball_real>& B) {
  if (A.rows() != B.rows())
    throw std::invalid_argument("min-norm least squares on balls: A and B have different rows");
  const Eigen::Index m = A.rows(), n = A.cols();
  const std::vector<Eigen::Index> cols = independent_columns_exact(A);
  const auto r = static_cast<Eigen::Index>(cols.size());
  if (r == 0) return Mat<ball_real>::Zero(n, B.cols());
  if (r == n) return certified_spd_solve(matmul_tn(A, A), matmul_tn(A, B));
  if (r == m) return matmul_tn(A, certified_spd_solve(matmul_nt(A, A), B));
  Mat<ball_real> F(m, r);
  for (Eigen::Index k = 0; k < r; ++k) F.col(k) = A.col(cols[static_cast<std::size_t>(k)]);
  const Mat<ball_real> FtF = matmul_tn(F, F);
  const Mat<ball_real> C = certified_spd_solve(FtF, matmul_tn(F, A));
  const Mat<ball_real> G = certified_spd_solve(FtF, matmul_tn(F, B));
  return matmul_tn(C, certified_spd_solve(matmul_nt(C, C), G));
}

double gershgorin_upper_bound(const Mat<ball_real>& S) {
  mag_t row, entry, best;
  mag_init(row);
  mag_init(entry);
  mag_init(best);
  for (Eigen::Index i = 0; i < S.rows(); ++i) {
    mag_zero(row);
    for (Eigen::Index j = 0; j < S.cols(); ++j) {
      arb_get_mag(entry, S(i, j).data());  // >= |x| for every x in the ball
      mag_add(row, row, entry);            // rounded up
    }
    mag_max(best, best, row);
  }
  const double bound = mag_get_d(best);  // an upper bound (mag_get_d rounds up)
  mag_clear(row);
  mag_clear(entry);
  mag_clear(best);
  return bound;
}

Mat<interval_real> to_interval_enclosure(const Mat<ball_real>& M) {
  Mat<interval_real> r(M.rows(), M.cols());
  for (Eigen::Index j = 0; j < M.cols(); ++j)
    for (Eigen::Index i = 0; i < M.rows(); ++i) r(i, j) = to_interval_enclosure(M(i, j));
  return r;
}

}  // namespace iclproof
