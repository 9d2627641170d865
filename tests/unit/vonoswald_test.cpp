// Unit and mutation tests of the generic LSA layer and the von Oswald et al. constructions
// (CONSTRUCTIONS.md sections 1-2). The layer is checked on a hand-computed exact example, against
// the explicit attention-matrix form, for multi-head sums, masking and bad shapes. Every
// vonoswald.* property is run on the real constructions (must pass) and on deliberately broken
// ones (must fail): W_V sign flipped, P off by a factor 1 + 2^-40, mask dropped, one layer's eta
// changed, GD++ gamma wrong.
#include "vonoswald_dyadic.hpp"

#include "core/precision.hpp"
#include "harness/runner.hpp"

#include "mutation_testing.hpp"

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>

using namespace iclproof;
using namespace iclproof::vonoswald_checks;

namespace {
using T = mutation_scalar;

const mutation_runner vonoswald_mutants{17};

template <class Check>
void expect_mutant_killed(const Check& check, const constructions<T>& mutant, int cases = 30) {
  vonoswald_mutants.expect_check_kills(check, real_constructions<T>(), mutant, cases);
}

const T tiny_relative_change =
    T(std::ldexp(1.0, -40));  // far below double's resolution of the data's scale

// Mutants of the constructions.
constructions<T> wv_sign_flipped() {
  auto m = real_constructions<T>();
  m.prop1 = [](Eigen::Index d, Eigen::Index o, Eigen::Index N, const T& eta, const Mat<T>& W0) {
    auto l = prop1_weights<T>(d, o, N, eta, W0);
    l.heads[0].W_V = -l.heads[0].W_V;
    return l;
  };
  return m;
}
constructions<T> p_off_by_factor() {
  auto m = real_constructions<T>();
  m.prop1 = [](Eigen::Index d, Eigen::Index o, Eigen::Index N, const T& eta, const Mat<T>& W0) {
    auto l = prop1_weights<T>(d, o, N, eta, W0);
    l.heads[0].P *= T(1) + tiny_relative_change;
    return l;
  };
  return m;
}
constructions<T> mask_dropped() {
  auto m = real_constructions<T>();
  m.prop1 = [](Eigen::Index d, Eigen::Index o, Eigen::Index N, const T& eta, const Mat<T>& W0) {
    auto l = prop1_weights<T>(d, o, N, eta, W0);
    l.mask = lsa_mask::all_keys;
    return l;
  };
  return m;
}
constructions<T> one_layer_eta_changed() {
  auto m = real_constructions<T>();
  m.gd_stack = [](Eigen::Index d, Eigen::Index o, Eigen::Index N, std::vector<T> eta) {
    eta[eta.size() / 2] *= T(1) + tiny_relative_change;
    return gd_stack_weights<T>(d, o, N, eta);
  };
  return m;
}
// The stack ignores its per-layer step sizes and uses the first layer's eta throughout (a mutation
// that survived every test while the stack properties passed one eta for all layers).
constructions<T> first_layer_eta_everywhere() {
  auto m = real_constructions<T>();
  m.gd_stack = [](Eigen::Index d, Eigen::Index o, Eigen::Index N, const std::vector<T>& eta) {
    return gd_stack_weights<T>(d, o, N, std::vector<T>(eta.size(), eta.front()));
  };
  return m;
}
constructions<T> gdpp_gamma_wrong() {
  auto m = real_constructions<T>();
  // gamma off by 1 + 2^-40 and a zero gamma replaced by 2^-40 (a draw may have gamma = 0).
  const auto wrong = [](const T& g) {
    return g == T(0) ? tiny_relative_change : T(g * (T(1) + tiny_relative_change));
  };
  m.gdpp = [wrong](Eigen::Index d, Eigen::Index o, Eigen::Index N, const T& gamma, const T& eta,
                   const Mat<T>& W0) { return gdpp_weights<T>(d, o, N, wrong(gamma), eta, W0); };
  m.gdpp_stack = [wrong](Eigen::Index d, Eigen::Index o, Eigen::Index N, std::vector<T> gamma,
                         const std::vector<T>& eta) {
    gamma.back() = wrong(gamma.back());
    return gdpp_stack_weights<T>(d, o, N, gamma, eta);
  };
  return m;
}
// GD++ with the 1/N convention mixed up: gamma/N in W_V (the paper's normalisation).
constructions<T> gdpp_gamma_over_n() {
  auto m = real_constructions<T>();
  m.gdpp = [](Eigen::Index d, Eigen::Index o, Eigen::Index N, const T& gamma, const T& eta,
              const Mat<T>& W0) { return gdpp_weights<T>(d, o, N, T(gamma / T(N)), eta, W0); };
  return m;
}

// The explicit (N + Q) x (N + Q) attention-matrix form, O(M^2 D), as an independent reference.
template <class S>
Mat<S> attention_matrix_form(const lsa_layer<S>& layer, const Mat<S>& E, Eigen::Index N) {
  const Eigen::Index M = E.cols();
  const Eigen::Index nk = layer.mask == lsa_mask::context_keys ? N : M;
  Mat<S> out = E;
  for (const auto& h : layer.heads) {
    const Mat<S> K = h.W_K * E, Q = h.W_Q * E, V = h.W_V * E;
    const Mat<S> scores = K.leftCols(nk).transpose() * Q;  // nk x M
    out += h.P * (V.leftCols(nk) * scores);
  }
  return out;
}
}  // namespace

