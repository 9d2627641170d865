// A wide-precision enclosure of an exact real computation, for checks that judge one term of a
// bound on its own (the sharpness gate must see every named bound).
//
// A floating-point check err <= approximation bound + rounding bound is judged by its worst
// comparison, and where one term dominates the other is invisible: a 10^6-loosened approximation
// bound changed nothing the gate saw where the rounding term dominated, and vice versa. With the
// exact value of the approximated quantity enclosed, each term gets its own check:
//   approximation term alone: |exact - target|      <= approximation bound
//   rounding term alone:      |computed - exact|    <= rounding bound
// Here "exact" is an MPFI enclosure at wide_enclosure_bits<T>() = 2p + 512 bits (p the bits of
// T): every operation rounds outward, so the exact real value lies inside; the checks compare
// the UPPER end of the enclosed |difference| (rounded up into T) with the bound. The enclosure's
// width is ~2^-(2p+512) relative to the operands, below both terms by hundreds of bits on every
// input the properties draw (the argument is given at each use).
//
// Raw MPFI, not interval_real: interval_real takes the one process-wide Boost precision (the
// run's p), which must not change while worker threads run (core/precision.hpp); an mpfi_t
// carries its own precision, and MPFR/MPFI are thread-safe per variable.
#pragma once

#include "core/interval.hpp"
#include "core/scalar.hpp"

#include <mpfi.h>
#include <mpfr.h>

#include <cstdio>
#include <stdexcept>
#include <string>

namespace iclproof::wide_enclosure {

template <class T>
mpfr_prec_t wide_enclosure_bits() {
  return static_cast<mpfr_prec_t>(2 * scalar_traits<T>::bits() + 512);
}

// A closed interval with its own precision; arithmetic rounds outward at the larger precision
// of the operands.
class enclosure {
 public:
  explicit enclosure(mpfr_prec_t bits) { mpfi_init2(v_, bits); }
  // A constant written T(12) in a formula templated on the scalar would otherwise construct a
  // 12-bit NaN enclosure here; constants come from ratio_like (raw/approximation_bounds.hpp).
  explicit enclosure(int) = delete;
  enclosure(const enclosure& o) {
    mpfi_init2(v_, mpfi_get_prec(o.v_));
    mpfi_set(v_, o.v_);
  }
  enclosure& operator=(const enclosure& o) {
    if (this != &o) {
      mpfi_set_prec(v_, mpfi_get_prec(o.v_));
      mpfi_set(v_, o.v_);
    }
    return *this;
  }
  ~enclosure() { mpfi_clear(v_); }

  mpfi_ptr data() { return v_; }
  mpfi_srcptr data() const { return v_; }
  mpfr_prec_t bits() const { return mpfi_get_prec(v_); }

  // The point p / q (integers): an enclosure of a decimal constant such as 44715 / 10^6.
  static enclosure ratio(long p, long q, mpfr_prec_t bits) {
    enclosure r(bits);
    mpfi_set_si(r.v_, p);
    mpfi_div_si(r.v_, r.v_, q);
    return r;
  }
  static enclosure pi(mpfr_prec_t bits) {
    enclosure r(bits);
    mpfi_const_pi(r.v_);
    return r;
  }

