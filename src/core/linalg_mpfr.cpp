#include "core/linalg_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_LINALG(mpfr_real)
}  // namespace iclproof
