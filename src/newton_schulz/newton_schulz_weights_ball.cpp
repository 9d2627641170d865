// The ball scalar's instantiations (Arb, core/ball.hpp) of the Newton-Schulz weights and
// iterates (the iterative-Newton properties compare with newton_schulz_iterates on balls).
#include "core/ball_linalg.hpp"
#include "newton_schulz/newton_schulz_weights_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_NEWTON_SCHULZ(ball_real)
}  // namespace iclproof
