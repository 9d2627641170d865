// The ball scalar of iclproof: Arb (FLINT) midpoint-radius enclosures at run-time precision.
//
// ball_real owns an arb_t: a midpoint m (an arf, up to p bits after each operation) and a radius
// r (a mag, 30-bit, rounded up), standing for the closed interval [m - r, m + r]. Every
// operation (Arb's arb_add, arb_mul, arb_div, arb_sqrt, arb_exp, arb_tanh, arb_hypgeom_erf, ...)
// returns a ball that contains the exact real result for every point of its operands' balls
// (Arb's containment guarantee, Johansson 2017, "Arb: efficient arbitrary-precision
// midpoint-radius interval arithmetic", IEEE Trans. Comput. 66(8)). The working precision p is
// the run's MPFR setting (core/precision.hpp: set_mpfr_precision sets it, so 256 requested gives
// the same 257 bits an mpfr_real and an interval_real carry).
//
// Comparisons have exactly the semantics of interval_real (core/interval.hpp): a < b is true
// when every point of a is below every point of b, false when lo(a) >= hi(b), and otherwise
// throws ambiguous_interval_comparison; a == b is true only for two equal exact points, false
// for disjoint balls, ambiguous otherwise. A NaN ball compares ambiguously (it throws) where an
// MPFI NaN compares false: a certified mode stops on it either way (check_le rejects NaN).
//
// The generic code treats a ball as an interval scalar (is_interval_scalar<ball_real> is true:
// hull_max, midpoint_point, contains_zero, is_point, the enclosure checks of case_context), and
// the verdicts convert a ball to an MPFI enclosure with outward rounding (to_interval_enclosure)
// before comparing, so the verdict logic is the interval mode's, unchanged.
#pragma once

#include "core/scalar.hpp"

#include <arb.h>
#include <arb_hypgeom.h>

#include <atomic>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <type_traits>
#include <utility>

namespace iclproof {

namespace ball_detail {
// The working precision in bits (0 until set_mpfr_precision or set_ball_precision runs: then
// the MPFR default's bits are used). Written once per run before worker threads start.
inline std::atomic<long> precision_bits{0};
}  // namespace ball_detail

// The precision every ball operation rounds its midpoint to.
long ball_precision();
// Sets it (set_mpfr_precision calls this with the MPFR setting's actual bits).
void set_ball_precision(long bits);

class ball_real {
 public:
  ball_real() { arb_init(v_); }
  ball_real(const ball_real& o) {
    arb_init(v_);
    arb_set(v_, o.v_);
  }
  ball_real(ball_real&& o) noexcept {
    arb_init(v_);
    arb_swap(v_, o.v_);
  }
  ball_real& operator=(const ball_real& o) {
    if (this != &o) arb_set(v_, o.v_);
    return *this;
  }
  ball_real& operator=(ball_real&& o) noexcept {
    arb_swap(v_, o.v_);
    return *this;
  }
  ~ball_real() { arb_clear(v_); }

  // Exact conversions from the built-in arithmetic types (a double, a long double and every
  // integer is an exact point ball: arf midpoints have unbounded precision).
  template <class A>
  requires std::is_arithmetic_v<A> ball_real(A a) {  // NOLINT(google-explicit-constructor)
    arb_init(v_);
    if constexpr (std::is_same_v<A, bool>) {
      arb_set_si(v_, a ? 1 : 0);
    } else if constexpr (std::is_integral_v<A> && std::is_signed_v<A>) {
      arb_set_si(v_, static_cast<slong>(a));
    } else if constexpr (std::is_integral_v<A>) {
      arb_set_ui(v_, static_cast<ulong>(a));
    } else if constexpr (std::is_same_v<A, long double>) {
      set_long_double(a);
    } else {
      arb_set_d(v_, static_cast<double>(a));
    }
  }
  // The exact value of an MPFR number (a point ball).
  explicit ball_real(const mpfr_real& x);

  // The midpoint rounded to nearest (for display and plots only, never for verdicts).
  explicit operator double() const { return arf_get_d(arb_midref(v_), ARF_RND_NEAR); }
  explicit operator long double() const;

  arb_ptr data() { return v_; }
  arb_srcptr data() const { return v_; }

  ball_real& operator+=(const ball_real& o) {
    arb_add(v_, v_, o.v_, ball_precision());
    return *this;
  }
  ball_real& operator-=(const ball_real& o) {
    arb_sub(v_, v_, o.v_, ball_precision());
    return *this;
  }
  ball_real& operator*=(const ball_real& o) {
    arb_mul(v_, v_, o.v_, ball_precision());
    return *this;
  }
  ball_real& operator/=(const ball_real& o) {
    arb_div(v_, v_, o.v_, ball_precision());
    return *this;
  }
  ball_real operator-() const {
    ball_real r;
    arb_neg(r.v_, v_);
    return r;
  }
  ball_real operator+() const { return *this; }

  friend ball_real operator+(const ball_real& a, const ball_real& b) {
    ball_real r;
    arb_add(r.v_, a.v_, b.v_, ball_precision());
    return r;
  }
  friend ball_real operator-(const ball_real& a, const ball_real& b) {
    ball_real r;
    arb_sub(r.v_, a.v_, b.v_, ball_precision());
    return r;
  }
  friend ball_real operator*(const ball_real& a, const ball_real& b) {
    ball_real r;
    arb_mul(r.v_, a.v_, b.v_, ball_precision());
    return r;
  }
  friend ball_real operator/(const ball_real& a, const ball_real& b) {
    ball_real r;
    arb_div(r.v_, a.v_, b.v_, ball_precision());
    return r;
  }

