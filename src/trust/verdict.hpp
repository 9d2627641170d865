// The one judge of a property run: PASS or FAIL, with every reason. `iclproof check` (with or
// without --ci, --certified), `iclproof report`, `iclproof merge` and the report's certified runs
// all call judge_property_run; nothing else decides whether a property passed.
//
// The rule, in the order the reasons are listed:
//   1. the numerics: the run's outcome (RapidCheck) must be PASS;
//   2. the proofs (gate mode, an audit given): every theorem the property cites checked; a cited
//      constant that is not a theorem fails in gate mode and under --certified;
//   3. the recorded level (gate mode, recorded levels given): the level reached is not below it;
//   4. the sharpness (harness/sharpness.hpp): a passing run whose worst check, or any named
//      check, has a margin above its stated limit is VACUOUS; in gate mode that fails it.
// Gate mode is `check --ci`; `report` (and so `merge` of report shards) always judges in gate
// mode, so a report fails exactly where `check --ci` on the same run fails.
#pragma once

#include "harness/runner.hpp"
#include "harness/sharpness.hpp"
#include "trust/property_trust.hpp"
#include "trust/trust_level.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace iclproof {

struct gate_policy {
  // Gate mode (`check --ci`, every `report`): an unchecked cited proof, a fallen level and a
  // vacuous tolerance fail the property; outside it they are shown but do not fail it.
  bool ci = false;
  // Recorded levels (properties/trust_levels.txt) a run's level must not fall below; null: none.
  // `check --certified --trust-levels FILE` only.
  const std::map<std::string, trust_level>* recorded_levels = nullptr;
  // `check --certified`: with an audit, a cited constant that is not a theorem (the audit's
  // "kind": a definition, projection, inductive, ...) fails the property, in gate mode or not.
  bool certified = false;
};

struct property_verdict {
  bool pass = false;  // counts as passed under the policy
  // What the verdict column shows: "PASS", "FAIL", "GAVE-UP", "FAIL (proof failed: name)",
  // "FAIL (level fell)", "VACUOUS (margin > +4.0)", "VACUOUS (a check's margin > +4.0)".
  std::string text;
  // Every reason the property did not pass cleanly, in the order of the rule above (empty for
  // a clean PASS). A VACUOUS run outside gate mode has its reason here though it passes.
  std::vector<std::string> reasons;
  bool vacuous = false;
  sharpness_limit sharpness;                // the property's limit (exempt: no sharpness notion)
  std::vector<vacuous_check> loose_checks;  // named checks above their own limits
  std::string level_regression;             // "" unless the level fell below its recorded one
};

// The verdict of one finished run (not a not-applicable one) under `policy`. `trust` is
// assess_property_run(r, audit) for the same run.
property_verdict judge_property_run(const property_result& r, const property_trust& trust,
                                    const proof_audit& audit, const gate_policy& policy);

// The report's verdict of a property: its main run's, then its certified run's (when that ran in
// another scalar), both under `policy`. A certified run that does not pass fails the property:
// "FAIL (certified run in <scalar>)", with the certified run's reasons.
property_verdict combine_with_certified(property_verdict main, const property_verdict& certified,
                                        const std::string& certified_scalar,
                                        bool certified_numerics_failed);

// The one JSON form: {"pass", "text", "reasons", "vacuous", "level_regression"}.
nlohmann::json verdict_to_json(const property_verdict& v);
// The one text form: the verdict, then "; " and each reason ("PASS" when there is none).
std::string verdict_to_text(const property_verdict& v);

}  // namespace iclproof
