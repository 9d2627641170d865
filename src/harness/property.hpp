// A property: a named claim, what backs it (the Coq theorems it cites with their roles, paper
// equations, and the part no theorem states: harness/claim_coverage.hpp), and a body that draws
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
#include "harness/case_context.hpp"
#include "harness/check_statistics.hpp"
#include "harness/claim_coverage.hpp"
#include "harness/size_statement.hpp"

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

// One translation unit per scalar (a faster build: the Eigen and Boost.Multiprecision
// instantiations the files share are compiled once per scalar). properties/CMakeLists.txt compiles
// each properties/<f>.cpp that defines properties once per part, with ICLPROOF_PROPERTY_PART set:
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
