// The statement-file claims (issue 37; proofs/README.md, "Statement files"). The claim of the
// property `<family>.<rest>` is `claim_<family>__<rest>`, a Definition : Prop of the small
// statement file proofs/statements/<family>.v, which imports only Coq and mathcomp and is read
// by people; proofs/statements/<family>_check.v proves it from the project's theorems, and the
// proof audit checks that check_<family>__<rest> has exactly the type claim_<family>__<rest>
// (audit.json "statements"). A property is FULLY PROVED only when, besides its cited theorems
// covering the whole claim (claim_coverage.hpp), its statement-file claim exists with a checked
// check_: in the run's audit when one is given, else in the static ledger below.
//
// The static ledger is proofs/statements/printed.txt, embedded at build time: every claim whose
// check_ and witness passed the audit, with the statement as Coq prints it (`Print claim_<p>.`
// in a file that Requires only the statement module). The audit writes the same file beside
// audit.json; the ctest proofs.statements_printed_agree fails while the two differ, and
// proofs.statement_ledger_lists_every_claim (no Coq) while its claims are not exactly those of
// the statement files that have a check_.
//   Format: '#' comment lines at the top, then one block per claim:
//     == <property id> <claim name>
//     <Coq's output, one or more lines>
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace iclproof {

struct statement_claim {
  std::string property;  // "family.rest"
  std::string claim;     // "claim_family__rest"
  std::string printed;   // the statement as Coq prints it (its own line breaks)
};

// The reason shown wherever coverage is shown while a property has no checked statement claim.
inline constexpr std::string_view no_statement_claim_reason = "no statement-file claim checked yet";

// "claim_<family>__<rest>" for the property "<family>.<rest>" (the naming convention).
std::string statement_claim_name(const std::string& property);

// Parses the ledger's text; throws std::runtime_error with a one-line message (source:line) on
// a malformed block, a claim not named after its property, or a property listed twice.
std::vector<statement_claim> parse_statement_ledger(std::string_view text,
                                                    const std::string& source_name);

// proofs/statements/printed.txt as it was when the build was configured (empty if it does not
// parse: builtin_statement_ledger_error() then says why; it never throws).
const std::vector<statement_claim>& builtin_statement_ledger();
const std::string& builtin_statement_ledger_error();
std::string_view builtin_statement_ledger_text();

// The entry for `property`, or nullptr.
const statement_claim* find_statement_claim(const std::vector<statement_claim>& ledger,
                                            const std::string& property);

}  // namespace iclproof
