// Tolerance sharpness: a tolerance far above every error it is compared with is a check that
// can no longer fail. Each property states the largest factor tolerance / error it may show at
// its worst check (the `margin` column of `iclproof check`, log10(tolerance / error) minimised
// over every check of every case); a PASS whose margin exceeds that limit is reported VACUOUS
// and fails `check --ci`. The limits are judged at >= sharpness_min_cases cases (fewer cases
// give too few checks for the worst one to approach the bound) and per property with a reason
// (sharpness.cpp). Exempt: exact claims (error 0: margin +inf, tolerance 0 in exact modes have no
// sharpness notion) and lower-bound claims, whose margin measures the size of an effect.
// The same limits are applied to every named check of a property (vacuous_checks), not only to
// its worst: `check --ci` fails a property any of whose checks is vacuous.
#pragma once

#include "harness/runner.hpp"

#include <map>
#include <string>
#include <vector>

namespace iclproof {

inline constexpr int sharpness_min_cases = 100;
inline constexpr double default_sharpness_log10 = 4.0;  // tolerance <= 10^4 x worst error
// A named check is judged when the run made it at least this many times: a check of a deep layer
// or late step, made only in the few cases that draw that depth, has too few comparisons for its
// worst to approach the bound (the same reason as sharpness_min_cases for a property).
inline constexpr long sharpness_min_check_comparisons = 10;

struct sharpness_limit {
  double log10_factor = default_sharpness_log10;
  bool exempt = false;
  std::string reason;
  // For the checks of a layer or step l (labels "layer l: ..." or "step l: ..."): the limit
  // grows by this many decades per layer after the first, log10_factor + per_depth (l - 1).
  // sharpness_limit_of_check returns the limit at the label's depth (per_depth then 0).
  double log10_per_depth = 0;
};

// The depth l of a check labelled "layer l: ..." or "step l: ..." (1 for any other label).
int depth_of_check_label(const std::string& label);

// The stated limit of a property (the default 10^4 unless the table in sharpness.cpp says
// otherwise).
sharpness_limit sharpness_limit_of(const std::string& property_name);

// The properties whose limit differs from the default, by name.
const std::map<std::string, sharpness_limit>& stated_sharpness_limits();

// A passing run with >= sharpness_min_cases cases whose worst check's margin exceeds the
// property's stated limit.
bool is_vacuous(const property_result& r, const sharpness_limit& limit);

// The limit of one named check (a label of property_result::check_margins) of a property: the
// property's own limit unless the table of check limits in sharpness.cpp gives that check one
// of its own (a check legitimately looser than the property's tightest, with the reason).
sharpness_limit sharpness_limit_of_check(const std::string& property_name,
                                         const std::string& check_label);

// A check limit of the table: the property, a glob (`*`, `?`) over its check labels, the limit.
struct stated_check_limit {
  std::string property;
  std::string label_glob;
  sharpness_limit limit;
};
const std::vector<stated_check_limit>& stated_check_sharpness_limits();

// A named check whose margin exceeds its limit.
struct vacuous_check {
  std::string label;
  long checks = 0;
  double margin_log10 = 0;
  double limit_log10 = 0;
};
// Every check of a passing run with >= sharpness_min_cases cases whose margin (log10 tolerance
// / error at its worst comparison) exceeds its limit: the gate judges each check, not only the
// property's tightest (a loosened bound in a check that is not the tightest leaves the
// property's margin unchanged). Exact checks (margin +inf), exempt limits and checks made fewer
// than sharpness_min_check_comparisons times are not judged.
std::vector<vacuous_check> vacuous_checks(const property_result& r);

}  // namespace iclproof
