// The exact claims of the Giannou, Fu ReLU and iterative-Newton properties in the two modes they
// run in: equality in the exact scalar (rationals; and in floats where the computation is exact),
// and on balls (core/ball.hpp) an enclosure decision that never guesses:
//  * an identity passes iff every entry of the enclosure of computed - reference contains 0
//    (case_context::check_identity, the interval standard);
//  * "a differs from b" passes iff some entry of the enclosure of a - b excludes 0 (a certified
//    difference: the exact values differ there);
//  * "||Q e||^2 does not grow" (for every e) passes iff I - Q^T Q is certified positive definite
//    on the enclosure of Q (Arb's Cholesky, certified_spd_solve: it throws unless every
//    symmetric matrix in the balls is positive definite), so ||Q||_2 < 1 for the exact Q. Used
//    where two squared norms are equal in exact arithmetic (an enclosure comparison of the two
//    cannot decide that: it overlaps);
//  * the enclosure property itself: a ball contains the exact rational value computed from the
//    same exact data (require_contains_exact).
#pragma once

#include "core/ball_linalg.hpp"
#include "core/rational.hpp"
#include "harness/property.hpp"

#include <functional>
#include <stdexcept>
#include <string>

namespace iclproof::exact_or_enclosed {

// computed == reference: equality (exact scalar, floats), containment of 0 (balls).
template <class T>
void require_identity(case_context& ctx, const std::string& label, const Mat<T>& computed,
                      const Mat<T>& reference, const std::function<std::string()>& details) {
  if constexpr (is_ball_scalar<T>) {
    ctx.compare<T>(label, computed, reference, T(0));  // check_identity on balls
  } else {
    const bool same = computed.rows() == reference.rows() && computed.cols() == reference.cols() &&
                      computed == reference;
    ctx.require(label, same, same ? std::string() : details());
  }
}

// Some entry of the enclosure of a - b excludes 0 (balls only).
template <class T>
bool certainly_differs(const Mat<T>& a, const Mat<T>& b) {
  static_assert(is_ball_scalar<T>, "certainly_differs decides on enclosures");
  if (a.rows() != b.rows() || a.cols() != b.cols()) return true;
  for (Eigen::Index j = 0; j < a.cols(); ++j)
    for (Eigen::Index i = 0; i < a.rows(); ++i)
      if (!contains_zero(T(a(i, j) - b(i, j)))) return true;
  return false;
}

// Every entry an exact 0 (radius 0; balls only).
template <class T>
bool certainly_zero(const Mat<T>& a) {
  static_assert(is_ball_scalar<T>, "certainly_zero decides on enclosures");
  for (Eigen::Index j = 0; j < a.cols(); ++j)
    for (Eigen::Index i = 0; i < a.rows(); ++i)
      if (!is_point(a(i, j)) || !contains_zero(a(i, j))) return false;
  return true;
}

// The claim "a equals b iff `equal_expected`" on balls: an identity when equality is expected, a
// certified difference otherwise (ctx.require with both enclosures on failure).
template <class T>
void require_equal_iff(case_context& ctx, const std::string& label, const Mat<T>& a,
                       const Mat<T>& b, bool equal_expected) {
  static_assert(is_ball_scalar<T>, "require_equal_iff decides on enclosures");
  if (equal_expected) {
    ctx.compare<T>(label + " (equal: enclosure of the difference contains 0)", a, b, T(0));
  } else {
    ctx.require(label + " (differs: some entry of the enclosure of the difference excludes 0)",
                certainly_differs<T>(a, b),
                "no entry of the difference is certified nonzero\nleft =\n" +
                    case_context::matrix_full_digits(a) + "right =\n" +
                    case_context::matrix_full_digits(b));
  }
}

// ||Q e|| <= ||e|| for every e, certified on the enclosure of Q (balls only, header).
template <class T>
bool certainly_contracting(const Mat<T>& Q) {
  static_assert(is_ball_scalar<T>, "certainly_contracting decides on enclosures");
  const Mat<T> I = Mat<T>::Identity(Q.cols(), Q.cols());
  try {
    (void)certified_spd_solve(Mat<T>(I - matmul(Mat<T>(Q.transpose()), Q)), I);
    return true;
  } catch (const std::domain_error&) {
    return false;
  }
}

// The exact rationals of a matrix of exact points (balls only: the cases' integer and dyadic
// data; a ball of nonzero radius is a logic error here).
template <class T>
Mat<rational_real> exact_points(const Mat<T>& A) {
  static_assert(is_ball_scalar<T>, "exact_points reads exact ball points");
  Mat<rational_real> Q(A.rows(), A.cols());
  for (Eigen::Index j = 0; j < A.cols(); ++j)
    for (Eigen::Index i = 0; i < A.rows(); ++i) {
      if (!is_point(A(i, j)))
        throw std::logic_error("exact_points: an entry is not an exact point: " +
                               full_digits(A(i, j)));
      Q(i, j) = rational_real(lower(A(i, j)));
    }
  return Q;
}

// The exact rank of a matrix of exact points (balls only).
template <class T>
Eigen::Index exact_rank_of_points(const Mat<T>& A) {
  return numerical_rank(exact_points<T>(A));
}

// Every ball of `enclosure` contains the exact rational of `exact` (balls only): the enclosure
// property itself, against the exact value computed in rationals from the same exact data. A
// radius dropped anywhere on the way (a point where the value is not dyadic) fails it.
template <class T>
void require_contains_exact(case_context& ctx, const std::string& label, const Mat<T>& enclosure,
                            const Mat<rational_real>& exact) {
  static_assert(is_ball_scalar<T>, "require_contains_exact checks ball enclosures");
  std::string missed;
  bool ok = enclosure.rows() == exact.rows() && enclosure.cols() == exact.cols();
  for (Eigen::Index j = 0; ok && j < exact.cols(); ++j)
    for (Eigen::Index i = 0; ok && i < exact.rows(); ++i)
      if (!contains(enclosure(i, j), exact(i, j))) {
        ok = false;
        missed = "entry (" + std::to_string(i) + ", " + std::to_string(j) + "): enclosure " +
                 full_digits(enclosure(i, j)) + " misses the exact " + full_digits(exact(i, j));
      }
  ctx.require(label + " (the enclosure contains the exact rational value)", ok,
              missed.empty() ? "shape mismatch" : missed);
}

}  // namespace iclproof::exact_or_enclosed
