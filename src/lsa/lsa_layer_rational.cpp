// The exact scalar's instantiations, in their own translation unit (build cost: one TU per
// new scalar).
#include "core/rational.hpp"
#include "lsa/lsa_layer_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_LSA(rational_real)
}  // namespace iclproof
