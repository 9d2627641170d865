#include "harness/check_statistics.hpp"

#include <cmath>
#include <limits>

namespace iclproof {

double log2_margin(double log2_err, double log2_bound) {
  if (std::isnan(log2_err) || std::isnan(log2_bound))
    return std::numeric_limits<double>::quiet_NaN();
  if (log2_err == -std::numeric_limits<double>::infinity())
    return std::numeric_limits<double>::infinity();
  return log2_bound - log2_err;
}

void keep_worst(check_margin& m, double log2_err, double log2_bound) {
  const double margin = log2_margin(log2_err, log2_bound);
  const double worst_margin = log2_margin(m.worst_log2_err, m.worst_log2_bound);
  const bool worst_is_nan = m.checks > 0 && std::isnan(worst_margin);
  if (!worst_is_nan && (m.checks == 0 || std::isnan(margin) || margin < worst_margin)) {
    m.worst_log2_err = log2_err;
    m.worst_log2_bound = log2_bound;
  }
  ++m.checks;
}

}  // namespace iclproof
