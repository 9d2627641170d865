// `iclproof report`: runs the properties and writes a report folder (report.json, report.md,
// report.html, plots/). See src/report/report_builder.hpp for what it contains.
#pragma once

#include "report/report_builder.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <memory>
#include <string>

namespace iclproof {

class progress_line;

class report_subcommand {
 public:
  // Adds `report` and its options to the application.
  explicit report_subcommand(CLI::App& app);
  bool selected() const { return cmd_->parsed(); }
  // Runs it after parsing; exit code 0 if every property passed the gate and every --weights
  // model passed its gated comparison metrics, 1 if not. Bad input
  // throws (main prints one error line and exits 2).
  int run();

 private:
  int run_shard(const shard_spec& shard, const std::string& dir, progress_line& line);
  CLI::App* cmd_;
  CLI::Option* precision_opt_;
  report_options opt_;
  std::string out_dir_;
  std::string scalar_name_ = "mpfr";
  int precision_ = 0;
  std::string sweep_bits_text_ = "64,128,256,512,1024";
  bool no_sweep_ = false;
  bool no_plots_ = false;
  std::string shard_text_;
  std::string size_text_ = "small";
};

// The parameters of a report run that decide its results (what shards of one run must share,
// and what merge rebuilds the run from); not --out, --jobs, --shard, --no-plots.
nlohmann::json report_parameters_json(const report_options& opt);
report_options report_options_from_parameters(const nlohmann::json& parameters);

// One live line on stderr ("  [3/12] family.name  17/100 cases") while a long run goes on, and
// nothing at all when stderr is not a terminal.
class progress_line {
 public:
  progress_line();
  ~progress_line() { clear(); }
  void show(const std::string& text);
  void clear();
  bool active() const { return tty_; }

 private:
  bool tty_;
  std::size_t shown_ = 0;
};

}  // namespace iclproof
