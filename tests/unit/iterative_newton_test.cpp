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
// The paper's k + 8 layout (checks 7-9), edited after it is built.
template <class S, class Edit>
fk::fu_relu_constructions<S> fu_paper_edited(Edit edit) {
  auto m = fk::real_fu_relu<S>();
  m.paper = [edit](Eigen::Index d, int k, const S& alpha, const S& bound) {
    auto tf = fu_paper_transformer<S>(d, k, alpha, bound);
    edit(tf, fu_relu_rows(d, true), k);
    return tf;
  };
  return m;
}
// R1 moves from two columns back (the mov's shift wrong): label tokens get the previous label's v.
fk::fu_relu_constructions<Q> fu_paper_mov_shift_two() {
  return fu_paper_edited<Q>([](relu_transformer<Q>& tf, const fu_relu_rows& r, int k) {
    auto& h = tf.blocks[static_cast<std::size_t>(k + 3)].attention.heads[0];
    h.Q = Mat<Q>::Zero(3, r.D());
    h.Q(0, r.label()) = Q(1);
    h.Q(0, r.pos_sq()) = Q(-1);
    h.Q(0, r.pos()) = Q(4);
    h.Q(0, r.one()) = Q(-4);
    h.Q(1, r.pos()) = Q(2);
    h.Q(1, r.one()) = Q(-4);
    h.Q(2, r.one()) = Q(-1);
  });
}
// R2 built with the label bound 0: every key with a positive score is added.
fk::fu_relu_constructions<Q> fu_paper_mul_without_bound() {
  auto m = fk::real_fu_relu<Q>();
  m.paper = [](Eigen::Index d, int k, const Q& alpha, const Q&) {
    return fu_paper_transformer<Q>(d, k, alpha, Q(0));
  };
  return m;
}
// R2 built with the label bound 5 > 9/4: the y_1 = 9 prompt of check 9 stays exact.
fk::fu_relu_constructions<Q> fu_paper_mul_bound_five() {
  auto m = fk::real_fu_relu<Q>();
  m.paper = [](Eigen::Index d, int k, const Q& alpha, const Q&) {
    return fu_paper_transformer<Q>(d, k, alpha, Q(5));
  };
  return m;
}
// R4 moves into every token (the receiver is the constant 1, not the query flag).
fk::fu_relu_constructions<Q> fu_paper_mov_into_every_token() {
  return fu_paper_edited<Q>([](relu_transformer<Q>& tf, const fu_relu_rows& r, int k) {
    tf.blocks[static_cast<std::size_t>(k + 6)] = fu_paper_mov_block<Q>(r, r.one(), r.w(), r.wq());
  });
}
// A read-out layer dropped (R4): k + 7 blocks.
fk::fu_relu_constructions<Q> fu_paper_readout_layer_dropped() {
  return fu_paper_edited<Q>([](relu_transformer<Q>& tf, const fu_relu_rows&, int k) {
    tf.blocks.erase(tf.blocks.begin() + k + 6);
  });
}
// R3 with Lemma B.3's second key sign flipped (K_2 = K_1): the pair adds 2 sum_j m_j.
fk::fu_relu_constructions<Q> fu_paper_sum_keys_equal() {
  return fu_paper_edited<Q>([](relu_transformer<Q>& tf, const fu_relu_rows&, int k) {
    auto& a = tf.blocks[static_cast<std::size_t>(k + 5)].attention;
    a.heads[1].K = a.heads[0].K;
  });
}
// R5's value scaled by 1 + 2^-30 (a read-out off by far more than rounding): run in double.
fk::fu_relu_constructions<double> fu_paper_readout_scaled_double() {
  return fu_paper_edited<double>([](relu_transformer<double>& tf, const fu_relu_rows&, int) {
    for (auto& h : tf.blocks.back().attention.heads) h.V *= 1.0 + std::ldexp(1.0, -30);
  });
}
fk::fu_relu_constructions<Q> fu_printed_is_corrected() {  // the erratum check fed the fix
  auto m = fk::real_fu_relu<Q>();
  m.printed_init = [](Eigen::Index d, const Q& alpha) {
    return fu_relu_init_block<Q>(fu_relu_rows(d), alpha);
  };
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

TEST_CASE("fu_paper: hand-computed prompt, d = 1, k + 8 layers (exact)",
          "[iterative_newton][fu_relu]") {
  // x = (1, 2), y = (1, 1), x_test = 1, alpha = 1/25: M_k = 1/5 for every k (as above), so the
  // label tokens hold v = (1/5, 2/5), m = (1/5, 2/5), every token w = 3/5, the query p = 3/5.
  Mat<Q> X(1, 2), y(1, 2), xq(1, 1);
  X << Q(1), Q(2);
  y << Q(1), Q(1);
  xq << Q(1);
  const Q alpha = Q(1) / Q(25);
  const fu_relu_rows r(1, true);
  for (int k = 0; k <= 2; ++k) {
    const auto out = relu_transformer_forward<Q>(fu_paper_transformer<Q>(1, k, alpha, Q(2)),
                                                 fu_paper_tokens<Q>(X, y, xq), 4);
    REQUIRE(out.size() == static_cast<std::size_t>(k + 9));
    CHECK(fu_paper_prediction<Q>(out.back(), 1, 2)(0, 0) == Q(3) / Q(5));
    CHECK(out[static_cast<std::size_t>(k + 4)](r.v(), 3) == Q(2) / Q(5));
    CHECK(out[static_cast<std::size_t>(k + 4)](r.v(), 2) == Q(0));
    CHECK(out[static_cast<std::size_t>(k + 6)](r.w(), 0) == Q(3) / Q(5));
    CHECK(out[static_cast<std::size_t>(k + 7)](r.wq(), 4) == Q(3) / Q(5));
    CHECK(out[static_cast<std::size_t>(k + 7)](r.wq(), 3) == Q(0));
  }
  CHECK(fu_paper_tokens<Q>(X, y, xq)(r.pos_sq(), 4) == Q(25));
  CHECK_THROWS_AS(fu_paper_transformer<double>(0, 1, 0.5, 2.0), std::invalid_argument);
  CHECK_THROWS_AS(fu_paper_transformer<double>(2, -1, 0.5, 2.0), std::invalid_argument);
  CHECK_THROWS_AS(fu_paper_tokens<double>(Mat<double>::Zero(2, 3), Mat<double>::Zero(1, 3),
                                          Mat<double>::Zero(2, 2)),
                  std::invalid_argument);
  CHECK_THROWS_AS(fu_paper_mov_block<double>(fu_relu_rows(2), 0, 0, 2), std::invalid_argument);
}

TEST_CASE("fu_paper mutants: the mov's shift, the mul's bound, R4 into every token",
          "[iterative_newton][fu_relu][mutation]") {
  fu_killed(&fk::paper_layout_predicts<Q>, fu_paper_mov_shift_two());
  fu_killed(&fk::paper_layers_do_their_roles<Q>, fu_paper_mov_shift_two());
  fu_killed(&fk::paper_layout_predicts<Q>, fu_paper_mul_without_bound());
  fu_killed(&fk::paper_layers_do_their_roles<Q>, fu_paper_mul_without_bound());
  fu_killed(&fk::label_mul_needs_the_label_bound<Q>, fu_paper_mul_bound_five(), 1);
  fu_killed(&fk::paper_layout_predicts<Q>, fu_paper_mov_into_every_token());
  fu_killed(&fk::paper_layers_do_their_roles<Q>, fu_paper_mov_into_every_token());
}

TEST_CASE("fu_paper mutants: a read-out layer dropped, Lemma B.3's keys, R5 scaled in double",
          "[iterative_newton][fu_relu][mutation]") {
  fu_killed(&fk::paper_layout_predicts<Q>, fu_paper_readout_layer_dropped());
  fu_killed(&fk::paper_layers_do_their_roles<Q>, fu_paper_readout_layer_dropped());
  fu_killed(&fk::paper_layout_predicts<Q>, fu_paper_sum_keys_equal());
  fu_killed(&fk::paper_layers_do_their_roles<Q>, fu_paper_sum_keys_equal());
  const mutation_runner in_double{43, scalar_kind::double_precision};
  in_double.expect_check_kills(
      [](case_context& ctx, const fk::fu_relu_constructions<double>& c) {
        fk::paper_layout_predicts<double>(ctx, c);
      },
      fk::real_fu_relu<double>(), fu_paper_readout_scaled_double(), 20);
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
