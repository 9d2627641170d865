// Unit tests of the trust-level logic (src/trust): claim coverage, the level of a run, the
// recorded-levels gate, and a mutation test showing that the "never say proved unless..." check
// catches an assessment that ignores coverage, the audit, the mode or the verdict.
#include "harness/property.hpp"
#include "harness/runner.hpp"
#include "harness/statement_ledger.hpp"
#include "trust/claims_ledger.hpp"
#include "trust/property_trust.hpp"
#include "trust/trust_level.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <limits>
#include <string>
#include <vector>

using namespace iclproof;
using namespace iclproof::cite;

namespace {

// A coverage whose statement-file claim has a checked check_ (as the static ledger or an audit
// would set it; harness/statement_ledger.hpp).
claim_coverage with_statement(claim_coverage c) {
  c.statement.claim = "claim_t__x";
  c.statement.checked = true;
  c.statement.printed = "claim_t__x = forall n : nat, premises_t__x n -> n = n : Prop";
  c.statement.source = "static ledger";
  return c;
}
claim_coverage full_identity() {
  return with_statement(exact_identity(identity("proofs/VonOswald.v:prop1_lsa_gd_step")));
}
// The theorems state the whole claim, but no statement file ties them to it (issue 37).
claim_coverage theorems_without_statement() {
  return exact_identity(identity("proofs/VonOswald.v:prop1_lsa_gd_step"));
}
claim_coverage partial_identity() {
  return exact_identity(identity("proofs/AhnLemma1.v:ahn_lemma1")).missing("the multi-head sum");
}
claim_coverage full_approximation() {
  return with_statement(
      approximation(bound("proofs/AkyurekBounds.v:gelu_tanh_bypass_exponential")));
}
claim_coverage unproved_approximation() {
  return approximation(paper("Appendix C.4.1")).missing("the whole claim");
}
claim_coverage measured_slope() { return measured(paper("Lemma 4")).missing("a fitted slope"); }
claim_coverage rounding() { return rounding_claim(paper("Higham Thm 10.4")).missing("rounding"); }

std::vector<claim_coverage> all_coverages() {
  return {
      full_identity(),  partial_identity(), full_approximation(),        unproved_approximation(),
      measured_slope(), rounding(),         theorems_without_statement()};
}

// Every run_evidence there is: 3 modes x 2^5 flags.
std::vector<run_evidence> all_evidence() {
  std::vector<run_evidence> out;
  for (check_mode m :
       {check_mode::exact_rational, check_mode::interval, check_mode::floating_point})
    for (int bits = 0; bits < 32; ++bits) {
      run_evidence e;
      e.mode = m;
      e.passed = bits & 1;
      e.all_errors_zero = bits & 2;
      e.all_bounds_qed = bits & 4;
      e.audit_passed = bits & 8;
      e.qed_bound_checked = bits & 16;
      out.push_back(e);
    }
  return out;
}

using assess_fn = std::function<trust_assessment(const claim_coverage&, const run_evidence&)>;

// The rules of shared/TRUST.md that every assessment must respect. Returns the first violation,
// "" if none. Takes the assessment under test as a parameter (the mutation test feeds it broken
// ones).
std::string first_overclaim(const assess_fn& assess) {
  for (const auto& c : all_coverages())
    for (const auto& e : all_evidence()) {
      const trust_level l = assess(c, e).level;
      const std::string where =
          std::string(" [") + std::string(to_string(c.kind)) + ", " + c.coverage_text() +
          ", mode " + std::string(to_string(e.mode)) + ", passed " + std::to_string(e.passed) +
          ", zero " + std::to_string(e.all_errors_zero) + ", qed " +
          std::to_string(e.all_bounds_qed) + ", audit " + std::to_string(e.audit_passed) +
          ", bound compared " + std::to_string(e.qed_bound_checked) + "]";
      if (is_proved(l) && !c.fully_proved()) return "proved for a partial claim" + where;
      if (is_proved(l) && !e.audit_passed) return "proved without a passing audit" + where;
      if (is_proved(l) && !e.passed) return "proved for a failed check" + where;
      if (l == trust_level::proved_exact &&
          (e.mode != check_mode::exact_rational || !e.all_errors_zero))
        return "proved + exact without an exact zero-error run" + where;
      if (is_proved(l) && c.kind == claim_kind::approximation &&
          e.mode == check_mode::exact_rational && !e.qed_bound_checked)
        return "an approximation proved in exact rationals without its Qed bound compared" + where;
      // An exact rational comparison is a point enclosure: an approximation run in exact
      // rationals may be proved + enclosed, but only when its Qed bound was compared.
      const bool exact_bound_run = e.mode == check_mode::exact_rational &&
                                   c.kind == claim_kind::approximation && e.qed_bound_checked;
      if (l == trust_level::proved_enclosed &&
          ((e.mode != check_mode::interval && !exact_bound_run) || !e.all_bounds_qed))
        return "proved + enclosed without an interval run under Qed bounds" + where;
      if (l == trust_level::proved_exact && c.kind == claim_kind::approximation)
        return "an approximation (error not 0) called proved + exact" + where;
      if (l >= trust_level::enclosed_hand_derived && e.mode == check_mode::floating_point)
        return "a floating-point run above the rounding-model level" + where;
      if (c.kind == claim_kind::measured && l != trust_level::measured)
        return "a measured quantity not labelled measured" + where;
    }
  return "";
}

}  // namespace

