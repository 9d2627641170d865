// The tolerance-free Prop. 1 check on dyadic data (vonoswald.prop1_layer_is_exact_on_dyadic_data):
// the precision condition of proofs/DyadicExact.v, the formats' least exponents, and the check
// itself. Split from vonoswald.hpp, whose case generators and constructions it uses.
#pragma once

#include "vonoswald.hpp"

#include <bit>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace iclproof::vonoswald_checks {

// The precision condition of proofs/DyadicExact.v (dyadic_bound): on data whose entries are
// integers of magnitude <= b, with N = 2^j and eta = 2^-k, every intermediate of the Prop. 1
// layer and of the GD step is an integer multiple of 2^-(j+k) whose integer is at most
//     N D^5 b^6 + b 2^(j+k),   D = d + o,
// so both are computed without rounding in every format of precision p with that bound < 2^p
// and minimal exponent <= -(j+k). Returns the bound (exact in 64 bits for the drawn sizes).
inline std::uint64_t dyadic_bound(int d, int o, int j, int k, int b) {
  std::uint64_t D5 = 1, b6 = 1;
  for (int i = 0; i < 5; ++i) D5 *= static_cast<std::uint64_t>(d + o);
  for (int i = 0; i < 6; ++i) b6 *= static_cast<std::uint64_t>(b);
  return (std::uint64_t{1} << j) * D5 * b6 +
         static_cast<std::uint64_t>(b) * (std::uint64_t{1} << (j + k));
}

// The least exponent of the format's grid (Flocq's FLT emin): 2^emin is the smallest positive
// value. IEEE types: min_exponent - digits (-1074 for double, -16445 for x87 long double).
// MPFR (and MPFI's endpoints) has no subnormals: 2^(mpfr_get_emin() - 1) is its smallest
// positive value, and every nonzero value on the grid 2^-(j+k) is at least 2^-(j+k).
template <class T>
long format_min_exponent() {
  if constexpr (std::is_same_v<T, double> || std::is_same_v<T, long double>)
    return std::numeric_limits<T>::min_exponent - std::numeric_limits<T>::digits;
  else
    return static_cast<long>(mpfr_get_emin()) - 1;
}

// Tolerance-free Prop. 1: small-integer X, Y, W0, Xq, Yq0 (|entries| <= 4), N = 2^j and
// eta = 2^-k: every intermediate of both programs is an integer multiple of 2^-(j+k) of at most
// 32 significant bits, so both are computed exactly in every precision iclproof accepts (double
// included) and must agree bit for bit. proofs/DyadicExact.v:layer_no_rounding and
// gd_step_no_rounding prove the no-rounding part for these very programs (operation by
// operation, for the sequential, fused and once-rounded dot kernels), under hypotheses checked
// here on the drawn data; proofs/VonOswald.v:prop1_lsa_gd_step proves the exact values equal.
template <class T>
void prop1_exact_on_dyadic_data(case_context& ctx, const constructions<T>& make) {
  const int d = *rc::gen::inRange(1, 7), o = *rc::gen::inRange(1, 4);
  const int j = *rc::gen::inRange(0, 5), N = 1 << j, Q = *rc::gen::inRange(1, 4);
  const int k = *rc::gen::inRange(0, 6);
  const auto seed = *rc::gen::inRange<std::uint64_t>(0, 1u << 30);
  ctx.note("d, o, N, Q, eta = 2^-k, seed",
           std::to_string(d) + ", " + std::to_string(o) + ", " + std::to_string(N) + ", " +
               std::to_string(Q) + ", 2^-" + std::to_string(k) + ", " + std::to_string(seed));
  constexpr int b = 4;  // the entries' magnitude bound (DyadicExact.v: b)
  data_rng rng(seed);
  bool integers_within_b = true;
  const auto ints = [&](int r, int cols) {
    Mat<double> m(r, cols);
    for (int c = 0; c < cols; ++c)
      for (int i = 0; i < r; ++i) {
        m(i, c) = std::floor(rng.uniform(-4.0, 5.0));
        integers_within_b = integers_within_b && m(i, c) == std::floor(m(i, c)) &&
                            std::fabs(m(i, c)) <= static_cast<double>(b);
      }
    return from_double<T>(m);
  };
  const Mat<T> X = ints(d, N), Y = ints(o, N), Xq = ints(d, Q), Yq0 = ints(o, Q), W0 = ints(o, d);
  const T eta = T(std::ldexp(1.0, -k));
  // DyadicExact.v's hypotheses on this draw (for an exact scalar nothing rounds at all).
  const std::uint64_t bound = dyadic_bound(d, o, j, k, b);
  const int bits_needed = static_cast<int>(std::bit_width(bound));  // bound < 2^bits_needed
  if constexpr (!is_exact_scalar<T>) {
    const int p = scalar_traits<T>::bits();
    const long emin = format_min_exponent<T>();
    ctx.note("DyadicExact.v: N D^5 b^6 + b 2^(j+k), bits needed, precision p",
             std::to_string(bound) + ", " + std::to_string(bits_needed) + ", " + std::to_string(p));
    ctx.require(
        "the draw meets proofs/DyadicExact.v's hypotheses (integer entries |x| <= 4, "
        "N = 2^j, eta = 2^-k, N D^5 b^6 + b 2^(j+k) < 2^p, -(j+k) >= emin)",
        integers_within_b && bits_needed <= p && -(j + k) >= emin,
        "integer entries within 4: " + std::string(integers_within_b ? "yes" : "no") + "; bound " +
            std::to_string(bound) + " needs " + std::to_string(bits_needed) +
            " bits, the format has p = " + std::to_string(p) + ", emin = " + std::to_string(emin) +
            ", j + k = " + std::to_string(j + k));
  } else {
    ctx.require("the draw meets proofs/DyadicExact.v's data hypotheses (integer entries |x| <= 4)",
                integers_within_b, "an entry is not an integer within 4");
  }
  const Mat<T> E = regression_tokens<T>(X, Y, Xq, Yq0);
  const Mat<T> out = lsa_layer_forward<T>(make.prop1(d, o, N, eta, W0), E, N);
  const Mat<T> dW = gd_delta<T>(X, Y, eta, W0);
  Mat<T> ref = E;
  ref.bottomRows(o) = E.bottomRows(o) - matmul(dW, Mat<T>(E.topRows(d)));
  ctx.require("every token equals the GD-updated token exactly", out == ref,
              "layer =\n" + case_context::matrix_full_digits(out) + "GD step =\n" +
                  case_context::matrix_full_digits(ref));
}

}  // namespace iclproof::vonoswald_checks
