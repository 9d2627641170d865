// Shared set-up of the mutation tests: a property's check, run on the real construction, must
// pass, and run on a deliberately broken one (a mutant) must fail with a message. Each test file
// keeps its own seed, so its cases stay the ones its mutants were tuned against.
#pragma once

#include "harness/runner.hpp"

#include <catch2/catch.hpp>

#include <cstdint>

namespace iclproof {

class mutation_runner {
 public:
  explicit mutation_runner(std::uint64_t seed, scalar_kind kind = scalar_kind::mpfr)
      : seed_(seed), kind_(kind) {}

  // The runner's scalar (MPFR unless given) at the run's precision, `cases` RapidCheck cases
  // from this file's seed.
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

  static const property_info& info() {
    static const property_info mutant{"mutant", "a deliberately broken construction", {}};
    return mutant;
  }

 private:
  std::uint64_t seed_;
  scalar_kind kind_;
};

}  // namespace iclproof
