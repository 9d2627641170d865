// The exact scalar's instantiations of the ReLU-attention and MLP layers, in their own
// translation unit.
#include "core/rational.hpp"
#include "lsa/relu_layers_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_RELU_LAYERS(rational_real)
}  // namespace iclproof
