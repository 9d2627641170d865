#include "compare/tensor_archives.hpp"

#include "compare/archive_bytes.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <memory>
#include <utility>

namespace iclproof {

using namespace archive_bytes;

namespace {

// ---- npy headers ---------------------------------------------------------------------------

// The value of 'key' in a numpy header dict literal, up to the next ',' at depth 0 or '}'.
std::string npy_field(std::string_view header, const std::string& key, const std::string& source,
                      const std::string& where) {
  const std::string pattern = "'" + key + "':";
  const std::size_t at = header.find(pattern);
  if (at == std::string_view::npos)
    fail(source, fmt::format("{}: no '{}' in its header", where, key));
  std::size_t i = at + pattern.size();
  int depth = 0;
  std::string v;
  for (; i < header.size(); ++i) {
    const char c = header[i];
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (depth == 0 && (c == ',' || c == '}')) break;
    if (c != ' ') v += c;
  }
  if (depth != 0) fail(source, fmt::format("{}: its header is damaged", where));
  return v;
}

// One NAME.npy entry: magic, version, header length, a dict literal, the data.
peer_tensor parse_npy(std::string_view b, const std::string& source, const std::string& where,
                      const weights_limits& limits) {
  if (b.size() < 10 || b.substr(0, 6) != std::string_view("\x93NUMPY", 6))
    fail(source, where + ": not an .npy array (no \\x93NUMPY magic)");
  const int major = static_cast<unsigned char>(b[6]);
  const std::size_t len_width = major == 1 ? 2 : 4;
  if (major < 1 || major > 3 || b.size() < 8 + len_width)
    fail(source, fmt::format("{}: .npy version {} (this reader takes 1 to 3)", where, major));
  const std::uint64_t header_len = little_endian(b, 8, int(len_width));
  if (header_len > b.size() - 8 - len_width)
    fail(source, where + ": its header runs past the entry");
  const std::string_view header = b.substr(8 + len_width, std::size_t(header_len));
  const std::string_view data = b.substr(8 + len_width + std::size_t(header_len));
  const std::string descr = npy_field(header, "descr", source, where);
  const std::size_t width = descr == "'<f4'" ? 4 : descr == "'<f8'" ? 8 : 0;
  if (width == 0)
    fail(source, fmt::format("{}: dtype {} (this reader takes float32 '<f4' and float64 '<f8')",
                             where, descr));
  const std::string fortran = npy_field(header, "fortran_order", source, where);
  if (fortran != "False" && fortran != "True")
    fail(source, where + ": fortran_order is neither True nor False");
  const std::string shape_text = npy_field(header, "shape", source, where);
  if (shape_text.size() < 2 || shape_text.front() != '(' || shape_text.back() != ')')
    fail(source, where + ": its shape is not a tuple");
  std::vector<std::int64_t> shape;
  std::string number;
  for (char c : shape_text.substr(1)) {
    if (c >= '0' && c <= '9') {
      if (number.size() > 10) fail(source, where + ": a shape entry beyond 2^31");
      number += c;
    } else if (c == ',' || c == ')') {
      if (!number.empty()) shape.push_back(std::stoll(number));
      number.clear();
    } else {
      fail(source, where + ": its shape holds something other than integers");
    }
  }
  std::vector<std::int64_t> stride = row_major_strides(shape);
  if (fortran == "True") {  // column-major: the first index varies fastest
    std::int64_t s = 1;
    for (std::size_t k = 0; k < shape.size(); ++k) {
      stride[k] = s;
      s *= std::max<std::int64_t>(shape[k], 1);
    }
  }
  return gather(data.data(), width, data.size() / width, shape, stride, 0, source, where, limits);
}

}  // namespace

std::map<std::string, peer_tensor> parse_safetensors(std::string_view bytes,
                                                     const std::string& source,
                                                     const weights_limits& limits) {
  check_size_limit(bytes, source, limits);
  if (bytes.size() < 8) fail(source, "shorter than the 8-byte safetensors header length");
  const std::uint64_t n = little_endian(bytes, 0, 8);
  if (n > bytes.size() - 8)
    fail(source, fmt::format("header length {} exceeds the file ({} bytes)", n, bytes.size()));
  // Bounded nesting before parsing: a deeply nested value is destroyed recursively.
  const int max_depth = nesting_depth(bytes.substr(8, std::size_t(n)), limits.max_nesting);
  if (max_depth > limits.max_nesting)
    fail(source,
         fmt::format("safetensors header nested deeper than {} levels", limits.max_nesting));
  nlohmann::json header;
  try {
    const std::string_view text = bytes.substr(8, std::size_t(n));
    header = nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::exception& e) {
    fail(source, fmt::format("safetensors header is not valid JSON: {}", e.what()));
  }
  if (!header.is_object()) fail(source, "safetensors header is not a JSON object");
  const std::string_view data = bytes.substr(8 + std::size_t(n));
  std::map<std::string, peer_tensor> out;
  for (const auto& [name, t] : header.items()) {
    if (name == "__metadata__") continue;
    const std::string where = "tensor '" + name + "'";
    if (!t.is_object() || !t.contains("dtype") || !t["dtype"].is_string() || !t.contains("shape") ||
        !t["shape"].is_array() || !t.contains("data_offsets") || !t["data_offsets"].is_array() ||
        t["data_offsets"].size() != 2)
      fail(source, where + ": expected {dtype, shape, data_offsets}");
    const std::string dtype = t["dtype"].get<std::string>();
    const std::size_t width = dtype == "F32" ? 4 : dtype == "F64" ? 8 : 0;
    if (width == 0) fail(source, where + ": dtype " + dtype + " (this reader takes F32 and F64)");
    std::vector<std::int64_t> shape;
    std::uint64_t count = 1;
    for (const auto& s : t["shape"]) {
      if (!s.is_number_unsigned() || s.get<std::uint64_t>() > (std::uint64_t{1} << 31))
        fail(source, where + ": shape entries must be non-negative integers below 2^31");
      count *= s.get<std::uint64_t>();
      if (count > limits.max_bytes) fail(source, where + ": more entries than the size limit");
      shape.push_back(static_cast<std::int64_t>(s.get<std::uint64_t>()));
    }
    const auto& off = t["data_offsets"];
    if (!off[0].is_number_unsigned() || !off[1].is_number_unsigned())
      fail(source, where + ": data_offsets must be non-negative integers");
    const std::uint64_t begin = off[0].get<std::uint64_t>(), end = off[1].get<std::uint64_t>();
    if (begin > end || end > data.size() || end - begin != count * width)
      fail(source, fmt::format("{}: data_offsets [{}, {}) do not hold {} {} values in {} bytes",
                               where, begin, end, count, dtype, data.size()));
    out.emplace(name, gather(data.data() + begin, width, count, shape, row_major_strides(shape), 0,
                             source, where, limits));
  }
  return out;
}

std::map<std::string, peer_tensor> parse_npz(std::string_view bytes, const std::string& source,
                                             const weights_limits& limits) {
  check_size_limit(bytes, source, limits);
  if (bytes.substr(0, 4) != std::string_view("PK\x03\x04", 4))
    fail(source, "not a zip archive, so not an .npz file written by numpy.savez");
  std::map<std::string, peer_tensor> out;
  for (const auto& [name, e] : read_zip(bytes, source)) {
    if (!name.ends_with(".npy")) fail(source, fmt::format("entry '{}' is not an .npy array", name));
    const std::string where = "array '" + name.substr(0, name.size() - 4) + "'";
    if (!e.stored)
      fail(source, where + " is compressed (numpy.savez_compressed): save with numpy.savez");
    out.emplace(name.substr(0, name.size() - 4), parse_npy(e.data, source, where, limits));
  }
  return out;
}

std::map<std::string, peer_tensor> parse_tensor_file(std::string_view bytes,
                                                     const std::string& source,
                                                     const weights_limits& limits) {
  check_size_limit(bytes, source, limits);
  // The kind is named from the magic bytes, so that a file of none of the three kinds is called
  // what it is, not a damaged safetensors header.
  const std::string kinds =
      "a tensor file is a zip archive ('PK\\x03\\x04': PyTorch .pt or numpy .npz), a pickle "
      "(0x80: a legacy .pt) or a safetensors file (an 8-byte header length, then '{')";
  if (bytes.empty()) fail(source, "an empty file (0 bytes), not a tensor file: " + kinds);
  if (bytes.substr(0, 4) == std::string_view("PK\x03\x04", 4)) {
    for (const auto& [name, e] : read_zip(bytes, source))
      if (name.ends_with("data.pkl")) return parse_pytorch_checkpoint(bytes, source, limits);
    return parse_npz(bytes, source, limits);
  }
  if (static_cast<unsigned char>(bytes[0]) == 0x80)
    return parse_pytorch_checkpoint(bytes, source, limits);  // names the legacy format
  if (bytes.size() >= 9 && bytes[8] == '{') return parse_safetensors(bytes, source, limits);
  const std::size_t first = bytes.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && (bytes[first] == '{' || bytes[first] == '['))
    fail(source, "JSON text, not a tensor file: " + kinds);
  std::string head;
  for (std::size_t i = 0; i < std::min<std::size_t>(bytes.size(), 8); ++i)
    head += fmt::format("{}{:02x}", i ? " " : "", static_cast<unsigned char>(bytes[i]));
  fail(source,
       fmt::format("a file of unknown kind (first bytes {}), not a tensor file: {}", head, kinds));
}

}  // namespace iclproof
