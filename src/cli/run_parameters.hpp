// The parameters of a run that decide its results, each named once per command: a shard file
// records them ("parameters") and `merge` rebuilds the run's options from them, both directions
// from the one list (check_command.cpp, report_command.cpp).
#pragma once

#include "core/scalar.hpp"
#include "harness/size_profile.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace iclproof {

template <class Options>
class run_parameters {
 public:
  // A member nlohmann::json converts both ways (strings, numbers, bools, vectors of them).
  template <class T>
  run_parameters& add(const char* key, T Options::*member) {
    return add_as(
        key, member, [](const T& x) { return nlohmann::json(x); },
        [](const nlohmann::json& v) { return v.get<T>(); });
  }
  // An optional number: null when unset.
  run_parameters& add(const char* key, std::optional<int> Options::*member) {
    return add_as(
        key, member,
        [](const std::optional<int>& x) {
          return x ? nlohmann::json(*x) : nlohmann::json(nullptr);
        },
        [](const nlohmann::json& v) {
          return v.is_null() ? std::optional<int>() : std::optional<int>(v.get<int>());
        });
  }
  // A scalar kind, by its --scalar name.
  run_parameters& add(const char* key, scalar_kind Options::*member) {
    return add_named(key, member, &scalar_kind_name, &parse_scalar_kind, "scalar");
  }
  // A size profile, by its --size name.
  run_parameters& add(const char* key, size_profile Options::*member) {
    return add_named(key, member, &size_profile_name, &parse_size_profile, "size profile");
  }

  nlohmann::json to_json(const Options& o) const {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& f : fields_) j[f.key] = f.get(o);
    return j;
  }
  // Throws std::invalid_argument naming `what` ("a check run") on a missing or mistyped field.
  Options from_json(const nlohmann::json& j, const std::string& what) const {
    Options o;
    try {
      for (const auto& f : fields_) f.set(o, j.at(f.key));
    } catch (const nlohmann::json::exception& e) {
      throw std::invalid_argument("shard parameters of " + what + ": " + e.what());
    }
    return o;
  }

 private:
  template <class T, class To, class From>
  run_parameters& add_as(const char* key, T Options::*member, To to, From from) {
    fields_.push_back(
        {key, [member, to](const Options& o) { return to(o.*member); },
         [member, from](Options& o, const nlohmann::json& v) { o.*member = from(v); }});
    return *this;
  }
  // An enum written as its command-line name; `parse` returns nullopt for an unknown name.
  template <class T, class Name, class Parse>
  run_parameters& add_named(const char* key, T Options::*member, Name name, Parse parse,
                            const char* what) {
    return add_as(
        key, member, [name](const T& x) { return nlohmann::json(name(x)); },
        [parse, what](const nlohmann::json& v) {
          const auto parsed = parse(v.get<std::string>());
          if (!parsed) throw std::invalid_argument("unknown " + std::string(what) + " " + v.dump());
          return *parsed;
        });
  }
  struct field {
    std::string key;
    std::function<nlohmann::json(const Options&)> get;
    std::function<void(Options&, const nlohmann::json&)> set;
  };
  std::vector<field> fields_;
};

}  // namespace iclproof
