#include "tasks/rapidcheck_gen.hpp"

#include <cmath>

namespace iclproof {

rc::Gen<task_spec> gen_task_spec(const task_ranges& r) {
  return rc::gen::exec([r] {
    task_spec s;
    s.d = *rc::gen::inRange(r.d_min, r.d_max + 1);
    s.o = *rc::gen::inRange(r.o_min, r.o_max + 1);
    s.N = *rc::gen::inRange(r.N_min, r.N_max + 1);
    s.queries = r.queries;
    auto dists = r.distributions;
    // rank-deficient inputs need d >= 2
    if (s.d < 2) std::erase(dists, input_distribution::rank_deficient);
    if (dists.empty()) dists = {input_distribution::gaussian};
    s.distribution = *rc::gen::elementOf(dists);
    if (s.distribution == input_distribution::anisotropic) {
      const int k = *rc::gen::inRange(0, 7);  // cond = max_condition^(k/6)
      s.condition = std::pow(r.max_condition, k / 6.0);
    }
    if (s.distribution == input_distribution::rank_deficient) s.rank = *rc::gen::inRange(1, s.d);
    if (r.max_noise > 0.0) s.noise = *rc::gen::elementOf(std::vector<double>{0.0, r.max_noise});
    s.seed = *rc::gen::inRange<std::uint64_t>(0, 1u << 30);
    return s;
  });
}

}  // namespace iclproof
