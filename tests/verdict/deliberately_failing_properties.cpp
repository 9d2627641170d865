// Test-only properties that make the verdict plumbing fail on purpose (issue 16, item 6).
//
// Linked only into iclproof_verdict_fixture (tests/verdict/CMakeLists.txt), a copy of the
// iclproof command line built from the same src/cli/main.cpp; the shipped `iclproof` never
// contains them. In every family F there are two:
//   F.test_only_holds            one check 0 <= eps: PASS
//   F.test_only_fails_on_purpose one check 1 <= 0: FAIL on its first case
// so `--property "F.test_only_*"` runs one passing and one failing property of family F, and the
// tests in verdict_fails.cmake require check, check --ci and report to say FAIL and exit 1.
#include "harness/property.hpp"

namespace {

template <class T>
void holds(iclproof::case_context& ctx) {
  ctx.check_le<T>("0 <= eps (test-only property that holds)", T(0), iclproof::eps<T>());
}

template <class T>
void fails(iclproof::case_context& ctx) {
  ctx.check_le<T>("1 <= 0 (test-only property that fails on purpose)", T(1), T(0));
}

#define ICLPROOF_TEST_ONLY_PAIR(FAMILY)                                           \
  const iclproof::property_registrar FAMILY##_holds{                              \
      {#FAMILY ".test_only_holds", "Test-only: 0 <= eps, always true.",           \
       "test-only (tests/verdict/deliberately_failing_properties.cpp)"},          \
      &holds<double>,                                                             \
      &holds<long double>,                                                        \
      &holds<iclproof::mpfr_real>};                                               \
  const iclproof::property_registrar FAMILY##_fails{                              \
      {#FAMILY ".test_only_fails_on_purpose", "Test-only: 1 <= 0, always false.", \
       "test-only (tests/verdict/deliberately_failing_properties.cpp)"},          \
      &fails<double>,                                                             \
      &fails<long double>,                                                        \
      &fails<iclproof::mpfr_real>};

ICLPROOF_TEST_ONLY_PAIR(references)
ICLPROOF_TEST_ONLY_PAIR(vonoswald)
ICLPROOF_TEST_ONLY_PAIR(ahn)
ICLPROOF_TEST_ONLY_PAIR(memformer)
ICLPROOF_TEST_ONLY_PAIR(akyurek)

}  // namespace
