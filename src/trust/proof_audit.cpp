#include "trust/proof_audit.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <stdexcept>

namespace iclproof {

proof_audit proof_audit::load(const std::string& path) {
  proof_audit a;
  a.path = path;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read proof audit " + path);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error("proof audit " + path + " is not valid JSON (" + e.what() + ")");
  }
  if (!j.is_object() || !j.contains("theorems") || !j["theorems"].is_array())
    throw std::runtime_error("proof audit " + path + " has no \"theorems\" array");
  for (const auto& t : j["theorems"]) {
    if (!t.is_object() || !t.contains("file") || !t.contains("name") || !t.contains("status"))
      throw std::runtime_error("proof audit " + path +
                               ": every theorem needs \"file\", \"name\" and \"status\"");
    audited_theorem th;
    th.file = t["file"].get<std::string>();
    th.name = t["name"].get<std::string>();
    th.status = t["status"].get<std::string>();
    for (const auto& s : t.value("assumptions", nlohmann::json::array()))
      th.assumptions.push_back(s.is_string() ? s.get<std::string>() : s.dump());
    if (t.contains("kind")) {
      if (!t["kind"].is_string())
        throw std::runtime_error("proof audit " + path + ": \"kind\" of " + th.name +
                                 " is not a string");
      th.kind = t["kind"].get<std::string>();
    }
    a.theorems.push_back(std::move(th));
  }
  if (j.contains("statements")) {
    if (!j["statements"].is_array())
      throw std::runtime_error("proof audit " + path + ": \"statements\" is not an array");
    for (const auto& t : j["statements"]) {
      audited_statement st;
      auto field = [&](const char* key, std::string& to) {
        if (!t.is_object() || !t.contains(key) || !t[key].is_string())
          throw std::runtime_error("proof audit " + path + ": every statement needs \"" +
                                   std::string(key) + "\" (a string)");
        to = t[key].get<std::string>();
      };
      field("family", st.family);
      field("property", st.property);
      field("claim", st.claim);
      field("statement", st.statement);
      field("check", st.check);
      field("witness", st.witness);
      if (t.contains("check_reason") && t["check_reason"].is_string())
        st.check_reason = t["check_reason"].get<std::string>();
      a.statements.push_back(std::move(st));
    }
  }
  a.coq_version = j.value("coq_version", "");
  a.mathcomp_version = j.value("mathcomp_version", "");
  return a;
}

namespace {
std::string strip_proofs_prefix(const std::string& f) {
  return f.rfind("proofs/", 0) == 0 ? f.substr(7) : f;
}
}  // namespace

const audited_statement* proof_audit::find_statement(const std::string& property) const {
  for (const auto& s : statements)
    if (s.property == property) return &s;
  return nullptr;
}

const audited_theorem* proof_audit::find(const std::string& file, const std::string& name) const {
  for (const auto& t : theorems)
    if (t.name == name && strip_proofs_prefix(t.file) == strip_proofs_prefix(file)) return &t;
  return nullptr;
}

}  // namespace iclproof
