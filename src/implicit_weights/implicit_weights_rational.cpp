// The exact scalar's instantiations, in their own translation unit.
#include "core/rational.hpp"
#include "implicit_weights/implicit_weights_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_IMPLICIT_WEIGHTS(rational_real)
}  // namespace iclproof
