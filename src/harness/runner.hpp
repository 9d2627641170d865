// Runs properties under RapidCheck (random cases, shrinking on failure, reproducible seeds)
// and summarises them: cases, worst error against its tolerance, margin, verdict.
#pragma once

#include "core/scalar.hpp"
#include "harness/glob_match.hpp"
#include "harness/property.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace iclproof {

struct run_config {
  scalar_kind scalar = scalar_kind::mpfr;
  int cases = 100;         // RapidCheck maxSuccess
  std::uint64_t seed = 1;  // run seed; each property derives its own from it and its name
  bool shrink = true;
  // Called after every case (for progress lines); may be empty.
  std::function<void(int cases_done)> on_case;
};

// not_applicable: the property has no body in the run's scalar kind (e.g. an approximation
// in the exact rational mode); it is neither a pass nor a fail and says why.
enum class verdict { pass, fail, gave_up, not_applicable };
std::string to_string(verdict v);

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
  std::string failure;                // RapidCheck's description of the minimal failing case
  std::string counterexample;         // the shrunk inputs, "name = value" per line
  std::string reproduce;              // the command line that reruns exactly this property
  bool exact = false;                 // the scalar is exact: tolerance 0, equality checked
  std::string not_applicable_reason;  // verdict::not_applicable: why there is no body
  // What backed the bounds (case_context::proved_bounds / hand_derived_bounds), and in interval
  // mode the identity and enclosed-bound checks made and the widest enclosure (log2, in eps).
  std::vector<std::string> proved_bounds, hand_derived_bounds;
  long identity_checks = 0;
  long enclosed_checks = 0;
  double max_log2_width_in_eps = 0;
};

// The seed a property runs with, from the run seed and its name (adding a property elsewhere
// does not change the cases of the others).
std::uint64_t property_seed(std::uint64_t run_seed, const std::string& name);

property_result run_property(const property& p, const run_config& cfg);

// Runs any body as if it were a property (mutation tests feed broken constructions here).
property_result run_body(const property_info& info, const property_body& body,
                         const run_config& cfg);

// Properties whose names match a glob (`*` and `?`); throws std::invalid_argument with a
// one-line message if none matches.
std::vector<const property*> select_properties(const std::string& glob);

}  // namespace iclproof
