// `iclproof list`: each property's claim, citations, coverage, reachable level, scalars, sizes.
#include "cli/check_command.hpp"

#include "core/precision.hpp"
#include "harness/size_statement.hpp"
#include "harness/statement_ledger.hpp"
#include "trust/claims_ledger.hpp"
#include "trust/property_trust.hpp"
#include "trust/trust_level.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>

namespace iclproof {

int run_list_command(const list_options& opt) {
  if (opt.claims_md) {
    fmt::print("{}", claims_ledger_markdown(all_properties()));
    return 0;
  }
  for (const property* p : select_properties(opt.glob)) {
    const claim_coverage& c = p->info.coverage;
    const trust_assessment reach = reachable_level(c, supported_modes(*p));
    fmt::print("{}\n  claim:     {}\n  kind:      {}\n", p->info.name, p->info.claim,
               to_string(c.kind));
    for (const auto& t : c.theorems)
      fmt::print("  theorem:   {} ({})\n", t.text(), to_string(t.role));
    for (const auto& paper : c.papers) fmt::print("  paper:     {}\n", paper);
    fmt::print("  coverage:  {}\n", c.coverage_text());
    // The statement-file claim next to the sentence: Coq's text, or why there is none.
    if (c.statement.printed.empty()) {
      fmt::print("  statement: {}: {}\n", c.statement.claim, no_statement_claim_reason);
    } else {
      fmt::print("  statement: {} (proofs/statements/{}.v, as Coq prints it):\n", c.statement.claim,
                 p->info.family());
      std::size_t pos = 0;
      while (pos <= c.statement.printed.size()) {
        const std::size_t end =
            std::min(c.statement.printed.find('\n', pos), c.statement.printed.size());
        fmt::print("    {}\n", c.statement.printed.substr(pos, end - pos));
        pos = end + 1;
      }
    }
    fmt::print("  can reach: {}{}\n", to_string(reach.level),
               reach.limited_by.empty() || !c.theorems_state_whole_claim() || !c.statement.checked
                   ? ""
                   : " (limited by: " + reach.limited_by + ")");
    std::string runs, not_in;
    for (scalar_kind k : all_scalar_kinds) {
      if (p->applies_in(k))
        runs += std::string(runs.empty() ? "" : ", ") + scalar_kind_name(k);
      else
        not_in +=
            fmt::format("\n  not in {}: {}", scalar_kind_name(k), p->not_applicable_reason(k));
    }
    fmt::print("  runs in:   {}{}\n", runs, not_in);
    const std::string sizes = size_statement_of(p->info.name);
    fmt::print("  sizes:     {}{}\n",
               sizes.empty() ? "no statement: keeps the sizes it draws under every --size" : sizes,
               p->applies_in(scalar_kind::rational) && sizes.rfind("fixed", 0) != 0
                   ? "; " + std::string(exact_scalar_size_note)
                   : std::string());
  }
  return 0;
}

}  // namespace iclproof
