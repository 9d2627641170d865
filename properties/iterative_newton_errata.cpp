// The reviewer's reading of Fu et al. 2024, Sec. 5 (the printed expansions of M_1 and M_2 do not
// follow from M_j = 2 M_{j-1} - M_{j-1} S M_{j-1}), registered as a finding of the errata table
// (src/report/findings.hpp). Its own file: a file that defines properties may not hold a
// registrar (properties/CMakeLists.txt).
//
// What is measured: the recursion's M_1, M_2 and the expansions of proofs/IterativeNewton.v
// (in_m1_expansion, in_m2_expansion) in exact rationals on S = [[2, 1], [1, 3]], alpha =
// 1/||S||_F^2 = 1/15. The printed expansions could not be read here (the paper's text was not
// available; docs/constructions/iterative_newton.md), so the paper's side is not evaluated and
// the finding does not claim an erratum: its status is "not reproduced" by construction.
#include "core/linalg.hpp"
#include "core/rational.hpp"
#include "iterative_newton/iterative_newton_weights.hpp"
#include "newton_schulz/newton_schulz_weights.hpp"
#include "report/findings.hpp"

#include <string>

namespace {

using namespace iclproof;
using Q = rational_real;

std::string matrix_text(const Mat<Q>& m) {
  std::string s = "[";
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    s += i ? "; [" : "[";
    for (Eigen::Index j = 0; j < m.cols(); ++j) s += (j ? ", " : "") + full_digits(m(i, j));
    s += "]";
  }
  return s + "]";
}

finding_measurement measure_sec5_expansions() {
  Mat<Q> S(2, 2);
  S << Q(2), Q(1), Q(1), Q(3);
  const Q a = inverse_frobenius_squared_alpha<Q>(S);
  const auto M = newton_schulz_iterates<Q>(S, Mat<Q>(S * a), 2);
  const Mat<Q> S2 = matmul(S, S), S3 = matmul(S2, S), S5 = matmul(S3, S2), S7 = matmul(S5, S2);
  const Mat<Q> E1 = S * Q(Q(2) * a) - S3 * Q(a * a);
  const Mat<Q> E2 =
      S * Q(Q(4) * a) - S3 * Q(Q(6) * a * a) + S5 * Q(Q(4) * a * a * a) - S7 * Q(a * a * a * a);
  const bool equal = E1 == M[1] && E2 == M[2];
  return finding_measurement{
      "M_1, M_2 of the recursion M_j = 2 M_{j-1} - M_{j-1} S M_{j-1} from M_0 = alpha S, and the "
      "expansions 2aS - a^2 S^3, 4aS - 6a^2 S^3 + 4a^3 S^5 - a^4 S^7, exact rationals",
      "the printed expansions of Sec. 5 were not read (paper text unavailable to this check): "
      "not evaluated",
      "M_1 = " + matrix_text(M[1]) + ", M_2 = " + matrix_text(M[2]) +
          (equal ? "; the expansions equal them exactly" : "; the expansions DIFFER"),
      "an erratum is confirmed only when the printed polynomials are evaluated and differ; "
      "not evaluated here",
      false,
      "exact rationals; S = [[2, 1], [1, 3]], alpha = 1/||S||_F^2 = " + full_digits(a)};
}

const finding_registrar sec5_expansions{finding{
    "iterative_newton.sec5_expansions_of_m1_m2",
    "iterative_newton",
    "Sec. 5's printed expansions of M_1 and M_2 (a reviewer's reading): not settled against the "
    "print",
    "Fu, Chen, Jia, Sharan 2024, Sec. 5 (eq. (5): M_k = 2 M_{k-1} - M_{k-1} S M_{k-1})",
    "a reviewer reads the printed M_1, M_2 as not following from eq. (5); the printed text was "
    "not available to this check",
    "from M_0 = alpha S and eq. (5): M_1 = 2 alpha S - alpha^2 S^3, M_2 = 4 alpha S - 6 alpha^2 "
    "S^3 + 4 alpha^3 S^5 - alpha^4 S^7 (proofs/IterativeNewton.v: in_m1_expansion, "
    "in_m2_expansion; Qed)",
    "not read",
    "M_1 = [[1/5, 2/45], [2/45, 11/45]], M_2 = [[8/27, -1/81], [-1/81, 23/81]] at S = [[2, 1], "
    "[1, 3]], alpha = 1/15",
    {"iterative_newton.m1_and_m2_are_the_polynomials_of_the_recursion"},
    &measure_sec5_expansions}};

}  // namespace
