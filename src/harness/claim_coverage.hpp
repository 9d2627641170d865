// What backs a property's claim: the Coq theorems it cites, each with its role, the paper
// equations it cites where no theorem exists, and the part of the claim that no cited theorem
// states (`unproved`). A property is FULLY PROVED only when `unproved` is empty, i.e. the cited
// theorems, taken together, state the whole claim: every dimension, head, layer and parameter the
// property draws, AND its statement-file claim claim_<family>__<rest> has a checked check_
// (harness/statement_ledger.hpp: what ties the theorems to the property's sentence, checked by
// Coq). Otherwise it is "partially proved: <unproved>" (or "partially proved: no statement-file
// claim checked yet") and no output may count it as proved (shared/TRUST.md; trust_level.hpp
// computes the level from this and the run).
//
// Written as the fourth argument of ICLPROOF_PROPERTY, e.g.
//   exact_identity(identity("proofs/VonOswald.v:prop1_lsa_gd_step"),
//                  identity("proofs/VonOswald.v:prop1_readout"))
//   approximation(bound("proofs/AkyurekBounds.v:gelu_tanh_product_quartic"))
//       .missing("the erf GeLU product remainder")
//   measured(paper("Akyurek et al. 2023 Lemma 4 eq. (35)")).missing("an empirical slope")
// Parentheses, not braces, so the commas stay inside one macro argument.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace iclproof {

// The role a cited theorem plays in the claim. A small set on purpose:
//   identity    states (part of) the claimed equation about the construction itself;
//   bound       states an inequality the property uses as (part of) its error bound;
//   composition states how proved pieces combine (heads summed, layers chained, one-layer
//               bounds propagated, one algorithm rewritten as another);
//   reference   states a fact about the reference algorithm the construction is compared with
//               (e.g. iterated Sherman-Morrison = ridge), not about the construction.
enum class citation_role { identity, bound, composition, reference };
std::string_view to_string(citation_role r);

struct cited_theorem {
  std::string file;  // "proofs/File.v"
  std::string name;  // the theorem's short name in that file
  citation_role role = citation_role::identity;
  std::string text() const { return file + ":" + name; }  // "proofs/File.v:name"
};

// What kind of claim the property makes; it decides which check modes can certify it.
//   exact_identity  an equation that holds exactly over a field: exact rational arithmetic can
//                   check it with error 0, interval arithmetic by an enclosure containing 0;
//   approximation   |error| <= bound over the reals: interval arithmetic can certify it;
//   rounding        a claim about floating-point rounding itself (e.g. p vs 2p agreement):
//                   only a rounding-error model backs it;
//   measured        an empirical quantity (a fitted slope): its level is `measured`.
enum class claim_kind { exact_identity, approximation, rounding, measured };
std::string_view to_string(claim_kind k);

// The property's statement-file claim (harness/statement_ledger.hpp): its name by the naming
// convention, whether a check_ of exactly its type checked (in the static ledger, set when the
// property is registered; in the run's audit, set by trust/property_trust.hpp when one is
// given), and the statement as Coq prints it.
struct statement_status {
  std::string claim;     // claim_<family>__<rest> ("" until the property is registered)
  bool checked = false;  // a check_ of exactly its type and a witness passed
  std::string printed;   // Coq's `Print claim_<p>.` ("" when there is none)
  std::string source;    // where `checked` comes from: "static ledger" or "audit"
};

struct claim_coverage {
  claim_kind kind = claim_kind::exact_identity;
  std::vector<cited_theorem> theorems;
  std::vector<std::string> papers;  // paper equations / book theorems cited
  std::string unproved;             // empty iff the theorems together state the whole claim
  statement_status statement;       // the statement-file claim (not written by the property)

  // The cited theorems, taken together, state the whole claim (and there is at least one):
  // the rule before statement files.
  bool theorems_state_whole_claim() const {
    return unproved.empty() && !theorems.empty() &&
           (kind == claim_kind::exact_identity || kind == claim_kind::approximation);
  }
  // ... and the statement-file claim has a checked check_.
  bool fully_proved() const { return theorems_state_whole_claim() && statement.checked; }
  // "fully proved", "partially proved: <unproved>" (with "; no statement-file claim checked
  // yet" while there is none), "partially proved: no statement-file claim checked yet" (the
  // theorems state the whole claim, no statement ties them to it) or "not proved: <unproved>"
  // (no theorem).
  std::string coverage_text() const;
  // "fully proved", "partially proved" or "not proved" (coverage_text without the reason).
  std::string_view coverage_word() const;

  claim_coverage missing(std::string what) && {
    unproved = std::move(what);
    return std::move(*this);
  }
};

// Empty if consistent, else one line saying what is wrong: a theorem citation not of the form
// proofs/File.v:name, no citation at all, `unproved` empty without a theorem or for a rounding or
// measured claim (those are never proved by a theorem), a theorem cited twice.
std::string validate(const claim_coverage& c);

// Throws std::invalid_argument unless the text is "proofs/File.v:name".
cited_theorem parse_cited_theorem(std::string_view file_colon_name, citation_role role);

// ---- builders (the fourth argument of ICLPROOF_PROPERTY; `using namespace iclproof::cite;`) ----
namespace cite {
inline cited_theorem identity(std::string_view t) {
  return parse_cited_theorem(t, citation_role::identity);
}
inline cited_theorem bound(std::string_view t) {
  return parse_cited_theorem(t, citation_role::bound);
}
inline cited_theorem composition(std::string_view t) {
  return parse_cited_theorem(t, citation_role::composition);
}
inline cited_theorem reference(std::string_view t) {
  return parse_cited_theorem(t, citation_role::reference);
}
struct paper_citation {
  std::string text;
};
inline paper_citation paper(std::string text) { return {std::move(text)}; }

namespace coverage_detail {
inline void add(claim_coverage& c, cited_theorem t) { c.theorems.push_back(std::move(t)); }
inline void add(claim_coverage& c, paper_citation p) { c.papers.push_back(std::move(p.text)); }
// A shared list of citations (e.g. what backs one kind of realised layer), merged: a theorem the
// coverage already cites (same file and name) is not cited again, so two lists that share
// component lemmas can back one property.
inline void add(claim_coverage& c, const std::vector<cited_theorem>& list) {
  for (const auto& t : list) {
    bool cited = false;
    for (const auto& have : c.theorems) cited = cited || have.text() == t.text();
    if (!cited) c.theorems.push_back(t);
  }
}
template <class... Cs>
claim_coverage make(claim_kind k, Cs&&... cs) {
  claim_coverage c;
  c.kind = k;
  (add(c, std::forward<Cs>(cs)), ...);
  return c;
}
}  // namespace coverage_detail

template <class... Cs>
claim_coverage exact_identity(Cs&&... cs) {
  return coverage_detail::make(claim_kind::exact_identity, std::forward<Cs>(cs)...);
}
template <class... Cs>
claim_coverage approximation(Cs&&... cs) {
  return coverage_detail::make(claim_kind::approximation, std::forward<Cs>(cs)...);
}
template <class... Cs>
claim_coverage rounding_claim(Cs&&... cs) {
  return coverage_detail::make(claim_kind::rounding, std::forward<Cs>(cs)...);
}
template <class... Cs>
claim_coverage measured(Cs&&... cs) {
  return coverage_detail::make(claim_kind::measured, std::forward<Cs>(cs)...);
}

}  // namespace cite

}  // namespace iclproof
