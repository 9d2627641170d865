// A test-only property whose tolerance is 10^10 times its error (the sharpness gate
// shown catching its own failure). Linked only into iclproof_verdict_fixture; the shipped
// `iclproof` never contains it. Its margin is log10(10^10) = 10, above the default sharpness
// limit 10^4, so at >= 100 cases `check` must call it VACUOUS and `check --ci` must fail
// (vacuous_gate.cmake). sharpness.test_only_vacuous_second_check has a tight check (tolerance 4
// times its error) and a second check 10^10 too loose: its worst margin is log10(4), so only the
// per-check gate (vacuous_checks) can call it VACUOUS.
#include "harness/property.hpp"

namespace {

template <class T>
void loose(iclproof::case_context& ctx) {
  ctx.check_le<T>("eps <= 10^10 eps (test-only tolerance 10^10 too loose)", iclproof::eps<T>(),
                  T(iclproof::eps<T>() * T(1e10)));
}

const iclproof::property_registrar vacuous_property{
    {"sharpness.test_only_vacuous", "Test-only: a tolerance 10^10 above its error.",
     iclproof::cite::rounding_claim(
         iclproof::cite::paper("test-only (tests/verdict/vacuous_property.cpp)"))
         .missing("a test-only property: no theorem backs it")},
    {{iclproof::scalar_kind::double_precision, &loose<double>},
     {iclproof::scalar_kind::long_double_precision, &loose<long double>},
     {iclproof::scalar_kind::mpfr, &loose<iclproof::mpfr_real>}}};

template <class T>
void loose_second_check(iclproof::case_context& ctx) {
  ctx.check_le<T>("eps <= 4 eps (tight)", iclproof::eps<T>(), T(iclproof::eps<T>() * T(4)));
  ctx.check_le<T>("eps <= 10^10 eps (test-only tolerance 10^10 too loose)", iclproof::eps<T>(),
                  T(iclproof::eps<T>() * T(1e10)));
}

const iclproof::property_registrar vacuous_second_check_property{
    {"sharpness.test_only_vacuous_second_check",
     "Test-only: one tight check and one with a tolerance 10^10 above its error.",
     iclproof::cite::rounding_claim(
         iclproof::cite::paper("test-only (tests/verdict/vacuous_property.cpp)"))
         .missing("a test-only property: no theorem backs it")},
    {{iclproof::scalar_kind::double_precision, &loose_second_check<double>},
     {iclproof::scalar_kind::long_double_precision, &loose_second_check<long double>},
     {iclproof::scalar_kind::mpfr, &loose_second_check<iclproof::mpfr_real>}}};

}  // namespace
