// A test-only property that fails in SOME cases: the determinism tests need a failure
// whose first failing case lies somewhere inside the run (not at case 0) and whose shrunk
// counterexample takes real shrinking, so that splitting the cases among jobs or shards could
// show a different first failure, a different shrink or different statistics if they depended
// on how the work was split.
//   vonoswald.fixture_fails_in_some_cases   draws x, y in [0, 1000); checks x + y <= 1500
// (false in a few per cent of the cases (RapidCheck draws smaller values at small sizes)). Linked
// only into iclproof_verdict_fixture.
#include "harness/property.hpp"

#include <rapidcheck.h>

namespace {

template <class T>
void sometimes_fails(iclproof::case_context& ctx) {
  const int x = *rc::gen::inRange(0, 1000);
  const int y = *rc::gen::inRange(0, 1000);
  ctx.note_value("x", x);
  ctx.note_value("y", y);
  // The error x + y varies per case, so the worst check (smallest margin) is a real choice.
  ctx.check_le<T>("x + y <= 1500 (test-only property that fails in some cases)", T(x + y), T(1500));
}

iclproof::claim_coverage fixture_coverage() {
  using namespace iclproof::cite;
  return exact_identity(paper("test-only (tests/verdict/sometimes_failing_property.cpp)"))
      .missing("a test-only property: no theorem backs it");
}

const iclproof::property_registrar sometimes_fails_registrar{
    {"vonoswald.fixture_fails_in_some_cases",
     "Test-only: x + y <= 1500 for x, y drawn in [0, 1000), false in some cases.",
     fixture_coverage()},
    {{iclproof::scalar_kind::double_precision, &sometimes_fails<double>},
     {iclproof::scalar_kind::long_double_precision, &sometimes_fails<long double>},
     {iclproof::scalar_kind::mpfr, &sometimes_fails<iclproof::mpfr_real>}}};

}  // namespace
