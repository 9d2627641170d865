#include "harness/size_statement.hpp"

namespace iclproof {

namespace {
// Function-local statics: the registrars of the property files run at static initialisation,
// in any order relative to this file.
std::map<std::string, std::string>& statements() {
  static std::map<std::string, std::string> m;
  return m;
}
std::vector<std::string>& stated_twice() {
  static std::vector<std::string> v;
  return v;
}
}  // namespace

size_statement_registrar::size_statement_registrar(const std::string& property_name,
                                                   const std::string& statement) {
  if (!statements().emplace(property_name, statement).second)
    stated_twice().push_back(property_name);
}

const std::map<std::string, std::string>& stated_size_statements() { return statements(); }

const std::vector<std::string>& size_statements_stated_twice() { return stated_twice(); }

std::string size_statement_of(const std::string& property_name) {
  const auto& t = statements();
  const auto it = t.find(property_name);
  return it == t.end() ? std::string() : it->second;
}

}  // namespace iclproof
