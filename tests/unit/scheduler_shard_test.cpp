// `--shard auto` / `--shard auto/N` (cli/scheduler_shard.hpp): the shard of a Slurm array task or
// a Kubernetes Indexed Job pod, read from the variables those schedulers set (the values below
// are the ones Slurm 22.05 set in a live array, docs/slurm.md), with one clear refusal for
// missing, inconsistent or gapped ranges; the shard file records the task and merge ignores it.
#include "cli/scheduler_shard.hpp"
#include "harness/shard_file.hpp"

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>

using namespace iclproof;

namespace {

// The variables Slurm sets in task ID of `sbatch --array=MIN-MAX` (array job 41).
environment_variables slurm_task(long id, long min, long max) {
  return {{"SLURM_ARRAY_JOB_ID", "41"},
          {"SLURM_JOB_ID", std::to_string(41 + id)},
          {"SLURM_ARRAY_TASK_ID", std::to_string(id)},
          {"SLURM_ARRAY_TASK_MIN", std::to_string(min)},
          {"SLURM_ARRAY_TASK_MAX", std::to_string(max)},
          {"SLURM_ARRAY_TASK_COUNT", std::to_string(max - min + 1)},
          {"SLURM_ARRAY_TASK_STEP", "1"}};
}

// Requires shard_from_scheduler(text, env) to refuse with a message containing SAYS.
void refused(const std::string& text, const environment_variables& env, const std::string& says) {
  try {
    const shard_spec s = shard_from_scheduler(text, env);
    FAIL("accepted as shard " << s.index << "/" << s.count << " (expected: " << says << ")");
  } catch (const std::invalid_argument& e) {
    INFO(e.what());
    CHECK(std::string(e.what()).find(says) != std::string::npos);
    CHECK(std::string(e.what()).find('\n') == std::string::npos);
  }
}

}  // namespace

TEST_CASE("scheduler shard: --shard auto numbers a contiguous Slurm array from its first task",
          "[scheduler]") {
  for (const long min : {0L, 1L, 7L})
    for (long id = min; id < min + 4; ++id) {
      const shard_spec s = shard_from_scheduler("auto", slurm_task(id, min, min + 3));
      CHECK(s.index == id - min + 1);
      CHECK(s.count == 4);
      CHECK(s.task.scheduler == "slurm");
      CHECK(s.task.job_id == "41");
      CHECK(s.task.task_id == std::to_string(id));
    }
  // COUNT alone or MAX alone gives the count too (older Slurm sets no COUNT).
  auto no_count = slurm_task(2, 1, 4);
  no_count.erase("SLURM_ARRAY_TASK_COUNT");
  CHECK(shard_from_scheduler("auto", no_count).count == 4);
  auto no_max = slurm_task(2, 1, 4);
  no_max.erase("SLURM_ARRAY_TASK_MAX");
  CHECK(shard_from_scheduler("auto", no_max).count == 4);
}

TEST_CASE("scheduler shard: --shard auto refuses gaps, one-task arrays and missing variables",
          "[scheduler]") {
  // sbatch --array=0,2,5: Slurm sets COUNT=3, MIN=0, MAX=5 (seen in a live array).
  auto listed = slurm_task(2, 0, 5);
  listed["SLURM_ARRAY_TASK_COUNT"] = "3";
  refused("auto", listed, "have gaps (e.g. --array=0,2,5)");
  // sbatch --array=0-6:2: COUNT=4, MIN=0, MAX=6, STEP=2.
  auto stepped = slurm_task(2, 0, 6);
  stepped["SLURM_ARRAY_TASK_COUNT"] = "4";
  stepped["SLURM_ARRAY_TASK_STEP"] = "2";
  refused("auto", stepped, "SLURM_ARRAY_TASK_STEP=2");
  // A re-run of one task (sbatch --array=3) must not become shard 1/1.
  refused("auto", slurm_task(3, 3, 3), "give n: --shard auto/n");
  auto no_min = slurm_task(2, 1, 4);
  no_min.erase("SLURM_ARRAY_TASK_MIN");
  refused("auto", no_min, "SLURM_ARRAY_TASK_MIN is not set");
  auto no_size = slurm_task(2, 1, 4);
  no_size.erase("SLURM_ARRAY_TASK_MAX");
  no_size.erase("SLURM_ARRAY_TASK_COUNT");
  refused("auto", no_size, "neither SLURM_ARRAY_TASK_COUNT nor SLURM_ARRAY_TASK_MAX");
  refused("auto", slurm_task(9, 1, 4), "outside");
  auto inverted = slurm_task(2, 1, 4);
  inverted["SLURM_ARRAY_TASK_MIN"] = "5";
  refused("auto", inverted, "above");
  auto garbled = slurm_task(2, 1, 4);
  garbled["SLURM_ARRAY_TASK_ID"] = "2x";
  refused("auto", garbled, "SLURM_ARRAY_TASK_ID='2x' is not a whole number");
  garbled["SLURM_ARRAY_TASK_ID"] = "-1";
  refused("auto", garbled, "is not a whole number");
  refused("auto", {}, "not a scheduler's array task");
  refused("auto", {{"SLURM_JOB_ID", "12"}}, "Slurm job 12 is not an array task");
  auto both = slurm_task(2, 1, 4);
  both["JOB_COMPLETION_INDEX"] = "1";
  refused("auto/4", both, "both SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX");
}

