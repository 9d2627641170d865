#include "cli/merge_command.hpp"

#include "cli/check_command.hpp"
#include "cli/check_results.hpp"
#include "cli/check_setup.hpp"
#include "cli/output_paths.hpp"
#include "cli/report_command.hpp"
#include "harness/shard_file.hpp"
#include "report/report_builder.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <stdexcept>

namespace iclproof {

namespace {
// The run ids the shards hold must be the ones these parameters make with this build's
// properties (a shard set written by another property set cannot be merged here).
void require_same_runs(const std::vector<run_request>& requests, const shard_file& first) {
  std::vector<std::string> ids;
  for (const auto& r : requests) ids.push_back(r.id);
  if (ids != first.run_ids)
    throw std::invalid_argument(fmt::format(
        "the shards hold {} property runs that this iclproof does not make from their parameters "
        "({} runs); merge with the build that wrote them",
        first.run_ids.size(), ids.size()));
}
}  // namespace

int run_merge_command(const merge_options& opt) {
  if (opt.shard_paths.empty()) throw std::invalid_argument("merge: no shard file given");
  std::vector<shard_file> files;
  for (const auto& path : opt.shard_paths) files.push_back(read_shard_file(path));
  const std::vector<shard_file> shards = order_shard_set(std::move(files));
  const shard_file& first = shards.front();
  // The merge finishes the runs (and a report's findings and plots) with this build's code.
  if (const nlohmann::json here = build_identity(); here != first.build)
    throw std::invalid_argument(fmt::format(
        "the shards were written by another build (git commit {}, this iclproof: {}); merge "
        "with the build that wrote them",
        first.build.value("git_commit", "?"), here.value("git_commit", "?")));
  require_writable_folder(opt.out_dir, "--out");
  const std::vector<run_part> merged = merge_shard_parts(shards);
  namespace fs = std::filesystem;
  if (first.command == "check") {
    check_options check = check_options_from_parameters(first.parameters);
    check.json_path = (fs::path(opt.out_dir) / "check.json").string();
    const check_setup setup = prepare_check(check);
    const std::vector<run_request> requests = check_run_requests(check, setup);
    require_same_runs(requests, first);
    require_whole_runs(merged, requests);
    std::vector<property_result> results;
    for (std::size_t i = 0; i < requests.size(); ++i)
      results.push_back(result_of(requests[i], merged[i]));
    fmt::print("iclproof merge: {} check shards -> {}\n", shards.size(), check.json_path);
    return present_check_results(check, setup, results);
  }
  report_options report = report_options_from_parameters(first.parameters);
  report.draw_plots = opt.draw_plots;
  const std::vector<run_request> report_requests = report_run_requests(report);
  require_same_runs(report_requests, first);
  require_whole_runs(merged, report_requests);
  run_report r = generate_report(report, {}, &merged);
  // Nothing about the shards goes into report.json: it equals the one-piece run's.
  write_report_folder(r, opt.out_dir);
  fmt::print("iclproof merge: {} report shards -> {}/report.html (also report.md, report.json)\n",
             shards.size(), opt.out_dir);
  for (const auto& n : r.notes) fmt::print(stderr, "iclproof: note: {}\n", n);
  fmt::print("{} passed, {} failed\n", r.passed(), r.failed());
  return r.exit_code();
}

}  // namespace iclproof
