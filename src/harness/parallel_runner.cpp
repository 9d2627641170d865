#include "harness/parallel_runner.hpp"

#include "core/precision.hpp"
#include "core/scalar.hpp"
#include "harness/progress.hpp"

#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <iostream>
#include <stdexcept>
#include <thread>

namespace iclproof {

using nlohmann::json;

shard_spec parse_shard(const std::string& text) {
  const auto bad = [&](const std::string& why) {
    return std::invalid_argument("--shard '" + text + "': " + why);
  };
  const auto slash = text.find('/');
  if (slash == std::string::npos) throw bad("expected k/n, e.g. 2/8");
  const auto number = [&](const std::string& part, const char* what) {
    if (part.empty() || part.size() > 6 ||
        !std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; }))
      throw bad(std::string(what) + " is not a whole number in [1, 100000]");
    return std::stoi(part);
  };
  shard_spec s;
  s.index = number(text.substr(0, slash), "k");
  s.count = number(text.substr(slash + 1), "n");
  if (s.count < 1 || s.count > 100000) throw bad("n must be in [1, 100000]");
  if (s.index < 1 || s.index > s.count) throw bad("k must be in [1, n]");
  return s;
}

std::pair<int, int> shard_cases(int cases, const shard_spec& s) {
  const auto edge = [&](int k) {
    return static_cast<int>(static_cast<long long>(cases) * k / s.count);
  };
  return {edge(s.index - 1), edge(s.index)};
}

int default_jobs() { return std::max(1u, std::thread::hardware_concurrency()); }

// ---- exact JSON ------------------------------------------------------------------------------

namespace {
json exact_double(double x) { return fmt::format("{:a}", x); }
double read_double(const json& j, const char* key) {
  const json& v = j.at(key);
  if (!v.is_string()) throw std::runtime_error(std::string(key) + " is not a hexadecimal float");
  const std::string s = v.get<std::string>();
  char* end = nullptr;
  const double x = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size())
    throw std::runtime_error(std::string(key) + " = '" + s + "' is not a number");
  return x;
}
json by_check_to_json(const std::map<std::string, check_margin>& by_check) {
  json a = json::array();
  for (const auto& [label, m] : by_check)
    a.push_back({{"label", label},
                 {"checks", m.checks},
                 {"worst_log2_err", exact_double(m.worst_log2_err)},
                 {"worst_log2_bound", exact_double(m.worst_log2_bound)}});
  return a;
}
json stats_to_json(const check_stats& s) {
  return {{"cases", s.cases},
          {"checks", s.checks},
          {"failed", s.failed},
          {"have_worst", s.have_worst},
          {"worst_log2_err", exact_double(s.worst_log2_err)},
          {"worst_log2_bound", exact_double(s.worst_log2_bound)},
          {"max_err_in_eps", exact_double(s.max_err_in_eps)},
          {"log2_eps", exact_double(s.log2_eps)},
          {"have_log2_eps", s.have_log2_eps},
          {"proved_bounds", s.proved_bounds},
          {"hand_derived_bounds", s.hand_derived_bounds},
          {"identity_checks", s.identity_checks},
          {"enclosed_checks", s.enclosed_checks},
          {"max_width_in_eps", exact_double(s.max_width_in_eps)},
          {"by_check", by_check_to_json(s.by_check)}};
}
check_stats stats_from_json(const json& j) {
  check_stats s;
  s.cases = j.at("cases").get<int>();
  s.checks = j.at("checks").get<long>();
  s.failed = j.at("failed").get<bool>();
  s.have_worst = j.at("have_worst").get<bool>();
  s.worst_log2_err = read_double(j, "worst_log2_err");
  s.worst_log2_bound = read_double(j, "worst_log2_bound");
  s.max_err_in_eps = read_double(j, "max_err_in_eps");
  s.log2_eps = read_double(j, "log2_eps");
  s.have_log2_eps = j.at("have_log2_eps").get<bool>();
  s.proved_bounds = j.at("proved_bounds").get<std::set<std::string>>();
  s.hand_derived_bounds = j.at("hand_derived_bounds").get<std::set<std::string>>();
  s.identity_checks = j.at("identity_checks").get<long>();
  s.enclosed_checks = j.at("enclosed_checks").get<long>();
  s.max_width_in_eps = read_double(j, "max_width_in_eps");
  // Absent from blocks written before the per-check margins were kept.
  if (j.contains("by_check"))
    for (const json& c : j.at("by_check")) {
      check_margin& m = s.by_check[c.at("label").get<std::string>()];
      m.checks = c.at("checks").get<long>();
      m.worst_log2_err = read_double(c, "worst_log2_err");
      m.worst_log2_bound = read_double(c, "worst_log2_bound");
    }
  return s;
}
json block_to_json(const case_block& b) {
  return {{"begin", b.begin},
          {"end", b.end},
          {"passed", b.passed},
          {"discards", b.discards},
          {"stats", stats_to_json(b.stats)},
          {"event_case", b.event_case},
          {"gave_up", b.gave_up},
          {"event_description", b.event_description},
          {"precision_bits", b.precision_bits},
          {"drawn_sizes", drawn_sizes_to_json(b.drawn)},
          {"seconds", b.seconds}};
}
case_block block_from_json(const json& j) {
  case_block b;
  b.begin = j.at("begin").get<int>();
  b.end = j.at("end").get<int>();
  b.passed = j.at("passed").get<int>();
  b.discards = j.at("discards").get<long>();
  b.stats = stats_from_json(j.at("stats"));
  b.event_case = j.at("event_case").get<int>();
  b.gave_up = j.at("gave_up").get<bool>();
  b.event_description = j.at("event_description").get<std::string>();
  b.precision_bits = j.at("precision_bits").get<int>();
  b.seconds = j.at("seconds").get<double>();
  b.drawn = drawn_sizes_from_json(j.at("drawn_sizes"));
  if (b.begin < 0 || b.end < b.begin || b.passed < 0 || b.passed > b.end - b.begin)
    throw std::runtime_error(
        fmt::format("inconsistent case block [{}, {}) with {} passed", b.begin, b.end, b.passed));
  return b;
}
json shrunk_to_json(const shrunk_case& s) {
  return {{"description", s.description}, {"counterexample", s.counterexample}};
}
shrunk_case shrunk_from_json(const json& j) {
  return {j.at("description").get<std::string>(), j.at("counterexample").get<std::string>()};
}
}  // namespace

