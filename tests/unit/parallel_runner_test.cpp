// The runner's results must not depend on how the cases were split: blocks merged in
// case order, worker processes (--jobs) and shards (--shard, merge) all give the one-piece run.
#include "harness/parallel_runner.hpp"
#include "harness/progress.hpp"
#include "harness/property.hpp"
#include "harness/runner.hpp"
#include "harness/shard_file.hpp"

#include <fmt/format.h>
#include <rapidcheck.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace iclproof;

namespace {

// Draws x, y in [0, 1000) and checks x + y <= threshold, citing one of two hand derivations by
// x mod 3: errors, the worst check and the set of backings all vary from case to case. A second
// label ("y", always holding) makes the per-check margins differ from the property's.
property_body varied_body(int threshold) {
  return [threshold](case_context& ctx) {
    const int x = *rc::gen::inRange(0, 1000);
    const int y = *rc::gen::inRange(0, 1000);
    // Sizes drawn from the case's own draws, so the drawn-size record differs between blocks.
    note_drawn_size(size_axis::dimension, 1 + x % 17);
    note_drawn_size(size_axis::depth, 1 + y % 5);
    ctx.note_value("x", x);
    ctx.note_value("y", y);
    ctx.check_le<double>("y", static_cast<double>(y), 1000.0);
    ctx.check_le_hand_derived<double>("x + y", static_cast<double>(x + y),
                                      static_cast<double>(threshold),
                                      x % 3 == 0 ? "derivation A" : "derivation B");
  };
}

run_config double_run(int cases, std::uint64_t seed) {
  run_config cfg;
  cfg.scalar = scalar_kind::double_precision;
  cfg.cases = cases;
  cfg.seed = seed;
  return cfg;
}

// Every field of a result except the timing, doubles written exactly.
std::string fingerprint(const property_result& r) {
  std::string s = fmt::format(
      "{} {} {} cases={} checks={} outcome={} worst={:a}/{:a} maxeps={:a} margin={:a} fail={} "
      "discards={} identity={} enclosed={} width={:a}\nfailure={}\ncounterexample={}\n",
      r.info.name, r.scalar, r.precision_bits, r.cases, r.checks, to_string(r.outcome),
      r.worst_log2_err, r.worst_log2_bound, r.max_log2_err_in_eps, r.margin_log10, r.failing_case,
      r.discards, r.identity_checks, r.enclosed_checks, r.max_log2_width_in_eps, r.failure,
      r.counterexample);
  s +=
      fmt::format("drawn d={} N={} depth={}\n", r.drawn.dimension, r.drawn.examples, r.drawn.depth);
  for (const auto& b : r.proved_bounds) s += "proved " + b + "\n";
  for (const auto& b : r.hand_derived_bounds) s += "hand " + b + "\n";
  for (const auto& c : r.check_margins)
    s += fmt::format("check '{}' {} {:a}/{:a} margin={:a}\n", c.label, c.checks, c.worst_log2_err,
                     c.worst_log2_bound, c.margin_log10);
  return s;
}

const property_info info{"harness.split_test", "x + y <= threshold", {}};

// One property (a real registry entry is not needed: run_requests takes the pointer).
property test_property(int threshold) {
  property p;
  p.info = info;
  p.bodies[property::index_of(scalar_kind::double_precision)] = varied_body(threshold);
  return p;
}

}  // namespace

TEST_CASE("harness: case blocks merged in case order give the one-piece run", "[harness]") {
  for (const int threshold : {1500, 5000}) {  // fails in some cases / always holds
    for (const std::uint64_t seed : {1u, 2u, 3u}) {
      const run_config cfg = double_run(100, seed);
      const property_body body = varied_body(threshold);
      const property_result whole = run_body(info, body, cfg);
      if (threshold == 5000) REQUIRE(whole.outcome == verdict::pass);
      for (const int size : {1, 7, 33, 100}) {
        case_block merged = run_case_block(info, body, cfg, 0, std::min(size, cfg.cases));
        for (int b = size; b < cfg.cases; b += size)
          append_block(merged, run_case_block(info, body, cfg, b, std::min(cfg.cases, b + size)));
        std::optional<shrunk_case> shrunk;
        if (merged.event_case >= 0)
          shrunk = shrink_failing_case(info, body, cfg, merged.event_case);
        INFO("threshold " << threshold << ", seed " << seed << ", block size " << size);
        CHECK(fingerprint(finish_run(info, cfg, merged, shrunk)) == fingerprint(whole));
      }
    }
  }
}

