// The approximations behind the RAW construction (Akyurek et al. 2023, C.4.2 and C.6), each
// with the error bound the properties use as tolerance. ONE place for these formulas; each
// names the theorem (or the derivation) it comes from.
//
//   gelu_product      s^2 sqrt(pi/2) (g((x+y)/s) - g(x/s) - g(y/s))  ~  x y        (Lemma 4)
//   gelu bypass       g(Nb + z) - Nb  ~  z                                          (Lemma 5)
//   LayerNorm bypass  sqrt(2/L) N lambda([x, N, -N - sum x, 0])  ~  [x, N, ...]     (Lemma 6)
//                     and x / sqrt(1 + delta) ~ x in general (inv_sqrt_deviation)
//   LayerNorm div.    sqrt(2/L) M N lambda([N c, y/M, -N c - S/M, 0])  ~  y / |c|   (Lemma 8)
//   hard attention    softmax with logit gap Natt  ~  uniform average over K(i)   (C.4.1)
#pragma once

#include "core/scalar.hpp"
#include "raw/gelu.hpp"

#include <cmath>
#include <stdexcept>

namespace iclproof::raw {

// The integer ratio p / q in the type of `like`: T(p) / T(q) for the scalars. The bound
// formulas below build their constants with it, so that they can also be evaluated on
// properties/wide_enclosure.hpp's enclosures (which carry their own precision and overload
// ratio_like, abs_of, sqrt_of and <): a property that compares an error with a bound attained
// to within the rounding of the bound's own evaluation in T evaluates the bound rigorously there
// and rounds it up into T once.
template <class T>
T ratio_like(const T&, long p, long q = 1) {
  return T(p) / T(q);
}

// eps^k = 2^(k (1 - p)) in T (k may be fractional): the knobs balance error terms in eps.
template <class T>
T eps_power(double k) {
  using boost::multiprecision::log;
  using std::log;
  return exp_value(T(T(k) * T(1 - scalar_traits<T>::bits()) * log(T(2))));
}

// ---------------------------------------------------------------- GeLU multiplication (Lemma 4)
template <class T>
T gelu_product(gelu_form form, const T& x, const T& y, const T& s) {
  const T c = s * s * sqrt_of(T(pi_value<T>() / T(2)));
  return c * (gelu(form, T((x + y) / s)) - gelu(form, T(x / s)) - gelu(form, T(y / s)));
}

// Tanh form. proofs/AkyurekBounds.v:gelu_tanh_product_quartic proves, for |a|, |b| <= 1/10,
//   |sqrt(pi/2) (g(a+b) - g(a) - g(b)) - a b| <= 1 * (a^4 + b^4)   (gelu_tanh_quartic_constant);
// with a = x/s, b = y/s and multiplying by s^2: |gelu_product - x y| <= C (x^4 + y^4) / s^2,
// valid while |x|, |y| <= s / 10 (gelu_product_box_ok).
// The constant of the Coq statement (the true leading coefficient is ~0.59; the proof's route,
// 9 sqrt(pi/2) * 0.086, gives 0.97 <= 1).
template <class T>
T gelu_tanh_quartic_constant() {
  return T(1);
}
// Box of the Coq theorem: |x|/s, |y|/s <= 1/10.
template <class T>
bool gelu_product_box_ok(const T& x, const T& y, const T& s) {
  return abs_of(x) * T(10) <= s && abs_of(y) * T(10) <= s;
}

// Erf form: g(z) = z Phi(z) = z/2 + (z^2 - z^4/6 + z^6/40 - ...)/sqrt(2 pi); the series of
// Phi - 1/2 is alternating with terms decreasing in modulus for z^2 < 8.4 (ratio of
// consecutive terms z^2 (2k+1) / (2 (k+1) (2k+3))), so for |z| <= 2 the remainder after z^4
// is at most z^6 / (40 sqrt(2 pi)) (Leibniz). Summing over the three arguments of
// gelu_product and multiplying by s^2 sqrt(pi/2):
//   |gelu_product - x y| <= |(x+y)^4 - x^4 - y^4| / (12 s^2) + ((x+y)^6 + x^6 + y^6) / (80 s^4)
// valid while |x + y|, |x|, |y| <= 2 s. (CONSTRUCTIONS.md section 5 gives the leading term
// -x y (2x^2 + 3xy + 2y^2) / (6 s^2), which equals the first term's signed form.) The same
// formula is proofs/GeluErf.v:gelu_erf_product_bound, proved for all x, y and s > 0 by another
// route (erf as its integral; 1 - u <= exp(-u) <= 1 - u + u^2/2 under the integral).
template <class T>
T gelu_erf_product_bound(const T& x, const T& y, const T& s) {
  const T z = x + y;
  const T s2 = s * s;
  const T q = abs_of(T(z * z * z * z - x * x * x * x - y * y * y * y)) / (ratio_like(s, 12) * s2);
  const T r = (z * z * z * z * z * z + x * x * x * x * x * x + y * y * y * y * y * y) /
              (ratio_like(s, 80) * s2 * s2);
  return q + r;
}

template <class T>
T gelu_tanh_product_bound(const T& x, const T& y, const T& s) {
  const T x2 = x * x, y2 = y * y;
  return gelu_tanh_quartic_constant<T>() * (x2 * x2 + y2 * y2) / (s * s);
}

// Throws std::domain_error outside the box where the bound is proved.
template <class T>
T gelu_product_bound(gelu_form form, const T& x, const T& y, const T& s) {
  if (form == gelu_form::tanh) {
    if (!gelu_product_box_ok(x, y, s))
      throw std::domain_error("GeLU product bound: need |x|, |y| <= s/10 (AkyurekBounds.v box)");
    return gelu_tanh_product_bound(x, y, s);
  }
  if (!(abs_of(T(x + y)) <= T(2) * s && abs_of(x) <= T(2) * s && abs_of(y) <= T(2) * s))
    throw std::domain_error("GeLU product bound: need |x|, |y|, |x+y| <= 2 s");
  return gelu_erf_product_bound(x, y, s);
}

// Rounding of gelu_product: the three GeLU values have modulus <= |argument| (0 <= Phi <= 1,
// and 0 <= 1/(1+exp) <= 1), each argument and value carries <= 4 roundings (division by s,
// sum, erfc/exp correctly rounded, products), the two differences and the final product add
// 3 more; every rounding is relative to a quantity of modulus <= 2 (|x| + |y|)/s. Times
// s^2 sqrt(pi/2) <= 1.26 s^2: |fl - exact| <= gamma_16 * 2 * 1.26 * s (|x| + |y|) * 3
// (first-order, Higham eq. (3.8) style counting).
// On interval_real: 0 (the enclosure of the computed product contains its exact value).
template <class T>
T gelu_product_rounding(const T& x, const T& y, const T& s) {
  if constexpr (is_interval_scalar<T>) return T(0);
  const T u = eps<T>() / T(2);
  const T gamma16 = T(16) * u / (T(1) - T(16) * u);
  return gamma16 * T(8) * s * (abs_of(x) + abs_of(y));
}

// Balanced down-scale s for inputs of modulus <= X: the O(X^4 / s^2) approximation error and
// the O(eps s X) rounding error meet at s = X eps^(-1/3) (then both are O(X^2 eps^(2/3))).
// Never below 10 X, so the tanh box |x|, |y| <= s/10 holds.
template <class T>
T balanced_gelu_downscale(const T& X) {
  const T s = X * eps_power<T>(-1.0 / 3.0);
  return s < T(10) * X ? T(10) * X : s;
}

// ------------------------------------------------------------------- GeLU bypass (Lemma 5)
// erf form: g(t) - t = -t (1 - Phi(t)), and for t > 0, t (1 - Phi(t)) <= phi(t) (Mills ratio,
// Gordon 1941): |g(Nb + z) - Nb - z| <= exp(-t^2/2) / sqrt(2 pi), t = Nb + z > 0
// (proofs/GeluErfTail.v:gelu_erf_bypass_bound, this formula; -t * t / 2 below is the same real
// as Coq's - (t * t) / 2). It decreases in t >= 0, so its value at the smallest t = Nb - max|z|
// bounds the error at every larger t (proofs/GeluErfTail.v:gelu_erf_bypass_bound_below).
// tanh form: g(t) - t = -t / (1 + exp(2u)), u = sqrt(2/pi)(t + 0.044715 t^3), so for t > 0
// |g(t) - t| <= t exp(-2u)  (proofs/AkyurekBounds.v:gelu_tanh_bypass_exponential).
// The layer bounds evaluate it at the smallest argument t = Nb - max|z|, which bounds the error
// at every larger t only where t exp(-2u(t)) decreases: from t ~ 0.6 on, refused below t = 1
// (proofs/AkyurekLayerBounds.v:gelu_tanh_bypass_bound_decreasing: 1 <= s <= t implies
// t exp(-2u(t)) <= s exp(-2u(s))).
template <class T>
T gelu_bypass_bound(gelu_form form, const T& t) {
  if (!(t > T(0))) throw std::domain_error("GeLU bypass bound: needs Nb + z > 0");
  if (form == gelu_form::erf) return exp_value(T(-t * t / T(2))) / sqrt_of(T(T(2) * pi_value<T>()));
  if (!(t >= T(1)))
    throw std::domain_error("tanh GeLU bypass bound: needs Nb - max|z| >= 1 (monotone only there)");
  const T u = sqrt_of(T(T(2) / pi_value<T>())) * (t + gelu_tanh_cubic<T>() * t * t * t);
  return t * exp_value(T(-T(2) * u));
}

// Lower bound on |g(t) - t|, t > 0 (t >= 1 for tanh): the upper bound is sharp within these.
// tanh: t exp(-2u) / 2  (proofs/AkyurekLayerBounds.v:gelu_tanh_bypass_lower, t >= 0).
// erf:  phi(t) t^2 / (1 + t^2)  (Mills ratio lower bound, Gordon 1941; for t > 0,
//       proofs/GeluErfTail.v:gelu_erf_bypass_lower, this formula: upper * t * t / (1 + t * t)).
template <class T>
T gelu_bypass_lower_bound(gelu_form form, const T& t) {
  const T upper = gelu_bypass_bound(form, t);
  if (form == gelu_form::erf) return upper * t * t / (T(1) + t * t);
  return upper / T(2);
}

// ------------------------------------------------------ LayerNorm bypass (Lemma 6, RAW pads)
// Bound on |1 - (1 + delta)^(-1/2)| for |delta| <= d < 1: d / (2 (1 - d) sqrt(1 - d)), the
// formula of proofs/AkyurekBounds.v:layernorm_bypass_deviation. Refused from d >= 1/2 on (the
// bound is then >= 0.71: knobs that small leave the layer nowhere near its exact semantics).
template <class T>
T inv_sqrt_deviation(const T& d) {
  if (!(d < T(1) / T(2))) throw std::domain_error("LayerNorm deviation >= 1/2: knobs too small");
  const T om = T(1) - d;
  return d / (T(2) * om * sqrt_of(om));
}

// --------------------------------------------------------- LayerNorm division (Lemma 8, C.6)
// Exact closed form (proofs/LayerNorm.v:layernorm_division_closed_form, and squared
// layernorm_division_squared_entry, for the LayerNorm of decoder_layer.hpp): for
// v = [N c, y/M, -N c - S/M, 0 ...] of length L, S = sum y, LayerNorm eps e:
//   sqrt(2/L) M N lambda(v)_y = (y/|c|) / sqrt(1 + S/(N c M) + (S^2 + |y|^2)/(2 N^2 c^2 M^2)
//                                                 + e L/(2 N^2 c^2)).
// The radicand (the square of the denominator), square-root free: the exact rational mode
// checks the squared identity with it.
template <class T>
T layernorm_division_denominator_squared(const T& S, const T& y2, const T& c, const T& N,
                                         const T& M, const T& L, const T& ln_eps) {
  const T Nc = N * c;
  return T(1) + S / (Nc * M) + (S * S + y2) / (T(2) * Nc * Nc * M * M) +
         ln_eps * L / (T(2) * Nc * Nc);
}
template <class T>
T layernorm_division_denominator(const T& S, const T& y2, const T& c, const T& N, const T& M,
                                 const T& L, const T& ln_eps) {
  return sqrt_of(layernorm_division_denominator_squared(S, y2, c, N, M, L, ln_eps));
}

// Second-order remainder of the relative error: with delta = S/(NcM) + q, q >= 0 the rest,
// 1/sqrt(1 + delta) = 1 - delta/2 + R with, for |delta| < 1,
//   |R| <= (3/8) delta^2 / ((1 - |delta|)^2 sqrt(1 - |delta|))    (inv_sqrt_second_order_remainder,
// the formula of proofs/AkyurekBounds.v:layernorm_division_remainder). So the relative error of
// the division is -S/(2NcM) + rho, rho = -q/2 + R, and |rho| <= q/2 + that bound
// (proofs/LayerNorm.v:layernorm_division_relative_error, same formula).
template <class T>
T inv_sqrt_second_order_remainder(const T& delta) {
  const T ad = abs_of(delta);
  const T one = ratio_like(delta, 1);
  if (!(ad < one)) throw std::domain_error("LayerNorm division: |delta| >= 1, N M too small");
  const T one_minus = one - ad;
  return ratio_like(delta, 3) / ratio_like(delta, 8) * delta * delta /
         (one_minus * one_minus * sqrt_of(one_minus));
}

template <class T>
T layernorm_division_first_order_remainder(const T& S, const T& y2, const T& c, const T& N,
                                           const T& M, const T& L, const T& ln_eps) {
  const T Nc = N * c;
  const T two = ratio_like(S, 2);
  const T q = (S * S + y2) / (two * Nc * Nc * M * M) + ln_eps * L / (two * Nc * Nc);
  const T delta = S / (Nc * M) + q;
  return q / two + inv_sqrt_second_order_remainder(delta);
}

// ------------------------------------------------------------- hard attention (C.4.1)
// Logits Natt on the a >= 1 targets K(i), 0 on the b others: each target weight is
// 1/(a + b e^-Natt), each other e^-Natt/(a + b e^-Natt); against the uniform average m over K(i)
// the output moves by exactly e^-Natt sum_j (v_j - m) / (a + b e^-Natt), at most
// 2 b e^-Natt max |v|  (proofs/AkyurekLayerBounds.v:hard_attention_deviation, same formula).
template <class T>
T hard_attention_bound(const T& Natt, long others, const T& max_value) {
  return T(2) * T(others) * exp_value(T(-Natt)) * max_value;
}

}  // namespace iclproof::raw
