#include "compare/tensor_archives.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <memory>
#include <utility>

namespace iclproof {

namespace {

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

struct zip_entry {
  std::string_view data;
  bool stored = true;
};

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

// ---- the restricted pickle interpreter (state_dicts of torch.save) -------------------------

struct pvalue;
using pref = std::shared_ptr<pvalue>;
struct pvalue {
  enum class kind {
    none,
    boolean,
    integer,
    floating,
    string,
    tuple,
    list,
    dict,
    global,
    storage,
    tensor
  };
  kind k = kind::none;
  std::int64_t i = 0;
  double f = 0;
  std::string s;            // string; global "module.name"; storage: its dtype's type name
  std::vector<pref> items;  // tuple, list
  std::vector<std::pair<pref, pref>> entries;  // dict (in order)
  std::string key;                             // storage: its record key
  std::int64_t numel = 0;                      // storage
  pref storage;                                // tensor
  std::int64_t offset = 0;                     // tensor
  std::vector<std::int64_t> shape, stride;     // tensor
  int depth = 1;
};

const char* kind_name(pvalue::kind k) {
  switch (k) {
    case pvalue::kind::none:
      return "None";
    case pvalue::kind::boolean:
      return "bool";
    case pvalue::kind::integer:
      return "int";
    case pvalue::kind::floating:
      return "float";
    case pvalue::kind::string:
      return "str";
    case pvalue::kind::tuple:
      return "tuple";
    case pvalue::kind::list:
      return "list";
    case pvalue::kind::dict:
      return "dict";
    case pvalue::kind::global:
      return "a callable";
    case pvalue::kind::storage:
      return "a storage";
    case pvalue::kind::tensor:
      return "tensor";
  }
  return "?";
}

// The callables a state_dict pickle names; anything else is refused before it is used.
bool known_global(const std::string& g) {
  static const char* const known[] = {"collections.OrderedDict", "torch._utils._rebuild_tensor_v2",
                                      "torch._utils._rebuild_parameter"};
  if (std::find(std::begin(known), std::end(known), g) != std::end(known)) return true;
  return g.starts_with("torch.") && g.ends_with("Storage") && g.find('.', 6) == std::string::npos;
}

class unpickler {
 public:
  unpickler(std::string_view code, const std::string& source) : b_(code), source_(source) {}
  // A hostile pickle can make a container hold itself (BINGET, then SETITEM): reference cycles
  // that shared_ptr never frees. Every value made is cleared here, which breaks any cycle.
  ~unpickler() {
    for (const auto& v : made_) {
      v->items.clear();
      v->entries.clear();
      v->storage.reset();
    }
  }
  unpickler(const unpickler&) = delete;
  unpickler& operator=(const unpickler&) = delete;

