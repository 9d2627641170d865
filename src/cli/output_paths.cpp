#include "cli/output_paths.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>

namespace iclproof {

namespace fs = std::filesystem;

void require_writable_file(const std::string& path, const std::string& option) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (fs::exists(st)) {
    if (fs::is_directory(st))
      throw std::runtime_error(fmt::format("{} {}: is a directory, not a file", option, path));
    if (::access(path.c_str(), W_OK) != 0)
      throw std::runtime_error(fmt::format("{} {}: not writable", option, path));
    return;
  }
  fs::path parent = fs::path(path).parent_path();
  if (parent.empty()) parent = ".";
  if (!fs::is_directory(parent, ec))
    throw std::runtime_error(fmt::format("{} {}: cannot be written (folder {} does not exist)",
                                         option, path, parent.string()));
  if (::access(parent.c_str(), W_OK | X_OK) != 0)
    throw std::runtime_error(fmt::format("{} {}: cannot be written (folder {} is not writable)",
                                         option, path, parent.string()));
}

void require_writable_folder(const std::string& path, const std::string& option) {
  std::error_code ec;
  fs::create_directories(path, ec);
  if (ec || !fs::is_directory(path) || ::access(path.c_str(), W_OK | X_OK) != 0)
    throw std::runtime_error(fmt::format("{} {}: cannot write the report folder there{}", option,
                                         path, ec ? " (" + ec.message() + ")" : ""));
}

}  // namespace iclproof
