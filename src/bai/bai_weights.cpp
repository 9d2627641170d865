#include "bai/bai_weights_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_BAI(double)
ICLPROOF_INSTANTIATE_BAI(long double)
ICLPROOF_INSTANTIATE_BAI(mpfr_real)
}  // namespace iclproof
