// Shared set-up of the mutation tests: a property's check, run on the real construction, must
// pass, and run on a deliberately broken one (a mutant) must fail with a message. Each test file
// keeps its own seed, so its cases stay the ones its mutants were tuned against.
#pragma once

#include "core/rational.hpp"
#include "harness/runner.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <utility>

namespace iclproof {

// The scalar the mutation tests run in. The iclproof_unit_tests executable compiles them with
// mpfr_real; iclproof_mutation_tests_rational compiles the same files with
// ICLPROOF_MUTATION_RATIONAL defined, so every mutant must also fail in exact arithmetic, where
// the tolerance is 0 (tests that have no exact form are left out there with #ifndef).
#ifdef ICLPROOF_MUTATION_RATIONAL
using mutation_scalar = rational_real;
#else
using mutation_scalar = mpfr_real;
#endif

class mutation_runner {
 public:
  explicit mutation_runner(std::uint64_t seed,
                           scalar_kind kind = scalar_traits<mutation_scalar>::kind)
      : seed_(seed), kind_(kind) {}

  // The runner's scalar (mutation_scalar unless given: MPFR, or exact rationals) at the run's
  // precision, `cases` RapidCheck cases from this file's seed.
  run_config config(int cases = 30) const {
    run_config cfg;
    cfg.scalar = kind_;
    cfg.cases = cases;
    cfg.seed = seed_;
    return cfg;
  }

  template <class Body>
  property_result run(const Body& body, int cases = 30) const {
    return run_body(info(), body, config(cases));
  }

  // `good` (the real construction) must pass, `bad` (the mutant) must fail with a message.
  template <class Good, class Bad>
  void expect_killed(const Good& good, const Bad& bad, int cases = 30) const {
    const auto g = run(good, cases);
    INFO("real construction: " << g.failure << g.counterexample);
    CHECK(g.outcome == verdict::pass);
    const auto b = run(bad, cases);
    INFO("mutant: " << b.failure);
    CHECK(b.outcome == verdict::fail);
    CHECK(!b.failure.empty());
  }

  // The form every family's mutation tests share: `check(ctx, constructions)` passes on the
  // family's real constructions and fails on `mutant`.
  template <class Check, class Constructions>
  void expect_check_kills(const Check& check, const Constructions& real,
                          const Constructions& mutant, int cases = 30) const {
    expect_killed([&](case_context& ctx) { check(ctx, real); },
                  [&](case_context& ctx) { check(ctx, mutant); }, cases);
  }

  static const property_info& info() {
    static const property_info mutant{"mutant", "a deliberately broken construction", {}};
    return mutant;
  }

 private:
  std::uint64_t seed_;
  scalar_kind kind_;
};

// A family's mutation runner holding the family's real constructions (its checks' `constructions`
// struct): expect_killed(check, mutant) runs `check` on the real constructions (must pass) and on
// `mutant` (must fail).
template <class Constructions>
class family_mutants {
 public:
  family_mutants(std::uint64_t seed, Constructions real) : runner_(seed), real_(std::move(real)) {}

  template <class Check>
  void expect_killed(const Check& check, const Constructions& mutant, int cases = 30) const {
    runner_.expect_check_kills(check, real_, mutant, cases);
  }

 private:
  mutation_runner runner_;
  Constructions real_;
};

}  // namespace iclproof
