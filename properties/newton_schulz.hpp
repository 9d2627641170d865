// Checks of the two-layer Newton–Schulz construction (docs/constructions/newton_schulz.md;
// proofs/NewtonSchulz.v). Each check is a template on the scalar and takes the construction as
// a function (constructions<T>), so tests/unit/newton_schulz_test.cpp can feed it a broken one.
// The layers under test are always the generic lsa_layer (lsa/lsa_layer.hpp).
//
// Tolerances (no tuned constants; properties/rounding_shadow.hpp): the layers and the reference
// recursion are straight-line programs of +, -, x on the same inputs (S, M_0) computing the same
// polynomial (the cited theorems), so they differ by at most 2 gamma_n (shadow_layers +
// shadow_reference), the shadows being the programs run on absolute values:
//  * one step: the doubling layer is exact (every sum has one nonzero term and the sum M + M is
//    a doubling); the correction layer forms (2M) S (inner d), scales by -1/4 (exact), times 2M
//    (inner d) and adds the residual: depth 2d + 1; the reference 2M - (M S) M has the same
//    depth. We use n_step = 2d + 4 and n = k n_step for k steps (depths add along the chain).
//  * shadows: Shat_0 = |M_0|, Shat_{j+1} = 2 Shat_j + Shat_j |S| Shat_j, the same for the layers
//    ((2 Shat) |S| (2 Shat) / 4) and the reference; the comparison uses 2 gamma_n 2 max Shat_k.
//  * residual: I - M_k S has shadow I + Shat_k |S| (depth n + d + 1); (I - M_0 S)^(2^k) by k
//    squarings has shadow Rhat^(2^k), Rhat = I + |M_0| |S| (depth d + 1 + k d).
// In rationals the tolerance is 0 (tolerance<T>) and every check is an equality. On balls
// (core/ball.hpp) every comparison is an identity on enclosures (case_context::compare: the
// enclosure of computed - reference contains 0; the shadows play no part), and the stack's
// iterates must contain the exact rational M_j (exact_or_enclosed.hpp). No MPFI bodies.
#pragma once

#include "core/precision.hpp"
#include "core/rational.hpp"
#include "exact_or_enclosed.hpp"
#include "harness/property.hpp"
#include "harness/tolerance.hpp"
#include "newton_schulz/newton_schulz_weights.hpp"
#include "rounding_shadow.hpp"
#include "tasks/regression_task.hpp"

#include <rapidcheck.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace iclproof::newton_schulz_checks {

using rounding_shadow::compare_within;
using rounding_shadow::shadow_bound;

// The construction under test: k steps as an LSA stack for d x d matrices (the real one:
// newton_schulz_stack).
template <class T>
struct constructions {
  std::function<lsa_stack<T>(Eigen::Index d, int k)> stack;
};

template <class T>
constructions<T> real_constructions() {
  return {&newton_schulz_stack<T>};
}

inline double step_depth(Eigen::Index d) { return 2.0 * static_cast<double>(d) + 4.0; }

// A random square S (entries integers in [-4, 4], diagonal shifted by 6 so S is usually well
// inside the invertible matrices) and a dyadic M (entries k/8, |k| <= 8); d in 1..5.
template <class T>
struct ns_case {
  Eigen::Index d;
  Mat<T> S, M;
};

template <class T>
ns_case<T> gen_ns_case(case_context& ctx, int d_max = 5) {
  const int d = *rc::gen::inRange(1, d_max + 1);
  const auto seed = *rc::gen::inRange<std::uint64_t>(0, 1u << 30);
  ctx.note("d, data seed", std::to_string(d) + ", " + std::to_string(seed));
  data_rng rng(seed);
  Mat<double> S(d, d), M(d, d);
  for (int j = 0; j < d; ++j)
    for (int i = 0; i < d; ++i) {
      S(i, j) = std::floor(rng.uniform(-4.0, 5.0)) + (i == j ? 6.0 : 0.0);
      M(i, j) = std::floor(rng.uniform(-8.0, 9.0)) / 8.0;
    }
  return {d, from_double<T>(S), from_double<T>(M)};
}

