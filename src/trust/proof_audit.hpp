// The proof audit: what the Coq build says about each theorem (proofs/ writes audit.json). The
// trust levels, `check --ci` and the report read it to decide whether a cited theorem checked.
#pragma once

#include <string>
#include <vector>

namespace iclproof {

// audit.json written by the Coq build:
//   {"schema":1,"theorems":[{"file","name","status":"closed"|"standard-axioms"|"failed",
//                            "assumptions":[...]}], optional "coq_version", "mathcomp_version"}
struct audited_theorem {
  std::string file;  // as written by the audit ("proofs/X.v" or "X.v")
  std::string name;
  std::string status;
  std::vector<std::string> assumptions;
};

struct proof_audit {
  std::string path;  // empty: no audit given
  std::vector<audited_theorem> theorems;
  std::string coq_version;       // from the audit if it carries one, else ""
  std::string mathcomp_version;  // idem
  // Throws std::runtime_error with a one-line message if unreadable or malformed.
  static proof_audit load(const std::string& path);
  const audited_theorem* find(const std::string& file, const std::string& name) const;
};

}  // namespace iclproof
