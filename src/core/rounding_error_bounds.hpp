// Named rounding-error bounds: each a formula in the unit roundoff u = eps/2 = 2^-p of the working
// precision and the sizes, with its source (Higham, Accuracy and Stability of Numerical
// Algorithms, 2nd ed.). In core, not in the test harness, because constructions use them too
// (the RAW layer bounds, src/raw/layer_bounds.hpp); the properties' tolerances build on them
// (harness/tolerance.hpp).
#pragma once

#include "core/scalar.hpp"

#include <stdexcept>

namespace iclproof {

template <class T>
T unit_roundoff() {
  return eps<T>() / T(2);
}

// Higham, Accuracy and Stability of Numerical Algorithms (2nd ed.), eq. (3.8):
//   gamma_n = n u / (1 - n u).
// Higham defines it for n u < 1; we accept only n u < 1/2 (gamma_n < 1) and throw
// std::domain_error otherwise: past that a relative rounding bound of 100% or more says
// nothing, and the first-order uses (the RAW layer bounds, src/raw/layer_bounds.hpp) and the
// computed shadows (properties/rounding_shadow.hpp, which needs gamma_n <= 1/2) are void.
// The one gamma_n of the project: every tolerance that counts rounded operations calls it.
template <class T>
T higham_gamma(double n) {
  const T nu = T(n) * unit_roundoff<T>();
  if (!(nu < T(1) / T(2))) throw std::domain_error("higham_gamma: n u >= 1/2, the bound is void");
  return nu / (T(1) - nu);
}

// |fl(x^T y) - x^T y| <= gamma_n |x|^T |y|  (Higham eq. (3.5)); for matrix products entrywise
// |fl(AB) - AB| <= gamma_k |A| |B| with k the inner dimension (Higham eq. (3.13)).
template <class T>
T dot_product_bound(double n, const T& abs_dot) {
  return higham_gamma<T>(n) * abs_dot;
}

// Forward error of a Cholesky solve A x = b, A SPD of order n (Higham Thm 10.4 with
// ||dA||_2 <= 4 n (3n + 1) u ||A||_2, then the perturbation bound of Thm 7.2):
//   ||x_hat - x|| / ||x|| <= kappa c / (1 - kappa c),  c = 4 n (3n + 1) u.
template <class T>
T cholesky_solve_relative_bound(double n, const T& kappa) {
  const T c = T(4) * T(n) * T(3 * n + 1) * unit_roundoff<T>();
  const T kc = kappa * c;
  if (!(kc < T(1) / T(2)))
    throw std::domain_error("cholesky bound: kappa c >= 1/2, the bound is void");
  return kc / (T(1) - kc);
}

}  // namespace iclproof
