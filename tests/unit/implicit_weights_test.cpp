// Unit and mutation tests of the implicit-weight reader (Vladymyrov et al. 2024, Theorem 4.1 /
// Lemma 4.3; src/implicit_weights, properties/implicit_weights.hpp). Every implicit_weights.*
// check is run on the real reader (must pass) and on broken ones (must fail): the read-out sign of
// w flipped, w off by a factor 1 + 2^-40, the B w^T term of the M update dropped, the Cyx u term
// of the a update dropped. A hand-computed one-layer example pins the recursion, and the
// erratum candidate of Lemma A.1 (the printed (M + a u w*^T)) is shown to differ from the layer.
#include "implicit_weights.hpp"

#include "core/precision.hpp"

#include "mutation_testing.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace iclproof;
using namespace iclproof::implicit_weights_checks;

namespace {
using T = mutation_scalar;

const mutation_runner implicit_mutants{30};

const T tiny_relative_change = T(std::ldexp(1.0, -40));

reader<T> real_reader() { return &read_implicit_weights<T>; }

// A re-implementation of the reader with one term dropped (which: 0 = B w^T in M, 1 = Cyx u in a).
reader<T> reader_dropping(int which) {
  return [which](const lsa_stack<T>& stack, const Mat<T>& X, const Mat<T>& Y) {
    std::vector<implicit_state<T>> out{implicit_identity_state<T>(X.rows(), Y.rows())};
    for (const auto& layer : stack.layers) {
      const auto& s = out.back();
      const Mat<T> C = lsa_token_map<T>(layer, implicit_tokens<T>(s, X, Y));
      implicit_state<T> n = implicit_layer_update<T>(s, C);
      const Eigen::Index d = X.rows(), o = Y.rows();
      if (which == 0) n.M += matmul_nt(Mat<T>(C.topRightCorner(d, o)), s.w);
      if (which == 1) n.a -= matmul(Mat<T>(C.bottomLeftCorner(o, d)), s.u);
      out.push_back(std::move(n));
    }
    return out;
  };
}

reader<T> reader_tampering_w(const T& factor) {
  return [factor](const lsa_stack<T>& stack, const Mat<T>& X, const Mat<T>& Y) {
    auto out = read_implicit_weights<T>(stack, X, Y);
    for (std::size_t l = 1; l < out.size(); ++l) out[l].w *= factor;
    return out;
  };
}

template <class Check>
void expect_reader_killed(const Check& check, const reader<T>& mutant, int cases = 30) {
  implicit_mutants.expect_killed([&](case_context& ctx) { check(ctx, real_reader()); },
                                 [&](case_context& ctx) { check(ctx, mutant); }, cases);
}
}  // namespace

TEST_CASE("implicit weights: one hand-computed layer", "[implicit_weights]") {
  // d = 1, o = 1, one head W_K = W_V = I, W_Q = Q, P = I; context x = (1, 2), y = (1, 0).
  // G = sum e e^T = [[5, 1], [1, 1]], Q = [[1, 0], [1, 1]]: C = G Q = [[6, 1], [2, 1]].
  // M' = (1 + 6) 1 - 1 * 0 = 7, u' = 7 * 0 + 1 * 1 = 1, a' = 2 * 1 + 2 * 0 = 2, w' = 0 - 1 * 2 =
  // -2.
  lsa_head<T> h{Mat<T>::Identity(2, 2), Mat<T>::Identity(2, 2), Mat<T>::Identity(2, 2),
                Mat<T>::Identity(2, 2)};
  h.W_Q(1, 0) = T(1);
  lsa_stack<T> stack;
  stack.layers.push_back(lsa_layer<T>{{h}, lsa_mask::context_keys});
  Mat<T> X(1, 2), Y(1, 2);
  X << T(1), T(2);
  Y << T(1), T(0);
  const auto s = read_implicit_weights<T>(stack, X, Y);
  REQUIRE(s.size() == 2);
  CHECK(s[1].M(0, 0) == T(7));
  CHECK(s[1].u(0, 0) == T(1));
  CHECK(s[1].a(0, 0) == T(2));
  CHECK(s[1].w(0, 0) == T(-2));
  // And the layer agrees: token (x, y) -> (7 x + y, 2 y + 2 x).
  const Mat<T> out = lsa_layer_forward<T>(stack.layers[0], regression_tokens<T>(X, Y, X, Y), 2);
  CHECK(out(0, 1) == T(14));
  CHECK(out(1, 1) == T(4));
}

TEST_CASE("implicit weights: an unmasked layer and bad shapes give one clear error",
          "[implicit_weights]") {
  lsa_stack<T> stack;
  stack.layers.push_back(lsa_layer<T>{{lsa_head<T>{Mat<T>::Identity(2, 2), Mat<T>::Identity(2, 2),
                                                   Mat<T>::Identity(2, 2), Mat<T>::Identity(2, 2)}},
                                      lsa_mask::all_keys});
  const Mat<T> X = Mat<T>::Ones(1, 3), Y = Mat<T>::Ones(1, 3);
  CHECK_THROWS_AS(read_implicit_weights<T>(stack, X, Y), std::invalid_argument);
  stack.layers[0].mask = lsa_mask::context_keys;
  CHECK_THROWS_AS(read_implicit_weights<T>(stack, Mat<T>::Ones(2, 3), Y), std::invalid_argument);
  CHECK_THROWS_AS(read_implicit_weights<T>(stack, X, Mat<T>::Ones(1, 2)), std::invalid_argument);
}

