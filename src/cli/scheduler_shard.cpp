#include "cli/scheduler_shard.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <optional>
#include <stdexcept>

namespace iclproof {

namespace {

constexpr int max_shards = 100000;  // as parse_shard

std::invalid_argument refused(const std::string& text, const std::string& why) {
  return std::invalid_argument("--shard " + text + ": " + why);
}

std::optional<std::string> lookup(const environment_variables& env, const std::string& name) {
  const auto it = env.find(name);
  if (it == env.end()) return std::nullopt;
  return it->second;
}

// A scheduler's variable as a whole number in [0, 10^9); nullopt when unset.
std::optional<long> number_variable(const std::string& text, const environment_variables& env,
                                    const std::string& name) {
  const std::optional<std::string> value = lookup(env, name);
  if (!value) return std::nullopt;
  const bool digits = !value->empty() && value->size() <= 9 &&
                      value->find_first_not_of("0123456789") == std::string::npos;
  if (!digits) throw refused(text, fmt::format("{}='{}' is not a whole number", name, *value));
  return std::stol(*value);
}

shard_spec slurm_shard(const std::string& text, std::optional<int> stated_count,
                       const environment_variables& env) {
  // Present: shard_from_scheduler chose Slurm by it.
  const long id = number_variable(text, env, "SLURM_ARRAY_TASK_ID").value();
  const std::optional<long> min = number_variable(text, env, "SLURM_ARRAY_TASK_MIN");
  const std::optional<long> max = number_variable(text, env, "SLURM_ARRAY_TASK_MAX");
  const std::optional<long> count = number_variable(text, env, "SLURM_ARRAY_TASK_COUNT");
  const std::optional<long> step = number_variable(text, env, "SLURM_ARRAY_TASK_STEP");
  if (min && max && *min > *max)
    throw refused(
        text, fmt::format("SLURM_ARRAY_TASK_MIN={} is above SLURM_ARRAY_TASK_MAX={}", *min, *max));
  if ((min && id < *min) || (max && id > *max))
    throw refused(
        text, fmt::format("SLURM_ARRAY_TASK_ID={} is outside SLURM_ARRAY_TASK_MIN={}.."
                          "SLURM_ARRAY_TASK_MAX={}",
                          id, min ? std::to_string(*min) : "?", max ? std::to_string(*max) : "?"));
  shard_spec s;
  s.task = {"slurm", lookup(env, "SLURM_ARRAY_JOB_ID").value_or(""), std::to_string(id)};
  if (stated_count) {
    // auto/N: the task ids are the shard numbers, so any subset of 1..N may run (a re-run).
    const int n = *stated_count;
    const auto not_shard_numbers = [&](const std::string& what) {
      return refused(text, fmt::format("{}: with --shard auto/{} the array's task ids are the "
                                       "shard numbers 1..{} (sbatch --array=1-{})",
                                       what, n, n, n));
    };
    if (id < 1 || id > n) throw not_shard_numbers(fmt::format("SLURM_ARRAY_TASK_ID={}", id));
    if (min && *min < 1) throw not_shard_numbers(fmt::format("SLURM_ARRAY_TASK_MIN={}", *min));
    if (max && *max > n) throw not_shard_numbers(fmt::format("SLURM_ARRAY_TASK_MAX={}", *max));
    if (count && *count > n)
      throw refused(text, fmt::format("SLURM_ARRAY_TASK_COUNT={} tasks for {} shards", *count, n));
    s.index = static_cast<int>(id);
    s.count = n;
    return s;
  }
  // auto: the array itself is the whole set of shards, one contiguous range.
  if (!min)
    throw refused(text,
                  "SLURM_ARRAY_TASK_MIN is not set (needed to number the shards from the "
                  "array's first task)");
  if (!count && !max)
    throw refused(text,
                  "neither SLURM_ARRAY_TASK_COUNT nor SLURM_ARRAY_TASK_MAX is set (the "
                  "number of shards)");
  if (step && *step != 1)
    throw refused(text, fmt::format("SLURM_ARRAY_TASK_STEP={}: the array's task ids have gaps; "
                                    "shards need one contiguous range (sbatch --array=1-N)",
                                    *step));
  if (count && max && *count != *max - *min + 1)
    throw refused(text, fmt::format("SLURM_ARRAY_TASK_COUNT={} tasks between "
                                    "SLURM_ARRAY_TASK_MIN={} and SLURM_ARRAY_TASK_MAX={}: the "
                                    "array's task ids have gaps (e.g. --array=0,2,5); shards need "
                                    "one contiguous range (sbatch --array=1-N)",
                                    *count, *min, *max));
  const long n = count ? *count : *max - *min + 1;
  if (n == 1)
    throw refused(text, fmt::format("the array has one task (SLURM_ARRAY_TASK_ID={}): to re-run "
                                    "one shard of n, give n: --shard auto/n",
                                    id));
  if (n > max_shards)
    throw refused(text, fmt::format("{} array tasks: at most {} shards", n, max_shards));
  if (id - *min + 1 > n)
    throw refused(text, fmt::format("SLURM_ARRAY_TASK_ID={} is task {} of an array of {}", id,
                                    id - *min + 1, n));
  s.index = static_cast<int>(id - *min + 1);
  s.count = static_cast<int>(n);
  return s;
}

shard_spec kubernetes_shard(const std::string& text, std::optional<int> stated_count,
                            const environment_variables& env) {
  const long index = number_variable(text, env, "JOB_COMPLETION_INDEX").value();
  if (!stated_count)
    throw refused(text, fmt::format("JOB_COMPLETION_INDEX={} gives no shard count (Kubernetes "
                                    "puts none in the environment): use --shard auto/N with N "
                                    "the Job's completions",
                                    index));
  const int n = *stated_count;
  if (index >= n)
    throw refused(text, fmt::format("JOB_COMPLETION_INDEX={} is not below the {} completions of "
                                    "--shard auto/{} (the index counts from 0)",
                                    index, n, n));
  shard_spec s;
  s.index = static_cast<int>(index + 1);
  s.count = n;
  s.task = {"kubernetes", lookup(env, "HOSTNAME").value_or(""), std::to_string(index)};
  return s;
}

}  // namespace

bool names_scheduler_shard(const std::string& text) {
  return text == "auto" || text.rfind("auto/", 0) == 0;
}

shard_spec shard_from_scheduler(const std::string& text, const environment_variables& env) {
  if (!names_scheduler_shard(text)) throw refused(text, "expected auto or auto/N");
  std::optional<int> stated_count;
  if (text != "auto") {
    const std::string n = text.substr(5);
    if (n.empty() || n.size() > 6 || n.find_first_not_of("0123456789") != std::string::npos ||
        std::stoi(n) < 1 || std::stoi(n) > max_shards)
      throw refused(text, fmt::format("N is not a whole number in [1, {}]", max_shards));
    stated_count = std::stoi(n);
  }
  const bool slurm = env.count("SLURM_ARRAY_TASK_ID") > 0;
  const bool kubernetes = env.count("JOB_COMPLETION_INDEX") > 0;
  if (slurm && kubernetes)
    throw refused(text,
                  "both SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX are set: which "
                  "scheduler's task this is cannot be told; give --shard k/n");
  if (slurm) return slurm_shard(text, stated_count, env);
  if (kubernetes) return kubernetes_shard(text, stated_count, env);
  if (env.count("SLURM_JOB_ID"))
    throw refused(text, fmt::format("Slurm job {} is not an array task (SLURM_ARRAY_TASK_ID is "
                                    "not set): submit with sbatch --array=1-N",
                                    env.at("SLURM_JOB_ID")));
  throw refused(text,
                "not a scheduler's array task: neither SLURM_ARRAY_TASK_ID (Slurm job "
                "array) nor JOB_COMPLETION_INDEX (Kubernetes Indexed Job) is set");
}

shard_spec parse_shard_option(const std::string& text) {
  if (!names_scheduler_shard(text)) return parse_shard(text);
  environment_variables env;
  for (const char* name : {"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX",
                           "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_STEP", "SLURM_ARRAY_JOB_ID",
                           "SLURM_JOB_ID", "JOB_COMPLETION_INDEX", "HOSTNAME"})
    if (const char* value = std::getenv(name)) env[name] = value;
  return shard_from_scheduler(text, env);
}

}  // namespace iclproof