// M_0 = S^T / ||S||_F^2: the classical Newton–Schulz start (M_0 S = S^T S / ||S||_F^2 has its
// eigenvalues in (0, 1] for nonsingular S, so the iterates converge to S^-1).
template <class T>
Mat<T> frobenius_start(const Mat<T>& S) {
  T f(0);
  for (Eigen::Index j = 0; j < S.cols(); ++j)
    for (Eigen::Index i = 0; i < S.rows(); ++i) f += S(i, j) * S(i, j);
  return Mat<T>(S.transpose() * T(T(1) / f));
}

// Shat_0 = |M_0|, Shat_{j+1} = 2 Shat_j + Shat_j |S| Shat_j.
template <class T>
std::vector<Mat<T>> iterate_shadows(const Mat<T>& S, const Mat<T>& M0, int k) {
  const Mat<T> aS = abs_of(S);
  std::vector<Mat<T>> out{abs_of(M0)};
  for (int j = 0; j < k; ++j) {
    const Mat<T>& s = out.back();
    out.push_back(Mat<T>(s * T(2) + matmul(Mat<T>(matmul(s, aS)), s)));
  }
  return out;
}

// k steps of the layers from M_0 = S^T / ||S||_F^2 (checks 3 and 4): k drawn from 1..k_max and
// noted, M_0, and the token matrices lsa_stack_forward gives.
template <class T>
struct k_steps_run {
  int k;
  Mat<T> M0;
  std::vector<Mat<T>> out;
};

template <class T>
k_steps_run<T> run_k_steps(case_context& ctx, const ns_case<T>& c, const constructions<T>& make,
                           int k_max) {
  const int k = *rc::gen::inRange(1, k_max + 1);
  ctx.note("steps k", std::to_string(k));
  const Mat<T> M0 = frobenius_start<T>(c.S);
  return {k, M0, lsa_stack_forward<T>(make.stack(c.d, k), newton_schulz_tokens<T>(c.S, M0), c.d)};
}

// 1. The doubling layer alone: B <- 2M exactly, A = S^T and C = I unchanged (exact in every
//    scalar: no rounding happens, header).
template <class T>
void doubling_layer_is_exact(case_context& ctx, const constructions<T>& make) {
  const auto c = gen_ns_case<T>(ctx);
  const Mat<T> E = newton_schulz_tokens<T>(c.S, c.M);
  const auto stack = make.stack(c.d, 1);
  ctx.require("two layers for one step", stack.layers.size() == 2,
              "got " + std::to_string(stack.layers.size()) + " layers");
  const Mat<T> out = lsa_layer_forward<T>(stack.layers.front(), E, c.d);
  ctx.require("S^T and the positions unchanged (exact)",
              out.topRows(c.d) == E.topRows(c.d) && out.bottomRows(c.d) == E.bottomRows(c.d),
              "layer 1 output =\n" + case_context::matrix_full_digits(out));
  const Mat<T> twice = c.M * T(2);
  ctx.require("iterate block is 2M (exact)", newton_schulz_iterate<T>(out) == twice,
              "got\n" + case_context::matrix_full_digits(Mat<T>(newton_schulz_iterate<T>(out))) +
                  "expected\n" + case_context::matrix_full_digits(twice));
}

