#include "newton_schulz/newton_schulz_weights_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_NEWTON_SCHULZ(double)
ICLPROOF_INSTANTIATE_NEWTON_SCHULZ(long double)
ICLPROOF_INSTANTIATE_NEWTON_SCHULZ(mpfr_real)
}  // namespace iclproof
