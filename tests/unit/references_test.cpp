// Unit and mutation tests of the closed-form references: each reference property must fail
// when its implementation is deliberately broken.
#include "references.hpp"

#include "core/precision.hpp"
#include "harness/runner.hpp"

#include <catch2/catch.hpp>

using namespace iclproof;

namespace {
run_config mutation_config(int cases = 30) {
  run_config cfg;
  cfg.scalar = scalar_kind::mpfr;
  cfg.cases = cases;
  cfg.seed = 7;
  return cfg;
}
const property_info mutant_info{"mutant", "a deliberately broken construction", "none"};
}  // namespace

TEST_CASE("precision is reported as the bits values carry", "[core]") {
  scoped_mpfr_precision p(256);
  CHECK(p.setting().actual_bits == 257);  // Boost: 77 decimal digits -> 257 bits
  CHECK(precision_of(mpfr_real(1) / mpfr_real(3)) == 257);
  scoped_mpfr_precision q(53);
  CHECK(q.setting().actual_bits == 55);
  CHECK_THROWS_AS(set_mpfr_precision(52), std::invalid_argument);
  CHECK_THROWS_AS(set_mpfr_precision(100001), std::invalid_argument);
}

TEST_CASE("iterated Sherman-Morrison property fails on a broken update", "[references][mutation]") {
  scoped_mpfr_precision p(256);
  using T = mpfr_real;
  const auto good = run_body(mutant_info, [](case_context& ctx) {
    reference_checks::sherman_morrison_equals_ridge<T>(ctx, [](const Mat<T>& X, const Mat<T>& Y, const T& l) {
      return iterated_sherman_morrison_ridge(X, Y, l);
    });
  }, mutation_config());
  CHECK(good.outcome == verdict::pass);
  // Mutant: lambda off by a factor 1 + 2^-40 (far below double's visibility of the bug).
  const auto bad = run_body(mutant_info, [](case_context& ctx) {
    reference_checks::sherman_morrison_equals_ridge<T>(ctx, [](const Mat<T>& X, const Mat<T>& Y, const T& l) {
      return iterated_sherman_morrison_ridge(X, Y, T(l * (T(1) + std::ldexp(1.0, -40))));
    });
  }, mutation_config());
  CHECK(bad.outcome == verdict::fail);
  INFO(bad.failure);
  CHECK(!bad.failure.empty());
}
