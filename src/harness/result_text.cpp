#include "harness/result_text.hpp"

#include <fmt/format.h>

#include <cmath>

namespace iclproof {

std::string format_pow2(double log2_value) {
  if (std::isnan(log2_value)) return "NaN";
  if (std::isinf(log2_value)) return log2_value < 0 ? "0" : "inf";
  const double l10 = log2_value * std::log10(2.0);
  double e = std::floor(l10);
  double m = std::pow(10.0, l10 - e);
  if (m >= 9.995) {  // would print as 10.00
    m /= 10;
    e += 1;
  }
  return fmt::format("{:.2f}e{:+d}", m, static_cast<int>(e));
}

std::string format_margin(double margin_log10) {
  if (std::isnan(margin_log10)) return "n/a";
  if (std::isinf(margin_log10)) return margin_log10 > 0 ? "exact" : "-inf";
  return fmt::format("{:+.1f}", margin_log10);
}

std::string margin_text(const property_result& r) {
  if (r.checks > 0 && std::isinf(r.worst_log2_err) && r.worst_log2_err < 0) return "exact";
  return format_margin(r.margin_log10);
}

}  // namespace iclproof
