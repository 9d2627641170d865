// The rounding-shadow argument shared by the exact-identity checks of the von Oswald, Ahn and
// Memformer families and the first-order reference cross-checks (properties/vonoswald.hpp,
// ahn.hpp, memformer.hpp, references_first_order.hpp).
//
// Both sides of such a comparison are straight-line programs of +, -, x (and division by exact
// integers) on the same inputs that compute the SAME polynomial in exact arithmetic (the cited
// theorem). By Higham, ASNA 2nd ed., Lemma 3.1 and section 3.1 ("running the computation in
// absolute values"), a program whose longest chain of rounded operations has n operations
// computes
//     |fl(p) - p| <= gamma_n shadow(p),
// shadow(p) = the same program run on |inputs| with every - replaced by + (exactly). A shadow
// computed in floating point is >= (1 - gamma_n) times the exact one, so 2 gamma_n times the
// computed shadow bounds the error while gamma_n <= 1/2 (checked). The two sides then differ by
// at most 2 gamma_n (shadow_construction + shadow_reference). This is rigorous, not a
// first-order model; each family's header states its rounding depths n.
#pragma once

#include "core/linalg.hpp"
#include "harness/property.hpp"
#include "harness/tolerance.hpp"

#include <stdexcept>
#include <string>

namespace iclproof::rounding_shadow {

// 2 gamma_n times a computed shadow (the sum of both programs' shadows where two programs are
// compared): the rounding bound of the header comment. Throws std::domain_error where
// gamma_n > 1/2, outside the argument's range.
template <class T>
T shadow_bound(double depth, const T& shadow) {
  const T g = higham_gamma<T>(depth);
  if (!(g <= T(1) / T(2)))
    throw std::domain_error("shadow bound: gamma_n > 1/2, the computed shadow proves nothing");
  return T(2) * g * shadow;
}

// A comparison of construction against reference within the rounding bound; a zero bound (all
// shadows zero: degenerate data such as X = 0) is checked as the exact equality it then claims
// (a 0 <= 0 check has no margin to report). In an exact scalar the bound is 0 (tolerance<T>)
// and the comparison is the equality, recorded as error 0 against tolerance 0.
template <class T>
void compare_within(case_context& ctx, const std::string& label, const Mat<T>& computed,
                    const Mat<T>& reference, const T& bound) {
  if (!is_exact_scalar<T> && bound == T(0) && computed.rows() == reference.rows() &&
      computed.cols() == reference.cols())
    ctx.require(label + " (exact: every shadow is zero)", computed == reference,
                "computed =\n" + case_context::matrix_full_digits(computed) + "reference =\n" +
                    case_context::matrix_full_digits(reference));
  else
    ctx.compare<T>(label, computed, reference, bound);
}

// The largest eigenvalue of H = X X^T / N, in double (only to scale step sizes; the scaled step
// sizes and weights are then exact doubles, so every precision sees the same weights).
inline double lambda_max_double(const Mat<double>& X) {
  const Mat<double> H = matmul_nt(X, X) / static_cast<double>(X.cols());
  const double l = symmetric_eigenvalues(H)(H.rows() - 1);
  return l > 0 ? l : 1.0;
}

}  // namespace iclproof::rounding_shadow
