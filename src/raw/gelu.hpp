// The GeLU activation in its two forms (Akyurek et al. 2023, Appendix C.4.2) in the scalar T.
//
//   exact form: g(z) = z Phi(z), Phi the standard normal CDF, computed as z erfc(-z / sqrt 2) / 2
//               (erfc, not 1 + erf: for z << 0 the product is exponentially small and 1 + erf
//               would cancel to zero; for z >> 0 erfc(-z/sqrt 2) -> 2 without cancellation).
//   tanh form:  g(z) = z/2 (1 + tanh(sqrt(2/pi) (z + 0.044715 z^3)))   (the paper's eq. (36)),
//               computed as z / (1 + exp(-2u)) (the same function; no 1 + tanh cancellation).
// For mpfr_real both call MPFR directly (mpfr_erfc, mpfr_exp): correctly rounded at any
// precision, and far faster than a generic series.
#pragma once

#include "core/ball.hpp"
#include "core/scalar.hpp"

#include <cmath>
#include <string>

namespace iclproof::raw {

enum class gelu_form { erf, tanh };

inline std::string to_string(gelu_form f) { return f == gelu_form::erf ? "erf" : "tanh"; }

namespace detail {
inline double erfc_of(double x) { return std::erfc(x); }
inline long double erfc_of(long double x) { return std::erfc(x); }
inline mpfr_real erfc_of(const mpfr_real& x) {
  mpfr_real r(0);
  mpfr_erfc(r.backend().data(), x.backend().data(), MPFR_RNDN);
  return r;
}
// Intervals: enclosures (erfc from MPFR's correctly rounded erfc with directed rounding on the
// endpoints, exp from MPFI), so the GeLU of an interval contains the GeLU of every point in it.
inline interval_real erfc_of(const interval_real& x) { return erfc_enclosure(x); }
inline interval_real exp_of(const interval_real& x) { return exp_enclosure(x); }
// Balls: Arb's arb_hypgeom_erfc and arb_exp (enclosures over the whole ball).
inline ball_real erfc_of(const ball_real& x) { return erfc(x); }
inline ball_real exp_of(const ball_real& x) { return exp(x); }
inline double exp_of(double x) { return std::exp(x); }
inline long double exp_of(long double x) { return std::exp(x); }
inline mpfr_real exp_of(const mpfr_real& x) {
  mpfr_real r(0);
  mpfr_exp(r.backend().data(), x.backend().data(), MPFR_RNDN);
  return r;
}
}  // namespace detail

// The tanh form's cubic coefficient (paper eq. (36)), exact as a decimal: 44715 / 10^6.
template <class T>
T gelu_tanh_cubic() {
  return T(44715) / T(1000000);
}

template <class T>
T gelu_erf(const T& z) {
  return z * detail::erfc_of(T(-z / sqrt_of(T(2)))) / T(2);
}

template <class T>
T gelu_tanh(const T& z) {
  const T u = sqrt_of(T(T(2) / pi_value<T>())) * (z + gelu_tanh_cubic<T>() * z * z * z);
  return z / (T(1) + detail::exp_of(T(-T(2) * u)));
}

template <class T>
T gelu(gelu_form form, const T& z) {
  return form == gelu_form::erf ? gelu_erf(z) : gelu_tanh(z);
}

// The derivatives g'(z), for the centred (mean-value) form of the MLP on enclosures
// (decoder_layer.hpp: mlp_centred), where an enclosure of g' over a whole box is needed:
//   erf form:  g'(z) = Phi(z) + z phi(z) = erfc(-z / sqrt 2) / 2 + z exp(-z^2 / 2) / sqrt(2 pi);
//   tanh form: g(z) = z q with q = 1 / (1 + exp(-2u)), u = k (z + a z^3), k = sqrt(2/pi), so
//              g'(z) = q + z q (1 - q) 2 k (1 + 3 a z^2)   (q' = 2 u' q (1 - q)).
// On an interval or ball z every operation encloses, so the result contains g'(t) for every t
// in z (tests/unit/raw_decoder_layer_test.cpp checks both against difference quotients).
template <class T>
T gelu_erf_derivative(const T& z) {
  const T phi = detail::exp_of(T(-(z * z) / T(2))) / sqrt_of(T(T(2) * pi_value<T>()));
  return detail::erfc_of(T(-z / sqrt_of(T(2)))) / T(2) + z * phi;
}

template <class T>
T gelu_tanh_derivative(const T& z) {
  const T k = sqrt_of(T(T(2) / pi_value<T>()));
  const T a = gelu_tanh_cubic<T>();
  const T u = k * (z + a * z * z * z);
  const T q = T(1) / (T(1) + detail::exp_of(T(-T(2) * u)));
  return q + z * q * (T(1) - q) * T(2) * k * (T(1) + T(3) * a * z * z);
}

template <class T>
T gelu_derivative(gelu_form form, const T& z) {
  return form == gelu_form::erf ? gelu_erf_derivative(z) : gelu_tanh_derivative(z);
}

template <class T>
T exp_value(const T& x) {
  return detail::exp_of(x);
}

}  // namespace iclproof::raw
