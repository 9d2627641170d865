// The rational and interval scalars' instantiations, in their own translation unit.
#include "core/rational.hpp"
#include "iterative_newton/fu_relu_weights_impl.hpp"
#include "iterative_newton/iterative_newton_weights_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_ITERATIVE_NEWTON(rational_real)
ICLPROOF_INSTANTIATE_FU_RELU(rational_real)
ICLPROOF_INSTANTIATE_ITERATIVE_NEWTON(interval_real)
ICLPROOF_INSTANTIATE_FU_RELU(interval_real)
}  // namespace iclproof
