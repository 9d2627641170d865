// The interval scalar of iclproof: MPFI enclosures at run-time precision.
//
// interval_real is Boost.Multiprecision's MPFI backend (number<mpfi_float_backend<0>, et_off>):
// every value is a closed interval [lo, hi] with endpoints of p bits, and every operation rounds
// its endpoints outward, so the exact real result of the same expression on the same inputs lies
// inside. Its precision is set with the MPFR one (core/precision.hpp: set_mpfr_precision sets
// both, so both carry the same bits; scalar_traits<interval_real>::bits() reports what a value
// made now carries, mpfi_get_prec).
//
// Comparisons are DEFINED here, not guessed. Boost 1.74 answers an overlapping comparison by
// throwing interval_error from a noexcept function, i.e. std::terminate (measured). The overloads
// below replace Boost's for this type: a < b is true when hi(a) < lo(b), false when
// lo(a) >= hi(b), and otherwise throws ambiguous_interval_comparison (an ordinary exception the
// harness reports as "ambiguous interval comparison at <label>"). a == b is true only for two
// equal points, false for disjoint intervals, ambiguous otherwise. So any branch, pivot, max or
// sort on an interval either has a certain answer or stops loudly.
#pragma once

#include "core/scalar.hpp"

#include <boost/multiprecision/mpfi.hpp>

#include <stdexcept>
#include <string>
#include <type_traits>

namespace iclproof {

using interval_real = boost::multiprecision::number<boost::multiprecision::mpfi_float_backend<0>,
                                                    boost::multiprecision::et_off>;

// Thrown by a comparison whose answer the two enclosures do not determine.
class ambiguous_interval_comparison : public std::domain_error {
 public:
  explicit ambiguous_interval_comparison(const std::string& what) : std::domain_error(what) {}
};

namespace interval_detail {
[[noreturn]] void throw_ambiguous(const char* op, mpfi_srcptr a, mpfi_srcptr b);
// -1: a < b for every pair of points; +1: a > b for every pair; 0: a and b are the same point.
// Throws ambiguous_interval_comparison otherwise (NaN enclosures are handled by Boost before).
int certain_compare(const char* op, mpfi_srcptr a, mpfi_srcptr b);
// The same against a point given as a Boost-canonical arithmetic value.
template <class V>
int certain_compare_point(const char* op, mpfi_srcptr a, const V& v) {
  boost::multiprecision::mpfi_float_backend<0> p;
  p = v;
  return certain_compare(op, a, p.data());
}
}  // namespace interval_detail

}  // namespace iclproof

// Boost's comparison operators call eval_lt / eval_gt / eval_eq on the backends by
// argument-dependent lookup; these overloads are more specialised than Boost's templates for
// mpfi_float_backend<Digits10> and take precedence for the run-time-precision backend.
namespace boost::multiprecision::backends {
inline bool eval_lt(const mpfi_float_backend<0>& a, const mpfi_float_backend<0>& b) {
  return ::iclproof::interval_detail::certain_compare("<", a.data(), b.data()) < 0;
}
inline bool eval_gt(const mpfi_float_backend<0>& a, const mpfi_float_backend<0>& b) {
  return ::iclproof::interval_detail::certain_compare(">", a.data(), b.data()) > 0;
}
inline bool eval_eq(const mpfi_float_backend<0>& a, const mpfi_float_backend<0>& b) {
  return ::iclproof::interval_detail::certain_compare("==", a.data(), b.data()) == 0;
}
template <class V>
inline typename std::enable_if<std::is_arithmetic<V>::value, bool>::type eval_lt(
    const mpfi_float_backend<0>& a, const V& b) {
  return ::iclproof::interval_detail::certain_compare_point("<", a.data(), b) < 0;
}
template <class V>
inline typename std::enable_if<std::is_arithmetic<V>::value, bool>::type eval_gt(
    const mpfi_float_backend<0>& a, const V& b) {
  return ::iclproof::interval_detail::certain_compare_point(">", a.data(), b) > 0;
}
template <class V>
inline typename std::enable_if<std::is_arithmetic<V>::value, bool>::type eval_eq(
    const mpfi_float_backend<0>& a, const V& b) {
  return ::iclproof::interval_detail::certain_compare_point("==", a.data(), b) == 0;
}
}  // namespace boost::multiprecision::backends

