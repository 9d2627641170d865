// Size profiles: `check --size small|paper|large` and `report --size ...` choose how
// large the dimensions d, the numbers of examples N and the depths (layers, steps) that the
// properties draw may be.
//   small: the ranges each property has always drawn (the default, and the CI's).
//   paper: the sizes of the papers' own experiments, d <= 20, N <= 100, depth <= 16:
//          von Oswald et al. 2023 train 5-layer (and looped) LSA stacks (section 3; their d and
//          N are lost in the text of shared/papers, so not cited from it); the Memformer paper uses
//          d = 5, n = 20 and up to 7 layers at d = 10 (its Appendix C); Akyurek et al. 2023 sweep
//          d in {1, ..., 20} and L in {1, 2, 4, 8, 12, 16} layers (their Appendix H); N = 20-100
//          covers the in-context example counts of these experiments.
//   large: d <= 64, N <= 512, depth <= 16: transformer-sized cases, beyond the papers.
// A property draws a size through sized_max / draw_size below, naming the axis and its small
// range; under paper and large the top of that range becomes the profile's cap (never lower than
// the small top). What each property does with the profile, or why it cannot follow it, is
// stated per property beside its definition (ICLPROOF_SIZES, size_statement.hpp) and shown by
// `iclproof list`.
//
// The profile in force is process-wide state, like the MPFR precision: the runner sets it from
// run_config::size before every block of cases and every shrink (harness/runner.cpp), in
// whatever process runs them, so a body reads it with current_size_profile().
#pragma once

#include "core/scalar.hpp"

#include <rapidcheck.h>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

namespace iclproof {

enum class size_profile { small, paper, large };
inline constexpr size_profile all_size_profiles[] = {size_profile::small, size_profile::paper,
                                                     size_profile::large};

std::string size_profile_name(size_profile p);
std::optional<size_profile> parse_size_profile(std::string_view text);

// What a drawn size measures.
enum class size_axis {
  dimension,  // d, the input dimension (and sizes that scale with it)
  examples,   // N, the number of in-context examples
  depth,      // L or K: layers, steps, iterations
};

// The cap of an axis under a profile (paper: 20, 100, 16; large: 64, 512, 16); under small there
// is no cap of its own (each property keeps its range): 0.
int size_profile_cap(size_profile p, size_axis a);

size_profile current_size_profile();
// Sets the profile in force until destroyed (then restores the previous one).
class scoped_size_profile {
 public:
  explicit scoped_size_profile(size_profile p);
  ~scoped_size_profile();
  scoped_size_profile(const scoped_size_profile&) = delete;
  scoped_size_profile& operator=(const scoped_size_profile&) = delete;

 private:
  size_profile previous_;
};

// The largest size drawn on each axis since the last reset, in this process: what
// tests/unit/size_profile_test.cpp counts to show that a profile changes the sizes drawn.
// Recorded by draw_size, gen_task_spec and the generators that set a size after it.
// The runner also keeps them per block of cases (harness/runner.hpp case_block::drawn), so every
// result says at which sizes its verdict and trust level were reached (shared/TRUST.md: "the
// report shows the strongest level reached and the sizes at which it was reached"). 0 on an
// axis: no size of that axis was drawn through the profile (a fixed layout; `list` says why).
struct drawn_size_maxima {
  int dimension = 0, examples = 0, depth = 0;
  bool any() const { return dimension > 0 || examples > 0 || depth > 0; }
  friend bool operator==(const drawn_size_maxima&, const drawn_size_maxima&) = default;
};
drawn_size_maxima& drawn_sizes();
void note_drawn_size(size_axis a, int value);
// The axis-wise maximum of two records (merging blocks of cases).
drawn_size_maxima max_of(const drawn_size_maxima& a, const drawn_size_maxima& b);
// "d <= 8, N <= 20, depth <= 3" over the axes drawn, or "fixed sizes (none drawn through the
// size profile)" when none was.
std::string drawn_size_text(const drawn_size_maxima& m);

// Exact rationals keep the small ranges under every profile: their numerators and denominators
// grow with every product and sum (about linearly in the depth times the data's bit length per
// layer, and a ridge or Gram solve at d = 64 multiplies them again), so a case at paper or large
// sizes would run for hours. Stated once here; `list` shows it.
inline constexpr std::string_view exact_scalar_size_note =
    "in the exact rational mode the small ranges are kept under every profile (rational bit "
    "lengths grow with every layer and every product)";

// The top of a size's range: small_max under the small profile or for an exact scalar, else
// the profile's cap of the axis (or small_max if that is larger).
template <class T>
int sized_max(size_axis a, int small_max) {
  const size_profile p = current_size_profile();
  if (p == size_profile::small || is_exact_scalar<T>) return small_max;
  return std::max(small_max, size_profile_cap(p, a));
}

// A size drawn in [min, sized_max<T>(a, small_max)]. Under the small profile (and for exact
// scalars) exactly the draw the property always made, *rc::gen::inRange(min, small_max + 1),
// so small-profile cases are unchanged; under paper and large every value of the wider range is
// equally likely from the first case on (RapidCheck's inRange would scale the range with the
// case's size and reach the top only in the last cases). Shrinking moves towards min.
template <class T>
int draw_size(size_axis a, int min, int small_max) {
  const int top = sized_max<T>(a, small_max);
  const int v = top == small_max ? *rc::gen::inRange(min, small_max + 1)
                                 : *rc::gen::resize(100, rc::gen::inRange(min, top + 1));
  note_drawn_size(a, v);
  return v;
}

}  // namespace iclproof
