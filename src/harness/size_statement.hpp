// What each property does under `--size paper` and `--size large` (harness/size_profile.hpp):
// which of its sizes follow the profile, or why it keeps its small sizes. Shown by
// `iclproof list`; tests/unit/size_profile_test.cpp requires a statement for every built-in
// property (a new property must say how it scales).
#pragma once

#include <map>
#include <string>

namespace iclproof {

// The statement of a property, or empty if it has none.
std::string size_statement_of(const std::string& property_name);

// Every statement, by property name.
const std::map<std::string, std::string>& stated_size_statements();

}  // namespace iclproof
