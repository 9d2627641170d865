#include "core/precision.hpp"

#include "core/ball.hpp"
#include "core/scalar.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace iclproof {

namespace {
unsigned long bits_for_digits10(unsigned long d10) {
  return boost::multiprecision::detail::digits10_2_2(d10);
}
}  // namespace

precision_setting set_mpfr_precision(int requested_bits) {
  if (requested_bits < min_precision_bits || requested_bits > max_precision_bits)
    throw std::invalid_argument(fmt::format("precision {} bits is outside [{}, {}]", requested_bits,
                                            min_precision_bits, max_precision_bits));
  unsigned d10 = 1;
  while (bits_for_digits10(d10) < static_cast<unsigned long>(requested_bits)) ++d10;
  mpfr_real::default_precision(d10);
  interval_real::default_precision(d10);  // the interval endpoints carry the same bits
  precision_setting s;
  s.requested_bits = requested_bits;
  s.digits10 = d10;
  s.actual_bits = scalar_traits<mpfr_real>::bits();
  set_ball_precision(s.actual_bits);  // the balls' midpoints too
  return s;
}

precision_setting current_mpfr_precision() {
  precision_setting s;
  s.digits10 = mpfr_real::default_precision();
  s.actual_bits = scalar_traits<mpfr_real>::bits();
  s.requested_bits = s.actual_bits;
  return s;
}

scoped_mpfr_precision::scoped_mpfr_precision(int bits)
    : previous_digits10_(mpfr_real::default_precision()),
      previous_ball_bits_(ball_detail::precision_bits.load()),
      now_(set_mpfr_precision(bits)) {}

scoped_mpfr_precision::~scoped_mpfr_precision() {
  mpfr_real::default_precision(previous_digits10_);
  interval_real::default_precision(previous_digits10_);
  set_ball_precision(previous_ball_bits_);
}

}  // namespace iclproof
