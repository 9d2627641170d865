// The ball scalar's instantiations (Arb, core/ball.hpp) of the Newton-Schulz weights and
// iterates (the iterative-Newton properties compare with newton_schulz_iterates on balls) and of
// Giannou et al.'s Lemma 4.1 / Theorem 4.2 weights (the newton_schulz.giannou_* ball bodies).
#include "core/ball_linalg.hpp"
#include "newton_schulz/giannou_weights_impl.hpp"
#include "newton_schulz/newton_schulz_weights_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_NEWTON_SCHULZ(ball_real)
ICLPROOF_INSTANTIATE_GIANNOU(ball_real)
}  // namespace iclproof
