// The ball scalar's instantiations (Arb, core/ball.hpp), in their own translation unit: the
// generic LSA layer on balls (products through arb_dot, core/ball_linalg.hpp).
#include "core/ball_linalg.hpp"
#include "lsa/lsa_layer_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_LSA(ball_real)
}  // namespace iclproof