TEST_CASE("harness: a failure after case 0 is found and shrunk the same way", "[harness]") {
  // Seed 2 fails first at a case well inside the run (the fixture of the determinism tests).
  const run_config cfg = double_run(100, 2);
  const property_result r = run_body(info, varied_body(1500), cfg);
  REQUIRE(r.outcome == verdict::fail);
  CHECK(r.failing_case > 0);
  CHECK(r.cases == r.failing_case + 1);
  CHECK(r.counterexample.find("int = ") != std::string::npos);  // RapidCheck's shrunk draws
  CHECK(r.failure.find("x = ") != std::string::npos);           // the body's notes
  CHECK(r.failure.find(fmt::format("first failing case: case {}", r.failing_case)) !=
        std::string::npos);
}

TEST_CASE("harness: run_requests gives the same results with 1, 2 and 3 jobs", "[harness]") {
  const property failing = test_property(1500), holding = test_property(5000);
  std::vector<run_request> requests;
  for (const std::uint64_t seed : {2u, 5u}) {
    requests.push_back({&failing, double_run(60, seed), fmt::format("fails {}", seed)});
    requests.push_back({&holding, double_run(45, seed), fmt::format("holds {}", seed)});
  }
  std::vector<std::string> one;
  for (const int jobs : {1, 2, 3}) {
    const std::vector<run_part> parts = run_requests(requests, jobs, shard_spec{});
    REQUIRE(parts.size() == requests.size());
    std::vector<std::string> prints;
    for (std::size_t i = 0; i < requests.size(); ++i)
      prints.push_back(fingerprint(result_of(requests[i], parts[i])));
    if (jobs == 1) {
      one = prints;
      // The same as running each property directly.
      for (std::size_t i = 0; i < requests.size(); ++i)
        CHECK(prints[i] ==
              fingerprint(run_body(info, requests[i].prop->body(scalar_kind::double_precision),
                                   requests[i].cfg)));
    } else {
      INFO(jobs << " jobs");
      CHECK(prints == one);
    }
  }
}

TEST_CASE("harness: shards 1..n merged give the whole run, for any n", "[harness]") {
  const property failing = test_property(1500), holding = test_property(5000);
  const std::vector<run_request> requests = {{&failing, double_run(50, 2), "fails"},
                                             {&holding, double_run(50, 2), "holds"},
                                             {&holding, double_run(2, 7), "two cases"}};
  const std::vector<run_part> whole = run_requests(requests, 1, shard_spec{});
  for (const int n : {2, 3, 7}) {
    std::vector<std::vector<run_part>> shards;
    for (int k = 1; k <= n; ++k) shards.push_back(run_requests(requests, 1, shard_spec{k, n}));
    for (std::size_t i = 0; i < requests.size(); ++i) {
      std::vector<run_part> in_order;
      for (const auto& s : shards) in_order.push_back(s[i]);
      INFO(n << " shards, request " << requests[i].id);
      CHECK(fingerprint(result_of(requests[i], merge_parts(in_order))) ==
            fingerprint(result_of(requests[i], whole[i])));
    }
  }
}

TEST_CASE("harness: a part survives JSON exactly, infinities and NaN included", "[harness]") {
  run_part p;
  p.block.begin = 3;
  p.block.end = 9;
  p.block.passed = 4;
  p.block.event_case = 7;
  p.block.event_description = "line one\nline two \"quoted\"";
  p.block.stats.checks = 11;
  p.block.stats.have_worst = true;
  p.block.stats.worst_log2_err = -std::numeric_limits<double>::infinity();
  p.block.stats.worst_log2_bound = std::nextafter(-170.0, 0.0);
  p.block.stats.max_err_in_eps = std::numeric_limits<double>::quiet_NaN();
  p.block.stats.hand_derived_bounds = {"a", "b"};
  p.block.drawn = {17, 0, 3};
  p.shrunk = shrunk_case{"minimal", "x = 1\n"};
  const run_part q = part_from_json(nlohmann::json::parse(part_to_json(p).dump()));
  CHECK(q.block.begin == 3);
  CHECK(q.block.end == 9);
  CHECK(q.block.passed == 4);
  CHECK(q.block.event_case == 7);
  CHECK(q.block.event_description == p.block.event_description);
  CHECK(q.block.stats.worst_log2_err == -std::numeric_limits<double>::infinity());
  CHECK(q.block.stats.worst_log2_bound == std::nextafter(-170.0, 0.0));
  CHECK(std::isnan(q.block.stats.max_err_in_eps));
  CHECK(q.block.stats.hand_derived_bounds == p.block.stats.hand_derived_bounds);
  CHECK(q.block.drawn == p.block.drawn);
  REQUIRE(q.shrunk);
  CHECK(q.shrunk->counterexample == "x = 1\n");
  CHECK_THROWS_AS(part_from_json(nlohmann::json::parse(R"({"applicable": true})")),
                  std::runtime_error);
}

