// `check`'s presentation of finished runs: the table, the summary line, check.json (--json,
// schema reports/check.schema.json) and --record-levels.
#pragma once

#include "cli/check_setup.hpp"

#include <vector>

namespace iclproof {

// Prints the table and the summary of finished runs, writes --json and --record-levels, and
// returns the exit code (0 all passed, 1 otherwise): `check` after running, `merge` after merging.
int present_check_results(const check_options& opt, const check_setup& setup,
                          const std::vector<property_result>& results, bool print_header = true);

}  // namespace iclproof
