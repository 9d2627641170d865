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
    fields_.push_back({key, [member](const Options& o) { return nlohmann::json(o.*member); },
                       [member](Options& o, const nlohmann::json& v) { o.*member = v.get<T>(); }});
    return *this;
  }
  // An optional number: null when unset.
  run_parameters& add(const char* key, std::optional<int> Options::*member) {
    fields_.push_back({key,
                       [member](const Options& o) {
                         return o.*member ? nlohmann::json(*(o.*member)) : nlohmann::json(nullptr);
                       },
                       [member](Options& o, const nlohmann::json& v) {
                         if (!v.is_null()) o.*member = v.get<int>();
                       }});
    return *this;
  }
  // A scalar kind, by its --scalar name.
  run_parameters& add(const char* key, scalar_kind Options::*member) {
    fields_.push_back(
        {key, [member](const Options& o) { return nlohmann::json(scalar_kind_name(o.*member)); },
         [member](Options& o, const nlohmann::json& v) {
           const auto kind = parse_scalar_kind(v.get<std::string>());
           if (!kind) throw std::invalid_argument("unknown scalar " + v.dump());
           o.*member = *kind;
         }});
    return *this;
  }
  // A size profile, by its --size name.
  run_parameters& add(const char* key, size_profile Options::*member) {
    fields_.push_back(
        {key, [member](const Options& o) { return nlohmann::json(size_profile_name(o.*member)); },
         [member](Options& o, const nlohmann::json& v) {
           const auto size = parse_size_profile(v.get<std::string>());
           if (!size) throw std::invalid_argument("unknown size profile " + v.dump());
           o.*member = *size;
         }});
    return *this;
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
  struct field {
    std::string key;
    std::function<nlohmann::json(const Options&)> get;
    std::function<void(Options&, const nlohmann::json&)> set;
  };
  std::vector<field> fields_;
};

}  // namespace iclproof
