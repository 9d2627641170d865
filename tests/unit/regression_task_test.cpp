// Unit tests of the in-context regression task generators.
#include "tasks/regression_task.hpp"

#include <catch2/catch.hpp>

using namespace iclproof;

// Regression: with d = 2, rank = 1 the integer factor B was zero with probability 5^-2, giving
// X = 0, exact rank 0, and a read of singular value -1 in the ridge -> min-norm property (seen as
// a GMP allocation crash at 256 bits, 100 cases, seed 20261122).
TEST_CASE("rank-deficient tasks have 1 <= exact rank(X) <= rank for every seed", "[tasks]") {
  for (int d = 2; d <= 5; ++d)
    for (int rank = 1; rank < d; ++rank)
      for (std::uint64_t seed = 1; seed <= 200; ++seed) {
        task_spec s;
        s.d = d;
        s.N = 1 + static_cast<int>(seed % 7);
        s.distribution = input_distribution::rank_deficient;
        s.rank = rank;
        s.seed = seed;
        const auto t = make_task_double(s);
        const Eigen::Index r = exact_rank(t.X);
        INFO("d = " << d << ", rank = " << rank << ", N = " << s.N << ", seed = " << seed);
        REQUIRE(r >= 1);
        REQUIRE(r <= rank);
      }
}

TEST_CASE("exact_rank is exact on integer matrices", "[tasks]") {
  Mat<double> A(3, 3);
  A << 1, 2, 3, 2, 4, 6, 1, 0, 1;
  CHECK(exact_rank(A) == 2);
  CHECK(exact_rank(Mat<double>::Zero(2, 4)) == 0);
  Mat<double> tiny(2, 2);
  tiny << 1, 1, 1, 1 + std::ldexp(1.0, -52);  // singular in no rounding-free sense
  CHECK(exact_rank(tiny) == 2);
}
