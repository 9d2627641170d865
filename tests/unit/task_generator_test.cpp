// Generators do what they say: each option of make_task_double and of
// gen_task_spec has a test of its effect, statistical (bounds of 5 standard errors, fixed seeds:
// deterministic) or exact.
#include "harness/runner.hpp"
#include "tasks/rapidcheck_gen.hpp"
#include "tasks/regression_task.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <set>

using namespace iclproof;

namespace {
task_spec spec_of(int d, int N, input_distribution dist, std::uint64_t seed) {
  task_spec s;
  s.d = d;
  s.N = N;
  s.distribution = dist;
  s.seed = seed;
  return s;
}
}  // namespace

// The anisotropic generator draws x = U^T D^(1/2) z with cond(D) = condition, so the sample
// covariance of N draws is U^T D^(1/2) (Z Z^T / N) D^(1/2) U: its condition number is
// condition times that of Z Z^T / N, which for N = 40000 and d <= 8 lies within
// (1 +- 3 sqrt(d / N))^2 of 1 (Davidson-Szarek; 3 sqrt(8/40000) = 0.042): within a factor 1.2.
TEST_CASE("anisotropic tasks have the requested condition number", "[tasks][generators]") {
  for (int d : {2, 5, 8})
    for (double cond : {1.0, 10.0, 1e3, 1e6}) {
      const auto t = make_task_double([&] {
        auto s = spec_of(d, 40000, input_distribution::anisotropic, 17 + d);
        s.condition = cond;
        return s;
      }());
      const Mat<double> S = t.X * t.X.transpose() / 40000.0;
      Eigen::SelfAdjointEigenSolver<Mat<double>> es(S);
      const double measured = es.eigenvalues()(d - 1) / es.eigenvalues()(0);
      INFO("d = " << d << ", requested " << cond << ", measured " << measured);
      CHECK(measured <= cond * 1.2);
      CHECK(measured >= cond / 1.2);
    }
}

// Rank: exact over the rationals. rank-deficient X = B Z has rank exactly `rank` once N >= rank
// + 3 (B has full column rank by construction; Z's rows are independent); every other family
// has full rank min(d, N).
TEST_CASE("tasks have the requested exact rank", "[tasks][generators]") {
  for (int d = 2; d <= 6; ++d)
    for (int rank = 1; rank < d; ++rank)
      for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        auto s = spec_of(d, rank + 3 + static_cast<int>(seed % 4),
                         input_distribution::rank_deficient, seed);
        s.rank = rank;
        INFO("d = " << d << ", rank = " << rank << ", seed = " << seed);
        CHECK(exact_rank(make_task_double(s).X) == rank);
      }
  for (auto dist :
       {input_distribution::gaussian, input_distribution::uniform, input_distribution::anisotropic})
    for (int d = 1; d <= 6; ++d)
      for (int N : {1, d, d + 5}) {
        auto s = spec_of(d, N, dist, 100 + N);
        s.condition = 1e3;
        INFO(to_string(dist) << " d = " << d << ", N = " << N);
        CHECK(exact_rank(make_task_double(s).X) == std::min(d, N));
      }
}

// Noise: Y - W* X = noise G with G standard normal, so ||Y - W* X||_F^2 / noise^2 is chi-square
// with k = o N degrees of freedom: within 5 sqrt(2k) of k. Noise 0 gives Y = W* X exactly.
TEST_CASE("label noise has the requested standard deviation", "[tasks][generators]") {
  for (double noise : {0.01, 0.1, 0.5}) {
    auto s = spec_of(3, 5000, input_distribution::gaussian, 5);
    s.o = 2;
    s.noise = noise;
    const auto t = make_task_double(s);
    const double chi2 = (t.Y - t.W_star * t.X).squaredNorm() / (noise * noise);
    const double k = 2.0 * 5000;
    INFO("noise " << noise << ": chi2 " << chi2 << " on " << k << " degrees of freedom");
    CHECK(std::abs(chi2 - k) <= 5 * std::sqrt(2 * k));
  }
  auto s = spec_of(3, 50, input_distribution::gaussian, 5);
  const auto t = make_task_double(s);
  CHECK((t.Y - t.W_star * t.X).isZero(0.0));
}

