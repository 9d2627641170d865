// The trust level of one property run, from its coverage (harness/claim_coverage.hpp), the mode it
// ran in, its result, and the proof audit of the same run. `iclproof check`, `iclproof report`,
// `iclproof list` and the claims ledger all call these, so they cannot disagree.
#pragma once

#include "harness/property.hpp"
#include "harness/runner.hpp"
#include "trust/proof_audit.hpp"
#include "trust/trust_level.hpp"

#include <string>
#include <vector>

namespace iclproof {

// The modes a property can run in: exact rational (a rational body), interval (an MPFI or an Arb
// ball body: both are enclosures judged by the interval verdict logic), floating point (a double,
// long double or MPFR body).
std::vector<check_mode> supported_modes(const property& p);

// The scalar `check --certified` (and the report's certified run) runs p in: its strongest mode
// (strongest_mode, which also weighs the claim's kind), falling back to an exact or enclosure
// body when p has no MPFR body (an exact-only property). The interval mode runs on Arb balls
// where p has a ball body, else on MPFI intervals.
scalar_kind certified_scalar(const property& p);

// The mode a finished run used, from its scalar ("rational", "interval", else floating point).
check_mode mode_of_run(const property_result& r);

// Each cited theorem's status in the audit: its verdict, or "not a theorem (<kind>)" when the
// audit's "kind" says the constant is a definition, projection, inductive, ... (a Definition :
// Prop states a claim, it does not prove it; a record field is assumed by its record), which is
// never checked.
std::vector<citation_status> audit_citations(const claim_coverage& c, const proof_audit& audit);
// True for the status audit_citations gives a cited constant that is not a theorem.
bool is_not_a_theorem_status(const std::string& status);

// The statement-file claim of `property` in this audit (harness/statement_ledger.hpp): with an
// audit given, `checked` and the printed statement come from its "statements" (a property whose
// claim it does not list has none); without one, `c` is returned unchanged (the static ledger).
claim_coverage coverage_under_audit(const claim_coverage& c, const std::string& property,
                                    const proof_audit& audit);
// The same on a finished run, in place (check, merge and report call it on every result before
// showing or judging it, so every output shows the audit's coverage).
void apply_statement_audit(property_result& r, const proof_audit& audit);
// An audit was given and every cited theorem checked in it (false when nothing is cited).
bool citations_checked(const std::vector<citation_status>& cs, const proof_audit& audit);

// Every error the run recorded was exactly 0, over at least one check.
bool all_errors_zero(const property_result& r);
// Every bound the run's checks used was evaluated from a Qed statement: no hand-derived bound
// was recorded (case_context::check_le_hand_derived, or a plain check_le on intervals), every
// Qed lemma recorded (check_le_proved, "proofs/File.v:name") checked in this run's audit, and at
// least one identity or enclosed check ran. False without an audit.
bool all_bounds_qed(const property_result& r, const proof_audit& audit);

struct property_trust {
  std::vector<citation_status> citations;
  check_mode mode = check_mode::floating_point;
  trust_assessment assessment;
};
property_trust assess_property_run(const property_result& r, const proof_audit& audit);

}  // namespace iclproof
