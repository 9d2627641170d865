#include "trust/property_trust.hpp"

#include "harness/statement_ledger.hpp"

#include <cmath>

namespace iclproof {

std::vector<check_mode> supported_modes(const property& p) {
  std::vector<check_mode> modes;
  if (p.applies_in(scalar_kind::rational)) modes.push_back(check_mode::exact_rational);
  // Balls are enclosures checked by the interval verdict logic (core/ball.hpp): the same mode.
  if (p.applies_in(scalar_kind::interval) || p.applies_in(scalar_kind::ball))
    modes.push_back(check_mode::interval);
  if (p.applies_in(scalar_kind::double_precision) ||
      p.applies_in(scalar_kind::long_double_precision) || p.applies_in(scalar_kind::mpfr))
    modes.push_back(check_mode::floating_point);
  return modes;
}

// The enclosure scalar of the interval mode: Arb balls where the property has a ball body, else
// MPFI. Balls first: the same verdict logic and comparison semantics (core/ball.hpp), enclosures
// 1.4-1.9x narrower than MPFI's on the GD/GD++ stacks and the property runs about 7x faster
// (docs/benchmarks.md), and the realised Akyurek chains have their centred-form runs on both.
static scalar_kind enclosure_scalar(const property& p) {
  return p.applies_in(scalar_kind::ball) ? scalar_kind::ball : scalar_kind::interval;
}

scalar_kind certified_scalar(const property& p) {
  switch (strongest_mode(p.info.coverage, supported_modes(p))) {
    case check_mode::exact_rational:
      return scalar_kind::rational;
    case check_mode::interval:
      return enclosure_scalar(p);
    case check_mode::floating_point:
      break;
  }
  if (p.applies_in(scalar_kind::mpfr)) return scalar_kind::mpfr;
  if (p.applies_in(scalar_kind::rational)) return scalar_kind::rational;
  if (p.applies_in(scalar_kind::ball) || p.applies_in(scalar_kind::interval))
    return enclosure_scalar(p);
  return scalar_kind::mpfr;
}

check_mode mode_of_run(const property_result& r) {
  if (r.scalar == "rational") return check_mode::exact_rational;
  // Balls are enclosures checked by the interval verdict logic (core/ball.hpp).
  if (r.scalar == "interval" || r.scalar == "ball") return check_mode::interval;
  return check_mode::floating_point;
}

std::vector<citation_status> audit_citations(const claim_coverage& c, const proof_audit& audit) {
  std::vector<citation_status> out;
  for (const auto& t : c.theorems) {
    citation_status s;
    s.theorem = t;
    if (audit.path.empty()) {
      s.status = "no audit";
    } else if (const audited_theorem* a = audit.find(t.file, t.name)) {
      s.assumptions = a->assumptions;
      if (!a->kind.empty() && a->kind != "theorem") {
        s.status = "not a theorem (" + a->kind + ")";
      } else {
        s.status = a->status;
        s.checked = a->status == "closed" || a->status == "standard-axioms";
      }
    } else {
      s.status = "not in audit";
    }
    out.push_back(std::move(s));
  }
  return out;
}

bool is_not_a_theorem_status(const std::string& status) {
  return status.rfind("not a theorem", 0) == 0;
}

claim_coverage coverage_under_audit(const claim_coverage& c, const std::string& property,
                                    const proof_audit& audit) {
  if (audit.path.empty()) return c;
  claim_coverage out = c;
  statement_status& st = out.statement;
  st.claim = statement_claim_name(property);
  st.source = "audit";
  st.checked = false;
  st.printed.clear();
  if (const audited_statement* a = audit.find_statement(property); a && a->claim == st.claim) {
    st.checked = a->checked();
    st.printed = a->statement;
  }
  return out;
}

void apply_statement_audit(property_result& r, const proof_audit& audit) {
  r.info.coverage = coverage_under_audit(r.info.coverage, r.info.name, audit);
}

bool citations_checked(const std::vector<citation_status>& cs, const proof_audit& audit) {
  if (audit.path.empty() || cs.empty()) return false;
  for (const auto& c : cs)
    if (!c.checked) return false;
  return true;
}

bool all_errors_zero(const property_result& r) {
  return r.checks > 0 && std::isinf(r.max_log2_err_in_eps) && r.max_log2_err_in_eps < 0;
}

bool all_bounds_qed(const property_result& r, const proof_audit& audit) {
  if (audit.path.empty() || !r.hand_derived_bounds.empty()) return false;
  if (r.identity_checks + r.enclosed_checks == 0) return false;
  for (const auto& lemma : r.proved_bounds) {
    const auto colon = lemma.find(':');
    if (colon == std::string::npos) return false;
    const audited_theorem* t = audit.find(lemma.substr(0, colon), lemma.substr(colon + 1));
    if (!t || !(t->status == "closed" || t->status == "standard-axioms")) return false;
  }
  return true;
}

property_trust assess_property_run(const property_result& run, const proof_audit& audit) {
  // The coverage the audit gives (idempotent: a result already passed through
  // apply_statement_audit is unchanged).
  property_result r = run;
  apply_statement_audit(r, audit);
  property_trust t;
  t.citations = audit_citations(r.info.coverage, audit);
  t.mode = mode_of_run(r);
  run_evidence e;
  e.mode = t.mode;
  e.passed = r.outcome == verdict::pass;
  e.all_errors_zero = all_errors_zero(r);
  e.all_bounds_qed = all_bounds_qed(r, audit);
  e.audit_passed = citations_checked(t.citations, audit);
  e.qed_bound_checked =
      t.mode == check_mode::exact_rational && r.enclosed_checks > 0 && !r.proved_bounds.empty();
  t.assessment = assess_run(r.info.coverage, e);
  return t;
}

}  // namespace iclproof
