#include "compare/model_files.hpp"

#include "compare/peer_models.hpp"
#include "compare/tensor_archives.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace iclproof {

namespace {
std::string file_type_text(std::filesystem::file_type t) {
  using ft = std::filesystem::file_type;
  switch (t) {
    case ft::directory:
      return "a directory";
    case ft::character:
      return "a character device";
    case ft::block:
      return "a block device";
    case ft::fifo:
      return "a FIFO (named pipe)";
    case ft::socket:
      return "a socket";
    case ft::regular:
      return "a regular file";
    default:
      return "an unknown kind of file";
  }
}
}  // namespace

std::string read_model_file_bytes(const std::string& path, const weights_limits& limits) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw weights_file_error(fmt::format("weights file {}: no such file", path));
  // Only a regular file (or a link to one): a directory, device (/dev/null reports size 0 and
  // a huge max_size), FIFO (opening it would block until a writer comes) or socket is refused
  // before it is opened. stat() does not block on a FIFO.
  const auto type = std::filesystem::status(path, ec).type();
  if (type != std::filesystem::file_type::regular)
    throw weights_file_error(
        fmt::format("weights file {}: is {}, not a regular file", path, file_type_text(type)));
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec && size > limits.max_bytes)
    throw weights_file_error(
        fmt::format("weights file {}: {} bytes, more than the limit of {} bytes", path, size,
                    limits.max_bytes));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw weights_file_error(fmt::format("weights file {}: cannot be opened", path));
  std::string text;
  text.reserve(static_cast<std::size_t>(size));
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, static_cast<std::size_t>(in.gcount()));
    if (text.size() > limits.max_bytes)
      throw weights_file_error(
          fmt::format("weights file {}: more than the limit of {} bytes", path, limits.max_bytes));
  }
  if (in.bad()) throw weights_file_error(fmt::format("weights file {}: read error", path));
  return text;
}

weights_file read_weights_file(const std::string& path, const weights_limits& limits) {
  const std::string text = read_model_file_bytes(path, limits);
  // A sidecar naming a peer's model (compare/peer_models.hpp) is read through its layout.
  if (text.find(peer_model_schema) != std::string::npos &&
      nesting_depth(text, limits.max_nesting) <= limits.max_nesting) {
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_object() && j.contains("schema") && j["schema"].is_string() &&
        j["schema"].get<std::string>() == peer_model_schema) {
      const std::string tensor_file = peer_tensor_file_path(j, path);
      std::string bytes;
      try {
        bytes = read_model_file_bytes(tensor_file, limits);
      } catch (const weights_file_error& e) {  // missing, a directory, too large: name the sidecar
        throw weights_file_error(
            fmt::format("peer model {}: the tensor file its 'weights' names: {}", path, e.what()));
      }
      return read_peer_model(j, path, tensor_file, parse_tensor_file(bytes, tensor_file, limits),
                             limits);
    }
  }
  return parse_weights_file(text, path, limits);
}

}  // namespace iclproof
