// Unit and mutation tests of the generic ReLU-attention and MLP layers (lsa/relu_layers.hpp;
// properties/relu_layers.hpp). Hand-computed exact examples fix the layers' output; the interval
// ReLU is checked to be [max(0, a), max(0, b)]; bad shapes are one clear error; every
// relu_layer_checks check is run on the real layers (must pass) and on broken ones (must fail):
// sigma dropped from the attention, the 1/N scale off by one token, the causal mask leaking the
// later tokens, sigma dropped from the MLP, the MLP's b2 moved inside sigma.
#include "relu_layers.hpp"

#include "core/precision.hpp"
#include "core/rational.hpp"
#include "harness/runner.hpp"

#include "mutation_testing.hpp"

#include <catch2/catch.hpp>

#include <stdexcept>

// Everything in a namespace of its own: the unit tests are compiled as unity batches.
namespace relu_layers_unit_test {
using namespace iclproof;
namespace rlc = iclproof::relu_layer_checks;

namespace {
using T = mutation_scalar;
using Q = rational_real;

const family_mutants<rlc::constructions<T>> relu_layers_mutants{3801, rlc::real_constructions<T>()};

Mat<Q> rational_matrix(std::initializer_list<std::initializer_list<int>> rows) {
  Mat<Q> m(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(rows.begin()->size()));
  Eigen::Index i = 0;
  for (const auto& r : rows) {
    Eigen::Index j = 0;
    for (int v : r) m(i, j++) = Q(v);
    ++i;
  }
  return m;
}

// The example of the first test: tokens h_1 = (1, 2), h_2 = (-1, 1); one head Q = (1 0),
// K = (0 1), V = I.
relu_attention_layer<Q> example_layer(relu_attention_keys keys, relu_attention_scale scale) {
  relu_attention_layer<Q> layer;
  layer.heads.push_back(
      {rational_matrix({{1, 0}}), rational_matrix({{0, 1}}), rational_matrix({{1, 0}, {0, 1}})});
  layer.keys = keys;
  layer.scale = scale;
  return layer;
}

// Mutants of the attention: each wraps the real layer.
rlc::constructions<T> attention_mutant(
    std::function<Mat<T>(const relu_attention_layer<T>&, const Mat<T>&, Eigen::Index)> f) {
  return {std::move(f), &mlp_forward<T>};
}
// sigma dropped: every head's score enters linearly (the heads (Q, K, V) and (-Q, K, -V) give
// exactly the linear attention, check 3).
rlc::constructions<T> sigma_dropped() {
  return attention_mutant(
      [](const relu_attention_layer<T>& layer, const Mat<T>& E, Eigen::Index n) {
        relu_attention_layer<T> pair = layer;
        pair.heads.clear();
        for (const auto& h : layer.heads) {
          pair.heads.push_back(h);
          pair.heads.push_back({Mat<T>(-h.Q), h.K, Mat<T>(-h.V)});
        }
        return relu_attention_forward<T>(pair, E, n);
      });
}
// 1/(N + 1) where the paper has 1/N.
rlc::constructions<T> scale_off_by_one_token() {
  return attention_mutant(
      [](const relu_attention_layer<T>& layer, const Mat<T>& E, Eigen::Index n) {
        const Mat<T> out = relu_attention_forward<T>(layer, E, n);
        if (layer.scale != relu_attention_scale::inverse_context_count) return out;
        return Mat<T>(E + (out - E) * T(T(n) / T(n + 1)));
      });
}
// The causal mask dropped: token i sees every token.
rlc::constructions<T> causal_mask_leaks() {
  return attention_mutant(
      [](const relu_attention_layer<T>& layer, const Mat<T>& E, Eigen::Index n) {
        relu_attention_layer<T> leaky = layer;
        if (leaky.keys == relu_attention_keys::causal) leaky.keys = relu_attention_keys::all_tokens;
        return relu_attention_forward<T>(leaky, E, n);
      });
}
// The MLP without sigma: E + W2 (W1 E + b1) + b2.
rlc::constructions<T> mlp_sigma_dropped() {
  return {&relu_attention_forward<T>, [](const mlp_layer<T>& layer, const Mat<T>& E) {
            Mat<T> pre = layer.W1 * E;
            if (layer.b1.size())
              for (Eigen::Index i = 0; i < pre.cols(); ++i) pre.col(i) += layer.b1;
            Mat<T> out = E + layer.W2 * pre;
            if (layer.b2.size())
              for (Eigen::Index i = 0; i < out.cols(); ++i) out.col(i) += layer.b2;
            return out;
          }};
}
// b2 passed through sigma: E + W2 sigma(W1 E + b1) + sigma(b2).
rlc::constructions<T> mlp_b2_inside_sigma() {
  return {&relu_attention_forward<T>, [](const mlp_layer<T>& layer, const Mat<T>& E) {
            Mat<T> out = mlp_forward<T>({layer.W1, layer.b1, layer.W2, Vec<T>()}, E);
            if (layer.b2.size())
              for (Eigen::Index i = 0; i < out.cols(); ++i)
                for (Eigen::Index r = 0; r < out.rows(); ++r) out(r, i) += relu(T(layer.b2(r)));
            return out;
          }};
}
}  // namespace

TEST_CASE("relu_layers: hand-computed attention on two tokens (exact)", "[relu_layers]") {
  const Mat<Q> H = rational_matrix({{1, -1}, {2, 1}});
  // Encoder, 1/N with N = 2: token 1 has q = 1, scores (2, 1): (2 h_1 + h_2) / 2 = (1/2, 5/2);
  // token 2 has q = -1, scores (-2, -1): sigma gives 0.
  const Mat<Q> enc = relu_attention_forward<Q>(
      example_layer(relu_attention_keys::all_tokens, relu_attention_scale::inverse_context_count),
      H, 2);
  Mat<Q> expected(2, 2);
  expected << Q(3) / 2, Q(-1), Q(9) / 2, Q(1);
  CHECK(enc == expected);
  // Causal, 1/|keys(i)|: token 1 sees itself only (score 2): h_1 + 2 h_1 = (3, 6).
  const Mat<Q> dec = relu_attention_forward<Q>(
      example_layer(relu_attention_keys::causal, relu_attention_scale::inverse_key_count), H, 2);
  expected << Q(3), Q(-1), Q(6), Q(1);
  CHECK(dec == expected);
  // Context keys with one context token, no scale: token 1 sees h_1 only (score 2) -> (3, 6);
  // token 2 (a query) sees h_1 with score -2 -> unchanged.
  const Mat<Q> ctx = relu_attention_forward<Q>(
      example_layer(relu_attention_keys::context_tokens, relu_attention_scale::none), H, 1);
  CHECK(ctx == expected);
  // Two heads (the head and its (-Q, K, -V) twin) give the linear attention: token 2 moves by
  // (1/2) sum_j <Q h_2, K h_j> h_j = (1/2)(-2 h_1 - h_2) = (-1/2, -5/2), token 1 as before.
  auto lin =
      example_layer(relu_attention_keys::all_tokens, relu_attention_scale::inverse_context_count);
  lin.heads.push_back({Mat<Q>(-lin.heads[0].Q), lin.heads[0].K, Mat<Q>(-lin.heads[0].V)});
  const Mat<Q> both = relu_attention_forward<Q>(lin, H, 2);
  expected << Q(3) / 2, Q(-3) / 2, Q(9) / 2, Q(-3) / 2;
  CHECK(both == expected);
}

TEST_CASE(
    "relu_layers: the MLP with W1 = (1, -1)^T, b1 = -t, W2 = (1 -1) adds the "
    "soft-threshold (exact)",
    "[relu_layers]") {
  mlp_layer<Q> mlp{rational_matrix({{1}, {-1}}), Vec<Q>(2), rational_matrix({{1, -1}}), Vec<Q>()};
  mlp.b1 << Q(-1), Q(-1);  // t = 1
  Mat<Q> H(1, 4);
  H << Q(3), Q(1) / 2, Q(-3), Q(-1);
  Mat<Q> expected(1, 4);
  // x + S_1(x): 3 + 2, 1/2 + 0, -3 - 2, -1 + 0.
  expected << Q(5), Q(1) / 2, Q(-5), Q(-1);
  CHECK(mlp_forward<Q>(mlp, H) == expected);
  mlp.b2 = Vec<Q>::Constant(1, Q(7));
  expected.array() += Q(7);
  CHECK(mlp_forward<Q>(mlp, H) == expected);
  // No hidden units: the identity.
  CHECK(mlp_forward<Q>({Mat<Q>(0, 1), Vec<Q>(), Mat<Q>(1, 0), Vec<Q>()}, H) == H);
}

TEST_CASE("relu_layers: the interval ReLU is [max(0, a), max(0, b)]", "[relu_layers]") {
  const scoped_mpfr_precision prec(128);
  const auto iv = [](double a, double b) {
    return interval_from_endpoints(mpfr_real(a), mpfr_real(b));
  };
  const auto ends = [](const interval_real& x) {
    return std::pair<double, double>{static_cast<double>(lower(x)), static_cast<double>(upper(x))};
  };
  CHECK(ends(relu(iv(-1, 2))) == std::pair<double, double>{0, 2});
  CHECK(ends(relu(iv(-3, -1))) == std::pair<double, double>{0, 0});
  CHECK(ends(relu(iv(1, 2))) == std::pair<double, double>{1, 2});
  CHECK(ends(relu(iv(0, 0))) == std::pair<double, double>{0, 0});
  // The layer on point intervals encloses the exact rational output of the first test.
  relu_attention_layer<interval_real> layer;
  Mat<interval_real> qm(1, 2), km(1, 2), vm(2, 2), H(2, 2);
  qm << 1, 0;
  km << 0, 1;
  vm << 1, 0, 0, 1;
  H << 1, -1, 2, 1;
  layer.heads.push_back({qm, km, vm});
  const Mat<interval_real> out = relu_attention_forward<interval_real>(layer, H, 2);
  CHECK(lower(out(0, 0)) <= mpfr_real(1.5));
  CHECK(upper(out(0, 0)) >= mpfr_real(1.5));
  CHECK(lower(out(1, 0)) <= mpfr_real(4.5));
  CHECK(upper(out(1, 0)) >= mpfr_real(4.5));
  CHECK(is_point(out(0, 1)));
  CHECK(static_cast<double>(lower(out(0, 1))) == -1.0);
}

TEST_CASE("relu_layers: bad shapes are one clear error", "[relu_layers]") {
  const Mat<Q> H = rational_matrix({{1, -1}, {2, 1}});
  auto layer =
      example_layer(relu_attention_keys::all_tokens, relu_attention_scale::inverse_context_count);
  layer.heads[0].V = rational_matrix({{1, 0}});
  CHECK_THROWS_AS(relu_attention_forward<Q>(layer, H, 2), std::invalid_argument);
  CHECK_THROWS_WITH(relu_attention_forward<Q>(layer, H, 2),
                    Catch::Contains("head 0 has Q 1x2, K 1x2, V 1x2"));
  const auto ok =
      example_layer(relu_attention_keys::all_tokens, relu_attention_scale::inverse_context_count);
  CHECK_THROWS_WITH(relu_attention_forward<Q>(ok, H, 3), Catch::Contains("n_context = 3"));
  CHECK_THROWS_WITH(relu_attention_forward<Q>(ok, H, 0), Catch::Contains("n_context = 0"));
  CHECK_NOTHROW(relu_attention_forward<Q>(
      example_layer(relu_attention_keys::all_tokens, relu_attention_scale::none), H, 0));
  mlp_layer<Q> mlp{rational_matrix({{1, 0}}), Vec<Q>(3), rational_matrix({{1}, {0}}), Vec<Q>()};
  CHECK_THROWS_WITH(mlp_forward<Q>(mlp, H), Catch::Contains("b1 of size 3"));
}

TEST_CASE("relu_layers: a transformer applies attention then MLP, block by block",
          "[relu_layers]") {
  const Mat<Q> H = rational_matrix({{1, -1}, {2, 1}});
  relu_transformer<Q> tf;
  const auto attn =
      example_layer(relu_attention_keys::all_tokens, relu_attention_scale::inverse_context_count);
  mlp_layer<Q> mlp{rational_matrix({{1, 0}}), Vec<Q>(), rational_matrix({{0}, {1}}), Vec<Q>()};
  tf.blocks.push_back({attn, mlp});
  tf.blocks.push_back({relu_attention_layer<Q>{}, mlp});
  const auto out = relu_transformer_forward<Q>(tf, H, 2);
  REQUIRE(out.size() == 3);
  CHECK(out[0] == H);
  CHECK(out[1] == mlp_forward<Q>(mlp, relu_attention_forward<Q>(attn, H, 2)));
  CHECK(out[2] == mlp_forward<Q>(mlp, out[1]));
}

TEST_CASE("relu_layers mutants: sigma dropped from the attention", "[relu_layers][mutation]") {
  relu_layers_mutants.expect_killed(&rlc::attention_matches_the_definition<T>, sigma_dropped());
  relu_layers_mutants.expect_killed(&rlc::relu_head_pair_is_linear_attention<T>, sigma_dropped());
}

TEST_CASE("relu_layers mutants: 1/(N + 1) for 1/N", "[relu_layers][mutation]") {
  relu_layers_mutants.expect_killed(&rlc::attention_matches_the_definition<T>,
                                    scale_off_by_one_token());
  relu_layers_mutants.expect_killed(&rlc::relu_head_pair_is_linear_attention<T>,
                                    scale_off_by_one_token());
}

TEST_CASE("relu_layers mutants: the causal mask leaks later tokens", "[relu_layers][mutation]") {
  relu_layers_mutants.expect_killed(&rlc::attention_matches_the_definition<T>, causal_mask_leaks());
}

TEST_CASE("relu_layers mutants: the MLP without sigma, b2 inside sigma",
          "[relu_layers][mutation]") {
  relu_layers_mutants.expect_killed(&rlc::mlp_matches_the_definition<T>, mlp_sigma_dropped());
  relu_layers_mutants.expect_killed(&rlc::mlp_matches_the_definition<T>, mlp_b2_inside_sigma());
}

}  // namespace relu_layers_unit_test