  pref run() {
    while (true) {
      const unsigned char op = byte();
      switch (op) {
        case 0x80:
          byte();
          break;  // PROTO
        case 0x95:
          bytes(8);
          break;   // FRAME
        case '.':  // STOP
          if (stack_.size() != 1 || !marks_.empty()) bad("STOP with an unbalanced stack");
          return stack_.back();
        case '(':
          marks_.push_back(stack_.size());
          break;  // MARK
        case '}':
          push(make(pvalue::kind::dict));
          break;
        case ']':
          push(make(pvalue::kind::list));
          break;
        case ')':
          push(make(pvalue::kind::tuple));
          break;
        case 't':
          push(tuple_of(pop_mark()));
          break;
        case 0x85:
          push(tuple_of(pop_n(1)));
          break;
        case 0x86:
          push(tuple_of(pop_n(2)));
          break;
        case 0x87:
          push(tuple_of(pop_n(3)));
          break;
        case 'N':
          push(make(pvalue::kind::none));
          break;
        case 0x88:
        case 0x89: {  // NEWTRUE, NEWFALSE
          auto v = make(pvalue::kind::boolean);
          v->i = op == 0x88;
          push(v);
          break;
        }
        case 'K':
          push(integer(std::int64_t(little_endian(bytes(1), 0, 1))));
          break;
        case 'M':
          push(integer(std::int64_t(little_endian(bytes(2), 0, 2))));
          break;
        case 'J':
          push(integer(std::int64_t(std::int32_t(std::uint32_t(little_endian(bytes(4), 0, 4))))));
          break;
        case 0x8a: {  // LONG1
          const std::size_t n = byte();
          if (n > 8) bad("an integer wider than 64 bits");
          const std::string_view d = bytes(n);
          std::uint64_t u = n ? little_endian(d, 0, int(n)) : 0;
          if (n > 0 && n < 8 && (static_cast<unsigned char>(d[n - 1]) & 0x80))
            u |= ~std::uint64_t{0} << (8 * n);  // sign-extend
          push(integer(std::int64_t(u)));
          break;
        }
        case 'G': {  // BINFLOAT, big-endian
          const std::string_view d = bytes(8);
          std::uint64_t u = 0;
          for (char c : d) u = (u << 8) | static_cast<unsigned char>(c);
          auto v = make(pvalue::kind::floating);
          std::memcpy(&v->f, &u, 8);
          push(v);
          break;
        }
        case 'X':
          push(string(bytes(std::size_t(little_endian(bytes(4), 0, 4)))));
          break;
        case 0x8c:
          push(string(bytes(byte())));
          break;  // SHORT_BINUNICODE
        case 'q':
          put(little_endian(bytes(1), 0, 1));
          break;
        case 'r':
          put(little_endian(bytes(4), 0, 4));
          break;
        case 0x94:
          put(memo_.size());
          break;  // MEMOIZE
        case 'h':
          get(little_endian(bytes(1), 0, 1));
          break;
        case 'j':
          get(little_endian(bytes(4), 0, 4));
          break;
        case 'c': {  // GLOBAL module\nname\n
          const std::string module = line(), name = line();
          push(global(module + "." + name));
          break;
        }
        case 0x93: {  // STACK_GLOBAL
          const pref name = pop(), module = pop();
          if (name->k != pvalue::kind::string || module->k != pvalue::kind::string)
            bad("STACK_GLOBAL of non-strings");
          push(global(module->s + "." + name->s));
          break;
        }
        case 'Q':
          push(persistent(pop()));
          break;     // BINPERSID
        case 'R': {  // REDUCE
          const pref args = pop(), callable = pop();
          push(reduce(callable, args));
          break;
        }
        case 'b': {  // BUILD: attributes (e.g. _metadata)
          const pref state = pop();
          (void)state;
          if (top()->k != pvalue::kind::dict && top()->k != pvalue::kind::tensor)
            bad(fmt::format("BUILD on {}", kind_name(top()->k)));
          break;
        }
        case 's': {  // SETITEM
          const pref v = pop(), key = pop();
          set_items(top(), {key, v});
          break;
        }
        case 'u': {  // SETITEMS
          const std::vector<pref> kv = pop_mark();
          if (kv.size() % 2) bad("SETITEMS with an odd number of values");
          set_items(top(), kv);
          break;
        }
        case 'a': {  // APPEND
          const pref v = pop();
          append(top(), {v});
          break;
        }
        case 'e': {  // APPENDS
          const std::vector<pref> vs = pop_mark();
          append(top(), vs);
          break;
        }
        default:
          bad(fmt::format("pickle opcode 0x{:02x} at byte {}, which a state_dict does not use", op,
                          at_ - 1));
      }
    }
  }

 private:
  static constexpr int max_depth = 32;
  static constexpr std::size_t max_memo = std::size_t{1} << 20;

