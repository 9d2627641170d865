// The iclproof command line (check, list, report, compare) as a library function: the body of
// `iclproof`'s main, and of any executable that links its own properties next to the built-in
// ones (tests/verdict, examples/external_family).
#include "cli/command_line.hpp"

#include "cli/check_command.hpp"
#include "cli/merge_command.hpp"
#include "cli/output_paths.hpp"
#include "cli/report_command.hpp"
#include "cli/scheduler_shard.hpp"
#include "compare/compare.hpp"
#include "compare/trajectory.hpp"
#include "core/precision.hpp"
#include "harness/progress.hpp"
#include "report/report_model.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>
#include <map>
#include <string>
#include <vector>

namespace iclproof {

int run_command_line(int argc, char** argv) {
  CLI::App app{"iclproof: verification suite for in-context-learning weight constructions"};
  app.require_subcommand(1);
  app.set_version_flag("--version", [] {
    // The versions the report records (report.json "tools"), one per line.
    std::string text;
    for (const auto& [name, version] : collect_tool_versions(proof_audit{}))
      text += (name == "iclproof" ? "iclproof " : name + ": ") + version + "\n";
    text.pop_back();
    return text;
  });

  check_options check;
  std::string scalar_name = "mpfr";
  int precision = 0;
  auto* check_cmd =
      app.add_subcommand("check", "Run properties and print errors, tolerances, margins");
  check_cmd->add_option("--property", check.property_glob, "Glob over property names")
      ->capture_default_str();
  check_cmd->add_option("--cases", check.cases, "Random cases per property")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  auto* prec_opt = check_cmd->add_option(
      "--precision", precision,
      fmt::format("MPFR precision in bits [{}, {}] (default {})", min_precision_bits,
                  max_precision_bits, default_precision_bits));
  auto* scalar_opt =
      check_cmd
          ->add_option("--scalar", scalar_name,
                       "mpfr | double | long-double | rational | interval | ball")
          ->check(CLI::IsMember({"mpfr", "double", "long-double", "rational", "interval", "ball"}))
          ->capture_default_str();
  check_cmd->add_option("--seed", check.seed, "Run seed")->capture_default_str();
  check_cmd->add_option("--json", check.json_path, "Write results as JSON to FILE");
  check_cmd
      ->add_option("--proof-audit", check.proof_audit_path,
                   "audit.json of the Coq build; cited theorems must have checked")
      ->check(CLI::ExistingFile);
  check_cmd->add_flag("--ci", check.ci, "Gate mode: also fail on cited proofs that did not check");
  check_cmd->add_flag("--certified", check.certified,
                      "Run each property in the strongest mode that applies (exact rational, "
                      "interval, else MPFR) and gate on its trust level with --ci");
  check_cmd
      ->add_option("--trust-levels", check.trust_levels_path,
                   "Recorded trust levels (properties/trust_levels.txt); with --ci --certified a "
                   "property whose level falls below its recorded one fails")
      ->check(CLI::ExistingFile);
  check_cmd->add_option("--record-levels", check.record_levels_path,
                        "Write the trust level each property reached to FILE");
  check_cmd
      ->add_option("--jobs", check.jobs,
                   "Worker processes (default: every core); results do not depend on it")
      ->check(CLI::Range(1, 4096))
      ->default_val(default_jobs());
  std::string shard_text;
  std::string size_text = "small";
  check_cmd
      ->add_option("--size", size_text,
                   "small (the CI ranges) | paper (the papers' sizes: d <= 20, N <= 100, depth <= "
                   "16) | large (d <= 64, N <= 512, depth <= 16); per property: iclproof list")
      ->check(CLI::IsMember({"small", "paper", "large"}))
      ->capture_default_str();
  check_cmd->add_flag_callback(
      "--quiet", [] { set_progress_quiet(true); },
      "No progress lines on stderr (a long run prints one every few s)");
  check_cmd->add_option("--shard", shard_text,
                        "k/n: run only the k-th of n blocks of every property's cases; --json "
                        "FILE then holds the shard for `iclproof merge`. auto, auto/n: k (and n) "
                        "from a Slurm array task or a Kubernetes Indexed Job (docs/slurm.md)");

  report_subcommand report_cmd(app);

  compare_options compare;
  std::vector<std::string> compare_weights;
  std::string compare_json;
  auto* compare_cmd = app.add_subcommand(
      "compare", "Compare a trained model's weights file with the constructions");
  compare_cmd
      ->add_option("WEIGHTS", compare_weights,
                   "Weights file(s) written by iclproof-train; several files of one experiment "
                   "(a seed sweep): each verdict, then per metric the passing count and median, "
                   "min, max")
      ->required();
  compare_cmd->add_option("--tasks", compare.tasks, "Fresh validation tasks")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  compare_cmd
      ->add_option("--calibration-tasks", compare.calibration_tasks,
                   "Tasks of the separate sample that fixes the GD reference step eta* where "
                   "it has no closed form (K > 1 steps)")
      ->check(CLI::Range(1, 10000000))
      ->capture_default_str();
  compare_cmd
      ->add_option(
          "--precision", compare.precision_bits,
          fmt::format("MPFR precision in bits [{}, {}]", min_precision_bits, max_precision_bits))
      ->check(CLI::Range(min_precision_bits, max_precision_bits))
      ->capture_default_str();
  compare_cmd->add_option("--seed", compare.seed, "Seed of the fresh tasks")->capture_default_str();
  compare_cmd->add_option("--json", compare_json, "Write the comparison as JSON to FILE");
  compare_cmd->add_flag_callback(
      "--quiet", [] { set_progress_quiet(true); },
      "No progress lines on stderr (a phase longer than a few s prints its tasks done)");
  bool compare_trajectory_flag = false;
  compare_cmd->add_flag("--trajectory", compare_trajectory_flag,
                        "The files are snapshots along training (iclproof-train --trajectory K): "
                        "each compared, by seed and step, with the step from which every gated "
                        "metric passes");

  merge_options merge;
  auto* merge_cmd = app.add_subcommand(
      "merge", "Combine the shard files of one `check --shard` or `report --shard` run");
  merge_cmd->add_option("SHARD", merge.shard_paths, "Shard files (every k of one n, once each)")
      ->required();
  merge_cmd->add_option("--out", merge.out_dir, "Output folder (check.json, or the report)")
      ->required();
  bool merge_no_plots = false;
  merge_cmd->add_flag("--no-plots", merge_no_plots, "Report shards: do not run gnuplot");

  list_options list;
  auto* list_cmd = app.add_subcommand(
      "list", "List properties with their claims, cited theorems, coverage and reachable level");
  list_cmd->add_option("--property", list.glob, "Glob over property names");
  list_cmd->add_flag("--claims-md", list.claims_md,
                     "Print the claims ledger proofs/CLAIMS.md (generated from the citations)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::cerr << "iclproof: error: " << e.what() << "\n";
    return 2;
  }
  try {
    if (*check_cmd) {
      check.scalar = parse_scalar_kind(scalar_name).value();
      if (prec_opt->count() > 0) check.precision_bits = precision;
      if (!shard_text.empty()) check.shard = parse_shard_option(shard_text);
      check.size = parse_size_profile(size_text).value();
      if (check.certified && scalar_opt->count() > 0)
        throw std::invalid_argument(
            "--certified chooses the scalar per property (exact, ball, interval, else MPFR); drop "
            "--scalar");
      return run_check_command(check);
    }
    if (*list_cmd) return run_list_command(list);
    if (*merge_cmd) {
      merge.draw_plots = !merge_no_plots;
      return run_merge_command(merge);
    }
    if (*compare_cmd) {
      if (!compare_json.empty()) require_writable_file(compare_json, "--json");
      if (compare_trajectory_flag)
        return run_compare_trajectory_command(compare_weights, compare, compare_json);
      return compare_weights.size() == 1
                 ? run_compare_command(compare_weights.front(), compare, compare_json)
                 : run_compare_sweep_command(compare_weights, compare, compare_json);
    }
    if (report_cmd.selected()) return report_cmd.run();
  } catch (const std::exception& e) {
    std::cerr << "iclproof: error: " << e.what() << "\n";
    return 2;
  }
  return 2;
}

}  // namespace iclproof
