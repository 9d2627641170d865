#include "implicit_weights/implicit_weights_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_IMPLICIT_WEIGHTS(double)
ICLPROOF_INSTANTIATE_IMPLICIT_WEIGHTS(long double)
ICLPROOF_INSTANTIATE_IMPLICIT_WEIGHTS(mpfr_real)
}  // namespace iclproof
