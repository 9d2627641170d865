// An upper bound of the infinity norm of an interval matrix, the contraction bound
// beta = ||I - R A||_inf of the certified solve (linalg_interval.cpp): the solve is sound only
// if beta bounds the norm of EVERY point matrix in the enclosure from above, i.e. if each row
// sums the absolute values |M_ij| (a signed sum cancels in a row of mixed signs and can be far
// below the norm, even negative).
#pragma once

#include "core/eigen_scalar.hpp"
#include "core/interval.hpp"

namespace iclproof {

// The upper end of max_i sum_j |M_ij| in interval arithmetic (outward rounded): >= ||M'||_inf for
// every point matrix M' in M. NaN when any row sum has a NaN end (an entry is NaN, or inf - inf);
// 0 for an empty matrix.
mpfr_real infinity_norm_upper(const Mat<interval_real>& M);

}  // namespace iclproof
