// The ball scalar (core/ball.hpp, Arb): precision, exact conversions, containment of exact
// rational results (computed here in rationals from the same inputs, never from the code under
// test), Arb's transcendentals against MPFR at 2p bits, the certain comparisons, the certified
// solves against the exact rational solve, the verdicts of the harness on balls, and a
// radius-dropping "ball" the containment checks must reject.
#include "core/ball_linalg.hpp"
#include "core/precision.hpp"
#include "core/rational.hpp"
#include "harness/runner.hpp"

#include "mutation_testing.hpp"

#include <rapidcheck.h>
#include <catch2/catch.hpp>

#include <mpfr.h>

#include <cmath>
#include <vector>

using namespace iclproof;
using B = ball_real;
using Q = rational_real;

namespace {
Q exact(double x) { return Q(x); }
// The exact value of an MPFR number.
Q exact(const mpfr_real& x) {
  Q q;
  mpfr_get_q(q.backend().data(), x.backend().data());
  return q;
}
// The ball x with its radius set to 0 (a "ball arithmetic" that ignores its radius).
B radius_dropped(const B& x) {
  B r = x;
  mag_zero(arb_radref(r.data()));
  return r;
}
// The ball [mid - rad, mid + rad] with both exactly as given (ball_from_endpoints may round
// the radius up by an ulp of its 30 bits),
// rad = 2^rad_exp (mag_set_ui_2exp_si is exact; mag_set_d may round up).
B exact_ball(double mid, long rad_exp) {
  B r(mid);
  mag_set_ui_2exp_si(arb_radref(r.data()), 1, rad_exp);
  return r;
}
// f(x) at 2p bits, correctly rounded, then made exact: within 2^-2p relative of f(x), so a
// p-bit ball containing f(x) with radius >= 2^-p relative contains it too unless it is wrong.
template <class F>
Q at_double_precision(F f, double x, int p) {
  mpfr_t a, r;
  mpfr_init2(a, 64);
  mpfr_init2(r, 2 * p);
  mpfr_set_d(a, x, MPFR_RNDN);
  f(r, a, MPFR_RNDN);
  mpfr_real m;
  mpfr_set_prec(m.backend().data(), 2 * p);
  mpfr_set(m.backend().data(), r, MPFR_RNDN);
  mpfr_clear(a);
  mpfr_clear(r);
  return exact(m);
}
// A deterministic spread of doubles of mixed sign and scale.
std::vector<double> sample_doubles(int n) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i)
    v.push_back(std::ldexp(((i * 7919) % 2003 - 1001) / 997.0, (i * 13) % 21 - 10) + (i % 3) / 7.0);
  return v;
}
}  // namespace

TEST_CASE("ball precision: the MPFR setting's bits, exact points from doubles", "[ball]") {
  scoped_mpfr_precision p(256);
  CHECK(scalar_traits<B>::bits() == 257);
  CHECK(ball_precision() == 257);
  CHECK(is_point(B(0.1)));
  CHECK(contains(B(0.1), exact(0.1)));
  CHECK(is_point(B(3) * B(7)));
  CHECK(B(3) * B(7) == B(21));
  CHECK(is_point(B(0.1L)));
  CHECK(contains(B(0.1L), exact(mpfr_real(0.1L))));
  const B third = B(1) / B(3);
  CHECK(!is_point(third));
  CHECK(contains(third, Q(1) / Q(3)));
  CHECK(log2_width_in_eps(third) < 1.0);
  CHECK(eps<B>() == B(std::ldexp(1.0, -256)));
  {
    scoped_mpfr_precision q(512);
    CHECK(ball_precision() == 513);
  }
  CHECK(ball_precision() == 257);
}

TEST_CASE("ball arithmetic contains the exact rational result of the same expressions", "[ball]") {
  scoped_mpfr_precision p(64);  // low precision: every rounding is visible
  const std::vector<double> xs = sample_doubles(40);
  B acc(0);
  Q acc_q(0);
  for (size_t i = 0; i + 2 < xs.size(); ++i) {
    const B a(xs[i]), b(xs[i + 1]), c(xs[i + 2]);
    const Q qa = exact(xs[i]), qb = exact(xs[i + 1]), qc = exact(xs[i + 2]);
    const B r = (a * b - c) / (b * b + B(1)) + a / B(3);
    const Q qr = (qa * qb - qc) / (qb * qb + Q(1)) + qa / Q(3);
    CAPTURE(i, full_digits(r), full_digits(Q(qr)));
    CHECK(contains(r, qr));
    acc = acc * r + B(xs[i]);  // a long dependent chain
    acc_q = acc_q * qr + qa;
    CHECK(contains(acc, acc_q));
    // The same ball with its radius ignored: the containment check must catch it somewhere.
  }
  bool caught = false;
  B bad(0);
  Q bad_q(0);
  for (size_t i = 0; i + 1 < xs.size(); ++i) {
    bad = radius_dropped(B(bad * B(xs[i]) / B(3) + B(xs[i + 1])));
    bad_q = bad_q * exact(xs[i]) / Q(3) + exact(xs[i + 1]);
    if (!contains(bad, bad_q)) caught = true;
  }
  CHECK(caught);
}

