#include "tasks/rapidcheck_gen.hpp"

#include "harness/size_profile.hpp"

#include <cmath>

namespace iclproof {

namespace {
// RapidCheck's inRange scales the range with the case's size (0 to 100 over a run), so in 100
// cases the top of a range was drawn only in the last few: N = 22..24 and the largest anisotropic
// condition number were never drawn at the CI budget (tests/unit/task_generator_test.cpp).
// Drawing at full size makes every value equally likely from the first case; shrinking still
// moves towards the bottom of the range.
template <class I>
I uniform_in_range(I min, I max_exclusive) {
  return *rc::gen::resize(100, rc::gen::inRange<I>(min, max_exclusive));
}
}  // namespace

rc::Gen<task_spec> gen_task_spec(const task_ranges& r) {
  return rc::gen::exec([r] {
    task_spec s;
    s.d = uniform_in_range(r.d_min, r.d_max + 1);
    s.o = uniform_in_range(r.o_min, r.o_max + 1);
    s.N = uniform_in_range(r.N_min, r.N_max + 1);
    s.queries = r.queries;
    auto dists = r.distributions;
    // rank-deficient inputs need d >= 2
    if (s.d < 2) std::erase(dists, input_distribution::rank_deficient);
    if (dists.empty()) dists = {input_distribution::gaussian};
    s.distribution = *rc::gen::elementOf(dists);
    if (s.distribution == input_distribution::anisotropic) {
      const int k = uniform_in_range(0, 7);  // cond = max_condition^(k/6)
      s.condition = std::pow(r.max_condition, k / 6.0);
    }
    if (s.distribution == input_distribution::rank_deficient) s.rank = uniform_in_range(1, s.d);
    if (r.max_noise > 0.0) s.noise = *rc::gen::elementOf(std::vector<double>{0.0, r.max_noise});
    s.seed = *rc::gen::inRange<std::uint64_t>(0, 1u << 30);
    note_drawn_size(size_axis::dimension, s.d);
    note_drawn_size(size_axis::examples, s.N);
    return s;
  });
}

}  // namespace iclproof
