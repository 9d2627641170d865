// Unit and mutation tests of the GD++ rate construction (Vladymyrov et al. 2024, Theorem 5.1,
// Lemmas A.2-A.3; src/gdpp_rate, properties/gdpp_rate.hpp). The gdpp_rate.* checks run on the
// real schedule and stack (must pass) and on broken ones (must fail): gamma nu = 1/2 instead of
// 1/3 (wrong gamma), the final step eta/N doubled (scale), the preconditioning layers' gamma sign
// flipped (sign), the last preconditioning layer dropped (dropped term).
#include "gdpp_rate.hpp"

#include "compare/gdpp_table1.hpp"
#include "mutation_testing.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <string>

using namespace iclproof;
using namespace iclproof::gdpp_rate_checks;

namespace {
using T = mutation_scalar;

const mutation_runner gdpp_rate_mutants{31};

[[maybe_unused]] construction<T> wrong_gamma() {  // used by the rational run only
  auto m = real_construction<T>();
  m.schedule = [](const T& mu, const T& nu, int K) {
    auto s = gdpp_rate_schedule_for<T>(mu, nu, K);
    // gamma_l nu_l = 1/2: the map is no longer monotone on [0, nu_l] the way Lemma A.3 needs.
    for (int l = 0; l < K; ++l) {
      s.gamma[l] = T(1) / (T(2) * s.nu[l]);
      s.mu[l + 1] = gdpp_eigenvalue_map(s.mu[l], s.gamma[l]);
      s.nu[l + 1] = gdpp_eigenvalue_map(s.nu[l], s.gamma[l]);
    }
    s.eta_over_n = T(1) / s.mu.back();
    return s;
  };
  return m;
}
[[maybe_unused]] construction<T> final_step_doubled() {  // rational run only
  auto m = real_construction<T>();
  m.schedule = [](const T& mu, const T& nu, int K) {
    auto s = gdpp_rate_schedule_for<T>(mu, nu, K);
    s.eta_over_n *= T(2);
    return s;
  };
  return m;
}
construction<T> gamma_sign_flipped() {
  auto m = real_construction<T>();
  m.stack = [](Eigen::Index d, Eigen::Index o, Eigen::Index N, const gdpp_rate_schedule<T>& s) {
    auto flipped = s;
    for (auto& g : flipped.gamma) g = -g;
    return gdpp_rate_stack<T>(d, o, N, flipped);
  };
  return m;
}
construction<T> last_layer_dropped() {
  auto m = real_construction<T>();
  m.stack = [](Eigen::Index d, Eigen::Index o, Eigen::Index N, const gdpp_rate_schedule<T>& s) {
    auto stack = gdpp_rate_stack<T>(d, o, N, s);
    if (stack.layers.size() >= 2) stack.layers.erase(stack.layers.end() - 2);
    return stack;
  };
  return m;
}

template <class Check>
void expect_killed(const Check& check, const construction<T>& mutant, int cases = 30) {
  gdpp_rate_mutants.expect_killed([&](case_context& ctx) { check(ctx, real_construction<T>()); },
                                  [&](case_context& ctx) { check(ctx, mutant); }, cases);
}
}  // namespace

TEST_CASE("gdpp_rate: the kappa map and the schedule on numbers", "[gdpp_rate]") {
  // kappa = 4: 4 * 64 / 121; kappa = 1 + 1/10: excess (1/100)(3/4 + 1/10)/(1 + 3/20)^2.
  CHECK(gdpp_kappa_map<rational_real>(rational_real(4)) == rational_real(256) / rational_real(121));
  const rational_real e = rational_real(1) / rational_real(10);
  const rational_real den = rational_real(23) / rational_real(20);
  CHECK(gdpp_kappa_map<rational_real>(rational_real(1) + e) - rational_real(1) ==
        e * e * (rational_real(3) / rational_real(4) + e) / (den * den));
  const auto s = gdpp_rate_schedule_for<rational_real>(rational_real(1), rational_real(9), 2);
  CHECK(s.gamma[0] == rational_real(1) / rational_real(27));
  CHECK(s.nu[1] == rational_real(4));  // 4/9 * 9
  CHECK(s.nu[2] / s.mu[2] == gdpp_kappa_map(gdpp_kappa_map(rational_real(9))));
  CHECK(gdpp_rate_layers_needed<double>(1.0, 1e-3) == 0);
  CHECK(gdpp_rate_layer_bound(1.0L, 1e-3L) == 2);  // log2(log(0.002)/log(0.2)) = 1.95
  CHECK_THROWS_AS(gdpp_rate_schedule_for<double>(0.0, 1.0, 1), std::invalid_argument);
  CHECK_THROWS_AS(gdpp_rate_schedule_for<double>(2.0, 1.0, 1), std::invalid_argument);
  CHECK_THROWS_AS(gdpp_rate_layers_needed<double>(0.5, 1e-3), std::invalid_argument);
}

TEST_CASE("gdpp_rate: Lemma A.3's contraction constant is 484/529", "[gdpp_rate]") {
  // c = (4/9) / (1 - 1/3.3)^2, computed from the lemma's numbers: 484/529 in lowest terms
  // (= 4356/4761), 0.914934 to six digits (an earlier contract printed 0.91491).
  const rational_real c = gdpp_lemma_a3_contraction<rational_real>();
  CHECK(c == rational_real(484) / rational_real(529));
  CHECK(c == rational_real(4356) / rational_real(4761));
  char six[32];
  std::snprintf(six, sizeof six, "%.6f", gdpp_lemma_a3_contraction<double>());
  CHECK(std::string(six) == "0.914934");
  CHECK(std::fabs(gdpp_lemma_a3_contraction<long double>() - 484.0L / 529.0L) <= 4e-19L);
}

