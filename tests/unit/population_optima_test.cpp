// The exact population optima (references/population_optima.hpp): the preset values against
// hand-computed rationals, and mutation tests of the properties' checks (a broken moment must be
// caught by the Monte Carlo check, a broken minimiser by the exact rational check).
#include "population_optima.hpp"
#include "mutation_testing.hpp"

#include <catch2/catch.hpp>

#include <boost/multiprecision/cpp_int.hpp>

using namespace iclproof;
using namespace iclproof::population_optima_checks;
using Q = boost::multiprecision::cpp_rational;

namespace {
const mutation_runner mutants{17};
}

// By hand (population_optima.hpp): U(-1,1), d = N = 10: s2 = 1/3, m4 = 1/5,
// eta* = N s2 / (m4 + (N + d - 2) s2^2) = (10/3) / (1/5 + 2) = 50/33, full minimum
// d s2 (1 - s2 eta*) = (10/3)(49/99) = 490/297. N(0, 1), d = 5, N = 20: eta* = 20/26 = 10/13.
TEST_CASE("population_optima: preset values are the hand-computed rationals", "[references]") {
  const auto q = one_step_gd_isotropic<Q>(10, 10, uniform_coordinate_moments<Q>(Q(1)));
  CHECK(q.minimiser() == Q(50, 33));
  CHECK(q.minimum() == Q(490, 297));
  const auto g = one_step_gd_isotropic<Q>(5, 20, gaussian_coordinate_moments<Q>(Q(1)));
  CHECK(g.minimiser() == Q(10, 13));
  // The Gaussian matrix form on Sigma = I agrees with the isotropic form (at 256 bits).
  scoped_mpfr_precision p(256);
  using T = mpfr_real;
  const Mat<T> I = Mat<T>::Identity(5, 5);
  const auto gm = one_step_gd_gaussian<T>(I, I, 20);
  CHECK(abs(gm.minimiser() - T(10) / T(13)) < T(1e-70));
  // Ahn/Memformer presets' Sigma eigenvalues (1, 1, 1/2, 1/4, 1), w ~ N(0, Sigma^-1), N = 20:
  // eta* = N tr Sigma / ((N + d + 1) tr Sigma^2) = 20 * (15/4) / (26 * 53/16) = 1200/1378
  // = 600/689; A* = (20/26) Sigma^-1 with full minimum d (d+1) / (N+d+1) = 30/26 = 15/13.
  Vec<T> s(5);
  s << T(1), T(1), T(0.5), T(0.25), T(1);
  const Mat<T> Sigma = s.asDiagonal();
  const Mat<T> Sinv = inverse(Sigma);
  CHECK(abs(one_step_gd_gaussian<T>(Sigma, Sinv, 20).minimiser() - T(600) / T(689)) < T(1e-70));
  const auto opt = one_step_optimal_preconditioner<T>(Sigma, Sinv, 20);
  CHECK(abs(opt.loss - T(15) / T(13)) < T(1e-70));
  CHECK((opt.P - Mat<T>((T(10) / T(13)) * Sinv)).cwiseAbs().maxCoeff() < T(1e-70));
}

TEST_CASE("population_optima: the Monte Carlo check catches a wrong fourth moment",
          "[references][mutation]") {
  using check = std::function<void(case_context&)>;
  const check good = [](case_context& ctx) {
    one_step_gd_isotropic_matches_monte_carlo<mpfr_real>(
        ctx, [](int d, int N, const auto& m) { return one_step_gd_isotropic(d, N, m); });
  };
  // Mutant: the i = j terms of E tr C^2 with E||x||^4 replaced by (E||x||^2)^2, i.e. C's
  // fluctuation ignored (the fourth moment taken as s2^2 and the diagonal pairs as off-diagonal).
  const check bad = [](case_context& ctx) {
    one_step_gd_isotropic_matches_monte_carlo<mpfr_real>(ctx, [](int d, int N, const auto& m) {
      using S = std::decay_t<decltype(m.second)>;
      auto q = one_step_gd_isotropic(d, N, m);
      q.a = S(m.second * S(d) * m.second * m.second);  // s2 * tr(E C)^2 / d: no fluctuation
      return q;
    });
  };
  mutants.expect_killed(good, bad, 10);
}

TEST_CASE("population_optima: the Monte Carlo check catches a wrong Wishart moment",
          "[references][mutation]") {
  using T = mpfr_real;
  using check = std::function<void(case_context&)>;
  auto loss = [](const Mat<T>& S, const Mat<T>& Sw, int N, const Mat<T>& P) {
    return one_step_preconditioned_loss(S, Sw, N, P);
  };
  const check good = [&](case_context& ctx) {
    one_step_preconditioner_matches_monte_carlo<T>(
        ctx,
        [](const Mat<T>& S, const Mat<T>& Sw, int N) {
          return one_step_optimal_preconditioner(S, Sw, N);
        },
        loss);
  };
  // Mutant: the loss evaluated with E[C M C] ~ Sigma M Sigma (C replaced by its mean: the
  // 1/N Wishart terms dropped), so it underestimates the loss at every P.
  const check bad = [&](case_context& ctx) {
    one_step_preconditioner_matches_monte_carlo<T>(
        ctx,
        [](const Mat<T>& S, const Mat<T>& Sw, int N) {
          return one_step_optimal_preconditioner(S, Sw, N);
        },
        [](const Mat<T>& S, const Mat<T>& Sw, int N, const Mat<T>& P) {
          (void)N;
          const Mat<T> G = matmul(matmul(S, Sw), S);
          const Mat<T> B = P.transpose();
          return T(matmul(matmul(matmul(B, G), P), S).trace() - T(2) * matmul(B, G).trace() +
                   matmul(Sw, S).trace());
        });
  };
  mutants.expect_killed(good, bad, 10);
}

TEST_CASE("population_optima: the exact check catches an off-by-one minimiser",
          "[references][mutation]") {
  using check = std::function<void(case_context&)>;
  const check good = [](case_context& ctx) {
    step_size_minimises_quadratic_exactly(
        ctx, [](int d, int N, const auto& m) { return one_step_gd_isotropic(d, N, m); });
  };
  // Mutant: (N + d - 1) for (N + d - 2) in E tr C^2: every number shifts by a rational.
  const check bad = [](case_context& ctx) {
    step_size_minimises_quadratic_exactly(ctx, [](int d, int N, const auto& m) {
      auto q = one_step_gd_isotropic(d, N, m);
      q.a = Q(m.second * Q(d) / Q(N) * (m.fourth + Q(N + d - 1) * m.second * m.second));
      return q;
    });
  };
  mutants.expect_killed(good, bad, 30);
}
