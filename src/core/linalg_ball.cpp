// Linear algebra on ball_real: the products (arb_dot) and the certified solves (arb_mat).
#include "core/ball_linalg.hpp"
#include "core/linalg_impl.hpp"

#include <arb_mat.h>
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

Mat<interval_real> to_interval_enclosure(const Mat<ball_real>& M) {
  Mat<interval_real> r(M.rows(), M.cols());
  for (Eigen::Index j = 0; j < M.cols(); ++j)
    for (Eigen::Index i = 0; i < M.rows(); ++i) r(i, j) = to_interval_enclosure(M(i, j));
  return r;
}

}  // namespace iclproof
