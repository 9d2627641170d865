// The certificate that mu is a lower bound on sigma_min(X)^2 (proofs/SingularValueCertificate.v,
// src/references/singular_value_certificate.hpp): the exact PSD factorisation and its check,
// exact cases with known singular values (rank-deficient, d < N, d > N, X = 0), and the
// floating-point candidate search at every scalar of the ridge -> min-norm property's
// floating-point branch.
#include "references/singular_value_certificate.hpp"
#include "core/precision.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace iclproof;

namespace {
using Q = rational_real;

template <class S>
Mat<S> matrix_of(int rows, int cols, std::initializer_list<int> entries) {
  Mat<S> m(rows, cols);
  auto it = entries.begin();
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) m(i, j) = S(*it++);
  return m;
}

// Rows u1, u2, 0, 3 u1 with u1 = (1, 1, 1, 1), u2 = (1, -1, 1, -1) orthogonal, |u|^2 = 4: then
// X^T X = 10 u1^T u1 + u2^T u2, so the nonzero singular values squared are 40 and 4 (rank 2 of 4).
template <class S>
Mat<S> rank_two_rows() {
  return matrix_of<S>(4, 4, {1, 1, 1, 1, 1, -1, 1, -1, 0, 0, 0, 0, 3, 3, 3, 3});
}

Q power_of_two(int e) {
  return e >= 0 ? Q(boost::multiprecision::mpz_int(1) << e)
                : Q(1) / Q(boost::multiprecision::mpz_int(1) << -e);
}
}  // namespace

TEST_CASE("exact PSD certificate: M = L diag(D) L^T and D >= 0 checked exactly, non-PSD refused",
          "[rational]") {
  const Mat<Q> B = matrix_of<Q>(3, 2, {1, 2, -1, 0, 3, 1});
  for (const Mat<Q>& M : {Mat<Q>(matmul_nt(B, B)), Mat<Q>(Mat<Q>::Zero(3, 3)),
                          matrix_of<Q>(3, 3, {0, 0, 0, 0, 2, 1, 0, 1, 1})}) {
    const auto f = psd_ldl_factorisation(M);
    REQUIRE(f.has_value());
    CHECK(is_psd_certificate(M, *f));
    ldl_factors broken = *f;  // the check is of the product, not of the elimination
    broken.L(2, 0) += Q(1, 3);
    broken.D(0) += Q(1);
    CHECK_FALSE(is_psd_certificate(M, broken));
  }
  // Indefinite, a zero diagonal with a nonzero row, negative diagonal, not symmetric.
  for (const Mat<Q>& M : {matrix_of<Q>(2, 2, {1, 2, 2, 1}), matrix_of<Q>(2, 2, {0, 1, 1, 1}),
                          matrix_of<Q>(2, 2, {1, 0, 0, -1}), matrix_of<Q>(2, 2, {1, 0, 1, 1})})
    CHECK_FALSE(psd_ldl_factorisation(M).has_value());
  // A negative D is refused even when the product matches.
  const ldl_factors negative{Mat<Q>::Identity(1, 1), Vec<Q>::Constant(1, Q(-1))};
  CHECK_FALSE(is_psd_certificate(Mat<Q>::Constant(1, 1, Q(-1)), negative));
  CHECK_THROWS_AS(psd_ldl_factorisation(Mat<Q>::Zero(2, 3)), std::invalid_argument);
}

