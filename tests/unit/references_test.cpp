// Unit and mutation tests of the closed-form references: each reference property must fail
// when its implementation is deliberately broken.
#include "references.hpp"

#include "core/precision.hpp"
#include "harness/runner.hpp"
#include "mutation_testing.hpp"

#include <catch2/catch.hpp>

#include <functional>
#include <thread>

using namespace iclproof;

namespace {
const mutation_runner references_mutants{7};
}  // namespace

#ifndef ICLPROOF_MUTATION_RATIONAL
TEST_CASE("precision is reported as the bits values carry", "[core]") {
  scoped_mpfr_precision p(256);
  CHECK(p.setting().actual_bits == 257);  // Boost: 77 decimal digits -> 257 bits
  CHECK(precision_of(mpfr_real(1) / mpfr_real(3)) == 257);
  scoped_mpfr_precision q(53);
  CHECK(q.setting().actual_bits == 55);
  CHECK_THROWS_AS(set_mpfr_precision(52), std::invalid_argument);
  CHECK_THROWS_AS(set_mpfr_precision(100001), std::invalid_argument);
}
#endif

TEST_CASE("iterated Sherman-Morrison property fails on a broken update", "[references][mutation]") {
  scoped_mpfr_precision p(256);
  using T = mutation_scalar;
  const auto good = references_mutants.run([](case_context& ctx) {
    reference_checks::sherman_morrison_equals_ridge<T>(
        ctx, [](const Mat<T>& X, const Mat<T>& Y, const T& l) {
          return iterated_sherman_morrison_ridge(X, Y, l);
        });
  });
  CHECK(good.outcome == verdict::pass);
  // Mutant: lambda off by a factor 1 + 2^-40 (far below double's visibility of the bug).
  const auto bad = references_mutants.run([](case_context& ctx) {
    reference_checks::sherman_morrison_equals_ridge<T>(
        ctx, [](const Mat<T>& X, const Mat<T>& Y, const T& l) {
          return iterated_sherman_morrison_ridge(X, Y, T(l * (T(1) + std::ldexp(1.0, -40))));
        });
  });
  CHECK(bad.outcome == verdict::fail);
  INFO(bad.failure);
  CHECK(!bad.failure.empty());
}

namespace {
// Runs a check template with the correct implementation and with a mutant; the first must
// pass and the second fail.
template <class Check>
void expect_mutant_caught(const Check& good, const Check& bad, int cases = 40) {
  references_mutants.expect_killed(good, bad, cases);
}
using T = mutation_scalar;
const T tiny_relative_step =
    T(std::ldexp(1.0, -40));  // a perturbation only high precision resolves
}  // namespace

TEST_CASE("K-step GD property fails on a mis-scaled step and on a missing step",
          "[references][mutation]") {
  scoped_mpfr_precision p(256);
  using check = std::function<void(case_context&)>;
  const check good = [](case_context& ctx) {
    reference_checks::gd_steps_equal_neumann<T>(
        ctx, [](const Mat<T>& X, const Mat<T>& Y, const T& eta, int K) {
          return gd_iterates<T>(Mat<T>::Zero(Y.rows(), X.rows()), X, Y, eta, K).back();
        });
  };
  expect_mutant_caught<check>(good, [](case_context& ctx) {
    reference_checks::gd_steps_equal_neumann<T>(
        ctx, [](const Mat<T>& X, const Mat<T>& Y, const T& eta, int K) {
          return gd_iterates<T>(Mat<T>::Zero(Y.rows(), X.rows()), X, Y,
                                T(eta * (T(1) + tiny_relative_step)), K)
              .back();
        });
  });
  expect_mutant_caught<check>(good, [](case_context& ctx) {
    reference_checks::gd_steps_equal_neumann<T>(
        ctx, [](const Mat<T>& X, const Mat<T>& Y, const T& eta, int K) {
          return gd_iterates<T>(Mat<T>::Zero(Y.rows(), X.rows()), X, Y, eta, K + 1).back();
        });
  });
}

