// The ball scalar's instantiations (Arb, core/ball.hpp) of the CGD and LFOM Memformers, in their
// own translation unit (products through arb_dot, solves through arb_mat_solve:
// core/ball_linalg.hpp).
#include "core/ball_linalg.hpp"
#include "memformer/memformers_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_MEMFORMERS(ball_real)
}  // namespace iclproof