#ifndef ICLPROOF_MUTATION_RATIONAL
TEST_CASE("lsa_layer: hand-computed exact example, masked and unmasked", "[vonoswald]") {
  // D = 2; context e1 = (1, 2), e2 = (0, 1); query e3 = (1, 0). One head: W_K = [1 0],
  // W_Q = [1 1], W_V = I, P = diag(1, 2).
  // Masked: sum_i v_i k_i^T = (1,2)^T 1 + (0,1)^T 0 = (1,2)^T, P times it = (1,4)^T; q = 3, 1, 1:
  //   e1 = (1,2) + 3 (1,4) = (4,14), e2 = (1,5), e3 = (2,4).
  // Unmasked: + (1,0)^T 1 from e3: (2,2)^T, P: (2,4)^T: e1 = (7,14), e2 = (2,5), e3 = (3,4).
  Mat<double> E(2, 3);
  E << 1, 0, 1, 2, 1, 0;
  lsa_head<double> h;
  h.W_K = Mat<double>(1, 2);
  h.W_K << 1, 0;
  h.W_Q = Mat<double>(1, 2);
  h.W_Q << 1, 1;
  h.W_V = Mat<double>::Identity(2, 2);
  h.P = Mat<double>(2, 2);
  h.P << 1, 0, 0, 2;
  lsa_layer<double> layer{{h}, lsa_mask::context_keys};
  Mat<double> masked(2, 3), unmasked(2, 3);
  masked << 4, 1, 2, 14, 5, 4;
  unmasked << 7, 2, 3, 14, 5, 4;
  CHECK(lsa_layer_forward<double>(layer, E, 2) == masked);
  layer.mask = lsa_mask::all_keys;
  CHECK(lsa_layer_forward<double>(layer, E, 2) == unmasked);
  // The same at 256 bits.
  scoped_mpfr_precision p(256);
  lsa_layer<T> lt{
      {{from_double<T>(h.W_K), from_double<T>(h.W_Q), from_double<T>(h.W_V), from_double<T>(h.P)}},
      lsa_mask::context_keys};
  CHECK(lsa_layer_forward<T>(lt, from_double<T>(E), 2) == from_double<T>(masked));
}
#endif

#ifndef ICLPROOF_MUTATION_RATIONAL
TEST_CASE("lsa_layer: heads are summed, matches the attention-matrix form, keeps precision",
          "[vonoswald]") {
  scoped_mpfr_precision p(256);
  data_rng rng(5);
  const int D = 5, N = 7, Q = 3;
  const Mat<T> E = from_double<T>(rng.normal_matrix(D, N + Q));
  const auto head = [&](int hdim, int vdim) {
    return lsa_head<T>{
        from_double<T>(rng.normal_matrix(hdim, D)), from_double<T>(rng.normal_matrix(hdim, D)),
        from_double<T>(rng.normal_matrix(vdim, D)), from_double<T>(rng.normal_matrix(D, vdim))};
  };
  const lsa_head<T> h1 = head(3, 2), h2 = head(D, D), h3 = head(1, 4);
  for (const auto mask : {lsa_mask::context_keys, lsa_mask::all_keys}) {
    const lsa_layer<T> three{{h1, h2, h3}, mask};
    const Mat<T> out = lsa_layer_forward<T>(three, E, N);
    const Mat<T> sum = E + lsa_layer_forward<T>(lsa_layer<T>{{h1}, mask}, E, N) - E +
                       lsa_layer_forward<T>(lsa_layer<T>{{h2}, mask}, E, N) - E +
                       lsa_layer_forward<T>(lsa_layer<T>{{h3}, mask}, E, N) - E;
    CHECK(max_abs(Mat<T>(out - sum)) < T(1e-70));
    CHECK(max_abs(Mat<T>(out - attention_matrix_form<T>(three, E, N))) < T(1e-70));
    CHECK(precision_of(out(0, 0)) == 257);
  }
  // Masked and unmasked differ (the queries are keys only when unmasked), context columns too.
  const Mat<T> m = lsa_layer_forward<T>(lsa_layer<T>{{h2}, lsa_mask::context_keys}, E, N);
  const Mat<T> u = lsa_layer_forward<T>(lsa_layer<T>{{h2}, lsa_mask::all_keys}, E, N);
  CHECK(max_abs(Mat<T>(m - u)) > T(1e-3));
  // No heads: the identity. Stacks and recurrent stacks return every intermediate.
  CHECK(lsa_layer_forward<T>(lsa_layer<T>{}, E, N) == E);
  const lsa_layer<T> one{{h1}, lsa_mask::context_keys};
  const auto rec = lsa_recurrent_forward<T>(one, E, N, 3);
  const auto st = lsa_stack_forward<T>(lsa_stack<T>{{one, one, one}}, E, N);
  REQUIRE(rec.size() == 4);
  REQUIRE(st.size() == 4);
  CHECK(rec[3] == st[3]);
  CHECK(rec[1] == lsa_layer_forward<T>(one, E, N));
}
#endif

