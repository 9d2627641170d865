#include "newton_schulz/giannou_weights_impl.hpp"
#include "newton_schulz/newton_schulz_weights_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_NEWTON_SCHULZ(double)
ICLPROOF_INSTANTIATE_GIANNOU(double)
ICLPROOF_INSTANTIATE_NEWTON_SCHULZ(long double)
ICLPROOF_INSTANTIATE_GIANNOU(long double)
ICLPROOF_INSTANTIATE_NEWTON_SCHULZ(mpfr_real)
ICLPROOF_INSTANTIATE_GIANNOU(mpfr_real)
}  // namespace iclproof
