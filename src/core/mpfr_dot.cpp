#include "core/kernels.hpp"

#include <gmp.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace iclproof {

namespace {

constexpr long limb_bits = GMP_NUMB_BITS;
// The exact product of two limbs (GCC's and Clang's 128-bit integer; __extension__: not ISO C++).
__extension__ typedef unsigned __int128 double_limb;
static_assert(sizeof(double_limb) == 2 * sizeof(mp_limb_t) && limb_bits == 64);

long limbs_of(mpfr_srcptr x) {
  return (static_cast<long>(mpfr_get_prec(x)) + limb_bits - 1) / limb_bits;
}

// The significand of a regular x without its low zero limbs: x = M 2^(e_x - limb_bits limbs)
// with M the integer of the `limbs` limbs from `low` up (the dropped limbs are zero, so the
// value is the same). An exact double at 257 bits has one limb left of five; the products and
// the accumulator then work on the limbs that carry bits only.
struct significand {
  const mp_limb_t* low;
  long limbs;
};
significand trimmed(mpfr_srcptr x) {
  const mp_limb_t* low = x->_mpfr_d;
  long limbs = limbs_of(x);
  while (*low == 0) ++low, --limbs;  // the top limb of a regular x is nonzero (normalised)
  return {low, limbs};
}

// The slow path: mpfr_dot (MPFR >= 4.1) on pointer arrays, the addend as addend * 1.
void dot_by_mpfr_dot(mpfr_ptr res, const mpfr_real* a, std::ptrdiff_t sa, const mpfr_real* b,
                     std::ptrdiff_t sb, std::ptrdiff_t n, mpfr_srcptr addend) {
  std::vector<mpfr_ptr> x, y;
  x.reserve(static_cast<std::size_t>(n) + 1);
  y.reserve(x.capacity());
  for (std::ptrdiff_t k = 0; k < n; ++k) {
    // mpfr_dot reads its operands only; its signature lacks the const.
    x.push_back(const_cast<mpfr_ptr>(a[k * sa].backend().data()));
    y.push_back(const_cast<mpfr_ptr>(b[k * sb].backend().data()));
  }
  mpfr_t one, addend_copy;
  mpfr_init2(one, 2);
  mpfr_set_ui(one, 1, MPFR_RNDN);
  mpfr_init2(addend_copy, addend != nullptr ? mpfr_get_prec(addend) : 2);
  if (addend != nullptr) {
    mpfr_set(addend_copy, addend, MPFR_RNDN);  // exact: same precision (res may alias addend)
    x.push_back(addend_copy);
    y.push_back(one);
  }
  mpfr_dot(res, x.data(), y.data(), static_cast<unsigned long>(x.size()), MPFR_RNDN);
  mpfr_clear(addend_copy);
  mpfr_clear(one);
}

}  // namespace

