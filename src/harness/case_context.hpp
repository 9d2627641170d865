// case_context: what a property's body checks with (check_le, compare, require and their proved,
// hand-derived and interval forms), the inputs it notes for failure messages, and the statistics
// of its checks (harness/check_statistics.hpp).
#pragma once

#include "core/eigen_scalar.hpp"
#include "core/scalar.hpp"
#include "harness/check_statistics.hpp"

#include <rapidcheck.h>

#include <array>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace iclproof {

// Accumulates the checks of one property run (all its cases) and carries the context that
// failure messages need. One check = one comparison err <= bound in the working precision.
class case_context {
 public:
  case_context(std::string property_name, std::uint64_t seed, std::string scalar_name, int bits)
      : property_(std::move(property_name)),
        seed_(seed),
        scalar_(std::move(scalar_name)),
        bits_(bits) {}

  // Called by the runner before each case.
  void begin_case() {
    inputs_.clear();
    stage_ = "the start of the case (before any check)";
    ++cases_;
  }

  // Text describing this case's inputs; repeated verbatim in a failure message.
  void note(std::string_view key, std::string_view value) {
    inputs_ += std::string(key) + " = " + std::string(value) + "\n";
  }
  template <class V>
  void note_value(std::string_view key, const V& v) {
    std::ostringstream os;
    os << v;
    note(key, os.str());
  }

  // Fails (RapidCheck failure, then shrinking) unless err <= bound. NaN fails. Both sides must
  // be non-negative (an error and a tolerance): a signed left side passes trivially and makes
  // the margin log2|bound| - log2|err| meaningless, so it fails as a misuse.
  // On interval_real both are enclosures and the check is certified (check_le_enclosed): it
  // passes iff the upper end of err's enclosure is <= the LOWER end of bound's; a bound given
  // through plain check_le counts as hand-derived (use check_le_proved to cite a Qed lemma).
  template <class T>
  void check_le(std::string_view label, const T& err, const T& bound,
                const std::function<std::string()>& values = {}) {
    if constexpr (std::is_same_v<T, interval_real>) {
      check_le_enclosed(label, err, bound, false, "unnamed bound: " + std::string(label), values);
    } else if constexpr (is_ball_scalar<T>) {
      check_le_enclosed(label, to_interval_enclosure(err), to_interval_enclosure(bound), false,
                        "unnamed bound: " + std::string(label), values);
    } else {
      stage_ = label;
      if (err < T(0) || bound < T(0)) {
        record(std::numeric_limits<double>::quiet_NaN(), log2_abs(bound), log2_abs(eps<T>()),
               false);
        fail(label, full_digits(err), full_digits(bound),
             "check_le compares a non-negative error with a non-negative tolerance; a signed "
             "claim belongs in a rearranged check\n");
      }
      if constexpr (is_exact_scalar<T>) {
        // Exact arithmetic: the claim is equality, so a nonzero tolerance is a misuse.
        if (bound != T(0)) {
          record(std::numeric_limits<double>::quiet_NaN(), log2_abs(bound), log2_abs(eps<T>()),
                 false);
          fail(label, full_digits(err), full_digits(bound),
               "an exact scalar checks equality: the tolerance must be 0 (tolerance<T>)\n");
        }
      }
      const bool ok = err <= bound;
      record(log2_abs(err), log2_abs(bound), log2_abs(eps<T>()), ok);
      if (!ok) fail(label, full_digits(err), full_digits(bound), values ? values() : std::string());
    }
  }

