// An exact rational as an Arb ball (core/ball_of_rational.hpp).
#include "core/ball_of_rational.hpp"

#include <arb.h>
#include <flint/fmpq.h>

namespace iclproof {

ball_real ball_of_rational(const rational_real& q) {
  fmpq_t f;
  fmpq_init(f);
  fmpq_set_mpq(f, q.backend().data());
  ball_real b;
  arb_set_fmpq(b.data(), f, ball_precision());
  fmpq_clear(f);
  return b;
}

Mat<ball_real> ball_of_rational(const Mat<rational_real>& q) {
  Mat<ball_real> out(q.rows(), q.cols());
  for (Eigen::Index j = 0; j < q.cols(); ++j)
    for (Eigen::Index i = 0; i < q.rows(); ++i) out(i, j) = ball_of_rational(q(i, j));
  return out;
}

}  // namespace iclproof