#ifndef ICLPROOF_MUTATION_RATIONAL
TEST_CASE("lsa_layer: bad shapes and sizes give one clear error", "[vonoswald]") {
  const Mat<double> E = Mat<double>::Ones(4, 6);
  lsa_head<double> h{Mat<double>::Ones(2, 4), Mat<double>::Ones(2, 4), Mat<double>::Ones(3, 4),
                     Mat<double>::Ones(4, 3)};
  CHECK_NOTHROW(lsa_layer_forward<double>(lsa_layer<double>{{h}}, E, 5));
  auto bad = h;
  bad.P = Mat<double>::Ones(4, 2);
  CHECK_THROWS_AS(lsa_layer_forward<double>(lsa_layer<double>{{bad}}, E, 5), std::invalid_argument);
  bad = h;
  bad.W_Q = Mat<double>::Ones(3, 4);
  CHECK_THROWS_AS(lsa_layer_forward<double>(lsa_layer<double>{{bad}}, E, 5), std::invalid_argument);
  CHECK_THROWS_AS(lsa_layer_forward<double>(lsa_layer<double>{{h}}, E, 7), std::invalid_argument);
  CHECK_THROWS_AS(lsa_layer_forward<double>(lsa_layer<double>{{h}}, E, 0), std::invalid_argument);
  CHECK_THROWS_AS(lsa_recurrent_forward<double>(lsa_layer<double>{{h}}, E, 5, -1),
                  std::invalid_argument);
  CHECK_THROWS_AS(prop1_weights<double>(3, 1, 5, 0.1, Mat<double>::Zero(3, 1)),
                  std::invalid_argument);
  CHECK_THROWS_AS(prop1_weights<double>(3, 1, 0, 0.1, Mat<double>::Zero(1, 3)),
                  std::invalid_argument);
  CHECK_THROWS_AS(gdpp_stack_weights<double>(3, 1, 5, {0.1}, {0.1, 0.2}), std::invalid_argument);
  CHECK_THROWS_AS(regression_tokens<double>(Mat<double>::Ones(3, 5), Mat<double>::Ones(1, 4),
                                            Mat<double>::Ones(3, 1), Mat<double>::Ones(1, 1)),
                  std::invalid_argument);
}
#endif

#ifndef ICLPROOF_MUTATION_RATIONAL
TEST_CASE("lsa_layer cost is O(N D^2): N = 200000 tokens without an N x N matrix", "[vonoswald]") {
  // An N x N double matrix here would need 320 GB; the layer forms a D x D matrix once.
  const int d = 3, o = 1, N = 200000;
  data_rng rng(6);
  const Mat<double> X = rng.normal_matrix(d, N), Y = rng.normal_matrix(o, N);
  const Mat<double> xq = rng.normal_matrix(d, 1);
  const Mat<double> E = regression_tokens<double>(X, Y, xq, Mat<double>::Zero(o, 1));
  const Mat<double> out =
      lsa_layer_forward<double>(prop1_weights<double>(d, o, N, 0.5, Mat<double>::Zero(o, d)), E, N);
  // One GD step from 0: prediction 0.5 (Y X^T / N) x_q.
  const double expected = 0.5 * (Y * X.transpose() * xq)(0, 0) / N;
  CHECK(std::abs(lsa_query_prediction<double>(out, d, N)(0, 0) - expected) <=
        1e-12 * (1 + std::abs(expected)));
}
#endif

