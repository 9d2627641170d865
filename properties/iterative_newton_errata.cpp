// Fu et al. 2024's expansions of M_1 and M_2 (Sec. 5, repeated with the derivation in App. B.3
// eqs. (38)-(39)), registered as a finding of the errata table (src/report/findings.hpp). Its own
// file: a file that defines properties may not hold a registrar (properties/CMakeLists.txt).
//
// The printed text (NeurIPS 2024 version, read from a Markdown transcription of the PDF stored in
// a public repository; docs/constructions/iterative_newton.md says how it was found):
//   Sec. 5:  M_1 = 2 alpha S - 4 alpha^2 S^3,
//            M_2 = 4 alpha S - 12 alpha^2 S^3 + 16 alpha^3 S^5 - 16 alpha^4 S^7,
//   App. B.3 eq. (38): M_1 = 2 M_0 - M_0 S M_0 = 2 alpha S^T - 4 alpha^2 S^T S S^T, with
//            M_0 = alpha S^T (eq. (37)); eq. (39) derives M_2 from that M_1 by the recursion.
// From M_0 = alpha S the recursion gives M_0 S M_0 = alpha^2 S^3, so M_1 = 2 alpha S - alpha^2 S^3
// (proofs/IterativeNewton.v: in_m1_expansion). The printed M_2 is the recursion applied to the
// printed M_1 (checked below): the slip is the factor 4 in M_1's quadratic term, and M_2 carries
// it on. What is measured, in exact rationals on S = [[2, 1], [1, 3]], alpha = 1/||S||_F^2 =
// 1/15: the recursion's M_1, M_2, the printed polynomials and the corrected ones.
#include "iterative_newton_errata.hpp"

#include "core/linalg.hpp"
#include "core/rational.hpp"
#include "iterative_newton/iterative_newton_weights.hpp"
#include "newton_schulz/newton_schulz_weights.hpp"
#include "report/findings.hpp"

#include <fmt/format.h>

#include <string>
#include <vector>

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

// c_1 a S + c_3 a^2 S^3 + c_5 a^3 S^5 + c_7 a^4 S^7 (the coefficients of an odd polynomial in S).
Mat<Q> odd_polynomial(const Mat<Q>& S, const Q& a, const std::vector<int>& c) {
  Mat<Q> power = S, sum = Mat<Q>::Zero(S.rows(), S.cols());
  const Mat<Q> S2 = matmul(S, S);
  Q a_power = a;
  for (const int coefficient : c) {
    sum += power * Q(Q(coefficient) * a_power);
    power = matmul(power, S2);
    a_power = a_power * a;
  }
  return sum;
}

}  // namespace

namespace iclproof {

finding_measurement measure_sec5_expansions(const std::vector<int>& printed_m1_coefficients,
                                            const std::vector<int>& printed_m2_coefficients,
                                            const std::vector<int>& corrected_m1_coefficients,
                                            const std::vector<int>& corrected_m2_coefficients) {
  Mat<Q> S(2, 2);
  S << Q(2), Q(1), Q(1), Q(3);
  const Q a = inverse_frobenius_squared_alpha<Q>(S);
  const auto M = newton_schulz_iterates<Q>(S, Mat<Q>(S * a), 2);
  const Mat<Q> printed_m1 = odd_polynomial(S, a, printed_m1_coefficients);
  const Mat<Q> printed_m2 = odd_polynomial(S, a, printed_m2_coefficients);
  const Mat<Q> corrected_m1 = odd_polynomial(S, a, corrected_m1_coefficients);
  const Mat<Q> corrected_m2 = odd_polynomial(S, a, corrected_m2_coefficients);
  // App. B.3 eq. (39): the recursion applied to the printed M_1.
  const Mat<Q> step_of_printed_m1 = printed_m1 * Q(2) - matmul(matmul(printed_m1, S), printed_m1);
  const bool printed_differs = printed_m1 != M[1] && printed_m2 != M[2];
  const bool corrected_holds = corrected_m1 == M[1] && corrected_m2 == M[2];
  const bool m2_follows_printed_m1 = step_of_printed_m1 == printed_m2;
  return finding_measurement{
      "M_1, M_2 of the recursion M_j = 2 M_{j-1} - M_{j-1} S M_{j-1} from M_0 = alpha S, against "
      "the printed and the corrected polynomials in S, exact rationals",
      "printed 2aS - 4a^2 S^3 = " + matrix_text(printed_m1) +
          ", 4aS - 12a^2 S^3 + 16a^3 S^5 - 16a^4 S^7 = " + matrix_text(printed_m2) +
          (printed_differs ? " (both differ from the recursion)" : " (NOT both different)") +
          (m2_follows_printed_m1 ? "; the printed M_2 is one recursion step from the printed M_1"
                                 : "; the printed M_2 is NOT one step from the printed M_1"),
      "recursion M_1 = " + matrix_text(M[1]) + ", M_2 = " + matrix_text(M[2]) +
          (corrected_holds ? "; 2aS - a^2 S^3 and 4aS - 6a^2 S^3 + 4a^3 S^5 - a^4 S^7 equal them"
                           : "; the corrected polynomials DIFFER from them"),
      "exact equality: the printed polynomials differ from the recursion's M_1 and M_2 and the "
      "corrected ones equal them",
      printed_differs && corrected_holds,
      "exact rationals; S = [[2, 1], [1, 3]], alpha = 1/||S||_F^2 = " + full_digits(a)};
}

}  // namespace iclproof