TEST_CASE("trust levels: names round-trip and order strongest first", "[trust]") {
  for (trust_level l :
       {trust_level::proved_exact, trust_level::proved_enclosed, trust_level::enclosed_hand_derived,
        trust_level::tolerance_rounding_model, trust_level::measured})
    CHECK(parse_trust_level(to_string(l)) == l);
  CHECK(to_string(trust_level::enclosed_hand_derived) == "enclosed under a hand-derived bound");
  CHECK_FALSE(parse_trust_level("proved"));
  CHECK(trust_level::measured < trust_level::tolerance_rounding_model);
  CHECK(trust_level::tolerance_rounding_model < trust_level::enclosed_hand_derived);
  CHECK(trust_level::enclosed_hand_derived < trust_level::proved_enclosed);
  CHECK(trust_level::proved_enclosed < trust_level::proved_exact);
}

TEST_CASE("trust levels: the level of a run", "[trust]") {
  run_evidence e;
  e.mode = check_mode::exact_rational;
  e.passed = e.all_errors_zero = e.audit_passed = true;
  CHECK(assess_run(full_identity(), e).level == trust_level::proved_exact);
  CHECK(assess_run(full_identity(), e).limited_by.empty());

  // Partially proved: never proved; the level of its unproved part, which it names.
  const auto partial = assess_run(with_statement(partial_identity()), e);
  CHECK(partial.level == trust_level::enclosed_hand_derived);
  CHECK(partial.limited_by == "partially proved: the multi-head sum");
  // The theorems cover the claim, no statement-file claim is checked: never proved, and why.
  const auto no_statement = assess_run(theorems_without_statement(), e);
  CHECK(no_statement.level == trust_level::enclosed_hand_derived);
  CHECK(no_statement.limited_by == "partially proved: no statement-file claim checked yet");

  // No audit in the run: nothing is proved.
  e.audit_passed = false;
  CHECK(assess_run(full_identity(), e).level == trust_level::enclosed_hand_derived);
  e.audit_passed = true;

  // A non-zero error in exact arithmetic is not exact (and fails the check anyway).
  e.all_errors_zero = false;
  CHECK(assess_run(full_identity(), e).level == trust_level::enclosed_hand_derived);

  // Interval: proved + enclosed only under Qed bounds.
  e.mode = check_mode::interval;
  e.all_bounds_qed = false;
  CHECK(assess_run(full_approximation(), e).level == trust_level::enclosed_hand_derived);
  e.all_bounds_qed = true;
  CHECK(assess_run(full_approximation(), e).level == trust_level::proved_enclosed);
  CHECK(assess_run(unproved_approximation(), e).level == trust_level::enclosed_hand_derived);

  // An approximation in exact rationals: proved + enclosed (point enclosures) only when its Qed
  // bound was compared exactly; an identity it follows from, with error 0, is not its bound.
  e.mode = check_mode::exact_rational;
  e.all_errors_zero = true;
  e.qed_bound_checked = false;
  CHECK(assess_run(full_approximation(), e).level == trust_level::enclosed_hand_derived);
  e.all_errors_zero = false;
  e.qed_bound_checked = true;
  CHECK(assess_run(full_approximation(), e).level == trust_level::proved_enclosed);
  e.all_bounds_qed = false;
  CHECK(assess_run(full_approximation(), e).level == trust_level::enclosed_hand_derived);
  e.all_bounds_qed = true;
  CHECK(assess_run(unproved_approximation(), e).level == trust_level::enclosed_hand_derived);
  CHECK(strongest_mode(full_approximation(),
                       {check_mode::exact_rational, check_mode::floating_point}) ==
        check_mode::exact_rational);
  CHECK(strongest_mode(full_approximation(), {check_mode::exact_rational, check_mode::interval}) ==
        check_mode::interval);

  // Floating point, rounding and measured claims.
  e.mode = check_mode::floating_point;
  CHECK(assess_run(full_identity(), e).level == trust_level::tolerance_rounding_model);
  CHECK(assess_run(rounding(), e).level == trust_level::tolerance_rounding_model);
  e.mode = check_mode::exact_rational;
  CHECK(assess_run(measured_slope(), e).level == trust_level::measured);
  CHECK(assess_run(rounding(), e).level == trust_level::tolerance_rounding_model);

  // A failed check is never proved.
  e.passed = false;
  e.all_errors_zero = true;
  CHECK_FALSE(is_proved(assess_run(full_identity(), e).level));
}