TEST_CASE("ball products (arb_dot) contain the exact rational product", "[ball]") {
  scoped_mpfr_precision p(64);
  const std::vector<double> xs = sample_doubles(60);
  Mat<B> A(4, 5), C(5, 3);
  Mat<Q> Aq(4, 5), Cq(5, 3);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 5; ++j) {
      A(i, j) = B(xs[size_t(5 * i + j)]);
      Aq(i, j) = exact(xs[size_t(5 * i + j)]);
    }
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 3; ++j) {
      C(i, j) = B(xs[size_t(20 + 3 * i + j)]) / B(7);  // not points
      Cq(i, j) = exact(xs[size_t(20 + 3 * i + j)]) / Q(7);
    }
  const Mat<Q> Pq = Aq * Cq;
  const Mat<B> P = matmul(A, C);
  const Mat<B> Pt = matmul_tn(Mat<B>(A.transpose()), C);
  const Mat<B> Pn = matmul_nt(A, Mat<B>(C.transpose()));
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j) {
      CAPTURE(i, j, full_digits(P(i, j)));
      CHECK(contains(P(i, j), Pq(i, j)));
      CHECK(contains(Pt(i, j), Pq(i, j)));
      CHECK(contains(Pn(i, j), Pq(i, j)));
    }
}

TEST_CASE("ball transcendentals (Arb sqrt, exp, log, tanh, erf, erfc) contain the 2p-bit value",
          "[ball]") {
  const int bits = 128;
  scoped_mpfr_precision p(bits);
  const int pb = static_cast<int>(ball_precision());
  for (double x : sample_doubles(30)) {
    CAPTURE(x);
    const B b(x);
    CHECK(contains(exp(b), at_double_precision(mpfr_exp, x, pb)));
    CHECK(contains(tanh(b), at_double_precision(mpfr_tanh, x, pb)));
    CHECK(contains(erf(b), at_double_precision(mpfr_erf, x, pb)));
    CHECK(contains(erfc(b), at_double_precision(mpfr_erfc, x, pb)));
    const double ax = std::fabs(x) + 0.5;
    CHECK(contains(sqrt(B(ax)), at_double_precision(mpfr_sqrt, ax, pb)));
    CHECK(contains(log(B(ax)), at_double_precision(mpfr_log, ax, pb)));
    // A ball whose radius was dropped after exp does not contain the 2p-bit value in general:
    // at least the check can tell (exp(x) is irrational for x != 0).
    if (x != 0) CHECK(!contains(radius_dropped(exp(b)), at_double_precision(mpfr_exp, x, pb)));
  }
  // Over a whole ball: erf of [0.5 +/- 0.25] contains erf(0.3) and erf(0.7).
  const B wide = ball_from_endpoints(mpfr_real(0.25), mpfr_real(0.75));
  CHECK(contains(erf(wide), at_double_precision(mpfr_erf, 0.3, pb)));
  CHECK(contains(erf(wide), at_double_precision(mpfr_erf, 0.7, pb)));
  CHECK(!isfinite(sqrt(B(-1))));
  const Q pi2p = at_double_precision(
      [](mpfr_ptr r, mpfr_srcptr, mpfr_rnd_t m) { mpfr_const_pi(r, m); }, 0.0, pb);
  CHECK(contains(pi_value<B>(), pi2p));
  CHECK(!contains(radius_dropped(pi_value<B>()), pi2p));
}

