// Unit and mutation tests of the (k + 2)-layer iterative-Newton construction
// (docs/constructions/iterative_newton.md; properties/iterative_newton.hpp). A hand-computed
// exact prompt fixes the prediction; every iterative_newton.* check is run on the real
// construction (must pass) and on broken ones (must fail): wrong alpha (scaled by 1 + 2^-40, and
// doubled), the Newton correction's sign flipped, its +M term dropped, the read-out scaled.
#include "iterative_newton.hpp"
#include "fu_relu_checks.hpp"
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

// Fu et al.'s Theorem 5.1 as App. B.2 builds it, with fixed weights
// (properties/fu_relu_checks.hpp): exact checks in rationals on the real ReLU transformer (must
// pass) and on broken ones (must fail).
namespace {
using Q = rational_real;
namespace fk = iclproof::fu_relu_checks;
const mutation_runner fu_relu_mutants{41, scalar_kind::rational};

template <class Check>
void fu_killed(const Check& check, const fk::fu_relu_constructions<Q>& bad, int cases = 20) {
  fu_relu_mutants.expect_check_kills(
      [&](case_context& ctx, const fk::fu_relu_constructions<Q>& c) { check(ctx, c); },
      fk::real_fu_relu<Q>(), bad, cases);
}
template <class Edit>
fk::fu_relu_constructions<Q> fu_edited(Edit edit) {
  auto m = fk::real_fu_relu<Q>();
  m.transformer = [edit](Eigen::Index d, int k, const Q& alpha) {
    auto tf = fu_relu_transformer<Q>(d, k, alpha);
    edit(tf, k);
    return tf;
  };
  return m;
}
fk::fu_relu_constructions<Q> fu_alpha_doubled() {
  auto m = fk::real_fu_relu<Q>();
  m.transformer = [](Eigen::Index d, int k, const Q& alpha) {
    return fu_relu_transformer<Q>(d, k, Q(alpha * Q(2)));
  };
  return m;
}
fk::fu_relu_constructions<Q> fu_values_equal() {  // App. B.2 as printed: V_2 = V_1 everywhere
  return fu_edited([](relu_transformer<Q>& tf, int) {
    for (auto& b : tf.blocks)
      if (b.attention.heads.size() == 2) b.attention.heads[1].V = b.attention.heads[0].V;
  });
}
fk::fu_relu_constructions<Q> fu_doubling_dropped() {  // the Newton blocks' MLP removed
  return fu_edited([](relu_transformer<Q>& tf, int k) {
    for (int l = 0; l < k; ++l) {
      auto& mlp = tf.blocks[static_cast<std::size_t>(3 + l)].mlp;
      mlp.W1 = Mat<Q>(0, mlp.W1.cols());
      mlp.W2 = Mat<Q>(mlp.W2.rows(), 0);
    }
  });
}
fk::fu_relu_constructions<Q> fu_newton_block_dropped() {
  return fu_edited([](relu_transformer<Q>& tf, int k) {
    if (k > 0) tf.blocks.erase(tf.blocks.begin() + 3);
  });
}
fk::fu_relu_constructions<Q> fu_readout_sign_flipped() {
  return fu_edited([](relu_transformer<Q>& tf, int) {
    for (auto& h : tf.blocks.back().attention.heads) h.V = -h.V;
  });
}
fk::fu_relu_constructions<Q> fu_printed_is_corrected() {  // the erratum check fed the fix
  auto m = fk::real_fu_relu<Q>();
  m.printed_init = [](Eigen::Index d, const Q& alpha) { return fu_relu_init_block<Q>(d, alpha); };
  return m;
}
}  // namespace

TEST_CASE("fu_relu: hand-computed prompt, d = 1 (exact)", "[iterative_newton][fu_relu]") {
  // x = (1, 2), y = (1, 1), query 1: S = 5, X y = 3, alpha = 1/25: M_0 = 1/5,
  // M_1 = 2/5 - (1/25) 5 = 1/5 (alpha S^2 = 1: one step from M_0 is already S^-1 = 1/5).
  // Prediction x_q M_k X y = 3/5 for every k; u after block 3 = alpha S x = (1/5, 2/5).
  Mat<Q> X(1, 2), y(1, 2), xq(1, 1);
  X << Q(1), Q(2);
  y << Q(1), Q(1);
  xq << Q(1);
  const Q alpha = Q(1) / Q(25);
  for (int k = 0; k <= 2; ++k) {
    const auto out = relu_transformer_forward<Q>(fu_relu_transformer<Q>(1, k, alpha),
                                                 fu_relu_tokens<Q>(X, y, xq), 2);
    CHECK(out.size() == static_cast<std::size_t>(k + 5));
    CHECK(fu_relu_predictions<Q>(out.back(), 1, 2)(0, 0) == Q(3) / Q(5));
    CHECK(fu_relu_context_u<Q>(out[3], 1, 2)(0, 1) == Q(2) / Q(5));
  }
  CHECK(fk::fu_class_alpha<Q>() == Q(1) / Q(9216));
  CHECK_THROWS_AS(fu_relu_transformer<double>(0, 1, 0.5), std::invalid_argument);
  CHECK_THROWS_AS(fu_relu_transformer<double>(2, -1, 0.5), std::invalid_argument);
  CHECK_THROWS_AS(fu_relu_tokens<double>(Mat<double>::Zero(2, 3), Mat<double>::Zero(1, 2),
                                         Mat<double>::Zero(2, 1)),
                  std::invalid_argument);
}

TEST_CASE("fu_relu mutants: alpha doubled, the printed V_2 = V_1, the doubling MLP dropped",
          "[iterative_newton][fu_relu][mutation]") {
  fu_killed(&fk::fixed_weights_predict<Q>, fu_alpha_doubled());
  fu_killed(&fk::blocks_hold_the_iterates<Q>, fu_alpha_doubled());
  fu_killed(&fk::contraction_in_the_class<Q>, fu_alpha_doubled());
  fu_killed(&fk::just_outside_the_class<Q>, fu_alpha_doubled(), 1);
  fu_killed(&fk::fixed_weights_predict<Q>, fu_values_equal());
  fu_killed(&fk::blocks_hold_the_iterates<Q>, fu_values_equal());
  fu_killed(&fk::fixed_weights_predict<Q>, fu_doubling_dropped());
  fu_killed(&fk::residual_at_fixed_alpha<Q>, fu_doubling_dropped());
}

TEST_CASE("fu_relu mutants: a Newton block dropped, the read-out's sign, the erratum fed the fix",
          "[iterative_newton][fu_relu][mutation]") {
  fu_killed(&fk::fixed_weights_predict<Q>, fu_newton_block_dropped());
  fu_killed(&fk::residual_at_fixed_alpha<Q>, fu_newton_block_dropped());
  fu_killed(&fk::fixed_weights_predict<Q>, fu_readout_sign_flipped());
  fu_killed(&fk::contraction_in_the_class<Q>, fu_readout_sign_flipped());
  fu_killed(&fk::printed_heads_give_absolute_scores<Q>, fu_printed_is_corrected());
}

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