TEST_CASE("trust levels: no assessment overclaims, over every coverage and run", "[trust]") {
  const std::string bad = first_overclaim(assess_run);
  INFO(bad);
  CHECK(bad.empty());
}

TEST_CASE("mutation: the overclaim check catches broken assessments", "[trust][mutation]") {
  // Each mutant drops one condition of assess_run; the check must name the overclaim.
  const assess_fn ignores_coverage = [](const claim_coverage& c, const run_evidence& e) {
    claim_coverage full = c;
    full.unproved.clear();
    if (full.theorems.empty()) full.theorems.push_back(identity("proofs/X.v:x"));
    if (full.kind == claim_kind::measured || full.kind == claim_kind::rounding)
      full.kind = claim_kind::exact_identity;
    full.statement.checked = true;
    return assess_run(full, e);
  };
  // Drops only the statement-file condition (issue 37): the theorems' coverage is enough.
  const assess_fn ignores_statement = [](const claim_coverage& c, const run_evidence& e) {
    claim_coverage with = c;
    with.statement.checked = true;
    return assess_run(with, e);
  };
  const assess_fn ignores_audit = [](const claim_coverage& c, run_evidence e) {
    e.audit_passed = true;
    return assess_run(c, e);
  };
  const assess_fn ignores_verdict = [](const claim_coverage& c, run_evidence e) {
    e.passed = true;
    return assess_run(c, e);
  };
  const assess_fn ignores_mode = [](const claim_coverage& c, run_evidence e) {
    e.mode = check_mode::exact_rational;
    return assess_run(c, e);
  };
  const assess_fn ignores_qed_bounds = [](const claim_coverage& c, run_evidence e) {
    e.all_bounds_qed = true;
    return assess_run(c, e);
  };
  const assess_fn approximation_as_identity = [](const claim_coverage& c, const run_evidence& e) {
    claim_coverage as_identity = c;
    if (as_identity.kind == claim_kind::approximation)
      as_identity.kind = claim_kind::exact_identity;
    return assess_run(as_identity, e);
  };
  const assess_fn ignores_bound_comparison = [](const claim_coverage& c, run_evidence e) {
    e.qed_bound_checked = true;
    return assess_run(c, e);
  };
  CHECK_THAT(first_overclaim(ignores_coverage), Catch::Contains("partial claim"));
  CHECK_THAT(first_overclaim(ignores_statement), Catch::Contains("partial claim"));
  CHECK_THAT(first_overclaim(ignores_audit), Catch::Contains("without a passing audit"));
  CHECK_THAT(first_overclaim(ignores_verdict), Catch::Contains("failed check"));
  CHECK_FALSE(first_overclaim(ignores_mode).empty());
  CHECK_THAT(first_overclaim(ignores_qed_bounds), Catch::Contains("Qed bounds"));
  CHECK_FALSE(first_overclaim(approximation_as_identity).empty());
  CHECK_THAT(first_overclaim(ignores_bound_comparison), Catch::Contains("Qed bound compared"));
}