TEST_CASE("the singular-value certificate accepts every mu <= sigma_min^2 and refuses mu above",
          "[references][rational]") {
  // sigma_min^2 exactly: 4 (rank 2 of 4, N = d), 4 (its transpose: the same nonzero singular
  // values), 1 (X = [2 1; 1 2], singular values 3 and 1, full rank), 2 (d = 2 < N = 3).
  struct exact_case {
    Mat<Q> X;
    Q sigma_min_sq;
  };
  const Mat<Q> rows = rank_two_rows<Q>();
  for (const exact_case& c : {exact_case{rows, Q(4)}, exact_case{Mat<Q>(rows.transpose()), Q(4)},
                              exact_case{matrix_of<Q>(2, 2, {2, 1, 1, 2}), Q(1)},
                              exact_case{matrix_of<Q>(2, 3, {1, 1, 0, 1, -1, 0}), Q(2)}}) {
    CAPTURE(c.X.rows(), c.X.cols(), full_digits(c.sigma_min_sq));
    CHECK(certifies_sv_lower_bound(c.X, c.sigma_min_sq));
    CHECK(certifies_sv_lower_bound(c.X, Q(c.sigma_min_sq * (Q(1) - power_of_two(-200)))));
    CHECK(certifies_sv_lower_bound(c.X, Q(0)));
    CHECK_FALSE(certifies_sv_lower_bound(c.X, Q(c.sigma_min_sq * (Q(1) + power_of_two(-200)))));
    CHECK_FALSE(certifies_sv_lower_bound(c.X, Q(c.sigma_min_sq + 1)));
  }
  // X = 0: the range of X^T is {0}, so every mu is a lower bound (vacuously).
  CHECK(certifies_sv_lower_bound(Mat<Q>::Zero(3, 2), Q(1000)));
}

TEST_CASE("exact_rational is the exact value of double, long double and MPFR numbers",
          "[references][rational]") {
  CHECK(exact_rational(1.0 + std::ldexp(1.0, -52)) == Q(1) + power_of_two(-52));
  CHECK(exact_rational(1.0L + std::ldexp(1.0L, -63)) == Q(1) + power_of_two(-63));
  CHECK(exact_rational(std::ldexp(3.0L, -16400)) == Q(3) * power_of_two(-16400));
  scoped_mpfr_precision p(1024);
  using boost::multiprecision::ldexp;
  CHECK(exact_rational(mpfr_real(mpfr_real(1) + ldexp(mpfr_real(1), -1000))) ==
        Q(1) + power_of_two(-1000));
}

TEMPLATE_TEST_CASE(
    "certified_sv_lower_bound: a certified mu within 2^-(p/2) of sigma_min^2 for "
    "every floating scalar, none from an estimate far above",
    "[references]", double, long double, mpfr_real) {
  using T = TestType;
  for (const int bits : {256, 1024}) {
    scoped_mpfr_precision p(bits);
    if (!std::is_same_v<T, mpfr_real> && bits > 256) break;
    const int p_bits = scalar_traits<T>::bits();
    CAPTURE(p_bits);
    const Mat<T> X = rank_two_rows<T>();  // sigma_min^2 = 4 exactly
    const Vec<T> sv = singular_values<T>(X);
    const T smin = sv(1);
    const auto mu = certified_sv_lower_bound<T>(X, smin);
    REQUIRE(mu.has_value());
    CAPTURE(full_digits(*mu));
    CHECK(exact_rational(*mu) <= Q(4));
    // The first candidate passed: mu = smin^2 (1 - 2^-(p/2)) (to a few roundings), smin within a
    // few eps of 2.
    CHECK(exact_rational(*mu) >= Q(4) * (Q(1) - power_of_two(-(p_bits / 2 - 2))));
    // An estimate 2^-(p/4 + 1) too high: the first candidates are refused, a later one passes.
    using std::ldexp;
    const T high = smin * T(T(1) + ldexp(T(1), -(p_bits / 4 + 1)));
    const auto mu_high = certified_sv_lower_bound<T>(X, high);
    REQUIRE(mu_high.has_value());
    CHECK(exact_rational(*mu_high) <= Q(4));
    // sigma_max (40 = 10 sigma_min^2): no candidate mu_s >= sigma_max^2 / 2 is at or below 4.
    CHECK_FALSE(certified_sv_lower_bound<T>(X, sv(0)).has_value());
  }
}
