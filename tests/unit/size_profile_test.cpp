// Size profiles (harness/size_profile.hpp): `--size paper` and `--size large` change
// the sizes the properties draw, `small` does not, and every built-in property states what it
// does with the profile (ICLPROOF_SIZES next to its definition, harness/size_statement.hpp,
// shown by `iclproof list`).
#include "harness/size_profile.hpp"
#include "harness/runner.hpp"
#include "harness/size_statement.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

using namespace iclproof;

namespace {
// The largest small-profile ranges of any property that follows the profile: d <= 8
// (references, gen_lsa_case), N <= 24 + 8 (gen_lsa_case draws N up to N_max + d), depth <= 12
// (references.k_step_gd_equals_neumann_closed_form, the references' LFOM steps).
constexpr int small_dimension_top = 8, small_examples_top = 32, small_depth_top = 12;

// The properties whose sizes follow the profile on some axis ("follows" or "partly").
bool follows(const std::string& name) {
  const std::string s = size_statement_of(name);
  return s.rfind("follows", 0) == 0 || s.rfind("partly", 0) == 0;
}

// Runs every property that follows the profile in double with `cases` cases under `profile`;
// returns the maxima drawn over all of them and checks that each passed.
drawn_size_maxima run_following(size_profile profile, int cases,
                                std::vector<std::string>* grew = nullptr) {
  drawn_size_maxima all;
  for (const property& p : all_properties()) {
    if (!follows(p.info.name)) continue;
    run_config cfg;
    cfg.scalar = scalar_kind::double_precision;
    cfg.cases = cases;
    cfg.seed = 20261123;
    cfg.size = profile;
    drawn_sizes() = {};
    const property_result r = run_property(p, cfg);
    INFO(p.info.name << " under --size " << size_profile_name(profile) << ": " << r.failure
                     << "\nreproduce: " << r.reproduce);
    CHECK(r.outcome == verdict::pass);
    const drawn_size_maxima m = drawn_sizes();
    if (grew && (m.dimension > small_dimension_top || m.examples > small_examples_top ||
                 m.depth > small_depth_top))
      grew->push_back(p.info.name);
    all.dimension = std::max(all.dimension, m.dimension);
    all.examples = std::max(all.examples, m.examples);
    all.depth = std::max(all.depth, m.depth);
  }
  return all;
}
}  // namespace

TEST_CASE("every built-in property states what it does with --size", "[harness][size]") {
  for (const property& p : all_properties()) {
    INFO(p.info.name);
    const std::string s = size_statement_of(p.info.name);
    CHECK((s.rfind("follows", 0) == 0 || s.rfind("fixed", 0) == 0 || s.rfind("partly", 0) == 0));
  }
  for (const auto& [name, statement] : stated_size_statements()) {
    INFO("stated for a property that does not exist: " << name);
    bool found = false;
    for (const property& p : all_properties()) found = found || p.info.name == name;
    CHECK(found);
  }
  for (const std::string& name : size_statements_stated_twice())
    FAIL_CHECK("two ICLPROOF_SIZES statements for " << name);
}

TEST_CASE("size profiles parse by name and have their stated caps", "[harness][size]") {
  for (size_profile p : all_size_profiles) CHECK(parse_size_profile(size_profile_name(p)) == p);
  CHECK_FALSE(parse_size_profile("huge"));
  CHECK(size_profile_cap(size_profile::paper, size_axis::dimension) == 20);
  CHECK(size_profile_cap(size_profile::paper, size_axis::examples) == 100);
  CHECK(size_profile_cap(size_profile::paper, size_axis::depth) == 16);
  CHECK(size_profile_cap(size_profile::large, size_axis::dimension) == 64);
  CHECK(size_profile_cap(size_profile::large, size_axis::examples) == 512);
  CHECK(size_profile_cap(size_profile::large, size_axis::depth) == 16);
}

