// iclproof-python-engine: the two commands of the Python package that the command line does not
// have (docs/python.md), linked from the same libraries as `iclproof`:
//   iclproof-python-engine verify REQUEST.json OUT.json   a user's construction
//       (python/user_construction.hpp) run as `check` runs a property: the same header, row,
//       failing case and check.json (written to OUT.json)
//   iclproof-python-engine list GLOB OUT.json              `iclproof list`'s fields as JSON
// Errors as the command line's: one line "iclproof: error: <message>" on stderr, exit 2.
#include "cli/check_command.hpp"
#include "harness/progress.hpp"
#include "harness/size_statement.hpp"
#include "python/user_construction.hpp"
#include "trust/property_trust.hpp"
#include "trust/trust_level.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace iclproof::python_binding {
namespace {

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(path + ": " + e.what());
  }
}

void write_json(const std::string& path, const nlohmann::json& j) {
  std::ofstream out(path);
  out << j.dump(2) << "\n";
  if (!out) throw std::runtime_error("cannot write " + path);
}

int verify_command(const std::string& request_path, const std::string& out_path) {
  const nlohmann::json request = read_json(request_path);
  const user_construction c = user_construction_from_json(request);
  try {
    set_progress_quiet(request.value("quiet", false));
    const std::string scalar_name = request.at("scalar").get<std::string>();
    const auto scalar = parse_scalar_kind(scalar_name);
    if (!scalar) throw std::invalid_argument("unknown scalar '" + scalar_name + "'");
    const std::optional<int> bits = request.at("bits").is_null()
                                        ? std::nullopt
                                        : std::optional<int>(request.at("bits").get<int>());
    return run_user_construction(c, *scalar, request.at("cases").get<int>(),
                                 request.at("seed").get<std::uint64_t>(), bits, out_path, {},
                                 request.at("reproduce").get<std::string>());
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("malformed verify request: ") + e.what());
  }
}

// The fields `iclproof list` prints (cli/list_command.cpp), one object per property.
int list_command(const std::string& glob, const std::string& out_path) {
  nlohmann::json out = nlohmann::json::array();
  for (const property* p : select_properties(glob)) {
    const claim_coverage& c = p->info.coverage;
    const trust_assessment reach = reachable_level(c, supported_modes(*p));
    nlohmann::json theorems = nlohmann::json::array();
    for (const auto& t : c.theorems)
      theorems.push_back({{"theorem", t.text()}, {"role", std::string(to_string(t.role))}});
    nlohmann::json runs_in = nlohmann::json::array(), not_in = nlohmann::json::object();
    for (scalar_kind k : all_scalar_kinds) {
      if (p->applies_in(k))
        runs_in.push_back(scalar_kind_name(k));
      else
        not_in[scalar_kind_name(k)] = p->not_applicable_reason(k);
    }
    out.push_back({{"name", p->info.name},
                   {"claim", p->info.claim},
                   {"kind", std::string(to_string(c.kind))},
                   {"theorems", theorems},
                   {"papers", c.papers},
                   {"coverage", c.coverage_text()},
                   {"fully_proved", c.fully_proved()},
                   {"can_reach", std::string(to_string(reach.level))},
                   {"limited_by", reach.limited_by},
                   {"runs_in", runs_in},
                   {"not_in", not_in},
                   {"sizes", size_statement_of(p->info.name)}});
  }
  write_json(out_path, out);
  return 0;
}

}  // namespace
}  // namespace iclproof::python_binding

int main(int argc, char** argv) {
  namespace b = iclproof::python_binding;
  try {
    const std::string command = argc > 1 ? argv[1] : "";
    if (command == "verify" && argc == 4) return b::verify_command(argv[2], argv[3]);
    if (command == "list" && argc == 4) return b::list_command(argv[2], argv[3]);
    throw std::invalid_argument(
        "usage: iclproof-python-engine verify REQUEST.json OUT.json | list GLOB OUT.json");
  } catch (const std::exception& e) {
    std::cerr << "iclproof: error: " << e.what() << "\n";
    return 2;
  }
}
