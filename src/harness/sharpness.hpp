// Tolerance sharpness: a tolerance far above every error it is compared with is a check that
// can no longer fail. Each property states the largest factor tolerance / error it may show at
// its worst check (the `margin` column of `iclproof check`, log10(tolerance / error) minimised
// over every check of every case); a PASS whose margin exceeds that limit is reported VACUOUS
// and fails `check --ci`. The limits are judged at >= sharpness_min_cases cases (fewer cases
// give too few checks for the worst one to approach the bound) and per property with a reason
// (sharpness.cpp). Exempt: exact claims (error 0: margin +inf, tolerance 0 in exact modes have no
// sharpness notion) and lower-bound claims, whose margin measures the size of an effect.
#pragma once

#include "harness/runner.hpp"

#include <map>
#include <string>

namespace iclproof {

inline constexpr int sharpness_min_cases = 100;
inline constexpr double default_sharpness_log10 = 4.0;  // tolerance <= 10^4 x worst error

struct sharpness_limit {
  double log10_factor = default_sharpness_log10;
  bool exempt = false;
  std::string reason;
};

// The stated limit of a property (the default 10^4 unless the table in sharpness.cpp says
// otherwise).
sharpness_limit sharpness_limit_of(const std::string& property_name);

// The properties whose limit differs from the default, by name.
const std::map<std::string, sharpness_limit>& stated_sharpness_limits();

// A passing run with >= sharpness_min_cases cases whose worst check's margin exceeds the
// property's stated limit.
bool is_vacuous(const property_result& r, const sharpness_limit& limit);

}  // namespace iclproof