TEST_CASE("claim coverage: validation and text", "[trust]") {
  CHECK(validate(full_identity()).empty());
  CHECK(validate(partial_identity()).empty());
  CHECK(full_identity().coverage_text() == "fully proved");
  CHECK(with_statement(partial_identity()).coverage_text() ==
        "partially proved: the multi-head sum");
  CHECK(unproved_approximation().coverage_text() == "not proved: the whole claim");
  // The theorems state the whole claim but no statement-file claim is checked: partial.
  CHECK_FALSE(theorems_without_statement().fully_proved());
  CHECK(theorems_without_statement().theorems_state_whole_claim());
  CHECK(theorems_without_statement().coverage_text() ==
        "partially proved: no statement-file claim checked yet");
  CHECK(theorems_without_statement().coverage_word() == "partially proved");
  claim_coverage partial_no_statement = partial_identity();
  CHECK(partial_no_statement.coverage_text() ==
        "partially proved: the multi-head sum; no statement-file claim checked yet");
  CHECK(with_statement(partial_identity()).coverage_text() ==
        "partially proved: the multi-head sum");
  CHECK_FALSE(validate(approximation(paper("somewhere"))).empty());  // unproved left empty
  CHECK_FALSE(validate(measured(paper("a slope"))).empty());
  // A rounding or measured claim is never proved by its theorems: with a theorem cited and the
  // `unproved` text missing it would read "fully proved" (mutation 90-trust-rounding-claim-
  // without-text survived every test before these two checks).
  CHECK_FALSE(validate(rounding_claim(bound("proofs/A.v:a"))).empty());
  CHECK_FALSE(validate(measured(bound("proofs/A.v:a"), paper("a slope"))).empty());
  CHECK_FALSE(validate(claim_coverage{}).empty());
  CHECK_FALSE(validate(exact_identity(identity("proofs/A.v:a"), bound("proofs/A.v:a"))).empty());
  // Shared citation lists merge: a theorem already cited is not cited twice (two kinds of layer
  // that share component lemmas back one chain), and the order of first citation is kept.
  const std::vector<cited_theorem> first{bound("proofs/A.v:a"), bound("proofs/A.v:b")};
  const std::vector<cited_theorem> second{bound("proofs/A.v:b"), composition("proofs/B.v:c")};
  const claim_coverage merged = approximation(identity("proofs/A.v:a"), first, second);
  CHECK(validate(merged).empty());
  REQUIRE(merged.theorems.size() == 3);
  CHECK(merged.theorems[0].role == citation_role::identity);
  CHECK(merged.theorems[1].text() == "proofs/A.v:b");
  CHECK(merged.theorems[2].text() == "proofs/B.v:c");
  CHECK_THROWS_AS(identity("VonOswald.v:prop1"), std::invalid_argument);
  CHECK_THROWS_AS(identity("proofs/VonOswald.v"), std::invalid_argument);
  CHECK_THROWS_AS(identity("paper: eq. 3"), std::invalid_argument);
}

TEST_CASE("every registered property: valid coverage, and partial ones can never reach proved",
          "[trust]") {
  REQUIRE(!all_properties().empty());
  int fully = 0;
  for (const auto& p : all_properties()) {
    INFO(p.info.name);
    CHECK(validate(p.info.coverage).empty());
    const trust_assessment reach = reachable_level(p.info.coverage, supported_modes(p));
    if (!p.info.coverage.fully_proved()) CHECK_FALSE(is_proved(reach.level));
    fully += p.info.coverage.fully_proved();
  }
  const std::string ledger = claims_ledger_markdown(all_properties());
  CHECK_THAT(ledger, Catch::Contains(std::to_string(fully) + " fully proved of " +
                                     std::to_string(all_properties().size())));
}

