// `iclproof check` and `iclproof list`.
#pragma once

#include "core/scalar.hpp"
#include "harness/parallel_runner.hpp"
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
  int jobs = 1;                    // worker processes (harness/parallel_runner.hpp)
  shard_spec shard;                // k/n: run the k-th of n blocks of every property's cases
  size_profile size = size_profile::small;  // --size (harness/size_profile.hpp)
};

int run_check_command(const check_options& opt);

// The parameters of a check run that decide its results (not where its output goes, nor jobs
// or shard): what shards of one run must share, and what merge rebuilds the run from.
nlohmann::json check_parameters_json(const check_options& opt);
check_options check_options_from_parameters(const nlohmann::json& parameters);

struct list_options {
  std::string glob = "*";
  bool claims_md = false;  // print proofs/CLAIMS.md (the claims ledger) instead
};
int run_list_command(const list_options& opt);

}  // namespace iclproof
