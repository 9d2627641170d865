// The report's model: a property entry's level and proof summaries, the run's pass counts.
#include "report/report_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace iclproof {

std::string property_entry::level_summary() const {
  const std::string here =
      std::string(to_string(trust.level)) + " at " + drawn_size_text(result.drawn);
  if (!certified || certified->scalar == result.scalar) return here;
  std::string s = here + " (" + result.scalar + "); certified in " + certified->scalar + ": ";
  if (certified->outcome != verdict::pass) return s + to_string(certified->outcome);
  s += std::string(to_string(certified->trust.level)) + " at " + drawn_size_text(certified->drawn);
  // An enclosure run: its widest enclosure, the number that decides whether the interval mode
  // can certify at all (docs/ball-arithmetic.md).
  const double w = certified->enclosure_width_log2_in_eps;
  if (certified->mode == check_mode::interval && std::isfinite(w))
    s += fmt::format(", widest enclosure 2^{:.1f} eps", w);
  return s;
}

std::string property_entry::proof_summary() const {
  if (citations.empty()) return "none cited";
  for (const auto& c : citations)
    if (!c.checked) return c.status == "no audit" ? c.status : c.status + ": " + c.theorem.name;
  return "checked";
}

int run_report::passed() const {
  return static_cast<int>(std::count_if(properties.begin(), properties.end(),
                                        [](const property_entry& p) { return p.gate.pass; }));
}
int run_report::failed() const { return static_cast<int>(properties.size()) - passed(); }
int run_report::trained_failed() const {
  return static_cast<int>(std::count_if(trained.begin(), trained.end(), [](const auto& t) {
    return !t.comparison.passed && !t.comparison.inconclusive;
  }));
}
int run_report::trained_inconclusive() const {
  return static_cast<int>(std::count_if(trained.begin(), trained.end(), [](const auto& t) {
    return !t.comparison.passed && t.comparison.inconclusive;
  }));
}
int run_report::trained_passed() const {
  return static_cast<int>(trained.size()) - trained_failed() - trained_inconclusive();
}
bool run_report::all_pass() const {
  return failed() == 0 && !properties.empty() && trained_failed() == 0 &&
         trained_inconclusive() == 0;
}
const char* run_report::verdict() const {
  if (all_pass()) return "pass";
  // Only an inconclusive trained model stands between the run and a pass: its gated loss ratio
  // rests on a heavy-tailed sample (compare's INCONCLUSIVE), which is neither a pass nor a fail.
  if (failed() == 0 && !properties.empty() && trained_failed() == 0) return "inconclusive";
  return "fail";
}
int run_report::exit_code() const {
  const std::string v = verdict();
  return v == "pass" ? 0 : v == "inconclusive" ? 3 : 1;
}

}  // namespace iclproof
