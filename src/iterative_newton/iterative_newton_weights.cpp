#include "iterative_newton/fu_relu_weights_impl.hpp"
#include "iterative_newton/iterative_newton_weights_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_ITERATIVE_NEWTON(double)
ICLPROOF_INSTANTIATE_FU_RELU(double)
ICLPROOF_INSTANTIATE_ITERATIVE_NEWTON(long double)
ICLPROOF_INSTANTIATE_FU_RELU(long double)
ICLPROOF_INSTANTIATE_ITERATIVE_NEWTON(mpfr_real)
ICLPROOF_INSTANTIATE_FU_RELU(mpfr_real)
}  // namespace iclproof
