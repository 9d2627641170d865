// The run folder `iclproof report` (and `merge` of report shards) writes.
#pragma once

#include "report/report_model.hpp"

#include <cstdint>
#include <string>

namespace iclproof {

// Writes the run folder (creating it and its parents). Throws std::runtime_error if a file
// cannot be written; std::logic_error if report.json does not validate against its schema.
void write_report_folder(run_report& report, const std::string& dir);

// "reports/runs/<YYYY-MM-DD>_seed<S>", with "_2", "_3", ... appended if that already exists.
std::string default_run_folder(std::uint64_t seed);

// The current time, ISO 8601 UTC ("2026-11-27T03:00:00Z"): report.json's generated_at.
std::string utc_now_iso();

}  // namespace iclproof