json drawn_sizes_to_json(const drawn_size_maxima& m) {
  return {{"d", m.dimension}, {"N", m.examples}, {"depth", m.depth}};
}

drawn_size_maxima drawn_sizes_from_json(const json& j) {
  drawn_size_maxima m{j.at("d").get<int>(), j.at("N").get<int>(), j.at("depth").get<int>()};
  if (m.dimension < 0 || m.examples < 0 || m.depth < 0)
    throw std::runtime_error("negative drawn size in a case block");
  return m;
}

json part_to_json(const run_part& part) {
  json j = {{"applicable", part.applicable}};
  if (part.applicable) j["block"] = block_to_json(part.block);
  j["shrunk"] = part.shrunk ? shrunk_to_json(*part.shrunk) : json(nullptr);
  return j;
}

run_part part_from_json(const json& j) {
  try {
    run_part p;
    p.applicable = j.at("applicable").get<bool>();
    if (p.applicable) p.block = block_from_json(j.at("block"));
    if (!j.at("shrunk").is_null()) p.shrunk = shrunk_from_json(j.at("shrunk"));
    return p;
  } catch (const json::exception& e) {
    throw std::runtime_error(std::string("malformed run part: ") + e.what());
  }
}

run_part merge_parts(const std::vector<run_part>& in_shard_order) {
  if (in_shard_order.empty()) throw std::logic_error("merge_parts: no part");
  run_part acc = in_shard_order.front();
  for (std::size_t k = 1; k < in_shard_order.size(); ++k) {
    const run_part& next = in_shard_order[k];
    if (next.applicable != acc.applicable)
      throw std::runtime_error("a run is applicable in one shard and not in another");
    if (!acc.applicable) continue;
    const bool stopped = acc.block.event_case >= 0;
    append_block(acc.block, next.block);
    if (!stopped) acc.shrunk = next.shrunk;
  }
  return acc;
}

property_result result_of(const run_request& request, const run_part& part) {
  if (!part.applicable) return not_applicable_result(*request.prop, request.cfg);
  return finish_run(request.prop->info, request.cfg, part.block, part.shrunk);
}

// ---- tasks -----------------------------------------------------------------------------------

