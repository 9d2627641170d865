// The certified modes at their edges, against the truth computed in exact rationals:
//   - the interval solve (core/linalg_interval.cpp, certified_solve) on ill-conditioned (10^6 to
//     10^21), nearly singular and exactly singular systems: it encloses the exact rational
//     solution or throws std::domain_error (singular / too ill-conditioned), never a wrong
//     enclosure;
//   - exact LU and LDL^T (core/linalg_rational.cpp) with pivots like 2^-200 and pivots that are
//     exactly zero after cancellation: a pivot is any entry that is not exactly 0;
//   - the interval harness checks (harness/property.cpp: check_identity, check_le_enclosed) on
//     differences of a few ulps and errors within an ulp of the bound's lower end: a pass is
//     never given to a false claim, a CERTIFIED FAIL never to a true one.
// Each edge has a fixed example and a RapidCheck property that draws such inputs; the truth
// (exact solution, determinant, sign of bound - error) is computed in rationals by code that
// shares nothing with the mode under test (Leibniz determinants, exact products).
#include "core/interval.hpp"
#include "core/linalg.hpp"
#include "core/precision.hpp"
#include "core/rational.hpp"
#include "harness/property.hpp"
#include "rational_enclosure.hpp"

#include <rapidcheck.h>
#include <catch2/catch.hpp>

#include <mpfi.h>
#include <mpfr.h>

#include <algorithm>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

using namespace iclproof;
using I = interval_real;
using Q = rational_real;

namespace {

using iclproof::enclose;  // the scalar overload, beside the matrix one below

Q pow2(int k) {
  Q r(1);
  const Q two(2);
  if (k >= 0)
    for (int i = 0; i < k; ++i) r *= two;
  else
    for (int i = 0; i < -k; ++i) r /= two;
  return r;
}
// det A by the Leibniz formula (n <= 5): no pivoting, no division, nothing shared with LU.
Q leibniz_det(const Mat<Q>& A) {
  const int n = static_cast<int>(A.rows());
  std::vector<int> perm(static_cast<std::size_t>(n));
  std::iota(perm.begin(), perm.end(), 0);
  Q det(0);
  do {
    int inversions = 0;
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j)
        if (perm[static_cast<std::size_t>(i)] > perm[static_cast<std::size_t>(j)]) ++inversions;
    Q term(inversions % 2 ? -1 : 1);
    for (int i = 0; i < n; ++i) term *= A(i, perm[static_cast<std::size_t>(i)]);
    det += term;
  } while (std::next_permutation(perm.begin(), perm.end()));
  return det;
}
// Positive definite iff every leading principal minor is > 0 (Sylvester), for symmetric A.
bool positive_definite(const Mat<Q>& A) {
  for (Eigen::Index k = 1; k <= A.rows(); ++k)
    if (!(leibniz_det(Mat<Q>(A.topLeftCorner(k, k))) > Q(0))) return false;
  return true;
}
Mat<I> enclose(const Mat<Q>& A) {
  Mat<I> r(A.rows(), A.cols());
  for (Eigen::Index j = 0; j < A.cols(); ++j)
    for (Eigen::Index i = 0; i < A.rows(); ++i) r(i, j) = enclose(A(i, j));
  return r;
}
// Exact product (no interval, no MPFR).
Mat<Q> exact_product(const Mat<Q>& A, const Mat<Q>& B) {
  Mat<Q> C = Mat<Q>::Zero(A.rows(), B.cols());
  for (Eigen::Index i = 0; i < A.rows(); ++i)
    for (Eigen::Index j = 0; j < B.cols(); ++j)
      for (Eigen::Index k = 0; k < A.cols(); ++k) C(i, j) += A(i, k) * B(k, j);
  return C;
}

