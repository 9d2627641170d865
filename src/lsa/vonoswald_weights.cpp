#include "lsa/vonoswald_weights_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_VONOSWALD(double)
ICLPROOF_INSTANTIATE_VONOSWALD(long double)
ICLPROOF_INSTANTIATE_VONOSWALD(mpfr_real)
}  // namespace iclproof
