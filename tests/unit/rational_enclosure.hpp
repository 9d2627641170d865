// Between exact rationals and the interval / MPFR scalars, for tests that compute the truth in
// rationals (certified_edges_test, interval_matrix_norm_test): an MPFR number's exact value, a
// rational's outward enclosure, and whether an enclosure holds a rational.
#pragma once

#include "core/interval.hpp"
#include "core/rational.hpp"

#include <gmp.h>
#include <mpfi.h>
#include <mpfr.h>

namespace iclproof {

// The exact value of x (finite x).
inline rational_real to_rational(const mpfr_real& x) {
  rational_real q;
  mpfr_get_q(q.backend().data(), x.backend().data());
  return q;
}
// The exact rational q enclosed outward at the interval precision in force.
inline interval_real enclose(const rational_real& q) {
  interval_real r;
  mpfi_set_q(r.backend().data(), q.backend().data());
  return r;
}
inline bool encloses(const interval_real& x, const rational_real& q) {
  const mpfr_real lo = lower(x), hi = upper(x);
  if (mpfr_nan_p(lo.backend().data()) || mpfr_nan_p(hi.backend().data())) return false;
  if (mpfr_inf_p(lo.backend().data()) || mpfr_inf_p(hi.backend().data())) {
    // An infinite end: compare the finite one only (an infinite enclosure is sound, if useless).
    const bool lo_ok =
        mpfr_inf_p(lo.backend().data()) ? mpfr_sgn(lo.backend().data()) < 0 : to_rational(lo) <= q;
    const bool hi_ok =
        mpfr_inf_p(hi.backend().data()) ? mpfr_sgn(hi.backend().data()) > 0 : q <= to_rational(hi);
    return lo_ok && hi_ok;
  }
  return to_rational(lo) <= q && q <= to_rational(hi);
}

}  // namespace iclproof
