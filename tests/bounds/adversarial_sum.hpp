// Higham's worst case for recursive summation, constructed (shared by the bound-attainment
// tests of tests/bounds and tests/unit/sharpness_test.cpp).
//
// Recursive summation 1 + delta + ... + delta (n additions) with delta = u (1 + 2^-8): every
// partial sum lies in [1, 2), where the spacing is 2u, and delta exceeds half of it, so every
// addition rounds UP by 2u - delta = u (1 - 2^-8): the error is n u (1 - 2^-8), within
// 1 / (1 - 2^-8) of gamma_n times the sum of |terms| (Higham's worst case, eq. (3.4)).
#pragma once

#include "core/precision.hpp"
#include "harness/tolerance.hpp"

#include <cmath>

namespace iclproof::testing {

template <class T>
struct adversarial_sum {
  T error;   // |computed - exact|
  T shadow;  // sum of |terms|
};

template <class T>
adversarial_sum<T> recursive_sum_rounding_up(int additions) {
  const T u = unit_roundoff<T>();
  const T delta = u * T(1 + std::ldexp(1.0, -8));
  T s(1);
  for (int i = 0; i < additions; ++i) s += delta;
  // Exact: 1 + additions * delta has at most 9 + 11 significant bits below 2^0: exact at 256.
  scoped_mpfr_precision wide(256);
  const mpfr_real exact = mpfr_real(1) + mpfr_real(additions) * mpfr_real(delta);
  const mpfr_real err = abs(mpfr_real(s) - exact);
  return {static_cast<T>(err), static_cast<T>(exact)};
}

}  // namespace iclproof::testing
