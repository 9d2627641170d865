#include "compare/task_progress.hpp"

#include <map>
#include <memory>
#include <utility>

namespace iclproof {

namespace {
thread_local const compare_task_progress* current_sink = nullptr;
}  // namespace

compare_task_progress task_progress_lines(progress_reporter& reporter) {
  // Each phase run a new item of the reporter (a phase of the same name run again, e.g. the GD
  // steps of two references, is a new item): its rate counts from its own start (done = 0).
  auto items = std::make_shared<std::size_t>(0);
  auto current = std::make_shared<std::map<std::string, std::size_t>>();
  return [&reporter, items, current](const std::string& phase, long done, long total) {
    if (done == 0) (*current)[phase] = (*items)++;
    const auto it = current->find(phase);
    const std::size_t item = it != current->end() ? it->second : (*current)[phase] = (*items)++;
    reporter.update(item, 1, phase, done, total, "tasks");
  };
}

namespace compare_detail {

task_progress_scope::task_progress_scope(const compare_task_progress& sink)
    : previous_(current_sink) {
  current_sink = &sink;
}
task_progress_scope::~task_progress_scope() { current_sink = previous_; }

task_phase::task_phase(std::string name, std::size_t total)
    : name_(std::move(name)), total_(static_cast<long>(total)), sink_(current_sink) {
  if (sink_ != nullptr && *sink_) (*sink_)(name_, 0, total_);
}

void task_phase::advance() {
  ++done_;
  if (sink_ != nullptr && *sink_) (*sink_)(name_, done_, total_);
}

}  // namespace compare_detail
}  // namespace iclproof
