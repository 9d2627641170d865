// The exact scalar's instantiations, in their own translation unit (build cost: one TU per
// new scalar).
#include "core/rational.hpp"
#include "lsa/vonoswald_weights_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_VONOSWALD(rational_real)
}  // namespace iclproof
