// Rounding bounds that follow the computation through a stack of layers or steps (issue 41,
// item 2), for the Memformer, LFOM-reference and CG checks (properties/memformer.hpp,
// references_first_order.hpp).
//
// The a-priori shadows of properties/rounding_shadow.hpp run every earlier layer in absolute
// values, so they grow like (I + |C| |X|^T |X| / N)^l while the layers themselves contract: at
// depth 6-12 they were 10^5-10^7 above the errors. Here instead:
//
//  * The reference side is evaluated EXACTLY (GMP rationals, from the exact values of the
//    realised inputs) and rounded once to T: its error is <= eps |ref| per entry (one rounding;
//    a truncating conversion included), not a bound on a second floating-point program.
//  * The program under test (a straight-line program of +, -, x and division by exact integers)
//    has state rows s_0 (exact), s_1, ..., s_L whose EXACT update is linear in the earlier states
//    (plus terms of the inputs only):  s*_(m+1) = c_m + sum_(j<=m) s*_j L_(m,j).
//    Layer m, run on its realised inputs s_0..s_m, returns s_(m+1) = c_m + sum_j s_j L_(m,j) +
//    delta_(m+1), and by Higham, ASNA 2nd ed., Lemma 3.1 and section 3.1 applied to THAT ONE
//    layer (a program of depth n whose shadow is the layer run in absolute values on |s_j|):
//        |delta_(m+1)| <= gamma_n shadow_m(|s_0|, ..., |s_m|)        (the local bound)
//    at the realised intermediates, not at the shadows of earlier layers (2 gamma_n times the
//    computed shadow: rounding_shadow::shadow_bound). The errors e_m = s_m - s*_m then satisfy
//    e_(m+1) = delta_(m+1) + sum_j e_j L_(m,j) exactly, so
//        e_m = sum_(k=1..m) delta_k Phi(m, k),  Phi(k, k) = I,  Phi(m+1, k) = sum_(j=k..m)
//        Phi(j, k) L_(m,j),
//        |e_m| <= sum_k |delta_k| |Phi(m, k)|  (entrywise: the triangle inequality).
//    Phi is the propagator of the exact linear recurrence, WITH its signs: its cancellations are
//    what keeps the errors from compounding. It is computed in double from the inputs (each
//    conversion to double one more rounding), and by the same lemma |Phi - fl(Phi)| <=
//    gamma_n' Phi_hat, Phi_hat the propagator recurrence run on |L| (computed alongside), so
//        |Phi| <= |fl(Phi)| + 2 gamma_n'(double) fl(Phi_hat)              (second order in u).
//    The sums of nonnegative terms in T are rounded too: the result is scaled by 1 + 2 gamma_k,
//    k the number of terms + 2 (a computed sum of nonnegative terms is >= (1 - gamma_k) times
//    the exact one, and 1 / (1 - g) <= 1 + 2 g for g <= 1/2).
// Everything here is a rigorous upper bound, HAND-DERIVED (the argument above, from Higham's
// lemma and the triangle inequality; not machine-checked), with no first-order model and no
// tuned constant. The depths n of each layer's program are
// the families' (properties/zform_checks.hpp); n' is stated where a propagator is built.
#pragma once

#include "core/linalg.hpp"
#include "core/rational.hpp"
#include "core/rounding_error_bounds.hpp"
#include "rounding_shadow.hpp"

#include <stdexcept>
#include <vector>