TEST_CASE("implicit_weights token properties fail on a flipped w, a scaled w, dropped terms",
          "[implicit_weights][mutation]") {
  // 512 bits: layer_cap allows 3 layers (a dropped term shows from layer 2 on).
  scoped_mpfr_precision p(512);
  const auto general = [](case_context& ctx, const reader<T>& r) {
    every_token_is_read_by_the_implicit_state<T>(ctx, head_form::general, r);
  };
  const auto paper = [](case_context& ctx, const reader<T>& r) {
    every_token_is_read_by_the_implicit_state<T>(ctx, head_form::paper, r);
  };
  expect_reader_killed(general, reader_tampering_w(T(-1)));
  expect_reader_killed(general, reader_tampering_w(T(1) + tiny_relative_change));
  expect_reader_killed(general, reader_dropping(0));
  expect_reader_killed(paper, reader_dropping(1));
  expect_reader_killed(paper, reader_tampering_w(T(-1)));
}

TEST_CASE("implicit_weights prediction and GD-form properties fail on broken readers",
          "[implicit_weights][mutation]") {
  scoped_mpfr_precision p(512);
  expect_reader_killed(
      [](case_context& ctx, const reader<T>& r) {
        prediction_is_the_implicit_linear_model<T>(ctx, r);
      },
      reader_tampering_w(T(-1)));
  expect_reader_killed(
      [](case_context& ctx, const reader<T>& r) {
        prediction_is_the_implicit_linear_model<T>(ctx, r);
      },
      reader_tampering_w(T(1) + tiny_relative_change));
  const auto diag = [](case_context& ctx, const reader<T>& r) {
    diagonal_layer_is_preconditioned_gd_on_the_implicit_loss<T>(ctx, r);
  };
  expect_reader_killed(diag, reader_dropping(0));
  expect_reader_killed(diag, reader_dropping(1));
  expect_reader_killed(diag, reader_tampering_w(T(1) + tiny_relative_change));
  const auto gd = [](case_context& ctx, const reader<T>& r) {
    gd_stack_reads_as_gd_iterates<T>(ctx, r);
  };
  expect_reader_killed(gd, reader_tampering_w(T(-1)));
  expect_reader_killed(gd, reader_tampering_w(T(1) + tiny_relative_change));
}

#ifdef ICLPROOF_MUTATION_RATIONAL
// The erratum candidate of Lemma A.1 (docs/constructions/implicit_weights.md): the extraction
// prints Pi = w_yx M^T (M + a u w*^T); the layer's update needs (M + u w*^T). On a two-layer
// diagonal example (a^1 != 1, u^1 != 0 after layer 1) the printed form misses the layer's w^2.
TEST_CASE("implicit_weights: the printed Pi of Lemma A.1 is not the layer's update",
          "[implicit_weights]") {
  const int d = 2;
  const auto head = [&](T px, T py, T qx, T qy) {
    lsa_head<T> h{Mat<T>::Identity(d + 1, d + 1), Mat<T>::Identity(d + 1, d + 1),
                  Mat<T>::Identity(d + 1, d + 1), Mat<T>::Identity(d + 1, d + 1)};
    h.P *= px;
    h.P(d, d) = py;
    h.W_Q *= qx;
    h.W_Q(d, d) = qy;
    return h;
  };
  lsa_stack<T> stack;
  // p = (1/2, -1), q = (-1/4, 1/2): w_xx = -1/8, w_xy = 1/4, w_yx = 1/4, w_yy = -1/2.
  for (int l = 0; l < 2; ++l)
    stack.layers.push_back(lsa_layer<T>{{head(T(1) / T(2), T(-1), T(-1) / T(4), T(1) / T(2))},
                                        lsa_mask::context_keys});
  Mat<T> X(d, 3), Y(1, 3);
  X << T(1), T(0), T(1), T(0), T(1), T(2);
  Y << T(1), T(2), T(1);
  const auto s = read_implicit_weights<T>(stack, X, Y);
  const T wyx = T(1) / T(4), wyy = T(-1) / T(2);
  // w* (least squares, exact), rho, and the layer-1 quantities.
  const Mat<T> Sigma = matmul_nt(X, X);
  const Mat<T> w_star = lu_solve<T>(Sigma, Mat<T>(matmul_nt(X, Y)));
  const Mat<T> r = Y - matmul_tn(w_star, X);
  const T rho = matmul_nt(r, r)(0, 0);
  const auto& s1 = s[1];
  const Mat<T> E1 = implicit_tokens<T>(s1, X, Y);
  const T lambda1 = matmul_nt(Mat<T>(E1.bottomRows(1)), Mat<T>(E1.bottomRows(1)))(0, 0);
  const T a = s1.a(0, 0);
  const Mat<T> grad = matmul(Sigma, Mat<T>(a * w_star - s1.w));
  const Mat<T> Phi_u = a * rho * wyx * matmul_tn(s1.M, s1.u);
  const auto w_next = [&](const T& a_in_pi) {
    const Mat<T> Pi = wyx * matmul_tn(s1.M, Mat<T>(s1.M + a_in_pi * matmul_nt(s1.u, w_star)));
    return Mat<T>((T(1) + wyy * lambda1) * s1.w - matmul(Pi, grad) - Phi_u);
  };
  CHECK(a != T(1));
  CHECK(s1.u != Mat<T>::Zero(d, 1));
  CHECK(w_next(T(1)) == s[2].w);  // (M + u w*^T): the derivation
  CHECK(w_next(a) != s[2].w);     // (M + a u w*^T): as printed
}
#endif