TEST_CASE("Bayes property fails when lambda is sigma/tau instead of sigma^2/tau^2",
          "[references][mutation]") {
  scoped_mpfr_precision p(256);
  using check = std::function<void(case_context&)>;
  expect_mutant_caught<check>(
      [](case_context& ctx) {
        reference_checks::bayes_mean_equals_ridge<T>(
            ctx, [](const Mat<T>& X, const Mat<T>& Y, const T& s2, const T& t2) {
              return bayes_posterior_mean(X, Y, s2, t2);
            });
      },
      [](case_context& ctx) {
        reference_checks::bayes_mean_equals_ridge<T>(
            ctx, [](const Mat<T>& X, const Mat<T>& Y, const T& s2, const T& t2) {
#ifdef ICLPROOF_MUTATION_RATIONAL
              return bayes_posterior_mean(X, Y, T(2 * s2), t2);  // no sqrt in Q: sigma^2 doubled
#else
              using boost::multiprecision::sqrt;
              return bayes_posterior_mean(X, Y, T(sqrt(s2)), T(sqrt(t2)));
#endif
            });
      });
}

TEST_CASE("ridge -> min-norm property fails for a ridge with 4 lambda", "[references][mutation]") {
  scoped_mpfr_precision p(256);
  using check = std::function<void(case_context&)>;
  expect_mutant_caught<check>(
      [](case_context& ctx) {
        reference_checks::ridge_tends_to_min_norm<T>(
            ctx, [](const Mat<T>& X, const Mat<T>& Y, const T& l) {
              return ridge_closed_form(X, Y, l);
            });
      },
      [](case_context& ctx) {
        reference_checks::ridge_tends_to_min_norm<T>(
            ctx, [](const Mat<T>& X, const Mat<T>& Y, const T& l) {
              return ridge_closed_form(X, Y, T(4 * l));
            });
      });
}

TEST_CASE("ridge -> min-norm property fails for a least-squares solution that is not min-norm",
          "[references][mutation]") {
  // The mutant adds ones (I - X X^+) to W+: it still solves the normal equations (its loss is
  // least) but leaves the range of X when rank(X) < d, so its norm is not least. In rationals
  // the range witness W+ = (W+ G X) X^T catches it exactly; in floating point the gap no longer
  // tends to 0.
  scoped_mpfr_precision p(256);
  const auto ridge = [](const Mat<T>& X, const Mat<T>& Y, const T& l) {
    return ridge_closed_form(X, Y, l);
  };
  const auto good = references_mutants.run(
      [&](case_context& ctx) {
        reference_checks::ridge_tends_to_min_norm<T>(
            ctx, ridge,
            [](const Mat<T>& X, const Mat<T>& Y) { return min_norm_least_squares(X, Y); });
      },
      60);
  CHECK(good.outcome == verdict::pass);
  const auto bad = references_mutants.run(
      [&](case_context& ctx) {
        reference_checks::ridge_tends_to_min_norm<T>(
            ctx, ridge, [](const Mat<T>& X, const Mat<T>& Y) {
              const Eigen::Index d = X.rows(), N = X.cols();
              const Mat<T> X_pinv =
                  min_norm_least_squares(X, Mat<T>(Mat<T>::Identity(N, N)));  // N x d
              const Mat<T> off_range = Mat<T>::Identity(d, d) - matmul(X, X_pinv);
              return Mat<T>(min_norm_least_squares(X, Y) +
                            matmul(Mat<T>(Mat<T>::Ones(Y.rows(), d)), off_range));
            });
      },
      60);
  INFO(bad.failure);
  CHECK(bad.outcome == verdict::fail);
#ifdef ICLPROOF_MUTATION_RATIONAL
  CHECK_THAT(bad.failure, Catch::Contains("range of X"));
#endif
}

