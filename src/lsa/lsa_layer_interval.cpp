// The interval scalar's instantiations, in their own translation unit.
#include "lsa/lsa_layer_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_LSA(interval_real)
}  // namespace iclproof
