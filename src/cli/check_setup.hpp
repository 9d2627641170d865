// What a `check` run (and the merge of check shards) needs before any property runs: the options
// validated, the MPFR precision set, the properties selected, the proof audit and the recorded
// levels read. Bad input fails here, before any long work; prepare_check runs once per command.
#pragma once

#include "cli/check_command.hpp"
#include "trust/proof_audit.hpp"
#include "trust/trust_level.hpp"

#include <map>
#include <string>
#include <vector>

namespace iclproof {

struct check_setup {
  int bits = 0;        // the bits the values carry (0: exact)
  std::string scalar;  // the --scalar name, or "certified"
  bool exact = false;
  std::vector<const property*> selected;
  proof_audit audit;
  std::map<std::string, trust_level> recorded;  // --trust-levels
};

// Throws std::invalid_argument (bad options) or std::runtime_error (unreadable files).
check_setup prepare_check(const check_options& opt);

// The header line(s): scalar, precision, eps, cases, seed, size, shard; --certified's rule.
void print_check_header(const check_options& opt, const check_setup& setup);

// The property runs `opt` asks for, in output order.
std::vector<run_request> check_run_requests(const check_options& opt, const check_setup& setup);

}  // namespace iclproof