#ifndef ICLPROOF_MUTATION_RATIONAL
TEST_CASE("p-vs-2p ridge property fails on a perturbed lambda", "[references][mutation]") {
  scoped_mpfr_precision p(256);
  using check = std::function<void(case_context&)>;
  expect_mutant_caught<check>(
      [](case_context& ctx) {
        reference_checks::ridge_agrees_with_twice_the_precision<T>(
            ctx, [](const Mat<T>& X, const Mat<T>& Y, const T& l) {
              return ridge_closed_form(X, Y, l);
            });
      },
      [](case_context& ctx) {
        reference_checks::ridge_agrees_with_twice_the_precision<T>(
            ctx, [](const Mat<T>& X, const Mat<T>& Y, const T& l) {
              return ridge_closed_form(X, Y, T(l * (T(1) + tiny_relative_step)));
            });
      });
}
#endif

#ifndef ICLPROOF_MUTATION_RATIONAL
TEST_CASE("ridge_min_norm_rate, the formula of LeastSquares.v, holds and is sharp as lambda -> 0",
          "[references]") {
  // proofs/LeastSquares.v:ridge_tends_to_min_norm_least_squares:
  //   ||W_ridge(lambda) - W+||_F <= ridge_min_norm_rate(lambda, mu) ||W+||_F
  //                                 = (lambda / mu) ||W+||_F, here with mu = sigma_min^2.
  // X = Q [diag(2, 1, 0) | 0] P^T (3 x 4, rank 2; Q, P products of rotations by Pythagorean
  // triples), so sigma_min = 1. With Y = u^T X, u = Q e_1 the left singular vector of
  // sigma_min: W+ = u^T and W_ridge - W+ = -lambda / (lambda + 1) u^T exactly (the factor
  // lambda / (lambda + sigma_min^2) of LeastSquares.v:ridge_min_norm_bound2), so bound / true
  // = 1 + lambda / sigma_min^2 -> 1: the rate cannot shrink by any constant factor. A generic
  // Y (a residual, both singular directions, two outputs) stays below the bound. 256 bits:
  // rounding ~1e-75, far below every margin checked.
  scoped_mpfr_precision p(256);
  const auto rotation = [](int n, int i, int j, const T& c, const T& s) {
    Mat<T> G = Mat<T>::Identity(n, n);
    G(i, i) = c;
    G(j, j) = c;
    G(i, j) = -s;
    G(j, i) = s;
    return G;
  };
  const Mat<T> Q =
      matmul(rotation(3, 0, 1, T(3) / 5, T(4) / 5), rotation(3, 1, 2, T(5) / 13, T(12) / 13));
  const Mat<T> P =
      matmul(rotation(4, 0, 2, T(8) / 17, T(15) / 17), rotation(4, 1, 3, T(7) / 25, T(24) / 25));
  Mat<T> S = Mat<T>::Zero(3, 4);
  S(0, 0) = 2;
  S(1, 1) = 1;
  const Mat<T> X = matmul_nt(matmul(Q, S), P);
  const T sigma_min(1);
  const Vec<T> sv = singular_values<T>(X);
  REQUIRE(abs_of(T(sv(1) - sigma_min)) < T(1e-60));
  REQUIRE(abs_of(sv(2)) < T(1e-60));
  const Mat<T> u_row = Q.col(1).transpose();  // 1 x 3
  const Mat<T> Y_aligned = matmul(u_row, X);
  Mat<T> Y_generic(2, 4);
  Y_generic << 1, -2, 3, 1, 0, 1, -1, 2;
  for (const double lambda_d : {0.5, 1.0 / 16, std::ldexp(1.0, -10), std::ldexp(1.0, -30)}) {
    const T lambda(lambda_d);
    const T rate = ridge_min_norm_rate(lambda, T(sigma_min * sigma_min));
    {
      const Mat<T> W_plus = min_norm_least_squares(X, Y_aligned);
      const T gap =
          reference_checks::frobenius<T>(Mat<T>(ridge_closed_form(X, Y_aligned, lambda) - W_plus));
      const T bound = rate * reference_checks::frobenius<T>(W_plus);
      CAPTURE(lambda_d, to_double(gap), to_double(bound));
      CHECK(reference_checks::frobenius<T>(Mat<T>(W_plus - u_row)) < T(1e-60));
      CHECK(abs_of(T(gap - lambda / (lambda + T(1)))) < T(1e-60));  // the proof's factor, attained
      CHECK(gap <= bound);
      CHECK(abs_of(T(bound / gap - (T(1) + lambda))) < T(1e-50));  // ratio 1 + lambda / sigma^2
      if (lambda_d <= std::ldexp(1.0, -10)) CHECK(T(0.99) * bound < gap);  // sharp as lambda -> 0
    }
    {
      const Mat<T> W_plus = min_norm_least_squares(X, Y_generic);
      const T gap =
          reference_checks::frobenius<T>(Mat<T>(ridge_closed_form(X, Y_generic, lambda) - W_plus));
      const T bound = rate * reference_checks::frobenius<T>(W_plus);
      CAPTURE(lambda_d, to_double(gap), to_double(bound));
      CHECK(gap > T(0));
      CHECK(gap <= bound);
    }
  }
  CHECK_THROWS_AS(ridge_min_norm_rate(T(0), T(1)), std::invalid_argument);
  CHECK_THROWS_AS(ridge_min_norm_rate(T(1), T(0)), std::invalid_argument);
}

