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
const mutation_runner mutants{7};
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
  const auto good = mutants.run([](case_context& ctx) {
    reference_checks::sherman_morrison_equals_ridge<T>(
        ctx, [](const Mat<T>& X, const Mat<T>& Y, const T& l) {
          return iterated_sherman_morrison_ridge(X, Y, l);
        });
  });
  CHECK(good.outcome == verdict::pass);
  // Mutant: lambda off by a factor 1 + 2^-40 (far below double's visibility of the bug).
  const auto bad = mutants.run([](case_context& ctx) {
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
  mutants.expect_killed(good, bad, cases);
}
using T = mutation_scalar;
const T tiny = T(std::ldexp(1.0, -40));  // a perturbation only high precision resolves
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
          return gd_iterates<T>(Mat<T>::Zero(Y.rows(), X.rows()), X, Y, T(eta * (T(1) + tiny)), K)
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
              return ridge_closed_form(X, Y, T(l * (T(1) + tiny)));
            });
      });
}
#endif

#ifndef ICLPROOF_MUTATION_RATIONAL
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
#endif
