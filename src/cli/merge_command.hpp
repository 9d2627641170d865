// `iclproof merge SHARD.json... --out DIR`: the shards of one `check` or `report` run combined
// into the result that run would have given in one piece (harness/shard_file.hpp).
//   check shards  -> DIR/check.json (as `check --json`), the table and summary on stdout
//   report shards -> DIR/report.json, report.md, report.html, timings.json, plots/ (as `report`;
//                    the findings' measurements, plot sources and --weights comparisons, which
//                    are not split into cases, run here once)
#pragma once

#include <string>
#include <vector>

namespace iclproof {

struct merge_options {
  std::vector<std::string> shard_paths;
  std::string out_dir;
  bool draw_plots = true;  // report shards: false as `report --no-plots`
};

// Exit code as the merged command's (0 all passed, 1 otherwise). Bad input (an unreadable,
// damaged, missing, duplicated or foreign shard) throws with a one-line message before any work.
int run_merge_command(const merge_options& opt);

}  // namespace iclproof