TEST_CASE("property runs: without an audit no output level says proved", "[trust]") {
  // A real run of a fully proved property, in floating point, with and without an audit.
  const property* p = select_properties("references.iterated_sherman_morrison_equals_ridge")[0];
  REQUIRE(p->info.coverage.theorems_state_whole_claim());
  run_config cfg;
  cfg.scalar = scalar_kind::double_precision;
  cfg.cases = 2;
  const property_result r = run_property(*p, cfg);
  REQUIRE(r.outcome == verdict::pass);
  const property_trust t = assess_property_run(r, proof_audit{});
  CHECK(t.mode == check_mode::floating_point);
  CHECK(t.assessment.level == trust_level::tolerance_rounding_model);
  REQUIRE(t.citations.size() == 1);
  CHECK(t.citations[0].status == "no audit");

  // A result that claims an exact rational run with zero error: proved + exact needs the audit.
  property_result exact = r;
  exact.scalar = "rational";
  exact.max_log2_err_in_eps = -std::numeric_limits<double>::infinity();
  CHECK(assess_property_run(exact, proof_audit{}).assessment.level ==
        trust_level::enclosed_hand_derived);
  proof_audit audit;
  audit.path = "audit.json";
  audit.theorems.push_back(
      {"ShermanMorrison.v", "iterated_sherman_morrison_ridge", "closed", {}, "theorem"});
  // Without its statement-file claim in the audit: not proved, and the output says why.
  const trust_assessment without = assess_property_run(exact, audit).assessment;
  CHECK(without.level == trust_level::enclosed_hand_derived);
  CHECK(without.limited_by == "partially proved: no statement-file claim checked yet");
  audit.statements.push_back({"references", "references.iterated_sherman_morrison_equals_ridge",
                              "claim_references__iterated_sherman_morrison_equals_ridge",
                              "claim_references__iterated_sherman_morrison_equals_ridge = ...",
                              "checked", "", "closed"});
  CHECK(assess_property_run(exact, audit).assessment.level == trust_level::proved_exact);
  // A check_ of another type, a failed witness, a claim of another name: not proved.
  const std::vector<std::pair<std::string, std::string>> bad_checks{{"wrong type", "closed"},
                                                                    {"missing", "closed"},
                                                                    {"checked", "failed"},
                                                                    {"checked", "missing"}};
  for (const auto& bad : bad_checks) {
    audit.statements[0].check = bad.first;
    audit.statements[0].witness = bad.second;
    INFO(bad.first << " / " << bad.second);
    CHECK(assess_property_run(exact, audit).assessment.level == trust_level::enclosed_hand_derived);
  }
  audit.statements[0].check = "checked";
  audit.statements[0].witness = "closed";
  audit.statements[0].claim = "claim_references__other";
  CHECK(assess_property_run(exact, audit).assessment.level == trust_level::enclosed_hand_derived);
  audit.statements[0].claim = "claim_references__iterated_sherman_morrison_equals_ridge";
  CHECK(assess_property_run(exact, audit).assessment.level == trust_level::proved_exact);
  // A cited constant the audit says is not a theorem (a Definition : Prop, a record field)
  // never checks, whatever its axioms.
  for (const char* kind : {"definition", "projection", "inductive", "unlisted"}) {
    audit.theorems[0].kind = kind;
    const property_trust nt = assess_property_run(exact, audit);
    CHECK(nt.assessment.level == trust_level::enclosed_hand_derived);
    REQUIRE(nt.citations.size() == 1);
    CHECK(nt.citations[0].status == std::string("not a theorem (") + kind + ")");
    CHECK_FALSE(nt.citations[0].checked);
  }
  audit.theorems[0].kind = "theorem";
  CHECK(assess_property_run(exact, audit).assessment.level == trust_level::proved_exact);
  audit.theorems[0].status = "failed";
  CHECK(assess_property_run(exact, audit).assessment.level == trust_level::enclosed_hand_derived);
  // The same exact run of a partially proved property is never proved.
  exact.info.coverage = partial_identity();
  audit.theorems[0] = {"AhnLemma1.v", "ahn_lemma1", "closed", {}, "theorem"};
  CHECK(assess_property_run(exact, audit).assessment.level == trust_level::enclosed_hand_derived);
}

