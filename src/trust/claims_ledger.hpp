// proofs/CLAIMS.md, generated from the property registry (`iclproof list --claims-md`): every
// property, the theorems it cites with their roles, what no theorem states yet, and the strongest
// trust level it can reach. A test checks that the checked-in file equals the generated one.
#pragma once

#include "harness/property.hpp"

#include <string>
#include <vector>

namespace iclproof {

std::string claims_ledger_markdown(const std::vector<property>& properties);

// How many of `properties` are fully proved (claim_coverage::fully_proved): the one count behind
// CLAIMS.md's "K fully proved of T properties" and the "(K of T in all)" of `check` and `report`,
// which pass all_properties().
int count_fully_proved(const std::vector<property>& properties);

}  // namespace iclproof
