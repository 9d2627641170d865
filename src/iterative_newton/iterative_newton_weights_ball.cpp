// The ball scalar's instantiations (Arb, core/ball.hpp) of the iterative-Newton weights and of
// Fu et al.'s ReLU-transformer weights, in their own translation unit (products through
// arb_dot, solves through arb_mat_solve: core/ball_linalg.hpp).
#include "core/ball_linalg.hpp"
#include "iterative_newton/fu_relu_weights_impl.hpp"
#include "iterative_newton/iterative_newton_weights_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_ITERATIVE_NEWTON(ball_real)
ICLPROOF_INSTANTIATE_FU_RELU(ball_real)
}  // namespace iclproof