namespace {

// A block of cases of a request, or the shrinking of its first failing case.
struct task {
  bool shrink = false;
  std::size_t request = 0;
  int begin = 0, end = 0;  // block; for a shrink task, begin is the failing case
};

// Runs one task in this process, at the request's precision.
json run_task(const std::vector<run_request>& requests, const task& t,
              std::function<void(int)> on_case = {}) {
  const run_request& r = requests.at(t.request);
  if (r.cfg.precision_bits > 0) set_mpfr_precision(r.cfg.precision_bits);
  run_config cfg = r.cfg;
  cfg.on_case = std::move(on_case);
  const property_body& body = r.prop->body(cfg.scalar);
  if (t.shrink) return shrunk_to_json(shrink_failing_case(r.prop->info, body, cfg, t.begin));
  return block_to_json(run_case_block(r.prop->info, body, cfg, t.begin, t.end));
}

std::string task_line(const task& t) {
  return fmt::format("{} {} {} {}\n", t.shrink ? 'S' : 'C', t.request, t.begin, t.end);
}

bool write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// Seconds between two "cases done" lines of a worker, and the longest the parent waits for a
// worker's line before it reports the counts it has (so that a phase whose first case is slow
// still prints its first progress line on time): a fifth of the progress interval, at most 0.5 s
// (ICLPROOF_PROGRESS_SECONDS = 0, as in the tests: a line after every case).
double heartbeat_seconds() { return std::min(0.5, default_progress_interval() / 5); }

double monotonic_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The worker's life: read task lines, answer one JSON line each, exit at end of input. While a
// block runs, the worker also writes {"progress": cases done in this block} lines, at most one
// per heartbeat, so that the parent counts cases, not finished blocks (--jobs > 1).
[[noreturn]] void worker_main(const std::vector<run_request>& requests, int in_fd, int out_fd) {
  std::FILE* in = ::fdopen(in_fd, "r");
  char kind = 0;
  std::size_t request = 0;
  int begin = 0, end = 0;
  const double heartbeat = heartbeat_seconds();
  while (in && std::fscanf(in, " %c %zu %d %d", &kind, &request, &begin, &end) == 4) {
    json answer;
    double last_line = monotonic_seconds();
    const auto on_case = [&](int cases_done) {
      const double now = monotonic_seconds();
      if (now - last_line < heartbeat) return;
      last_line = now;
      if (!write_all(out_fd, json{{"progress", cases_done}}.dump() + "\n")) ::_exit(3);
    };
    try {
      answer = {{"ok", run_task(requests, task{kind == 'S', request, begin, end},
                                kind == 'S' ? std::function<void(int)>{} : on_case)}};
    } catch (const std::exception& e) {
      answer = {{"error", e.what()}};
    }
    if (!write_all(out_fd, answer.dump() + "\n")) ::_exit(3);
  }
  ::_exit(0);
}

struct worker {
  pid_t pid = -1;
  int to = -1;    // task lines go here
  int from = -1;  // answers come from here
  std::string buffer;
  std::optional<task> busy;
  int busy_cases_done = 0;  // of the block it runs, from its last {"progress": n} line
};

// Forks `n` workers; kills and reaps them all when it goes out of scope.
class worker_pool {
 public:
  worker_pool(const std::vector<run_request>& requests, int n) {
    // A worker that died must not kill this process through a write to its pipe.
    previous_sigpipe_ = ::signal(SIGPIPE, SIG_IGN);
    std::fflush(nullptr);
    std::cout.flush();
    std::cerr.flush();
    for (int i = 0; i < n; ++i) {
      int down[2], up[2];
      if (::pipe(down) != 0 || ::pipe(up) != 0)
        throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
      const pid_t pid = ::fork();
      if (pid < 0) throw std::runtime_error(std::string("cannot fork: ") + std::strerror(errno));
      if (pid == 0) {
        ::close(down[1]);
        ::close(up[0]);
        for (const worker& w : workers_) {  // the other workers' pipes are not ours
          ::close(w.to);
          ::close(w.from);
        }
        worker_main(requests, down[0], up[1]);
      }
      ::close(down[0]);
      ::close(up[1]);
      worker w;
      w.pid = pid;
      w.to = down[1];
      w.from = up[0];
      workers_.push_back(std::move(w));
    }
  }
  ~worker_pool() {
    for (worker& w : workers_) {
      if (w.to >= 0) ::close(w.to);
      if (w.from >= 0) ::close(w.from);
      if (w.busy) ::kill(w.pid, SIGTERM);  // only when unwinding after an error
    }
    for (worker& w : workers_) {
      int status = 0;
      while (::waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
      }
    }
    ::signal(SIGPIPE, previous_sigpipe_);
  }
  std::vector<worker>& workers() { return workers_; }