// The certified solve's verdict on A x = b (exact A, x): enclosure or "singular / too
// ill-conditioned". Sound iff: det A = 0 -> refused; returned -> every entry encloses x.
struct solve_verdict {
  bool refused = false;
  bool sound = true;
  std::string detail;
};
// `singular`: the truth, det A = 0 (leibniz_det for small A; known for the Hilbert matrices).
solve_verdict certified_solve_verdict(const Mat<Q>& A, const Mat<Q>& x, bool singular) {
  solve_verdict v;
  const Mat<Q> b = exact_product(A, x);
  Mat<I> X;
  try {
    X = certified_solve(enclose(A), enclose(b));
  } catch (const std::domain_error& e) {
    v.refused = true;
    v.detail = e.what();
    return v;
  }
  if (singular) {
    v.sound = false;
    v.detail = "an exactly singular matrix got an enclosure";
    return v;
  }
  for (Eigen::Index j = 0; j < x.cols(); ++j)
    for (Eigen::Index i = 0; i < x.rows(); ++i)
      if (!encloses(X(i, j), x(i, j))) {
        v.sound = false;
        v.detail = "entry (" + std::to_string(i) + ", " + std::to_string(j) + "): enclosure " +
                   full_digits(X(i, j)) + " excludes the exact solution " + full_digits(x(i, j));
        return v;
      }
  return v;
}

// x = A^-1 b by Cramer's rule (Leibniz determinants; A nonsingular, n <= 5).
Mat<Q> cramer_solve(const Mat<Q>& A, const Mat<Q>& b) {
  const Q det = leibniz_det(A);
  Mat<Q> x(A.rows(), b.cols());
  for (Eigen::Index j = 0; j < b.cols(); ++j)
    for (Eigen::Index i = 0; i < A.rows(); ++i) {
      Mat<Q> Ai = A;
      Ai.col(i) = b.col(j);
      x(i, j) = leibniz_det(Ai) / det;
    }
  return x;
}
// An interval matrix: the solve must enclose the solution of EVERY matrix in it; checked at the
// two matrices where entry (r, c) is at either end of [A(r, c) - w, A(r, c) + w]. Returns "" if
// sound (or refused), else what was not enclosed.
std::string uncertain_matrix_unsound(const Mat<Q>& A, const Mat<Q>& b, Eigen::Index r,
                                     Eigen::Index c, const Q& w) {
  Mat<I> Ai = enclose(A);
  Ai(r, c) =
      interval_from_endpoints(lower(enclose(Q(A(r, c) - w))), upper(enclose(Q(A(r, c) + w))));
  Mat<I> X;
  try {
    X = certified_solve(Ai, enclose(b));
  } catch (const std::domain_error&) {
    return "";
  }
  for (int side : {-1, 1}) {
    Mat<Q> corner = A;
    corner(r, c) += Q(side) * w;
    if (leibniz_det(corner) == Q(0)) return "a singular matrix in the enclosure got an enclosure";
    const Mat<Q> x = cramer_solve(corner, b);
    for (Eigen::Index j = 0; j < x.cols(); ++j)
      for (Eigen::Index i = 0; i < x.rows(); ++i)
        if (!encloses(X(i, j), x(i, j)))
          return "entry (" + std::to_string(i) + ", " + std::to_string(j) + "): enclosure " +
                 full_digits(X(i, j)) + " excludes " + full_digits(x(i, j)) +
                 ", the solution at A(r, c) " + (side < 0 ? "- w" : "+ w");
  }
  return "";
}

// The n x n Hilbert matrix (condition ~ e^(3.5 n)), exact.
Mat<Q> hilbert(Eigen::Index n) {
  Mat<Q> H(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j) H(i, j) = Q(1) / Q(static_cast<long>(i + j + 1));
  return H;
}

}  // namespace

// ------------------------------------------------------------------ interval solve