namespace {

using namespace iclproof;
using Q = rational_real;

const finding_registrar sec5_expansions{finding{
    "iterative_newton.sec5_expansions_of_m1_m2",
    "iterative_newton",
    "Sec. 5 / App. B.3: M_1 has -4 alpha^2 S^3 for -alpha^2 S^3, and M_2 inherits it",
    "Fu, Chen, Jia, Sharan 2024, Sec. 5 (after eq. (10)) and App. B.3 eqs. (37)-(39)",
    "from M_0 = alpha S: M_1 = 2 alpha S - 4 alpha^2 S^3, M_2 = 4 alpha S - 12 alpha^2 S^3 + 16 "
    "alpha^3 S^5 - 16 alpha^4 S^7 (eq. (38) expands M_0 S M_0 as 4 alpha^2 S^3; eq. (39) applies "
    "the recursion to that M_1)",
    "M_0 S M_0 = alpha^2 S^3, so M_1 = 2 alpha S - alpha^2 S^3 and M_2 = 4 alpha S - 6 alpha^2 "
    "S^3 + 4 alpha^3 S^5 - alpha^4 S^7 (proofs/IterativeNewton.v: in_m1_expansion, "
    "in_m2_expansion; Qed); the paper's general form M_k = sum of odd powers beta_s S^s, s < "
    "2^(k+1), and Theorem 5.1 (whose layers compute the recursion itself, eq. (32)) are unaffected",
    "M_1 = [[0, -2/9], [-2/9, -2/9]], M_2 = [[-4/27, -52/81], [-52/81, -64/81]] (S = [[2, 1], "
    "[1, 3]], alpha = 1/15)",
    "M_1 = [[1/5, 2/45], [2/45, 11/45]], M_2 = [[8/27, -1/81], [-1/81, 23/81]]",
    {"iterative_newton.m1_and_m2_are_the_polynomials_of_the_recursion"},
    [] {
      return measure_sec5_expansions({2, -4}, {4, -12, 16, -16}, {2, -1}, {4, -6, 4, -1});
    }}};

// Sec. 3.1 eq. (5) and App. B.3 eq. (37) take alpha = 2/||S S^T||_2. For symmetric PSD S,
// ||S S^T||_2 = lambda_max^2, so the residual I - M_0 S = I - alpha S^2 has the eigenvalue
// 1 - 2 = -1 on the top eigenvector v, and I - M_k S = (I - alpha S^2)^(2^k)
// (proofs/IterativeNewton.v: in_residual_power) keeps the eigenvalue (-1)^(2^k) = 1 there for every
// k >= 1: M_k v = 0, so w_k = M_k X^T y never acquires w*'s component along v. Newton-Schulz
// converges for 0 < alpha < 2/lambda_max^2 (open interval); the authors' code's 1/||S S^T||_F
// and this project's 1/||S||_F^2 lie inside it. Measured on S = [[3, 1], [1, 3]] (eigenvalues
// 2, 4 with eigenvectors (1, -1), (1, 1)): ||S S^T||_2 = 16 exactly, alpha = 1/8.
finding_measurement measure_eq5_alpha() {
  Mat<Q> S(2, 2);
  S << Q(3), Q(1), Q(1), Q(3);
  Mat<Q> v(2, 1);
  v << Q(1), Q(1);
  const int k = 5;
  const Q paper_alpha = Q(2) / Q(16);  // 2/||S S^T||_2, ||S S^T||_2 = lambda_max(S)^2 = 16
  const Q inside_alpha = inverse_frobenius_squared_alpha<Q>(S);  // 1/20
  const auto paper = newton_schulz_iterates<Q>(S, Mat<Q>(S * paper_alpha), k);
  const auto inside = newton_schulz_iterates<Q>(S, Mat<Q>(S * inside_alpha), k);
  bool paper_lost = true;
  std::string paper_values, inside_values;
  for (int j = 1; j <= k; ++j) {
    const Mat<Q> pv = matmul(paper[j], v), iv = matmul(inside[j], v);
    paper_lost = paper_lost && pv(0, 0) == Q(0) && pv(1, 0) == Q(0);
    // fmt::format, not const char* + std::string: GCC 12 under the precompiled header warns
    // falsely on that operator+ (-Wstringop-overflow, the PR 105651 family).
    paper_values += fmt::format("{}{}", j > 1 ? ", " : "", full_digits(pv(0, 0)));
    inside_values += fmt::format("{}{}", j > 1 ? ", " : "", full_digits(iv(0, 0)));
  }
  // M_k v -> S^-1 v = v/4 with alpha inside the interval: the gap after k steps is exactly
  // (1/4)(1 - 16 alpha)^(2^k) = (1/4)(1/5)^32 at alpha = 1/20.
  Q gap = Q(1) / Q(4);
  for (int i = 0; i < (1 << k); ++i) gap = gap * (Q(1) - Q(16) * inside_alpha);
  const Q inside_error = Q(1) / Q(4) - matmul(inside[k], v)(0, 0);
  const bool inside_converges = inside_error == gap && gap > Q(0) && gap < Q(1) / Q(4);
  return finding_measurement{
      "first entry of M_j v, v = (1, 1) the top eigenvector of S = [[3, 1], [1, 3]] (S^-1 v = "
      "v/4), "
      "j = 1..5, exact rationals",
      "alpha = 2/||S S^T||_2 = 1/8: M_j v = " + paper_values + " (times (1, 1))" +
          (paper_lost ? ": zero at every step, the direction is never inverted" : ": NOT all zero"),
      "alpha = 1/||S||_F^2 = " + full_digits(inside_alpha) + ": M_j v = " + inside_values +
          " (times (1, 1)); 1/4 - M_5 v = " + full_digits(inside_error) +
          (inside_converges ? " = (1/4)(1 - 16 alpha)^32 exactly" : " (NOT the residual power)"),
      "exact: M_j v = 0 for j = 1..5 at the paper's alpha, and the residual power formula at an "
      "alpha inside (0, 2/lambda_max^2)",
      paper_lost && inside_converges,
      "exact rationals; k = 5 Newton steps"};
}

const finding_registrar eq5_alpha{finding{
    "iterative_newton.eq5_alpha_on_the_boundary",
    "iterative_newton",
    "Eq. (5)'s alpha = 2/||S S^T||_2 is the boundary of Newton-Schulz's convergence: the top "
    "eigendirection is never inverted",
    "Fu, Chen, Jia, Sharan 2024, Sec. 3.1 eq. (5) and App. B.3 eq. (37)",
    "M_0 = alpha S with alpha = 2/||S S^T||_2 gives O(log kappa + log log 1/eps) convergence",
    "I - M_k S = (I - alpha S^2)^(2^k) (proofs/IterativeNewton.v: in_residual_power) has the "
    "eigenvalue (1 - alpha lambda_max^2)^(2^k) = 1 at alpha = 2/lambda_max^2 = 2/||S S^T||_2: "
    "M_k maps the top eigenvector to 0 for every k >= 1; any alpha in (0, 2/||S S^T||_2), e.g. "
    "the authors' code's 1/||S S^T||_F or 1/||S||_F^2, converges",
    "M_k v = 0 for k = 1..5 (v = (1, 1), S = [[3, 1], [1, 3]], alpha = 1/8)",
    "M_k v -> v/4 (alpha = 1/20: 1/4 - M_5 v = (1/4)(1/5)^32)",
    {"iterative_newton.residual_is_i_minus_alpha_s_squared_to_the_2_to_the_k"},
    &measure_eq5_alpha}};

}  // namespace
