// The ball scalar's instantiations (Arb, core/ball.hpp), in their own translation unit (products
// through arb_dot: core/ball_linalg.hpp).
#include "core/ball_linalg.hpp"
#include "gdpp_rate/gdpp_rate_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_GDPP_RATE(ball_real)

template <class T>
T gdpp_diagonal_kappa_enclosure(const Mat<T>& G) {
  T lo = G(0, 0), hi = G(0, 0);
  for (Eigen::Index i = 1; i < G.rows(); ++i) {
    lo = -max_of(T(-lo), T(-G(i, i)));
    hi = max_of(hi, T(G(i, i)));
  }
  return hi / lo;
}
template ball_real gdpp_diagonal_kappa_enclosure(const Mat<ball_real>& G);
}  // namespace iclproof