TEST_CASE("certified solve at its edges: ill-conditioned encloses or refuses, singular refuses",
          "[interval][certified]") {
  // Hilbert matrices: condition ~1.5e7 (n = 6) to ~3.5e13 (n = 10); exact x = (1, -2, 3, ...).
  for (int bits : {53, 64, 128, 256}) {
    scoped_mpfr_precision p(bits);
    for (Eigen::Index n : {6, 8, 10}) {
      Mat<Q> x(n, 1);
      for (Eigen::Index i = 0; i < n; ++i)
        x(i, 0) = Q(static_cast<long>((i % 2 ? -1 : 1) * (i + 1)));
      const solve_verdict v = certified_solve_verdict(hilbert(n), x, false);
      CAPTURE(bits, n, v.detail);
      CHECK(v.sound);
      // At 256 bits (eps 2^-256) a condition below 10^14 must be certified, not refused.
      if (bits == 256) CHECK(!v.refused);
    }
  }
  scoped_mpfr_precision p(64);
  // Nearly singular 2 x 2: [[1, 1], [1, 1 + 2^-k]], condition ~ 4 * 2^k (10^6 .. 10^21).
  for (int k : {20, 30, 40, 50, 60, 70}) {
    Mat<Q> A(2, 2), x(2, 1);
    A << Q(1), Q(1), Q(1), Q(1) + pow2(-k);
    x << Q(3), Q(-5);
    const solve_verdict v = certified_solve_verdict(A, x, false);
    CAPTURE(k, v.detail);
    CHECK(v.sound);
    if (k <= 40) CHECK(!v.refused);  // 64 bits: eps * condition <= 2^-21
    if (k >= 70) CHECK(v.refused);   // beyond the precision: A's enclosure holds singular ones
  }
  // Every k across the precision's edge (condition 2^k from eps^-1 / 2^8 to eps^-1 2^8), both
  // signs of the perturbation, at 53, 64 and 128 bits: near and beyond the edge R = mid(A)^-1
  // is inaccurate and I - R A has large entries of definite signs, where an under-estimated
  // ||I - R A|| would let a wrong enclosure through.
  for (int bits : {53, 64, 128}) {
    scoped_mpfr_precision q(bits);
    const int b = scalar_traits<I>::bits();
    for (int k = b - 8; k <= b + 8; ++k)
      for (int sign : {-1, 1}) {
        Mat<Q> A(2, 2), x(2, 2);
        A << Q(1), Q(1), Q(1), Q(1) + Q(sign) * pow2(-k);
        x << Q(3), Q(1), Q(-5), Q(7) / Q(3);
        const solve_verdict v = certified_solve_verdict(A, x, false);
        CAPTURE(bits, k, sign, v.detail);
        CHECK(v.sound);
      }
  }
  // An uncertain matrix: diag(a, 2) with a in [1 - 2^-10, 1 + 2^-10] and b = (1, 2): x_0 runs
  // over [1 / (1 + 2^-10), 1 / (1 - 2^-10)], which X0 + R (B - A X0) = [1 - 2^-10, 1 + 2^-10]
  // misses at the top (1 / (1 - d) = 1 + d + d^2 + ...): the C [-delta, delta] term is needed.
  {
    Mat<Q> D(2, 2), e(2, 1), coupled(2, 2);
    D << Q(1), Q(0), Q(0), Q(2);
    e << Q(1), Q(2);
    coupled << Q(2), Q(1), Q(1), Q(2);
    for (int bits : {64, 256}) {
      scoped_mpfr_precision q(bits);
      CAPTURE(bits);
      CHECK(uncertain_matrix_unsound(D, e, 0, 0, pow2(-10)) == "");
      CHECK(uncertain_matrix_unsound(coupled, e, 0, 1, pow2(-20)) == "");
      // ... and enclosed, not refused (||I - R A|| is about 2^-10).
      Mat<I> Di = enclose(D);
      Di(0, 0) = interval_from_endpoints(mpfr_real(1) - mpfr_real(std::ldexp(1.0, -10)),
                                         mpfr_real(1) + mpfr_real(std::ldexp(1.0, -10)));
      CHECK_NOTHROW(certified_solve(Di, enclose(e)));
    }
  }
  // Exactly singular: refused, never an enclosure (all ones; a zero row; row 3 = row 0 + row 1).
  Mat<Q> ones = Mat<Q>::Constant(3, 3, Q(1));
  Mat<Q> zero_row(3, 3);
  zero_row << Q(1), Q(2), Q(3), Q(0), Q(0), Q(0), Q(4), Q(5), Q(7);
  Mat<Q> combination(4, 4);
  combination << Q(4), Q(1), Q(-2), Q(0), Q(1), Q(5), Q(1), Q(2), Q(-2), Q(1), Q(6), Q(1), Q(5),
      Q(6), Q(-1), Q(2);
  for (const Mat<Q>& S : {ones, zero_row, combination}) {
    REQUIRE(leibniz_det(S) == Q(0));
    Mat<I> b(S.rows(), 1);
    for (Eigen::Index i = 0; i < S.rows(); ++i) b(i, 0) = I(static_cast<long>(i + 1));
    CHECK_THROWS_AS(certified_solve(enclose(S), b), std::domain_error);
    const solve_verdict v = certified_solve_verdict(S, Mat<Q>::Ones(S.rows(), 1), true);
    CHECK(v.sound);
    CHECK(v.refused);
  }
}

