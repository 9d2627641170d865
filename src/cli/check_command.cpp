// `iclproof check`: set up (check_setup.cpp), run the properties on --jobs processes (or one
// shard of their cases), present the results (check_results.cpp).
#include "cli/check_command.hpp"

#include "cli/check_results.hpp"
#include "cli/check_setup.hpp"
#include "harness/shard_file.hpp"

#include "core/precision.hpp"

#include <fmt/format.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <stdexcept>

namespace iclproof {

nlohmann::json check_parameters_json(const check_options& opt) {
  return {{"property_glob", opt.property_glob},
          {"cases", opt.cases},
          {"precision_bits",
           opt.precision_bits ? nlohmann::json(*opt.precision_bits) : nlohmann::json(nullptr)},
          {"scalar", scalar_kind_name(opt.scalar)},
          {"seed", opt.seed},
          {"proof_audit_path", opt.proof_audit_path},
          {"ci", opt.ci},
          {"certified", opt.certified},
          {"trust_levels_path", opt.trust_levels_path},
          {"size", size_profile_name(opt.size)}};
}

check_options check_options_from_parameters(const nlohmann::json& j) {
  check_options opt;
  try {
    opt.property_glob = j.at("property_glob").get<std::string>();
    opt.cases = j.at("cases").get<int>();
    if (!j.at("precision_bits").is_null()) opt.precision_bits = j.at("precision_bits").get<int>();
    const auto kind = parse_scalar_kind(j.at("scalar").get<std::string>());
    if (!kind) throw std::invalid_argument("unknown scalar " + j.at("scalar").dump());
    opt.scalar = *kind;
    opt.seed = j.at("seed").get<std::uint64_t>();
    opt.proof_audit_path = j.at("proof_audit_path").get<std::string>();
    opt.ci = j.at("ci").get<bool>();
    opt.certified = j.at("certified").get<bool>();
    opt.trust_levels_path = j.at("trust_levels_path").get<std::string>();
    const auto size = parse_size_profile(j.at("size").get<std::string>());
    if (!size) throw std::invalid_argument("unknown size profile " + j.at("size").dump());
    opt.size = *size;
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("shard parameters of a check run: ") + e.what());
  }
  return opt;
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
  const bool tty = ::isatty(::fileno(stderr));
  std::size_t finished = 0;
  std::vector<int> done(requests.size(), 0);
  const run_progress progress = [&](std::size_t i, int cases_done, int total) {
    if (!tty) return;
    if (cases_done >= total && done[i] < total) ++finished;
    done[i] = cases_done;
    std::fprintf(stderr, "\r  [%zu/%zu done] %-58s %d/%d cases", finished, requests.size(),
                 requests[i].prop->info.name.c_str(), cases_done, total);
    std::fflush(stderr);
  };
  const std::vector<run_part> parts = run_requests(requests, opt.jobs, opt.shard, progress);
  if (tty) std::fprintf(stderr, "\r%*s\r", 110, "");
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