TEST_CASE("harness: --shard k/n is parsed strictly and splits cases into n blocks", "[harness]") {
  CHECK(parse_shard("2/3").index == 2);
  CHECK(parse_shard("2/3").count == 3);
  for (const char* bad : {"0/3", "4/3", "1/0", "3", "a/b", "1/3/4", "-1/3", "", "/3", "1/"})
    CHECK_THROWS_AS(parse_shard(bad), std::invalid_argument);
  // Blocks cover [0, cases) in order, sizes differ by at most one, empty when n > cases.
  for (const int cases : {1, 2, 10, 101})
    for (const int n : {1, 2, 3, 7}) {
      int next = 0;
      for (int k = 1; k <= n; ++k) {
        const auto [b, e] = shard_cases(cases, shard_spec{k, n});
        CHECK(b == next);
        CHECK(e - b >= cases / n);
        CHECK(e - b <= cases / n + 1);
        next = e;
      }
      CHECK(next == cases);
    }
}

TEST_CASE("harness: merge refuses shards of different runs, duplicates and gaps", "[harness]") {
  const auto make = [](int k, int n) {
    shard_file s;
    s.path = fmt::format("s{}.json", k);
    s.command = "check";
    s.shard = {k, n};
    s.parameters = {{"seed", 1}, {"cases", 10}};
    s.build = {{"git_commit", "aaaaaaaaaaaa"}, {"compiler", "gcc"}};
    s.run_ids = {"p mpfr"};
    s.parts = {run_part{}};
    return s;
  };
  const auto refused = [](std::vector<shard_file> set, const std::string& says) {
    try {
      order_shard_set(std::move(set));
    } catch (const std::invalid_argument& e) {
      INFO(e.what());
      CHECK(std::string(e.what()).find(says) != std::string::npos);
      return;
    }
    FAIL("accepted a bad shard set (expected: " << says << ")");
  };
  // Accepted in any order, returned in shard order.
  const auto ordered = order_shard_set({make(3, 3), make(1, 3), make(2, 3)});
  CHECK(ordered[0].shard.index == 1);
  CHECK(ordered[2].shard.index == 3);
  refused({make(1, 3), make(3, 3)}, "missing shard(s) 2 of 3");
  refused({make(1, 2), make(2, 2), make(2, 2)}, "given twice");
  auto other_commit = make(2, 2);
  other_commit.build["git_commit"] = "bbbbbbbbbbbb";
  refused({make(1, 2), other_commit}, "git commits");
  auto other_seed = make(2, 2);
  other_seed.parameters["seed"] = 2;
  refused({make(1, 2), other_seed}, "parameters: seed");
  refused({make(1, 2), make(2, 3), make(3, 3)}, "shard counts");
  auto report = make(2, 2);
  report.command = "report";
  refused({make(1, 2), report}, "commands");
}

TEST_CASE("harness: a worker process that dies is an error naming the work, not a hang",
          "[harness]") {
  property dying;
  dying.info = {"harness.dies_in_a_worker", "the worker exits", {}};
  dying.bodies[property::index_of(scalar_kind::double_precision)] = [](case_context&) {
    std::_Exit(7);  // as a crash would end it (only ever run in a forked worker here)
  };
  const std::vector<run_request> requests = {{&dying, double_run(4, 1), "dies"}};
  try {
    run_requests(requests, 2, shard_spec{});
    FAIL("run_requests returned although its worker died");
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    INFO(what);
    CHECK(what.find("worker process died") != std::string::npos);
    CHECK(what.find("harness.dies_in_a_worker") != std::string::npos);
  }
}

