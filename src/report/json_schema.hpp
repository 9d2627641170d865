// A small JSON Schema validator for the subset reports/report.schema.json uses (no network, no
// dependency): type (a name or a list), enum, const, properties, required,
// additionalProperties (bool or schema), items, minItems, minimum, maximum, minLength, pattern,
// anyOf, and $ref to "#/$defs/NAME". Keywords outside this subset are rejected, so the schema
// cannot silently promise more than is checked.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace iclproof {

// Problems found, each "path: message" (JSON pointer path); empty means valid.
// Throws std::invalid_argument if the schema uses a keyword outside the subset.
std::vector<std::string> validate_json(const nlohmann::json& instance,
                                       const nlohmann::json& schema);

// reports/report.schema.json, embedded at build time.
const nlohmann::json& report_schema();

}  // namespace iclproof
