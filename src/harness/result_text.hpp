// How a property run's numbers are written, by `check`, `report` (JSON, Markdown, HTML) and
// `merge` alike: 2^x in decimal, margins, non-finite values in JSON.
#pragma once

#include "harness/runner.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

namespace iclproof {

// 2^log2_value as "1.23e-45" (three significant digits); "0" for -inf, "inf", "NaN".
std::string format_pow2(double log2_value);
// log10(tolerance / error) as "+1.2"; "exact" for +inf, "-inf", "n/a" for NaN.
std::string format_margin(double margin_log10);
// A property's margin as text: "exact" when its worst check had zero error (even if that check's
// tolerance was 0 too, which leaves log10(tolerance/error) undefined), else format_margin.
std::string margin_text(const property_result& r);
// Finite doubles as numbers; -inf, +inf and NaN as null (in nlohmann::json or ordered_json).
template <class Json = nlohmann::json>
Json number_or_null(double x) {
  return std::isfinite(x) ? Json(x) : Json(nullptr);
}

}  // namespace iclproof
