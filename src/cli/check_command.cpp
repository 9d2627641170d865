#include "cli/check_command.hpp"

#include "cli/output_paths.hpp"

#include "core/precision.hpp"

#include <fmt/format.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <stdexcept>

namespace iclproof {

namespace {

std::string format_log2(double log2_value) {
  if (std::isnan(log2_value)) return "NaN";
  if (std::isinf(log2_value)) return log2_value < 0 ? "0" : "inf";
  const double l10 = log2_value * std::log10(2.0);
  const double e = std::floor(l10);
  return fmt::format("{:.2f}e{:+d}", std::pow(10.0, l10 - e), static_cast<int>(e));
}

std::string format_margin(const property_result& r) {
  if (std::isnan(r.margin_log10)) return "n/a";
  if (std::isinf(r.margin_log10)) return r.margin_log10 > 0 ? "exact" : "-inf";
  return fmt::format("{:+.1f}", r.margin_log10);
}

nlohmann::json load_audit(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read proof audit " + path);
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error("proof audit " + path + " is not valid JSON: " + e.what());
  }
}

}  // namespace

proof_status lookup_proof_status(const std::string& theorem, const std::string& audit_path) {
  proof_status s;
  s.cited = theorem.rfind("proofs/", 0) == 0 && theorem.find(':') != std::string::npos;
  if (!s.cited) {
    s.status = "paper equation";
    return s;
  }
  if (audit_path.empty()) {
    s.status = "no audit";
    return s;
  }
  const nlohmann::json audit = load_audit(audit_path);
  const std::string file = theorem.substr(0, theorem.find(':'));
  const std::string name = theorem.substr(theorem.find(':') + 1);
  s.status = "not in audit";
  for (const auto& t : audit.value("theorems", nlohmann::json::array())) {
    if (t.value("file", "") == file && t.value("name", "") == name) {
      s.known = true;
      s.status = t.value("status", "failed");
      s.checked = s.status == "closed" || s.status == "standard-axioms";
    }
  }
  return s;
}

int run_list_command(const std::string& glob) {
  for (const property* p : select_properties(glob)) {
    fmt::print("{}\n  claim:   {}\n  checks:  {}\n", p->info.name, p->info.claim, p->info.theorem);
  }
  return 0;
}

int run_check_command(const check_options& opt) {
  // The output file first: a long run must not end in "cannot write".
  if (!opt.json_path.empty()) require_writable_file(opt.json_path, "--json");
  // Precision first: set once for the whole run, before any MPFR value exists.
  int bits = 0;
  if (opt.scalar == scalar_kind::mpfr) {
    bits = set_mpfr_precision(opt.precision_bits.value_or(default_precision_bits)).actual_bits;
  } else {
    bits = opt.scalar == scalar_kind::double_precision ? scalar_traits<double>::bits()
                                                       : scalar_traits<long double>::bits();
    if (opt.precision_bits && *opt.precision_bits != bits)
      throw std::invalid_argument(fmt::format(
          "--precision {} does not apply to --scalar {} (fixed at {} bits); use --scalar mpfr",
          *opt.precision_bits,
          opt.scalar == scalar_kind::double_precision ? "double" : "long-double", bits));
  }
  const std::vector<const property*> selected = select_properties(opt.property_glob);
  if (!opt.proof_audit_path.empty()) load_audit(opt.proof_audit_path);  // fail early if unreadable

  const bool tty = ::isatty(::fileno(stderr));
  const std::string scalar = opt.scalar == scalar_kind::mpfr               ? "mpfr"
                             : opt.scalar == scalar_kind::double_precision ? "double"
                                                                           : "long-double";
  fmt::print(
      "iclproof check: scalar {}, precision {} bits, eps = 2^{} = {}, {} cases per property, seed "
      "{}\n",
      scalar, bits, 1 - bits, format_log2(1.0 - bits), opt.cases, opt.seed);
  fmt::print("{:<58} {:>6} {:>10} {:>10} {:>10} {:>7}  {}\n", "property", "cases", "error",
             "tolerance", "maxerr/eps", "margin", "verdict");

  nlohmann::json results = nlohmann::json::array();
  int passed = 0, failed = 0;
  for (const property* p : selected) {
    run_config cfg;
    cfg.scalar = opt.scalar;
    cfg.cases = opt.cases;
    cfg.seed = opt.seed;
    if (tty)
      cfg.on_case = [&](int done) {
        std::fprintf(stderr, "\r  %-58s %d/%d cases", p->info.name.c_str(), done, opt.cases);
        std::fflush(stderr);
      };
    property_result r = run_property(*p, cfg);
    if (tty) std::fprintf(stderr, "\r%*s\r", 80, "");
    const proof_status ps = lookup_proof_status(p->info.theorem, opt.proof_audit_path);
    bool ok = r.outcome == verdict::pass;
    std::string verdict_text = to_string(r.outcome);
    if (ok && opt.ci && ps.cited && !opt.proof_audit_path.empty() && !ps.checked) {
      ok = false;
      verdict_text = "FAIL (proof " + ps.status + ")";
    }
    (ok ? passed : failed)++;
    fmt::print("{:<58} {:>6} {:>10} {:>10} {:>10} {:>7}  {}\n", r.info.name, r.cases,
               format_log2(r.worst_log2_err), format_log2(r.worst_log2_bound),
               std::isfinite(r.max_log2_err_in_eps) ? format_log2(r.max_log2_err_in_eps) : "0",
               format_margin(r), verdict_text);
    if (r.outcome != verdict::pass) {
      fmt::print("---- {}\n{}\n", r.info.name, r.failure);
      if (!r.counterexample.empty()) fmt::print("shrunk counterexample:\n{}", r.counterexample);
      fmt::print("reproduce: {}\n----\n", r.reproduce);
    }
    nlohmann::json j = {
        {"name", r.info.name},
        {"claim", r.info.claim},
        {"theorem", r.info.theorem},
        {"proof_status", ps.status},
        {"proof_checked", ps.checked},
        {"scalar", r.scalar},
        {"precision_bits", r.precision_bits},
        {"cases", r.cases},
        {"checks", r.checks},
        {"seed", r.seed},
        {"verdict", ok ? "pass" : "fail"},
        {"log2_max_error", std::isfinite(r.worst_log2_err) ? nlohmann::json(r.worst_log2_err)
                                                           : nlohmann::json(nullptr)},
        {"log2_tolerance", std::isfinite(r.worst_log2_bound) ? nlohmann::json(r.worst_log2_bound)
                                                             : nlohmann::json(nullptr)},
        {"margin_log10",
         std::isfinite(r.margin_log10) ? nlohmann::json(r.margin_log10) : nlohmann::json(nullptr)},
        {"seconds", r.seconds},
        {"failure", r.failure},
        {"counterexample", r.counterexample},
        {"reproduce", r.reproduce}};
    results.push_back(std::move(j));
  }
  if (!opt.json_path.empty()) {
    std::ofstream out(opt.json_path);
    if (!out) throw std::runtime_error("cannot write " + opt.json_path);
    out << nlohmann::json{{"schema", "iclproof-check/1"},
                          {"scalar", scalar},
                          {"precision_bits", bits},
                          {"cases", opt.cases},
                          {"seed", opt.seed},
                          {"properties", results}}
               .dump(2)
        << "\n";
    if (!out) throw std::runtime_error("cannot write " + opt.json_path);
  }
  fmt::print("{} passed, {} failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}

}  // namespace iclproof
