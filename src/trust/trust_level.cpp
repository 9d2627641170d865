#include "trust/trust_level.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <stdexcept>

namespace iclproof {

namespace {
constexpr std::array<std::pair<trust_level, std::string_view>, 5> level_names{{
    {trust_level::proved_exact, "proved + exact"},
    {trust_level::proved_enclosed, "proved + enclosed"},
    {trust_level::enclosed_hand_derived, "enclosed under a hand-derived bound"},
    {trust_level::tolerance_rounding_model, "tolerance under a rounding model"},
    {trust_level::measured, "measured"},
}};

bool supports(const std::vector<check_mode>& modes, check_mode m) {
  return std::find(modes.begin(), modes.end(), m) != modes.end();
}
}  // namespace

std::string_view to_string(trust_level l) {
  for (const auto& [level, name] : level_names)
    if (level == l) return name;
  return "?";
}

std::optional<trust_level> parse_trust_level(std::string_view text) {
  for (const auto& [level, name] : level_names)
    if (name == text) return level;
  return std::nullopt;
}

std::string_view to_string(check_mode m) {
  switch (m) {
    case check_mode::exact_rational:
      return "exact rational";
    case check_mode::interval:
      return "interval";
    case check_mode::floating_point:
      return "floating point";
  }
  return "?";
}

trust_assessment assess_run(const claim_coverage& c, const run_evidence& e) {
  if (c.kind == claim_kind::measured) return {trust_level::measured, c.unproved};
  if (c.kind == claim_kind::rounding)
    return {trust_level::tolerance_rounding_model, "a rounding claim: " + c.unproved};
  if (e.mode == check_mode::floating_point)
    return {trust_level::tolerance_rounding_model, "ran in floating point"};
  // An exact or interval check: certified computation. What keeps it from `proved`, in order.
  const trust_assessment hand{trust_level::enclosed_hand_derived, ""};
  auto limited = [&](std::string why) {
    trust_assessment a = hand;
    a.limited_by = std::move(why);
    return a;
  };
  if (!e.passed) return limited("the check did not pass");
  if (!c.fully_proved()) return limited(c.coverage_text());
  if (!e.audit_passed) return limited("no passing proof audit of the cited theorems in this run");
  if (e.mode == check_mode::exact_rational && c.kind == claim_kind::approximation) {
    // An approximation checked in exact rationals: its error is not 0, so never proved + exact;
    // its Qed bound compared exactly is an enclosed check whose enclosures are points.
    if (!e.qed_bound_checked || !e.all_bounds_qed)
      return limited(
          "an approximation run in exact rationals without every bound a Qed statement "
          "compared exactly");
    return {trust_level::proved_enclosed,
            "an approximation: its Qed bound compared exactly in rationals (point enclosures); "
            "proved + exact is for identities with error 0"};
  }
  if (e.mode == check_mode::exact_rational) {
    if (!e.all_errors_zero) return limited("an error was not exactly 0");
    return {trust_level::proved_exact, ""};
  }
  if (!e.all_bounds_qed) return limited("a bound used is hand-derived, not a Qed statement");
  const bool exact_possible = c.kind == claim_kind::exact_identity;
  return {trust_level::proved_enclosed,
          exact_possible ? "ran in interval arithmetic, not exact rationals" : ""};
}

check_mode strongest_mode(const claim_coverage& c, const std::vector<check_mode>& modes) {
  if (c.kind == claim_kind::exact_identity && supports(modes, check_mode::exact_rational))
    return check_mode::exact_rational;
  if ((c.kind == claim_kind::exact_identity || c.kind == claim_kind::approximation) &&
      supports(modes, check_mode::interval))
    return check_mode::interval;
  // An approximation with an exact body and no interval one: exact comparisons are at least as
  // strong as enclosures (assess_run asks the run for a Qed bound compared exactly).
  if (c.kind == claim_kind::approximation && supports(modes, check_mode::exact_rational))
    return check_mode::exact_rational;
  return check_mode::floating_point;
}

trust_assessment reachable_level(const claim_coverage& c, const std::vector<check_mode>& modes) {
  run_evidence best;
  best.mode = strongest_mode(c, modes);
  best.passed = true;
  best.all_errors_zero = true;
  best.all_bounds_qed = true;
  best.audit_passed = true;
  best.qed_bound_checked = true;
  return assess_run(c, best);
}

std::map<std::string, trust_level> parse_recorded_levels(std::string_view text,
                                                         const std::string& source_name) {
  std::map<std::string, trust_level> out;
  int line_no = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
    if (line.empty() || line.front() == '#') continue;
    const auto space = line.find(' ');
    const auto where = fmt::format("{}:{}", source_name, line_no);
    if (space == std::string_view::npos)
      throw std::runtime_error(where + ": expected '<property> <trust level>'");
    const std::string name(line.substr(0, space));
    std::string_view rest = line.substr(space + 1);
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    const auto level = parse_trust_level(rest);
    if (!level)
      throw std::runtime_error(where + ": unknown trust level '" + std::string(rest) + "'");
    if (!out.emplace(name, *level).second)
      throw std::runtime_error(where + ": property " + name + " recorded twice");
    if (pos > text.size()) break;
  }
  return out;
}

std::string format_recorded_levels(const std::vector<std::pair<std::string, trust_level>>& levels) {
  std::string s =
      "# The trust level each property reached in `iclproof check --certified --proof-audit` on\n"
      "# this repository (shared/TRUST.md). `check --ci --certified` fails when a property's "
      "level\n"
      "# falls below the one recorded here. Levels go up only by new proofs or certified checks:\n"
      "# regenerate with `iclproof check --certified --proof-audit AUDIT --record-levels FILE`.\n";
  for (const auto& [name, level] : levels) s += name + " " + std::string(to_string(level)) + "\n";
  return s;
}

std::string level_regression(const std::string& property, trust_level recorded,
                             trust_level reached) {
  if (reached >= recorded) return "";
  return fmt::format("{}: trust level fell from '{}' (recorded) to '{}'", property,
                     to_string(recorded), to_string(reached));
}

}  // namespace iclproof
