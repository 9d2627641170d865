#include "core/build_identity.hpp"

#include "core/eigen_scalar.hpp"

#include <fmt/format.h>
#include <gmp.h>
#include <mpfr.h>
#include <boost/version.hpp>
#include <nlohmann/json.hpp>

#ifndef ICLPROOF_VERSION
#define ICLPROOF_VERSION "unknown"
#endif

namespace iclproof {

// Written at build time by src/report/git_commit.cmake (a source of iclproof_core).
extern const char* const git_commit;

std::vector<std::pair<std::string, std::string>> compiled_in_versions() {
  std::vector<std::pair<std::string, std::string>> v;
  v.emplace_back("iclproof", ICLPROOF_VERSION);
  v.emplace_back("git_commit", git_commit);
#if defined(__clang__)
  v.emplace_back("compiler", std::string("clang ") + __clang_version__);
#elif defined(__GNUC__)
  v.emplace_back("compiler", std::string("gcc ") + __VERSION__);
#else
  v.emplace_back("compiler", "unknown");
#endif
  v.emplace_back("eigen", fmt::format("{}.{}.{}", EIGEN_WORLD_VERSION, EIGEN_MAJOR_VERSION,
                                      EIGEN_MINOR_VERSION));
  v.emplace_back("boost", fmt::format("{}.{}.{}", BOOST_VERSION / 100000,
                                      BOOST_VERSION / 100 % 1000, BOOST_VERSION % 100));
  v.emplace_back("mpfr", mpfr_get_version());
  v.emplace_back("gmp", gmp_version);
  v.emplace_back("fmt", fmt::format("{}.{}.{}", FMT_VERSION / 10000, FMT_VERSION / 100 % 100,
                                    FMT_VERSION % 100));
  v.emplace_back("nlohmann_json",
                 fmt::format("{}.{}.{}", NLOHMANN_JSON_VERSION_MAJOR, NLOHMANN_JSON_VERSION_MINOR,
                             NLOHMANN_JSON_VERSION_PATCH));
  return v;
}

}  // namespace iclproof