TEST_CASE("every scalar type instantiates the references and reports its precision", "[core]") {
  CHECK(scalar_traits<double>::bits() == 53);
  CHECK(scalar_traits<long double>::bits() == 64);
  scoped_mpfr_precision p(1024);
  CHECK(scalar_traits<mpfr_real>::bits() >= 1024);
  // An identity with an exact answer: SM inverse of lambda I + x x^T with x = e_1, lambda = 1
  // is diag(1/2, 1, ...), exactly, at every precision.
  Mat<T> X = Mat<T>::Zero(3, 1);
  X(0, 0) = 1;
  const Mat<T> inv = sherman_morrison_inverse<T>(X, T(1));
  Mat<T> expected = Mat<T>::Identity(3, 3);
  expected(0, 0) = T(1) / T(2);
  CHECK(inv == expected);
  CHECK(precision_of(inv(1, 1)) >= 1024);
  const Mat<double> invd = sherman_morrison_inverse<double>(Mat<double>(X.cast<double>()), 1.0);
  CHECK(invd(0, 0) == 0.5);
  const Mat<long double> invl =
      sherman_morrison_inverse<long double>(Mat<long double>(X.cast<long double>()), 1.0L);
  CHECK(invl(0, 0) == 0.5L);
}
#endif

#ifndef ICLPROOF_MUTATION_RATIONAL
TEST_CASE("full_digits round-trips an MPFR value", "[core]") {
  scoped_mpfr_precision p(256);
  const T third = T(1) / T(3);
  const T back(full_digits(third));
  CHECK(back == third);
}
#endif

#ifndef ICLPROOF_MUTATION_RATIONAL
TEST_CASE("values made in another thread carry the run's precision", "[core][threads]") {
  // Boost 1.74 keeps the MPFR default precision process-wide (not per thread, unlike mpreal):
  // a worker started after set_mpfr_precision computes at the run's precision.
  scoped_mpfr_precision p(512);
  int worker_bits = 0;
  std::thread worker([&] { worker_bits = precision_of(mpfr_real(1) / mpfr_real(3)); });
  worker.join();
  CHECK(worker_bits == p.setting().actual_bits);
}
#endif

