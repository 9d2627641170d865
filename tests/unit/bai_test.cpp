// Unit and mutation tests of Bai et al.'s ReLU-attention constructions (src/bai/bai_weights.hpp;
// properties/bai.hpp; docs/constructions/bai.md). A hand-computed exact example fixes one GD
// layer and the read-out; bad shapes are one clear error; every bai_checks check is run on the
// real constructions (must pass) and on broken ones (must fail): the second square-loss head's
// sign flipped, the query's mask dropped (R = 0), the ridge head dropped, eta off by 1 + 2^-40,
// one read-out head dropped, the soft-threshold MLP without its -w units, theta doubled, the
// Lasso block without its MLP.
#include "bai.hpp"
#include "bai_selection.hpp"

#include "core/precision.hpp"
#include "core/rational.hpp"
#include "harness/runner.hpp"

#include "mutation_testing.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>

// Everything in a namespace of its own: the unit tests are compiled as unity batches.
namespace bai_unit_test {
using namespace iclproof;
namespace bc = iclproof::bai_checks;

namespace {
using T = mutation_scalar;
using Q = rational_real;

const family_mutants<bc::constructions<T>> bai_mutants{3802, bc::real_constructions<T>()};

using builder = std::function<relu_transformer<T>(Eigen::Index, const T&, const T&, const T&, int)>;

// Each mutant rebuilds the real transformer and edits it.
template <class Edit>
builder edited(builder real, Edit edit) {
  return [real, edit](Eigen::Index d, const T& eta, const T& lambda, const T& R, int steps) {
    auto tf = real(d, eta, lambda, R, steps);
    edit(d, eta, lambda, tf);
    return tf;
  };
}
bc::constructions<T> ridge_mutant(builder b) { return {std::move(b), &bai_lasso_transformer<T>}; }
bc::constructions<T> lasso_mutant(builder b) { return {&bai_ridge_transformer<T>, std::move(b)}; }

// sigma(s) + sigma(-s) = |s| instead of s: the second square-loss head's value sign flipped.
builder second_head_sign_flipped(builder real) {
  return edited(real, [](Eigen::Index, const T&, const T&, relu_transformer<T>& tf) {
    for (std::size_t l = 0; l + 1 < tf.blocks.size(); ++l)
      tf.blocks[l].attention.heads.at(1).V = -tf.blocks[l].attention.heads.at(1).V;
  });
}
// R = 0: the query key is no longer masked.
builder mask_dropped(builder real) {
  return [real](Eigen::Index d, const T& eta, const T& lambda, const T&, int steps) {
    return real(d, eta, lambda, T(0), steps);
  };
}
// The ridge head dropped (lambda ignored in the gradient).
builder ridge_head_dropped() {
  return edited(&bai_ridge_transformer<T>,
                [](Eigen::Index, const T&, const T&, relu_transformer<T>& tf) {
                  for (std::size_t l = 0; l + 1 < tf.blocks.size(); ++l)
                    if (tf.blocks[l].attention.heads.size() == 3)
                      tf.blocks[l].attention.heads.pop_back();
                });
}
// eta off by 1 + 2^-40 in the square-loss heads.
builder eta_off(builder real) {
  return edited(real, [](Eigen::Index, const T&, const T&, relu_transformer<T>& tf) {
    for (std::size_t l = 0; l + 1 < tf.blocks.size(); ++l)
      for (std::size_t h = 0; h < 2; ++h)
        tf.blocks[l].attention.heads.at(h).V *= T(1) + T(std::ldexp(1.0, -40));
  });
}
// The read-out's second head dropped: y_{N+1} = sigma(<x, w>) instead of <x, w>.
builder readout_head_dropped(builder real) {
  return edited(real, [](Eigen::Index, const T&, const T&, relu_transformer<T>& tf) {
    tf.blocks.back().attention.heads.pop_back();
  });
}
// The MLP without its sigma(w), sigma(-w) units: w + S(w) instead of S(w).
builder mlp_minus_w_dropped() {
  return edited(&bai_lasso_transformer<T>,
                [](Eigen::Index d, const T&, const T&, relu_transformer<T>& tf) {
                  for (std::size_t l = 0; l + 1 < tf.blocks.size(); ++l)
                    for (Eigen::Index k = 0; k < d; ++k) {
                      tf.blocks[l].mlp.W2.col(4 * k + 2).setZero();
                      tf.blocks[l].mlp.W2.col(4 * k + 3).setZero();
                    }
                });
}
// theta = 2 eta lambda.
builder theta_doubled() {
  return edited(&bai_lasso_transformer<T>,
                [](Eigen::Index d, const T&, const T&, relu_transformer<T>& tf) {
                  const bai_layout L{d};
                  for (std::size_t l = 0; l + 1 < tf.blocks.size(); ++l)
                    tf.blocks[l].mlp.W1.col(L.one()) *= T(2);
                });
}
// The Lasso block without its MLP (plain GD on the square loss).
builder lasso_mlp_dropped() {
  return edited(&bai_lasso_transformer<T>,
                [](Eigen::Index d, const T&, const T&, relu_transformer<T>& tf) {
                  const bai_layout L{d};
                  for (std::size_t l = 0; l + 1 < tf.blocks.size(); ++l)
                    tf.blocks[l].mlp = {Mat<T>(0, L.D()), Vec<T>(), Mat<T>(L.D(), 0), Vec<T>()};
                });
}
}  // namespace

TEST_CASE("bai: one GD layer and the read-out on a hand-computed prompt (exact)", "[bai]") {
  // d = 1, N = 2: x = (1, 2), y = (1, 0), x_q = 3, w_0 = 0, lambda = 1, eta = 1/2, R = 8.
  // grad = (1/N) sum_j (w x_j - y_j) x_j + lambda w = (1/2)((0 - 1) 1 + (0 - 0) 2) = -1/2,
  // w_1 = 0 - (1/2)(-1/2) = 1/4; prediction <x_q, w_1> = 3/4.
  Mat<Q> X(1, 2), y(1, 2), xq(1, 1), w0 = Mat<Q>::Zero(1, 1);
  X << 1, 2;
  y << 1, 0;
  xq << 3;
  const auto tf = bai_ridge_transformer<Q>(1, Q(1) / 2, Q(1), Q(8), 1);
  REQUIRE(tf.blocks.size() == 2);
  CHECK(tf.blocks[0].attention.heads.size() == 3);
  CHECK(tf.blocks[1].attention.heads.size() == 2);
  const Mat<Q> H = bai_tokens<Q>(X, y, xq, w0);
  CHECK(H.rows() == 5);
  const auto out = relu_transformer_forward<Q>(tf, H, 2);
  for (Eigen::Index i = 0; i < 3; ++i) CHECK(bai_iterate<Q>(out[1], i)(0, 0) == Q(1) / 4);
  CHECK(bai_prediction<Q>(out[2]) == Q(3) / 4);
  // Without the mask (R = 0) the query x_q = 3 enters the gradient: the hand value changes.
  const auto leaky = bai_ridge_transformer<Q>(1, Q(1) / 2, Q(1), Q(0), 1);
  const auto out_leaky = relu_transformer_forward<Q>(leaky, H, 2);
  CHECK(bai_iterate<Q>(out_leaky[1], 0)(0, 0) == Q(1) / 4);  // w_0 = 0: <w, x_q> = 0, no leak yet
  const Mat<Q> H1 = bai_tokens<Q>(X, y, xq, Mat<Q>::Constant(1, 1, Q(1)));
  const Mat<Q> real1 = relu_transformer_block_forward<Q>(tf.blocks[0], H1, 2);
  const Mat<Q> leak1 = relu_transformer_block_forward<Q>(leaky.blocks[0], H1, 2);
  // From w = 1: grad = (1/2)((1 - 1) 1 + (2 - 0) 2) + 1 = 3, w' = 1 - 3/2 = -1/2.
  CHECK(bai_iterate<Q>(real1, 0)(0, 0) == Q(-1) / 2);
  // The leak adds -(eta/N) <w, x_q> x_q = -(1/4) 9.
  CHECK(bai_iterate<Q>(leak1, 0)(0, 0) == Q(-1) / 2 - Q(9) / 4);
}

TEST_CASE("bai: the soft-threshold MLP on three values (exact)", "[bai]") {
  // d = 1, theta = 1/2: S(2) = 3/2, S(1/4) = 0, S(-1) = -1/2.
  const mlp_layer<Q> mlp = bai_soft_threshold_mlp<Q>(1, Q(1) / 2);
  CHECK(mlp.W1.rows() == 4);
  Mat<Q> X(1, 2), y(1, 2), xq(1, 1);
  X << 1, 1;
  y << 0, 0;
  xq << 0;
  for (const auto& [w, s] : {std::pair<Q, Q>{Q(2), Q(3) / 2}, std::pair<Q, Q>{Q(1) / 4, Q(0)},
                             std::pair<Q, Q>{Q(-1), Q(-1) / 2}}) {
    const Mat<Q> H = bai_tokens<Q>(X, y, xq, Mat<Q>::Constant(1, 1, w));
    CHECK(bai_iterate<Q>(mlp_forward<Q>(mlp, H), 2)(0, 0) == s);
    CHECK(soft_threshold(w, Q(1) / 2) == s);
  }
}

TEST_CASE("bai: bad shapes and counts are one clear error", "[bai]") {
  Mat<Q> X(2, 3), y(1, 2), xq(2, 1), w0(2, 1);
  X.setZero();
  y.setZero();
  xq.setZero();
  w0.setZero();
  CHECK_THROWS_WITH(bai_tokens<Q>(X, y, xq, w0), Catch::Contains("y 1x2"));
  CHECK_THROWS_AS(bai_ridge_transformer<Q>(2, Q(1), Q(1), Q(1), -1), std::invalid_argument);
  CHECK_THROWS_WITH(bai_lasso_transformer<Q>(0, Q(1), Q(1), Q(1), 1), Catch::Contains("d >= 1"));
  CHECK_THROWS_WITH(soft_threshold(Q(1), Q(-1)), Catch::Contains("theta < 0"));
}

TEST_CASE("bai: the Theorem 4 layer count", "[bai]") {
  // d = 1, lambda = 1: kappa = 2, L = ceil(4 log(1 / eps)) + 1; eps = 1/2: ceil(2.77) + 1 = 4.
  CHECK(bc::theorem_4_layers(1, 1.0, 0.5) == 4);
  // d = 4, lambda = 1/4, eps = 1/8: kappa = 17, ceil(34 log 128) + 1 = ceil(164.97) + 1 = 166.
  CHECK(bc::theorem_4_layers(4, 0.25, 0.125) == 166);
}

TEST_CASE("bai mutants: the second square-loss head's sign flipped", "[bai][mutation]") {
  const auto m = ridge_mutant(second_head_sign_flipped(&bai_ridge_transformer<T>));
  bai_mutants.expect_killed(&bc::gd_layer_makes_one_ridge_gd_step<T>, m);
  bai_mutants.expect_killed(&bc::ridge_stack_holds_the_gd_iterates<T>, m);
  bai_mutants.expect_killed(&bc::lasso_stack_holds_the_ista_iterates<T>,
                            lasso_mutant(second_head_sign_flipped(&bai_lasso_transformer<T>)));
}

TEST_CASE("bai mutants: the query's mask dropped (R = 0)", "[bai][mutation]") {
  bai_mutants.expect_killed(&bc::gd_layer_makes_one_ridge_gd_step<T>,
                            ridge_mutant(mask_dropped(&bai_ridge_transformer<T>)));
  bai_mutants.expect_killed(&bc::lasso_stack_holds_the_ista_iterates<T>,
                            lasso_mutant(mask_dropped(&bai_lasso_transformer<T>)));
}

TEST_CASE("bai mutants: the ridge head dropped, eta off", "[bai][mutation]") {
  bai_mutants.expect_killed(&bc::gd_layer_makes_one_ridge_gd_step<T>,
                            ridge_mutant(ridge_head_dropped()));
  bai_mutants.expect_killed(&bc::ridge_stack_holds_the_gd_iterates<T>,
                            ridge_mutant(eta_off(&bai_ridge_transformer<T>)));
}

TEST_CASE("bai mutants: one read-out head dropped", "[bai][mutation]") {
  bai_mutants.expect_killed(&bc::ridge_stack_holds_the_gd_iterates<T>,
                            ridge_mutant(readout_head_dropped(&bai_ridge_transformer<T>)));
  bai_mutants.expect_killed(&bc::lasso_on_an_orthogonal_design_lands_on_the_optimum<T>,
                            lasso_mutant(readout_head_dropped(&bai_lasso_transformer<T>)));
}

TEST_CASE("bai mutants: the soft-threshold MLP broken", "[bai][mutation]") {
  bai_mutants.expect_killed(&bc::soft_threshold_mlp_applies_the_prox<T>,
                            lasso_mutant(mlp_minus_w_dropped()));
  bai_mutants.expect_killed(&bc::soft_threshold_mlp_applies_the_prox<T>,
                            lasso_mutant(theta_doubled()));
  bai_mutants.expect_killed(&bc::lasso_stack_holds_the_ista_iterates<T>,
                            lasso_mutant(theta_doubled()));
  bai_mutants.expect_killed(&bc::lasso_on_an_orthogonal_design_lands_on_the_optimum<T>,
                            lasso_mutant(mlp_minus_w_dropped()));
  bai_mutants.expect_killed(&bc::lasso_stack_holds_the_ista_iterates<T>,
                            lasso_mutant(lasso_mlp_dropped()));
}

#ifndef ICLPROOF_MUTATION_RATIONAL
// The Theorem 4 check has no rational body (bai.cpp); its mutants run in MPFR.
TEST_CASE("bai mutants: the Theorem 4 check sees a wrong step and a dropped read-out head",
          "[bai][mutation]") {
  bai_mutants.expect_killed(&bc::ridge_prediction_is_within_the_theorem_4_error<T>,
                            ridge_mutant(second_head_sign_flipped(&bai_ridge_transformer<T>)));
  bai_mutants.expect_killed(&bc::ridge_prediction_is_within_the_theorem_4_error<T>,
                            ridge_mutant(readout_head_dropped(&bai_ridge_transformer<T>)));
}
#endif

// ---------------------------------------------------------------------------------------------
// Post-ICL validation (properties/bai_selection.hpp): a hand-computed example, bad weights, and
// the mutants of each selection check.
namespace {
namespace sc = iclproof::bai_selection_checks;
const family_mutants<sc::constructions<T>> selection_mutants{3805, sc::real_constructions<T>()};

using layers_builder = std::function<relu_transformer<T>(const bai_selection_weights<T>&)>;
using stack_builder = std::function<relu_transformer<T>(const bai_selection_weights<T>&, int)>;
sc::constructions<T> layers_mutant(layers_builder b) {
  return {std::move(b), &bai_selection_transformer<T>};
}

// The validation mask dropped (R_val = 0): training and query residuals enter the loss.
relu_transformer<T> validation_mask_dropped(const bai_selection_weights<T>& p) {
  auto q = p;
  q.R_val = T(0);
  return bai_selection_layers<T>(q);
}
// The validation heads' second head (sign -1) dropped: only positive residuals are squared.
relu_transformer<T> validation_second_head_dropped(const bai_selection_weights<T>& p) {
  auto tf = bai_selection_layers<T>(p);
  auto& heads = tf.blocks[0].attention.heads;
  for (std::size_t h = heads.size(); h-- > 0;)
    if (h % 2 == 1) heads.erase(heads.begin() + static_cast<std::ptrdiff_t>(h));
  return tf;
}
// The validation values not rescaled to 1 / (2 n_val): Definition 1's 1/N left in.
relu_transformer<T> validation_mean_over_n(const bai_selection_weights<T>& p) {
  auto tf = bai_selection_layers<T>(p);
  const T factor = T(2 * (p.N - p.n_train)) / T(p.N);
  for (auto& h : tf.blocks[0].attention.heads) h.V *= factor;
  return tf;
}
// The gap MLP without its sigma(L_k), sigma(-L_k) units: the slot keeps L_k + c_k.
relu_transformer<T> gap_mlp_keeps_the_loss(const bai_selection_weights<T>& p) {
  auto tf = bai_selection_layers<T>(p);
  const Eigen::Index K = static_cast<Eigen::Index>(p.eta.size());
  for (Eigen::Index k = 0; k < K; ++k) {
    const Eigen::Index first = k * (K + 1) + (K - 1);  // the two units after run k's K - 1 gaps
    tf.blocks[0].mlp.W2.col(first).setZero();
    tf.blocks[0].mlp.W2.col(first + 1).setZero();
  }
  return tf;
}
// gamma ignored: u_k = sigma(1 - c_k).
relu_transformer<T> indicator_without_gamma(const bai_selection_weights<T>& p) {
  auto q = p;
  q.gamma = T(1);
  auto tf = bai_selection_layers<T>(p);
  tf.blocks[1] = bai_selection_layers<T>(q).blocks[1];
  return tf;
}
// The selection attention without its f_{k-1} heads (w = 1): the telescoping is lost.
relu_transformer<T> selection_minus_heads_dropped(const bai_selection_weights<T>& p) {
  auto tf = bai_selection_layers<T>(p);
  auto& heads = tf.blocks[2].attention.heads;
  for (std::size_t h = heads.size(); h-- > 0;)
    if (h % 2 == 1) heads.erase(heads.begin() + static_cast<std::ptrdiff_t>(h));
  return tf;
}
// R_f = 0: sigma((f + 0)(1 - S)) cuts negative predictions.
relu_transformer<T> selection_shift_dropped(const bai_selection_weights<T>& p) {
  auto q = p;
  q.R_f = T(0);
  return bai_selection_layers<T>(q);
}
#ifdef ICLPROOF_MUTATION_RATIONAL
sc::constructions<T> stack_mutant(stack_builder b) {
  return {&bai_selection_layers<T>, std::move(b)};
}
// The GD runs average over all N examples (no N / n_train): the validation split leaks into
// the normalisation.
relu_transformer<T> gd_split_factor_dropped(const bai_selection_weights<T>& p, int steps) {
  auto tf = bai_selection_transformer<T>(p, steps);
  const T factor = T(p.n_train) / T(p.N);
  for (int l = 0; l < steps; ++l)
    for (auto& h : tf.blocks[static_cast<std::size_t>(l)].attention.heads) h.V *= factor;
  return tf;
}
// The GD heads' mask dropped (R_k = 0): validation and query keys enter the gradient.
relu_transformer<T> gd_mask_dropped(const bai_selection_weights<T>& p, int steps) {
  auto q = p;
  for (auto& r : q.R) r = T(0);
  auto tf = bai_selection_transformer<T>(q, steps);
  const auto real = bai_selection_transformer<T>(p, steps);
  for (std::size_t l = static_cast<std::size_t>(steps); l < tf.blocks.size(); ++l)
    tf.blocks[l] = real.blocks[l];  // only the GD layers broken
  return tf;
}
// The whole transformer with its last three layers from a broken `layers`.
stack_builder with_layers(layers_builder b) {
  return [b](const bai_selection_weights<T>& p, int steps) {
    auto tf = bai_selection_transformer<T>(p, steps);
    auto tail = b(p);
    for (std::size_t l = 0; l < 3; ++l) tf.blocks[tf.blocks.size() - 3 + l] = tail.blocks[l];
    return tf;
  };
}
#endif
}  // namespace

TEST_CASE("bai selection: two runs, hand-computed validation and selection (exact)",
          "[bai][selection]") {
  // d = 1, N = 3: D_train = {(1, 1), (2, 0)}, D_val = {(1, 1/2)}, x_q = 2. Runs lambda = 1, 1/2
  // (eta = 1/2, 2/3), one GD step from 0: grad = (1/2)((0 - 1) 1 + 0) = -1/2, so
  // w_1 = 1/4 and w_2 = 1/3. Validation: f_1(1) = 1/4, f_2(1) = 1/3; L_1 = (1/4 - 1/2)^2 / 2 =
  // 1/32, L_2 = (1/3 - 1/2)^2 / 2 = 1/72. gamma = 1/64: c_1 = 1/32 - 1/72 = 5/288 > gamma,
  // c_2 = 0: u = (0, 1), lambda = (0, 1): the output is f_2(2) = 2/3.
  Mat<Q> X(1, 3), y(1, 3), xq(1, 1);
  X << 1, 2, 1;
  y << 1, 0, Q(1) / 2;
  xq << 2;
  bai_selection_weights<Q> p;
  p.d = 1;
  p.N = 3;
  p.n_train = 2;
  p.lambda = {Q(1), Q(1) / 2};
  p.eta = {Q(1) / 2, Q(2) / 3};
  p.R = {Q(2), Q(4)};
  p.R_val = Q(4);
  p.R_f = Q(4);
  p.gamma = Q(1) / 64;
  const auto tf = bai_selection_transformer<Q>(p, 1);
  REQUIRE(tf.blocks.size() == 5);
  CHECK(tf.blocks[0].attention.heads.size() == 6);
  CHECK(tf.blocks[1].attention.heads.size() == 4);
  CHECK(tf.blocks[2].attention.heads.size() == 4);
  CHECK(tf.blocks[2].mlp.W1.rows() == 6);  // K (K - 1) + 2 K
  CHECK(tf.blocks[3].mlp.W1.rows() == 4);
  CHECK(tf.blocks[4].attention.heads.size() == 6);  // 2 (K + 1)
  const Mat<Q> H = bai_selection_tokens<Q>(X, y, 2, xq, 2);
  const bai_selection_layout L{1, 2};
  CHECK(H.rows() == 11);
  CHECK(H(L.t(), 0) == Q(1));
  CHECK(H(L.t(), 2) == Q(-1));
  CHECK(H(L.t(), 3) == Q(0));
  const auto out = relu_transformer_forward<Q>(tf, H, 3);
  for (Eigen::Index i = 0; i < 4; ++i) {
    CHECK(out[1](L.w(0, 0), i) == Q(1) / 4);
    CHECK(out[1](L.w(1, 0), i) == Q(1) / 3);
    CHECK(out[2](L.f(0), i) ==
          Q(1) / 4 * X.col(std::min<Eigen::Index>(i, 2))(0, 0) * (i == 3 ? Q(2) : Q(1)));
  }
  const Mat<Q> validated = relu_attention_forward<Q>(tf.blocks[2].attention, out[2], 3);
  CHECK(validated(L.loss(0), 3) == Q(1) / 32);
  CHECK(validated(L.loss(1), 3) == Q(1) / 72);
  CHECK(out[3](L.loss(0), 3) == Q(5) / 288);
  CHECK(out[3](L.loss(1), 3) == Q(0));
  CHECK(out[4](L.loss(0), 3) == Q(0));
  CHECK(out[4](L.loss(1), 3) == Q(1));
  CHECK(out[5](L.y(), 3) == Q(2) / 3);
  // With gamma = 1/32 the runs are within gamma: u_1 = 1 - (5/288) 32 = 4/9, lambda = (4/9, 5/9).
  p.gamma = Q(1) / 32;
  const auto out2 = relu_transformer_forward<Q>(bai_selection_transformer<Q>(p, 1), H, 3);
  CHECK(out2[5](L.y(), 3) == Q(4) / 9 * Q(1) / 2 + Q(5) / 9 * Q(2) / 3);
}

TEST_CASE("bai selection: bad weights and tokens are one clear error", "[bai][selection]") {
  bai_selection_weights<Q> p;
  p.d = 1;
  p.N = 3;
  p.n_train = 3;  // no validation example
  p.eta = {Q(1)};
  p.lambda = {Q(1)};
  p.R = {Q(1)};
  p.R_val = p.R_f = Q(1);
  p.gamma = Q(1);
  CHECK_THROWS_WITH(bai_selection_transformer<Q>(p, 1), Catch::Contains("1 <= n_train < N"));
  p.n_train = 2;
  p.gamma = Q(0);
  CHECK_THROWS_WITH(bai_selection_layers<Q>(p), Catch::Contains("gamma > 0"));
  p.gamma = Q(1);
  p.R = {};
  CHECK_THROWS_AS(bai_split_gd_attention<Q>(p), std::invalid_argument);
  Mat<Q> X = Mat<Q>::Zero(1, 3), y = Mat<Q>::Zero(1, 3), xq = Mat<Q>::Zero(1, 1);
  CHECK_THROWS_WITH(bai_selection_tokens<Q>(X, y, 0, xq, 2), Catch::Contains("n_train = 0"));
}

TEST_CASE("bai selection mutants: the validation layer", "[bai][selection][mutation]") {
  selection_mutants.expect_killed(&sc::validation_layer_writes_the_validation_losses<T>,
                                  layers_mutant(&validation_mask_dropped));
  selection_mutants.expect_killed(&sc::validation_layer_writes_the_validation_losses<T>,
                                  layers_mutant(&validation_second_head_dropped));
  selection_mutants.expect_killed(&sc::validation_layer_writes_the_validation_losses<T>,
                                  layers_mutant(&validation_mean_over_n));
}

TEST_CASE("bai selection mutants: the selection layers", "[bai][selection][mutation]") {
  selection_mutants.expect_killed(&sc::selection_layers_output_the_convex_combination<T>,
                                  layers_mutant(&gap_mlp_keeps_the_loss));
  selection_mutants.expect_killed(&sc::selection_layers_output_the_convex_combination<T>,
                                  layers_mutant(&indicator_without_gamma));
  selection_mutants.expect_killed(&sc::selection_layers_output_the_convex_combination<T>,
                                  layers_mutant(&selection_minus_heads_dropped));
  selection_mutants.expect_killed(&sc::selection_layers_output_the_convex_combination<T>,
                                  layers_mutant(&selection_shift_dropped));
}

#ifdef ICLPROOF_MUTATION_RATIONAL
// The whole transformer is checked in rationals only (bai.cpp).
TEST_CASE("bai selection mutants: the whole transformer", "[bai][selection][mutation]") {
  selection_mutants.expect_killed(&sc::selection_transformer_selects_among_ridge_gd_runs<T>,
                                  stack_mutant(&gd_split_factor_dropped));
  selection_mutants.expect_killed(&sc::selection_transformer_selects_among_ridge_gd_runs<T>,
                                  stack_mutant(&gd_mask_dropped));
  selection_mutants.expect_killed(&sc::selection_transformer_selects_among_ridge_gd_runs<T>,
                                  stack_mutant(with_layers(&validation_mask_dropped)));
  selection_mutants.expect_killed(&sc::selection_transformer_selects_among_ridge_gd_runs<T>,
                                  stack_mutant(with_layers(&selection_minus_heads_dropped)));
}
#endif

}  // namespace bai_unit_test
