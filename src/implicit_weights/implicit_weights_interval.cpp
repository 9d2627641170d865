// The interval scalar's instantiations, in their own translation unit.
#include "implicit_weights/implicit_weights_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_IMPLICIT_WEIGHTS(interval_real)
}  // namespace iclproof
