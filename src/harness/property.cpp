#include "harness/property.hpp"

#include "harness/statement_ledger.hpp"

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
  if (const std::string bad = validate(info.coverage); !bad.empty())
    throw std::logic_error("property " + info.name + ": " + bad);
  auto& r = registry();
  for (const auto& p : r)
    if (p.info.name == info.name) throw std::logic_error("property registered twice: " + info.name);
  property p;
  p.info = std::move(info);
  // The statement-file claim by the naming convention, checked if the static ledger (the
  // checked-in proofs/statements/printed.txt) lists it; a run's audit overrides this.
  statement_status& st = p.info.coverage.statement;
  st.claim = statement_claim_name(p.info.name);
  st.source = "static ledger";
  if (const statement_claim* c = find_statement_claim(builtin_statement_ledger(), p.info.name)) {
    st.checked = true;
    st.printed = c->printed;
  }
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

}  // namespace iclproof
