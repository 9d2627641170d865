// What each property does under `--size paper` and `--size large` (harness/size_profile.hpp):
// which of its sizes follow the profile, or why it keeps its small sizes. Shown by
// `iclproof list`. A property states it next to its definition, in its own properties/<f>.cpp:
//
//   ICLPROOF_PROPERTY(id, "family.name", ...) { ... }
//   ICLPROOF_SIZES(id, "follows: d, N up to the profile's caps (gen_..., family.hpp)");
//
// The statement starts with "follows", "partly" or "fixed" and says why.
// tests/unit/size_profile_test.cpp requires one statement for every built-in property and none
// for a property that does not exist (a new property must say how it scales).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace iclproof {

// The statement of a property, or empty if it has none.
std::string size_statement_of(const std::string& property_name);

// Every statement, by property name.
const std::map<std::string, std::string>& stated_size_statements();

// The names stated more than once (the first statement is kept); empty in a correct build.
const std::vector<std::string>& size_statements_stated_twice();

// Registers the statement of one property at static initialisation (ICLPROOF_SIZES).
struct size_statement_registrar {
  size_statement_registrar(const std::string& property_name, const std::string& statement);
};

}  // namespace iclproof

// Declares what the property ID, defined above in the same file, does with the size profile.
// Registered once, in part 1 of a split property file (harness/property.hpp's
// ICLPROOF_PROPERTY_PART), or in the single translation unit of an unsplit one.
#ifndef ICLPROOF_PROPERTY_PART
#define ICLPROOF_PROPERTY_PART 0
#endif
#if ICLPROOF_PROPERTY_PART == 0 || ICLPROOF_PROPERTY_PART == 1
#define ICLPROOF_SIZES(ID, STATEMENT)                                     \
  static const ::iclproof::size_statement_registrar ID##_size_statement { \
    ID##_info.name, STATEMENT                                             \
  }
#else
#define ICLPROOF_SIZES(ID, STATEMENT) static_assert(true)
#endif
