// The interval scalar's instantiations of the ReLU-attention and MLP layers, in their own
// translation unit.
#include "lsa/relu_layers_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_RELU_LAYERS(interval_real)
}  // namespace iclproof