TEST_CASE("ball comparisons: certain answers, overlap throws", "[ball]") {
  scoped_mpfr_precision p(256);
  const B third = B(1) / B(3);
  const B one = third * B(3);  // contains 1, not a point
  CHECK(contains_zero(B(one - B(1))));
  // |x| of a ball around 0 is [0, max |x|] as on intervals (Arb's own arb_abs reaches below 0),
  // so an error |a - b| is never a negative enclosure in check_le.
  const B around_zero = B(one - B(1));
  CHECK(lower(abs_of(around_zero)) >= mpfr_real(0));
  CHECK(contains_zero(abs_of(around_zero)));
  CHECK(upper(abs_of(around_zero)) >= upper(around_zero));
  CHECK(lower(abs_of(B(-third))) > mpfr_real(0));
  CHECK(third < B(1));
  CHECK(B(1) > third);
  CHECK(!(B(1) < third));
  CHECK(third != B(1));
  CHECK(B(2) == B(2));
  CHECK(B(2) <= B(2));
  CHECK(!(B(2) < B(2)));
  CHECK_THROWS_AS(one < B(1), ambiguous_interval_comparison);
  CHECK_THROWS_AS(one == B(1), ambiguous_interval_comparison);
  CHECK_THROWS_AS(one > B(1), ambiguous_interval_comparison);
  const B unit = ball_from_endpoints(mpfr_real(0), mpfr_real(1));  // midpoint 1/2
  CHECK_THROWS_AS(unit < B(0.75), ambiguous_interval_comparison);
  CHECK_THROWS_AS(B(0.75) > unit, ambiguous_interval_comparison);
  CHECK_THROWS_AS(unit == B(0.5), ambiguous_interval_comparison);
  // lo(a) >= hi(b) decides `<` (false) and `>=` (true) even when they touch.
  const B upto_one = exact_ball(0.5, -1);  // exactly [0, 1]
  CHECK(!(B(1) < upto_one));
  CHECK(B(1) >= upto_one);
  CHECK_THROWS_AS(B(1) > upto_one, ambiguous_interval_comparison);
  // max over balls never compares: it encloses the max of every pair of points.
  const B m = max_of(one, B(1));
  CHECK(contains(m, Q(1)));
  CHECK(contains(max_abs(Mat<B>(Mat<B>::Constant(2, 2, B(-third)))), Q(1) / Q(3)));
}

TEST_CASE("ball solves (arb_mat_solve, arb_mat_spd_solve) contain the exact rational solution",
          "[ball]") {
  scoped_mpfr_precision p(128);
  const std::vector<double> xs = sample_doubles(40);
  const int n = 5;
  Mat<B> A(n, n), b(n, 2);
  Mat<Q> Aq(n, n), bq(n, 2);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const double v = xs[size_t(n * i + j)] + (i == j ? 4.0 : 0.0);
      A(i, j) = B(v);
      Aq(i, j) = exact(v);
    }
    for (int j = 0; j < 2; ++j) {
      b(i, j) = B(xs[size_t(30 + 2 * i + j)]);
      bq(i, j) = exact(xs[size_t(30 + 2 * i + j)]);
    }
  }
  const Mat<Q> xq = lu_solve(Aq, bq);
  const Mat<B> x = certified_solve(A, b);
  // SPD: A^T A.
  const Mat<Q> Sq = Aq.transpose() * Aq;
  const Mat<B> S = matmul_tn(A, A);
  const Mat<Q> yq = lu_solve(Sq, bq);
  const Mat<B> y = spd_solve(S, b);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 2; ++j) {
      CAPTURE(i, j, full_digits(x(i, j)), full_digits(y(i, j)));
      CHECK(contains(x(i, j), xq(i, j)));
      CHECK(contains(y(i, j), yq(i, j)));
      CHECK(log2_width_in_eps(x(i, j)) < 16.0);
      CHECK(!contains(radius_dropped(x(i, j)), xq(i, j)));
    }
  Mat<B> Sg = A;
  Sg.row(3) = Sg.row(0) + Sg.row(1);  // singular
  CHECK_THROWS_AS(lu_solve(Sg, b), std::domain_error);
  Mat<B> indef = Mat<B>::Identity(2, 2);
  indef(1, 1) = B(-1);
  CHECK_THROWS_AS(spd_solve(indef, Mat<B>(Mat<B>::Identity(2, 2))), std::domain_error);
}

TEST_CASE("ball enclosures: the outward MPFI enclosure contains the ball (sound verdicts)",
          "[ball]") {
  scoped_mpfr_precision p(256);
  const B third = B(1) / B(3);
  const interval_real e = to_interval_enclosure(third);
  CHECK(mpfr_real(lower(e)) <= mpfr_real(lower(third)));
  CHECK(mpfr_real(upper(third)) <= mpfr_real(upper(e)));
  // A ball of radius far above an ulp: its enclosure is as wide as the ball.
  const B wide = ball_from_endpoints(mpfr_real(1), mpfr_real(2));
  const interval_real w = to_interval_enclosure(wide);
  CHECK(lower(w) <= mpfr_real(1));
  CHECK(upper(w) >= mpfr_real(2));
}

namespace {
const mutation_runner ball_runs{41, scalar_kind::ball};
}

