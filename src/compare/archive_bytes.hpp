// The byte-level pieces the tensor-file readers (compare/tensor_archives.hpp) share: one
// weights_file_error per defect, little-endian integers, the size limit, float32/float64 values
// gathered through shape and strides into a row-major peer_tensor, and zip archives with stored
// entries (what torch.save and numpy.savez write). Internal to src/compare.
#pragma once

#include "compare/tensor_archives.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace iclproof::archive_bytes {

// Throws weights_file_error("peer model <source>: <what>"), newlines folded to spaces.
[[noreturn]] void fail(const std::string& source, const std::string& what);

// The unsigned little-endian integer of `width` bytes at b[at] (the caller checks the bounds).
std::uint64_t little_endian(std::string_view b, std::size_t at, int width);

void check_size_limit(std::string_view bytes, const std::string& source,
                      const weights_limits& limits);

// float32 (width 4) or float64 (width 8) values at `raw`, read through shape/stride/offset (in
// elements) into a row-major peer_tensor; `available` is the number of elements at raw. Every
// index is checked against it, and non-finite entries are refused.
peer_tensor gather(const char* raw, std::size_t width, std::uint64_t available,
                   const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& stride,
                   std::int64_t offset, const std::string& source, const std::string& where,
                   const weights_limits& limits);

std::vector<std::int64_t> row_major_strides(const std::vector<std::int64_t>& shape);

struct zip_entry {
  std::string_view data;
  bool stored = true;  // stored uncompressed (method 0), so `data` is the entry itself
};

// The entries of a zip archive by name, from its central directory; zip64 is refused.
std::map<std::string, zip_entry> read_zip(std::string_view b, const std::string& source);

}  // namespace iclproof::archive_bytes
