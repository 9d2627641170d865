#include "core/linalg_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_LINALG(long double)
}  // namespace iclproof
