// The hot inner kernel: dot products and accumulations as plain loops, with a correctly rounded
// exact-accumulator specialisation for mpfr_real and a preallocated-temporary one for
// interval_real (no allocation per multiply-add). Everything O(N d^2) in the layers goes through
// these.
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

// Entrywise in-place updates of n contiguous values (a matrix's data()), each product and sum
// rounded as the Eigen expressions they replace (y + alpha x: fl(y + fl(alpha x))), bit for bit,
// without the temporary value per entry that `Y = Y + alpha * X` makes for mpfr_real:
//   y[k] += alpha x[k];   y[k] += g[k] x[k];   y[k] *= alpha;   y[k] /= alpha;   y[k] += x[k].
template <class T>
inline void scaled_add(T* y, const T& alpha, const T* x, std::ptrdiff_t n) {
  for (std::ptrdiff_t k = 0; k < n; ++k) y[k] += alpha * x[k];
}
template <class T>
inline void hadamard_add(T* y, const T* g, const T* x, std::ptrdiff_t n) {
  for (std::ptrdiff_t k = 0; k < n; ++k) y[k] += g[k] * x[k];
}
template <class T>
inline void scale_in_place(T* y, const T& alpha, std::ptrdiff_t n) {
  for (std::ptrdiff_t k = 0; k < n; ++k) y[k] *= alpha;
}
template <class T>
inline void divide_in_place(T* y, const T& alpha, std::ptrdiff_t n) {
  for (std::ptrdiff_t k = 0; k < n; ++k) y[k] /= alpha;
}
template <class T>
inline void add_in_place(T* y, const T* x, std::ptrdiff_t n) {
  for (std::ptrdiff_t k = 0; k < n; ++k) y[k] += x[k];
}

// The mpfr_real versions: one preallocated product (at y[k]'s precision), mul then add.
namespace detail {
class mpfr_product_temporary {
 public:
  mpfr_product_temporary() { mpfr_init2(t_, MPFR_PREC_MIN); }
  ~mpfr_product_temporary() { mpfr_clear(t_); }
  mpfr_product_temporary(const mpfr_product_temporary&) = delete;
  mpfr_product_temporary& operator=(const mpfr_product_temporary&) = delete;
  // y += a b, the product rounded to y's precision first.
  void multiply_add(mpfr_ptr y, mpfr_srcptr a, mpfr_srcptr b) {
    if (mpfr_get_prec(t_) != mpfr_get_prec(y)) mpfr_set_prec(t_, mpfr_get_prec(y));
    mpfr_mul(t_, a, b, MPFR_RNDN);
    mpfr_add(y, y, t_, MPFR_RNDN);
  }

 private:
  mpfr_t t_;
};
}  // namespace detail

template <>
inline void scaled_add<mpfr_real>(mpfr_real* y, const mpfr_real& alpha, const mpfr_real* x,
                                  std::ptrdiff_t n) {
  detail::mpfr_product_temporary t;
  for (std::ptrdiff_t k = 0; k < n; ++k)
    t.multiply_add(y[k].backend().data(), alpha.backend().data(), x[k].backend().data());
}
template <>
inline void hadamard_add<mpfr_real>(mpfr_real* y, const mpfr_real* g, const mpfr_real* x,
                                    std::ptrdiff_t n) {
  detail::mpfr_product_temporary t;
  for (std::ptrdiff_t k = 0; k < n; ++k)
    t.multiply_add(y[k].backend().data(), g[k].backend().data(), x[k].backend().data());
}

// The MPFR kernel: a correctly rounded dot product, res = RN(addend + sum_{k<n} a[k sa] b[k sb])
// rounded once to res's precision (round to nearest), the value mpfr_dot (MPFR >= 4.1) returns,
// bit for bit (tests/unit/kernels_test.cpp). Its error is at most half an ulp of the result, so
// every rounding model of the properties (gamma_n |a|^T |b|, Higham eq. 3.5, for the sequential
// mul-then-add loop) holds for it a fortiori.
// Fast path (src/core/mpfr_dot.cpp): each product is formed exactly (mpn_mul of the significands)
// and added at its binary place into one fixed-point two's-complement accumulator of limbs
// (Kulisch's long accumulator, restricted to the terms' exponent window), then the exact sum is
// rounded once (mpfr_set_z_2exp). No MPFR rounding and no allocation per term. It applies when
// every operand has at most max_term_limbs / 2 limbs (1280 bits), the terms' exponents lie
// within max_accumulator_limbs limbs and nothing is NaN or infinite; otherwise mpfr_dot does it.
// res may be one of the operands or the addend; addend may be nullptr.
inline constexpr long max_term_limbs = 40;
inline constexpr long max_accumulator_limbs = 160;
void mpfr_dot_into(mpfr_ptr res, const mpfr_real* a, std::ptrdiff_t sa, const mpfr_real* b,
                   std::ptrdiff_t sb, std::ptrdiff_t n, mpfr_srcptr addend = nullptr);

template <>
inline void dot_accumulate<mpfr_real>(mpfr_real& acc, const mpfr_real* a, std::ptrdiff_t sa,
                                      const mpfr_real* b, std::ptrdiff_t sb, std::ptrdiff_t n) {
  mpfr_dot_into(acc.backend().data(), a, sa, b, sb, n, acc.backend().data());
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
