#include "trust/verdict.hpp"

#include <fmt/format.h>

namespace iclproof {

property_verdict judge_property_run(const property_result& r, const property_trust& trust,
                                    const proof_audit& audit, const gate_policy& policy) {
  property_verdict v;
  v.pass = r.outcome == verdict::pass;
  v.text = to_string(r.outcome);
  if (!v.pass) v.reasons.push_back("numerics: " + to_string(r.outcome));
  // The proofs: in gate mode with an audit, every cited theorem must have checked in it.
  if ((policy.ci || policy.certified) && !audit.path.empty()) {
    for (const auto& c : trust.citations) {
      if (c.checked) continue;
      // outside gate mode (plain --certified) only a cited non-theorem fails
      if (!policy.ci && !is_not_a_theorem_status(c.status)) continue;
      v.reasons.push_back("proof " + c.status + ": " + c.theorem.name);
      if (v.pass) {
        v.pass = false;
        v.text = "FAIL (proof " + c.status + ": " + c.theorem.name + ")";
      }
    }
  }
  // The recorded level: shown in any mode, failing in gate mode.
  if (policy.recorded_levels) {
    if (const auto it = policy.recorded_levels->find(r.info.name);
        it != policy.recorded_levels->end()) {
      v.level_regression = level_regression(r.info.name, it->second, trust.assessment.level);
      if (!v.level_regression.empty()) {
        v.reasons.push_back(v.level_regression);
        if (policy.ci) {
          v.pass = false;
          v.text = "FAIL (level fell)";
        }
      }
    }
  }
  // The sharpness (harness/sharpness.hpp), judged on a run that passed everything above: a
  // tolerance far above every error is vacuous. Every named check is judged against its own
  // limit too: a loosened bound in a check that is not the property's tightest leaves the
  // property's margin unchanged.
  v.sharpness = sharpness_limit_of(r.info.name);
  if (v.pass) {
    v.loose_checks = vacuous_checks(r);
    const bool vacuous_worst = is_vacuous(r, v.sharpness);
    v.vacuous = vacuous_worst || !v.loose_checks.empty();
    if (vacuous_worst)
      v.reasons.push_back(fmt::format(
          "vacuous tolerance: margin {:+.1f} > +{:.1f} ({})", r.margin_log10,
          v.sharpness.log10_factor,
          v.sharpness.reason.empty() ? "the default sharpness limit" : v.sharpness.reason));
    for (const vacuous_check& c : v.loose_checks)
      v.reasons.push_back(fmt::format("vacuous check '{}': margin {:+.1f} > +{:.1f}", c.label,
                                      c.margin_log10, c.limit_log10));
    if (v.vacuous) {
      v.text = vacuous_worst ? fmt::format("VACUOUS (margin > +{:.1f})", v.sharpness.log10_factor)
                             : fmt::format("VACUOUS (a check's margin > +{:.1f})",
                                           v.loose_checks.front().limit_log10);
      if (policy.ci) v.pass = false;
    }
  }
  return v;
}

property_verdict combine_with_certified(property_verdict main, const property_verdict& certified,
                                        const std::string& certified_scalar,
                                        bool certified_numerics_failed) {
  if (certified.pass) return main;
  for (const auto& reason : certified.reasons)
    main.reasons.push_back("certified run in " + certified_scalar + ": " + reason);
  if (!main.pass) return main;  // the main run's own failure stays the headline
  main.pass = false;
  main.text = certified_numerics_failed
                  ? "FAIL (certified run in " + certified_scalar + ")"
                  : "FAIL (certified run in " + certified_scalar + ": " + certified.text + ")";
  return main;
}

nlohmann::json verdict_to_json(const property_verdict& v) {
  return {{"pass", v.pass},
          {"text", v.text},
          {"reasons", v.reasons},
          {"vacuous", v.vacuous},
          {"level_regression", v.level_regression}};
}

std::string verdict_to_text(const property_verdict& v) {
  std::string s = v.text;
  for (const auto& reason : v.reasons) s += "; " + reason;
  return s;
}

}  // namespace iclproof
