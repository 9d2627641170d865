// The statistics of a property run's checks: the margin of one comparison, the worst comparison
// of each check label, and the summary of some cases as a value (what a block of cases run
// elsewhere sends back, harness/parallel_runner.hpp).
#pragma once

#include <limits>
#include <map>
#include <set>
#include <string>

namespace iclproof {

// log2(bound / err) of one check, from log2|err| and log2|bound|. An error of exactly zero meets
// every tolerance, including a zero one, so its margin is +inf ("exact") rather than the NaN that
// -inf - (-inf) would give; NaN only when err or bound is NaN (such a check fails anyway).
double log2_margin(double log2_err, double log2_bound);

// The worst (smallest-margin) comparison among the checks of one label: the label names a check
// of a property ("W_sherman_morrison vs W_ridge", "layer 2 (...): local error ..."), and every
// case makes it again. The sharpness gate judges each label against its own limit
// (harness/sharpness.hpp), since a property's worst check says nothing of its other checks.
struct check_margin {
  long checks = 0;
  double worst_log2_err = -std::numeric_limits<double>::infinity();
  double worst_log2_bound = -std::numeric_limits<double>::infinity();
};
// Makes (log2_err, log2_bound) the worst of `m` if its margin is smaller (the rule of
// case_context's worst check: a NaN margin is worst and stays worst), and counts the check.
void keep_worst(check_margin& m, double log2_err, double log2_bound);

// The summary of the checks of some cases, as a value: what a block of cases run elsewhere (a
// worker process, a shard) sends back. Merging blocks in case order with case_context::absorb
// gives exactly what running all their cases in one context would have given.
struct check_stats {
  int cases = 0;
  long checks = 0;
  bool failed = false;
  bool have_worst = false;
  double worst_log2_err = -std::numeric_limits<double>::infinity();
  double worst_log2_bound = -std::numeric_limits<double>::infinity();
  double max_err_in_eps = -std::numeric_limits<double>::infinity();
  double log2_eps = 0;
  bool have_log2_eps = false;  // some check recorded eps
  std::set<std::string> proved_bounds, hand_derived_bounds;
  long identity_checks = 0;
  long enclosed_checks = 0;
  double max_width_in_eps = -std::numeric_limits<double>::infinity();
  // The worst comparison of each check label (check_le, compare and their proved, hand-derived
  // and interval forms; `require` has no tolerance and is not listed).
  std::map<std::string, check_margin> by_check;
};

}  // namespace iclproof
