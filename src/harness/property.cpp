#include "harness/property.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace iclproof {

namespace {
struct pending_body {
  std::string name;
  scalar_kind kind;
  property_body body;
};
struct pending_reason {
  std::string name;
  scalar_kind kind;
  std::string reason;
};
std::vector<property>& registry() {
  static std::vector<property> r;
  return r;
}
std::vector<pending_body>& pending_bodies() {
  static std::vector<pending_body> b;
  return b;
}
std::vector<pending_reason>& pending_reasons() {
  static std::vector<pending_reason> r;
  return r;
}
property& find_registered(const std::string& name, const char* what) {
  for (auto& p : registry())
    if (p.info.name == name) return p;
  throw std::logic_error(std::string(what) + " for unregistered property " + name);
}
}  // namespace

std::string default_not_applicable_reason(scalar_kind k) {
  return fmt::format("no {} body registered", scalar_kind_name(k));
}

property_registrar::property_registrar(
    property_info info, std::initializer_list<std::pair<scalar_kind, property_body>> bodies) {
  auto& r = registry();
  for (const auto& p : r)
    if (p.info.name == info.name) throw std::logic_error("property registered twice: " + info.name);
  property p;
  p.info = std::move(info);
  for (const auto& [kind, body] : bodies) p.bodies[property::index_of(kind)] = body;
  r.push_back(std::move(p));
}

property_body_registrar::property_body_registrar(std::string name, scalar_kind kind,
                                                 property_body body) {
  pending_bodies().push_back({std::move(name), kind, std::move(body)});
}

property_not_applicable_registrar::property_not_applicable_registrar(std::string name,
                                                                     scalar_kind kind,
                                                                     std::string reason) {
  pending_reasons().push_back({std::move(name), kind, std::move(reason)});
}

const std::vector<property>& all_properties() {
  auto& r = registry();
  // Attach the bodies and reasons registered separately (any order, any translation unit).
  for (auto& b : pending_bodies()) {
    property& p = find_registered(b.name, "body");
    auto& slot = p.bodies[property::index_of(b.kind)];
    if (slot)
      throw std::logic_error(
          fmt::format("property {} has two {} bodies", b.name, scalar_kind_name(b.kind)));
    slot = std::move(b.body);
  }
  pending_bodies().clear();
  for (auto& n : pending_reasons()) {
    property& p = find_registered(n.name, "not-applicable reason");
    p.not_applicable_reasons[property::index_of(n.kind)] = std::move(n.reason);
  }
  pending_reasons().clear();
  for (auto& p : r)
    for (scalar_kind k : all_scalar_kinds) {
      const std::size_t i = property::index_of(k);
      if (p.bodies[i] && !p.not_applicable_reasons[i].empty())
        throw std::logic_error(fmt::format("property {} has a {} body and a reason it has none",
                                           p.info.name, scalar_kind_name(k)));
      if (!p.bodies[i] && p.not_applicable_reasons[i].empty())
        p.not_applicable_reasons[i] = default_not_applicable_reason(k);
    }
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
  // Exact scalar (eps = 0, log2_eps = -inf): an error is 0 or infinitely many eps.
  const double in_eps = log2_eps == -std::numeric_limits<double>::infinity()
                            ? (log2_err == -std::numeric_limits<double>::infinity()
                                   ? -std::numeric_limits<double>::infinity()
                                   : std::numeric_limits<double>::infinity())
                            : log2_err - log2_eps;
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
  if (log2_eps_ == -std::numeric_limits<double>::infinity()) {  // exact scalar: eps = 0
    RC_FAIL(fmt::format(
        "{}: check '{}' failed\n  scalar {} (exact arithmetic: the claim is equality), property "
        "seed {}\n  error     = {}\n  tolerance = {}\ninputs:\n{}{}",
        property_, label, scalar_, seed_, err, bound, inputs_, values));
  }
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
