#include "harness/shard_file.hpp"

#include "core/build_identity.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace iclproof {

using nlohmann::json;

namespace {
constexpr const char* shard_schema = "iclproof-shard/1";

// FNV-1a (64 bits) over the payload's compact text: detects a truncated or edited file (it is
// not a defence against someone who means to forge one).
std::string checksum_of(const json& payload) {
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : payload.dump()) h = (h ^ c) * 1099511628211ULL;
  return fmt::format("fnv1a64:{:016x}", h);
}
}  // namespace

json build_identity() {
  // The compiled-in versions only (the external tools on PATH do not change a run's numbers).
  static const std::vector<std::string> keep = {"iclproof", "git_commit", "compiler", "eigen",
                                                "boost",    "mpfr",       "gmp"};
  json b = json::object();
  for (const auto& [name, version] : compiled_in_versions())
    if (std::find(keep.begin(), keep.end(), name) != keep.end()) b[name] = version;
  return b;
}

void write_shard_file(const std::string& path, const std::string& command, const shard_spec& shard,
                      const json& parameters, const std::vector<run_request>& requests,
                      const std::vector<run_part>& parts) {
  json runs = json::array();
  for (std::size_t i = 0; i < requests.size(); ++i)
    runs.push_back({{"id", requests[i].id}, {"part", part_to_json(parts.at(i))}});
  json payload = {{"schema", shard_schema},
                  {"command", command},
                  {"shard", {{"index", shard.index}, {"count", shard.count}}},
                  {"build", build_identity()},
                  {"parameters", parameters},
                  {"runs", runs}};
  // Which scheduler task wrote it (--shard auto): for the reader; order_shard_set ignores it.
  if (!shard.task.scheduler.empty())
    payload["scheduler_task"] = {{"scheduler", shard.task.scheduler},
                                 {"job_id", shard.task.job_id},
                                 {"task_id", shard.task.task_id}};
  json file = {{"checksum", checksum_of(payload)}, {"payload", payload}};
  std::ofstream out(path);
  out << file.dump(1) << "\n";
  out.close();
  if (!out) throw std::runtime_error("cannot write shard file " + path);
}

shard_file read_shard_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read shard file " + path);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw std::runtime_error("cannot read shard file " + path);
  const auto damaged = [&](const std::string& why) {
    return std::runtime_error("damaged shard file " + path + ": " + why);
  };
  json file;
  try {
    file = json::parse(text.str());
  } catch (const json::exception& e) {
    std::string what = e.what();
    throw damaged("not JSON (" + what.substr(0, 120) + ")");
  }
  try {
    if (!file.is_object() || !file.contains("payload") || !file.contains("checksum"))
      throw damaged("no payload and checksum (not a shard file?)");
    const json& payload = file.at("payload");
    if (!payload.is_object() || payload.value("schema", "") != shard_schema)
      throw damaged(std::string("schema is not ") + shard_schema);
    if (file.at("checksum") != checksum_of(payload))
      throw damaged("checksum mismatch (truncated or edited)");
    shard_file s;
    s.path = path;
    s.command = payload.at("command").get<std::string>();
    if (s.command != "check" && s.command != "report") throw damaged("unknown command");
    s.shard.index = payload.at("shard").at("index").get<int>();
    s.shard.count = payload.at("shard").at("count").get<int>();
    if (s.shard.count < 1 || s.shard.index < 1 || s.shard.index > s.shard.count)
      throw damaged(
          fmt::format("shard {}/{} is not k/n with 1 <= k <= n", s.shard.index, s.shard.count));
    if (payload.contains("scheduler_task")) {
      const json& task = payload.at("scheduler_task");
      s.shard.task = {task.at("scheduler").get<std::string>(), task.at("job_id").get<std::string>(),
                      task.at("task_id").get<std::string>()};
    }
    s.parameters = payload.at("parameters");
    s.build = payload.at("build");
    for (const json& run : payload.at("runs")) {
      s.run_ids.push_back(run.at("id").get<std::string>());
      s.parts.push_back(part_from_json(run.at("part")));
    }
    return s;
  } catch (const json::exception& e) {
    throw damaged(std::string("missing or wrong field (") + e.what() + ")");
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    if (what.rfind("damaged shard file", 0) == 0) throw;
    throw damaged(what);
  }
}