// Coverage: with 8 cases per property (in double, so the large sizes cost milliseconds) the
// properties that follow the profile reach sizes above every small range, stay within the caps,
// and each of them draws above the small ranges on some axis; under small they stay within the
// small ranges. Every run must pass: a tolerance that assumed small sizes fails here.
TEST_CASE("size profiles paper and large draw larger cases, within the caps", "[harness][size]") {
  const drawn_size_maxima small = run_following(size_profile::small, 8);
  CHECK(small.dimension <= small_dimension_top);
  CHECK(small.examples <= small_examples_top);
  CHECK(small.depth <= small_depth_top);
  for (size_profile profile : {size_profile::paper, size_profile::large}) {
    std::vector<std::string> grew;
    const drawn_size_maxima m = run_following(profile, 8, &grew);
    const int cd = size_profile_cap(profile, size_axis::dimension),
              cn = size_profile_cap(profile, size_axis::examples),
              cl = size_profile_cap(profile, size_axis::depth);
    INFO("--size " << size_profile_name(profile) << ": largest d " << m.dimension << ", N "
                   << m.examples << ", depth " << m.depth);
    CHECK(m.dimension > small_dimension_top);
    CHECK(m.dimension <= cd);
    CHECK(m.examples > small_examples_top);
    CHECK(m.examples <= cn);
    CHECK(m.depth > small_depth_top);
    CHECK(m.depth <= cl);
    std::size_t following = 0;
    for (const property& p : all_properties()) following += follows(p.info.name);
    CHECK(grew.size() == following);
  }
}

// TRUST.md: "the report shows the strongest level reached and the sizes at which it was
// reached". A body that keeps its own record of the d it drew (the witness) and notes a fixed N of
// 9 must report exactly those maxima, however its cases are split into blocks; a block records
// its own draws only; a body that draws no size through the profile reports fixed sizes.
TEST_CASE("a run records the largest sizes its cases drew in every block", "[harness][size]") {
  const property_info info{"harness.drawn_sizes_test", "sizes are recorded", {}};
  int witness = 0;  // the largest d the body drew, kept by the body itself
  const property_body body = [&witness](case_context& ctx) {
    const int d = draw_size<double>(size_axis::dimension, 1, 6);
    witness = std::max(witness, d);
    note_drawn_size(size_axis::examples, 9);
    ctx.check_le<double>("d", static_cast<double>(d), 6.0);
  };
  run_config cfg;
  cfg.scalar = scalar_kind::double_precision;
  cfg.cases = 200;
  cfg.seed = 20261126;
  const property_result whole = run_body(info, body, cfg);
  REQUIRE(whole.outcome == verdict::pass);
  REQUIRE(witness > 1);  // the sample drew more than one size (else the test shows little)
  CHECK(whole.drawn == drawn_size_maxima{witness, 9, 0});
  CHECK(drawn_size_text(whole.drawn) == "d <= " + std::to_string(witness) + ", N <= 9");
  // Blocks [0, 150) and [150, 200): each records only its own draws, the merge takes the maxima.
  witness = 0;
  case_block first = run_case_block(info, body, cfg, 0, 150);
  const int first_witness = witness;
  witness = 0;
  const case_block second = run_case_block(info, body, cfg, 150, 200);
  CHECK(first.drawn == drawn_size_maxima{first_witness, 9, 0});
  CHECK(second.drawn == drawn_size_maxima{witness, 9, 0});
  append_block(first, second);
  CHECK(finish_run(info, cfg, first, std::nullopt).drawn == whole.drawn);
  // A block whose body draws no size does not inherit the previous block's maxima, and the
  // text says the sizes are fixed.
  const property_body fixed_body = [](case_context& ctx) { ctx.check_le<double>("one", 1.0, 1.0); };
  CHECK_FALSE(run_case_block(info, fixed_body, cfg, 0, 50).drawn.any());
  const property_result fixed = run_body(info, fixed_body, cfg);
  CHECK_FALSE(fixed.drawn.any());
  CHECK(drawn_size_text(fixed.drawn) == "fixed sizes (none drawn through the size profile)");
}
