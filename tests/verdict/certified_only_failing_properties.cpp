// Test-only properties that PASS in every floating-point run and FAIL in their certified run, so
// that the certified run alone decides a gate (certified_gate.cmake):
//   certified.fixture_fails_only_in_rational  exact identity with an exact body: in floating
//       point it checks |3 fl(1/3) - 1| <= 4 eps (true: rounding); in exact rationals it checks
//       3 q = 1 for q = the double nearest 1/3 (false: q = 6004799503160661 / 2^54). Its
//       certified mode is exact rational.
//   certified.fixture_fails_only_in_interval  approximation with an interval body and no exact
//       one: in floating point |x| <= 2 x for x = 1/7 (true); in intervals it checks the
//       enclosure of 1/7 against the bound 1/8 (false, certified). Its certified mode is
//       interval.
// Linked only into iclproof_verdict_fixture; the shipped `iclproof` never contains them.
#include "core/interval.hpp"
#include "core/rational.hpp"
#include "harness/property.hpp"

namespace {

using namespace iclproof;

template <class T>
void rounding_holds(case_context& ctx) {
  const T third = T(1) / T(3);
  ctx.check_le<T>("|3 fl(1/3) - 1| <= 4 eps (test-only)", abs_of(T(T(3) * third - T(1))),
                  T(T(4) * eps<T>()));
}
void exact_fails(case_context& ctx) {
  using Q = rational_real;
  const Q third(1.0 / 3.0);  // the double nearest 1/3, exactly
  ctx.check_le<Q>("|3 q - 1| = 0 for q = double(1/3) (test-only, false)",
                  abs_of(Q(Q(3) * third - Q(1))), Q(0));
}

template <class T>
void bound_holds(case_context& ctx) {
  const T x = T(1) / T(7);
  ctx.check_le_hand_derived<T>("1/7 <= 2/7 (test-only)", x, T(T(2) * x), "test-only bound 2 x");
}
void enclosure_fails(case_context& ctx) {
  using I = interval_real;
  ctx.check_le_hand_derived<I>("1/7 <= 1/8 (test-only, false)", I(I(1) / I(7)), I(I(1) / I(8)),
                               "test-only bound 1/8");
}

const property_registrar fails_only_in_rational{
    {"certified.fixture_fails_only_in_rational",
     "Test-only: |3 fl(1/3) - 1| <= 4 eps in floating point; 3 double(1/3) = 1, false in exact "
     "rationals.",
     cite::exact_identity(
         cite::paper("test-only (tests/verdict/certified_only_failing_properties.cpp)"))
         .missing("a test-only property: no theorem backs it")},
    {{scalar_kind::double_precision, &rounding_holds<double>},
     {scalar_kind::long_double_precision, &rounding_holds<long double>},
     {scalar_kind::mpfr, &rounding_holds<mpfr_real>},
     {scalar_kind::rational, &exact_fails}}};

const property_registrar fails_only_in_interval{
    {"certified.fixture_fails_only_in_interval",
     "Test-only: 1/7 <= 2/7 in floating point; 1/7 <= 1/8, false, in intervals.",
     cite::approximation(
         cite::paper("test-only (tests/verdict/certified_only_failing_properties.cpp)"))
         .missing("a test-only property: no theorem backs it")},
    {{scalar_kind::double_precision, &bound_holds<double>},
     {scalar_kind::long_double_precision, &bound_holds<long double>},
     {scalar_kind::mpfr, &bound_holds<mpfr_real>},
     {scalar_kind::interval, &enclosure_fails}}};

}  // namespace
