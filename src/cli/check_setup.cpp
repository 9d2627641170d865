#include "cli/check_setup.hpp"

#include "cli/output_paths.hpp"
#include "core/precision.hpp"
#include "harness/result_text.hpp"
#include "trust/property_trust.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace iclproof {

namespace {
std::string shard_note(const check_options& opt) {
  if (opt.shard.whole()) return "";
  const auto [b, e] = shard_cases(opt.cases, opt.shard);
  return fmt::format(" (shard {}/{}: cases [{}, {}) of each property)", opt.shard.index,
                     opt.shard.count, b, e);
}

std::string read_text_file(const std::string& path, const std::string& what) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + what + " " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

check_setup prepare_check(const check_options& opt) {
  check_setup setup;
  if (opt.certified && opt.scalar != scalar_kind::mpfr)
    throw std::invalid_argument(
        "--certified chooses the scalar per property (exact, ball, interval, else MPFR); drop "
        "--scalar");
  if (opt.ci && opt.certified && opt.trust_levels_path.empty())
    throw std::invalid_argument(
        "--ci --certified needs --trust-levels FILE (the recorded levels, "
        "properties/trust_levels.txt)");
  if (!opt.trust_levels_path.empty() && !opt.certified)
    throw std::invalid_argument("--trust-levels applies to --certified runs only");
  // The output file first: a long run must not end in "cannot write".
  if (!opt.json_path.empty()) require_writable_file(opt.json_path, "--json");
  // Precision first: set once for the whole run, before any MPFR value exists.
  int& bits = setup.bits;
  setup.scalar = opt.certified ? "certified" : scalar_kind_name(opt.scalar);
  const std::string& scalar = setup.scalar;
  setup.exact = opt.scalar == scalar_kind::rational;
  const bool exact = setup.exact;
  if (opt.jobs < 1) throw std::invalid_argument("--jobs must be at least 1");
  if (opt.scalar == scalar_kind::mpfr) {
    bits = set_mpfr_precision(opt.precision_bits.value_or(default_precision_bits)).actual_bits;
  } else if (opt.scalar == scalar_kind::interval) {
    // The endpoints' precision is the MPFR setting (core/precision.hpp): report what they carry.
    set_mpfr_precision(opt.precision_bits.value_or(default_precision_bits));
    bits = scalar_traits<interval_real>::bits();
  } else if (opt.scalar == scalar_kind::ball) {
    // The balls' working precision is the MPFR setting too (core/precision.hpp).
    bits = set_mpfr_precision(opt.precision_bits.value_or(default_precision_bits)).actual_bits;
  } else if (exact) {
    if (opt.precision_bits)
      throw std::invalid_argument(fmt::format(
          "--precision {} does not apply to --scalar rational (exact); use --scalar mpfr",
          *opt.precision_bits));
  } else {
    bits = opt.scalar == scalar_kind::double_precision ? scalar_traits<double>::bits()
                                                       : scalar_traits<long double>::bits();
    if (opt.precision_bits && *opt.precision_bits != bits)
      throw std::invalid_argument(fmt::format(
          "--precision {} does not apply to --scalar {} (fixed at {} bits); use --scalar mpfr",
          *opt.precision_bits, scalar, bits));
  }
  setup.selected = select_properties(opt.property_glob);
  // Fail early (before any long work) on an unreadable audit or recorded-levels file.
  if (!opt.proof_audit_path.empty()) setup.audit = proof_audit::load(opt.proof_audit_path);
  if (!opt.trust_levels_path.empty())
    setup.recorded = parse_recorded_levels(read_text_file(opt.trust_levels_path, "trust levels"),
                                           opt.trust_levels_path);
  if (!opt.record_levels_path.empty())
    require_writable_file(opt.record_levels_path, "--record-levels");
  return setup;
}

void print_check_header(const check_options& opt, const check_setup& setup) {
  const int bits = setup.bits;
  const std::string& scalar = setup.scalar;
  const bool exact = setup.exact;
  const proof_audit& audit = setup.audit;
  if (exact)
    fmt::print(
        "iclproof check: scalar rational, exact arithmetic (eps = 0, every check is an equality), "
        "{} cases per property, seed {}, size {}{}\n",
        opt.cases, opt.seed, size_profile_name(opt.size), shard_note(opt));
  else
    fmt::print(
        "iclproof check: scalar {}, precision {} bits, eps = 2^{} = {}, {} cases per property, "
        "seed {}, size {}{}\n",
        scalar, bits, 1 - bits, format_pow2(1.0 - bits), opt.cases, opt.seed,
        size_profile_name(opt.size), shard_note(opt));
  if (opt.certified)
    fmt::print(
        "--certified: each property runs in its strongest mode (rational if it has an exact body "
        "and an exact claim, else the interval mode if it has an enclosure body: on Arb balls if "
        "it has a ball body, else on MPFI; else rational if it has an exact body (an "
        "approximation under a Qed bound compared exactly), else MPFR)\n");
  if (audit.path.empty())
    fmt::print("no --proof-audit: no property is `proved` in this run (shared/TRUST.md)\n");
  std::fflush(stdout);
}

std::vector<run_request> check_run_requests(const check_options& opt, const check_setup& setup) {
  std::vector<run_request> requests;
  for (const property* p : setup.selected) {
    run_request q;
    q.prop = p;
    q.cfg.scalar = opt.certified ? certified_scalar(*p) : opt.scalar;
    q.cfg.cases = opt.cases;
    q.cfg.seed = opt.seed;
    q.cfg.size = opt.size;
    if (q.cfg.scalar == scalar_kind::mpfr || q.cfg.scalar == scalar_kind::interval ||
        q.cfg.scalar == scalar_kind::ball)
      q.cfg.precision_bits = opt.precision_bits.value_or(default_precision_bits);
    q.id = p->info.name + " " + scalar_kind_name(q.cfg.scalar);
    requests.push_back(std::move(q));
  }
  return requests;
}

}  // namespace iclproof
