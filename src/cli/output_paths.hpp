// Output paths are checked before any work starts: a long run at 1024 bits must not end in
// "cannot write" after its work is done. Each throws std::runtime_error with a one-line message
// naming the option.
#pragma once

#include <string>

namespace iclproof {

// FILE will be (over)written: it is an existing writable non-directory, or it does not exist yet
// and its parent folder exists and is writable. Nothing is created.
void require_writable_file(const std::string& path, const std::string& option);

// DIR is (made) a writable folder: created with its parents if missing.
void require_writable_folder(const std::string& path, const std::string& option);

}  // namespace iclproof
