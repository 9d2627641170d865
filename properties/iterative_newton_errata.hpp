// The measurement of the finding iterative_newton.sec5_expansions_of_m1_m2
// (iterative_newton_errata.cpp) with the polynomials as parameters, so that a test can feed it a
// "printed" side that is right in one of its two expansions (tests/unit/iterative_newton_test.cpp):
// it confirms the erratum only when BOTH printed polynomials differ from the recursion's M_1, M_2
// AND both corrected ones equal them.
#pragma once

#include "report/findings.hpp"

#include <vector>

namespace iclproof {

// Coefficients c of sum_i c_i alpha^i S^(2i-1): M_1 has two ({2, -4} printed, {2, -1} right),
// M_2 four ({4, -12, 16, -16} printed, {4, -6, 4, -1} right).
finding_measurement measure_sec5_expansions(const std::vector<int>& printed_m1,
                                            const std::vector<int>& printed_m2,
                                            const std::vector<int>& corrected_m1,
                                            const std::vector<int>& corrected_m2);

}  // namespace iclproof
