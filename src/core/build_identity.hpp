// The identity of this build: iclproof's version and git commit, the compiler, and the versions
// of the libraries compiled in (Eigen, Boost, MPFR, GMP, fmt, nlohmann_json). Shard files record
// it (runs of one sharded job must come from one build); `iclproof --version` and the report's
// tools table print it with the external tools' versions (report/report_model.hpp).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace iclproof {

// Name -> version, in the order printed: iclproof, git_commit, compiler, eigen, boost, mpfr, gmp,
// fmt, nlohmann_json.
std::vector<std::pair<std::string, std::string>> compiled_in_versions();

}  // namespace iclproof
