// Unit and mutation tests of the two-layer Newton–Schulz construction
// (docs/constructions/newton_schulz.md; properties/newton_schulz.hpp). A hand-computed exact
// example fixes the layers' output; every newton_schulz.* check is run on the real construction
// (must pass) and on broken ones (must fail): the correction's sign flipped, its scale off by
// 1 + 2^-40, the doubling layer's term dropped, one step dropped from the stack.
#include "newton_schulz.hpp"

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

}  // namespace newton_schulz_unit_test
