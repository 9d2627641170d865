// Unit tests of the exact scalar rational_real: exact equality, exact p/q text, log2, eps = 0,
// no square root (compile-time), the exact linear algebra of linalg_rational.cpp, and the
// harness's "not applicable" verdict for a property without a body in a kind.
#include "core/rational.hpp"
#include "harness/runner.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>

using namespace iclproof;
using R = rational_real;

namespace {
Mat<R> small_integer_matrix(Eigen::Index rows, Eigen::Index cols, int seed) {
  Mat<R> m(rows, cols);
  for (Eigen::Index j = 0; j < cols; ++j)
    for (Eigen::Index i = 0; i < rows; ++i) m(i, j) = R(((seed + 7 * i + 13 * j) * 37) % 11 - 5);
  return m;
}
}  // namespace

// Compile-time: the operations Q does not have are not callable on rational_real (the
// requirements are templates, so an unsatisfied one is false rather than an error).
template <class S>
concept has_sqrt_of = requires(const S& x) {
  sqrt_of(x);
};
template <class S>
concept has_pi_value = requires {
  pi_value<S>();
};
template <class S>
concept has_eigenvalues = requires(const Mat<S>& m) {
  symmetric_eigenvalues(m);
};
template <class S>
concept has_singular_values = requires(const Mat<S>& m) {
  singular_values(m);
};
template <class S>
concept has_condition_number = requires(const Mat<S>& m) {
  spd_condition_number(m);
};
static_assert(!has_sqrt_of<R> && has_sqrt_of<double> && has_sqrt_of<mpfr_real>);
static_assert(!has_pi_value<R> && has_pi_value<double>);
static_assert(!has_eigenvalues<R> && has_eigenvalues<double>);
static_assert(!has_singular_values<R> && !has_condition_number<R>);
static_assert(is_exact_scalar<R> && !is_exact_scalar<double> && !is_exact_scalar<mpfr_real>);

TEST_CASE("rational arithmetic is exact", "[rational]") {
  const R third = R(1) / R(3);
  CHECK(third * R(3) == R(1));
  CHECK(third + third + third == R(1));
  R h(0);
  for (int k = 1; k <= 10; ++k) h += R(1) / R(k);
  CHECK(h == R(7381) / R(2520));  // H_10 = 7381/2520
  // 0.1 as a double is an exact binary fraction, and the conversion keeps it exactly.
  CHECK(R(0.1) == R(3602879701896397LL) / R(36028797018963968LL));
  CHECK(R(0.1) != R(1) / R(10));
  CHECK(eps<R>() == R(0));
  CHECK(scalar_traits<R>::kind == scalar_kind::rational);
  CHECK(std::string(scalar_kind_name(scalar_kind::rational)) == "rational");
  CHECK(parse_scalar_kind("rational") == scalar_kind::rational);
}

TEST_CASE("rationals print as exact p/q and log2 is taken from p and q", "[rational]") {
  CHECK(full_digits(R(1) / R(3)) == "1/3");
  CHECK(full_digits(R(-6) / R(4)) == "-3/2");
  CHECK(full_digits(R(5)) == "5");
  CHECK(full_digits(R(0.1)) == "3602879701896397/36028797018963968");
  CHECK(log2_abs(R(1) / R(8)) == -3.0);
  CHECK(log2_abs(R(-1024)) == 10.0);
  CHECK(log2_abs(R(0)) == -std::numeric_limits<double>::infinity());
  // Far outside double's range: 2^-5000.
  R tiny(1);
  for (int k = 0; k < 5000; ++k) tiny /= R(2);
  CHECK(log2_abs(tiny) == -5000.0);
  CHECK(abs_of(R(-2) / R(7)) == R(2) / R(7));
}

