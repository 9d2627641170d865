#include "harness/case_context.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace iclproof {

void case_context::record(double log2_err, double log2_bound, double log2_eps, bool ok) {
  ++checks_;
  log2_eps_ = log2_eps;
  have_log2_eps_ = true;
  last_log2_err_ = log2_err;
  last_log2_bound_ = log2_bound;
  if (!ok) failed_ = true;
  // The worst check is the one with the smallest margin; a NaN margin (a NaN error) is worst of
  // all and stays worst, so the summary shows it.
  const double margin = log2_margin(log2_err, log2_bound);
  const double worst_margin = log2_margin(worst_log2_err_, worst_log2_bound_);
  const bool worst_is_nan = have_worst_ && std::isnan(worst_margin);
  if (!worst_is_nan && (!have_worst_ || std::isnan(margin) || margin < worst_margin)) {
    worst_log2_err_ = log2_err;
    worst_log2_bound_ = log2_bound;
  }
  have_worst_ = true;
  // Exact scalar (eps = 0, log2_eps = -inf): an error is 0 or infinitely many eps.
  const double in_eps = log2_eps == -std::numeric_limits<double>::infinity()
                            ? (log2_err == -std::numeric_limits<double>::infinity()
                                   ? -std::numeric_limits<double>::infinity()
                                   : std::numeric_limits<double>::infinity())
                            : log2_err - log2_eps;
  if (std::isnan(in_eps) || in_eps > max_err_in_eps_) max_err_in_eps_ = in_eps;
  // Every recording check set stage_ to its label first (check_le, check_le_enclosed; compare
  // through check_le, or before it on a shape mismatch).
  keep_worst(by_check_[stage_], log2_err, log2_bound);
}

check_stats case_context::stats() const {
  check_stats s;
  s.cases = cases_;
  s.checks = checks_;
  s.failed = failed_;
  s.have_worst = have_worst_;
  s.worst_log2_err = worst_log2_err_;
  s.worst_log2_bound = worst_log2_bound_;
  s.max_err_in_eps = max_err_in_eps_;
  s.log2_eps = log2_eps_;
  s.have_log2_eps = have_log2_eps_;
  s.proved_bounds = proved_bounds_;
  s.hand_derived_bounds = hand_derived_bounds_;
  s.identity_checks = identity_checks_;
  s.enclosed_checks = enclosed_checks_;
  s.max_width_in_eps = max_width_in_eps_;
  s.by_check = by_check_;
  return s;
}

void case_context::absorb(const check_stats& later) {
  cases_ += later.cases;
  checks_ += later.checks;
  failed_ = failed_ || later.failed;
  if (later.have_log2_eps) {
    log2_eps_ = later.log2_eps;
    have_log2_eps_ = true;
  }
  // The same rule as record(), applied to the later block's worst check.
  if (later.have_worst) {
    const double margin = log2_margin(later.worst_log2_err, later.worst_log2_bound);
    const double worst_margin = log2_margin(worst_log2_err_, worst_log2_bound_);
    const bool worst_is_nan = have_worst_ && std::isnan(worst_margin);
    if (!worst_is_nan && (!have_worst_ || std::isnan(margin) || margin < worst_margin)) {
      worst_log2_err_ = later.worst_log2_err;
      worst_log2_bound_ = later.worst_log2_bound;
    }
    have_worst_ = true;
  }
  if (std::isnan(later.max_err_in_eps) || later.max_err_in_eps > max_err_in_eps_)
    max_err_in_eps_ = later.max_err_in_eps;
  if (std::isnan(later.max_width_in_eps) || later.max_width_in_eps > max_width_in_eps_)
    max_width_in_eps_ = later.max_width_in_eps;
  proved_bounds_.insert(later.proved_bounds.begin(), later.proved_bounds.end());
  hand_derived_bounds_.insert(later.hand_derived_bounds.begin(), later.hand_derived_bounds.end());
  identity_checks_ += later.identity_checks;
  enclosed_checks_ += later.enclosed_checks;
  for (const auto& [label, m] : later.by_check) {
    check_margin& mine = by_check_[label];
    const long before = mine.checks;
    keep_worst(mine, m.worst_log2_err, m.worst_log2_bound);
    mine.checks = before + m.checks;
  }
}

void case_context::require(std::string_view label, bool ok, const std::string& details) {
  ++checks_;
  if (!ok) {
    failed_ = true;
    fail(label, "claim false", "claim true", details);
  }
}

void case_context::fail(std::string_view label, const std::string& err, const std::string& bound,
                        const std::string& values) {
  if (log2_eps_ == -std::numeric_limits<double>::infinity()) {  // exact scalar: eps = 0
    RC_FAIL(fmt::format(
        "{}: check '{}' failed\n  scalar {} (exact arithmetic: equality, or an inequality against "
        "a Qed bound, compared exactly), property seed {}\n  error     = {}\n  tolerance = {}\n"
        "inputs:\n{}{}",
        property_, label, scalar_, seed_, err, bound, inputs_, values));
  }
  const double err_eps = last_log2_err_ - log2_eps_;
  const double bound_eps = last_log2_bound_ - log2_eps_;
  std::string msg = fmt::format(
      "{}: check '{}' failed\n  scalar {} at {} bits, eps = 2^{}, property seed {}\n"
      "  error     = {}\n  tolerance = {}\n  (error = 2^{:.2f} eps, tolerance = 2^{:.2f} eps)\n"
      "inputs:\n{}{}",
      property_, label, scalar_, bits_, static_cast<long>(log2_eps_), seed_, err, bound, err_eps,
      bound_eps, inputs_, values);
  RC_FAIL(msg);
}