#ifndef ICLPROOF_MUTATION_RATIONAL
TEST_CASE("Prop. 1 at N < d and N > d, o = 2, random W0: errors near 2^-256 of the scale",
          "[vonoswald]") {
  scoped_mpfr_precision p(256);
  for (const int N : {3, 20}) {
    const int d = 8, o = 2, Q = 2;
    data_rng rng(static_cast<std::uint64_t>(N));
    const Mat<T> X = from_double<T>(rng.normal_matrix(d, N));
    const Mat<T> Y = from_double<T>(rng.normal_matrix(o, N));
    const Mat<T> Xq = from_double<T>(rng.normal_matrix(d, Q));
    const Mat<T> W0 = from_double<T>(rng.normal_matrix(o, d));
    const T eta = T(0.125);
    const Mat<T> Yq0 = prop1_query_init<T>(W0, Xq);
    const Mat<T> out = lsa_layer_forward<T>(prop1_weights<T>(d, o, N, eta, W0),
                                            regression_tokens<T>(X, Y, Xq, Yq0), N);
    const Mat<T> W1 = gd_step<T>(W0, X, Y, eta);
    const Mat<T> err = lsa_query_prediction<T>(out, d, N) - matmul(W1, Xq);
    // The scale: the shadow |W0||Xq| + eta/N (|W0||X| + |Y|)|X|^T |Xq| (properties/vonoswald.hpp).
    const T scale =
        max_abs(prop1_y_shadow<T>(X, Y, Xq, Mat<T>(matmul(abs_of(W0), abs_of(Xq))), W0, eta, N));
    const T in_eps = max_abs(err) / (eps<T>() * scale);
    std::printf(
        "Prop. 1 read-out, d = %d, N = %d, o = %d, 257 bits: max error = %.3g eps * scale "
        "(scale %.3g, eps = 2^%d)\n",
        d, N, o, to_double(in_eps), to_double(scale), 1 - precision_of(scale));
    // Rigorous bound: 4 gamma_n scale with n = n_layer + d + 1, i.e. about 2 n eps scale.
    CHECK(in_eps <= T(2.0 * (layer_depth(N, d + o) + d + 1)));
    CHECK(precision_of(out(0, 0)) == 257);
  }
}
#endif

TEST_CASE("vonoswald.prop1 property fails on W_V sign, P factor and a dropped mask",
          "[vonoswald][mutation]") {
  scoped_mpfr_precision p(256);
  const auto check = [](case_context& ctx, const constructions<T>& c) {
    prop1_every_token_is_gd_updated<T>(ctx, c);
  };
  expect_mutant_killed(check, wv_sign_flipped());
  expect_mutant_killed(check, p_off_by_factor());
  expect_mutant_killed(check, mask_dropped());
}

TEST_CASE("vonoswald.prop1 dyadic (tolerance-free) property fails on W_V sign and P factor",
          "[vonoswald][mutation]") {
  scoped_mpfr_precision p(256);
  const auto check = [](case_context& ctx, const constructions<T>& c) {
    prop1_exact_on_dyadic_data<T>(ctx, c);
  };
  expect_mutant_killed(check, wv_sign_flipped());
  expect_mutant_killed(check, p_off_by_factor());
}

// proofs/DyadicExact.v's precision condition, evaluated by hand for the largest draw of
// prop1_exact_on_dyadic_data (d = 6, o = 3, N = 2^4, eta = 2^-5, b = 4):
// 16 * 9^5 * 4^6 + 4 * 2^9 = 16 * 59049 * 4096 + 2048 = 3 869 837 312 < 2^32, so 32 bits
// suffice, and the formats' least exponents are far below -(j + k) = -9.
TEST_CASE("vonoswald.prop1 dyadic: DyadicExact.v's precision condition and format exponents",
          "[vonoswald]") {
  CHECK(dyadic_bound(6, 3, 4, 5, 4) == 3869837312u);
  CHECK(std::bit_width(dyadic_bound(6, 3, 4, 5, 4)) == 32);
  CHECK(dyadic_bound(1, 1, 0, 0, 4) == 2u * 2 * 2 * 2 * 2 * 4096 + 4);
  CHECK(format_min_exponent<double>() == -1074);
  CHECK(format_min_exponent<long double>() ==
        std::numeric_limits<long double>::min_exponent - std::numeric_limits<long double>::digits);
  CHECK(format_min_exponent<mpfr_real>() < -1000000);
}

