// The interval scalar's instantiations, in their own translation unit.
#include "lsa/vonoswald_weights_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_VONOSWALD(interval_real)
}  // namespace iclproof
