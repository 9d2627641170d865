#include "lsa/relu_layers_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_RELU_LAYERS(double)
ICLPROOF_INSTANTIATE_RELU_LAYERS(long double)
ICLPROOF_INSTANTIATE_RELU_LAYERS(mpfr_real)
}  // namespace iclproof
