// Runs properties under RapidCheck (random cases, shrinking on failure, reproducible seeds)
// and summarises them: cases, worst error against its tolerance, margin, verdict.
//
// Case i of a property is drawn from its own seed, case_seed(property seed, i, attempt), and
// size case_size(i, cases): a function of the run seed, the property's name and i only, never
// of which cases ran before it or where. So any block of cases [begin, end) can run anywhere (a
// worker process, a shard on another machine) and merging the blocks in case order gives the
// same result as one run of all cases. A property run stops at its first failing case (the
// cases after it are not counted) and shrinks that case.
#pragma once

#include "core/scalar.hpp"
#include "harness/glob_match.hpp"
#include "harness/property.hpp"
#include "harness/size_profile.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace iclproof {

struct run_config {
  scalar_kind scalar = scalar_kind::mpfr;
  int cases = 100;         // cases per run (the run stops early at its first failing case)
  std::uint64_t seed = 1;  // run seed; each property derives its own from it and its name
  bool shrink = true;
  // MPFR (and interval endpoint) precision the run needs: run_requests
  // (harness/parallel_runner.hpp) sets it explicitly before each block of cases, in whatever
  // process runs the block; run_body and run_property use the precision in force. 0: in force.
  int precision_bits = 0;
  // The size profile the bodies draw under (harness/size_profile.hpp): run_case_block and
  // shrink_failing_case put it in force while they run the body.
  size_profile size = size_profile::small;
  // Called after every case (for progress lines); may be empty.
  std::function<void(int cases_done)> on_case;
};

// not_applicable: the property has no body in the run's scalar kind (e.g. an approximation
// in the exact rational mode); it is neither a pass nor a fail and says why.
enum class verdict { pass, fail, gave_up, not_applicable };
std::string to_string(verdict v);

// One check label of a property run: its comparisons and the worst of them.
struct check_margin_result {
  std::string label;
  long checks = 0;
  double worst_log2_err = 0;
  double worst_log2_bound = 0;
  double margin_log10 = 0;  // log10(tolerance / error) at this check's worst; +inf if exact
};

struct property_result {
  property_info info;
  std::string scalar;
  int precision_bits = 0;
  double log2_eps = 0;
  int cases = 0;
  long checks = 0;
  std::uint64_t seed = 0;  // the property's own RapidCheck seed
  verdict outcome = verdict::fail;
  // The check with the smallest margin: its error and tolerance (log2 of absolute values).
  double worst_log2_err = 0;
  double worst_log2_bound = 0;
  double max_log2_err_in_eps = 0;  // largest error over all checks, in log2 units of eps
  double margin_log10 = 0;         // log10(tolerance / error) at the worst check; +inf if exact
  double seconds = 0;
  std::string failure;         // RapidCheck's description of the minimal failing case
  std::string counterexample;  // the shrunk draws, "type = value" per line (RapidCheck's example)
  std::string reproduce;       // the command line that reruns exactly this property
  bool exact = false;          // the scalar is exact: tolerance 0, equality checked
  int failing_case = -1;       // index of the first failing case, -1 if none
  long discards = 0;           // cases redrawn because a precondition (RC_PRE) failed
  std::string not_applicable_reason;  // verdict::not_applicable: why there is no body
  // What backed the bounds (case_context::proved_bounds / hand_derived_bounds), and in interval
  // mode the identity and enclosed-bound checks made and the widest enclosure (log2, in eps).
  std::vector<std::string> proved_bounds, hand_derived_bounds;
  long identity_checks = 0;
  long enclosed_checks = 0;
  double max_log2_width_in_eps = 0;
  // Every check label with its worst comparison, in label order (the cases run, not shrinking):
  // what the sharpness gate judges check by check.
  std::vector<check_margin_result> check_margins;
  // The largest d, N and depth drawn by the cases run (not shrinking): the sizes at which this
  // verdict and its trust level were reached.
  drawn_size_maxima drawn;
};

// The seed a property runs with, from the run seed and its name (adding a property elsewhere
// does not change the cases of the others).
std::uint64_t property_seed(std::uint64_t run_seed, const std::string& name);

// The seed of attempt `attempt` (0, then 1, ... after discards) of case `case_index`.
std::uint64_t case_seed(std::uint64_t property_seed, int case_index, int attempt);
// RapidCheck's size schedule (sizes 0..100 spread evenly over the run's `cases` cases).
int case_size(int case_index, int cases);

// Cases [begin, end) of one property run, stopped at the first failing case: what a block of
// cases sends back to be merged (append_block) with the blocks before and after it.
struct case_block {
  int begin = 0, end = 0;  // the cases asked for
  int passed = 0;          // cases that passed, from begin on
  long discards = 0;
  check_stats stats;              // the checks of the cases run (not of shrinking)
  int event_case = -1;            // the first failing (or undrawable) case, -1 if none
  bool gave_up = false;           // event_case could not be drawn (too many discards in a row)
  std::string event_description;  // RapidCheck's description of that case, before shrinking
  int precision_bits = 0;         // bits the scalar carried where the block ran (0: exact)
  drawn_size_maxima drawn;        // the largest sizes the block's cases drew
  double seconds = 0;
};
// The minimal failing case found by shrinking the first failing case.
struct shrunk_case {
  std::string description;
  std::string counterexample;  // "type = value" per line (RapidCheck's example)
};

case_block run_case_block(const property_info& info, const property_body& body,
                          const run_config& cfg, int begin, int end);
// Appends `next` (which must start where `acc` ends) unless `acc` already stopped at an event.
void append_block(case_block& acc, const case_block& next);
shrunk_case shrink_failing_case(const property_info& info, const property_body& body,
                                const run_config& cfg, int case_index);
// The result of a run from its merged blocks (and the shrunk failing case, if it was shrunk).
property_result finish_run(const property_info& info, const run_config& cfg,
                           const case_block& merged, const std::optional<shrunk_case>& shrunk);
// The result of a property that has no body in cfg.scalar.
property_result not_applicable_result(const property& p, const run_config& cfg);

property_result run_property(const property& p, const run_config& cfg);

// Runs any body as if it were a property (mutation tests feed broken constructions here).
property_result run_body(const property_info& info, const property_body& body,
                         const run_config& cfg);

// Properties whose names match a glob (`*` and `?`); throws std::invalid_argument with a
// one-line message if none matches.
std::vector<const property*> select_properties(const std::string& glob);

}  // namespace iclproof
