// A property: a named claim, what backs it (the Coq theorems it cites with their roles, paper
// equations, and the part no theorem states: trust/claim_coverage.hpp), and a body that draws
// its inputs through RapidCheck, computes in the scalar T, and checks `err <= bound` for
// bounds that are formulas in eps = 2^(1-p), the sizes and the data's scale.
//
// Define one with (and `using namespace iclproof::cite;`)
//   ICLPROOF_PROPERTY(sm_ridge, "references.sherman_morrison_equals_ridge",
//                     "Iterated Sherman-Morrison from A0 = lambda I equals ridge.",
//                     exact_identity(identity("proofs/ShermanMorrison.v:iterated_sm_ridge"))) {
//     const task_spec spec = *gen_task_spec(ranges);   // draws shrink
//     ...
//     ctx.compare("w", w_sm, w_ridge, bound);           // or ctx.check_le(label, err, bound)
//   }
// The body is a template on T and is instantiated for double, long double and mpfr_real.
#pragma once

#include "core/eigen_scalar.hpp"
#include "core/scalar.hpp"
#include "harness/size_statement.hpp"
#include "trust/claim_coverage.hpp"

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

struct property_info {
  std::string name;         // "family.what_it_checks"
  std::string claim;        // one sentence stating the identity
  claim_coverage coverage;  // cited theorems with roles, papers, and what is not proved
  std::string family() const { return name.substr(0, name.find('.')); }
};

// Accumulates the checks of one property run (all its cases) and carries the context that
// failure messages need. One check = one comparison err <= bound in the working precision.
// log2(bound / err) of one check, from log2|err| and log2|bound|. An error of exactly zero meets
// every tolerance, including a zero one, so its margin is +inf ("exact") rather than the NaN that
// -inf - (-inf) would give; NaN only when err or bound is NaN (such a check fails anyway).
double log2_margin(double log2_err, double log2_bound);

// The worst (smallest-margin) comparison among the checks of one label: the label names a check
// of a property ("W_sherman_morrison vs W_ridge", "layer 2 (...): local error ..."), and every
// case makes it again. The sharpness gate judges each label against its own limit
// (harness/sharpness.hpp), since a property's worst check says nothing of its other checks.
struct check_margin {
  long checks = 0;
  double worst_log2_err = -std::numeric_limits<double>::infinity();
  double worst_log2_bound = -std::numeric_limits<double>::infinity();
};
// Makes (log2_err, log2_bound) the worst of `m` if its margin is smaller (the rule of
// case_context's worst check: a NaN margin is worst and stays worst), and counts the check.
void keep_worst(check_margin& m, double log2_err, double log2_bound);

// The summary of the checks of some cases, as a value: what a block of cases run elsewhere (a
// worker process, a shard) sends back. Merging blocks in case order with case_context::absorb
// gives exactly what running all their cases in one context would have given.
struct check_stats {
  int cases = 0;
  long checks = 0;
  bool failed = false;
  bool have_worst = false;
  double worst_log2_err = -std::numeric_limits<double>::infinity();
  double worst_log2_bound = -std::numeric_limits<double>::infinity();
  double max_err_in_eps = -std::numeric_limits<double>::infinity();
  double log2_eps = 0;
  bool have_log2_eps = false;  // some check recorded eps
  std::set<std::string> proved_bounds, hand_derived_bounds;
  long identity_checks = 0;
  long enclosed_checks = 0;
  double max_width_in_eps = -std::numeric_limits<double>::infinity();
  // The worst comparison of each check label (check_le, compare and their proved, hand-derived
  // and interval forms; `require` has no tolerance and is not listed).
  std::map<std::string, check_margin> by_check;
};

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
    if constexpr (std::is_same_v<T, interval_real>) {
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

using property_body = std::function<void(case_context&)>;

// A property holds one body per scalar kind (indexed by scalar_kind). A kind without a body is
// "not applicable" there, with the reason shown wherever the property's result is shown (e.g.
// "uses exp: no exact rational form"); the runner reports it as such, never as a pass or a fail.
struct property {
  property_info info;
  std::array<property_body, n_scalar_kinds> bodies;
  std::array<std::string, n_scalar_kinds> not_applicable_reasons;  // where bodies[k] is empty

  bool applies_in(scalar_kind k) const { return static_cast<bool>(bodies[index_of(k)]); }
  const property_body& body(scalar_kind k) const { return bodies[index_of(k)]; }
  const std::string& not_applicable_reason(scalar_kind k) const {
    return not_applicable_reasons[index_of(k)];
  }
  static std::size_t index_of(scalar_kind k) { return static_cast<std::size_t>(k); }
};

// All registered properties, in name order, with every body and reason attached.
const std::vector<property>& all_properties();

// The reason shown for a kind that has neither a body nor a reason of its own.
std::string default_not_applicable_reason(scalar_kind k);

// Registers a property with the bodies listed (kind, body); more bodies and reasons may be
// added by name from any translation unit (property_body_registrar,
// property_not_applicable_registrar): they are attached when all_properties() is first called,
// and one naming no registered property is a logic_error then.
struct property_registrar {
  property_registrar(property_info info,
                     std::initializer_list<std::pair<scalar_kind, property_body>> bodies);
};
struct property_body_registrar {
  property_body_registrar(std::string name, scalar_kind kind, property_body body);
};
struct property_not_applicable_registrar {
  property_not_applicable_registrar(std::string name, scalar_kind kind, std::string reason);
};

}  // namespace iclproof

