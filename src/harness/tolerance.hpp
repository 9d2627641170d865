// Named error bounds. Each is a formula in the unit roundoff u = eps/2 = 2^-p of the working
// precision, the sizes and the data's scale, with the source of the bound. Properties compute
// their tolerance from these (separately from the code under test) and fail on !(err <= bound).
#pragma once

#include "core/scalar.hpp"

#include <stdexcept>

namespace iclproof {

// The tolerance of a check, deferred:
//   const T bound = tolerance<T>([&](auto) { return <formula in eps, sizes, conditioning>; });
// For a floating-point T the formula is evaluated. For an exact T (rational_real) the claim is
// EQUALITY: the tolerance is exactly 0 and the formula is neither evaluated nor even compiled
// (the generic lambda's body is only instantiated when called), so it may use sqrt,
// eigenvalues, singular values and condition numbers, which Q does not have. Everything a
// tolerance needs that the check itself does not goes inside the lambda.
// A call in the formula that names a function an exact scalar lacks (sqrt_of, eigenvalues:
// deleted or constrained away) is resolved when the enclosing template is, unless it depends
// on the lambda's parameter: such formulas take the scalar from it,
//   tolerance<T>([&](auto tag) { using S = typename decltype(tag)::scalar; ... sqrt_of(S(d)) });
template <class T>
struct tolerance_formula_tag {
  using scalar = T;
};
template <class T, class Formula>
T tolerance(const Formula& formula) {
  if constexpr (is_exact_scalar<T>) {
    return T(0);
  } else {
    return formula(tolerance_formula_tag<T>{});
  }
}

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