// 2. Two layers: B = 2M - M S M; A and C unchanged.
template <class T>
void two_layers_make_one_step(case_context& ctx, const constructions<T>& make) {
  const auto c = gen_ns_case<T>(ctx);
  const Mat<T> E = newton_schulz_tokens<T>(c.S, c.M);
  const auto out = lsa_stack_forward<T>(make.stack(c.d, 1), E, c.d);
  const Mat<T> ref = newton_schulz_step<T>(c.S, c.M);
  const T bound = tolerance<T>([&](auto) {
    return shadow_bound<T>(step_depth(c.d),
                           T(T(2) * max_abs(iterate_shadows<T>(c.S, c.M, 1).back())));
  });
  ctx.require(
      "S^T and the positions unchanged (exact)",
      out.back().topRows(c.d) == E.topRows(c.d) && out.back().bottomRows(c.d) == E.bottomRows(c.d),
      "the A or C block moved");
  compare_within<T>(ctx, "iterate after two layers vs 2M - M S M",
                    Mat<T>(newton_schulz_iterate<T>(out.back())), ref, bound);
}

// 3. 2k layers from M_0 = S^T / ||S||_F^2: after layers 2j the iterate is M_j (every j <= k).
template <class T>
void stack_gives_kth_iterate(case_context& ctx, const constructions<T>& make) {
  const auto c = gen_ns_case<T>(ctx);
  const auto [k, M0, out] = run_k_steps<T>(ctx, c, make, 4);
  ctx.require("2k + 1 token matrices", out.size() == static_cast<std::size_t>(2 * k + 1),
              "got " + std::to_string(out.size()));
  const auto ref = newton_schulz_iterates<T>(c.S, M0, k);
  const auto shadows = iterate_shadows<T>(c.S, M0, k);
  for (int j = 1; j <= k; ++j) {
    const T bound = tolerance<T>(
        [&](auto) { return shadow_bound<T>(j * step_depth(c.d), T(T(2) * max_abs(shadows[j]))); });
    compare_within<T>(ctx, "step " + std::to_string(j) + ": iterate after layer 2j vs M_j",
                      Mat<T>(newton_schulz_iterate<T>(out[2 * j])), ref[j], bound);
  }
  if constexpr (is_ball_scalar<T>) {
    // On balls also the enclosure property: the layers' balls contain the exact iterates of the
    // exact recursion from the exact S (integers) and M_0 = S^T / ||S||_F^2 (rational).
    const Mat<rational_real> S_x = exact_or_enclosed::exact_points<T>(c.S);
    const auto M_x =
        newton_schulz_iterates<rational_real>(S_x, frobenius_start<rational_real>(S_x), k);
    for (int j = 1; j <= k; ++j)
      exact_or_enclosed::require_contains_exact<T>(
          ctx, "step " + std::to_string(j) + ": iterate after layer 2j contains M_j",
          Mat<T>(newton_schulz_iterate<T>(out[2 * j])), M_x[j]);
  }
}

// 4. The residual of the layers' output: I - M_k S = (I - M_0 S)^(2^k).
template <class T>
void residual_is_power_of_two(case_context& ctx, const constructions<T>& make) {
  const auto c = gen_ns_case<T>(ctx);
  const auto [k, M0, out] = run_k_steps<T>(ctx, c, make, 3);
  const Mat<T> I = Mat<T>::Identity(c.d, c.d);
  const Mat<T> lhs = I - matmul(Mat<T>(newton_schulz_iterate<T>(out.back())), c.S);
  Mat<T> rhs = I - matmul(M0, c.S);
  for (int j = 0; j < k; ++j) rhs = matmul(rhs, rhs);
  const T bound = tolerance<T>([&](auto) {
    const Mat<T> aS = abs_of(c.S);
    const Mat<T> lhs_shadow = I + matmul(iterate_shadows<T>(c.S, M0, k).back(), aS);
    Mat<T> r = I + matmul(abs_of(M0), aS);
    for (int j = 0; j < k; ++j) r = matmul(r, r);
    const double n = k * step_depth(c.d) + 2.0 * c.d + 1.0 + k * static_cast<double>(c.d);
    return shadow_bound<T>(n, T(max_abs(lhs_shadow) + max_abs(r)));
  });
  compare_within<T>(ctx, "I - M_k S (layers) vs (I - M_0 S)^(2^k)", lhs, rhs, bound);
}

}  // namespace iclproof::newton_schulz_checks