TEST_CASE("interval runs: proved + enclosed only under audited Qed bounds", "[trust]") {
  property_result r;
  r.info.name = "t.interval";
  r.info.coverage = full_approximation();
  r.scalar = "interval";
  r.outcome = verdict::pass;
  r.checks = r.enclosed_checks = 4;
  r.proved_bounds = {"proofs/AkyurekBounds.v:gelu_tanh_bypass_exponential"};
  proof_audit audit;
  CHECK(assess_property_run(r, audit).assessment.level == trust_level::enclosed_hand_derived);
  audit.path = "audit.json";
  audit.theorems.push_back(
      {"proofs/AkyurekBounds.v", "gelu_tanh_bypass_exponential", "standard-axioms", {}, "theorem"});
  // the audit has no statement-file claim for it: not proved
  CHECK(assess_property_run(r, audit).assessment.level == trust_level::enclosed_hand_derived);
  audit.statements.push_back(
      {"t", "t.interval", "claim_t__interval", "(printed)", "checked", "", "standard-axioms"});
  const property_trust t = assess_property_run(r, audit);
  CHECK(t.mode == check_mode::interval);
  CHECK(t.assessment.level == trust_level::proved_enclosed);
  // One hand-derived bound among the checks: not proved, and the output says why.
  r.hand_derived_bounds = {"gamma_n rounding model"};
  const auto hand = assess_property_run(r, audit).assessment;
  CHECK(hand.level == trust_level::enclosed_hand_derived);
  CHECK_THAT(hand.limited_by, Catch::Contains("hand-derived"));
  r.hand_derived_bounds.clear();
  // A Qed lemma the audit did not check is no Qed bound.
  r.proved_bounds.push_back("proofs/AkyurekBounds.v:not_audited");
  CHECK(assess_property_run(r, audit).assessment.level == trust_level::enclosed_hand_derived);
}

TEST_CASE("exact runs of an approximation: proved + enclosed only under a compared Qed bound",
          "[trust]") {
  property_result r;
  r.info.name = "t.exact_bound";
  r.info.coverage = full_approximation();
  r.scalar = "rational";
  r.outcome = verdict::pass;
  r.checks = 4;
  proof_audit audit;
  audit.path = "audit.json";
  audit.theorems.push_back(
      {"proofs/AkyurekBounds.v", "gelu_tanh_bypass_exponential", "closed", {}, "theorem"});
  audit.statements.push_back(
      {"t", "t.exact_bound", "claim_t__exact_bound", "(printed)", "checked", "", "closed"});
  // Identities only (errors 0), no bound compared: not proved.
  r.max_log2_err_in_eps = -std::numeric_limits<double>::infinity();
  CHECK(assess_property_run(r, audit).assessment.level == trust_level::enclosed_hand_derived);
  // The bound compared exactly (check_le_proved on the exact scalar).
  r.enclosed_checks = 2;
  r.proved_bounds = {"proofs/AkyurekBounds.v:gelu_tanh_bypass_exponential"};
  r.max_log2_err_in_eps = std::numeric_limits<double>::infinity();
  const property_trust t = assess_property_run(r, audit);
  CHECK(t.mode == check_mode::exact_rational);
  CHECK(t.assessment.level == trust_level::proved_enclosed);
  CHECK_THAT(t.assessment.limited_by, Catch::Contains("point enclosures"));
  r.proved_bounds.push_back("proofs/AkyurekBounds.v:not_audited");
  CHECK(assess_property_run(r, audit).assessment.level == trust_level::enclosed_hand_derived);
}

