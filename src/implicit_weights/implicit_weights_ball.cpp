// The ball scalar's instantiations (Arb, core/ball.hpp), in their own translation unit (products
// through arb_dot: core/ball_linalg.hpp).
#include "core/ball_linalg.hpp"
#include "implicit_weights/implicit_weights_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_IMPLICIT_WEIGHTS(ball_real)
}  // namespace iclproof
