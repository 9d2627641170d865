// The state-evaluated terms of the div layer's bound (layer_bounds.hpp: div_layer_state_terms)
// against the realised layer's intermediates, each the statement of a Qed theorem of
// proofs/AkyurekDivLayerState.v, on a state built so that the terms are nearly attained:
//   div_state_attention  the head moves a cancelled row by <= e_att, an assembled row by <= e_att
//                        from [N c, y/M, -N c - S/M, 0 ...], a w row by <= w_residue;
//   div_state_rest2      the LayerNorm input outside the assembled rows has squared norm <= rest2;
//   div_radicand         |L (var + e) / (2 N^2 c^2) - 1| <= delta at every token;
//   div_layer_state_unit the realised layer within the bound of y / |c| on the data rows.
// The state: the div scratch (12 rows, k + 2 = 4 assembled) holds +-V alternating over the two
// tokens, left by an earlier layer, V = 400 >> N |c| = 5; the data, the pads and the w rows are
// the same at both tokens, so only the scratch rows deviate. Natt = 10: the head's residue at
// token 1 is 2 V / (e^10 + 1) on every scratch row, 0.98 of e_att = 2 e^-10 vmax (vmax = V plus
// the largest assembled value). rest2 then exceeds the realised squared norm by about
// (2 + k) e_att^2 (the pads and the w rows, residue 0) while the 8 unassembled scratch rows
// contribute 8 x 0.96 e_att^2: a rest2 without its (div_scratch - k - 2) e_att^2 term, or an
// e_att whose vmax omits the scratch, is exceeded here (tests/mutations/411-*, 412-*).
// Double: the intermediates carry rounding ~1e-13 (V eps), far below every slack (>= 1e-4).
#include "raw/chains.hpp"
#include "raw/layer_bounds.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

using namespace iclproof;
using namespace iclproof::raw;

namespace {
struct div_state_case {
  raw_layout lay;
  div_op dv;
  raw_knobs<double> kn;
  Mat<double> h;
};

div_state_case dirty_scratch_case(gelu_form form) {
  div_state_case s;
  s.lay.data_rows = 5;
  s.lay.tokens = 2;
  s.lay.op_scratch = 0;
  s.lay.div_scratch = 12;
  s.dv = div_op{{0, 1}, 2, {3, 4}};
  s.kn.attention_scale = 10;
  s.kn.gelu_bypass = 40;
  s.kn.mul_downscale = 100;
  s.kn.ln_pad = 2;
  s.kn.div_N = 4;
  s.kn.div_M = 1;
  s.kn.ln_eps = 1.0 / 1024;
  s.kn.form = form;
  Mat<double> data(5, 2);
  for (Index t = 0; t < 2; ++t) data.col(t) << 0.5, -0.25, -1.25, 0.75, -0.5;
  s.h = embed_state(s.lay, data, s.kn);
  const Index P = s.lay.div_scratch0();
  for (Index j = 0; j < s.lay.div_scratch; ++j)
    for (Index t = 0; t < 2; ++t) s.h(P + j, t) = t == 0 ? 400.0 : -400.0;
  return s;
}
}  // namespace

