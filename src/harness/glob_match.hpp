// Glob matching of property names (`*` any run of characters, `?` one character). Its own
// header so that a translation unit that only matches names (report/registries.cpp) does not
// include the RapidCheck runner.
#pragma once

#include <string_view>

namespace iclproof {

bool glob_match(std::string_view pattern, std::string_view text);

}  // namespace iclproof
