// Per-task progress of `iclproof compare`'s long phases. Every loop over tasks (drawing the
// validation tasks, the calibration of the GD step, the tuning sample, the learned model's and
// each reference's forward passes, the implicit weights read off every prompt) is a phase: a
// task_phase counts its tasks and passes (phase, done, total) to the options' task_progress at
// its start (done = 0), after every task and at its end. compare_weights installs
// options.task_progress for the calls it makes on its thread (a task_progress_scope); the
// command line's sink is a progress_reporter (harness/progress.hpp: throttled lines on stderr,
// the first once a phase has run the progress interval, 5 s, with the rate and ETA from the
// tasks done), as `check` and `report` count cases.
#pragma once

#include "compare/compare.hpp"
#include "harness/progress.hpp"

#include <cstddef>
#include <string>

namespace iclproof {

// The command line's sink: each phase run is an item of `reporter` named by the phase, its units
// "tasks" (throttled lines "<phase>: 600/10000 tasks, 118 tasks/s, ETA 1 min 21 s", the rate from
// the tasks done since the phase started). A sweep prefixes the phase names with the file. The
// reporter must outlive the sink.
compare_task_progress task_progress_lines(progress_reporter& reporter);

namespace compare_detail {

// While alive, task_phase objects on this thread report to `sink` (nested scopes: the innermost
// wins; an empty sink silences them).
class task_progress_scope {
 public:
  explicit task_progress_scope(const compare_task_progress& sink);
  ~task_progress_scope();
  task_progress_scope(const task_progress_scope&) = delete;
  task_progress_scope& operator=(const task_progress_scope&) = delete;

 private:
  const compare_task_progress* previous_;
};

// One phase of `total` tasks named `name` (e.g. "forward passes of the learned model").
class task_phase {
 public:
  task_phase(std::string name, std::size_t total);
  // One more task done.
  void advance();

 private:
  std::string name_;
  long done_ = 0, total_;
  const compare_task_progress* sink_;
};

}  // namespace compare_detail
}  // namespace iclproof
