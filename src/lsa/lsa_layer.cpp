#include "lsa/lsa_layer_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_LSA(double)
ICLPROOF_INSTANTIATE_LSA(long double)
ICLPROOF_INSTANTIATE_LSA(mpfr_real)
}  // namespace iclproof
