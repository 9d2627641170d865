// An exact expectation of a polynomial of total degree <= 5 in n independent coordinates
// z_1..z_n, each with a symmetric law of moments E z_k^2 = s2, E z_k^4 = m4: a fully symmetric
// cubature rule with 2 n^2 + 1 nodes (Stroud, "Approximate Calculation of Multiple Integrals",
// 1971, rule E_n^{r^2} 5-2 for the Gaussian; here with the moments as parameters so that the same
// rule serves U(-a, a) and N(0, sigma^2)).
//
// Nodes and weights: the origin (weight A), +-r e_k (weight B each), +-s e_k +- s e_l, k < l
// (weight C each). By symmetry every odd monomial integrates to 0 under the rule and under the
// law; the even monomials of degree <= 4 are 1, z_k^2, z_k^4, z_k^2 z_l^2, and the rule
// reproduces their moments iff
//   z_k^2 z_l^2:  4 C s^4 = s2^2
//   z_k^4:        2 B r^4 + 4 (n-1) C s^4 = m4
//   z_k^2:        2 B r^2 + 4 (n-1) C s^2 = s2
//   1:            A + 2 n B + 2 n (n-1) C = 1.
// With r^2 = (n + 2) s2 (Stroud's choice for the Gaussian) these give
//   C = s2^2 / (4 s^4),  B = (m4 - (n-1) s2^2) / (2 r^4),
//   s^2 = (n-1) s2^2 / (s2 - 2 B r^2),  A = 1 - 2 n B - 2 n (n-1) C,
// which needs s2 - 2 B r^2 > 0, i.e. m4 / s2^2 < 2 n + 1 (true for n >= 2 whenever the kurtosis
// m4 / s2^2 is below 5: Gaussian 3, uniform 9/5). For n = 1 there are no pair nodes and
// r^2 = m4 / s2, B = s2^2 / (2 m4). For N(0, 1) this is Stroud's rule: A = 2/(n+2),
// B = (4-n)/(2(n+2)^2), C = 1/(n+2)^2, s^2 = (n+2)/2. B < 0 for large n (the rule is exact for
// polynomials, not positive); the caller's rounding bound uses sum |w_i| |f_i|.
//
// The rule is exact (up to the rounding of its nodes and weights) for every polynomial of total
// degree <= 5; it is NOT exact at degree 6 (tests/unit/population_optima_test.cpp shows z_1^6).
#pragma once

#include "core/eigen_scalar.hpp"

#include <boost/multiprecision/mpfr.hpp>

#include <cmath>
#include <stdexcept>

namespace iclproof {

template <class T>
struct cubature_sum {
  T value;         // sum_i w_i f(z_i): E f exactly for deg f <= 5, up to rounding
  T abs_weighted;  // sum_i |w_i| * magnitude_i, the scale of the rounding error of the sum
  int nodes = 0;
};

// f(z) returns {f(z), a magnitude >= |f(z)| that bounds the rounding scale of evaluating f at z}.
template <class T, class F>
cubature_sum<T> symmetric_degree5_expectation(int n, const T& s2, const T& m4, F&& f) {
  using boost::multiprecision::abs;
  using boost::multiprecision::sqrt;
  using std::abs;
  using std::sqrt;
  if (n < 1) throw std::invalid_argument("symmetric_degree5_expectation: n must be >= 1");
  cubature_sum<T> out{T(0), T(0), 0};
  auto add = [&](const T& w, const Vec<T>& z) {
    const auto [v, mag] = f(z);
    out.value += w * v;
    out.abs_weighted += T(abs(w)) * mag;
    ++out.nodes;
  };
  Vec<T> z = Vec<T>::Zero(n);
  if (n == 1) {
    const T r = sqrt(T(m4 / s2)), B = T(s2 * s2 / T(T(2) * m4));
    add(T(T(1) - T(2) * B), z);
    for (const int sign : {1, -1}) {
      z(0) = T(sign) * r;
      add(B, z);
    }
    return out;
  }
  const T nn(n), r2 = T(T(n + 2) * s2), B = T(T(m4 - T(n - 1) * s2 * s2) / T(T(2) * r2 * r2));
  const T denominator = T(s2 - T(2) * B * r2);
  if (!(denominator > T(0)))
    throw std::invalid_argument(
        "symmetric_degree5_expectation: kurtosis m4 / s2^2 >= 2 n + 1, no real pair nodes");
  const T s_2 = T(T(n - 1) * s2 * s2 / denominator), C = T(s2 * s2 / T(T(4) * s_2 * s_2));
  const T A = T(T(1) - T(2) * nn * B - T(2) * nn * T(n - 1) * C);
  const T r = sqrt(r2), s = sqrt(s_2);
  add(A, z);
  for (int k = 0; k < n; ++k)
    for (const int sign : {1, -1}) {
      z.setZero();
      z(k) = T(sign) * r;
      add(B, z);
    }
  for (int k = 0; k < n; ++k)
    for (int l = k + 1; l < n; ++l)
      for (const int sk : {1, -1})
        for (const int sl : {1, -1}) {
          z.setZero();
          z(k) = T(sk) * s;
          z(l) = T(sl) * s;
          add(C, z);
        }
  return out;
}

}  // namespace iclproof