  // err <= bound where the bound is the statement of a Qed lemma (named "proofs/File.v:lemma"),
  // or derived by hand (named by what derives it: a comment, a paper). On floating-point
  // scalars both behave as check_le and record the backing; on interval_real the check is
  // certified and the backing decides what the verdict may claim (a hand-derived bound never
  // makes the property "proved + enclosed"). On the exact scalar a Qed bound (and only a Qed
  // bound) may be nonzero: both sides are exact, so the comparison is certified with no
  // tolerance (a point enclosure) and counts as an enclosed check; a failure is a certificate.
  template <class T>
  void check_le_proved(std::string_view label, const T& err, const T& bound,
                       const std::string& lemma, const std::function<std::string()>& values = {}) {
    if constexpr (std::is_same_v<T, interval_real>) {
      check_le_enclosed(label, err, bound, true, lemma, values);
    } else if constexpr (is_ball_scalar<T>) {
      check_le_enclosed(label, to_interval_enclosure(err), to_interval_enclosure(bound), true,
                        lemma, values);
    } else if constexpr (is_exact_scalar<T>) {
      stage_ = label;
      proved_bounds_.insert(lemma);
      if (err < T(0) || bound < T(0)) {
        record(std::numeric_limits<double>::quiet_NaN(), log2_abs(bound), log2_abs(eps<T>()),
               false);
        fail(label, full_digits(err), full_digits(bound),
             "check_le_proved compares a non-negative error with a non-negative bound\n");
      }
      ++enclosed_checks_;
      const bool ok = err <= bound;
      record(log2_abs(err), log2_abs(bound), log2_abs(eps<T>()), ok);
      if (!ok)
        fail(label, full_digits(err), full_digits(bound),
             "CERTIFIED FAIL: in exact rationals the error exceeds the Qed bound " + lemma + "\n" +
                 (values ? values() : std::string()));
    } else {
      proved_bounds_.insert(lemma);
      check_le<T>(label, err, bound, values);
    }
  }
  template <class T>
  void check_le_hand_derived(std::string_view label, const T& err, const T& bound,
                             const std::string& derivation,
                             const std::function<std::string()>& values = {}) {
    if constexpr (std::is_same_v<T, interval_real>) {
      check_le_enclosed(label, err, bound, false, derivation, values);
    } else if constexpr (is_ball_scalar<T>) {
      check_le_enclosed(label, to_interval_enclosure(err), to_interval_enclosure(bound), false,
                        derivation, values);
    } else {
      hand_derived_bounds_.insert(derivation);
      check_le<T>(label, err, bound, values);
    }
  }

  // Interval mode: an exact identity holds on this case iff every entry of the enclosure of
  // computed - reference contains 0. A failure is a certificate: the enclosure excludes 0.
  // The enclosure's width (in eps) is recorded, not a tolerance.
  void check_identity(std::string_view label, const Mat<interval_real>& computed,
                      const Mat<interval_real>& reference);
  void check_identity(std::string_view label, const interval_real& computed,
                      const interval_real& reference);
  // Ball mode (core/ball.hpp): the same check on the balls' outward MPFI enclosures, so a ball
  // identity is held to exactly the interval standard.
  template <class B>
  requires is_ball_scalar<B>
  void check_identity(std::string_view label, const Mat<B>& computed, const Mat<B>& reference) {
    check_identity(label, to_interval_enclosure(computed), to_interval_enclosure(reference));
  }
  template <class B>
  requires is_ball_scalar<B>
  void check_identity(std::string_view label, const B& computed, const B& reference) {
    check_identity(label, to_interval_enclosure(computed), to_interval_enclosure(reference));
  }

  // Entrywise comparison: max_ij |computed - reference| <= bound. On interval_real an entrywise
  // comparison is an exact identity (its tolerance models floating-point rounding, which the
  // enclosures already contain): check_identity, the bound is not used.
  template <class T>
  void compare(std::string_view label, const Mat<T>& computed, const Mat<T>& reference,
               const T& bound) {
    if (computed.rows() != reference.rows() || computed.cols() != reference.cols()) {
      stage_ = label;
      record(std::numeric_limits<double>::quiet_NaN(), log2_abs(bound), log2_abs(eps<T>()), false);
      fail(label, "shape mismatch", full_digits(bound),
           "computed " + std::to_string(computed.rows()) + "x" + std::to_string(computed.cols()) +
               ", reference " + std::to_string(reference.rows()) + "x" +
               std::to_string(reference.cols()));
    }
    if constexpr (is_interval_scalar<T>) {  // interval_real or ball_real
      check_identity(label, computed, reference);
    } else {
      const Mat<T> diff = computed - reference;
      check_le<T>(label, max_abs(diff), bound, [&] {
        return "computed =\n" + matrix_full_digits(computed) + "reference =\n" +
               matrix_full_digits(reference);
      });
    }
  }