namespace iclproof {

// True for every enclosure scalar: interval_real, and ball_real (core/ball.hpp specialises it).
template <class T>
inline constexpr bool is_interval_scalar = std::is_same_v<T, interval_real>;

template <>
struct scalar_traits<interval_real> {
  static constexpr scalar_kind kind = scalar_kind::interval;
  static constexpr const char* name = "interval";
  // Endpoint bits of a value made now (set with the MPFR precision: 256 requested -> 257).
  static int bits() { return static_cast<int>(mpfi_get_prec(interval_real(0).backend().data())); }
};

inline int precision_of(const interval_real& x) {
  return static_cast<int>(mpfi_get_prec(x.backend().data()));
}

// Endpoints (exact: same precision as the interval) and derived quantities.
mpfr_real lower(const interval_real& x);
mpfr_real upper(const interval_real& x);
// The interval [lo, hi] (outward: the endpoints are taken as they are).
interval_real interval_from_endpoints(const mpfr_real& lo, const mpfr_real& hi);
// The exact point x as a degenerate interval (x carried at the interval precision; throws
// std::domain_error if x is not representable at that precision).
interval_real interval_point(const mpfr_real& x);
bool contains_zero(const interval_real& x);
bool is_point(const interval_real& x);
// hi - lo rounded up (0 for a point).
mpfr_real width(const interval_real& x);
// The midpoint as a degenerate interval: a point inside x (used where any representative will
// do, e.g. the softmax shift, so no dependency widening enters).
interval_real midpoint_point(const interval_real& x);
// The enclosure of max(a, b) over all points a, b of the two intervals: [max lo, max hi]
// (never a comparison of overlapping intervals).
interval_real hull_max(const interval_real& a, const interval_real& b);
// The smallest interval containing both.
interval_real hull(const interval_real& a, const interval_real& b);

// Transcendentals whose enclosures iclproof builds itself (MPFI has exp, tanh, sqrt, log):
// erf and erfc are monotone, so the enclosure is [erf(lo) rounded down, erf(hi) rounded up]
// (reversed for the decreasing erfc) from MPFR's correctly rounded erf / erfc.
interval_real erf_enclosure(const interval_real& x);
interval_real erfc_enclosure(const interval_real& x);
interval_real exp_enclosure(const interval_real& x);
interval_real tanh_enclosure(const interval_real& x);

// max(a, b) for every scalar: std::max's choice for the floating types, the enclosure of the
// max (hull_max) for intervals, where `a < b ? b : a` would be an ambiguous comparison.
template <class T>
T max_of(const T& a, const T& b) {
  if constexpr (is_interval_scalar<T>) {
    return hull_max(a, b);
  } else {
    return a < b ? b : a;
  }
}

// x is exactly zero (skip-zero optimisations): x == 0 for the floating types, the point 0 for
// intervals (an enclosure straddling 0 is not a zero to skip, and `x == 0` on it is ambiguous).
template <class T>
bool is_exact_zero(const T& x) {
  if constexpr (is_interval_scalar<T>) {
    return is_point(x) && contains_zero(x);
  } else {
    return x == 0;
  }
}

// log2 of the upper end of |x| (so an error's log2 is never understated); 0 in x with upper
// end 0 (the point 0) gives -inf.
double log2_abs(const interval_real& x);
// "[lo, hi]" with every digit of both endpoints.
std::string full_digits(const interval_real& x);
// log2 of hi - lo in units of eps (-inf for a point): how wide the enclosure is.
double log2_width_in_eps(const interval_real& x);

}  // namespace iclproof