// ---- progress per case at any --jobs (issue 41) ------------------------------------------

namespace {

// A property whose every case sleeps `ms` milliseconds (and always holds).
property sleeping_property(int ms) {
  property p;
  p.info = property_info{"harness.sleeping_test", "a case takes its time", {}};
  p.bodies[property::index_of(scalar_kind::double_precision)] = [ms](case_context& ctx) {
    const int x = *rc::gen::inRange(0, 10);
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    ctx.check_le<double>("x", static_cast<double>(x), 10.0);
  };
  return p;
}

// Sets ICLPROOF_PROGRESS_SECONDS for one scope (the workers, forked inside, inherit it).
struct progress_seconds {
  explicit progress_seconds(const char* value) { ::setenv("ICLPROOF_PROGRESS_SECONDS", value, 1); }
  ~progress_seconds() { ::unsetenv("ICLPROOF_PROGRESS_SECONDS"); }
};

}  // namespace

TEST_CASE("harness: with 2 jobs the progress count moves per case, not per block",
          "[harness][progress]") {
  const progress_seconds every_case("0");
  const property p = sleeping_property(20);
  // 40 cases with 2 jobs: blocks of 10 (runner: 2 x jobs blocks). Counted per finished block,
  // the callback would see only 10, 20, 30, 40.
  const std::vector<run_request> requests{{&p, double_run(40, 7), "sleepy"}};
  std::set<int> seen;
  int last = 0;
  bool went_back = false;
  const run_progress progress = [&](std::size_t, int done, int total) {
    CHECK(total == 40);
    seen.insert(done);
    if (done < last) went_back = true;
    last = done;
  };
  int calls = 0;
  const run_progress counting = [&](std::size_t i, int done, int total) {
    ++calls;
    progress(i, done, total);
  };
  run_requests(requests, 2, shard_spec{}, counting);
  INFO("distinct counts seen: " << seen.size() << " in " << calls << " calls");
  CHECK(calls == static_cast<int>(seen.size()));  // each count passed on once
  CHECK(seen.size() >= 20);
  CHECK(std::any_of(seen.begin(), seen.end(), [](int d) { return d % 10 != 0; }));
  CHECK_FALSE(went_back);
  CHECK(*seen.rbegin() == 40);
}

TEST_CASE("harness: with 2 jobs a slow first case still gets progress calls before it ends",
          "[harness][progress]") {
  // Interval 1 s: the parent waits at most a heartbeat (0.2 s) for a worker's line, then
  // passes on the count it has once per interval, so the throttled reporter can print its first
  // line on time (at about 1 s and 2 s of this 2.5 s case).
  const progress_seconds one_second("1");
  const property p = sleeping_property(2500);
  const std::vector<run_request> requests{{&p, double_run(1, 3), "slow"}};
  int zero_calls = 0;
  const run_progress progress = [&](std::size_t, int done, int) { zero_calls += done == 0; };
  run_requests(requests, 2, shard_spec{}, progress);
  INFO("calls with 0 cases done during the 2.5 s case: " << zero_calls);
  CHECK(zero_calls >= 2);
  CHECK(zero_calls <= 4);  // not one per heartbeat (12): the same count once per interval
}

TEST_CASE("harness: the first progress line of a 2-job run comes within the interval",
          "[harness][progress]") {
  // A reporter with an interval of 0.3 s on the real clock, fed by a 2-job run whose single
  // case takes 1.5 s: a line must be printed before the case (and so any block) has finished.
  const progress_seconds interval("0.3");
  const property p = sleeping_property(1500);
  const std::vector<run_request> requests{{&p, double_run(1, 5), "slow"}};
  std::vector<std::string> lines;
  progress_reporter reporter("test", 0.3, {}, [&](const std::string& l) { lines.push_back(l); });
  int lines_before_done = -1;
  const run_progress progress = [&](std::size_t i, int done, int total) {
    if (done == total && lines_before_done < 0) lines_before_done = reporter.lines_printed();
    reporter.update(i, 1, "slow", done, total);
  };
  run_requests(requests, 2, shard_spec{}, progress);
  CHECK(lines_before_done >= 1);
}
