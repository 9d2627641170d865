// Registries of findings, plot sources and precision-sweep exclusions (see findings.hpp and
// plot_series.hpp). The errata of CONSTRUCTIONS.md are registered by properties/errata.cpp from
// their catalogue, properties/errata_catalogue.hpp.
#include "harness/glob_match.hpp"
#include "report/findings.hpp"
#include "report/plot_series.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace iclproof {

namespace {
std::vector<finding>& finding_registry() {
  static std::vector<finding> r;
  return r;
}
std::vector<plot_source>& plot_registry() {
  static std::vector<plot_source> r;
  return r;
}
std::vector<std::pair<std::string, std::string>>& sweep_exclusions() {
  static std::vector<std::pair<std::string, std::string>> r;
  return r;
}
}  // namespace

void register_finding(finding f) {
  if (f.id.empty() || f.family.empty())
    throw std::logic_error("finding registered without id or family: '" + f.title + "'");
  for (const auto& g : finding_registry())
    if (g.id == f.id) throw std::logic_error("finding registered twice: " + f.id);
  finding_registry().push_back(std::move(f));
}

std::vector<finding> all_findings() {
  std::vector<finding> out = finding_registry();
  std::stable_sort(out.begin(), out.end(), [](const finding& a, const finding& b) {
    return a.family != b.family ? a.family < b.family : a.id < b.id;
  });
  return out;
}

void register_plot_source(plot_source s) {
  if (s.id.empty() || !s.produce) throw std::logic_error("plot source without id or producer");
  for (const auto& t : plot_registry())
    if (t.id == s.id) throw std::logic_error("plot source registered twice: " + s.id);
  plot_registry().push_back(std::move(s));
}

std::vector<plot_source> all_plot_sources() {
  std::vector<plot_source> out = plot_registry();
  std::sort(out.begin(), out.end(),
            [](const plot_source& a, const plot_source& b) { return a.id < b.id; });
  return out;
}

void exclude_from_precision_sweep(std::string property_glob, std::string reason) {
  sweep_exclusions().emplace_back(std::move(property_glob), std::move(reason));
}

std::string precision_sweep_exclusion_reason(const std::string& property_name) {
  for (const auto& [glob, reason] : sweep_exclusions())
    if (glob_match(glob, property_name)) return reason.empty() ? "excluded" : reason;
  return "";
}

}  // namespace iclproof