// One translation unit per scalar (issue 14, item 4). properties/CMakeLists.txt compiles each
// properties/<f>.cpp that defines properties once per part, with ICLPROOF_PROPERTY_PART set:
//   1  the property infos, the double bodies, the not-applicable reasons (ICLPROOF_NOT_APPLICABLE)
//      and everything else the file defines;
//   2  the long double bodies only;
//   3  the mpfr_real bodies only;
//   4  the bodies added with ICLPROOF_PROPERTY_BODY (rational_real, interval_real) and the
//      exact properties (ICLPROOF_EXACT_PROPERTY) with their reasons.
// Parts 2-4 must therefore define no registrar of their own outside these macros (the CMake
// rejects a split file that does). Undefined (0, e.g. an external family or tests/verdict):
// every body in one translation unit. Each part registers its bodies by the property's name;
// all_properties() attaches them whatever the order of static initialisation.
#ifndef ICLPROOF_PROPERTY_PART
#define ICLPROOF_PROPERTY_PART 0
#endif
#if ICLPROOF_PROPERTY_PART < 0 || ICLPROOF_PROPERTY_PART > 4
#error "ICLPROOF_PROPERTY_PART must be 0 (all), 1, 2, 3 or 4"
#endif
// Which part the macros below were defined for (this header is included once per translation
// unit, so in a unity unit of several parts the first inclusion decides; the generated part
// files check this marker).
#if ICLPROOF_PROPERTY_PART == 0
#define ICLPROOF_PROPERTY_MACROS_OF_PART_0
#elif ICLPROOF_PROPERTY_PART == 1
#define ICLPROOF_PROPERTY_MACROS_OF_PART_1
#elif ICLPROOF_PROPERTY_PART == 2
#define ICLPROOF_PROPERTY_MACROS_OF_PART_2
#elif ICLPROOF_PROPERTY_PART == 3
#define ICLPROOF_PROPERTY_MACROS_OF_PART_3
#else
#define ICLPROOF_PROPERTY_MACROS_OF_PART_4
#endif

// Defines and registers a property whose body is a template on the scalar T with a
// `case_context& ctx` in scope, instantiated for double, long double and mpfr_real. Other
// kinds opt in below the body:
//   ICLPROOF_PROPERTY_BODY(ID, ::iclproof::rational_real);    // instantiates ID##_body<T>
//   ICLPROOF_NOT_APPLICABLE(ID, rational, "uses exp: no exact rational form");
#define ICLPROOF_PROPERTY(ID, NAME, CLAIM, COVERAGE)                       \
  template <class T>                                                       \
  static void ID##_body(::iclproof::case_context& ctx);                    \
  static const ::iclproof::property_info ID##_info{NAME, CLAIM, COVERAGE}; \
  ICLPROOF_PROPERTY_REGISTRAR_PART(ID);                                    \
  template <class T>                                                       \
  static void ID##_body([[maybe_unused]] ::iclproof::case_context& ctx)

#define ICLPROOF_CONCAT_IMPL(a, b) a##b
#define ICLPROOF_CONCAT(a, b) ICLPROOF_CONCAT_IMPL(a, b)

// The registration of ICLPROOF_PROPERTY's bodies in this part.
#define ICLPROOF_PROPERTY_BODY_REGISTRAR(ID, KIND, SCALAR)                 \
  static const ::iclproof::property_body_registrar ID##_registrar_##KIND { \
    ID##_info.name, ::iclproof::scalar_kind::KIND, &ID##_body<SCALAR>      \
  }
#if ICLPROOF_PROPERTY_PART == 0
#define ICLPROOF_PROPERTY_REGISTRAR_PART(ID)                                           \
  static const ::iclproof::property_registrar ID##_registrar {                         \
    ID##_info, {                                                                       \
      {::iclproof::scalar_kind::double_precision, &ID##_body<double>},                 \
          {::iclproof::scalar_kind::long_double_precision, &ID##_body<long double>}, { \
        ::iclproof::scalar_kind::mpfr, &ID##_body<::iclproof::mpfr_real>               \
      }                                                                                \
    }                                                                                  \
  }
