#include "harness/property.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace iclproof {

namespace {
std::vector<property>& registry() {
  static std::vector<property> r;
  return r;
}
}  // namespace

property_registrar::property_registrar(property_info info, property_body d, property_body ld,
                                       property_body mp) {
  if (const std::string bad = validate(info.coverage); !bad.empty())
    throw std::logic_error("property " + info.name + ": " + bad);
  auto& r = registry();
  for (const auto& p : r)
    if (p.info.name == info.name) throw std::logic_error("property registered twice: " + info.name);
  r.push_back({std::move(info), std::move(d), std::move(ld), std::move(mp)});
}

const std::vector<property>& all_properties() {
  auto& r = registry();
  std::sort(r.begin(), r.end(),
            [](const property& a, const property& b) { return a.info.name < b.info.name; });
  return r;
}

double log2_margin(double log2_err, double log2_bound) {
  if (std::isnan(log2_err) || std::isnan(log2_bound))
    return std::numeric_limits<double>::quiet_NaN();
  if (log2_err == -std::numeric_limits<double>::infinity())
    return std::numeric_limits<double>::infinity();
  return log2_bound - log2_err;
}

void case_context::record(double log2_err, double log2_bound, double log2_eps, bool ok) {
  ++checks_;
  log2_eps_ = log2_eps;
  last_log2_err_ = log2_err;
  last_log2_bound_ = log2_bound;
  if (!ok) failed_ = true;
  // The worst check is the one with the smallest margin; a NaN margin (a NaN error) is worst of
  // all and stays worst, so the summary shows it.
  const double margin = log2_margin(log2_err, log2_bound);
  const double worst_margin = log2_margin(worst_log2_err_, worst_log2_bound_);
  const bool worst_is_nan = have_worst_ && std::isnan(worst_margin);
  if (!worst_is_nan && (!have_worst_ || std::isnan(margin) || margin < worst_margin)) {
    worst_log2_err_ = log2_err;
    worst_log2_bound_ = log2_bound;
  }
  have_worst_ = true;
  const double in_eps = log2_err - log2_eps;
  if (std::isnan(in_eps) || in_eps > max_err_in_eps_) max_err_in_eps_ = in_eps;
}

void case_context::require(std::string_view label, bool ok, const std::string& details) {
  ++checks_;
  if (!ok) {
    failed_ = true;
    fail(label, "claim false", "claim true", details);
  }
}

void case_context::fail(std::string_view label, const std::string& err, const std::string& bound,
                        const std::string& values) {
  const double err_eps = last_log2_err_ - log2_eps_;
  const double bound_eps = last_log2_bound_ - log2_eps_;
  std::string msg = fmt::format(
      "{}: check '{}' failed\n  scalar {} at {} bits, eps = 2^{}, property seed {}\n"
      "  error     = {}\n  tolerance = {}\n  (error = 2^{:.2f} eps, tolerance = 2^{:.2f} eps)\n"
      "inputs:\n{}{}",
      property_, label, scalar_, bits_, static_cast<long>(log2_eps_), seed_, err, bound, err_eps,
      bound_eps, inputs_, values);
  RC_FAIL(msg);
}

}  // namespace iclproof