TEST_CASE("property: the certified solve never returns a wrong enclosure (exact truth)",
          "[interval][certified][rapidcheck]") {
  const bool ok = rc::check("certified_solve encloses the exact solution or refuses", [] {
    const int bits = *rc::gen::element(53, 64, 128);
    scoped_mpfr_precision p(bits);
    const int n = *rc::gen::inRange(2, 5);
    // A singular integer matrix (last row a combination of the others), then one entry moved by
    // s 2^-k: condition ~ 2^k, 10^6 .. 10^21, or exactly singular when s = 0.
    Mat<Q> A(n, n);
    for (int i = 0; i + 1 < n; ++i)
      for (int j = 0; j < n; ++j) A(i, j) = Q(*rc::gen::inRange(-4, 5));
    for (int j = 0; j < n; ++j) A(n - 1, j) = Q(0);
    for (int i = 0; i + 1 < n; ++i) {
      const Q c(*rc::gen::inRange(-2, 3));
      for (int j = 0; j < n; ++j) A(n - 1, j) += c * A(i, j);
    }
    const int k = *rc::gen::inRange(20, 71);
    const int s = *rc::gen::element(-1, 0, 1);
    const int col = *rc::gen::inRange(0, n);
    A(n - 1, col) += Q(s) * pow2(-k);
    Mat<Q> x(n, 2);
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < n; ++i)
        x(i, j) = Q(*rc::gen::inRange(-9, 10)) / Q(*rc::gen::inRange(1, 9));
    const bool singular = leibniz_det(A) == Q(0);
    if (!singular) {
      // The same system with one entry uncertain by 2^-j: every matrix in it must be solved.
      const int r = *rc::gen::inRange(0, n), c = *rc::gen::inRange(0, n);
      const int j = *rc::gen::inRange(6, 40);
      const std::string wrong = uncertain_matrix_unsound(A, exact_product(A, x), r, c, pow2(-j));
      if (!wrong.empty())
        RC_FAIL("unsound certified solve of an interval matrix at " + std::to_string(bits) +
                " bits, entry (" + std::to_string(r) + ", " + std::to_string(c) + ") +- 2^-" +
                std::to_string(j) + ": " + wrong);
    }
    const solve_verdict v = certified_solve_verdict(A, x, singular);
    RC_CLASSIFY(singular, "singular");
    RC_CLASSIFY(v.refused, "refused");
    if (!v.sound) {
      std::string a;
      for (Eigen::Index i = 0; i < A.rows(); ++i)
        for (Eigen::Index j = 0; j < A.cols(); ++j) a += full_digits(A(i, j)) + " ";
      RC_FAIL("unsound certified solve at " + std::to_string(bits) + " bits, k = " +
              std::to_string(k) + ", s = " + std::to_string(s) + ": " + v.detail + "\nA = " + a);
    }
  });
  CHECK(ok);
}

// ------------------------------------------------------------------ exact elimination

