// The ball scalar's instantiations (Arb, core/ball.hpp) of the Z-form transformer, in their own
// translation unit (products through arb_dot, solves through arb_mat_solve: core/ball_linalg.hpp).
#include "core/ball_linalg.hpp"
#include "memformer/z_form_transformer_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_Z_FORM(ball_real)
}  // namespace iclproof
