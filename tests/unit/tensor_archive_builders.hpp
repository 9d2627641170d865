// Builders of PyTorch .pt and numpy .npz bytes for the archive readers' tests
// (compare/tensor_archives.hpp): a zip archive of stored entries (as torch.save and numpy.savez
// write them; CRCs are left 0, which the reader does not check), the pickle torch.save writes
// for a state_dict of one tensor, and .npy arrays. Each piece can be made wrong on purpose.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tensor_archive_builders {

inline void put_le(std::string& s, std::uint64_t v, int width) {
  for (int i = 0; i < width; ++i) s += char((v >> (8 * i)) & 0xff);
}

// A zip archive of (name, bytes) entries; `method` 0 stores, 8 claims deflate.
inline std::string zip(const std::vector<std::pair<std::string, std::string>>& entries,
                       int method = 0) {
  std::string out, central;
  for (const auto& [name, data] : entries) {
    const std::size_t local = out.size();
    put_le(out, 0x04034b50, 4);
    put_le(out, 20, 2);
    put_le(out, 0, 2);
    put_le(out, std::uint64_t(method), 2);
    put_le(out, 0, 4);  // time, date
    put_le(out, 0, 4);  // crc
    put_le(out, data.size(), 4);
    put_le(out, data.size(), 4);
    put_le(out, name.size(), 2);
    put_le(out, 0, 2);
    out += name + data;
    put_le(central, 0x02014b50, 4);
    put_le(central, 20, 2);
    put_le(central, 20, 2);
    put_le(central, 0, 2);
    put_le(central, std::uint64_t(method), 2);
    put_le(central, 0, 4);
    put_le(central, 0, 4);
    put_le(central, data.size(), 4);
    put_le(central, data.size(), 4);
    put_le(central, name.size(), 2);
    put_le(central, 0, 2);
    put_le(central, 0, 2);
    put_le(central, 0, 2);
    put_le(central, 0, 2);
    put_le(central, 0, 4);
    put_le(central, local, 4);
    central += name;
  }
  const std::size_t cd_offset = out.size();
  out += central;
  put_le(out, 0x06054b50, 4);
  put_le(out, 0, 4);
  put_le(out, entries.size(), 2);
  put_le(out, entries.size(), 2);
  put_le(out, central.size(), 4);
  put_le(out, cd_offset, 4);
  put_le(out, 0, 2);
  return out;
}

inline std::string unicode(const std::string& s) {
  std::string o = "X";
  put_le(o, s.size(), 4);
  return o + s;
}
inline std::string int1(int v) { return std::string("K") + char(v); }

// The pickle torch.save writes for OrderedDict{name: tensor} (protocol 2), the tensor a view of
// storage 0 of type `storage` ("FloatStorage", ...) with `numel` elements.
inline std::string state_dict_pickle(const std::string& name, const std::string& storage, int numel,
                                     const std::vector<int>& shape, const std::vector<int>& stride,
                                     int offset = 0) {
  std::string p = "\x80\x02";
  p += "ccollections\nOrderedDict\n)R";
  p += "(" + unicode(name);
  p += "ctorch._utils\n_rebuild_tensor_v2\n(";
  p += "(" + unicode("storage") + "ctorch\n" + storage + "\n" + unicode("0") + unicode("cpu") +
       int1(numel) + "tQ";
  p += int1(offset) + "(";
  for (int s : shape) p += int1(s);
  p += "t(";
  for (int s : stride) p += int1(s);
  p += "t\x89";
  p += "ccollections\nOrderedDict\n)R";
  p += "tR";
  p += "u";
  p += "}" + unicode("_metadata") + "ccollections\nOrderedDict\n)R" + "sb.";
  return p;
}

template <class F>
std::string raw_bytes(const std::vector<F>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(F));
}

// torch.save's archive: <stem>/data.pkl, <stem>/data/0, <stem>/version.
inline std::string pytorch_file(const std::string& pickle, const std::string& storage_bytes) {
  return zip({{"archive/data.pkl", pickle},
              {"archive/data/0", storage_bytes},
              {"archive/version", "3\n"}});
}

// One .npy array (version 1.0); `descr` e.g. "<f4".
inline std::string npy(const std::string& descr, const std::string& shape, bool fortran,
                       const std::string& data) {
  std::string header = "{'descr': '" + descr +
                       "', 'fortran_order': " + (fortran ? "True" : "False") +
                       ", 'shape': " + shape + ", }";
  while ((10 + header.size() + 1) % 64) header += ' ';
  header += '\n';
  std::string out = "\x93NUMPY";
  out += char(1);
  out += char(0);
  put_le(out, header.size(), 2);
  return out + header + data;
}

}  // namespace tensor_archive_builders
