// Progress lines for the long phases (check, report, compare, training): plain lines on stderr,
// so that stdout (tables, JSON) stays clean and a log file shows them as well as a terminal.
//
// Two kinds of line, both "<prefix>: ..." and both silent after set_progress_quiet(true)
// (the commands' --quiet):
//   - update(): cases (or steps) done of one work item, with its rate and ETA and the run's
//     elapsed time; throttled to at most one line per interval, and none in the first interval
//     (a run shorter than that prints nothing);
//   - step(): a milestone (a trained model compared, a sweep seed, a new property family
//     started), with the run's elapsed time and what is left; printed at once.
// Standard library only: iclproof-train (LibTorch, no verifier headers) links it too.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <set>
#include <string>

namespace iclproof {

// --quiet: no progress line at all, from any reporter, after this call.
void set_progress_quiet(bool quiet);
bool progress_quiet();

// Seconds between throttled lines: ICLPROOF_PROGRESS_SECONDS if it is set to a number >= 0
// (the tests use a small one), else 5.
double default_progress_interval();

// "7 s", "2 min 05 s", "1 h 03 min".
std::string format_duration(double seconds);

class progress_reporter {
 public:
  using clock = std::function<double()>;  // seconds on a monotonic clock
  using sink = std::function<void(const std::string& line)>;
  // Defaults: std::chrono::steady_clock, one line written and flushed to stderr.
  explicit progress_reporter(std::string prefix, double interval = default_progress_interval(),
                             clock now = {}, sink out = {});

  // Work item `item` of `items` (e.g. the 12th of 39 properties), named `name`, has `done` of
  // `total` units done. Throttled. `group` (e.g. the property's family): the first update of a
  // group not seen before prints a step line at once ("<group>: item 12 of 39, ...").
  void update(std::size_t item, std::size_t items, const std::string& name, long done, long total,
              const std::string& unit = "cases", const std::string& group = "");
  // Milestone `index` (1-based) of `total` in `phase`: "<phase> [index/total] name (elapsed
  // ..., total - index left after this)". Printed at once unless `throttled`.
  void step(const std::string& phase, int index, int total, const std::string& name,
            bool throttled = false);
  // A line as is (with the prefix and the elapsed time), printed at once.
  void note(const std::string& text);

  int lines_printed() const { return lines_; }

 private:
  struct item_state {
    double first_seen = 0;
    bool finished = false;
  };
  void emit(const std::string& text);
  bool due(double now) const;

  std::string prefix_;
  double interval_;
  clock now_;
  sink out_;
  double start_;
  double last_line_ = -1;  // time of the last line; -1: none yet
  double last_call_;       // time of the last update() (an item's presumed start)
  int lines_ = 0;
  std::size_t finished_ = 0;
  std::map<std::size_t, item_state> items_;
  std::set<std::string> groups_;
};

}  // namespace iclproof
