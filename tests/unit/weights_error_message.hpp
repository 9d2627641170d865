// The message of the one weights_file_error a reader call throws, or "accepted" when it throws
// none; the message must be one line (the readers' contract for bad files, docs/weights.md).
#pragma once

#include "compare/weights_file.hpp"

#include <catch2/catch.hpp>

#include <functional>
#include <string>

inline std::string weights_error_message(const std::function<void()>& f) {
  try {
    f();
  } catch (const iclproof::weights_file_error& e) {
    const std::string m = e.what();
    CHECK(m.find('\n') == std::string::npos);
    return m;
  }
  return "accepted";
}
