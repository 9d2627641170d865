// Scalar types of iclproof and what the rest of the code needs to know about them.
//
// Every numeric routine is a template on the scalar T and is instantiated for
//   double         (53-bit significand),
//   long double    (x87 extended: 64-bit significand),
//   mpfr_real      (Boost.Multiprecision MPFR backend, run-time precision),
//   interval_real  (MPFI enclosures at the MPFR precision; core/interval.hpp).
// eps<T>() is 2^(1-p) with p the significand bits the values actually carry (for MPFR:
// mpfr_get_prec of a freshly made value, never the requested figure).
#pragma once

#include <boost/multiprecision/mpfr.hpp>

#include <cmath>
#include <limits>
#include <string>

namespace iclproof {

// Expression templates off: generic code may use `auto` freely; hot loops use the mpfr_t
// kernels in kernels.hpp instead (TOOLCHAIN.md: ET on/off differ by ~1.3x in plain loops).
using mpfr_real = boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<0>,
                                                boost::multiprecision::et_off>;

enum class scalar_kind { double_precision, long_double_precision, mpfr, interval };

template <class T>
struct scalar_traits;

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

// Significand bits a particular value carries (results keep their operands' precision).
inline int precision_of(const double&) { return scalar_traits<double>::bits(); }
inline int precision_of(const long double&) { return scalar_traits<long double>::bits(); }
inline int precision_of(const mpfr_real& x) {
  return static_cast<int>(mpfr_get_prec(x.backend().data()));
}

// eps = 2^(1-p): the spacing of floating-point numbers at 1.
template <class T>
T eps() {
  using std::ldexp;
  return ldexp(T(1), 1 - scalar_traits<T>::bits());
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
template <class T>
T sqrt_of(const T& x) {
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
