// Per-layer parameters of the constructions, and core quantities the tolerances use, each shown
// to matter: tests written for mutations that survived every other test
// (tests/mutations/RESULTS.md).
#include "core/linalg.hpp"
#include "memformer/memformers.hpp"
#include "memformer/z_form_transformer.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

using namespace iclproof;

// The CGD Memformer's layer l runs its own heads (A_l, B_l): with alpha_l = 1 and gamma_l = 0 it
// is the plain linear transformer on the same layers (R_l = Attn_l(Z_l), Z_(l+1) = Z_l + R_l / N),
// bit for bit with N = 4 (dividing by 4 is exact). The two layers differ, so a CGD Memformer that
// ran layer 0's heads at every layer differs at Z_2 (mutation 94-mem-cgd-first-layer-weights
// survived every test before this one: every property builds cg_memformer, whose layers are all
// A = I).
TEST_CASE("memformer.cgd: layer l applies its own heads (A_l and B_l)", "[memformer][mutation]") {
  const int d = 2, N = 4;
  Mat<double> X(d, N), y(1, N), xq(d, 1);
  X << 0.5, -1, 0.25, 0.75, 1, 0.5, -0.5, 0.25;
  y << 1, -0.5, 0.25, 0.5;
  xq << 0.5, -0.25;
  const Mat<double> Z0 = make_prompt<double>(X, y, xq);
  Mat<double> A0(d, d), A1(d, d), B1(d, d);
  A0 << 1, 0, 0, 1;
  A1 << 0.5, 0.25, 0.25, 2;
  B1 << 0.25, 0, 0, -0.5;
  const std::vector<linear_transformer_layer<double>> layers{{{ahn_head<double>(A0)}},
                                                             {{ahn_head<double>(A1, B1)}}};
  cgd_memformer<double> m;
  m.layers = layers;
  m.alpha = {1.0, 1.0};
  m.gamma = {0.0, 0.0};
  const auto cgd = cgd_memformer_forward<double>(Z0, m);
  const auto plain = linear_transformer_forward<double>(Z0, layers);
  REQUIRE(cgd.size() == 3);
  CHECK(cgd[1] == plain[1]);
  CHECK(cgd[2] == plain[2]);
  // The layers matter: running layer 0 twice gives a different Z_2.
  const auto first_twice = linear_transformer_forward<double>(Z0, {layers[0], layers[0]});
  CHECK(max_abs(Mat<double>(first_twice[2] - plain[2])) > 1e-3);
}

// spd_condition_number = lambda_max / lambda_min, which the Cholesky and ridge tolerances scale
// with: exact on a diagonal matrix, and unchanged by an orthogonal similarity up to rounding
// (mutation 50-core-condition-number-halved, kappa / 2, survived every test before this one: the
// tolerances it shrank were still above the errors).
TEST_CASE("spd_condition_number is lambda_max / lambda_min", "[core][mutation]") {
  Mat<double> D = Mat<double>::Zero(3, 3);
  D.diagonal() << 4, 0.5, 2;
  CHECK(spd_condition_number<double>(D) == 8.0);
  const double c = std::cos(0.3), s = std::sin(0.3);
  Mat<double> Q = Mat<double>::Identity(3, 3);
  Q.topLeftCorner(2, 2) << c, -s, s, c;
  const Mat<double> A = Q * D * Q.transpose();
  CHECK(std::abs(spd_condition_number<double>(A) - 8.0) <= 1e-12);
}
