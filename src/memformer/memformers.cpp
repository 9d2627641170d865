#include "memformer/memformers_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_MEMFORMERS(double)
ICLPROOF_INSTANTIATE_MEMFORMERS(long double)
ICLPROOF_INSTANTIATE_MEMFORMERS(mpfr_real)
}  // namespace iclproof
