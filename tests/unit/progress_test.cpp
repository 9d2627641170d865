// The progress reporter (harness/progress.hpp) on a fake clock: throttling (no line in the first
// interval, at most one per interval after it), the rate and ETA it prints, group and step lines
// at once, and --quiet. Then `iclproof compare`'s per-task lines (compare/task_progress.hpp) on a
// fake clock: a comparison's long phases print throttled lines through the reporter, the first
// once the interval (5 s) has passed, then at most one per interval, each with the tasks done of
// its phase and the rate and ETA from them; --quiet prints none.
#include "harness/progress.hpp"
#include "compare/compare.hpp"
#include "compare/task_progress.hpp"
#include "compare_gate_assertions.hpp"
#include "compare_model_files.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <regex>
#include <string>
#include <vector>

using namespace iclproof;

namespace {

struct fake_progress_setup {
  double now = 100.0;  // any origin: only differences count
  std::vector<std::string> lines;
  progress_reporter make(double interval) {
    return progress_reporter(
        "tool", interval, [this] { return now; },
        [this](const std::string& line) { lines.push_back(line); });
  }
};

}  // namespace

TEST_CASE("progress: nothing in the first interval, then at most one line per interval",
          "[progress]") {
  set_progress_quiet(false);
  fake_progress_setup f;
  progress_reporter r = f.make(5.0);
  for (int i = 1; i <= 4; ++i) {
    f.now += 1.0;
    r.update(0, 3, "fam.a", i, 100);
  }
  CHECK(f.lines.empty());  // 4 s < 5 s: a short run prints nothing
  f.now += 1.0;            // 5 s after the start, 5 cases done: 1 case/s
  r.update(0, 3, "fam.a", 5, 100);
  REQUIRE(f.lines.size() == 1);
  CHECK(f.lines[0] ==
        "tool: [0/3 done] fam.a: 5/100 cases, 1 cases/s, ETA 1 min 35 s (elapsed 5 s)");
  for (int i = 6; i <= 9; ++i) {
    f.now += 1.0;
    r.update(0, 3, "fam.a", i, 100);
  }
  CHECK(f.lines.size() == 1);  // 4 s after the last line
  f.now += 1.0;
  r.update(0, 3, "fam.a", 10, 100);
  CHECK(f.lines.size() == 2);
  CHECK(r.lines_printed() == 2);
}

TEST_CASE("progress: finished items are counted, the rate is per item", "[progress]") {
  set_progress_quiet(false);
  fake_progress_setup f;
  progress_reporter r = f.make(2.0);
  f.now += 1.0;
  r.update(0, 2, "fam.a", 10, 10);  // item 0 done after 1 s
  f.now += 3.0;                     // item 1: first heard of with 30 done, 3 s after item 0
  r.update(1, 2, "fam.b", 30, 60);
  REQUIRE(f.lines.size() == 1);
  CHECK(f.lines[0] == "tool: [1/2 done] fam.b: 30/60 cases, 10 cases/s, ETA 3 s (elapsed 4 s)");
  f.now += 3.0;
  r.update(1, 2, "fam.b", 60, 60);
  REQUIRE(f.lines.size() == 2);
  CHECK(f.lines[1] == "tool: [2/2 done] fam.b: 60/60 cases, finished (elapsed 7 s)");
}

TEST_CASE("progress: one item has no count, steps and groups print at once", "[progress]") {
  set_progress_quiet(false);
  fake_progress_setup f;
  progress_reporter r = f.make(10.0);
  r.update(0, 5, "fam.a", 0, 4, "cases", "run fam");
  r.update(1, 5, "fam.b", 0, 4, "cases", "run fam");  // the same group: no second line
  REQUIRE(f.lines.size() == 1);
  CHECK(f.lines[0] == "tool: run fam: fam.a (1 of 5, 5 not finished) (elapsed 0 s)");
  f.now += 1.0;
  r.step("compare", 2, 5, "model");
  REQUIRE(f.lines.size() == 2);
  CHECK(f.lines[1] == "tool: compare [2/5] model; 3 left after it (elapsed 1 s)");
  r.step("plot", 1, 29, "figure", true);  // throttled: 1 s after the last line
  CHECK(f.lines.size() == 2);
  progress_reporter training = f.make(10.0);  // one item: no "[k/n done]"
  f.now += 126.0;
  training.update(0, 1, "training", 1260, 3000, "steps");
  REQUIRE(f.lines.size() == 3);
  CHECK(f.lines[2] ==
        "tool: training: 1260/3000 steps, 10 steps/s, ETA 2 min 54 s (elapsed 2 min 06 s)");
}

