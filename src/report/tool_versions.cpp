// The versions of iclproof, its libraries (core/build_identity.hpp) and its external tools (Coq,
// mathcomp, gnuplot), for `iclproof --version` and the report's tools table.
#include "report/report_model.hpp"

#include "core/build_identity.hpp"

#include <array>
#include <cstdio>
#include <memory>

namespace iclproof {

namespace {
// First line of a command's stdout, trimmed; "" if it cannot run.
std::string first_line_of(const std::string& command) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen((command + " 2>/dev/null").c_str(), "r"),
                                             ::pclose);
  if (!pipe) return "";
  std::array<char, 512> buf{};
  std::string line;
  if (std::fgets(buf.data(), buf.size(), pipe.get())) line = buf.data();
  while (std::fgets(buf.data(), buf.size(), pipe.get())) {
  }
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r' || line.back() == ' '))
    line.pop_back();
  return line;
}
std::string or_unavailable(const std::string& s) { return s.empty() ? "unavailable" : s; }
}  // namespace

std::vector<std::pair<std::string, std::string>> collect_tool_versions(const proof_audit& audit) {
  std::vector<std::pair<std::string, std::string>> v = compiled_in_versions();
  // Coq: the audit's own record if it carries one (it is what checked the proofs), else the
  // coqc on PATH ("8.16.1 4.13.1": Coq then OCaml).
  std::string coq = audit.coq_version;
  if (const auto at = coq.find("version ");
      at != std::string::npos) {  // "The Coq ..., version 8.16.1"
    coq = coq.substr(at + 8);
    coq = coq.substr(0, coq.find(' '));
  }
  if (coq.empty()) {
    coq = first_line_of("coqc --print-version");
    coq = coq.substr(0, coq.find(' '));
  }
  v.emplace_back("coq", or_unavailable(coq));
  std::string mathcomp = audit.mathcomp_version;
  if (mathcomp.empty())
    mathcomp = first_line_of("dpkg-query -W -f='${Version}' libcoq-mathcomp-ssreflect");
  if (mathcomp.empty())
    mathcomp =
        first_line_of("opam list --installed --short --columns=version coq-mathcomp-ssreflect");
  v.emplace_back("mathcomp", or_unavailable(mathcomp));
  v.emplace_back("gnuplot", or_unavailable(first_line_of("gnuplot --version")));
  return v;
}

}  // namespace iclproof
