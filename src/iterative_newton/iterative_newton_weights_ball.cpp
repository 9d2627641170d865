// The ball scalar's instantiations (Arb, core/ball.hpp) of the iterative-Newton weights, in their
// own translation unit (products through arb_dot, solves through arb_mat_solve:
// core/ball_linalg.hpp).
#include "core/ball_linalg.hpp"
#include "iterative_newton/iterative_newton_weights_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_ITERATIVE_NEWTON(ball_real)
}  // namespace iclproof
