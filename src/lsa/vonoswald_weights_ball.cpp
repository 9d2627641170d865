// The ball scalar's instantiations (Arb, core/ball.hpp) of the von Oswald weight constructions, in
// their own translation unit (products through arb_dot, solves through arb_mat_solve:
// core/ball_linalg.hpp).
#include "core/ball_linalg.hpp"
#include "lsa/vonoswald_weights_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_VONOSWALD(ball_real)
}  // namespace iclproof
