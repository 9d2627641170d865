// The crossing step of a trajectory (compare/trajectory.hpp): the first snapshot step from which
// every gated metric passes at EVERY later snapshot of the seed (a pass followed by a failure does
// not count), per seed and per metric.
#include "compare/trajectory.hpp"

#include <catch2/catch.hpp>

using namespace iclproof;

namespace {
trajectory_point point(std::uint64_t seed, std::int64_t step, bool distance_ok, bool cosine_ok) {
  trajectory_point p;
  p.seed = seed;
  p.step = step;
  compare_metric d{"distance", 0, "<=", 0.05, true, distance_ok, false, "", ""};
  compare_metric c{"cosine", 0, ">=", 0.99, true, cosine_ok, false, "", ""};
  compare_metric info{"info", 0, "<=", 1, false, false, false, "", ""};
  p.comparison.metrics = {d, c, info};
  p.comparison.passed = distance_ok && cosine_ok;
  return p;
}
}  // namespace

TEST_CASE("trajectory crossings: first step of the final all-passing run, per seed and metric",
          "[compare]") {
  const std::vector<trajectory_point> pts = {
      point(1, 1, false, false), point(1, 10, true, false),
      point(1, 100, true, true), point(1, 1000, true, true),  // seed 1: crosses at 100
      point(2, 1, true, true),   point(2, 10, false, true),
      point(2, 100, true, true), point(2, 1000, true, true),  // a relapse at 10: crosses at 100
      point(3, 1, true, true),   point(3, 10, true, false)};  // last snapshot fails: never
  const auto c = trajectory_crossings(pts);
  REQUIRE(c.size() == 3);
  CHECK(c[0].seed == 1);
  CHECK(c[0].all_gated == std::optional<std::int64_t>(100));
  REQUIRE(c[0].per_metric.size() == 2);  // the reported-only metric has no crossing
  CHECK(c[0].per_metric[0].first == "distance");
  CHECK(c[0].per_metric[0].second == std::optional<std::int64_t>(10));
  CHECK(c[0].per_metric[1].second == std::optional<std::int64_t>(100));
  CHECK(c[1].all_gated == std::optional<std::int64_t>(100));
  CHECK(c[1].per_metric[1].second == std::optional<std::int64_t>(1));
  CHECK(!c[2].all_gated);
  CHECK(c[2].per_metric[0].second == std::optional<std::int64_t>(1));
  CHECK(!c[2].per_metric[1].second);
}
