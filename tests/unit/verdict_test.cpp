// Unit tests of the one judge (src/trust/verdict.hpp): numerics, cited proofs, recorded levels and
// sharpness, in and out of gate mode, and the certified run's part in the report's verdict.
#include "trust/verdict.hpp"
#include "harness/property.hpp"
#include "harness/runner.hpp"
#include "trust/property_trust.hpp"

#include <catch2/catch.hpp>

#include <limits>
#include <map>
#include <string>

using namespace iclproof;

namespace {

// A passing floating-point run of a property with no stated sharpness limit (the default 10^4),
// 100 cases, whose worst check has margin `margin_log10` (decades).
property_result judged_run(double margin_log10) {
  property_result r;
  r.info.name = "verdict_test.not_a_registered_property";
  r.info.coverage = cite::rounding_claim(cite::paper("test"));
  r.scalar = "double";
  r.cases = 100;
  r.checks = 100;
  r.outcome = verdict::pass;
  r.worst_log2_err = -50;
  r.worst_log2_bound = -50 + margin_log10 / 0.30102999566398120;
  r.margin_log10 = margin_log10;
  return r;
}

property_trust trust_with(const std::string& status, bool checked) {
  property_trust t;
  citation_status c;
  c.theorem.file = "proofs/VonOswald.v";
  c.theorem.name = "prop1_lsa_gd_step";
  c.status = status;
  c.checked = checked;
  t.citations.push_back(c);
  t.assessment.level = trust_level::tolerance_rounding_model;
  return t;
}

proof_audit an_audit() {
  proof_audit a;
  a.path = "audit.json";
  return a;
}

}  // namespace

TEST_CASE("verdict: a sharp passing run passes with no reason, in and out of gate mode",
          "[verdict]") {
  for (bool ci : {false, true}) {
    const property_verdict v =
        judge_property_run(judged_run(1.0), trust_with("closed", true), an_audit(), {ci});
    CHECK(v.pass);
    CHECK(v.text == "PASS");
    CHECK(v.reasons.empty());
    CHECK_FALSE(v.vacuous);
  }
}

TEST_CASE("verdict: a vacuous tolerance fails in gate mode only, with its reason", "[verdict]") {
  const property_result r = judged_run(10.0);  // tolerance 10^10 times the error
  const property_verdict shown = judge_property_run(r, trust_with("closed", true), {}, {false});
  CHECK(shown.pass);
  CHECK(shown.vacuous);
  CHECK(shown.text == "VACUOUS (margin > +4.0)");
  REQUIRE(shown.reasons.size() == 1);
  CHECK(shown.reasons[0].find("vacuous tolerance: margin +10.0 > +4.0") == 0);
  const property_verdict gated = judge_property_run(r, trust_with("closed", true), {}, {true});
  CHECK_FALSE(gated.pass);
  CHECK(gated.text == "VACUOUS (margin > +4.0)");
  // Below 100 cases the sharpness gate does not judge.
  property_result few = r;
  few.cases = 99;
  CHECK(judge_property_run(few, trust_with("closed", true), {}, {true}).pass);
}

TEST_CASE("verdict: an unchecked cited proof fails in gate mode with an audit", "[verdict]") {
  const property_result r = judged_run(1.0);
  const property_verdict gated =
      judge_property_run(r, trust_with("failed", false), an_audit(), {true});
  CHECK_FALSE(gated.pass);
  CHECK(gated.text == "FAIL (proof failed: prop1_lsa_gd_step)");
  CHECK(gated.reasons == std::vector<std::string>{"proof failed: prop1_lsa_gd_step"});
  // Without --ci, or without an audit, proofs are not judged.
  CHECK(judge_property_run(r, trust_with("failed", false), an_audit(), {false}).pass);
  CHECK(judge_property_run(r, trust_with("no audit", false), {}, {true}).pass);
}

TEST_CASE("verdict: a fallen level is reported, and fails in gate mode", "[verdict]") {
  const property_result r = judged_run(1.0);
  const std::map<std::string, trust_level> recorded{{r.info.name, trust_level::proved_exact}};
  const property_verdict shown =
      judge_property_run(r, trust_with("closed", true), {}, {false, &recorded});
  CHECK(shown.pass);
  CHECK_FALSE(shown.level_regression.empty());
  const property_verdict gated =
      judge_property_run(r, trust_with("closed", true), {}, {true, &recorded});
  CHECK_FALSE(gated.pass);
  CHECK(gated.text == "FAIL (level fell)");
}

TEST_CASE("verdict: a failed run fails whatever the policy", "[verdict]") {
  property_result r = judged_run(10.0);
  r.outcome = verdict::fail;
  for (bool ci : {false, true}) {
    const property_verdict v = judge_property_run(r, trust_with("closed", true), {}, {ci});
    CHECK_FALSE(v.pass);
    CHECK(v.text == "FAIL");
    CHECK_FALSE(v.vacuous);  // sharpness is judged on passing runs only
  }
}

TEST_CASE("verdict: the report's certified run fails the property, with its reasons", "[verdict]") {
  const property_verdict main =
      judge_property_run(judged_run(1.0), trust_with("closed", true), {}, {true});
  const property_verdict vacuous_certified =
      judge_property_run(judged_run(10.0), trust_with("closed", true), {}, {true});
  const property_verdict v = combine_with_certified(main, vacuous_certified, "mpfr", false);
  CHECK_FALSE(v.pass);
  CHECK(v.text == "FAIL (certified run in mpfr: VACUOUS (margin > +4.0))");
  REQUIRE(v.reasons.size() == 1);
  CHECK(v.reasons[0].find("certified run in mpfr: vacuous tolerance") == 0);
  CHECK(combine_with_certified(main, main, "mpfr", false).pass);
  const nlohmann::json j = verdict_to_json(v);
  CHECK(j["pass"] == false);
  CHECK(j["reasons"].size() == 1);
  CHECK(verdict_to_text(v).find("FAIL (certified run in mpfr") == 0);
}

TEST_CASE("verdict: a cited constant that is not a theorem fails under --certified and the gate",
          "[verdict]") {
  // A Definition : Prop (or a record field) cited as a proof: audit_citations gives it the
  // status "not a theorem (<kind>)", never checked; check --certified fails on it (gate mode or
  // not), naming the constant; an ordinary unchecked proof fails only in gate mode.
  const property_trust def = trust_with("not a theorem (definition)", false);
  gate_policy certified;
  certified.certified = true;
  const property_verdict v = judge_property_run(judged_run(1.0), def, an_audit(), certified);
  CHECK_FALSE(v.pass);
  CHECK(v.text == "FAIL (proof not a theorem (definition): prop1_lsa_gd_step)");
  CHECK(judge_property_run(judged_run(1.0), def, an_audit(), gate_policy{true, nullptr, false})
            .text == "FAIL (proof not a theorem (definition): prop1_lsa_gd_step)");
  CHECK(judge_property_run(judged_run(1.0), def, an_audit(), gate_policy{}).pass);
  CHECK(
      judge_property_run(judged_run(1.0), trust_with("failed", false), an_audit(), certified).pass);
  CHECK(judge_property_run(judged_run(1.0), def, proof_audit{}, certified).pass);  // no audit
  CHECK(is_not_a_theorem_status("not a theorem (projection)"));
  CHECK_FALSE(is_not_a_theorem_status("failed"));
}