  // Certain comparisons (see the head of this file); each throws ambiguous_interval_comparison
  // when the two balls do not decide it.
  friend bool operator<(const ball_real& a, const ball_real& b) { return certainly_less(a, b); }
  friend bool operator>(const ball_real& a, const ball_real& b) { return certainly_less(b, a); }
  friend bool operator<=(const ball_real& a, const ball_real& b) { return !certainly_less(b, a); }
  friend bool operator>=(const ball_real& a, const ball_real& b) { return !certainly_less(a, b); }
  friend bool operator==(const ball_real& a, const ball_real& b) { return certainly_equal(a, b); }
  friend bool operator!=(const ball_real& a, const ball_real& b) { return !certainly_equal(a, b); }

 private:
  static bool certainly_less(const ball_real& a, const ball_real& b);
  static bool certainly_equal(const ball_real& a, const ball_real& b);
  void set_long_double(long double a);
  arb_t v_;
};

template <>
inline constexpr bool is_ball_scalar<ball_real> = true;
template <>
inline constexpr bool is_interval_scalar<ball_real> = true;

template <>
struct scalar_traits<ball_real> {
  static constexpr scalar_kind kind = scalar_kind::ball;
  static constexpr const char* name = "ball";
  static int bits() { return static_cast<int>(ball_precision()); }
};

inline int precision_of(const ball_real&) { return static_cast<int>(ball_precision()); }

// Elementary functions (found by argument-dependent lookup from the generic code: abs_of,
// sqrt_of, is_finite, log, exp, ...). Each encloses the exact function over the whole ball;
// sqrt and log of a ball reaching below 0 give a NaN ball (Arb's indeterminate), never a guess.
ball_real abs(const ball_real& x);
ball_real sqrt(const ball_real& x);
ball_real exp(const ball_real& x);
ball_real log(const ball_real& x);
ball_real tanh(const ball_real& x);
ball_real erf(const ball_real& x);
ball_real erfc(const ball_real& x);
ball_real pow(const ball_real& x, const ball_real& y);
ball_real ldexp(const ball_real& x, int e);
bool isfinite(const ball_real& x);
bool isnan(const ball_real& x);
// Arb names, as interval.hpp names its MPFI/MPFR enclosures.
inline ball_real erf_enclosure(const ball_real& x) { return erf(x); }
inline ball_real erfc_enclosure(const ball_real& x) { return erfc(x); }
inline ball_real exp_enclosure(const ball_real& x) { return exp(x); }
inline ball_real tanh_enclosure(const ball_real& x) { return tanh(x); }

// The ball [lo, hi] (Arb's arb_set_interval_mpfr: contains both ends) and the ends of a ball:
// lower <= every point <= upper, each rounded outward to the ball precision.
ball_real ball_from_endpoints(const mpfr_real& lo, const mpfr_real& hi);
mpfr_real lower(const ball_real& x);
mpfr_real upper(const ball_real& x);
bool contains_zero(const ball_real& x);
// Radius 0 (an exact point).
bool is_point(const ball_real& x);
// Does the ball contain the exact rational q? (Tests of containment against exact results.)
bool contains(const ball_real& x, const rational_real& q);
// The radius, as an upper bound in a double (+inf beyond double's range).
double radius_upper(const ball_real& x);
// 2 * radius, the ball's width, as an MPFR number rounded up.
mpfr_real width(const ball_real& x);
// The midpoint as an exact point ball.
ball_real midpoint_point(const ball_real& x);
// The enclosure of max(a, b) over every point of the two balls (Arb's arb_max).
ball_real hull_max(const ball_real& a, const ball_real& b);
// A ball containing both.
ball_real hull(const ball_real& a, const ball_real& b);
// The MPFI interval [m - r, m + r] rounded outward to the interval precision (contains the ball):
// the verdicts of case_context compare these, so a ball check is an interval check.
interval_real to_interval_enclosure(const ball_real& x);
// The ball of an MPFI interval (contains it).
ball_real ball_of(const interval_real& x);

double log2_abs(const ball_real& x);
// "[m +/- r]": the midpoint with every digit it carries and the radius rounded up.
std::string full_digits(const ball_real& x);
// log2 of the width 2r in units of eps (-inf for a point).
double log2_width_in_eps(const ball_real& x);
std::ostream& operator<<(std::ostream& os, const ball_real& x);

}  // namespace iclproof

namespace Eigen {
template <class>
struct NumTraits;
template <>
struct NumTraits<::iclproof::ball_real> {
  using Real = ::iclproof::ball_real;
  using NonInteger = ::iclproof::ball_real;
  using Nested = ::iclproof::ball_real;
  using Literal = ::iclproof::ball_real;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 1,
    ReadCost = 1,
    AddCost = 4,
    MulCost = 8
  };
  static inline Real epsilon() { return ::iclproof::eps<::iclproof::ball_real>(); }
  static inline Real dummy_precision() { return Real(1e-30); }
  static inline int digits10() { return static_cast<int>(::iclproof::ball_precision() * 0.30103); }
};
}  // namespace Eigen
