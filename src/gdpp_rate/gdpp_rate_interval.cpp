// The interval scalar's instantiations, in their own translation unit.
#include "gdpp_rate/gdpp_rate_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_GDPP_RATE(interval_real)
}  // namespace iclproof
