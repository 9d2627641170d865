#include "iterative_newton/iterative_newton_weights_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_ITERATIVE_NEWTON(double)
ICLPROOF_INSTANTIATE_ITERATIVE_NEWTON(long double)
ICLPROOF_INSTANTIATE_ITERATIVE_NEWTON(mpfr_real)
}  // namespace iclproof
