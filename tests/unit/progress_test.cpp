// The progress reporter (harness/progress.hpp) on a fake clock: throttling (no line in the first
// interval, at most one per interval after it), the rate and ETA it prints, group and step lines
// at once, and --quiet.
#include "harness/progress.hpp"

#include <catch2/catch.hpp>

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