TEST_CASE("ridge -> min-norm: certified in rationals under its Qed bound, a real run", "[trust]") {
  // Under --certified the approximation runs on Arb balls (it has had a ball body since issue 41:
  // strongest_mode prefers an enclosure body to an exact one for approximations); its rational
  // branch, run here, is the other certified path. It is
  // fully proved: the rational branch compares LeastSquares.v:ridge_min_norm_ginv_bound2
  // exactly, the floating-point branch checks the rate lambda / mu of
  // SingularValueCertificate.v:ridge_tends_to_min_norm_certified with mu certified per case. So
  // the rational run reaches proved + enclosed, and only with every cited theorem audited.
  const property* p = select_properties("references.ridge_tends_to_min_norm_least_squares")[0];
  REQUIRE(p->info.coverage.kind == claim_kind::approximation);
  REQUIRE(p->info.coverage.theorems_state_whole_claim());
  CHECK(certified_scalar(*p) == scalar_kind::ball);
  run_config cfg;
  cfg.scalar = scalar_kind::rational;
  cfg.cases = 10;
  const property_result r = run_property(*p, cfg);
  REQUIRE(r.outcome == verdict::pass);
  CHECK(r.enclosed_checks == 10);
  CHECK(r.proved_bounds ==
        std::vector<std::string>{"proofs/LeastSquares.v:ridge_min_norm_ginv_bound2"});
  proof_audit audit;
  audit.path = "audit.json";
  for (const auto& t : p->info.coverage.theorems)
    audit.theorems.push_back({t.file, t.name, "closed", {}, "theorem"});
  audit.statements.push_back({"references", p->info.name, statement_claim_name(p->info.name),
                              "(printed)", "checked", "", "closed"});
  CHECK(assess_property_run(r, audit).assessment.level == trust_level::proved_enclosed);
  // The floating-point branch names the certified-rate theorem as its bound.
  cfg.scalar = scalar_kind::double_precision;
  const property_result rd = run_property(*p, cfg);
  REQUIRE(rd.outcome == verdict::pass);
  CHECK(rd.proved_bounds ==
        std::vector<std::string>{
            "proofs/SingularValueCertificate.v:ridge_tends_to_min_norm_certified"});
  audit.theorems.erase(audit.theorems.begin());  // the bound itself not audited
  CHECK(assess_property_run(r, audit).assessment.level == trust_level::enclosed_hand_derived);
}

TEST_CASE("recorded levels: parse, and the gate fails on a lowered level", "[trust]") {
  const auto levels = parse_recorded_levels(
      "# comment\n\na.b proved + exact\nc.d tolerance under a rounding model\n", "t.txt");
  REQUIRE(levels.size() == 2);
  CHECK(levels.at("a.b") == trust_level::proved_exact);
  CHECK_THROWS_WITH(parse_recorded_levels("a.b proved\n", "t.txt"),
                    Catch::Contains("t.txt:1") && Catch::Contains("unknown trust level"));
  CHECK_THROWS_WITH(parse_recorded_levels("a.b measured\na.b measured\n", "t.txt"),
                    Catch::Contains("recorded twice"));
  CHECK_THROWS_WITH(parse_recorded_levels("a.b\n", "t.txt"), Catch::Contains("t.txt:1"));
  CHECK(level_regression("a.b", trust_level::proved_exact, trust_level::proved_exact).empty());
  CHECK(level_regression("a.b", trust_level::enclosed_hand_derived, trust_level::proved_exact)
            .empty());
  CHECK_THAT(level_regression("a.b", trust_level::proved_exact, trust_level::enclosed_hand_derived),
             Catch::Contains("fell from 'proved + exact'"));
  // format -> parse round trip
  const std::vector<std::pair<std::string, trust_level>> v{{"x.y", trust_level::measured},
                                                           {"x.z", trust_level::proved_enclosed}};
  const auto back = parse_recorded_levels(format_recorded_levels(v), "gen");
  CHECK(back.at("x.y") == trust_level::measured);
  CHECK(back.at("x.z") == trust_level::proved_enclosed);
}

