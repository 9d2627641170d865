// A certified lower bound mu on sigma_min(X)^2, the least NONZERO singular value of X squared,
// without a spectral theorem (proofs/SingularValueCertificate.v).
//
// The hypothesis of proofs/LeastSquares.v:ridge_tends_to_min_norm_least_squares is
// sv_lower_bound X mu: mu ||v||^2 <= ||v X||^2 for every row v in the range of X^T. With
// H = X X^T it follows from H^3 - mu H^2 being positive semidefinite (sv_lower_bound_of_psd),
// and that from an exact factorisation H^3 - mu H^2 = L diag(D) L^T with every D_i >= 0
// (sv_lower_bound_of_ldl). Here the factorisation is computed in exact rationals and then
// CHECKED (is_psd_certificate), so nothing rests on the elimination being right. The candidate
// mu comes from a floating-point sigma_min and is certified or refused; its floating-point
// origin does not enter the proof. mu above sigma_min^2 is always refused: H^3 - mu H^2 is then
// negative along sigma_min's left singular vector.
#pragma once

#include "core/rational.hpp"

#include <cmath>
#include <optional>

namespace iclproof {

// H^3 - mu H^2 with H = X X^T, exact: SingularValueCertificate.v:certificate_matrix, same formula.
inline Mat<rational_real> sv_certificate_matrix(const Mat<rational_real>& X,
                                                const rational_real& mu) {
  const Mat<rational_real> H = matmul_nt(X, X);
  const Mat<rational_real> H2 = matmul(H, H);
  return Mat<rational_real>(matmul(H2, H) - mu * H2);
}

// True iff H^3 - mu H^2 = L diag(D) L^T with D >= 0 is found and checked exactly, which proves
// sv_lower_bound X mu (SingularValueCertificate.v:sv_lower_bound_of_ldl). False when
// H^3 - mu H^2 is not positive semidefinite, i.e. when mu > sigma_min(X)^2 (and X != 0).
inline bool certifies_sv_lower_bound(const Mat<rational_real>& X, const rational_real& mu) {
  const Mat<rational_real> M = sv_certificate_matrix(X, mu);
  const std::optional<ldl_factors> f = psd_ldl_factorisation(M);
  return f.has_value() && is_psd_certificate(M, *f);
}

// The exact value of a double, long double or MPFR number as a rational (a binary float is a
// dyadic rational; Boost converts each exactly: mpq_set_d, frexp/ldexp, generic float2rational).
template <class T>
rational_real exact_rational(const T& x) {
  return rational_real(x);
}

// The largest mu_s = sigma_min^2 (1 - 2^-s), s = p/2, p/4, ..., 1 (p the significand bits of
// T, each mu_s rounded to T), that certifies_sv_lower_bound accepts for the exact rational value
// of X; nullopt if none does. sigma_min is a floating-point estimate of X's least nonzero
// singular value: a relative error below 2^-(p/2) costs nothing, a larger one a few smaller
// candidates. The returned mu is exactly the certified value (a T, so lambda / mu is one
// rounding), at most a relative 2^-(p/2) below sigma_min^2 when the first candidate passes.
template <class T>
std::optional<T> certified_sv_lower_bound(const Mat<T>& X, const T& sigma_min) {
  using std::ldexp;
  const Mat<rational_real> X_exact = X.unaryExpr([](const T& x) { return exact_rational(x); });
  for (int s = std::max(1, scalar_traits<T>::bits() / 2); s >= 1; s /= 2) {
    const T mu = sigma_min * sigma_min * T(T(1) - ldexp(T(1), -s));
    if (!(mu > T(0))) return std::nullopt;
    if (certifies_sv_lower_bound(X_exact, exact_rational(mu))) return mu;
  }
  return std::nullopt;
}

}  // namespace iclproof
