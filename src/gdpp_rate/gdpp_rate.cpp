#include "gdpp_rate/gdpp_rate_impl.hpp"

#include <cmath>

namespace iclproof {
ICLPROOF_INSTANTIATE_GDPP_RATE(double)
ICLPROOF_INSTANTIATE_GDPP_RATE(long double)
ICLPROOF_INSTANTIATE_GDPP_RATE(mpfr_real)

int gdpp_rate_layer_bound(long double kappa, long double tol) {
  if (!(kappa >= 1.0L) || !(tol > 0.0L))
    throw std::invalid_argument("gdpp_rate_layer_bound: need kappa >= 1 and tol > 0");
  const long double c = gdpp_lemma_a3_contraction<long double>();  // 484/529
  int K = 0;
  if (kappa >= 1.1L) K += static_cast<int>(std::ceil(std::log(kappa / 1.1L) / std::log(1.0L / c)));
  if (2.0L * tol < 0.2L)
    K += static_cast<int>(std::ceil(std::log2(std::log(2.0L * tol) / std::log(0.2L))));
  return K;
}
}  // namespace iclproof
