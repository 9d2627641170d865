// The ball scalar's instantiations (Arb, core/ball.hpp) of the ReLU-attention and MLP layers, in
// their own translation unit (products through arb_dot, solves through arb_mat_solve:
// core/ball_linalg.hpp).
#include "core/ball_linalg.hpp"
#include "lsa/relu_layers_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_RELU_LAYERS(ball_real)
}  // namespace iclproof
