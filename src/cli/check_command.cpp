// `iclproof check`: set up (check_setup.cpp), run the properties on --jobs processes (or one
// shard of their cases), present the results (check_results.cpp).
#include "cli/check_command.hpp"

#include "cli/check_results.hpp"
#include "cli/check_setup.hpp"
#include "cli/run_parameters.hpp"
#include "harness/shard_file.hpp"

#include "core/precision.hpp"
#include "harness/progress.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <stdexcept>

namespace iclproof {

namespace {
const run_parameters<check_options>& check_parameter_list() {
  static const run_parameters<check_options> list =
      run_parameters<check_options>()
          .add("property_glob", &check_options::property_glob)
          .add("cases", &check_options::cases)
          .add("precision_bits", &check_options::precision_bits)
          .add("scalar", &check_options::scalar)
          .add("seed", &check_options::seed)
          .add("proof_audit_path", &check_options::proof_audit_path)
          .add("ci", &check_options::ci)
          .add("certified", &check_options::certified)
          .add("trust_levels_path", &check_options::trust_levels_path)
          .add("size", &check_options::size);
  return list;
}
}  // namespace

nlohmann::json check_parameters_json(const check_options& opt) {
  return check_parameter_list().to_json(opt);
}

check_options check_options_from_parameters(const nlohmann::json& j) {
  return check_parameter_list().from_json(j, "a check run");
}

int run_check_command(const check_options& opt) {
  const check_setup setup = prepare_check(opt);
  if (!opt.shard.whole() && opt.json_path.empty())
    throw std::invalid_argument("--shard needs --json FILE (the shard's results, for merge)");
  if (!opt.shard.whole() && !opt.record_levels_path.empty())
    throw std::invalid_argument(
        "--record-levels records a whole run's levels: not with --shard (a shard's part is not "
        "the run)");
  const std::vector<run_request> requests = check_run_requests(opt, setup);
  print_check_header(opt, setup);
  progress_reporter reporter("iclproof check");  // stderr, throttled; --quiet silences it
  const run_progress progress = [&](std::size_t i, int cases_done, int total) {
    reporter.update(i, requests.size(), requests[i].prop->info.name, cases_done, total);
  };
  const std::vector<run_part> parts = run_requests(requests, opt.jobs, opt.shard, progress);
  if (!opt.shard.whole())
    write_shard_file(opt.json_path, "check", opt.shard, check_parameters_json(opt), requests,
                     parts);
  std::vector<property_result> results;
  for (std::size_t i = 0; i < requests.size(); ++i)
    results.push_back(result_of(requests[i], parts[i]));
  check_options shown = opt;
  if (!opt.shard.whole()) shown.json_path.clear();  // the shard file is written above
  return present_check_results(shown, setup, results, false);
}

}  // namespace iclproof