 private:
  mpfi_t v_;
};

inline mpfr_prec_t wider(const enclosure& a, const enclosure& b) {
  return a.bits() > b.bits() ? a.bits() : b.bits();
}

// The value x of T as a point enclosure; exact (throws std::logic_error otherwise: the bits
// given must hold x's significand).
inline enclosure exactly(double x, mpfr_prec_t bits) {
  enclosure r(bits);
  if (mpfi_set_d(r.data(), x) != 0) throw std::logic_error("wide enclosure: inexact double");
  return r;
}
inline enclosure exactly(long double x, mpfr_prec_t bits) {
  mpfr_t t;
  mpfr_init2(t, 64);
  const int inexact = mpfr_set_ld(t, x, MPFR_RNDN);
  enclosure r(bits);
  const int f = mpfi_set_fr(r.data(), t);
  mpfr_clear(t);
  if (inexact != 0 || f != 0) throw std::logic_error("wide enclosure: inexact long double");
  return r;
}
inline enclosure exactly(const mpfr_real& x, mpfr_prec_t bits) {
  enclosure r(bits);
  if (mpfi_set_fr(r.data(), x.backend().data()) != 0)
    throw std::logic_error("wide enclosure: inexact mpfr value");
  return r;
}

inline enclosure operator+(const enclosure& a, const enclosure& b) {
  enclosure r(wider(a, b));
  mpfi_add(r.data(), a.data(), b.data());
  return r;
}
inline enclosure operator-(const enclosure& a, const enclosure& b) {
  enclosure r(wider(a, b));
  mpfi_sub(r.data(), a.data(), b.data());
  return r;
}
inline enclosure operator*(const enclosure& a, const enclosure& b) {
  enclosure r(wider(a, b));
  mpfi_mul(r.data(), a.data(), b.data());
  return r;
}
inline enclosure operator/(const enclosure& a, const enclosure& b) {
  enclosure r(wider(a, b));
  mpfi_div(r.data(), a.data(), b.data());
  return r;
}
inline enclosure operator-(const enclosure& a) {
  enclosure r(a.bits());
  mpfi_neg(r.data(), a.data());
  return r;
}
inline enclosure operator+(const enclosure& a, long k) {
  enclosure r(a.bits());
  mpfi_add_si(r.data(), a.data(), k);
  return r;
}
inline enclosure operator-(const enclosure& a, long k) {
  enclosure r(a.bits());
  mpfi_sub_si(r.data(), a.data(), k);
  return r;
}
inline enclosure operator*(const enclosure& a, long k) {
  enclosure r(a.bits());
  mpfi_mul_si(r.data(), a.data(), k);
  return r;
}
inline enclosure operator/(const enclosure& a, long k) {
  enclosure r(a.bits());
  mpfi_div_si(r.data(), a.data(), k);
  return r;
}
inline enclosure abs(const enclosure& a) {
  enclosure r(a.bits());
  mpfi_abs(r.data(), a.data());
  return r;
}
inline enclosure sqrt(const enclosure& a) {
  enclosure r(a.bits());
  mpfi_sqrt(r.data(), a.data());
  return r;
}
inline enclosure exp(const enclosure& a) {
  enclosure r(a.bits());
  mpfi_exp(r.data(), a.data());
  return r;
}
// The integer ratio p / q at a's precision: the constant of raw::ratio_like, so that the bound
// formulas of raw/approximation_bounds.hpp evaluate on enclosures.
inline enclosure ratio_like(const enclosure& a, long p, long q = 1) {
  return enclosure::ratio(p, q, a.bits());
}
// a < b for every pair of points (the domain checks of the bound formulas: false when the
// enclosures overlap, so a hypothesis is accepted only when it certainly holds).
inline bool operator<(const enclosure& a, const enclosure& b) {
  mpfr_t a_hi, b_lo;
  mpfr_init2(a_hi, a.bits());
  mpfr_init2(b_lo, b.bits());
  mpfi_get_right(a_hi, a.data());
  mpfi_get_left(b_lo, b.data());
  const bool less = mpfr_less_p(a_hi, b_lo) != 0;
  mpfr_clear(a_hi);
  mpfr_clear(b_lo);
  return less;
}

// erfc is decreasing: erfc([lo, hi]) = [erfc(hi) rounded down, erfc(lo) rounded up] (MPFR's
// erfc is correctly rounded in each direction).
inline enclosure erfc(const enclosure& a) {
  mpfr_t lo, hi;
  mpfr_init2(lo, a.bits());
  mpfr_init2(hi, a.bits());
  mpfi_get_left(lo, a.data());
  mpfi_get_right(hi, a.data());
  mpfr_t rlo, rhi;
  mpfr_init2(rlo, a.bits());
  mpfr_init2(rhi, a.bits());
  mpfr_erfc(rlo, hi, MPFR_RNDD);
  mpfr_erfc(rhi, lo, MPFR_RNDU);
  enclosure r(a.bits());
  mpfi_interv_fr(r.data(), rlo, rhi);
  mpfr_clear(lo);
  mpfr_clear(hi);
  mpfr_clear(rlo);
  mpfr_clear(rhi);
  return r;
}

// The upper end of the enclosure, rounded up into T: an upper bound of every value inside.
template <class T>
T upper_in(const enclosure& a) {
  mpfr_t hi;
  mpfr_init2(hi, a.bits());
  mpfi_get_right(hi, a.data());
  T r;
  if constexpr (std::is_same_v<T, double>) {
    r = mpfr_get_d(hi, MPFR_RNDU);
  } else if constexpr (std::is_same_v<T, long double>) {
    r = mpfr_get_ld(hi, MPFR_RNDU);
  } else {
    static_assert(std::is_same_v<T, mpfr_real>, "wide enclosure: a floating-point scalar");
    r = T(0);
    mpfr_set(r.backend().data(), hi, MPFR_RNDU);
  }
  mpfr_clear(hi);
  return r;
}

// "[lo, hi]" with 25 significant digits (failure messages).
inline std::string text(const enclosure& a) {
  mpfr_t lo, hi;
  mpfr_init2(lo, a.bits());
  mpfr_init2(hi, a.bits());
  mpfi_get_left(lo, a.data());
  mpfi_get_right(hi, a.data());
  char buf[128];
  mpfr_snprintf(buf, sizeof buf, "[%.25Re, %.25Re]", lo, hi);
  mpfr_clear(lo);
  mpfr_clear(hi);
  return std::string(buf) + " (" + std::to_string(a.bits()) + "-bit enclosure)";
}

}  // namespace iclproof::wide_enclosure
