#include "core/scalar.hpp"

#include "core/ball.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <sstream>

namespace iclproof {

const char* scalar_kind_name(scalar_kind k) {
  switch (k) {
    case scalar_kind::double_precision:
      return "double";
    case scalar_kind::long_double_precision:
      return "long-double";
    case scalar_kind::mpfr:
      return "mpfr";
    case scalar_kind::rational:
      return "rational";
    case scalar_kind::interval:
      return "interval";
    case scalar_kind::ball:
      return "ball";
  }
  return "?";
}

std::optional<scalar_kind> parse_scalar_kind(std::string_view text) {
  for (scalar_kind k : all_scalar_kinds)
    if (text == scalar_kind_name(k)) return k;
  return std::nullopt;
}

double log2_abs(const double& x) { return std::log2(std::fabs(x)); }
double log2_abs(const long double& x) { return static_cast<double>(std::log2(std::fabs(x))); }
double log2_abs(const mpfr_real& x) {
  if (mpfr_nan_p(x.backend().data())) return std::numeric_limits<double>::quiet_NaN();
  if (mpfr_zero_p(x.backend().data())) return -std::numeric_limits<double>::infinity();
  if (mpfr_inf_p(x.backend().data())) return std::numeric_limits<double>::infinity();
  mpfr_t a;
  mpfr_init2(a, 64);
  mpfr_abs(a, x.backend().data(), MPFR_RNDN);
  mpfr_log2(a, a, MPFR_RNDN);
  const double r = mpfr_get_d(a, MPFR_RNDN);
  mpfr_clear(a);
  return r;
}

std::string full_digits(const double& x) { return fmt::format("{:.17g}", x); }
std::string full_digits(const long double& x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.21Lg", x);
  return buf;
}
std::string full_digits(const mpfr_real& x) {
  // Enough decimal digits to round-trip the binary value: ceil(p log10 2) + 1.
  const int digits = static_cast<int>(precision_of(x) * 0.30103) + 2;
  std::ostringstream os;
  os.precision(digits);
  os << std::scientific << x;
  return os.str();
}

template <class T>
std::string short_digits(const T& x, int digits) {
  std::ostringstream os;
  os.precision(digits);
  os << x;
  return os.str();
}
template std::string short_digits(const double&, int);
template std::string short_digits(const long double&, int);
template std::string short_digits(const mpfr_real&, int);
template std::string short_digits(const interval_real&, int);
template std::string short_digits(const rational_real&, int);
template std::string short_digits(const ball_real&, int);

template <>
double pi_value<double>() {
  return 3.141592653589793238462643383279502884;
}
template <>
long double pi_value<long double>() {
  return 3.141592653589793238462643383279502884L;
}
template <>
mpfr_real pi_value<mpfr_real>() {
  return boost::math::constants::pi<mpfr_real>();
}

}  // namespace iclproof