TEST_CASE("ball check_le and identities: the interval verdicts, on the balls' enclosures",
          "[ball]") {
  scoped_mpfr_precision p(256);
  auto run = [](auto body) { return ball_runs.run(body, 3); };
  const B third = B(1) / B(3);
  CHECK(run([&](case_context& ctx) {
          ctx.check_le_proved<B>("e", third, B(1), "proofs/X.v:lemma");
        }).outcome == verdict::pass);
  const auto proved =
      run([&](case_context& ctx) { ctx.check_le_proved<B>("e", third, B(1), "proofs/X.v:lemma"); });
  CHECK(proved.enclosed_checks == 3);
  CHECK(proved.proved_bounds == std::vector<std::string>{"proofs/X.v:lemma"});
  const auto above =
      run([&](case_context& ctx) { ctx.check_le_hand_derived<B>("|e|", B(1), third, "hand"); });
  CHECK(above.outcome == verdict::fail);
  CHECK(above.failure.find("CERTIFIED FAIL") != std::string::npos);
  // An error ball whose midpoint is below the bound but whose radius reaches above it: not a
  // pass (a verdict that ignored the radius would pass it).
  const B err = ball_from_endpoints(mpfr_real(0.5), mpfr_real(1.5));
  const auto overlap = run([&](case_context& ctx) { ctx.check_le<B>("|e|", err, B(1.25)); });
  CHECK(overlap.outcome == verdict::fail);
  CHECK(overlap.failure.find("INCONCLUSIVE") != std::string::npos);
  // Identities: 0 in the difference's enclosure passes, a difference excluding 0 fails.
  const auto id_ok =
      run([&](case_context& ctx) { ctx.check_identity("x", B(third * B(3)), B(1)); });
  CHECK(id_ok.outcome == verdict::pass);
  CHECK(id_ok.identity_checks == 3);
  const auto id_bad =
      run([&](case_context& ctx) { ctx.check_identity("x", third, B(0.3333333333)); });
  CHECK(id_bad.outcome == verdict::fail);
  CHECK(id_bad.failure.find("CERTIFIED FAIL") != std::string::npos);
  Mat<B> m = Mat<B>::Constant(2, 2, third), r = Mat<B>::Constant(2, 2, third);
  r(1, 0) = B(0.25);
  const auto mat_bad = run([&](case_context& ctx) { ctx.compare<B>("M", m, r, B(0)); });
  CHECK(mat_bad.outcome == verdict::fail);
  // An ambiguous comparison inside a body is a failure naming its stage, never a guess.
  const auto amb = run([&](case_context& ctx) {
    ctx.stage("the branch");
    if (B(third * B(3)) < B(1)) ctx.check_le<B>("never", B(0), B(1));
  });
  CHECK(amb.outcome == verdict::fail);
  CHECK(amb.failure.find("ambiguous") != std::string::npos);
}

TEST_CASE("ball exact point values: exact for points, a ball with a radius throws", "[ball]") {
  scoped_mpfr_precision p(128);
  for (const double v : sample_doubles(20)) CHECK(exact_value_of_point(B(v)) == exact(v));
  const B third = B(1) / B(3);  // radius > 0
  CHECK_THROWS_AS(exact_value_of_point(third), std::domain_error);
  CHECK_THROWS_AS(exact_value_of_point(exact_ball(0.5, -20)), std::domain_error);
}

namespace {
// A d x n point matrix of rank r (r <= min(d, n)): F (d x r) times C (r x n), both small
// dyadic / integer entries, so the product is exact in double and rank(F C) <= r (= r for these
// shapes: the caller checks it).
Mat<double> rank_r_matrix(int d, int n, int r, int salt) {
  Mat<double> F(d, r), C(r, n);
  for (int i = 0; i < d; ++i)
    for (int k = 0; k < r; ++k)
      F(i, k) = double((3 * i * i + 5 * k + 7 * i * k + salt) % 11 - 5) / 8.0 + 2.0 * (i == k);
  for (int k = 0; k < r; ++k)
    for (int j = 0; j < n; ++j) C(k, j) = double((3 * k + 5 * j + salt) % 7 - 3) + (k == j);
  return F * C;
}
Mat<B> balls_of(const Mat<double>& M) {
  Mat<B> r(M.rows(), M.cols());
  for (Eigen::Index i = 0; i < M.rows(); ++i)
    for (Eigen::Index j = 0; j < M.cols(); ++j) r(i, j) = B(M(i, j));
  return r;
}
Mat<Q> rationals_of(const Mat<double>& M) {
  Mat<Q> r(M.rows(), M.cols());
  for (Eigen::Index i = 0; i < M.rows(); ++i)
    for (Eigen::Index j = 0; j < M.cols(); ++j) r(i, j) = exact(M(i, j));
  return r;
}
}  // namespace

