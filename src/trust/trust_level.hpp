// Trust levels (shared/TRUST.md): the one place that decides what backs a verdict. Every output
// that shows a verdict (check terminal/JSON, report JSON/MD/HTML, list, CLAIMS.md) takes its level
// from here, so "proved" can only appear where this logic grants it.
//
// Levels, strongest first:
//   proved + exact                       Qed theorems state the whole claim, the same run's proof
//                                        audit checked them, the check ran in exact rational
//                                        arithmetic and every error was exactly 0;
//   proved + enclosed                    the same, but the check ran in interval arithmetic and
//                                        every bound it used was evaluated from a Qed statement;
//   enclosed under a hand-derived bound  an exact or interval check passed, but part of the claim
//                                        or of the bound is not proved (or no audit in the run);
//   tolerance under a rounding model     floating point against a rounding-error model;
//   measured                             an empirical quantity (fitted slope, trained distance).
// A level is the property's weakest step; "partially proved" is not a level.
#pragma once

#include "harness/claim_coverage.hpp"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace iclproof {

// Ordered weakest to strongest, so `<` means weaker.
enum class trust_level {
  measured = 0,
  tolerance_rounding_model = 1,
  enclosed_hand_derived = 2,
  proved_enclosed = 3,
  proved_exact = 4,
};
std::string_view to_string(trust_level l);  // the TRUST.md names ("proved + exact", ...)
// Inverse of to_string; nullopt for anything else.
std::optional<trust_level> parse_trust_level(std::string_view text);
// True for the two levels that say "proved".
inline bool is_proved(trust_level l) {
  return l == trust_level::proved_exact || l == trust_level::proved_enclosed;
}

// How a property's checks were computed in one run.
//   exact_rational  every value exact (GMP rationals); tolerance 0
//   interval        every value an outward-rounded enclosure (MPFI)
//   floating_point  MPFR, double or long double against a rounding-model tolerance
enum class check_mode { exact_rational, interval, floating_point };
std::string_view to_string(check_mode m);

// What one run of one property established.
struct run_evidence {
  check_mode mode = check_mode::floating_point;
  bool passed = false;
  // exact_rational: every recorded error was exactly 0 (and at least one check ran).
  bool all_errors_zero = false;
  // interval: every bound the checks used was evaluated from a Qed statement (no hand-derived
  // bound). Identities (enclosure of the difference contains 0) use no bound: true.
  bool all_bounds_qed = false;
  // A proof audit was given in this run and every theorem the property cites checked in it.
  bool audit_passed = false;
  // exact_rational: at least one check compared an error with a nonzero Qed bound exactly
  // (case_context::check_le_proved on the exact scalar). An approximation claim run in exact
  // rationals is certified only by such a check: an identity it follows from is not its bound.
  bool qed_bound_checked = false;
};

struct trust_assessment {
  trust_level level = trust_level::measured;
  // Why the level is not the next one up ("" at proved + exact): e.g. "partially proved: ...",
  // "no proof audit in this run", "ran in floating point".
  std::string limited_by;
};

// One cited theorem and what the audit of this run says about it.
struct citation_status {
  cited_theorem theorem;
  // "closed", "standard-axioms", "failed", "not in audit", "no audit"
  std::string status;
  bool checked = false;  // closed or within the allowed axioms
  std::vector<std::string> assumptions;
};

// The level of one run of a property with this coverage.
trust_assessment assess_run(const claim_coverage& c, const run_evidence& e);

// The strongest level the property can reach, given the modes it can run in, assuming a passing
// audit and, for interval runs and exact runs of approximations, Qed bounds in every check
// (`iclproof list`, CLAIMS.md).
trust_assessment reachable_level(const claim_coverage& c, const std::vector<check_mode>& modes);

// The mode `check --certified` runs a property in: exact rationals for exact identities, interval
// arithmetic for identities and approximations, exact rationals for an approximation with an
// exact body and no interval one, floating point (MPFR) otherwise.
check_mode strongest_mode(const claim_coverage& c, const std::vector<check_mode>& modes);

// ---- recorded levels (properties/trust_levels.txt) -----------------------------------------
// One line per property: "<name> <level>", '#' comments; the level as to_string prints it.
// Throws std::runtime_error with a one-line message (file:line) on a malformed line.
std::map<std::string, trust_level> parse_recorded_levels(std::string_view text,
                                                         const std::string& source_name);
std::string format_recorded_levels(const std::vector<std::pair<std::string, trust_level>>& levels);

// The CI gate: "" if `reached` is at least `recorded`, else the message saying the level fell.
std::string level_regression(const std::string& property, trust_level recorded,
                             trust_level reached);

}  // namespace iclproof