void case_context::note_width(const interval_real& x) {
  const double w = log2_width_in_eps(x);
  if (std::isnan(w) || w > max_width_in_eps_) max_width_in_eps_ = w;
}

void case_context::check_le_enclosed(std::string_view label, const interval_real& err,
                                     const interval_real& bound, bool proved,
                                     const std::string& backing,
                                     const std::function<std::string()>& values) {
  stage_ = label;
  (proved ? proved_bounds_ : hand_derived_bounds_).insert(backing);
  note_width(err);
  note_width(bound);
  const mpfr_real err_lo = lower(err), err_hi = upper(err);
  const mpfr_real b_lo = lower(bound), b_hi = upper(bound);
  const double l2eps = 1.0 - scalar_traits<interval_real>::bits();
  // The conservative sides: the error's upper end against the bound's lower end.
  const double l2e = log2_abs(err_hi);
  const double l2b = b_lo > 0 ? log2_abs(b_lo) : -std::numeric_limits<double>::infinity();
  const std::string kind =
      std::string(proved ? "Qed bound " : "hand-derived bound (not a Qed lemma) ") + backing;
  auto detail = [&](const std::string& head) {
    return head + "\n  error enclosure = " + full_digits(err) +
           "\n  bound enclosure = " + full_digits(bound) + "\n  bound: " + kind + "\n" +
           (values ? values() : std::string());
  };
  if (!(err_lo >= 0) || !(b_hi >= 0)) {
    record(std::numeric_limits<double>::quiet_NaN(), l2b, l2eps, false);
    fail(label, full_digits(err), full_digits(bound),
         detail("check_le compares the enclosure of a non-negative error with a non-negative "
                "bound (or an enclosure is NaN)"));
  }
  if (is_point(bound) && b_hi == 0) {
    // |e| <= 0 states e = 0: an identity, held to the identity standard (0 in the enclosure).
    ++identity_checks_;
    ++checks_;
    if (err_lo == 0) return;
    failed_ = true;
    fail(label, full_digits(err), full_digits(bound),
         detail("CERTIFIED FAIL: the enclosure " + full_digits(err) + " of " + std::string(label) +
                " excludes 0 (the bound is exactly 0)"));
  }
  ++enclosed_checks_;
  const bool ok = err_hi <= b_lo;
  record(l2e, l2b, l2eps, ok);
  if (ok) return;
  if (err_lo > b_hi)
    fail(label, full_digits(err), full_digits(bound),
         detail("CERTIFIED FAIL: the enclosure " + full_digits(err) + " of " + std::string(label) +
                " lies above the bound's enclosure " + full_digits(bound) +
                ": the construction violates the bound"));
  fail(label, full_digits(err), full_digits(bound),
       detail("INCONCLUSIVE (counted as FAIL): the enclosure of " + std::string(label) +
              " overlaps the bound's enclosure; a higher precision may decide it"));
}

namespace {
void append_entry(std::string& s, Eigen::Index i, Eigen::Index j, const interval_real& c,
                  const interval_real& r, const interval_real& d) {
  s += fmt::format("  entry ({}, {}): computed {}\n    reference {}\n    difference {}\n", i, j,
                   full_digits(c), full_digits(r), full_digits(d));
}
}  // namespace

void case_context::check_identity(std::string_view label, const Mat<interval_real>& computed,
                                  const Mat<interval_real>& reference) {
  stage_ = label;
  ++identity_checks_;
  ++checks_;
  if (computed.rows() != reference.rows() || computed.cols() != reference.cols()) {
    failed_ = true;
    fail(label, "shape mismatch", "identity", "");
  }
  std::string excluded;
  for (Eigen::Index j = 0; j < computed.cols(); ++j)
    for (Eigen::Index i = 0; i < computed.rows(); ++i) {
      const interval_real d = computed(i, j) - reference(i, j);
      note_width(d);
      if (!contains_zero(d) && excluded.empty()) {
        excluded = "CERTIFIED FAIL: the enclosure " + full_digits(d) + " of " + std::string(label) +
                   " excludes 0: the identity is false on this input\n";
        append_entry(excluded, i, j, computed(i, j), reference(i, j), d);
      }
    }
  if (!excluded.empty()) {
    failed_ = true;
    fail(label, "enclosure excludes 0", "enclosure contains 0", excluded);
  }
}

void case_context::check_identity(std::string_view label, const interval_real& computed,
                                  const interval_real& reference) {
  Mat<interval_real> a(1, 1), b(1, 1);
  a(0, 0) = computed;
  b(0, 0) = reference;
  check_identity(label, a, b);
}

void case_context::fail_ambiguous(const std::string& what) {
  failed_ = true;
  std::string msg = fmt::format(
      "{}: ambiguous interval comparison at {}\n  {}\n  scalar {} at {} bits, property seed {}\n"
      "  (the enclosures overlap, so the branch the code takes is not determined: a failure, "
      "never a guess)\ninputs:\n{}",
      property_, stage_, what, scalar_, bits_, seed_, inputs_);
  RC_FAIL(msg);
}

}  // namespace iclproof
