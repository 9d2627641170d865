// `iclproof report`: runs the properties and writes a report folder (report.json, report.md,
// report.html, plots/). See src/report/report_builder.hpp for what it contains.
#pragma once

#include "report/report_builder.hpp"

#include <CLI/CLI.hpp>

#include <memory>
#include <string>

namespace iclproof {

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
  CLI::App* cmd_;
  CLI::Option* precision_opt_;
  report_options opt_;
  std::string out_dir_;
  std::string scalar_name_ = "mpfr";
  int precision_ = 0;
  std::string sweep_bits_text_ = "64,128,256,512,1024";
  bool no_sweep_ = false;
  bool no_plots_ = false;
};

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
