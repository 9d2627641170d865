// Scalar types of iclproof and what the rest of the code needs to know about them.
//
// Every numeric routine is a template on the scalar T and is instantiated for
//   double         (53-bit significand),
//   long double    (x87 extended: 64-bit significand),
//   mpfr_real      (Boost.Multiprecision MPFR backend, run-time precision),
//   rational_real  (exact rationals, GMP mpq: only the field operations, no sqrt; exact linear
//                   algebra and the list of what it lacks in core/rational.hpp),
//   interval_real  (MPFI enclosures; core/interval.hpp),
//   ball_real      (Arb midpoint-radius enclosures; core/ball.hpp, included where used).
// eps<T>() is 2^(1-p) with p the significand bits the values actually carry (for MPFR:
// mpfr_get_prec of a freshly made value, never the requested figure).
#pragma once

#include <boost/multiprecision/mpfr.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace iclproof {

// Expression templates off: generic code may use `auto` freely; hot loops use the mpfr_t
// kernels in kernels.hpp instead (TOOLCHAIN.md: ET on/off differ by ~1.3x in plain loops).
using mpfr_real = boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<0>,
                                                boost::multiprecision::et_off>;

// Every scalar a property can run in. A property holds one body per kind (harness/property.hpp);
// the enum's values index those tables, so n_scalar_kinds follows the last one.
enum class scalar_kind { double_precision, long_double_precision, mpfr, rational, interval, ball };
inline constexpr std::size_t n_scalar_kinds = 6;
inline constexpr std::array<scalar_kind, n_scalar_kinds> all_scalar_kinds = {
    scalar_kind::double_precision,
    scalar_kind::long_double_precision,
    scalar_kind::mpfr,
    scalar_kind::rational,
    scalar_kind::interval,
    scalar_kind::ball};

// The kind's name on the command line and in every output: "double", "long-double", "mpfr",
// "rational", "interval", "ball".
const char* scalar_kind_name(scalar_kind k);
// The kind named by text (as scalar_kind_name spells it); std::nullopt if none.
std::optional<scalar_kind> parse_scalar_kind(std::string_view text);

// Exact scalars (rationals): every operation is exact, eps = 0, and tolerances are never
// evaluated (see tolerance<T> in harness/tolerance.hpp). True for rational_real only.
template <class T>
inline constexpr bool is_exact_scalar = false;

template <class T>
struct scalar_traits;

// Arb balls (core/ball.hpp specialises it for ball_real): enclosures like interval_real, so
// is_interval_scalar is true for them too; this one tells the two apart where the code must.
template <class T>
inline constexpr bool is_ball_scalar = false;

template <>
struct scalar_traits<double> {
  static constexpr scalar_kind kind = scalar_kind::double_precision;
  static constexpr const char* name = "double";
  static int bits() { return std::numeric_limits<double>::digits; }
};
template <>
struct scalar_traits<long double> {
  static constexpr scalar_kind kind = scalar_kind::long_double_precision;
  static constexpr const char* name = "long-double";
  static int bits() { return std::numeric_limits<long double>::digits; }
};
template <>
struct scalar_traits<mpfr_real> {
  static constexpr scalar_kind kind = scalar_kind::mpfr;
  static constexpr const char* name = "mpfr";
  // The precision a value made now carries (Boost sets it in decimal digits; 77 -> 257 bits).
  static int bits() { return static_cast<int>(mpfr_get_prec(mpfr_real(0).backend().data())); }
};

// The exact scalar: rationals p/q over GMP (expression templates off). Its linear algebra and
// the list of what it lacks are in core/rational.hpp.
using rational_real = boost::multiprecision::number<boost::multiprecision::gmp_rational,
                                                    boost::multiprecision::et_off>;

template <>
struct scalar_traits<rational_real> {
  static constexpr scalar_kind kind = scalar_kind::rational;
  static constexpr const char* name = "rational";
  // No significand: bits() is 0 and every output says "exact" instead of a bit count.
  static constexpr bool exact = true;
  static int bits() { return 0; }
};
template <>
inline constexpr bool is_exact_scalar<rational_real> = true;

inline int precision_of(const rational_real&) { return 0; }

// log2 |x| as a double (exact zero gives -inf), from numerator and denominator separately, so
// values far outside double's range are fine.
double log2_abs(const rational_real& x);

// "p/q" in lowest terms (or "p" for an integer): the exact value.
std::string full_digits(const rational_real& x);

// Significand bits a particular value carries (results keep their operands' precision).
inline int precision_of(const double&) { return scalar_traits<double>::bits(); }
inline int precision_of(const long double&) { return scalar_traits<long double>::bits(); }
inline int precision_of(const mpfr_real& x) {
  return static_cast<int>(mpfr_get_prec(x.backend().data()));
}

// eps = 2^(1-p): the spacing of floating-point numbers at 1; exactly 0 for an exact scalar.
template <class T>
T eps() {
  if constexpr (is_exact_scalar<T>) {
    return T(0);
  } else {
    using std::ldexp;
    return ldexp(T(1), 1 - scalar_traits<T>::bits());
  }
}

// log2 |x| as a double; exact zero gives -inf, NaN gives NaN. Works beyond double's exponent
// range (MPFR at 100000 bits has eps = 2^-99999).
double log2_abs(const double& x);
double log2_abs(const long double& x);
double log2_abs(const mpfr_real& x);

// Decimal text with every digit the value carries (round-trips), for failure messages.
std::string full_digits(const double& x);
std::string full_digits(const long double& x);
std::string full_digits(const mpfr_real& x);

// Short decimal text, e.g. for tables.
template <class T>
std::string short_digits(const T& x, int digits = 6);

// |x| and sqrt(x) for every scalar type (std:: for the built-in types, Boost's for MPFR, by
// argument-dependent lookup): one definition instead of a using-pair at every call.
template <class T>
T abs_of(const T& x) {
  using boost::multiprecision::abs;
  using std::abs;
  return abs(x);
}
// Not for exact scalars (an exact rational has no exact square root): the constraint makes
// sqrt_of(rational) a compile error, and `requires { sqrt_of(x); }` false.
template <class T>
requires(!is_exact_scalar<T>) T sqrt_of(const T& x) {
  using boost::multiprecision::sqrt;
  using std::sqrt;
  return sqrt(x);
}

template <class T>
bool is_finite(const T& x) {
  using boost::multiprecision::isfinite;
  using std::isfinite;
  return isfinite(x);
}

// The mathematical constant pi at the working precision of T (for interval_real: an enclosure).
template <class T>
T pi_value();

}  // namespace iclproof

// The interval scalar (its traits, defined comparisons, enclosures) is part of every scalar
// list; it needs the declarations above.
#include "core/interval.hpp"