TEST_CASE("scheduler shard: --shard auto/N takes Slurm task ids as shard numbers (re-runs)",
          "[scheduler]") {
  const shard_spec s = shard_from_scheduler("auto/4", slurm_task(2, 1, 4));
  CHECK(s.index == 2);
  CHECK(s.count == 4);
  // Re-running shard 3 alone (sbatch --array=3), or the missing 2 and 4 (--array=2,4).
  CHECK(shard_from_scheduler("auto/4", slurm_task(3, 3, 3)).index == 3);
  auto subset = slurm_task(4, 2, 4);
  subset["SLURM_ARRAY_TASK_COUNT"] = "2";
  CHECK(shard_from_scheduler("auto/4", subset).index == 4);
  refused("auto/4", slurm_task(0, 0, 3), "SLURM_ARRAY_TASK_ID=0: with --shard auto/4");
  refused("auto/4", slurm_task(1, 0, 3), "SLURM_ARRAY_TASK_MIN=0");
  refused("auto/4", slurm_task(2, 1, 8), "SLURM_ARRAY_TASK_MAX=8");
  refused("auto/0", slurm_task(1, 1, 4), "N is not a whole number in [1, 100000]");
  refused("auto/x", slurm_task(1, 1, 4), "N is not a whole number");
  refused("auto/", slurm_task(1, 1, 4), "N is not a whole number");
  refused("auto/100001", slurm_task(1, 1, 4), "N is not a whole number");
}

TEST_CASE("scheduler shard: Kubernetes Indexed Jobs need auto/N, index counted from 0",
          "[scheduler]") {
  const environment_variables pod = {{"JOB_COMPLETION_INDEX", "0"}, {"HOSTNAME", "sweep-0-x7k2p"}};
  const shard_spec s = shard_from_scheduler("auto/8", pod);
  CHECK(s.index == 1);
  CHECK(s.count == 8);
  CHECK(s.task.scheduler == "kubernetes");
  CHECK(s.task.job_id == "sweep-0-x7k2p");
  CHECK(s.task.task_id == "0");
  CHECK(shard_from_scheduler("auto/8", {{"JOB_COMPLETION_INDEX", "7"}}).index == 8);
  refused("auto/8", {{"JOB_COMPLETION_INDEX", "8"}}, "not below the 8 completions");
  refused("auto", pod, "use --shard auto/N");
}

TEST_CASE("scheduler shard: k/n is still parsed as before, auto only by its spelling",
          "[scheduler]") {
  CHECK(parse_shard_option("2/8").index == 2);
  CHECK(parse_shard_option("2/8").task.scheduler.empty());
  CHECK_THROWS_AS(parse_shard_option("automatic"), std::invalid_argument);
  CHECK(names_scheduler_shard("auto"));
  CHECK(names_scheduler_shard("auto/3"));
  CHECK_FALSE(names_scheduler_shard("autox"));
}

TEST_CASE("scheduler shard: the shard file records the task, and merge does not compare it",
          "[scheduler]") {
  const auto dir = std::filesystem::temp_directory_path() /
                   fmt::format("iclproof-scheduler-shard-{}", std::random_device{}());
  std::filesystem::create_directories(dir);
  const std::vector<run_request> requests = {{nullptr, run_config{}, "p mpfr"}};
  const std::vector<run_part> parts = {run_part{}};
  std::vector<shard_file> read;
  for (int k = 1; k <= 2; ++k) {
    shard_spec s = shard_from_scheduler("auto/2", slurm_task(k, 1, 2));
    s.task.job_id = std::to_string(40 + k);  // as if shard 2 was re-run in another array job
    const std::string path = (dir / fmt::format("shard{}.json", k)).string();
    write_shard_file(path, "check", s, {{"seed", 1}}, requests, parts);
    read.push_back(read_shard_file(path));
    CHECK(read.back().shard.task.scheduler == "slurm");
    CHECK(read.back().shard.task.job_id == std::to_string(40 + k));
    CHECK(read.back().shard.task.task_id == std::to_string(k));
  }
  const std::vector<shard_file> ordered = order_shard_set(read);
  CHECK(ordered.size() == 2);
  std::filesystem::remove_all(dir);
}

// merge compares the merged case count with the run's (harness/shard_file.hpp): a merged run
// short of its last cases, or not starting at case 0, is refused whatever order_shard_set let
// through; a run not applicable in this scalar has no cases to count.
TEST_CASE("shard merge: the merged case count is the run's") {
  run_request req;
  req.cfg.cases = 10;
  req.id = "p/double";
  run_part whole;
  whole.block.begin = 0;
  whole.block.end = 10;
  CHECK_NOTHROW(require_whole_runs({whole}, {req}));
  run_part short_of_last = whole;
  short_of_last.block.end = 7;
  try {
    require_whole_runs({short_of_last}, {req});
    FAIL("a run short of its last shard's cases was accepted");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()) ==
          "the merged shards hold cases [0, 7) of run 'p/double', which has 10 cases: a shard "
          "is missing");
  }
  run_part late_start = whole;
  late_start.block.begin = 3;
  CHECK_THROWS_AS(require_whole_runs({late_start}, {req}), std::invalid_argument);
  run_part not_applicable = short_of_last;
  not_applicable.applicable = false;
  CHECK_NOTHROW(require_whole_runs({not_applicable}, {req}));
  CHECK_THROWS_AS(require_whole_runs({whole, whole}, {req}), std::invalid_argument);
}
