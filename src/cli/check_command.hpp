// `iclproof check` and `iclproof list`.
#pragma once

#include "core/scalar.hpp"
#include "harness/runner.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace iclproof {

struct check_options {
  std::string property_glob = "*";
  int cases = 100;
  std::optional<int> precision_bits;  // mpfr only
  scalar_kind scalar = scalar_kind::mpfr;
  std::uint64_t seed = 1;
  std::string json_path;         // empty: no JSON
  std::string proof_audit_path;  // empty: proofs not consulted
  bool ci = false;               // gate mode: fail on any property or cited proof not checked
};

// Status of the theorem a property cites, from the proof audit (audit.json).
struct proof_status {
  bool cited = false;    // the property names a proofs/ theorem (not a paper equation)
  bool known = false;    // the audit lists it
  bool checked = false;  // the audit says it is closed (or uses only the allowed axioms)
  std::string status;    // "closed", "standard-axioms", "failed", "not in audit", "no audit"
};
proof_status lookup_proof_status(const std::string& theorem, const std::string& audit_path);

int run_check_command(const check_options& opt);
int run_list_command(const std::string& glob);

}  // namespace iclproof
