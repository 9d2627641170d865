// The tolerance of a check, from the named error bounds (core/rounding_error_bounds.hpp: each a
// formula in the unit roundoff u = eps/2 = 2^-p of the working precision, the sizes and the
// data's scale, with the source of the bound). Properties compute their tolerance from these
// (separately from the code under test) and fail on !(err <= bound).
#pragma once

#include "core/rounding_error_bounds.hpp"
#include "core/scalar.hpp"

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

}  // namespace iclproof