TEST_CASE("exact LU and LDL^T: a pivot of 2^-200 is a pivot, a cancelled pivot is exactly 0",
          "[rational][certified]") {
  const Q tiny = pow2(-200);
  // The only nonzero below the diagonal in column 0 is 2^-200: an approximate zero test would
  // call this nonsingular matrix singular.
  Mat<Q> A(3, 3), b(3, 1);
  A << tiny, Q(1), Q(2), Q(0), Q(1), Q(1), Q(0), Q(3), Q(5);
  b << Q(1), Q(2), Q(3);
  REQUIRE(leibniz_det(A) != Q(0));
  const Mat<Q> x = lu_solve(A, b);
  CHECK(exact_product(A, x) == b);
  // After eliminating column 0, the (1, 1) entry is exactly 0 (1 - 1) and (2, 1) is 1: a row
  // swap, no division by the cancelled entry.
  Mat<Q> C(3, 3);
  C << Q(1), Q(1), Q(1), Q(1), Q(1), Q(2), Q(1), Q(2), Q(1);
  const Mat<Q> y = lu_solve(C, b);
  CHECK(exact_product(C, y) == b);
  // Cancellation down to a tiny nonzero: rows differ by 2^-200 only; still nonsingular.
  Mat<Q> N(2, 2);
  N << Q(1), Q(1), Q(1), Q(1) + tiny;
  const Mat<Q> z = lu_solve(N, Mat<Q>(b.topRows(2)));
  CHECK(exact_product(N, z) == Mat<Q>(b.topRows(2)));
  // ... and exactly singular after cancellation: refused.
  Mat<Q> S(3, 3);
  S << tiny, Q(1), Q(2), Q(2) * tiny, Q(2), Q(4), Q(1), Q(0), Q(1);
  REQUIRE(leibniz_det(S) == Q(0));
  CHECK_THROWS_AS(lu_solve(S, b), std::domain_error);
  // LDL^T: D = (2^-200, 1) is positive definite however small; D_1 = 1 - 1 = 0 after
  // cancellation is not, and neither is D_1 = -2^-200.
  Mat<Q> P(2, 2);
  P << tiny, Q(0), Q(0), Q(1);
  const Mat<Q> w = spd_solve(P, Mat<Q>(b.topRows(2)));
  CHECK(exact_product(P, w) == Mat<Q>(b.topRows(2)));
  Mat<Q> T(2, 2);
  T << Q(1), Q(1), Q(1), Q(1) + tiny;  // D_1 = 2^-200 after cancellation
  const Mat<Q> t = spd_solve(T, Mat<Q>(b.topRows(2)));
  CHECK(exact_product(T, t) == Mat<Q>(b.topRows(2)));
  Mat<Q> Z(2, 2);
  Z << Q(1), Q(1), Q(1), Q(1);
  CHECK_THROWS_AS(spd_solve(Z, Mat<Q>(b.topRows(2))), std::domain_error);
  Mat<Q> Neg(2, 2);
  Neg << Q(1), Q(1), Q(1), Q(1) - tiny;
  CHECK_THROWS_AS(spd_solve(Neg, Mat<Q>(b.topRows(2))), std::domain_error);
}

TEST_CASE("property: exact LU refuses exactly the singular matrices, LDL^T exactly the non-PD",
          "[rational][certified][rapidcheck]") {
  const bool lu_ok = rc::check("lu_solve: det = 0 iff refused, else A X = B exactly", [] {
    const int n = *rc::gen::inRange(2, 5);
    // Entries m 2^-e with e in {0, 100, 200}: tiny pivots next to unit ones; a row made a
    // combination of the others (plus s 2^-200) gives exact zeros after cancellation.
    Mat<Q> A(n, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        A(i, j) = Q(*rc::gen::inRange(-3, 4)) * pow2(-*rc::gen::element(0, 100, 200));
    if (*rc::gen::arbitrary<bool>()) {
      const int r = *rc::gen::inRange(0, n);
      for (int j = 0; j < n; ++j) A(r, j) = A((r + 1) % n, j) * Q(*rc::gen::inRange(-2, 3));
      A(r, *rc::gen::inRange(0, n)) += Q(*rc::gen::element(-1, 0, 1)) * pow2(-200);
    }
    Mat<Q> B(n, 1);
    for (int i = 0; i < n; ++i) B(i, 0) = Q(*rc::gen::inRange(-5, 6));
    const bool singular = leibniz_det(A) == Q(0);
    RC_CLASSIFY(singular, "singular");
    try {
      const Mat<Q> X = lu_solve(A, B);
      RC_ASSERT(!singular);
      RC_ASSERT(exact_product(A, X) == B);
    } catch (const std::domain_error&) {
      RC_ASSERT(singular);
    }
  });
  CHECK(lu_ok);
  const bool ldl_ok = rc::check("spd_solve: not PD iff refused, else A X = B exactly", [] {
    const int n = *rc::gen::inRange(2, 5);
    const int r = *rc::gen::inRange(1, n + 1);  // rank of G: r < n gives a singular G G^T
    Mat<Q> G(n, r);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < r; ++j)
        G(i, j) = Q(*rc::gen::inRange(-3, 4)) * pow2(-*rc::gen::element(0, 100));
    Mat<Q> A = exact_product(G, Mat<Q>(G.transpose()));
    const int shift = *rc::gen::element(-1, 0, 1);  // A + s 2^-200 I: PD, PSD or indefinite
    for (int i = 0; i < n; ++i) A(i, i) += Q(shift) * pow2(-200);
    Mat<Q> B(n, 1);
    for (int i = 0; i < n; ++i) B(i, 0) = Q(*rc::gen::inRange(-5, 6));
    const bool pd = positive_definite(A);
    RC_CLASSIFY(pd, "positive definite");
    try {
      const Mat<Q> X = spd_solve(A, B);
      RC_ASSERT(pd);
      RC_ASSERT(exact_product(A, X) == B);
    } catch (const std::domain_error&) {
      RC_ASSERT(!pd);
    }
  });
  CHECK(ldl_ok);
}