TEST_CASE("exact solvers: zero residual, exact singularity and definiteness tests", "[rational]") {
  const Mat<R> B = small_integer_matrix(5, 3, 1);
  // Strictly diagonally dominant, hence nonsingular.
  const Mat<R> G = small_integer_matrix(5, 5, 2) + R(30) * Mat<R>::Identity(5, 5);
  const Mat<R> A = matmul_nt(G, G) + Mat<R>::Identity(5, 5);  // SPD
  const Mat<R> X = spd_solve(A, B);
  CHECK(matmul(A, X) == B);
  const Mat<R> Y = lu_solve(G, B);
  CHECK(matmul(G, Y) == B);
  CHECK(matmul(inverse(G), G) == Mat<R>(Mat<R>::Identity(5, 5)));
  // Not positive definite / singular: exact statements, thrown.
  Mat<R> indefinite = A;
  indefinite(0, 0) = R(-1);
  CHECK_THROWS_AS(spd_solve(indefinite, B), std::domain_error);
  Mat<R> singular = G;
  singular.col(4) = singular.col(0) + singular.col(1);
  CHECK_THROWS_AS(lu_solve(singular, B), std::domain_error);
  CHECK_THROWS_AS(spd_solve(Mat<R>(matmul_nt(singular, singular)), B), std::domain_error);
  CHECK(numerical_rank(singular) == 4);
}

TEST_CASE("exact min-norm least squares satisfies the four Penrose conditions", "[rational]") {
  // Rank 2, 4 x 6: rank-deficient in both directions.
  Mat<R> C(4, 2), F(2, 6);
  C << 1, 0, 0, 1, 1, 1, 2, -1;
  F << 1, 2, 0, 1, -1, 3, 0, 1, 1, -2, 1, 1;
  const Mat<R> A = matmul(C, F);
  REQUIRE(numerical_rank(A) == 2);
  const Mat<R> P = min_norm_lstsq(A, Mat<R>(Mat<R>::Identity(4, 4)));  // A^+
  CHECK(matmul(matmul(A, P), A) == A);
  CHECK(matmul(matmul(P, A), P) == P);
  const Mat<R> AP = matmul(A, P), PA = matmul(P, A);
  CHECK(AP == Mat<R>(AP.transpose()));
  CHECK(PA == Mat<R>(PA.transpose()));
  const Mat<R> V = null_space_basis(A);
  CHECK(V.cols() == 4);
  CHECK(matmul(A, V) == Mat<R>(Mat<R>::Zero(4, 4)));
  CHECK(min_norm_lstsq(Mat<R>(Mat<R>::Zero(3, 2)), Mat<R>(Mat<R>::Ones(3, 1))) ==
        Mat<R>(Mat<R>::Zero(2, 1)));
}

TEST_CASE("exact generalised inverse of a Gram matrix: H G H = H at every rank", "[rational]") {
  // X = C F of rank 2 (4 x 6), so H = X X^T (4 x 4) is singular; then full rank and zero.
  Mat<R> C(4, 2), F(2, 6);
  C << 1, 0, 0, 1, 1, 1, 2, -1;
  F << 1, 2, 0, 1, -1, 3, 0, 1, 1, -2, 1, 1;
  Mat<R> full(3, 4);
  full << 1, 2, 0, -1, 0, 1, 3, 1, 2, 0, 1, 1;
  for (const Mat<R>& X : {Mat<R>(matmul(C, F)), full, Mat<R>(Mat<R>::Zero(3, 2))}) {
    const Mat<R> H = matmul_nt(X, X);
    const Mat<R> G = psd_generalised_inverse(H);
    CHECK(matmul(matmul(H, G), H) == H);
    if (numerical_rank(H) == H.rows()) CHECK(G == inverse(H));
  }
  CHECK_THROWS_AS(psd_generalised_inverse(Mat<R>(Mat<R>::Zero(2, 3))), std::invalid_argument);
}

