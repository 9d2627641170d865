// The exact scalar's instantiations, in their own translation unit.
#include "core/rational.hpp"
#include "gdpp_rate/gdpp_rate_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_GDPP_RATE(rational_real)
}  // namespace iclproof