  [[noreturn]] void bad(const std::string& what) const {
    fail(source_, "data.pkl: " + what + " (not a state_dict written by torch.save, or damaged)");
  }
  unsigned char byte() {
    if (at_ >= b_.size()) bad("the pickle ends early (truncated)");
    return static_cast<unsigned char>(b_[at_++]);
  }
  std::string_view bytes(std::size_t n) {
    if (n > b_.size() - at_) bad("the pickle ends early (truncated)");
    const std::string_view v = b_.substr(at_, n);
    at_ += n;
    return v;
  }
  std::string line() {
    const std::size_t end = b_.find('\n', at_);
    if (end == std::string_view::npos || end - at_ > 256) bad("a GLOBAL without its name");
    std::string s(b_.substr(at_, end - at_));
    at_ = end + 1;
    return s;
  }
  pref make(pvalue::kind k) {
    auto v = std::make_shared<pvalue>();
    v->k = k;
    made_.push_back(v);
    return v;
  }
  pref integer(std::int64_t i) {
    auto v = make(pvalue::kind::integer);
    v->i = i;
    return v;
  }
  pref string(std::string_view s) {
    auto v = make(pvalue::kind::string);
    v->s = std::string(s);
    return v;
  }
  pref global(const std::string& g) {
    if (!known_global(g))
      bad(fmt::format("it names the callable {}, which this reader does not call", g));
    auto v = make(pvalue::kind::global);
    v->s = g;
    return v;
  }
  void push(pref v) {
    if (v->depth > max_depth) bad(fmt::format("values nested deeper than {} levels", max_depth));
    if (stack_.size() > (std::size_t{1} << 20)) bad("more than 2^20 values on the stack");
    stack_.push_back(std::move(v));
  }
  pref pop() {
    if (stack_.size() <= (marks_.empty() ? 0 : marks_.back())) bad("stack underflow");
    pref v = std::move(stack_.back());
    stack_.pop_back();
    return v;
  }
  const pref& top() const {
    if (stack_.size() <= (marks_.empty() ? 0 : marks_.back())) bad("stack underflow");
    return stack_.back();
  }
  std::vector<pref> pop_n(std::size_t n) {
    std::vector<pref> v(n);
    for (std::size_t i = n; i-- > 0;) v[i] = pop();
    return v;
  }
  std::vector<pref> pop_mark() {
    if (marks_.empty()) bad("a MARK is missing");
    const std::size_t m = marks_.back();
    marks_.pop_back();
    std::vector<pref> v(stack_.begin() + std::ptrdiff_t(m), stack_.end());
    stack_.resize(m);
    return v;
  }
  pref tuple_of(std::vector<pref> items) {
    auto v = make(pvalue::kind::tuple);
    for (const auto& x : items) v->depth = std::max(v->depth, x->depth + 1);
    v->items = std::move(items);
    return v;
  }
  void put(std::uint64_t index) {
    if (index >= max_memo) bad("a memo index beyond 2^20");
    if (memo_.size() <= index) memo_.resize(std::size_t(index) + 1);
    memo_[std::size_t(index)] = top();
  }
  void get(std::uint64_t index) {
    if (index >= memo_.size() || !memo_[std::size_t(index)]) bad("a memo entry that was never put");
    push(memo_[std::size_t(index)]);
  }
  void set_items(const pref& target, const std::vector<pref>& kv) {
    if (target->k != pvalue::kind::dict) bad(fmt::format("SETITEM on {}", kind_name(target->k)));
    for (std::size_t i = 0; i + 1 < kv.size(); i += 2) {
      target->depth = std::max({target->depth, kv[i]->depth + 1, kv[i + 1]->depth + 1});
      target->entries.emplace_back(kv[i], kv[i + 1]);
    }
    if (target->depth > max_depth)
      bad(fmt::format("values nested deeper than {} levels", max_depth));
  }
  void append(const pref& target, const std::vector<pref>& vs) {
    if (target->k != pvalue::kind::list) bad(fmt::format("APPEND on {}", kind_name(target->k)));
    for (const auto& v : vs) {
      target->depth = std::max(target->depth, v->depth + 1);
      target->items.push_back(v);
    }
    if (target->depth > max_depth)
      bad(fmt::format("values nested deeper than {} levels", max_depth));
  }
  // ('storage', <torch.XStorage>, key, location, numel)
  pref persistent(const pref& pid) {
    const auto& it = pid->items;
    if (pid->k != pvalue::kind::tuple || it.size() != 5 || it[0]->k != pvalue::kind::string ||
        it[0]->s != "storage" || it[1]->k != pvalue::kind::global ||
        it[2]->k != pvalue::kind::string || it[4]->k != pvalue::kind::integer || it[4]->i < 0)
      bad("a persistent id other than ('storage', type, key, location, numel)");
    auto v = make(pvalue::kind::storage);
    v->s = it[1]->s;
    v->key = it[2]->s;
    v->numel = it[4]->i;
    return v;
  }
  std::vector<std::int64_t> int_tuple(const pref& t, const char* what) const {
    if (t->k != pvalue::kind::tuple) bad(fmt::format("a tensor's {} is not a tuple", what));
    std::vector<std::int64_t> v;
    for (const auto& x : t->items) {
      if (x->k != pvalue::kind::integer)
        bad(fmt::format("a tensor's {} holds a non-integer", what));
      v.push_back(x->i);
    }
    return v;
  }
  pref reduce(const pref& callable, const pref& args) {
    if (callable->k != pvalue::kind::global || args->k != pvalue::kind::tuple)
      bad("REDUCE of something other than a known callable and its arguments");
    const auto& a = args->items;
    if (callable->s == "collections.OrderedDict") {
      if (!a.empty()) bad("OrderedDict called with arguments");
      return make(pvalue::kind::dict);
    }
    if (callable->s == "torch._utils._rebuild_tensor_v2") {
      // (storage, storage_offset, size, stride, requires_grad, backward_hooks[, metadata])
      if (a.size() < 4 || a[0]->k != pvalue::kind::storage || a[1]->k != pvalue::kind::integer)
        bad("_rebuild_tensor_v2 with arguments other than (storage, offset, size, stride, ...)");
      auto t = make(pvalue::kind::tensor);
      t->storage = a[0];
      t->offset = a[1]->i;
      t->shape = int_tuple(a[2], "size");
      t->stride = int_tuple(a[3], "stride");
      if (t->shape.size() != t->stride.size())
        bad("a tensor whose size and stride differ in length");
      return t;
    }
    if (callable->s == "torch._utils._rebuild_parameter") {  // (tensor, requires_grad, hooks)
      if (a.empty() || a[0]->k != pvalue::kind::tensor)
        bad("_rebuild_parameter without its tensor");
      return a[0];
    }
    bad(fmt::format("a call of {}", callable->s));
  }

