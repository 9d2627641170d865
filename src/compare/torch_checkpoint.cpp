// The .pt reader of compare/tensor_archives.hpp: torch.save's zip archive and a restricted
// pickle interpreter for the state_dict it holds (why not LibTorch: tensor_archives.hpp).
#include "compare/archive_bytes.hpp"
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

using namespace archive_bytes;

namespace {

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

}  // namespace

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

}  // namespace iclproof