TEST_CASE("an exact check against a Qed bound: compared exactly, a certified failure otherwise",
          "[rational]") {
  run_config cfg;
  cfg.scalar = scalar_kind::rational;
  cfg.cases = 3;
  cfg.shrink = false;
  const property_info info{"rational.bound", "1/3 <= 1/2", {}};
  const auto good = run_body(
      info,
      [](case_context& ctx) {
        ctx.check_le_proved<R>("1/3 <= 1/2", R(R(1) / R(3)), R(R(1) / R(2)), "proofs/A.v:a");
      },
      cfg);
  CHECK(good.outcome == verdict::pass);
  CHECK(good.enclosed_checks == 3);
  CHECK(good.proved_bounds == std::vector<std::string>{"proofs/A.v:a"});
  CHECK(std::isfinite(good.worst_log2_bound));  // the bound, not "exact", is shown
  const auto bad = run_body(
      info,
      [](case_context& ctx) {
        // 1/2 + 1e-27 against 1/2: only an exact comparison sees it.
        const R off = R(1) / R(1000000000) / R(1000000000) / R(1000000000);
        ctx.check_le_proved<R>("1/2 + 1e-27 <= 1/2", R(R(1) / R(2) + off), R(R(1) / R(2)),
                               "proofs/A.v:a");
      },
      cfg);
  CHECK(bad.outcome == verdict::fail);
  CHECK(bad.failure.find("CERTIFIED FAIL") != std::string::npos);
  CHECK(bad.failure.find("proofs/A.v:a") != std::string::npos);
  // A plain check_le on the exact scalar still demands tolerance 0: only a Qed bound may be
  // nonzero.
  const auto misuse = run_body(
      info,
      [](case_context& ctx) { ctx.check_le<R>("1/3 <= 1/2", R(R(1) / R(3)), R(R(1) / R(2))); },
      cfg);
  CHECK(misuse.outcome == verdict::fail);
}

TEST_CASE("a rational check is equality: tolerance 0, error exactly 0 or a failure", "[rational]") {
  run_config cfg;
  cfg.scalar = scalar_kind::rational;
  cfg.cases = 3;
  cfg.shrink = false;
  const property_info info{"rational.equality", "1/3 + 1/6 = 1/2", {}};
  const auto good = run_body(
      info,
      [](case_context& ctx) {
        ctx.check_le<R>("1/3 + 1/6 vs 1/2", abs_of(R(R(1) / R(3) + R(1) / R(6) - R(1) / R(2))),
                        eps<R>());
      },
      cfg);
  CHECK(good.outcome == verdict::pass);
  CHECK(good.exact);
  CHECK(good.worst_log2_err == -std::numeric_limits<double>::infinity());
  CHECK(std::isinf(good.margin_log10));
  const auto bad = run_body(
      info,
      [](case_context& ctx) {
        const R off = R(1) / R(1000000000) / R(1000000000) / R(1000000000);  // 1e-27
        ctx.check_le<R>("off by 1e-27", off, eps<R>());
      },
      cfg);
  CHECK(bad.outcome == verdict::fail);
  CHECK(bad.failure.find("exact arithmetic") != std::string::npos);
  CHECK(bad.failure.find("1/1000000000000000000000000000") != std::string::npos);
}

TEST_CASE("a property without a body in a kind is not applicable there, with its reason",
          "[harness][rational]") {
  property p;
  p.info = {"harness.partial", "only in double", {}};
  p.bodies[property::index_of(scalar_kind::double_precision)] = [](case_context& ctx) {
    ctx.check_le<double>("x", 0.0, 0.0);
  };
  p.not_applicable_reasons[property::index_of(scalar_kind::rational)] = "uses exp";
  run_config cfg;
  cfg.cases = 2;
  cfg.scalar = scalar_kind::rational;
  const auto r = run_property(p, cfg);
  CHECK(r.outcome == verdict::not_applicable);
  CHECK(r.not_applicable_reason == "uses exp");
  CHECK(to_string(r.outcome) == "N/A");
  cfg.scalar = scalar_kind::double_precision;
  CHECK(run_property(p, cfg).outcome == verdict::pass);
  // Every registered property has, for every kind, a body or a reason.
  for (const auto& q : all_properties())
    for (scalar_kind k : all_scalar_kinds) {
      INFO(q.info.name << " in " << scalar_kind_name(k));
      CHECK((q.applies_in(k) || !q.not_applicable_reason(k).empty()));
    }
}
