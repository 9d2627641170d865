#include "harness/statement_ledger.hpp"

#include <fmt/format.h>

#include <set>
#include <stdexcept>

namespace iclproof {

// Generated from proofs/statements/printed.txt at configure time (statement_ledger_text.cpp).
std::string_view statement_ledger_text_at_build();

std::string statement_claim_name(const std::string& property) {
  const auto dot = property.find('.');
  if (dot == std::string::npos) return "claim_" + property;
  return "claim_" + property.substr(0, dot) + "__" + property.substr(dot + 1);
}

std::vector<statement_claim> parse_statement_ledger(std::string_view text,
                                                    const std::string& source_name) {
  std::vector<statement_claim> out;
  std::set<std::string> seen;
  int line_no = 0;
  std::size_t pos = 0;
  bool in_blocks = false;
  while (pos < text.size()) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    const auto where = fmt::format("{}:{}", source_name, line_no);
    if (line.rfind("== ", 0) == 0) {
      in_blocks = true;
      const std::string_view head = line.substr(3);
      const auto space = head.find(' ');
      if (space == std::string_view::npos || head.find(' ', space + 1) != std::string_view::npos)
        throw std::runtime_error(where + ": expected '== <property> <claim name>'");
      statement_claim c{std::string(head.substr(0, space)), std::string(head.substr(space + 1)),
                        ""};
      if (c.property.find('.') == std::string::npos)
        throw std::runtime_error(where + ": '" + c.property + "' is not a property id");
      if (c.claim != statement_claim_name(c.property))
        throw std::runtime_error(where + ": the claim of " + c.property + " is " +
                                 statement_claim_name(c.property) + ", not " + c.claim);
      if (!seen.insert(c.property).second)
        throw std::runtime_error(where + ": property " + c.property + " listed twice");
      out.push_back(std::move(c));
      continue;
    }
    if (!in_blocks) {
      if (line.empty() || line.front() == '#') continue;
      throw std::runtime_error(where + ": text before the first '== <property> <claim>' block");
    }
    std::string& printed = out.back().printed;
    if (!printed.empty()) printed += '\n';
    printed += line;
  }
  for (auto& c : out) {
    while (!c.printed.empty() && (c.printed.back() == '\n' || c.printed.back() == ' '))
      c.printed.pop_back();
    if (c.printed.empty())
      throw std::runtime_error(source_name + ": the claim of " + c.property +
                               " has no printed statement");
  }
  return out;
}

std::string_view builtin_statement_ledger_text() { return statement_ledger_text_at_build(); }

namespace {
struct builtin_ledger {
  std::vector<statement_claim> claims;
  std::string error;
};
// Never throws (properties register during static initialisation): a malformed ledger is an
// empty one with its error, which the unit test statement_ledger reports.
const builtin_ledger& builtin() {
  static const builtin_ledger b = [] {
    builtin_ledger l;
    try {
      l.claims =
          parse_statement_ledger(statement_ledger_text_at_build(), "proofs/statements/printed.txt");
    } catch (const std::exception& e) {
      l.error = e.what();
    }
    return l;
  }();
  return b;
}
}  // namespace

const std::vector<statement_claim>& builtin_statement_ledger() { return builtin().claims; }
const std::string& builtin_statement_ledger_error() { return builtin().error; }

const statement_claim* find_statement_claim(const std::vector<statement_claim>& ledger,
                                            const std::string& property) {
  for (const auto& c : ledger)
    if (c.property == property) return &c;
  return nullptr;
}

}  // namespace iclproof
