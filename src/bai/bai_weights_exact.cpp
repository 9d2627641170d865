// The exact and interval scalars' instantiations, in their own translation unit.
#include "bai/bai_weights_impl.hpp"
#include "core/rational.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_BAI(rational_real)
ICLPROOF_INSTANTIATE_BAI(interval_real)
}  // namespace iclproof
