// An exact rational as an Arb ball (arb_set_fmpq: the ball at the run's precision that contains
// the rational; a point when the rational is a dyadic of at most p bits). Used by the ball bodies
// whose reference is computed in exact rationals (bai Theorem 4's ridge prediction, the post-ICL
// selection weights): the reference then enters the verdict as an enclosure of the exact value,
// never as a rounded one.
#pragma once

#include "core/ball.hpp"
#include "core/linalg.hpp"
#include "core/rational.hpp"

namespace iclproof {

ball_real ball_of_rational(const rational_real& q);
Mat<ball_real> ball_of_rational(const Mat<rational_real>& q);

}  // namespace iclproof
