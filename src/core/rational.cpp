#include "core/rational.hpp"

#include <cmath>
#include <limits>

namespace iclproof {

namespace {
// log2 of a positive GMP integer as a double: mpz_get_d_2exp gives m in [0.5, 1) and e with
// z = m 2^e, so the result is exact to double rounding whatever the size of z.
double log2_of_mpz(mpz_srcptr z) {
  long e = 0;
  const double m = mpz_get_d_2exp(&e, z);
  return std::log2(std::fabs(m)) + static_cast<double>(e);
}
}  // namespace

double log2_abs(const rational_real& x) {
  mpq_srcptr q = x.backend().data();
  if (mpq_sgn(q) == 0) return -std::numeric_limits<double>::infinity();
  return log2_of_mpz(mpq_numref(q)) - log2_of_mpz(mpq_denref(q));
}

std::string full_digits(const rational_real& x) { return x.str(); }

}  // namespace iclproof