#ifndef ICLPROOF_MUTATION_RATIONAL
TEST_CASE("the GD iterate polynomial in eta equals K GD steps, exactly on dyadic data",
          "[references]") {
  // No tolerance: integer data, N = 4 and eta = 1/8 keep every value dyadic with a few dozen
  // bits, so both the recursion w <- w - eta (H w - b) and sum_j c_j eta^j are exact at 256 bits.
  scoped_mpfr_precision p(256);
  Mat<T> X(3, 4), y(1, 4);
  X << 1, -2, 3, 0, 2, 1, -1, 1, 0, 3, 1, -2;
  y << 2, -1, 1, 3;
  const quadratic_problem<T> q = make_quadratic_problem<T>(X, y);
  const T eta = T(1) / T(8);
  for (int K = 1; K <= 5; ++K) {
    const std::vector<Vec<T>> c = gd_iterate_polynomial(q, K);
    REQUIRE(static_cast<int>(c.size()) == K);
    Vec<T> from_polynomial = Vec<T>::Zero(3);
    T eta_j(1);
    for (int j = 0; j < K; ++j) {
      eta_j *= eta;
      from_polynomial += eta_j * c[static_cast<std::size_t>(j)];
    }
    Vec<T> w = Vec<T>::Zero(3);
    for (int k = 0; k < K; ++k) w -= eta * q.gradient(w);
    INFO("K = " << K);
    CHECK(from_polynomial == w);
    // The polynomial is not trivially equal to the iterate: one step fewer differs.
    if (K > 1) {
      Vec<T> fewer = Vec<T>::Zero(3);
      for (int k = 0; k + 1 < K; ++k) fewer -= eta * q.gradient(fewer);
      CHECK(from_polynomial != fewer);
    }
  }
  CHECK_THROWS_AS(gd_iterate_polynomial(q, 0), std::invalid_argument);
}

// Regression (the long sweep, tests/sweep/README.md): `iclproof check --scalar double --cases
// 20000` failed references.ridge_at_p_agrees_with_ridge_at_2p on this shrunk 1-D counterexample
// (error 2^-5.33 eps against a tolerance of 2^-6.33 eps). The old bound was relative to ||W||_F
// only, 2 ||W||_F (chol(d, kappa) + gamma_{N+2} (||X||_F^2 + lambda sqrt d) ||A^-1||_2 + eps); it
// omitted the rounding of the right-hand side X y^T, which is relative to sum |x_i y_i| and here
// far exceeds |sum x_i y_i|. The old bound must fail on this case and the corrected one hold.
TEST_CASE("ridge forward bound: the right-hand side term", "[references][tolerance]") {
  task_spec spec;
  spec.d = 1;
  spec.o = 1;
  spec.N = 3;
  spec.distribution = input_distribution::uniform;
  spec.noise = 0.1;
  spec.seed = 107103544;
  const double lambda = std::ldexp(1.0, -6);
  const auto task = make_task<double>(spec);
  const Mat<double> W_p = ridge_closed_form<double>(task.X, task.Y, lambda);
  Mat<double> W_2p(1, 1);
  {
    scoped_mpfr_precision twice(2 * 53);
    const auto task2 = make_task<mpfr_real>(spec);
    W_2p(0, 0) = static_cast<double>(
        ridge_closed_form<mpfr_real>(task2.X, task2.Y, mpfr_real(lambda))(0, 0));
  }
  const double err = std::abs(W_p(0, 0) - W_2p(0, 0));
  const double nw = std::abs(W_p(0, 0));
  // The old formula, verbatim.
  const Mat<double> A = matmul_nt(task.X, task.X) + lambda * Mat<double>::Identity(1, 1);
  const double a = A(0, 0), nx = std::sqrt(task.X.squaredNorm());
  const double old_rel = cholesky_solve_relative_bound<double>(1, 1.0) +
                         higham_gamma<double>(3 + 2) * (nx * nx + lambda) / a;
  const double old_bound = 2 * nw * (old_rel + eps<double>());
  const double new_bound =
      2 * (reference_checks::ridge_solve_error_bound<double>(task.X, task.Y, lambda, nw) +
           eps<double>() * nw);
  // The cancellation: |sum x_i y_i| is far below sum |x_i y_i|.
  const double dot = (task.X.array() * task.Y.array()).sum();
  const double abs_dot = (task.X.array().abs() * task.Y.array().abs()).sum();
  INFO("err " << err << " old bound " << old_bound << " new bound " << new_bound << " |x.y| "
              << std::abs(dot) << " |x|.|y| " << abs_dot);
  CHECK(std::abs(dot) < abs_dot / 16);
  CHECK(err > old_bound);        // the counterexample: the old bound fails
  CHECK(err <= new_bound);       // the corrected bound holds
  CHECK(new_bound <= 64 * err);  // and is not vacuous on it
}