std::vector<shard_file> order_shard_set(std::vector<shard_file> shards) {
  if (shards.empty()) throw std::invalid_argument("merge needs at least one shard file");
  const shard_file& first = shards.front();
  const auto differ = [&](const shard_file& s, const std::string& what) {
    return std::invalid_argument(
        fmt::format("{} and {} come from different runs ({} differ)", first.path, s.path, what));
  };
  // shard.task (the scheduler task that wrote a shard) is not compared: a re-run task has
  // another job id, and its shard is the same.
  for (const shard_file& s : shards) {
    if (s.command != first.command) throw differ(s, "commands: check and report");
    if (s.build.value("git_commit", "") != first.build.value("git_commit", ""))
      throw differ(s, "git commits: " + s.build.value("git_commit", "?") + " vs " +
                          first.build.value("git_commit", "?"));
    if (s.build != first.build) throw differ(s, "builds (compiler or library versions)");
    if (s.shard.count != first.shard.count)
      throw differ(s, fmt::format("shard counts: {} vs {}", s.shard.count, first.shard.count));
    if (s.parameters != first.parameters) {
      std::string keys;
      for (const auto& [key, value] : first.parameters.items())
        if (!s.parameters.contains(key) || s.parameters[key] != value)
          keys += (keys.empty() ? "" : ", ") + key;
      throw differ(s, "parameters: " + (keys.empty() ? std::string("extra keys") : keys));
    }
    if (s.run_ids != first.run_ids) throw differ(s, "property runs");
  }
  std::map<int, const shard_file*> by_index;
  for (const shard_file& s : shards) {
    const auto [it, fresh] = by_index.emplace(s.shard.index, &s);
    if (!fresh)
      throw std::invalid_argument(fmt::format("shard {}/{} given twice: {} and {}", s.shard.index,
                                              s.shard.count, it->second->path, s.path));
  }
  std::string missing;
  for (int k = 1; k <= first.shard.count; ++k)
    if (!by_index.count(k)) missing += (missing.empty() ? "" : ", ") + fmt::format("{}", k);
  if (!missing.empty())
    throw std::invalid_argument(
        fmt::format("missing shard(s) {} of {}", missing, first.shard.count));
  std::sort(shards.begin(), shards.end(),
            [](const shard_file& a, const shard_file& b) { return a.shard.index < b.shard.index; });
  return shards;
}

void require_whole_runs(const std::vector<run_part>& merged,
                        const std::vector<run_request>& requests) {
  if (merged.size() != requests.size())
    throw std::invalid_argument(
        fmt::format("the merged shards hold {} runs, the run {}", merged.size(), requests.size()));
  for (std::size_t i = 0; i < merged.size(); ++i) {
    const case_block& b = merged[i].block;
    if (merged[i].applicable && (b.begin != 0 || b.end != requests[i].cfg.cases))
      throw std::invalid_argument(fmt::format(
          "the merged shards hold cases [{}, {}) of run '{}', which has {} cases: a shard is "
          "missing",
          b.begin, b.end, requests[i].id, requests[i].cfg.cases));
  }
}

std::vector<run_part> merge_shard_parts(const std::vector<shard_file>& ordered) {
  std::vector<run_part> merged;
  for (std::size_t i = 0; i < ordered.front().parts.size(); ++i) {
    std::vector<run_part> in_order;
    for (const shard_file& s : ordered) in_order.push_back(s.parts.at(i));
    try {
      merged.push_back(merge_parts(in_order));
    } catch (const std::exception& e) {
      throw std::invalid_argument(
          fmt::format("cannot merge run '{}': {}", ordered.front().run_ids[i], e.what()));
    }
  }
  return merged;
}

}  // namespace iclproof
