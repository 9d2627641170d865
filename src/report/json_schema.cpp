#include "report/json_schema.hpp"

#include <fmt/format.h>

#include <regex>
#include <set>
#include <stdexcept>

namespace iclproof {

namespace {

using nlohmann::json;

class validator {
 public:
  explicit validator(const json& root) : root_(root) {}

  void check(const json& inst, const json& schema, const std::string& path) {
    if (schema.is_boolean()) {
      if (!schema.get<bool>()) fail(path, "no value allowed here");
      return;
    }
    if (!schema.is_object()) throw std::invalid_argument("schema at " + path + " is not an object");
    static const std::set<std::string> known = {"$schema",
                                                "$id",
                                                "$defs",
                                                "$ref",
                                                "$comment",
                                                "title",
                                                "description",
                                                "type",
                                                "enum",
                                                "const",
                                                "properties",
                                                "required",
                                                "additionalProperties",
                                                "items",
                                                "minItems",
                                                "minimum",
                                                "maximum",
                                                "minLength",
                                                "pattern",
                                                "anyOf",
                                                "examples",
                                                "default"};
    for (const auto& [key, value] : schema.items())
      if (!known.count(key))
        throw std::invalid_argument("schema keyword '" + key + "' is outside the supported subset");

    if (schema.contains("$ref")) {
      const std::string ref = schema["$ref"];
      const std::string prefix = "#/$defs/";
      if (ref.rfind(prefix, 0) != 0 || !root_.contains("$defs") ||
          !root_["$defs"].contains(ref.substr(prefix.size())))
        throw std::invalid_argument("unresolvable $ref " + ref);
      check(inst, root_["$defs"][ref.substr(prefix.size())], path);
    }
    if (schema.contains("type") && !type_matches(inst, schema["type"])) {
      fail(path, fmt::format("expected type {}, got {}", schema["type"].dump(), inst.type_name()));
      return;
    }
    if (schema.contains("enum")) {
      bool any = false;
      for (const auto& e : schema["enum"]) any = any || e == inst;
      if (!any) fail(path, "value " + inst.dump() + " not in " + schema["enum"].dump());
    }
    if (schema.contains("const") && schema["const"] != inst)
      fail(path, "expected " + schema["const"].dump() + ", got " + inst.dump());
    if (inst.is_object()) check_object(inst, schema, path);
    if (inst.is_array()) {
      if (schema.contains("minItems") && inst.size() < schema["minItems"].get<std::size_t>())
        fail(path, fmt::format("fewer than {} items", schema["minItems"].get<std::size_t>()));
      if (schema.contains("items"))
        for (std::size_t i = 0; i < inst.size(); ++i)
          check(inst[i], schema["items"], path + "/" + std::to_string(i));
    }
    if (inst.is_number()) {
      const double v = inst.get<double>();
      if (schema.contains("minimum") && v < schema["minimum"].get<double>())
        fail(path, fmt::format("{} < minimum {}", v, schema["minimum"].get<double>()));
      if (schema.contains("maximum") && v > schema["maximum"].get<double>())
        fail(path, fmt::format("{} > maximum {}", v, schema["maximum"].get<double>()));
    }
    if (inst.is_string()) {
      const std::string s = inst;
      if (schema.contains("minLength") && s.size() < schema["minLength"].get<std::size_t>())
        fail(path, "string shorter than minLength");
      if (schema.contains("pattern") &&
          !std::regex_search(s, std::regex(schema["pattern"].get<std::string>())))
        fail(path, "'" + s + "' does not match " + schema["pattern"].get<std::string>());
    }
    if (schema.contains("anyOf")) {
      bool any = false;
      for (const auto& alt : schema["anyOf"]) {
        validator sub(root_);
        sub.check(inst, alt, path);
        if (sub.problems.empty()) {
          any = true;
          break;
        }
      }
      if (!any) fail(path, "matches none of anyOf");
    }
  }

  std::vector<std::string> problems;

 private:
  static bool type_is(const json& inst, const std::string& t) {
    if (t == "object") return inst.is_object();
    if (t == "array") return inst.is_array();
    if (t == "string") return inst.is_string();
    if (t == "boolean") return inst.is_boolean();
    if (t == "null") return inst.is_null();
    if (t == "number") return inst.is_number();
    if (t == "integer")
      return inst.is_number_integer() ||
             (inst.is_number_float() &&
              inst.get<double>() ==
                  static_cast<double>(static_cast<long long>(inst.get<double>())));
    throw std::invalid_argument("unknown type '" + t + "' in schema");
  }
  static bool type_matches(const json& inst, const json& type) {
    if (type.is_string()) return type_is(inst, type);
    for (const auto& t : type)
      if (type_is(inst, t)) return true;
    return false;
  }
  void check_object(const json& inst, const json& schema, const std::string& path) {
    if (schema.contains("required"))
      for (const auto& key : schema["required"])
        if (!inst.contains(key.get<std::string>()))
          fail(path, "missing required key '" + key.get<std::string>() + "'");
    const json props = schema.value("properties", json::object());
    for (const auto& [key, value] : inst.items()) {
      const std::string sub = path + "/" + key;
      if (props.contains(key)) {
        check(value, props[key], sub);
      } else if (schema.contains("additionalProperties")) {
        check(value, schema["additionalProperties"], sub);
      }
    }
  }
  void fail(const std::string& path, const std::string& msg) {
    problems.push_back((path.empty() ? "/" : path) + ": " + msg);
  }
  const json& root_;
};

}  // namespace

std::vector<std::string> validate_json(const nlohmann::json& instance,
                                       const nlohmann::json& schema) {
  validator v(schema);
  v.check(instance, schema, "");
  return v.problems;
}

}  // namespace iclproof
