#include "harness/size_profile.hpp"

namespace iclproof {

namespace {
size_profile& profile_in_force() {
  static size_profile p = size_profile::small;
  return p;
}
}  // namespace

std::string size_profile_name(size_profile p) {
  switch (p) {
    case size_profile::small:
      return "small";
    case size_profile::paper:
      return "paper";
    case size_profile::large:
      return "large";
  }
  return "small";
}

std::optional<size_profile> parse_size_profile(std::string_view text) {
  for (size_profile p : all_size_profiles)
    if (text == size_profile_name(p)) return p;
  return std::nullopt;
}

int size_profile_cap(size_profile p, size_axis a) {
  switch (p) {
    case size_profile::small:
      return 0;
    case size_profile::paper:
      return a == size_axis::dimension ? 20 : a == size_axis::examples ? 100 : 16;
    case size_profile::large:
      return a == size_axis::dimension ? 64 : a == size_axis::examples ? 512 : 16;
  }
  return 0;
}

drawn_size_maxima& drawn_sizes() {
  static drawn_size_maxima m;
  return m;
}

void note_drawn_size(size_axis a, int value) {
  drawn_size_maxima& m = drawn_sizes();
  int& slot = a == size_axis::dimension  ? m.dimension
              : a == size_axis::examples ? m.examples
                                         : m.depth;
  slot = std::max(slot, value);
}

drawn_size_maxima max_of(const drawn_size_maxima& a, const drawn_size_maxima& b) {
  return {std::max(a.dimension, b.dimension), std::max(a.examples, b.examples),
          std::max(a.depth, b.depth)};
}

std::string drawn_size_text(const drawn_size_maxima& m) {
  if (!m.any()) return "fixed sizes (none drawn through the size profile)";
  std::string s;
  const auto add = [&s](const char* axis, int v) {
    if (v > 0) s += (s.empty() ? "" : ", ") + std::string(axis) + " <= " + std::to_string(v);
  };
  add("d", m.dimension);
  add("N", m.examples);
  add("depth", m.depth);
  return s;
}

size_profile current_size_profile() { return profile_in_force(); }

scoped_size_profile::scoped_size_profile(size_profile p) : previous_(profile_in_force()) {
  profile_in_force() = p;
}
scoped_size_profile::~scoped_size_profile() { profile_in_force() = previous_; }

}  // namespace iclproof