TEST_CASE("statement ledger: parse, the naming convention, and the built-in ledger", "[trust]") {
  CHECK(statement_claim_name("vonoswald.prop1_layer") == "claim_vonoswald__prop1_layer");
  const auto l = parse_statement_ledger(
      "# comment\n== a.b claim_a__b\nclaim_a__b =\nforall n : nat, n = n\n     : Prop\n"
      "== a.c claim_a__c\n#|A| = 1 : Prop\n",
      "t.txt");
  REQUIRE(l.size() == 2);
  CHECK(l[0].property == "a.b");
  CHECK(l[0].printed == "claim_a__b =\nforall n : nat, n = n\n     : Prop");
  CHECK(l[1].printed == "#|A| = 1 : Prop");  // '#' inside a block is Coq's text
  CHECK(find_statement_claim(l, "a.c") == &l[1]);
  CHECK(find_statement_claim(l, "a.d") == nullptr);
  CHECK_THROWS_WITH(parse_statement_ledger("== a.b claim_a__c\nx\n", "t.txt"),
                    Catch::Contains("t.txt:1") && Catch::Contains("claim_a__b"));
  CHECK_THROWS_WITH(parse_statement_ledger("== a.b claim_a__b\nx\n== a.b claim_a__b\ny\n", "t"),
                    Catch::Contains("listed twice"));
  CHECK_THROWS_WITH(parse_statement_ledger("== a.b claim_a__b\n", "t"),
                    Catch::Contains("no printed statement"));
  CHECK_THROWS_WITH(parse_statement_ledger("stray\n== a.b claim_a__b\nx\n", "t"),
                    Catch::Contains("before the first"));
  CHECK_THROWS_WITH(parse_statement_ledger("== ab claim_ab\nx\n", "t"),
                    Catch::Contains("not a property id"));
  // The built-in ledger (proofs/statements/printed.txt) parses, names registered properties
  // only, and is what registration gave each property; every other property has no checked
  // claim (and so is not fully proved).
  INFO(builtin_statement_ledger_error());
  CHECK(builtin_statement_ledger_error().empty());
  for (const auto& c : builtin_statement_ledger()) {
    INFO(c.property);
    const property* p = nullptr;
    for (const auto& q : all_properties())
      if (q.info.name == c.property) p = &q;
    REQUIRE(p != nullptr);
    CHECK(p->info.coverage.statement.checked);
    CHECK(p->info.coverage.statement.printed == c.printed);
  }
  for (const auto& p : all_properties()) {
    INFO(p.info.name);
    CHECK(p.info.coverage.statement.claim == statement_claim_name(p.info.name));
    const bool listed = find_statement_claim(builtin_statement_ledger(), p.info.name) != nullptr;
    CHECK(p.info.coverage.statement.checked == listed);
    if (!listed) CHECK_FALSE(p.info.coverage.fully_proved());
  }
}

TEST_CASE("certified runs use Arb balls for the interval mode where a ball body exists",
          "[trust]") {
  // The realised Akyurek chains: a ball body and no exact one. Before their ball bodies (and
  // before certified_scalar chose balls) --certified ran them in MPFR (tolerance).
  for (const char* name : {"akyurek.theorem1_realised_chain_within_propagated_bound",
                           "akyurek.theorem2_realised_chain_within_propagated_bound"}) {
    const property* p = select_properties(name)[0];
    INFO(name);
    REQUIRE(p->applies_in(scalar_kind::ball));
    REQUIRE_FALSE(p->applies_in(scalar_kind::rational));
    CHECK(certified_scalar(*p) == scalar_kind::ball);
  }
  // An approximation with both an MPFI and a ball body and no exact one: balls, not MPFI.
  const property* gp = select_properties("akyurek.gelu_multiplication_within_proven_bound")[0];
  REQUIRE(gp->applies_in(scalar_kind::interval));
  REQUIRE(gp->applies_in(scalar_kind::ball));
  CHECK(certified_scalar(*gp) == scalar_kind::ball);
  // Every property: whenever --certified picks an enclosure it is the ball body if there is one,
  // MPFI otherwise; and a ball body alone counts as the interval mode.
  for (const auto& p : all_properties()) {
    INFO(p.info.name);
    const scalar_kind s = certified_scalar(p);
    if (s == scalar_kind::ball) CHECK(p.applies_in(scalar_kind::ball));
    if (s == scalar_kind::interval) CHECK_FALSE(p.applies_in(scalar_kind::ball));
    if (p.applies_in(scalar_kind::ball)) {
      const auto modes = supported_modes(p);
      CHECK(std::find(modes.begin(), modes.end(), check_mode::interval) != modes.end());
    }
  }
}