// ------------------------------------------------------------------ interval checks

namespace {
// One interval check on a fresh context: "pass", or the failure text (CERTIFIED FAIL,
// INCONCLUSIVE, ...). The check fails through RapidCheck's RC_FAIL, caught here.
template <class Check>
std::optional<std::string> failure_of(Check check) {
  case_context ctx("certified_edges", 0, "interval", scalar_traits<I>::bits());
  ctx.begin_case();
  try {
    check(ctx);
  } catch (const rc::detail::CaseResult& r) {
    return r.description;
  }
  return std::nullopt;
}
// x + d ulps of x at the interval precision (x > 0, exact).
Q plus_ulps(const Q& x, int d, int bits) {
  const I xi = enclose(x);
  if (!is_point(xi) || !(x > Q(0))) throw std::logic_error("plus_ulps: x is not a positive point");
  const long e = mpfr_get_exp(lower(xi).backend().data());  // x in [2^(e-1), 2^e)
  return x + Q(d) * pow2(static_cast<int>(e) - bits);
}
}  // namespace

TEST_CASE(
    "interval identities a few ulps false fail, certified, and checks decided by the lower end",
    "[interval][certified]") {
  scoped_mpfr_precision p(256);
  const int bits = scalar_traits<I>::bits();
  const Q x = Q(5) / Q(8);
  for (int d : {1, 2, 3, -1}) {
    // computed = x + d ulps, reference = x: two points a few ulps apart. The identity is false
    // and the enclosure of the difference excludes 0: a certified failure, however narrow.
    const auto f = failure_of([&](case_context& ctx) {
      ctx.check_identity("few ulps", enclose(plus_ulps(x, d, bits)), enclose(x));
    });
    CAPTURE(d);
    REQUIRE(f.has_value());
    CHECK(f->find("CERTIFIED FAIL") != std::string::npos);
    // |difference| <= 0 through check_le_proved: the identity form of check_le, same answer.
    const I diff = abs_of(I(enclose(plus_ulps(x, d, bits)) - enclose(x)));
    const auto g = failure_of(
        [&](case_context& ctx) { ctx.check_le_proved<I>("|diff|", diff, I(0), "proofs/X.v:l"); });
    REQUIRE(g.has_value());
    CHECK(g->find("CERTIFIED FAIL") != std::string::npos);
  }
  // A true identity whose enclosures are a few ulps wide (x / 3 * 3 against x) passes.
  CHECK(!failure_of([&](case_context& ctx) {
           ctx.check_identity("x / 3 * 3", I(I(enclose(x) / I(3)) * I(3)), enclose(x));
         }).has_value());
  // check_le: the error's upper end against the bound's lower end, to the ulp.
  const Q bound = Q(3) / Q(1024);
  const I b =
      interval_from_endpoints(lower(enclose(bound)), upper(enclose(plus_ulps(bound, 1, bits))));
  // error = lo(bound) exactly: passes.
  CHECK(!failure_of([&](case_context& ctx) {
           ctx.check_le_proved<I>("err", enclose(bound), b, "proofs/X.v:l");
         }).has_value());
  // error = lo(bound) + 1 ulp, still inside the bound's enclosure: not certified (INCONCLUSIVE).
  const auto one_ulp = failure_of([&](case_context& ctx) {
    ctx.check_le_proved<I>("err", enclose(plus_ulps(bound, 1, bits)), b, "proofs/X.v:l");
  });
  REQUIRE(one_ulp.has_value());
  CHECK(one_ulp->find("INCONCLUSIVE") != std::string::npos);
  // error = hi(bound) + 1 ulp: above the whole enclosure, a certified failure.
  const auto above = failure_of([&](case_context& ctx) {
    ctx.check_le_proved<I>("err", enclose(plus_ulps(bound, 2, bits)), b, "proofs/X.v:l");
  });
  REQUIRE(above.has_value());
  CHECK(above->find("CERTIFIED FAIL") != std::string::npos);
  // error enclosure [lo(bound) - 1 ulp, lo(bound) + 1 ulp] (its true value may exceed the
  // bound's): not a pass.
  const I straddle = interval_from_endpoints(lower(enclose(plus_ulps(bound, -1, bits))),
                                             upper(enclose(plus_ulps(bound, 1, bits))));
  CHECK(failure_of([&](case_context& ctx) {
          ctx.check_le_proved<I>("err", straddle, enclose(bound), "proofs/X.v:l");
        }).has_value());
}

