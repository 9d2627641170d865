// Unit and mutation tests of the (k + 2)-layer iterative-Newton construction
// (docs/constructions/iterative_newton.md; properties/iterative_newton.hpp). A hand-computed
// exact prompt fixes the prediction; every iterative_newton.* check is run on the real
// construction (must pass) and on broken ones (must fail): wrong alpha (scaled by 1 + 2^-40, and
// doubled), the Newton correction's sign flipped, its +M term dropped, the read-out scaled.
#include "iterative_newton.hpp"
#include "iterative_newton_errata.hpp"

#include "core/precision.hpp"
#include "harness/runner.hpp"

#include "mutation_testing.hpp"

#include <catch2/catch.hpp>

#include <cmath>

// Everything in a namespace of its own: the unit tests are compiled as unity batches.
namespace iterative_newton_unit_test {
using namespace iclproof;
namespace inc = iclproof::iterative_newton_checks;

namespace {
using T = mutation_scalar;

const family_mutants<inc::constructions<T>> iterative_newton_mutants{37,
                                                                     inc::real_constructions<T>()};

const T tiny = T(std::ldexp(1.0, -40));

inc::constructions<T> alpha_scaled(const T& factor) {
  return {[factor](Eigen::Index d, int k, const T& alpha) {
    return iterative_newton_stack<T>(d, k, T(alpha * factor));
  }};
}
// Edits every Newton layer (layers 1..k) of the real stack.
template <class Edit>
inc::constructions<T> newton_layers_edited(Edit edit) {
  return {[edit](Eigen::Index d, int k, const T& alpha) {
    auto s = iterative_newton_stack<T>(d, k, alpha);
    for (int l = 1; l <= k; ++l) edit(s.layers[l]);
    return s;
  }};
}
inc::constructions<T> correction_sign_flipped() {
  return newton_layers_edited([](lsa_layer<T>& l) { l.heads[1].P = -l.heads[1].P; });
}
inc::constructions<T> plus_m_term_dropped() {
  return newton_layers_edited([](lsa_layer<T>& l) { l.heads.erase(l.heads.begin()); });
}
inc::constructions<T> readout_scaled() {
  return {[](Eigen::Index d, int k, const T& alpha) {
    auto s = iterative_newton_stack<T>(d, k, alpha);
    s.layers.back().heads[0].P *= T(T(1) + tiny);
    return s;
  }};
}

void prediction_check(case_context& ctx, const inc::constructions<T>& make) {
  inc::prediction_with_alpha<T>(ctx, make, inc::alpha_choice::inverse_frobenius_squared);
}
}  // namespace

TEST_CASE("iterative_newton: hand-computed prompt (exact)", "[iterative_newton]") {
  using Q = rational_real;
  // X = [[1, 1], [0, 1]] (columns x_1 = (1, 0), x_2 = (1, 1)), y = (1, 2), x_q = (0, 1):
  // S = X X^T = [[2, 1], [1, 1]], X y = (3, 2), ||S||_F^2 = 7, alpha = 1/7.
  // By hand: M_0 = S/7, S^3 = [[13, 8], [8, 5]], M_1 = 2 S/7 - S^3/49 = [[15, 6], [6, 9]] / 49,
  // prediction x_q^T M_1 X y = (6 * 3 + 9 * 2) / 49 = 36/49.
  Mat<Q> X(2, 2), y(1, 2), Xq(2, 1);
  X << Q(1), Q(1), Q(0), Q(1);
  y << Q(1), Q(2);
  Xq << Q(0), Q(1);
  const Mat<Q> S = matmul_nt(X, X);
  const Q alpha = inverse_frobenius_squared_alpha<Q>(S);
  CHECK(alpha == Q(1) / Q(7));
  const auto out = lsa_stack_forward<Q>(iterative_newton_stack<Q>(2, 1, alpha),
                                        iterative_newton_tokens<Q>(X, y, Xq), 2);
  REQUIRE(out.size() == 4);
  Mat<Q> M1(2, 2);
  M1 << Q(15) / Q(49), Q(6) / Q(49), Q(6) / Q(49), Q(9) / Q(49);
  CHECK(iterative_newton_iterate<Q>(out[2], 2, 2) == M1);
  CHECK(iterative_newton_predictions<Q>(out[3], 2, 2)(0, 0) == Q(36) / Q(49));
}

TEST_CASE("iterative_newton: bad sizes are one clear error", "[iterative_newton]") {
  CHECK_THROWS_AS(iterative_newton_stack<double>(0, 1, 1.0), std::invalid_argument);
  CHECK_THROWS_AS(iterative_newton_stack<double>(2, -1, 1.0), std::invalid_argument);
  CHECK_THROWS_AS(iterative_newton_tokens<double>(Mat<double>::Zero(2, 3), Mat<double>::Zero(1, 2),
                                                  Mat<double>::Zero(2, 1)),
                  std::invalid_argument);
}

TEST_CASE("iterative_newton mutants: wrong alpha", "[iterative_newton][mutation]") {
  iterative_newton_mutants.expect_killed(&prediction_check, alpha_scaled(T(T(1) + tiny)));
  iterative_newton_mutants.expect_killed(&inc::registers_hold_iterates<T>,
                                         alpha_scaled(T(T(1) + tiny)));
  iterative_newton_mutants.expect_killed(&inc::residual_is_power<T>, alpha_scaled(T(2)));
  iterative_newton_mutants.expect_killed(&inc::m1_m2_expansions<T>, alpha_scaled(T(2)));
}

TEST_CASE("iterative_newton mutants: the correction's sign flipped",
          "[iterative_newton][mutation]") {
  iterative_newton_mutants.expect_killed(&prediction_check, correction_sign_flipped());
  iterative_newton_mutants.expect_killed(&inc::residual_is_power<T>, correction_sign_flipped());
}

TEST_CASE("iterative_newton mutants: the +M term dropped", "[iterative_newton][mutation]") {
  iterative_newton_mutants.expect_killed(&inc::registers_hold_iterates<T>, plus_m_term_dropped());
  iterative_newton_mutants.expect_killed(&inc::m1_m2_expansions<T>, plus_m_term_dropped());
}

TEST_CASE("iterative_newton mutants: the read-out scaled by 1 + 2^-40",
          "[iterative_newton][mutation]") {
  iterative_newton_mutants.expect_killed(&prediction_check, readout_scaled());
}

#ifdef ICLPROOF_MUTATION_RATIONAL
// Exact only (an exact solve for w*): the OLS error identity catches a wrong alpha too.
TEST_CASE("iterative_newton mutants: OLS error identity catches wrong alpha and a dropped term",
          "[iterative_newton][mutation]") {
  iterative_newton_mutants.expect_killed(&inc::ols_error_is_residual_power<T>, alpha_scaled(T(2)));
  iterative_newton_mutants.expect_killed(&inc::ols_error_is_residual_power<T>,
                                         plus_m_term_dropped());
}
#endif

}  // namespace iterative_newton_unit_test

// The erratum measurement confirms only when BOTH of its conditions hold (issue 39): a "printed"
// side right in one of its two expansions, or the printed side itself as the correction, or a
// correction wrong in one expansion, must not confirm.
TEST_CASE("iterative_newton: the sec5 erratum confirms only when both conditions hold") {
  const std::vector<int> p1 = {2, -4}, p2 = {4, -12, 16, -16}, c1 = {2, -1}, c2 = {4, -6, 4, -1};
  CHECK(measure_sec5_expansions(p1, p2, c1, c2).supports_correction);
  CHECK_FALSE(measure_sec5_expansions(c1, p2, c1, c2).supports_correction);  // printed M_1 right
  CHECK_FALSE(measure_sec5_expansions(p1, c2, c1, c2).supports_correction);  // printed M_2 right
  CHECK_FALSE(
      measure_sec5_expansions(c1, c2, c1, c2).supports_correction);  // nothing printed wrong
  CHECK_FALSE(measure_sec5_expansions(p1, p2, p1, c2).supports_correction);  // correction M_1 wrong
  CHECK_FALSE(measure_sec5_expansions(p1, p2, c1, p2).supports_correction);  // correction M_2 wrong
}
