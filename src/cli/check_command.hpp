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
  // Run every property in the strongest mode that applies (trust/trust_level.hpp:
  // strongest_mode) instead of `scalar`; floating-point runs use MPFR.
  bool certified = false;
  // With ci && certified: the recorded levels (properties/trust_levels.txt); a property whose
  // level falls below its recorded one fails the gate.
  std::string trust_levels_path;
  std::string record_levels_path;  // write the levels reached here (trust_levels.txt format)
};

int run_check_command(const check_options& opt);

struct list_options {
  std::string glob = "*";
  bool claims_md = false;  // print proofs/CLAIMS.md (the claims ledger) instead
};
int run_list_command(const list_options& opt);

}  // namespace iclproof