TEST_CASE("ball min-norm least squares contains the exact rational A^+ B at every rank", "[ball]") {
  scoped_mpfr_precision p(128);
  struct shape {
    int m, n, r;
  };
  // Full column rank, full row rank, rank-deficient both ways, rank 1, square full rank.
  for (const shape s : {shape{7, 3, 3}, shape{3, 6, 3}, shape{6, 5, 2}, shape{4, 7, 3},
                        shape{5, 4, 1}, shape{4, 4, 4}}) {
    CAPTURE(s.m, s.n, s.r);
    const Mat<double> Ad = rank_r_matrix(s.m, s.n, s.r, s.m + 2 * s.n);
    const Mat<Q> Aq = rationals_of(Ad);
    // The exact rank (independent of the code under test: FLINT's rref runs on the same data,
    // so the rank is checked against the construction's r, which F C has generically).
    REQUIRE(static_cast<int>(independent_columns_exact(balls_of(Ad)).size()) == s.r);
    const std::vector<double> ys = sample_doubles(2 * s.m + 7);
    Mat<double> Bd(s.m, 2);
    for (int i = 0; i < s.m; ++i)
      for (int j = 0; j < 2; ++j) Bd(i, j) = ys[size_t(7 + 2 * i + j)];
    const Mat<Q> xq = min_norm_lstsq(Aq, rationals_of(Bd));  // the exact Moore-Penrose solution
    const Mat<B> x = min_norm_lstsq(balls_of(Ad), balls_of(Bd));
    REQUIRE(x.rows() == s.n);
    REQUIRE(x.cols() == 2);
    for (Eigen::Index i = 0; i < x.rows(); ++i)
      for (Eigen::Index j = 0; j < x.cols(); ++j) {
        CAPTURE(i, j, full_digits(x(i, j)));
        CHECK(contains(x(i, j), xq(i, j)));
        CHECK(log2_width_in_eps(x(i, j)) < 40.0);
        CHECK(!contains(radius_dropped(x(i, j)), xq(i, j)));
      }
  }
  // Rank 0: the zero solution, exactly.
  const Mat<B> z = min_norm_lstsq(Mat<B>(Mat<B>::Zero(3, 2)), Mat<B>(Mat<B>::Ones(3, 1)));
  CHECK(exact_value_of_point(z(0, 0)) == Q(0));
  CHECK(exact_value_of_point(z(1, 0)) == Q(0));
  // A rank is never decided on an enclosure.
  Mat<B> blurred = balls_of(rank_r_matrix(4, 3, 3, 1));
  blurred(2, 1) = blurred(2, 1) + exact_ball(0, -60);
  CHECK_THROWS_AS(min_norm_lstsq(blurred, Mat<B>(Mat<B>::Ones(4, 1))), std::domain_error);
}

TEST_CASE("ball Gershgorin bound: at least lambda_max of every symmetric matrix in the balls",
          "[ball]") {
  scoped_mpfr_precision p(128);
  // [[2, 1], [1, 2]]: eigenvalues 1 and 3, the row sums 3: the bound is 3 (a double, exact).
  Mat<B> S(2, 2);
  S << B(2), B(1), B(1), B(2);
  CHECK(gershgorin_upper_bound(S) >= 3.0);
  CHECK(gershgorin_upper_bound(S) <= 3.0 * (1 + 1e-8));
  // A radius counts: 2 +/- 2^-10 on the diagonal admits lambda_max = 3 + 2^-10.
  S(0, 0) = exact_ball(2, -10);
  CHECK(gershgorin_upper_bound(S) >= 3.0 + std::ldexp(1.0, -10));
  // Random symmetric matrices: at least the largest eigenvalue (double eigensolver; its error,
  // about 1e-16 relative, is covered by a 1e-12 relative allowance below the eigenvalue; for
  // d = 1 the bound is the eigenvalue itself).
  const std::vector<double> xs = sample_doubles(64);
  for (int d = 1; d <= 6; ++d) {
    Mat<double> G(d, d);
    for (int i = 0; i < d; ++i)
      for (int j = 0; j < d; ++j) G(i, j) = xs[size_t(8 * i + j)];
    const Mat<double> Sd = G * G.transpose();
    const Vec<double> ev = symmetric_eigenvalues<double>(Sd);
    CAPTURE(d, ev(d - 1));
    CHECK(gershgorin_upper_bound(balls_of(Sd)) >= ev(d - 1) * (1 - 1e-12));
  }
}
