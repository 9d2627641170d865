// Unit and mutation tests of the two-layer Newton–Schulz construction
// (docs/constructions/newton_schulz.md; properties/newton_schulz.hpp). A hand-computed exact
// example fixes the layers' output; every newton_schulz.* check is run on the real construction
// (must pass) and on broken ones (must fail): the correction's sign flipped, its scale off by
// 1 + 2^-40, the doubling layer's term dropped, one step dropped from the stack.
#include "newton_schulz.hpp"
#include "giannou_checks.hpp"

#include "core/precision.hpp"
#include "harness/runner.hpp"

#include "mutation_testing.hpp"

#include <catch2/catch.hpp>

#include <cmath>

// Everything in a namespace of its own: the unit tests are compiled as unity batches.
namespace newton_schulz_unit_test {
using namespace iclproof;
namespace nsc = iclproof::newton_schulz_checks;

namespace {
using T = mutation_scalar;

const family_mutants<nsc::constructions<T>> newton_schulz_mutants{31, nsc::real_constructions<T>()};

// Mutants: each rebuilds the real stack and breaks one weight of every step.
template <class Edit>
nsc::constructions<T> mutant(Edit edit) {
  return {[edit](Eigen::Index d, int k) {
    auto s = newton_schulz_stack<T>(d, k);
    for (std::size_t l = 0; l < s.layers.size(); ++l) edit(l % 2 == 0, s.layers[l].heads[0]);
    return s;
  }};
}
nsc::constructions<T> correction_sign_flipped() {
  return mutant([](bool doubling, lsa_head<T>& h) {
    if (!doubling) h.P = -h.P;
  });
}
nsc::constructions<T> correction_scale_off() {
  return mutant([](bool doubling, lsa_head<T>& h) {
    if (!doubling) h.P *= T(1) + T(std::ldexp(1.0, -40));
  });
}
nsc::constructions<T> doubling_term_dropped() {
  return mutant([](bool doubling, lsa_head<T>& h) {
    if (doubling) h.P.setZero();
  });
}
nsc::constructions<T> one_step_dropped() {
  return {[](Eigen::Index d, int k) { return newton_schulz_stack<T>(d, k > 1 ? k - 1 : k); }};
}
// The correction reads the undoubled iterate: keys S^T, query... W_K and W_Q swapped.
nsc::constructions<T> keys_and_query_swapped() {
  return mutant([](bool doubling, lsa_head<T>& h) {
    if (!doubling) std::swap(h.W_K, h.W_Q);
  });
}
}  // namespace

TEST_CASE("newton_schulz: hand-computed step on S = [[2,1],[1,3]], M = S/15 (exact)",
          "[newton_schulz]") {
  using Q = rational_real;
  Mat<Q> S(2, 2);
  S << Q(2), Q(1), Q(1), Q(3);
  const Mat<Q> M = S * Q(Q(1) / Q(15));
  const auto out =
      lsa_stack_forward<Q>(newton_schulz_stack<Q>(2, 2), newton_schulz_tokens<Q>(S, M), 2);
  // By hand: M_1 = 2M - M S M = [[1/5, 2/45], [2/45, 11/45]], M_2 = [[8/27, -1/81], [-1/81, 23/81]]
  Mat<Q> M1(2, 2), M2(2, 2);
  M1 << Q(1) / Q(5), Q(2) / Q(45), Q(2) / Q(45), Q(11) / Q(45);
  M2 << Q(8) / Q(27), Q(-1) / Q(81), Q(-1) / Q(81), Q(23) / Q(81);
  CHECK(newton_schulz_iterate<Q>(out[1]) == Mat<Q>(M * Q(2)));
  CHECK(newton_schulz_iterate<Q>(out[2]) == M1);
  CHECK(newton_schulz_iterate<Q>(out[4]) == M2);
  CHECK(out[4].topRows(2) == Mat<Q>(S.transpose()));
}

TEST_CASE("newton_schulz: bad sizes are one clear error", "[newton_schulz]") {
  CHECK_THROWS_AS(newton_schulz_stack<double>(0, 1), std::invalid_argument);
  CHECK_THROWS_AS(newton_schulz_stack<double>(2, -1), std::invalid_argument);
  CHECK_THROWS_AS(newton_schulz_tokens<double>(Mat<double>::Zero(2, 3), Mat<double>::Zero(2, 2)),
                  std::invalid_argument);
}

TEST_CASE("newton_schulz mutants: the correction's sign flipped", "[newton_schulz][mutation]") {
  newton_schulz_mutants.expect_killed(&nsc::two_layers_make_one_step<T>, correction_sign_flipped());
  newton_schulz_mutants.expect_killed(&nsc::residual_is_power_of_two<T>, correction_sign_flipped());
}

TEST_CASE("newton_schulz mutants: the correction's scale off by 1 + 2^-40",
          "[newton_schulz][mutation]") {
  newton_schulz_mutants.expect_killed(&nsc::two_layers_make_one_step<T>, correction_scale_off());
  newton_schulz_mutants.expect_killed(&nsc::stack_gives_kth_iterate<T>, correction_scale_off());
}

TEST_CASE("newton_schulz mutants: the doubling term dropped", "[newton_schulz][mutation]") {
  newton_schulz_mutants.expect_killed(&nsc::doubling_layer_is_exact<T>, doubling_term_dropped());
  newton_schulz_mutants.expect_killed(&nsc::two_layers_make_one_step<T>, doubling_term_dropped());
}

TEST_CASE("newton_schulz mutants: one step dropped, keys and query swapped",
          "[newton_schulz][mutation]") {
  newton_schulz_mutants.expect_killed(&nsc::stack_gives_kth_iterate<T>, one_step_dropped());
  newton_schulz_mutants.expect_killed(&nsc::residual_is_power_of_two<T>, one_step_dropped());
  newton_schulz_mutants.expect_killed(&nsc::two_layers_make_one_step<T>, keys_and_query_swapped());
}

// Giannou et al.'s Lemma 4.1, symmetric case and Theorem 4.2 (properties/giannou_checks.hpp):
// exact checks, run in rationals on the real weights (must pass) and on broken ones (must fail).
namespace {
using Q = rational_real;
namespace gk = iclproof::giannou_checks;
const mutation_runner giannou_mutants{37, scalar_kind::rational};

template <class Check>
void giannou_killed(const Check& check, const gk::giannou_constructions<Q>& bad, int cases = 30) {
  giannou_mutants.expect_check_kills(
      [&](case_context& ctx, const gk::giannou_constructions<Q>& c) { check(ctx, c); },
      gk::real_giannou<Q>(), bad, cases);
}
// Lemma 4.1's stack with one edit applied to every step's two layers.
template <class Edit>
gk::giannou_constructions<Q> lemma41_mutant(Edit edit) {
  auto m = gk::real_giannou<Q>();
  m.lemma41 = [edit](Eigen::Index d, int k) {
    auto s = giannou_lemma41_stack<Q>(d, k);
    for (std::size_t l = 0; l < s.layers.size(); ++l) edit(l % 2, s.layers[l]);
    return s;
  };
  return m;
}
gk::giannou_constructions<Q> correction_scale_half() {  // -1/2 instead of -1/4
  return lemma41_mutant([](std::size_t second, lsa_layer<Q>& l) {
    if (second) l.heads[0].P *= Q(2);
  });
}
gk::giannou_constructions<Q> scratch_not_cleared() {  // Z keeps A^T after the step
  return lemma41_mutant([](std::size_t second, lsa_layer<Q>& l) {
    if (second) l.heads.pop_back();
  });
}
gk::giannou_constructions<Q> scratch_holds_a_not_a_transpose() {  // values and keys swapped
  return lemma41_mutant([](std::size_t second, lsa_layer<Q>& l) {
    if (!second) std::swap(l.heads[0].W_V, l.heads[0].W_K);
  });
}
gk::giannou_constructions<Q> symmetric_keys_and_query_swapped() {
  auto m = gk::real_giannou<Q>();
  m.symmetric = [](Eigen::Index d) {
    auto l = giannou_symmetric_layer<Q>(d);
    std::swap(l.heads[1].W_K, l.heads[1].W_Q);
    return l;
  };
  return m;
}
gk::giannou_constructions<Q> regression_eps_doubled() {
  auto m = gk::real_giannou<Q>();
  m.regression = [](Eigen::Index d, int t, const Q& eps) {
    return giannou_regression_stack<Q>(d, t, Q(eps * Q(2)));
  };
  return m;
}
gk::giannou_constructions<Q> regression_reads_r_not_x() {  // the read-out's keys from block R
  auto m = gk::real_giannou<Q>();
  m.regression = [](Eigen::Index d, int t, const Q& eps) {
    auto s = giannou_regression_stack<Q>(d, t, eps);
    const giannou_regression_rows r{d};
    auto& k = s.layers.back().heads[0].W_K;
    k.setZero();
    k.block(0, r.R(), d, d) = Mat<Q>::Identity(d, d);
    return s;
  };
  return m;
}
gk::giannou_constructions<Q> regression_one_newton_layer_dropped() {
  auto m = gk::real_giannou<Q>();
  m.regression = [](Eigen::Index d, int t, const Q& eps) {
    auto s = giannou_regression_stack<Q>(d, t, eps);
    if (t > 0) s.layers.erase(s.layers.begin() + 1);
    return s;
  };
  return m;
}
}  // namespace

TEST_CASE("giannou: hand-computed Lemma 4.1 step on A = [[1,2],[3,4]], X = I/8 (exact)",
          "[newton_schulz][giannou]") {
  Mat<Q> A(2, 2);
  A << Q(1), Q(2), Q(3), Q(4);
  const Mat<Q> X = Mat<Q>::Identity(2, 2) * Q(Q(1) / Q(8));
  // By hand: X (2I - A X) = I/4 - A/64 = [[15/64, -1/32], [-3/64, 3/16]].
  Mat<Q> X1(2, 2);
  X1 << Q(15) / Q(64), Q(-1) / Q(32), Q(-3) / Q(64), Q(3) / Q(16);
  const auto out =
      lsa_stack_forward<Q>(giannou_lemma41_stack<Q>(2, 1), giannou_lemma41_tokens<Q>(A, X), 2);
  CHECK(giannou_lemma41_iterate<Q>(out[2]) == X1);
  CHECK(giannou_lemma41_scratch<Q>(out[1]) == Mat<Q>(A.transpose()));
  CHECK(giannou_lemma41_scratch<Q>(out[2]).isZero(0));
  CHECK(gk::class_eps<Q>() == Q(1) / Q(9216));
  CHECK_THROWS_AS(giannou_lemma41_stack<double>(0, 1), std::invalid_argument);
  CHECK_THROWS_AS(giannou_regression_stack<double>(2, -1, 0.5), std::invalid_argument);
  CHECK_THROWS_AS(giannou_regression_tokens<double>(
                      Mat<double>::Zero(2, 3), Mat<double>::Zero(1, 2), Mat<double>::Zero(2, 1)),
                  std::invalid_argument);
}

TEST_CASE("giannou mutants: Lemma 4.1's correction scale, scratch and transpose",
          "[newton_schulz][giannou][mutation]") {
  giannou_killed(&gk::lemma41_two_layers_give_one_step<Q>, correction_scale_half());
  giannou_killed(&gk::lemma41_stack_residual_squares<Q>, correction_scale_half());
  giannou_killed(&gk::lemma41_two_layers_give_one_step<Q>, scratch_not_cleared());
  giannou_killed(&gk::lemma41_stack_residual_squares<Q>, scratch_not_cleared());
  giannou_killed(&gk::lemma41_two_layers_give_one_step<Q>, scratch_holds_a_not_a_transpose());
}

TEST_CASE("giannou mutants: the symmetric layer's keys and query swapped",
          "[newton_schulz][giannou][mutation]") {
  giannou_killed(&gk::symmetric_one_layer_gives_one_step<Q>, symmetric_keys_and_query_swapped());
  giannou_killed(&gk::symmetric_layer_on_nonsymmetric_a<Q>, symmetric_keys_and_query_swapped());
}

TEST_CASE("giannou mutants: Theorem 4.2's eps, read-out block and layer count",
          "[newton_schulz][giannou][mutation]") {
  giannou_killed(&gk::thm42_layers_predict<Q>, regression_eps_doubled());
  giannou_killed(&gk::thm42_error_is_residual_power<Q>, regression_eps_doubled());
  giannou_killed(&gk::thm42_layers_predict<Q>, regression_reads_r_not_x());
  giannou_killed(&gk::thm42_layers_predict<Q>, regression_one_newton_layer_dropped());
  giannou_killed(&gk::thm42_error_is_residual_power<Q>, regression_one_newton_layer_dropped());
}

}  // namespace newton_schulz_unit_test