TEST_CASE("div_layer_state_terms bound the realised div layer's intermediates (dirty scratch)",
          "[tolerance][raw][div]") {
  for (const gelu_form form : {gelu_form::erf, gelu_form::tanh}) {
    INFO(to_string(form) << " form");
    const div_state_case s = dirty_scratch_case(form);
    const raw_layout& lay = s.lay;
    const Index H = lay.H(), P = lay.div_scratch0(), k = 2;
    const div_layer_terms<double> terms = div_layer_state_terms(lay, s.dv, s.kn, s.h, false);
    const decoder_layer_weights<double> w = build_div_layer(lay, s.dv, s.kn);
    REQUIRE(w.heads.size() == 1);
    const Mat<double> X = s.h + attention_head_forward(w.heads[0], s.h, w.null_slot);
    INFO("vmax " << terms.vmax << ", e_att " << terms.e_att << ", w_residue " << terms.w_residue);
    double largest_scratch_residue = 0;
    for (Index t = 0; t < lay.tokens; ++t) {
      INFO("token " << t);
      const double c = s.h(2, t), y0 = s.h(0, t), y1 = s.h(1, t);
      const double N = s.kn.div_N, M = s.kn.div_M, S = y0 + y1;
      // div_state_attention
      const std::vector<double> a = {N * c, y0 / M, y1 / M, -N * c - S / M};
      for (Index j = 0; j < lay.div_scratch; ++j) {
        const double target = j < k + 2 ? a[size_t(j)] : 0.0;
        const double residue = std::abs(X(P + j, t) - target);
        largest_scratch_residue = std::max(largest_scratch_residue, residue);
        CHECK(residue <= terms.e_att);
      }
      CHECK(std::abs(X(lay.pad_plus(), t)) <= terms.e_att);
      CHECK(std::abs(X(lay.pad_minus(), t)) <= terms.e_att);
      for (Index q : s.dv.w) CHECK(std::abs(X(q, t)) <= terms.w_residue);
      // div_state_rest2
      double rest = 0;
      for (Index r = 0; r < H; ++r)
        if (r < P || r >= P + k + 2) rest += X(r, t) * X(r, t);
      INFO("rest " << rest << ", rest2 " << terms.rest2[size_t(t)]);
      CHECK(rest <= terms.rest2[size_t(t)]);
      // div_radicand
      const layer_norm_moments<double> m = layer_norm_centre<double>(Vec<double>(X.col(t)));
      const double ratio = double(H) * (m.var + s.kn.ln_eps) / (2 * N * N * c * c) - 1;
      INFO("radicand - 1 = " << ratio << ", delta " << terms.delta[size_t(t)]);
      CHECK(std::abs(ratio) <= terms.delta[size_t(t)]);
    }
    // the scratch residue is e_att within 3% (the terms are nearly attained)
    CHECK(largest_scratch_residue >= 0.97 * terms.e_att);
    // div_layer_state_unit: the realised layer against div_exact on the data rows
    const Mat<double> realised = decoder_layer_forward(w, s.h);
    const Mat<double> exact = div_exact(Mat<double>(s.h.topRows(lay.data_rows)), s.dv);
    const double err = max_abs(Mat<double>(realised.topRows(lay.data_rows) - exact));
    INFO("error " << err << ", exact-real bound " << terms.bound);
    CHECK(err <= div_layer_bound(lay, s.dv, s.kn, s.h));
    CHECK(terms.bound <= div_layer_bound(lay, s.dv, s.kn, s.h));
  }
}

TEST_CASE("div_layer_state_terms refuse states outside the proved model", "[raw][div]") {
  div_state_case s = dirty_scratch_case(gelu_form::erf);
  const auto terms = [&](const div_op& dv, const Mat<double>& h) {
    return div_layer_state_terms(s.lay, dv, s.kn, h, false);
  };
  CHECK_NOTHROW(terms(s.dv, s.h));
  CHECK_THROWS_AS(terms(div_op{{0, 1}, 2, {3, 3}}, s.h), std::domain_error);  // w row twice
  CHECK_THROWS_AS(terms(div_op{{0, 1}, 2, {3, s.lay.pad_plus()}}, s.h), std::domain_error);
  Mat<double> moved = s.h;
  moved(s.lay.pos(0), 1) = 0.5;  // a position row no longer one-hot
  CHECK_THROWS_AS(terms(s.dv, moved), std::domain_error);
  s.lay.div_scratch = 3;  // fewer than k + 2 rows
  CHECK_THROWS_AS(terms(s.dv, Mat<double>(s.h.topRows(s.lay.H()))), std::domain_error);
}