TEST_CASE("progress: --quiet prints nothing", "[progress]") {
  fake_progress_setup f;
  progress_reporter r = f.make(0.0);
  set_progress_quiet(true);
  r.update(0, 1, "a", 1, 2, "cases", "group");
  r.step("phase", 1, 2, "b");
  r.note("text");
  set_progress_quiet(false);
  CHECK(f.lines.empty());
  r.note("text");
  CHECK(f.lines.size() == 1);
}

TEST_CASE("progress: durations", "[progress]") {
  CHECK(format_duration(0.4) == "0 s");
  CHECK(format_duration(59.4) == "59 s");
  CHECK(format_duration(61) == "1 min 01 s");
  CHECK(format_duration(3599) == "59 min 59 s");
  CHECK(format_duration(3600 + 125) == "1 h 02 min");
}

namespace {

// Every reading of the fake clock advances it by 10 ms: one reading per task done (the
// reporter's update), one more per line printed. So a phase of n tasks lasts n / 100 s of fake
// time and runs at 100 tasks/s, minus the readings of the lines it prints.
struct fake_clock_run {
  double now = 1000.0;
  std::vector<std::string> lines;
  progress_reporter reporter{"iclproof compare", 5.0, [this] { return now += 0.01; },
                             [this](const std::string& line) { lines.push_back(line); }};
};

double seconds_of(const std::string& duration) {  // "7 s", "1 min 05 s"
  std::smatch m;
  if (std::regex_match(duration, m, std::regex(R"((\d+) s)"))) return std::stod(m[1]);
  REQUIRE(std::regex_match(duration, m, std::regex(R"((\d+) min (\d+) s)")));
  return 60 * std::stod(m[1]) + std::stod(m[2]);
}

}  // namespace

TEST_CASE("compare progress: per-task lines, the first within 5 s, rate and ETA from tasks done",
          "[progress][compare]") {
  set_progress_quiet(false);
  const int d = 4, N = 8, tasks = 1200;
  const double eta_star = 15.0 * N / (5.0 * N + 5.0 * d - 1.0);  // exact for U(-1, 1)
  fake_clock_run run;
  compare_options o = compare_tasks(tasks);
  o.task_progress = task_progress_lines(run.reporter);
  const compare_result r = compare_weights(prop1(d, N, eta_star), o);
  require_all_gated_pass(r);
  // The comparison's phases of 1200 tasks each (drawing, the learned model's forward passes, the
  // implicit weights, ...) last 12 s of fake time each: lines every 5 s.
  INFO("lines:\n"
       << [&] {
            std::string all;
            for (const auto& l : run.lines) all += l + "\n";
            return all;
          }());
  REQUIRE(run.lines.size() >= 4);
  const std::regex counting(
      R"(iclproof compare: ([^:]+): (\d+)/(\d+) tasks, ([0-9.e+]+) tasks/s, ETA ([0-9a-z ]+) \(elapsed ([0-9a-z ]+)\))");
  const std::regex finished(
      R"(iclproof compare: ([^:]+): (\d+)/(\d+) tasks, finished \(elapsed ([0-9a-z ]+)\))");
  double previous = 0;
  std::vector<std::string> phases;
  for (std::size_t i = 0; i < run.lines.size(); ++i) {
    std::smatch m;
    const std::string& line = run.lines[i];
    double elapsed = 0;
    if (std::regex_match(line, m, counting)) {
      const long done = std::stol(m[2]), total = std::stol(m[3]);
      CHECK(total == tasks);
      CHECK(done > 0);
      CHECK(done < total);
      // Tasks done over the phase's time: 100 tasks/s less the clock readings of the lines.
      const double rate = std::stod(m[4]);
      CHECK(rate > 90);
      CHECK(rate <= 100);
      // ETA = tasks left / rate, to the second.
      CHECK(std::abs(seconds_of(m[5]) - (total - done) / rate) <= 0.6);
      elapsed = seconds_of(m[6]);
    } else {
      REQUIRE(std::regex_match(line, m, finished));
      CHECK(std::stol(m[2]) == tasks);
      elapsed = seconds_of(m[4]);
    }
    phases.push_back(m[1]);
    if (i == 0)
      CHECK(elapsed == 5);  // the first line once 5 s have passed, at the first task after it
    else
      CHECK(elapsed - previous >= 5 - 1);  // throttled: one line per interval (whole seconds)
    previous = elapsed;
  }
  // The learned model's forward passes are one of the phases seen counting.
  CHECK(std::find(phases.begin(), phases.end(), "forward passes of the learned model") !=
        phases.end());

  SECTION("--quiet: no line") {
    fake_clock_run quiet;
    compare_options q = compare_tasks(tasks);
    q.task_progress = task_progress_lines(quiet.reporter);
    set_progress_quiet(true);
    compare_weights(prop1(d, N, eta_star), q);
    set_progress_quiet(false);
    CHECK(quiet.lines.empty());
  }
}
