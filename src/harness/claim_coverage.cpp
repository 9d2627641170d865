#include "harness/claim_coverage.hpp"

#include "harness/statement_ledger.hpp"

#include <set>
#include <stdexcept>

namespace iclproof {

std::string_view to_string(citation_role r) {
  switch (r) {
    case citation_role::identity:
      return "identity";
    case citation_role::bound:
      return "bound";
    case citation_role::composition:
      return "composition";
    case citation_role::reference:
      return "reference";
  }
  return "?";
}

std::string_view to_string(claim_kind k) {
  switch (k) {
    case claim_kind::exact_identity:
      return "exact identity";
    case claim_kind::approximation:
      return "approximation";
    case claim_kind::rounding:
      return "rounding";
    case claim_kind::measured:
      return "measured";
  }
  return "?";
}

std::string claim_coverage::coverage_text() const {
  if (fully_proved()) return "fully proved";
  if (theorems.empty()) return "not proved: " + unproved;
  if (statement.checked) return "partially proved: " + unproved;
  if (unproved.empty()) return "partially proved: " + std::string(no_statement_claim_reason);
  return "partially proved: " + unproved + "; " + std::string(no_statement_claim_reason);
}

std::string_view claim_coverage::coverage_word() const {
  return fully_proved() ? "fully proved" : theorems.empty() ? "not proved" : "partially proved";
}

cited_theorem parse_cited_theorem(std::string_view t, citation_role role) {
  const auto colon = t.find(':');
  const bool ok = t.rfind("proofs/", 0) == 0 && colon != std::string_view::npos && colon >= 3 &&
                  t.substr(colon - 2, 2) == ".v" && colon + 1 < t.size() &&
                  t.find(':', colon + 1) == std::string_view::npos;
  if (!ok)
    throw std::invalid_argument("theorem citation '" + std::string(t) +
                                "' is not of the form proofs/File.v:name");
  return {std::string(t.substr(0, colon)), std::string(t.substr(colon + 1)), role};
}

std::string validate(const claim_coverage& c) {
  if (c.theorems.empty() && c.papers.empty()) return "cites nothing (no theorem, no paper)";
  std::set<std::string> seen;
  for (const auto& t : c.theorems) {
    if (t.file.rfind("proofs/", 0) != 0 || t.name.empty())
      return "theorem citation '" + t.text() + "' is not of the form proofs/File.v:name";
    if (!seen.insert(t.text()).second) return "theorem " + t.text() + " cited twice";
  }
  if (c.unproved.empty()) {
    if (c.theorems.empty()) return "no theorem cited, so `unproved` must say what is missing";
    if (c.kind == claim_kind::rounding || c.kind == claim_kind::measured)
      return std::string("a ") + std::string(to_string(c.kind)) +
             " claim is never proved by a theorem: `unproved` must say what backs it instead";
  }
  return "";
}

}  // namespace iclproof
