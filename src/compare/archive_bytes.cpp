#include "compare/archive_bytes.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <memory>
#include <utility>

namespace iclproof::archive_bytes {

static_assert(std::endian::native == std::endian::little,
              "the tensor files hold little-endian data; these readers copy them as they are");

[[noreturn]] void fail(const std::string& source, const std::string& what) {
  std::string msg = fmt::format("peer model {}: {}", source, what);
  for (char& c : msg)
    if (c == '\n' || c == '\r') c = ' ';
  throw weights_file_error(msg);
}

std::uint64_t little_endian(std::string_view b, std::size_t at, int width) {
  std::uint64_t v = 0;
  for (int i = width - 1; i >= 0; --i)
    v = (v << 8) | static_cast<unsigned char>(b[at + std::size_t(i)]);
  return v;
}

void check_size_limit(std::string_view bytes, const std::string& source,
                      const weights_limits& limits) {
  if (bytes.size() > limits.max_bytes)
    fail(source,
         fmt::format("{} bytes, more than the limit of {}", bytes.size(), limits.max_bytes));
}

// float32 or float64 values (little-endian) at `raw`, read through shape/stride/offset (in
// elements) into a row-major peer_tensor. `available` is the number of elements at raw.
peer_tensor gather(const char* raw, std::size_t width, std::uint64_t available,
                   const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& stride,
                   std::int64_t offset, const std::string& source, const std::string& where,
                   const weights_limits& limits) {
  peer_tensor t;
  t.shape = shape;
  std::uint64_t count = 1;
  std::uint64_t last = std::uint64_t(offset);  // the largest element index read
  if (shape.size() > 16) fail(source, where + ": more than 16 dimensions");
  for (std::size_t k = 0; k < shape.size(); ++k) {
    if (shape[k] < 0 || shape[k] > (std::int64_t{1} << 31) || stride[k] < 0 ||
        stride[k] > (std::int64_t{1} << 31))
      fail(source, where + ": shape and stride entries must be non-negative and below 2^31");
    count *= std::uint64_t(shape[k]);
    if (count > limits.max_bytes) fail(source, where + ": more entries than the size limit");
  }
  if (offset < 0) fail(source, where + ": negative storage offset");
  if (count > 0) {
    // Each term is below 2^62 and `last` below `available` before it is added: no overflow.
    for (std::size_t k = 0; k < shape.size(); ++k) {
      last += std::uint64_t(shape[k] - 1) * std::uint64_t(stride[k]);
      if (last >= available)
        fail(source,
             fmt::format("{}: reads past the end of its storage of {} elements", where, available));
    }
    if (last >= available)
      fail(source,
           fmt::format("{}: reads past the end of its storage of {} elements", where, available));
  }
  t.data.resize(std::size_t(count));
  std::vector<std::int64_t> index(shape.size(), 0);
  for (std::size_t i = 0; i < count; ++i) {
    std::uint64_t at = std::uint64_t(offset);
    for (std::size_t k = 0; k < shape.size(); ++k) at += std::uint64_t(index[k] * stride[k]);
    double v;
    if (width == 4) {
      float f;
      std::memcpy(&f, raw + at * 4, 4);
      v = f;  // exact
    } else {
      std::memcpy(&v, raw + at * 8, 8);
    }
    if (!std::isfinite(v)) fail(source, fmt::format("{}: entry {} is not finite", where, i));
    t.data[i] = v;
    for (std::size_t k = shape.size(); k-- > 0;) {  // row-major odometer
      if (++index[k] < shape[k]) break;
      index[k] = 0;
    }
  }
  return t;
}

std::vector<std::int64_t> row_major_strides(const std::vector<std::int64_t>& shape) {
  std::vector<std::int64_t> s(shape.size(), 1);
  for (std::size_t k = shape.size(); k-- > 1;)
    s[k - 1] = s[k] * std::max<std::int64_t>(shape[k], 1);
  return s;
}

// ---- zip archives (stored entries only, as torch.save and numpy.savez write them) ----------

std::map<std::string, zip_entry> read_zip(std::string_view b, const std::string& source) {
  constexpr std::size_t eocd_size = 22;
  if (b.size() < eocd_size) fail(source, "a zip archive shorter than its end record (truncated)");
  std::size_t eocd = std::string_view::npos;
  const std::size_t lowest = b.size() >= eocd_size + 65535 ? b.size() - eocd_size - 65535 : 0;
  for (std::size_t at = b.size() - eocd_size + 1; at-- > lowest;)
    if (little_endian(b, at, 4) == 0x06054b50) {
      eocd = at;
      break;
    }
  if (eocd == std::string_view::npos)
    fail(source, "a zip archive without its end record (truncated or damaged)");
  const std::uint64_t entries = little_endian(b, eocd + 10, 2);
  const std::uint64_t cd_size = little_endian(b, eocd + 12, 4);
  const std::uint64_t cd_offset = little_endian(b, eocd + 16, 4);
  if (entries == 0xffff || cd_size == 0xffffffff || cd_offset == 0xffffffff)
    fail(source, "a zip64 archive (over 4 GiB or 65535 entries): beyond this reader");
  if (cd_offset > eocd || cd_size > eocd - cd_offset)
    fail(source, "the zip central directory lies outside the file (truncated or damaged)");
  std::map<std::string, zip_entry> out;
  std::size_t at = std::size_t(cd_offset);
  for (std::uint64_t e = 0; e < entries; ++e) {
    if (at + 46 > eocd || little_endian(b, at, 4) != 0x02014b50)
      fail(source, fmt::format("zip central directory entry {} is damaged", e));
    const std::uint64_t method = little_endian(b, at + 10, 2);
    const std::uint64_t csize = little_endian(b, at + 20, 4), usize = little_endian(b, at + 24, 4);
    const std::size_t name_len = std::size_t(little_endian(b, at + 28, 2));
    const std::size_t extra_len = std::size_t(little_endian(b, at + 30, 2));
    const std::size_t comment_len = std::size_t(little_endian(b, at + 32, 2));
    const std::uint64_t local = little_endian(b, at + 42, 4);
    if (at + 46 + name_len + extra_len + comment_len > eocd)
      fail(source, fmt::format("zip central directory entry {} is damaged", e));
    const std::string name(b.substr(at + 46, name_len));
    at += 46 + name_len + extra_len + comment_len;
    if (local + 30 > b.size() || little_endian(b, std::size_t(local), 4) != 0x04034b50)
      fail(source, fmt::format("zip entry '{}': its local header is damaged", name));
    const std::uint64_t begin = local + 30 + little_endian(b, std::size_t(local) + 26, 2) +
                                little_endian(b, std::size_t(local) + 28, 2);
    if (begin > b.size() || csize > b.size() - begin)
      fail(source, fmt::format("zip entry '{}' runs past the end of the file (truncated)", name));
    zip_entry z{b.substr(std::size_t(begin), std::size_t(csize)), method == 0 && csize == usize};
    out[name] = z;
  }
  return out;
}

}  // namespace iclproof::archive_bytes