namespace iclproof::propagated_rounding {

// The exact value of every entry (a binary float is a dyadic rational; Boost converts each
// exactly: mpq_set_d, frexp/ldexp, generic float2rational).
template <class T>
Mat<rational_real> exact_of(const Mat<T>& M) {
  return M.unaryExpr([](const T& x) { return rational_real(x); });
}
template <class T>
rational_real exact_of(const T& x) {
  return rational_real(x);
}

// The exact values rounded once to T (within one ulp: |x - rounded| <= eps |x|).
template <class T>
Mat<T> rounded_from_exact(const Mat<rational_real>& M) {
  if constexpr (is_exact_scalar<T>)
    return M;
  else
    return M.unaryExpr([](const rational_real& x) { return T(x); });
}

// The error bound of one rounding of the exact reference to T, per entry: 2 eps |rounded|
// (>= eps |exact| for any faithful conversion, with room for the (1 + eps) between them).
template <class T>
Mat<T> rounding_of_reference(const Mat<T>& rounded) {
  return abs_of(rounded) * T(T(2) * eps<T>());
}

// The propagator data of a recurrence of 1 x dim rows (see the header): L[m][j] and its
// shadow L_hat[m][j] (dim x dim, in double; j = 0..m, m = 0..M-1; an empty matrix stands for a
// zero block), and the rounding depth of one entry of L (from the inputs, conversions to double
// included).
struct linear_recurrence {
  Eigen::Index dim = 0;
  std::vector<std::vector<Mat<double>>> L, L_hat;
  double entry_depth = 0;
};

// |Phi(m, k)| upper bounds (entrywise), m >= k >= 1, for m, k = 1..M as the header defines; the
// result up[k][m - k].
inline std::vector<std::vector<Mat<double>>> propagator_bounds(const linear_recurrence& r) {
  const int M = static_cast<int>(r.L.size());
  const Eigen::Index n = r.dim;
  // Depth of an entry of Phi(m, k): the entries of L, then per step one product (n terms) and
  // a sum over <= M earlier states.
  const double depth = r.entry_depth + M * (n + M + 2.0);
  const double two_gamma = 2.0 * higham_gamma<double>(depth);
  if (!(two_gamma <= 1.0))
    throw std::domain_error("propagator bound: gamma_n > 1/2 in double, the bound is void");
  std::vector<std::vector<Mat<double>>> up(M + 1);
  for (int k = 1; k <= M; ++k) {
    std::vector<Mat<double>> phi{Mat<double>::Identity(n, n)}, phi_hat{Mat<double>::Identity(n, n)};
    for (int m = k; m < M; ++m) {  // Phi(m + 1, k) = sum_(j = k..m) Phi(j, k) L[m][j]
      Mat<double> next = Mat<double>::Zero(n, n), next_hat = Mat<double>::Zero(n, n);
      for (int j = k; j <= m; ++j) {
        if (r.L[m][j].size() == 0) continue;
        next += phi[j - k] * r.L[m][j];
        next_hat += phi_hat[j - k] * r.L_hat[m][j];
      }
      phi.push_back(next);
      phi_hat.push_back(next_hat);
    }
    for (std::size_t i = 0; i < phi.size(); ++i)
      up[k].push_back(Mat<double>(phi[i].cwiseAbs() + two_gamma * phi_hat[i]));
  }
  return up;
}

// The entrywise bound on |e_m| from the local bounds local[1..m] (1 x dim rows, local[0]
// unused) and the propagator bounds: (1 + 2 gamma_k) sum_(k=1..m) local[k] up[k][m - k].
template <class T>
Mat<T> propagated_bound(const std::vector<std::vector<Mat<double>>>& up,
                        const std::vector<Mat<T>>& local, int m) {
  const Eigen::Index n = local.back().cols();
  Mat<T> B = Mat<T>::Zero(1, n);
  for (int k = 1; k <= m; ++k) B += matmul(local[k], Mat<T>(up[k][m - k].template cast<T>()));
  const T scale = T(1) + T(2) * higham_gamma<T>(m * static_cast<double>(n) + 2.0);
  return B * scale;
}

// B_0 = 0, B_1..B_M: propagated_bound at every m.
template <class T>
std::vector<Mat<T>> propagated_bounds(const std::vector<std::vector<Mat<double>>>& up,
                                      const std::vector<Mat<T>>& local) {
  const int M = static_cast<int>(local.size()) - 1;
  std::vector<Mat<T>> B{Mat<T>::Zero(1, local.back().cols())};
  for (int m = 1; m <= M; ++m) B.push_back(propagated_bound<T>(up, local, m));
  return B;
}

}  // namespace iclproof::propagated_rounding