  // Where the body is (for "ambiguous interval comparison at <stage>"); every check sets it to
  // its label, and a body may name a stage before long work.
  void stage(std::string_view where) { stage_ = where; }
  const std::string& current_stage() const { return stage_; }
  // Turns an ambiguous interval comparison thrown by the body into a failure (never a guess).
  [[noreturn]] void fail_ambiguous(const std::string& what);

  // A claim with no tolerance (exact integers, booleans).
  void require(std::string_view label, bool ok, const std::string& details);

  template <class T>
  static std::string matrix_full_digits(const Mat<T>& m) {
    std::string s;
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
      s += "  [";
      for (Eigen::Index j = 0; j < m.cols(); ++j) s += (j ? ", " : "") + full_digits(m(i, j));
      s += "]\n";
    }
    return s;
  }

  // Summary over all checks so far.
  int cases() const { return cases_; }
  long checks() const { return checks_; }
  // The check with the smallest margin log2(bound) - log2(err).
  double worst_log2_err() const { return worst_log2_err_; }
  double worst_log2_bound() const { return worst_log2_bound_; }
  double max_log2_err_in_eps() const { return max_err_in_eps_; }
  double log2_eps() const { return log2_eps_; }
  bool any_failed() const { return failed_; }
  // The summary so far as a value, and the merge of a later block's summary into this one (as
  // if its checks had been recorded here after ours: the worst check stays the first of the
  // smallest margins, a NaN stays worst, sets are united, counts added).
  check_stats stats() const;
  void absorb(const check_stats& later);
  // What backed the bounds of the checks so far (for the trust level): Qed lemmas cited through
  // check_le_proved, and hand-derived bounds (check_le_hand_derived, or plain check_le on
  // intervals). Checks of floating-point tolerances (rounding models) appear in neither.
  const std::set<std::string>& proved_bounds() const { return proved_bounds_; }
  const std::set<std::string>& hand_derived_bounds() const { return hand_derived_bounds_; }
  // Interval mode: identity checks made, certified (enclosed) bound checks made, and the widest
  // enclosure seen (log2 of hi - lo in eps; -inf if every enclosure was a point).
  long identity_checks() const { return identity_checks_; }
  long enclosed_checks() const { return enclosed_checks_; }
  double max_log2_width_in_eps() const { return max_width_in_eps_; }
  // The worst comparison of each check label so far.
  const std::map<std::string, check_margin>& by_check() const { return by_check_; }

 private:
  void check_le_enclosed(std::string_view label, const interval_real& err,
                         const interval_real& bound, bool proved, const std::string& backing,
                         const std::function<std::string()>& values);
  void note_width(const interval_real& x);
  void record(double log2_err, double log2_bound, double log2_eps, bool ok);
  [[noreturn]] void fail(std::string_view label, const std::string& err, const std::string& bound,
                         const std::string& values);

  std::string property_;
  std::uint64_t seed_;
  std::string scalar_;
  int bits_;
  std::string inputs_;
  int cases_ = 0;
  long checks_ = 0;
  bool failed_ = false;
  bool have_worst_ = false;
  double worst_log2_err_ = -std::numeric_limits<double>::infinity();
  double worst_log2_bound_ = -std::numeric_limits<double>::infinity();  // "0": exact claims only
  double max_err_in_eps_ = -std::numeric_limits<double>::infinity();
  double log2_eps_ = 0;
  bool have_log2_eps_ = false;
  double last_log2_err_ = 0;
  double last_log2_bound_ = 0;
  std::string stage_ = "the start of the case (before any check)";
  std::set<std::string> proved_bounds_, hand_derived_bounds_;
  long identity_checks_ = 0;
  long enclosed_checks_ = 0;
  double max_width_in_eps_ = -std::numeric_limits<double>::infinity();
  std::map<std::string, check_margin> by_check_;  // keyed by the check's label (stage_)
};

}  // namespace iclproof
