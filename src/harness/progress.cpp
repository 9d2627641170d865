#include "harness/progress.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>

namespace iclproof {

namespace {
std::atomic<bool> quiet_flag{false};

std::string printf_string(const char* format, double a, double b = 0) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, a, b);
  return buf;
}
}  // namespace

void set_progress_quiet(bool quiet) { quiet_flag = quiet; }
bool progress_quiet() { return quiet_flag; }

double default_progress_interval() {
  if (const char* text = std::getenv("ICLPROOF_PROGRESS_SECONDS")) {
    char* end = nullptr;
    const double s = std::strtod(text, &end);
    if (end != text && *end == '\0' && s >= 0 && std::isfinite(s)) return s;
  }
  return 5.0;
}

std::string format_duration(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  char buf[48];
  if (s < 60)
    std::snprintf(buf, sizeof buf, "%ld s", s);
  else if (s < 3600)
    std::snprintf(buf, sizeof buf, "%ld min %02ld s", s / 60, s % 60);
  else
    std::snprintf(buf, sizeof buf, "%ld h %02ld min", s / 3600, (s % 3600) / 60);
  return buf;
}

progress_reporter::progress_reporter(std::string prefix, double interval, clock now, sink out)
    : prefix_(std::move(prefix)), interval_(interval), now_(std::move(now)), out_(std::move(out)) {
  if (!now_)
    now_ = [] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
          .count();
    };
  if (!out_)
    out_ = [](const std::string& line) {
      std::fprintf(stderr, "%s\n", line.c_str());
      std::fflush(stderr);
    };
  start_ = now_();
  last_call_ = start_;
}

bool progress_reporter::due(double now) const {
  return now - start_ >= interval_ && (last_line_ < 0 || now - last_line_ >= interval_);
}

void progress_reporter::emit(const std::string& text) {
  const double now = now_();
  out_(prefix_ + ": " + text + " (elapsed " + format_duration(now - start_) + ")");
  last_line_ = now;
  ++lines_;
}

void progress_reporter::update(std::size_t item, std::size_t items, const std::string& name,
                               long done, long total, const std::string& unit,
                               const std::string& group) {
  if (progress_quiet()) return;
  const double now = now_();
  auto [it, inserted] = items_.try_emplace(item);
  item_state& st = it->second;
  // An item first heard of with work done (a block finished in a worker) started, at the
  // latest, when the previous update came in.
  if (inserted) st.first_seen = done > 0 ? last_call_ : now;
  last_call_ = now;
  if (done >= total && !st.finished) {
    st.finished = true;
    ++finished_;
  }
  if (!group.empty() && groups_.insert(group).second) {
    emit(group + ": " + name + " (" + std::to_string(item + 1) + " of " + std::to_string(items) +
         ", " + std::to_string(items - finished_) + " not finished)");
    return;
  }
  if (!due(now)) return;
  std::string text =
      (items > 1 ? "[" + std::to_string(finished_) + "/" + std::to_string(items) + " done] " : "") +
      name + ": " + std::to_string(done) + "/" + std::to_string(total) + " " + unit;
  const double seconds = now - st.first_seen;
  if (done >= total) {
    text += ", finished";
  } else if (seconds > 0 && done > 0) {
    const double rate = static_cast<double>(done) / seconds;
    text += ", " + printf_string(rate >= 100 ? "%.0f" : "%.3g", rate) + " " + unit + "/s, ETA " +
            format_duration((total - done) / rate);
  } else {
    text += ", ETA unknown";
  }
  emit(text);
}

void progress_reporter::step(const std::string& phase, int index, int total,
                             const std::string& name, bool throttled) {
  if (progress_quiet()) return;
  if (throttled && !due(now_())) return;
  emit(phase + " [" + std::to_string(index) + "/" + std::to_string(total) + "] " + name + "; " +
       std::to_string(total - index) + " left after it");
}

void progress_reporter::note(const std::string& text) {
  if (progress_quiet()) return;
  emit(text);
}

}  // namespace iclproof