  std::string_view b_;
  const std::string& source_;
  std::size_t at_ = 0;
  std::vector<pref> stack_;
  std::vector<std::size_t> marks_;
  std::vector<pref> memo_;
  std::vector<pref> made_;
};

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

std::map<std::string, peer_tensor> parse_pytorch_checkpoint(std::string_view bytes,
                                                            const std::string& source,
                                                            const weights_limits& limits) {
  check_size_limit(bytes, source, limits);
  if (!bytes.empty() && static_cast<unsigned char>(bytes[0]) == 0x80)
    fail(source,
         "a legacy (pre-1.6, non-zip) torch.save file: load it and save it again with "
         "torch.save (the zip format), or as safetensors");
  if (bytes.substr(0, 4) != std::string_view("PK\x03\x04", 4))
    fail(source, "not a zip archive, so not a .pt file written by torch.save");
  const std::map<std::string, zip_entry> zip = read_zip(bytes, source);
  std::string prefix;
  const zip_entry* pickle = nullptr;
  for (const auto& [name, e] : zip)
    if (name.ends_with("data.pkl") && std::count(name.begin(), name.end(), '/') == 1) {
      prefix = name.substr(0, name.size() - 8);
      pickle = &e;
    }
  if (pickle == nullptr)
    fail(source, "a zip archive without <archive>/data.pkl: not a torch.save file");
  if (!pickle->stored) fail(source, "data.pkl is compressed; torch.save stores it uncompressed");
  unpickler u(pickle->data, source);
  const pref root = u.run();
  if (root->k != pvalue::kind::dict)
    fail(source, fmt::format("the checkpoint holds a {}, not a state_dict (a dict of names to "
                             "tensors): save model.state_dict()",
                             kind_name(root->k)));
  std::map<std::string, peer_tensor> out;
  for (const auto& [k, v] : root->entries) {
    if (k->k != pvalue::kind::string) fail(source, "a state_dict key that is not a string");
    const std::string where = "tensor '" + k->s + "'";
    if (v->k != pvalue::kind::tensor)
      fail(source, fmt::format("'{}' is a {}, not a tensor: this reader takes a state_dict (names "
                               "to tensors), e.g. torch.save(model.state_dict(), path)",
                               k->s, kind_name(v->k)));
    const pvalue& st = *v->storage;
    const std::size_t width = st.s == "torch.FloatStorage"    ? 4
                              : st.s == "torch.DoubleStorage" ? 8
                                                              : 0;
    if (width == 0)
      fail(source, fmt::format("{}: dtype {} (this reader takes float32 and float64)", where,
                               st.s.substr(6)));
    const auto rec = zip.find(prefix + "data/" + st.key);
    if (rec == zip.end())
      fail(source,
           fmt::format("{}: its storage data/{} is missing from the archive", where, st.key));
    if (!rec->second.stored) fail(source, where + ": its storage is compressed");
    if (std::uint64_t(st.numel) > limits.max_bytes ||
        rec->second.data.size() != std::size_t(st.numel) * width)
      fail(source, fmt::format("{}: storage data/{} holds {} bytes, not {} elements of {} bytes",
                               where, st.key, rec->second.data.size(), st.numel, width));
    if (out.count(k->s)) fail(source, where + " appears twice");
    out.emplace(k->s, gather(rec->second.data.data(), width, std::uint64_t(st.numel), v->shape,
                             v->stride, v->offset, source, where, limits));
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
  if (bytes.substr(0, 4) == std::string_view("PK\x03\x04", 4)) {
    for (const auto& [name, e] : read_zip(bytes, source))
      if (name.ends_with("data.pkl")) return parse_pytorch_checkpoint(bytes, source, limits);
    return parse_npz(bytes, source, limits);
  }
  if (!bytes.empty() && static_cast<unsigned char>(bytes[0]) == 0x80)
    return parse_pytorch_checkpoint(bytes, source, limits);  // names the legacy format
  return parse_safetensors(bytes, source, limits);
}

}  // namespace iclproof