void mpfr_dot_into(mpfr_ptr res, const mpfr_real* a, std::ptrdiff_t sa, const mpfr_real* b,
                   std::ptrdiff_t sb, std::ptrdiff_t n, mpfr_srcptr addend) {
  // Pass 1: the exponent window [lo, hi) of the exact terms, and whether the fast path applies.
  // A regular x = M_x 2^(e_x - limb_bits l_x), M_x the integer of its l_x limbs (trimmed: the
  // limbs from its lowest nonzero one up), so the exact
  // product x y = M_x M_y 2^(e_x + e_y - limb_bits (l_x + l_y)) with M_x M_y < 2^(limb_bits
  // (l_x + l_y)): its bits lie in [e_x + e_y - limb_bits (l_x + l_y), e_x + e_y).
  mpfr_exp_t lo = 0, hi = 0;
  bool any_regular = false, all_negative_zero = true;
  std::ptrdiff_t terms = 0;
  // The first cached_terms regular terms' trimmed factors, kept from pass 1 for pass 2 (which
  // reads the terms after them, k >= uncached_from, again).
  struct product_term {
    significand x, y;
    mpfr_exp_t top;  // e_x + e_y
    bool negative;
  };
  constexpr int cache_size = 64;
  product_term cache[cache_size];
  int cached_terms = 0;
  std::ptrdiff_t uncached_from = 0;
  const auto window = [&](mpfr_exp_t top, long limbs) {
    const mpfr_exp_t bottom = top - limb_bits * limbs;
    if (!any_regular) {
      lo = bottom;
      hi = top;
      any_regular = true;
    } else {
      lo = std::min(lo, bottom);
      hi = std::max(hi, top);
    }
  };
  for (std::ptrdiff_t k = 0; k < n; ++k) {
    mpfr_srcptr x = a[k * sa].backend().data(), y = b[k * sb].backend().data();
    ++terms;
    if (mpfr_regular_p(x) && mpfr_regular_p(y)) {
      const significand mx = trimmed(x), my = trimmed(y);
      if (mx.limbs + my.limbs > max_term_limbs)
        return dot_by_mpfr_dot(res, a, sa, b, sb, n, addend);
      const mpfr_exp_t top = mpfr_get_exp(x) + mpfr_get_exp(y);
      window(top, mx.limbs + my.limbs);
      all_negative_zero = false;
      if (uncached_from == k && cached_terms < cache_size) {
        cache[cached_terms++] = {mx, my, top, (mpfr_signbit(x) != 0) != (mpfr_signbit(y) != 0)};
        uncached_from = k + 1;
      }
    } else if ((mpfr_zero_p(x) && mpfr_number_p(y)) || (mpfr_zero_p(y) && mpfr_number_p(x))) {
      all_negative_zero = all_negative_zero && ((mpfr_signbit(x) != 0) != (mpfr_signbit(y) != 0));
      if (uncached_from == k) uncached_from = k + 1;  // a zero term: nothing to add
    } else {
      return dot_by_mpfr_dot(res, a, sa, b, sb, n, addend);  // NaN or infinity
    }
  }
  if (addend != nullptr) {
    ++terms;
    if (mpfr_regular_p(addend)) {
      const long l = trimmed(addend).limbs;
      if (l > max_term_limbs) return dot_by_mpfr_dot(res, a, sa, b, sb, n, addend);
      window(mpfr_get_exp(addend), l);
      all_negative_zero = false;
    } else if (mpfr_zero_p(addend)) {
      all_negative_zero = all_negative_zero && mpfr_signbit(addend);
    } else {
      return dot_by_mpfr_dot(res, a, sa, b, sb, n, addend);
    }
  }
  if (!any_regular) {
    // mpfr_sum's rule for an exact zero: the zeros' sign if they all have it, else +0.
    mpfr_set_zero(res, terms > 0 && all_negative_zero ? -1 : 1);
    return;
  }
  // The sum of the terms is below terms 2^hi < 2^(hi + limb_bits - 1) in magnitude: a
  // two's-complement accumulator of len limbs from 2^lo holds it exactly.
  const mpfr_exp_t span = hi - lo + limb_bits;
  if (span > limb_bits * (max_accumulator_limbs - 1))
    return dot_by_mpfr_dot(res, a, sa, b, sb, n, addend);  // exponents too far apart
  const long len = static_cast<long>(span / limb_bits) + 1;
  mp_limb_t acc[max_accumulator_limbs], term[max_term_limbs + 1];
  std::memset(acc, 0, static_cast<std::size_t>(len) * sizeof(mp_limb_t));
  // Pass 2: add each exact term at its place (an integer multiple of 2^lo).
  // Short terms (at most short_limbs limbs, the common case: products of exact doubles and of
  // short sums) are shifted and added by inline loops, longer ones by GMP's mpn functions.
  constexpr long short_limbs = 4;
  const auto add_term = [&](long term_limbs, mpfr_exp_t bottom, bool negative) {
    const mpfr_exp_t offset = bottom - lo;
    const long q = static_cast<long>(offset / limb_bits);
    const unsigned shift = static_cast<unsigned>(offset % limb_bits);
    if (term_limbs > short_limbs) {
      if (shift != 0) term[term_limbs] = mpn_lshift(term, term, term_limbs, shift), ++term_limbs;
      term_limbs = std::min(term_limbs, len - q);  // the carry limb may fall off: then it is 0
      if (negative)
        mpn_sub(acc + q, acc + q, len - q, term, term_limbs);  // two's complement: borrow wraps
      else
        mpn_add(acc + q, acc + q, len - q, term, term_limbs);
      return;
    }
    if (shift != 0) {
      mp_limb_t carry = 0;
      for (long i = 0; i < term_limbs; ++i) {
        const mp_limb_t v = term[i];
        term[i] = (v << shift) | carry;
        carry = v >> (limb_bits - shift);
      }
      term[term_limbs++] = carry;
    }
    term_limbs = std::min(term_limbs, len - q);  // the carry limb may fall off: then it is 0
    mp_limb_t* r = acc + q;
    const long rest = len - q;
    long i = 0;
    if (negative) {  // two's complement: the borrow out of the top limb wraps
      mp_limb_t borrow = 0;
      for (; i < term_limbs; ++i) {
        const mp_limb_t t = term[i] + borrow;
        borrow = t < borrow;  // term[i] + borrow overflowed: the limb takes 2^64
        borrow += r[i] < t;
        r[i] -= t;
      }
      for (; borrow != 0 && i < rest; ++i) borrow = r[i]-- == 0;
    } else {
      mp_limb_t carry = 0;
      for (; i < term_limbs; ++i) {
        const mp_limb_t t = term[i] + carry;
        carry = t < carry;
        r[i] += t;
        carry += r[i] < t;
      }
      for (; carry != 0 && i < rest; ++i) carry = ++r[i] == 0;
    }
  };
  const auto add_product = [&](significand mx, significand my, mpfr_exp_t top, bool negative) {
    if (mx.limbs < my.limbs) std::swap(mx, my);
    const long l = mx.limbs + my.limbs;
    if (l == 2) {
      const double_limb p = static_cast<double_limb>(mx.low[0]) * my.low[0];
      term[0] = static_cast<mp_limb_t>(p);
      term[1] = static_cast<mp_limb_t>(p >> limb_bits);
    } else if (my.limbs == 1) {
      term[mx.limbs] = mpn_mul_1(term, mx.low, mx.limbs, my.low[0]);
    } else if (mx.limbs == my.limbs) {
      mpn_mul_n(term, mx.low, my.low, mx.limbs);
    } else {
      mpn_mul(term, mx.low, mx.limbs, my.low, my.limbs);
    }
    add_term(l, top - limb_bits * l, negative);
  };
  for (int c = 0; c < cached_terms; ++c)
    add_product(cache[c].x, cache[c].y, cache[c].top, cache[c].negative);
  for (std::ptrdiff_t k = uncached_from; k < n; ++k) {
    mpfr_srcptr x = a[k * sa].backend().data(), y = b[k * sb].backend().data();
    if (!mpfr_regular_p(x) || !mpfr_regular_p(y)) continue;  // a zero term
    add_product(trimmed(x), trimmed(y), mpfr_get_exp(x) + mpfr_get_exp(y),
                (mpfr_signbit(x) != 0) != (mpfr_signbit(y) != 0));
  }
  if (addend != nullptr && mpfr_regular_p(addend)) {
    const significand m = trimmed(addend);
    std::memcpy(term, m.low, static_cast<std::size_t>(m.limbs) * sizeof(mp_limb_t));
    add_term(m.limbs, mpfr_get_exp(addend) - limb_bits * m.limbs, mpfr_signbit(addend) != 0);
  }
  // One rounding: the exact sum as an integer times 2^lo, rounded to res's precision.
  const bool negative = (acc[len - 1] >> (limb_bits - 1)) != 0;
  if (negative) mpn_neg(acc, acc, len);
  long size = len;
  while (size > 0 && acc[size - 1] == 0) --size;
  if (size == 0) {
    mpfr_set_zero(res, 1);  // exact cancellation: +0 (mpfr_sum, round to nearest)
    return;
  }
  mpz_t z;
  mpz_roinit_n(z, acc, negative ? -size : size);
  mpfr_set_z_2exp(res, z, lo, MPFR_RNDN);
}

}  // namespace iclproof
