// The rational and interval scalars' instantiations, in their own translation unit.
#include "core/rational.hpp"
#include "newton_schulz/giannou_weights_impl.hpp"
#include "newton_schulz/newton_schulz_weights_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_NEWTON_SCHULZ(rational_real)
ICLPROOF_INSTANTIATE_GIANNOU(rational_real)
ICLPROOF_INSTANTIATE_NEWTON_SCHULZ(interval_real)
ICLPROOF_INSTANTIATE_GIANNOU(interval_real)
}  // namespace iclproof