 private:
  std::vector<worker> workers_;
  sighandler_t previous_sigpipe_ = SIG_DFL;
};

std::string describe(const std::vector<run_request>& requests, const task& t) {
  const run_request& r = requests.at(t.request);
  return t.shrink ? fmt::format("shrinking case {} of {}", t.begin, r.prop->info.name)
                  : fmt::format("cases [{}, {}) of {}", t.begin, t.end, r.prop->info.name);
}

}  // namespace

std::vector<run_part> run_requests(const std::vector<run_request>& requests, int jobs,
                                   const shard_spec& shard, const run_progress& progress) {
  if (jobs < 1) throw std::invalid_argument("--jobs must be at least 1");
  const std::size_t n = requests.size();
  std::vector<run_part> parts(n);
  // Per request: its shard's blocks in case order, the answers, and the cases done.
  std::vector<std::vector<task>> blocks(n);
  std::vector<std::vector<std::optional<case_block>>> answers(n);
  std::vector<int> done(n, 0), part_cases(n, 0);
  std::deque<task> queue;
  for (std::size_t i = 0; i < n; ++i) {
    const run_request& r = requests[i];
    if (!r.prop->applies_in(r.cfg.scalar)) {
      parts[i].applicable = false;
      continue;
    }
    const auto [b, e] = shard_cases(r.cfg.cases, shard);
    part_cases[i] = e - b;
    // Blocks small enough to share one property among the jobs; their size never changes a
    // result (runner.hpp), only how evenly the work spreads.
    const int size =
        jobs == 1 ? std::max(1, e - b) : std::max(1, (e - b + 2 * jobs - 1) / (2 * jobs));
    if (e == b) blocks[i].push_back(task{false, i, b, e});
    for (int s = b; s < e; s += size) blocks[i].push_back(task{false, i, s, std::min(e, s + size)});
    answers[i].resize(blocks[i].size());
    for (const task& t : blocks[i]) queue.push_back(t);
  }
  // The first failing case known so far per request: later blocks need not run.
  std::vector<int> known_event(n, -1);
  // `notify`: report the count at once (jobs == 1; with workers, `report` below adds the cases
  // of the blocks still running, so that the count never goes back).
  const auto finished_block = [&](const task& t, case_block b, bool notify) {
    if (blocks[t.request].empty()) return;  // merged already (an answer after the failure)
    const auto& list = blocks[t.request];
    const std::size_t k = static_cast<std::size_t>(
        std::find_if(list.begin(), list.end(), [&](const task& x) { return x.begin == t.begin; }) -
        list.begin());
    if (b.event_case >= 0 && (known_event[t.request] < 0 || b.event_case < known_event[t.request]))
      known_event[t.request] = b.event_case;
    done[t.request] += b.end - b.begin;
    answers[t.request][k] = std::move(b);
    if (progress && notify)
      progress(t.request, std::min(done[t.request], part_cases[t.request]), part_cases[t.request]);
  };
  // When every block of a request that can matter has answered: merge, and if it stopped at a
  // failure, the shrink task.
  const auto complete = [&](std::size_t i) -> std::optional<task> {
    if (!parts[i].applicable || blocks[i].empty()) return std::nullopt;
    case_block merged;
    bool first = true;
    for (std::size_t k = 0; k < blocks[i].size(); ++k) {
      if (!answers[i][k]) {
        if (!first && merged.event_case >= 0) break;  // after the failure: not needed
        return std::nullopt;
      }
      if (first) {
        merged = *answers[i][k];
        first = false;
      } else {
        append_block(merged, *answers[i][k]);
      }
      if (merged.event_case >= 0) break;
    }
    merged.end = blocks[i].back().end;
    parts[i].block = merged;
    blocks[i].clear();  // done
    if (merged.event_case >= 0 && !merged.gave_up)
      return task{true, i, merged.event_case, merged.event_case + 1};
    return std::nullopt;
  };
  const auto skip = [&](const task& t) {
    return !t.shrink && known_event[t.request] >= 0 && t.begin > known_event[t.request];
  };

  if (jobs == 1) {
    while (!queue.empty()) {
      const task t = queue.front();
      queue.pop_front();
      if (skip(t)) continue;
      if (t.shrink) {
        parts[t.request].shrunk = shrunk_from_json(run_task(requests, t));
        continue;
      }
      const int before = done[t.request];
      const auto on_case = [&, before](int d) {
        if (progress) progress(t.request, before + d, part_cases[t.request]);
      };
      finished_block(t, block_from_json(run_task(requests, t, on_case)), true);
      if (auto s = complete(t.request)) queue.push_front(*s);
    }
    return parts;
  }

  worker_pool pool(requests, jobs);
  auto& workers = pool.workers();
  std::size_t outstanding = 0;
  const auto dispatch = [&]() {
    for (worker& w : workers) {
      while (!w.busy && !queue.empty()) {
        const task t = queue.front();
        queue.pop_front();
        if (skip(t)) continue;
        if (!write_all(w.to, task_line(t)))
          throw std::runtime_error("a worker process stopped reading (" + describe(requests, t) +
                                   ")");
        w.busy = t;
        ++outstanding;
      }
    }
  };
  // Cases done of request i: its finished blocks and the cases its running blocks have done.
  // A count is passed on once (a block's answer after its last "cases done" line repeats it);
  // `again`: the same count once more, when it has not been passed on for a progress interval
  // (a slow case: the reporter then prints its line on time, the ETA still unknown).
  const double interval = default_progress_interval();
  std::vector<int> last_count(n, -1);
  std::vector<double> last_time(n, monotonic_seconds());
  const auto report = [&](std::size_t i, bool again) {
    if (!progress) return;
    int running = 0;
    for (const worker& w : workers)
      if (w.busy && !w.busy->shrink && w.busy->request == i) running += w.busy_cases_done;
    const int count = std::min(done[i] + running, part_cases[i]);
    const double now = monotonic_seconds();
    if (count == last_count[i] && !(again && interval > 0 && now - last_time[i] >= interval))
      return;
    last_count[i] = count;
    last_time[i] = now;
    progress(i, count, part_cases[i]);
  };
  const int wait_ms = static_cast<int>(std::lround(heartbeat_seconds() * 1000));
  dispatch();
  while (outstanding > 0) {
    std::vector<pollfd> fds;
    for (const worker& w : workers) fds.push_back({w.from, POLLIN, 0});
    const int ready = ::poll(fds.data(), fds.size(), std::max(wait_ms, 1));
    if (ready < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("poll failed: ") + std::strerror(errno));
    }
    if (ready == 0) {  // no line for a heartbeat: report what is known (throttled by the caller)
      for (const worker& w : workers)
        if (w.busy && !w.busy->shrink) report(w.busy->request, true);
      continue;
    }
    for (std::size_t wi = 0; wi < workers.size(); ++wi) {
      if (!(fds[wi].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      worker& w = workers[wi];
      char buf[65536];
      const ssize_t got = ::read(w.from, buf, sizeof buf);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        throw std::runtime_error(
            "a worker process died" +
            (w.busy ? " while running " + describe(requests, *w.busy) : std::string()));
      }
      w.buffer.append(buf, static_cast<std::size_t>(got));
      std::size_t nl;
      while ((nl = w.buffer.find('\n')) != std::string::npos) {
        const std::string line = w.buffer.substr(0, nl);
        w.buffer.erase(0, nl + 1);
        if (!w.busy) throw std::runtime_error("a worker process answered a task it was not given");
        const json answer = json::parse(line);
        if (answer.contains("progress")) {  // cases done so far in the block it runs
          w.busy_cases_done = answer.at("progress").get<int>();
          report(w.busy->request, false);
          continue;
        }
        const task t = *w.busy;
        w.busy.reset();
        w.busy_cases_done = 0;
        --outstanding;
        if (answer.contains("error"))
          throw std::runtime_error(describe(requests, t) + ": " +
                                   answer["error"].get<std::string>());
        if (t.shrink) {
          parts[t.request].shrunk = shrunk_from_json(answer.at("ok"));
        } else {
          finished_block(t, block_from_json(answer.at("ok")), false);
          report(t.request, false);
          if (auto s = complete(t.request)) queue.push_front(*s);
        }
      }
    }
    dispatch();
  }
  return parts;
}

}  // namespace iclproof
