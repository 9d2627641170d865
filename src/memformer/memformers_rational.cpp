// The exact scalar's instantiations, in their own translation unit (build cost: one TU per
// new scalar).
#include "core/rational.hpp"
#include "memformer/memformers_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_MEMFORMERS(rational_real)
}  // namespace iclproof
