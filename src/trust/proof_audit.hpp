// The proof audit: what the Coq build says about each theorem (proofs/ writes audit.json). The
// trust levels, `check --ci` and the report read it to decide whether a cited theorem checked.
#pragma once

#include <string>
#include <vector>

namespace iclproof {

// audit.json written by the Coq build (proofs/audit.sh):
//   {"schema":3,"theorems":[{"file","name","kind","status":"closed"|"standard-axioms"|"failed",
//                            "assumptions":[...]}],
//    "statements":[{"family","property","file","claim","statement","check","check_reason",
//                   "witness"}], optional "coq_version", "mathcomp_version"}
// (schemas 1 and 2 load too: no "statements", and in schema 1 no "kind").
struct audited_theorem {
  std::string file;  // as written by the audit ("proofs/X.v" or "X.v")
  std::string name;
  std::string status;
  std::vector<std::string> assumptions;
  // Schema 2+: "theorem" (Theorem, Lemma, Example, ...), "definition", "inductive",
  // "projection", "scheme", "unlisted"; "" in an older audit. Only a theorem is a proof a
  // property may cite (trust/property_trust.hpp).
  std::string kind;
};

// Schema 3: one statement-file claim (proofs/statements/<family>.v) and what the audit found.
struct audited_statement {
  std::string family;
  std::string property;   // "family.rest"
  std::string claim;      // "claim_family__rest"
  std::string statement;  // as Coq prints it
  std::string check;      // "checked", "wrong type", "missing", "failed", "not checked"
  std::string check_reason;
  std::string witness;  // the witness's verdict: "closed", "standard-axioms", "failed", "missing"
  // check_ has exactly the claim's type and passed the axiom rules, and the witness passed them.
  bool checked() const {
    return check == "checked" && (witness == "closed" || witness == "standard-axioms");
  }
};

struct proof_audit {
  std::string path;  // empty: no audit given
  std::vector<audited_theorem> theorems;
  std::vector<audited_statement> statements;  // empty in an audit before schema 3
  std::string coq_version;                    // from the audit if it carries one, else ""
  std::string mathcomp_version;               // idem
  // Throws std::runtime_error with a one-line message if unreadable or malformed.
  static proof_audit load(const std::string& path);
  const audited_theorem* find(const std::string& file, const std::string& name) const;
  const audited_statement* find_statement(const std::string& property) const;
};

}  // namespace iclproof
