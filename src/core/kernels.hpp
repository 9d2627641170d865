// The hot inner kernel: dot products and accumulations as plain loops, with a raw mpfr_t
// specialisation that reuses one product temporary and one accumulator (no allocation per
// multiply-add). Everything O(N d^2) in the layers goes through these.
#pragma once

#include "core/scalar.hpp"

#include <cstddef>

namespace iclproof {

// acc += sum_k a[k * sa] * b[k * sb], k < n.
template <class T>
inline void dot_accumulate(T& acc, const T* a, std::ptrdiff_t sa, const T* b, std::ptrdiff_t sb,
                           std::ptrdiff_t n) {
  for (std::ptrdiff_t k = 0; k < n; ++k) acc += a[k * sa] * b[k * sb];
}

// The MPFR kernel: rounding is the same as mul-then-add in T (each rounded to the
// accumulator's precision), so results equal the generic loop's bit for bit.
class mpfr_dot_workspace {
 public:
  explicit mpfr_dot_workspace(mpfr_prec_t prec) { mpfr_init2(prod_, prec); }
  ~mpfr_dot_workspace() { mpfr_clear(prod_); }
  mpfr_dot_workspace(const mpfr_dot_workspace&) = delete;
  mpfr_dot_workspace& operator=(const mpfr_dot_workspace&) = delete;
  void accumulate(mpfr_real& acc, const mpfr_real* a, std::ptrdiff_t sa, const mpfr_real* b,
                  std::ptrdiff_t sb, std::ptrdiff_t n) {
    mpfr_ptr s = acc.backend().data();
    for (std::ptrdiff_t k = 0; k < n; ++k) {
      mpfr_mul(prod_, a[k * sa].backend().data(), b[k * sb].backend().data(), MPFR_RNDN);
      mpfr_add(s, s, prod_, MPFR_RNDN);
    }
  }

 private:
  mpfr_t prod_;
};

template <>
inline void dot_accumulate<mpfr_real>(mpfr_real& acc, const mpfr_real* a, std::ptrdiff_t sa,
                                      const mpfr_real* b, std::ptrdiff_t sb, std::ptrdiff_t n) {
  mpfr_dot_workspace ws(mpfr_get_prec(acc.backend().data()));
  ws.accumulate(acc, a, sa, b, sb, n);
}

// The MPFI kernel: one preallocated product interval, outward-rounded mul-then-add into the
// accumulator (the same enclosure as the generic loop's, without a temporary per operation).
class mpfi_dot_workspace {
 public:
  explicit mpfi_dot_workspace(mpfr_prec_t prec) { mpfi_init2(prod_, prec); }
  ~mpfi_dot_workspace() { mpfi_clear(prod_); }
  mpfi_dot_workspace(const mpfi_dot_workspace&) = delete;
  mpfi_dot_workspace& operator=(const mpfi_dot_workspace&) = delete;
  void accumulate(interval_real& acc, const interval_real* a, std::ptrdiff_t sa,
                  const interval_real* b, std::ptrdiff_t sb, std::ptrdiff_t n) {
    mpfi_ptr s = acc.backend().data();
    for (std::ptrdiff_t k = 0; k < n; ++k) {
      mpfi_mul(prod_, a[k * sa].backend().data(), b[k * sb].backend().data());
      mpfi_add(s, s, prod_);
    }
  }

 private:
  mpfi_t prod_;
};

template <>
inline void dot_accumulate<interval_real>(interval_real& acc, const interval_real* a,
                                          std::ptrdiff_t sa, const interval_real* b,
                                          std::ptrdiff_t sb, std::ptrdiff_t n) {
  mpfi_dot_workspace ws(mpfi_get_prec(acc.backend().data()));
  ws.accumulate(acc, a, sa, b, sb, n);
}

}  // namespace iclproof