TEST_CASE("vonoswald.prop1_readout property fails on W_V sign, P factor and a dropped mask",
          "[vonoswald][mutation]") {
  scoped_mpfr_precision p(256);
  const auto check = [](case_context& ctx, const constructions<T>& c) {
    prop1_readout_predicts_updated_model<T>(ctx, c);
  };
  expect_mutant_killed(check, wv_sign_flipped());
  expect_mutant_killed(check, p_off_by_factor());
  // With y_q0 = -W0 x_q the query's value is W0 x_q - y_q0 = 2 W0 x_q: an unmasked layer adds
  // (eta/N) 2 W0 x_q x_q^T x_q to the query (prop1_unmasked_deviation), so the read-out
  // convention and the unmasked-exactness condition W0 x_q = y_q0 meet only where W0 x_q = 0.
  expect_mutant_killed(check, mask_dropped());
}

TEST_CASE("vonoswald.unmasked properties fail on W_V sign and P factor", "[vonoswald][mutation]") {
  scoped_mpfr_precision p(256);
  const auto dev = [](case_context& ctx, const constructions<T>& c) {
    unmasked_layer_deviation<T>(ctx, c);
  };
  expect_mutant_killed(dev, wv_sign_flipped());
  expect_mutant_killed(dev, p_off_by_factor());
  const auto exact = [](case_context& ctx, const constructions<T>& c) {
    unmasked_layer_exact_when_readout_consistent<T>(ctx, c);
  };
  expect_mutant_killed(exact, wv_sign_flipped());
  expect_mutant_killed(exact, p_off_by_factor());
}

TEST_CASE("vonoswald.gd_stack properties fail when one layer's eta changes",
          "[vonoswald][mutation]") {
  scoped_mpfr_precision p(256);
  const auto steps = [](case_context& ctx, const constructions<T>& c) {
    gd_stack_follows_gd_steps<T>(ctx, c);
  };
  expect_mutant_killed(steps, one_layer_eta_changed());
  expect_mutant_killed(steps, first_layer_eta_everywhere());  // per-layer eta ignored
  expect_mutant_killed(steps, p_off_by_factor());             // the recurrent stack's layer
  const auto neumann = [](case_context& ctx, const constructions<T>& c) {
    gd_stack_prediction_is_neumann_form<T>(ctx, c);
  };
  expect_mutant_killed(neumann, one_layer_eta_changed());
}

TEST_CASE("vonoswald.gdpp properties fail on a wrong gamma", "[vonoswald][mutation]") {
  scoped_mpfr_precision p(256);
  const auto layer = [](case_context& ctx, const constructions<T>& c) {
    gdpp_layer_identity<T>(ctx, c);
  };
  expect_mutant_killed(layer, gdpp_gamma_wrong());
  expect_mutant_killed(layer, gdpp_gamma_over_n());
  const auto stack = [](case_context& ctx, const constructions<T>& c) {
    gdpp_stack_is_preconditioned_gd<T>(ctx, c);
  };
  expect_mutant_killed(stack, gdpp_gamma_wrong());
}

#ifndef ICLPROOF_MUTATION_RATIONAL
// Issue 41: the END-TO-END floating-point check of the GD stack (gd_stack_end_to_end: realised
// y-parts after k layers against k exact GD steps in rationals, within the propagated bound)
// run ALONE in double, without the local checks: it passes on the real stack and catches a stack
// whose LAST layer's eta is off by a relative 1e-12 (a deep layer broken slightly).
TEST_CASE(
    "vonoswald.gd_stack end-to-end check alone catches the last layer's eta off by 1e-12 "
    "in double",
    "[vonoswald][mutation]") {
  const mutation_runner runner{41, scalar_kind::double_precision};
  const auto run = [](bool broken) {
    return [broken](case_context& ctx) {
      const auto [c, K, E] = gen_gd_stack_case<double>(ctx);
      const Eigen::Index d = c.spec.d, o = c.spec.o, N = c.spec.N;
      std::vector<double> etas(K, c.eta);
      if (broken) etas.back() *= 1.0 + 1e-12;
      const auto tokens = lsa_stack_forward<double>(gd_stack_weights<double>(d, o, N, etas), E, N);
      gd_stack_end_to_end<double>(ctx, "stack", c, std::vector<double>(K, c.eta), tokens);
    };
  };
  runner.expect_killed(run(false), run(true), 300);
}
#endif
