// The ball scalar's instantiations (Arb, core/ball.hpp) of the Bai et al. weights, in their own
// translation unit (products through arb_dot, solves through arb_mat_solve: core/ball_linalg.hpp).
#include "bai/bai_weights_impl.hpp"
#include "core/ball_linalg.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_BAI(ball_real)
}  // namespace iclproof