#elif ICLPROOF_PROPERTY_PART == 1
#define ICLPROOF_PROPERTY_REGISTRAR_PART(ID)                            \
  static const ::iclproof::property_registrar ID##_registrar {          \
    ID##_info, {                                                        \
      { ::iclproof::scalar_kind::double_precision, &ID##_body<double> } \
    }                                                                   \
  }
#elif ICLPROOF_PROPERTY_PART == 2
#define ICLPROOF_PROPERTY_REGISTRAR_PART(ID) \
  ICLPROOF_PROPERTY_BODY_REGISTRAR(ID, long_double_precision, long double)
#elif ICLPROOF_PROPERTY_PART == 3
#define ICLPROOF_PROPERTY_REGISTRAR_PART(ID) \
  ICLPROOF_PROPERTY_BODY_REGISTRAR(ID, mpfr, ::iclproof::mpfr_real)
#else
#define ICLPROOF_PROPERTY_REGISTRAR_PART(ID) static_assert(true)
#endif

// Adds the body ID##_body<SCALAR> for SCALAR's kind (scalar_traits<SCALAR>::kind) to the
// property ID defined above in the same file (in part 4 of a split file).
#if ICLPROOF_PROPERTY_PART == 0 || ICLPROOF_PROPERTY_PART == 4
#define ICLPROOF_PROPERTY_BODY(ID, SCALAR)                                               \
  static const ::iclproof::property_body_registrar ICLPROOF_CONCAT(ID##_body_registrar_, \
                                                                   __COUNTER__) {        \
    ID##_info.name, ::iclproof::scalar_traits<SCALAR>::kind, &ID##_body<SCALAR>          \
  }
#else
#define ICLPROOF_PROPERTY_BODY(ID, SCALAR) static_assert(true)
#endif

// Defines and registers a property whose claim is checked in the exact scalar only (a
// square-root-free form, say): its body is instantiated for rational_real, and double, long
// double and mpfr record FLOAT_REASON as why they do not apply (in part 4 of a split file).
// core/rational.hpp must be included.
#if ICLPROOF_PROPERTY_PART == 0 || ICLPROOF_PROPERTY_PART == 4
#define ICLPROOF_EXACT_PROPERTY_REGISTRAR_PART(ID, FLOAT_REASON)                                \
  static const ::iclproof::property_registrar ID##_registrar{                                   \
      ID##_info, {{::iclproof::scalar_kind::rational, &ID##_body<::iclproof::rational_real>}}}; \
  ICLPROOF_NOT_APPLICABLE_REGISTRAR(ID, double_precision, FLOAT_REASON);                        \
  ICLPROOF_NOT_APPLICABLE_REGISTRAR(ID, long_double_precision, FLOAT_REASON);                   \
  ICLPROOF_NOT_APPLICABLE_REGISTRAR(ID, mpfr, FLOAT_REASON)
#else
#define ICLPROOF_EXACT_PROPERTY_REGISTRAR_PART(ID, FLOAT_REASON) static_assert(true)
#endif
#define ICLPROOF_EXACT_PROPERTY(ID, NAME, CLAIM, COVERAGE, FLOAT_REASON)   \
  template <class T>                                                       \
  static void ID##_body(::iclproof::case_context& ctx);                    \
  static const ::iclproof::property_info ID##_info{NAME, CLAIM, COVERAGE}; \
  ICLPROOF_EXACT_PROPERTY_REGISTRAR_PART(ID, FLOAT_REASON);                \
  template <class T>                                                       \
  static void ID##_body([[maybe_unused]] ::iclproof::case_context& ctx)

// Records why the property ID has no body for KIND (a scalar_kind enumerator); in part 1 of a
// split file.
#define ICLPROOF_NOT_APPLICABLE_REGISTRAR(ID, KIND, REASON)                             \
  static const ::iclproof::property_not_applicable_registrar ID##_na_registrar_##KIND { \
    ID##_info.name, ::iclproof::scalar_kind::KIND, REASON                               \
  }
#if ICLPROOF_PROPERTY_PART == 0 || ICLPROOF_PROPERTY_PART == 1
#define ICLPROOF_NOT_APPLICABLE(ID, KIND, REASON) \
  ICLPROOF_NOT_APPLICABLE_REGISTRAR(ID, KIND, REASON)
#else
#define ICLPROOF_NOT_APPLICABLE(ID, KIND, REASON) static_assert(true)
#endif