TEST_CASE("property: interval identity and check_le verdicts are sound (exact truth)",
          "[interval][certified][rapidcheck]") {
  scoped_mpfr_precision p(128);
  const int bits = scalar_traits<I>::bits();
  const bool identity_ok =
      rc::check("check_identity: pass if true, CERTIFIED FAIL only if false", [&] {
        // x = m / q (q odd: not representable, so its enclosure is 1 ulp wide), y = x + d ulps.
        const Q x = Q(*rc::gen::inRange(1, 1000)) / Q(2 * *rc::gen::inRange(1, 50) + 1);
        const int d = *rc::gen::inRange(-3, 4);
        const Q y = plus_ulps(to_rational(lower(enclose(x))), d, bits);  // a point d ulps off
        // Enclosures of x and y reached through arithmetic (widened by a division and a product).
        const bool widen = *rc::gen::arbitrary<bool>();
        const I xi = widen ? I(I(enclose(x) / I(7)) * I(7)) : enclose(x);
        const I yi = enclose(y);
        const auto f = failure_of([&](case_context& ctx) { ctx.check_identity("x = y", xi, yi); });
        RC_CLASSIFY(x == y, "identity true");
        RC_CLASSIFY(f.has_value(), "failed");
        if (x == y) RC_ASSERT(!f.has_value());
        if (f && f->find("CERTIFIED FAIL") != std::string::npos) RC_ASSERT(x != y);
      });
  CHECK(identity_ok);
  const bool le_ok =
      rc::check("check_le: pass only if err <= bound, CERTIFIED FAIL only if >", [&] {
        // bound = m / q, err = bound + d ulps, then both enclosed (outward) and maybe widened.
        const Q bound = Q(*rc::gen::inRange(1, 1000)) / Q(*rc::gen::inRange(1, 64));
        const Q base = to_rational(lower(enclose(bound)));
        const Q err = plus_ulps(base, *rc::gen::inRange(-3, 4), bits) +
                      Q(*rc::gen::inRange(-1, 2)) * pow2(-2 * bits);  // off the grid, by a hair
        if (!(err >= Q(0))) return;
        const bool widen = *rc::gen::arbitrary<bool>();
        const I ei = widen ? I(I(enclose(err) / I(3)) * I(3)) : enclose(err);
        const I bi = enclose(bound);
        const auto f = failure_of(
            [&](case_context& ctx) { ctx.check_le_proved<I>("err", ei, bi, "proofs/X.v:l"); });
        RC_CLASSIFY(err <= bound, "err <= bound");
        RC_CLASSIFY(!f.has_value(), "passed");
        if (!f) RC_ASSERT(err <= bound);
        if (f && f->find("CERTIFIED FAIL") != std::string::npos) RC_ASSERT(err > bound);
      });
  CHECK(le_ok);
}
