// Runs many property runs at once, on every core and split into shards, with results that do
// not depend on how the work was split.
//
// A run's cases are cut into blocks of consecutive cases (harness/runner.hpp: run_case_block);
// each block draws its cases from seeds that depend on the case index only, and blocks merged in
// case order give exactly the one-block result. So `jobs` and the shard count change where and
// when cases run, never which cases, errors, verdicts or shrunk counterexamples come out.
//
// Parallelism uses worker PROCESSES (fork), not threads: RapidCheck keeps its generation state
// (rc::detail::ImplicitParam, ImplicitParam.h) in process-wide static stacks, and Boost 1.74's
// default mpfr_float precision is one process-wide static (mpfr.hpp: get_default_precision);
// two threads drawing cases would corrupt each other. Each worker is its own process and sets its
// MPFR / interval precision explicitly before every block it runs (run_config::precision_bits).
#pragma once

#include "harness/runner.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace iclproof {

// Which scheduler task ran a shard (`--shard auto`, cli/scheduler_shard.hpp): recorded in the
// shard file for the reader; merge never compares it (re-running one task gives another job id).
struct scheduler_task {
  std::string scheduler;  // "slurm" or "kubernetes"; empty: not started by a scheduler
  std::string job_id;     // Slurm: SLURM_ARRAY_JOB_ID; Kubernetes: the pod name (HOSTNAME)
  std::string task_id;    // Slurm: SLURM_ARRAY_TASK_ID; Kubernetes: JOB_COMPLETION_INDEX
};

// Shard k of n (1-based).
struct shard_spec {
  int index = 1;
  int count = 1;
  scheduler_task task{};  // set by --shard auto only
  bool whole() const { return count == 1; }
};
// Parses "k/n" with 1 <= k <= n <= 100000; throws std::invalid_argument (one line) otherwise.
shard_spec parse_shard(const std::string& text);
// The cases [begin, end) of a run of `cases` cases that shard k of n runs: the k-th of n
// consecutive blocks (sizes differ by at most one; a block may be empty when n > cases).
std::pair<int, int> shard_cases(int cases, const shard_spec& s);

// Number of jobs when none is asked for: every core (std::thread::hardware_concurrency), >= 1.
int default_jobs();

// One property run to make. A request for a scalar the property has no body in yields its
// "not applicable" result (runner.hpp: not_applicable_result) without running anything.
struct run_request {
  const property* prop = nullptr;
  run_config cfg;  // cfg.on_case is not used; cfg.precision_bits is set before its cases run
  std::string id;  // unique among the requests of one run: names the run in shard files
};

// What one shard ran of one request: its blocks merged, and the shrunk first failing case if
// its part holds one.
struct run_part {
  bool applicable = true;
  case_block block;
  std::optional<shrunk_case> shrunk;
};

// Progress: a request's cases done so far (of its shard's part), after each finished block.
using run_progress = std::function<void(std::size_t request, int cases_done, int cases_total)>;

// Runs shard `shard` of every request with `jobs` worker processes (jobs == 1: in this process,
// no fork). Parts come back in request order. Throws std::runtime_error if a worker dies.
std::vector<run_part> run_requests(const std::vector<run_request>& requests, int jobs,
                                   const shard_spec& shard, const run_progress& progress = {});

// The parts of one request from shards 1..n, merged in shard order (case order).
run_part merge_parts(const std::vector<run_part>& in_shard_order);

// The property result of a request from its (merged) part.
property_result result_of(const run_request& request, const run_part& part);

// Exact round trip (doubles as hexadecimal floating-point text): shard files and workers.
nlohmann::json part_to_json(const run_part& part);
// {"d": .., "N": .., "depth": ..} (0: not drawn), as blocks, check.json and report.json carry it.
nlohmann::json drawn_sizes_to_json(const drawn_size_maxima& m);
// Throws (nlohmann's exceptions, a one-line message upstream) if a field is missing or negative.
drawn_size_maxima drawn_sizes_from_json(const nlohmann::json& j);
// Throws std::runtime_error with a one-line message on malformed input.
run_part part_from_json(const nlohmann::json& j);

}  // namespace iclproof
