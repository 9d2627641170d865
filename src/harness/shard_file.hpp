// Shard files: what `check --shard k/n --json FILE` and `report --shard k/n --out DIR` write
// (DIR/shard.json), and what `iclproof merge` reads back (schema "iclproof-shard/1").
//
// A shard file holds the parameters that decide the run's results, the build that ran it (version,
// git commit, compiler, libraries), and per run (one property at one scalar and precision) the
// merged case blocks of its shard (harness/parallel_runner.hpp: run_part, doubles written exactly),
// with `--shard auto` the scheduler task that ran it (shard_spec::task: recorded, never compared),
// and a checksum over all of it. merge refuses a set of shards that is incomplete, has a
// duplicate, mixes runs (commits, parameters, shard counts), or has a damaged file.
#pragma once

#include "harness/parallel_runner.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace iclproof {

struct shard_file {
  std::string path;
  std::string command;  // "check" or "report"
  shard_spec shard;
  nlohmann::json parameters;
  nlohmann::json build;
  std::vector<std::string> run_ids;
  std::vector<run_part> parts;
};

// The build identity recorded in (and required equal across) shard files.
nlohmann::json build_identity();

// Writes FILE; throws std::runtime_error if it cannot.
void write_shard_file(const std::string& path, const std::string& command, const shard_spec& shard,
                      const nlohmann::json& parameters, const std::vector<run_request>& requests,
                      const std::vector<run_part>& parts);

// Reads and verifies one file (schema, fields, checksum); throws std::runtime_error with a
// one-line message naming the file otherwise.
shard_file read_shard_file(const std::string& path);

// Checks that the files are the shards 1..n of one run, each once (same command, parameters,
// build, runs); returns them in shard order. Throws std::invalid_argument (one line) otherwise.
std::vector<shard_file> order_shard_set(std::vector<shard_file> shards);

// Per run (in the shards' run order), the parts of shards 1..n merged in case order.
std::vector<run_part> merge_shard_parts(const std::vector<shard_file>& ordered);

// Every merged (applicable) run holds exactly the cases its request asks for, [0, cfg.cases):
// the merged case count compared with the run's, whatever order_shard_set let through. Throws
// std::invalid_argument (one line) naming the first run that does not.
void require_whole_runs(const std::vector<run_part>& merged,
                        const std::vector<run_request>& requests);

}  // namespace iclproof
