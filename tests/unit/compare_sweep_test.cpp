// compare's seed-sweep summary (summarise_sweep) over compare results of Prop 1's construction.
#include "compare/compare.hpp"
#include "compare_gate_assertions.hpp"
#include "compare_model_files.hpp"
#include "core/linalg.hpp"

#include <catch2/catch.hpp>

#include <stdexcept>
#include <vector>

using namespace iclproof;

// A seed sweep's summary: per metric, how many files pass, and median / min / max of the values.
TEST_CASE("compare.sweep summarises passing counts and the distribution of each metric") {
  const int d = 4, N = 8;
  const compare_options o = compare_tasks(100);
  const double eta_star = 15.0 * N / (5.0 * N + 5.0 * d - 1.0);
  weights_file scaled = prop1(d, N, eta_star);
  scaled.parameter_sets[0]["P"] *= 1.3;
  const std::vector<compare_result> results = {compare_weights(prop1(d, N, eta_star), o),
                                               compare_weights(prop1(d, N, eta_star), o),
                                               compare_weights(scaled, o)};
  const sweep_summary s = summarise_sweep(results);
  CHECK(s.files == 3);
  CHECK(s.passed == 2);
  bool seen = false;
  for (const auto& m : s.metrics)
    if (m.name == "weights.PV_relative_distance") {
      seen = true;
      CHECK(m.passed == 2);
      CHECK(m.total == 3);
      const double bad = find_metric(results[2], m.name).value;
      CHECK(m.max == bad);       // 0.3 for the 1.3 x step
      CHECK(m.median == m.min);  // two identical construction values
      CHECK(m.min < 1e-12);
    }
  CHECK(seen);
  std::vector<compare_result> mixed = results;
  mixed.back().experiment = "vonoswald_gdpp";
  CHECK_THROWS_AS(summarise_sweep(mixed), std::invalid_argument);
  CHECK_THROWS_AS(summarise_sweep({}), std::invalid_argument);
}