// Distribution family by its moments over n = 120000 draws (5 standard errors): gaussian
// E x^2 = 1 (se sqrt(2/n)), E x^4 = 3 (se sqrt(96/n)); uniform(-1, 1): |x| < 1, E x^2 = 1/3
// (se sqrt(4/45/n)), E x^4 = 1/5 (se sqrt((1/9 - 1/25)/n)); both mean 0 (se sqrt(E x^2 / n)).
TEST_CASE("input distributions have their family's moments", "[tasks][generators]") {
  const int d = 4, N = 30000;
  const double n = double(d) * N;
  const auto moments = [&](input_distribution dist) {
    const Mat<double> X = make_task_double(spec_of(d, N, dist, 9)).X;
    struct m {
      double m1, m2, m4, max_abs;
    };
    return m{X.sum() / n, X.array().square().sum() / n, X.array().pow(4).sum() / n,
             X.cwiseAbs().maxCoeff()};
  };
  const auto g = moments(input_distribution::gaussian);
  CHECK(std::abs(g.m1) <= 5 * std::sqrt(1 / n));
  CHECK(std::abs(g.m2 - 1) <= 5 * std::sqrt(2 / n));
  CHECK(std::abs(g.m4 - 3) <= 5 * std::sqrt(96 / n));
  const auto u = moments(input_distribution::uniform);
  CHECK(u.max_abs < 1);
  CHECK(std::abs(u.m1) <= 5 * std::sqrt(1 / 3.0 / n));
  CHECK(std::abs(u.m2 - 1 / 3.0) <= 5 * std::sqrt(4 / 45.0 / n));
  CHECK(std::abs(u.m4 - 0.2) <= 5 * std::sqrt((1 / 9.0 - 1 / 25.0) / n));
}

// Ranges reached: over 200 cases of one property run (the runner's RapidCheck settings)
// gen_task_spec draws every d, N, o in its ranges, every distribution, both ends of the
// anisotropic condition range and both noise levels at least once. Before the draws were made at
// full size (rapidcheck_gen.cpp) N = 22..24 and the condition 10^3 were never drawn. Why 200:
// with 24 values of N, 100 cases miss one in about 30% of seeds (measured when the runner moved
// to per-case seeds: all of N drawn for 139 of seeds 1..200 at 100 cases, 192 at 150,
// 200 of 200 at 200 cases, and every other range too), so 100 cases passed only by the luck of
// the seed.
TEST_CASE("gen_task_spec reaches every value in its ranges within 200 cases",
          "[tasks][generators]") {
  task_ranges r;
  r.d_max = 8;
  r.o_max = 2;
  r.N_max = 24;
  r.max_noise = 0.1;
  std::set<int> ds, Ns, os, ranks;
  std::set<double> conds, noises;
  std::set<input_distribution> dists;
  const property_info info{"coverage", "gen_task_spec coverage", {}};
  run_config cfg;
  cfg.scalar = scalar_kind::double_precision;
  cfg.cases = 200;
  cfg.seed = 20261122;
  const auto res = run_body(
      info,
      [&](case_context& ctx) {
        const task_spec s = *gen_task_spec(r);
        ds.insert(s.d);
        Ns.insert(s.N);
        os.insert(s.o);
        dists.insert(s.distribution);
        if (s.distribution == input_distribution::rank_deficient) ranks.insert(s.rank);
        if (s.distribution == input_distribution::anisotropic) conds.insert(s.condition);
        noises.insert(s.noise);
        ctx.require("drawn", true, "");
      },
      cfg);
  REQUIRE(res.outcome == verdict::pass);
  CHECK(ds.size() == 8);
  CHECK(Ns.size() == 24);
  CHECK(os.size() == 2);
  CHECK(dists.size() == 4);
  CHECK(noises.size() == 2);
  CHECK(ranks.size() >= 4);  // rank in [1, d - 1], d <= 8: at least ranks 1..4 drawn
  // About 50 of the 200 cases are anisotropic, over 7 condition steps: each step is missed with
  // probability (6/7)^50 < 0.1%; the check allows one inner step missed, both ends must be drawn.
  CHECK(conds.size() >= 6);
  CHECK(*conds.begin() == 1.0);
  CHECK(*conds.rbegin() == Approx(1e3));
}
