// infinity_norm_upper (core/interval_matrix_norm.hpp), the contraction bound
// beta = ||I - R A||_inf of the certified solve: it must be >= ||M'||_inf = max_i sum_j |M'_ij|
// for every point matrix M' in the interval matrix M, or the solve's radius
// delta = ||R (B - A X0)|| / (1 - beta) is too small and its enclosure may exclude the solution.
// The truth is computed in exact rationals from the enclosures' endpoints: the largest norm over
// the box is max_i sum_j max(|lo_ij|, |hi_ij|). The rows of mixed signs are the edge: there a
// signed row sum cancels (to 0 for c [[1, -1], [-1, 1]], the shape of I - R A for a nearly
// singular 2 x 2 system) and is far below the norm.
#include "core/interval_matrix_norm.hpp"
#include "core/interval.hpp"
#include "core/precision.hpp"
#include "core/rational.hpp"
#include "rational_enclosure.hpp"

#include <rapidcheck.h>
#include <catch2/catch.hpp>

#include <mpfi.h>
#include <mpfr.h>

#include <algorithm>
#include <string>

using namespace iclproof;
using I = interval_real;
using Q = rational_real;

namespace {

Mat<I> enclose_rows(const Mat<Q>& A) {
  Mat<I> r(A.rows(), A.cols());
  for (Eigen::Index j = 0; j < A.cols(); ++j)
    for (Eigen::Index i = 0; i < A.rows(); ++i) r(i, j) = enclose(A(i, j));
  return r;
}
Q abs_q(const Q& q) { return q < Q(0) ? Q(-q) : q; }
// The largest ||M'||_inf over the point matrices M' in M, exactly (finite ends).
Q largest_point_norm(const Mat<I>& M) {
  Q norm(0);
  for (Eigen::Index i = 0; i < M.rows(); ++i) {
    Q row(0);
    for (Eigen::Index j = 0; j < M.cols(); ++j)
      row += std::max(abs_q(to_rational(lower(M(i, j)))), abs_q(to_rational(upper(M(i, j)))));
    norm = std::max(norm, row);
  }
  return norm;
}
std::string entries(const Mat<I>& M) {
  std::string s;
  for (Eigen::Index i = 0; i < M.rows(); ++i) {
    for (Eigen::Index j = 0; j < M.cols(); ++j) s += full_digits(M(i, j)) + " ";
    s += "; ";
  }
  return s;
}

}  // namespace

TEST_CASE("interval infinity norm: a row of mixed signs sums the absolute values",
          "[interval][certified]") {
  scoped_mpfr_precision p(64);
  SECTION("dyadic point matrices: exactly the norm") {
    // Row sums of |entries|: 1 and 2; the signed row sums are -1/2 and -2.
    Mat<Q> A(2, 2);
    A << Q(1) / Q(4), Q(-3) / Q(4), Q(-1), Q(-1);
    CHECK(to_rational(infinity_norm_upper(enclose_rows(A))) == Q(2));
    // c [[1, -1], [-1, 1]], c = 3/8: norm 3/4 < 1, signed row sums 0.
    Mat<Q> C(2, 2);
    C << Q(3) / Q(8), Q(-3) / Q(8), Q(-3) / Q(8), Q(3) / Q(8);
    CHECK(to_rational(infinity_norm_upper(enclose_rows(C))) == Q(3) / Q(4));
  }
  SECTION("an interval entry counts with its largest absolute value") {
    Mat<I> M(2, 2);
    M << interval_from_endpoints(mpfr_real(-3), mpfr_real(1)), I(1), I(2), I(2);
    // Row 0: |[-3, 1]| <= 3, plus 1: 4 (a signed sum's upper end: 1 + 1 = 2); row 1: 4.
    M(1, 1) = interval_from_endpoints(mpfr_real(-1), mpfr_real(2));
    CHECK(to_rational(infinity_norm_upper(M)) == Q(4));
    M(1, 0) = I(3);
    CHECK(to_rational(infinity_norm_upper(M)) == Q(5));
  }
  SECTION("a NaN entry gives NaN, not a norm without its row") {
    Mat<I> M(2, 2);
    M << I(1), I(0), I(0), I(1);
    mpfr_real nan;
    mpfr_set_nan(nan.backend().data());
    mpfi_set_fr(M(1, 0).backend().data(), nan.backend().data());  // interval_point refuses NaN
    REQUIRE(mpfr_nan_p(upper(M(1, 0)).backend().data()));
    CHECK(mpfr_nan_p(infinity_norm_upper(M).backend().data()));
  }
  SECTION("an empty matrix has norm 0") {
    CHECK(to_rational(infinity_norm_upper(Mat<I>(0, 0))) == Q(0));
  }
}

TEST_CASE("property: the interval infinity norm bounds every point matrix's norm (exact truth)",
          "[interval][certified][rapidcheck]") {
  const bool ok = rc::check("infinity_norm_upper >= max over the box of ||M'||_inf", [] {
    const int bits = *rc::gen::element(53, 64, 128);
    scoped_mpfr_precision p(bits);
    const int rows = *rc::gen::inRange(1, 5), cols = *rc::gen::inRange(1, 6);
    // Entries p / q of either sign (not dyadic for most q: the enclosures have width), some
    // widened to [p1 / q1, p2 / q2] straddling or not straddling 0.
    Mat<I> M(rows, cols);
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) {
        const Q a = Q(*rc::gen::inRange(-99, 100)) / Q(*rc::gen::inRange(1, 30));
        if (*rc::gen::arbitrary<bool>()) {
          M(i, j) = enclose(a);
        } else {
          const Q b = a + Q(*rc::gen::inRange(0, 50)) / Q(*rc::gen::inRange(1, 30));
          M(i, j) = interval_from_endpoints(lower(enclose(a)), upper(enclose(b)));
        }
      }
    const Q truth = largest_point_norm(M);
    const Q bound = to_rational(infinity_norm_upper(M));
    // Sound: an upper bound. Tight: cols upward-rounded additions of nonnegative terms, each
    // within a relative 2^(1 - bits), so bound <= truth (1 + 2^(1 - bits))^cols.
    Q growth(1);
    Q u(1);
    for (int k = 1; k < bits; ++k) u /= Q(2);
    for (int j = 0; j < cols; ++j) growth *= Q(1) + u;
    if (!(truth <= bound) || !(bound <= truth * growth))
      RC_FAIL("infinity_norm_upper at " + std::to_string(bits) + " bits of M = " + entries(M) +
              ": bound " + full_digits(bound) + ", the largest norm over the box " +
              full_digits(truth) + " (sound iff bound >= it; tight iff bound <= it (1 + 2^(1 - " +
              "bits))^cols)");
  });
  CHECK(ok);
}
