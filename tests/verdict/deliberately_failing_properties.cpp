// Test-only properties that make the verdict plumbing fail on purpose.
//
// Linked only into iclproof_verdict_fixture (tests/verdict/CMakeLists.txt), a copy of the
// iclproof command line built from the same src/cli/main.cpp; the shipped `iclproof` never
// contains them. In every family F that families.cmake registers (builtin_families(), generated
// from it, so a new family gets its pair with no edit here) there are two:
//   F.test_only_holds            one check 0 <= eps: PASS
//   F.test_only_fails_on_purpose one check 1 <= 0: FAIL on its first case
// so `--property "F.test_only_*"` runs one passing and one failing property of family F, and the
// tests in verdict_fails.cmake require check, check --ci and report to say FAIL and exit 1.
// One test-only finding, references.test_only_failed_evidence, cites the failing property as its
// evidence while its measurement supports the correction: the report must call it "not
// reproduced" (verdict_fails.cmake; mutation 28-report-failures-as-passes survived every test
// before it). families.lists_agree requires the pair of every registered family in this
// binary's `list` (cmake/check_families.cmake, FIXTURE).
#include "harness/property.hpp"
#include "report/families.hpp"
#include "report/findings.hpp"

namespace {

template <class T>
void holds(iclproof::case_context& ctx) {
  ctx.check_le<T>("0 <= eps (test-only property that holds)", T(0), iclproof::eps<T>());
}

template <class T>
void fails(iclproof::case_context& ctx) {
  ctx.check_le<T>("1 <= 0 (test-only property that fails on purpose)", T(1), T(0));
}

iclproof::claim_coverage test_only_coverage() {
  using namespace iclproof::cite;
  return exact_identity(paper("test-only (tests/verdict/deliberately_failing_properties.cpp)"))
      .missing("a test-only property: no theorem backs it");
}

// The pair of every family of families.cmake, registered at static initialisation like
// property_registrar (builtin_families() is a function-local static, ready whenever it is called).
const struct test_only_pairs {
  test_only_pairs() {
    using iclproof::scalar_kind;
    for (const iclproof::family_info& f : iclproof::builtin_families()) {
      iclproof::property_registrar{
          {f.id + ".test_only_holds", "Test-only: 0 <= eps, always true.", test_only_coverage()},
          {{scalar_kind::double_precision, &holds<double>},
           {scalar_kind::long_double_precision, &holds<long double>},
           {scalar_kind::mpfr, &holds<iclproof::mpfr_real>}}};
      iclproof::property_registrar{{f.id + ".test_only_fails_on_purpose",
                                    "Test-only: 1 <= 0, always false.", test_only_coverage()},
                                   {{scalar_kind::double_precision, &fails<double>},
                                    {scalar_kind::long_double_precision, &fails<long double>},
                                    {scalar_kind::mpfr, &fails<iclproof::mpfr_real>}}};
    }
  }
} test_only_pairs_of_every_family;

const iclproof::finding_registrar failed_evidence_finding{{
    .id = "references.test_only_failed_evidence",
    .family = "references",
    .title = "test-only finding whose evidence property fails on purpose",
    .source = "tests/verdict/deliberately_failing_properties.cpp",
    .paper_claim = "paper",
    .corrected_claim = "corrected",
    .paper_value = "1",
    .corrected_value = "2",
    .evidence = {"references.test_only_fails_on_purpose"},
    .measure =
        [] {
          return iclproof::finding_measurement{"test-only", "paper: 1", "corrected: 2",
                                               "always",    true,       "test-only"};
        },
}};

}  // namespace