// Regression (the long sweep, seed 20261123): iterated_sherman_morrison_equals_ridge
// failed in double on this shrunk case (error 2^5.81 eps, tolerance 2^5.44 eps; long double
// failed likewise). The old bound counted the updates' rounding as N gamma_{2d+3} kappa(A_N)
// relative to ||A_N^-1||; in 1-D kappa(A_N) = 1 while the update 1/lambda - x^2 / (lambda
// (lambda + x^2)) cancels from 1/lambda down to 1/(lambda + x^2).
TEST_CASE("Sherman-Morrison bound: the update's cancellation", "[references][tolerance]") {
  task_spec spec;
  spec.d = 1;
  spec.o = 1;
  spec.N = 1;
  spec.distribution = input_distribution::gaussian;
  spec.seed = 3160044;
  const double lambda = 0.125;
  const auto task = make_task<double>(spec);
  const Mat<double> W_sm = iterated_sherman_morrison_ridge<double>(task.X, task.Y, lambda);
  const Mat<double> W_ridge = ridge_closed_form<double>(task.X, task.Y, lambda);
  const double err = std::abs(W_sm(0, 0) - W_ridge(0, 0));
  // The old formula, verbatim.
  const double x2 = task.X(0, 0) * task.X(0, 0);
  const double XY = std::abs(task.X(0, 0)) * std::abs(task.Y(0, 0));
  const double scale = std::max(std::abs(W_ridge(0, 0)), XY / (lambda + x2));
  const double old_bound = 2 * scale *
                           (cholesky_solve_relative_bound<double>(1, 1.0) +
                            1 * higham_gamma<double>(2 + 3) * 1.0 + 2 * higham_gamma<double>(2));
  const double new_bound = reference_checks::sherman_morrison_ridge_error_bound<double>(
      task.X, task.Y, lambda, std::abs(W_ridge(0, 0)));
  INFO("err " << err << " old " << old_bound << " new " << new_bound << " lambda_min(A)/lambda "
              << (lambda + x2) / lambda);
  CHECK(err > old_bound);
  CHECK(err <= new_bound);
  CHECK(new_bound <= 64 * err);
}

// Regression (same sweep): ridge_tends_to_min_norm_least_squares threw "cholesky bound: kappa c
// >= 1/2, the bound is void" in double on this shrunk case: a square uniform X with a large
// kappa_X, and lambda = sigma_min^2 2^-3 gave kappa(A) = kappa_X^2 2^3 + 1 past the bound's range.
TEST_CASE("ridge -> min-norm: the exponent keeps the Cholesky bound valid",
          "[references][tolerance]") {
  task_spec spec;
  spec.d = 3;
  spec.o = 1;
  spec.N = 3;
  spec.distribution = input_distribution::uniform;
  spec.seed = 477816953;
  const auto task = make_task<double>(spec);
  const Vec<double> sv = singular_values<double>(task.X);
  const double kappa_X = sv(0) / sv(2);
  const auto kappa_A = [&](int k) { return kappa_X * kappa_X * std::ldexp(1.0, k) + 1; };
  INFO("kappa_X " << kappa_X);
  CHECK_THROWS_AS(cholesky_solve_relative_bound<double>(3, kappa_A(3)), std::domain_error);
  const int k = reference_checks::min_norm_ridge_exponent<double>(3, kappa_X);
  CHECK(k < 3);
  CHECK_NOTHROW(cholesky_solve_relative_bound<double>(3, kappa_A(k)));
  CHECK(cholesky_solve_relative_bound<double>(3, kappa_A(k)) <= 0.5);
}
#endif
