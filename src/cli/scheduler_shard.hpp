// `--shard auto` and `--shard auto/N`: the shard of this process's task in a scheduler's array
// (check and report; docs/slurm.md).
//
// Slurm job array (`sbatch --array=A-B`), read from SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN,
// SLURM_ARRAY_TASK_MAX, SLURM_ARRAY_TASK_COUNT (and SLURM_ARRAY_TASK_STEP, SLURM_ARRAY_JOB_ID):
//   auto    shard (TASK_ID - MIN + 1) of COUNT. The array must be one contiguous range: Slurm
//           gives `--array=0,2,5` COUNT=3 with MIN=0, MAX=5, which is refused (COUNT != MAX - MIN
//           + 1), as is a step (`--array=0-6:2`). An array of one task is refused too: re-running
//           one task of an n-task array (`sbatch --array=3`) must say n, with auto/N.
//   auto/N  shard TASK_ID of N: the task ids are the shard numbers 1..N (`sbatch --array=1-N`),
//           so any subset of them may run, e.g. `sbatch --array=3` to re-run shard 3 alone.
// Kubernetes Indexed Job, read from JOB_COMPLETION_INDEX (0-based, as Kubernetes numbers it):
//   auto/N  shard (JOB_COMPLETION_INDEX + 1) of N, N the Job's `completions` (Kubernetes puts no
//           count in the environment, so plain `auto` is refused there).
// Missing, non-numeric, out-of-range or mutually inconsistent variables are one
// std::invalid_argument naming the variables and their values (the command line prints it as
// its one error line, exit code 2), before any work.
#pragma once

#include "harness/parallel_runner.hpp"

#include <map>
#include <string>

namespace iclproof {

using environment_variables = std::map<std::string, std::string>;

// True for "auto" and "auto/..." (the spellings shard_from_scheduler handles).
bool names_scheduler_shard(const std::string& text);

// The shard that `--shard TEXT` ("auto" or "auto/N") names in the environment ENV, with the
// scheduler task recorded in shard_spec::task. Throws std::invalid_argument (one line).
shard_spec shard_from_scheduler(const std::string& text, const environment_variables& env);

// --shard's value: "k/n" (parse_shard) or "auto", "auto/N" in this process's environment.
shard_spec parse_shard_option(const std::string& text);

}  // namespace iclproof