TEST_CASE("gdpp_rate eigenvalue-map property fails on a flipped gamma and a dropped layer",
          "[gdpp_rate][mutation]") {
  const auto check = [](case_context& ctx, const construction<T>& c) {
    preconditioning_layer_maps_each_eigenvalue<T>(ctx, c);
  };
  expect_killed(check, gamma_sign_flipped());
  expect_killed(check, last_layer_dropped());
}

#ifdef ICLPROOF_MUTATION_RATIONAL
TEST_CASE("gdpp_rate kappa and eps properties fail on a wrong gamma, scale and dropped layer",
          "[gdpp_rate][mutation]") {
  const auto kappa = [](case_context& ctx, const construction<T>& c) {
    condition_number_contracts_as_lemma_a3<T>(ctx, c);
  };
  expect_killed(kappa, wrong_gamma(), 20);
  expect_killed(kappa, gamma_sign_flipped(), 20);
  const auto eps = [](case_context& ctx, const construction<T>& c) {
    gdpp_stack_reaches_eps_in_the_stated_layers<T>(ctx, c);
  };
  expect_killed(eps, final_step_doubled(), 20);
  expect_killed(eps, wrong_gamma(), 20);
  expect_killed(eps, last_layer_dropped(), 20);
}
#endif

#ifndef ICLPROOF_MUTATION_RATIONAL
// A measurement, not a check of the paper: the construction's loss in App. B Table 1's setting
// (N = 20, D = 10, x, x_t ~ N(0, I), w ~ N(0, I), no noise, so the oracle loss is 0 and the
// adjusted loss is the loss). L layers = L - 1 preconditioning layers + the GD layer, the schedule
// from each prompt's exact spectrum [lambda_min, lambda_max] of X X^T (which no fixed-weight
// transformer has: see docs/constructions/gdpp_rate.md). Printed for the report; the only check
// is that 11 layers do better than 2 (the theorem bounds each prompt, not this average).
TEST_CASE("gdpp_rate: the construction's loss in Table 1's setting (printed)", "[gdpp_rate]") {
  const int d = 10, N = 20, prompts = 2000;
  std::vector<double> loss(12, 0.0);
  data_rng rng(2024);
  for (int p = 0; p < prompts; ++p) {
    const Mat<double> X = rng.normal_matrix(d, N), w = rng.normal_matrix(d, 1);
    const Mat<double> xq = rng.normal_matrix(d, 1);
    const Mat<double> Y = w.transpose() * X;
    const double yq = (w.transpose() * xq)(0, 0);
    const Vec<double> ev = symmetric_eigenvalues<double>(Mat<double>(X * X.transpose()));
    const Mat<double> E = regression_tokens<double>(X, Y, xq, Mat<double>::Zero(1, 1));
    for (int L = 1; L <= 11; ++L) {
      const auto s = gdpp_rate_schedule_for<double>(ev(0), ev(d - 1), L - 1);
      const auto out = lsa_stack_forward<double>(gdpp_rate_stack<double>(d, 1, N, s), E, N);
      const double err = -out.back()(d, N) - yq;
      loss[L] += err * err / prompts;
    }
  }
  std::printf("gdpp_rate construction, Table 1 setting (N = 20, D = 10, sigma = 0, %d prompts):\n",
              prompts);
  for (int L = 1; L <= 11; ++L) std::printf("  %2d layers: loss %.3g\n", L, loss[L]);
  CHECK(loss[11] < loss[2]);
}
#endif

#ifndef ICLPROOF_MUTATION_RATIONAL
// The error bars of Table 1 (compare/gdpp_table1.hpp, iclproof-gdpp-table1): the standard error
// by hand, the sequences reproducible, and one GD step at eta* = N/(N + d + 1) = 20/31 on fresh
// sequences against its exact population loss (1/2) d (d + 1)/(N + d + 1) = 55/31.
TEST_CASE("gdpp_table1: mean and standard error, and one layer at eta* against 55/31",
          "[gdpp_rate][gdpp_table1]") {
  // {1, 2, 3, 4}: mean 5/2, sample variance 5/3, standard error sqrt(5/3)/2 = 0.6454972...
  const sampled_loss s = mean_with_standard_error({1.0, 2.0, 3.0, 4.0});
  CHECK(s.mean == 2.5);
  CHECK(std::fabs(s.standard_error - std::sqrt(5.0 / 3.0) / 2.0) <= 1e-15);
  CHECK(s.sequences == 4);
  CHECK_THROWS_AS(mean_with_standard_error({1.0}), std::invalid_argument);
  const auto a = table1_sequences(3, 11), b = table1_sequences(3, 11);
  CHECK(a[2].X == b[2].X);
  CHECK(a[2].yq == b[2].yq);
  CHECK(table1_paper_gdpp(2) == 0.341);
  const sampled_loss one = gdpp_fresh_loss(20000, 5, {20.0 / 31.0}, {0.0});
  std::printf("one GD step at eta* on 20000 fresh sequences: %.4f +- %.4f (exact 55/31 = %.4f)\n",
              one.mean, one.standard_error, 55.0 / 31.0);
  // A statistical check with a named width: 5 standard errors (two-sided p = 6e-7 under the CLT).
  CHECK(std::fabs(one.mean - 55.0 / 31.0) <= 5.0 * one.standard_error);
}
#endif
