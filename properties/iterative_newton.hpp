// Checks of the (k + 2)-layer iterative-Newton construction for in-context regression
// (docs/constructions/iterative_newton.md; proofs/IterativeNewton.v, proofs/NewtonSchulz.v).
// Each check is a template on the scalar and takes the construction as a function
// (constructions<T>), so tests/unit/iterative_newton_test.cpp can feed it a broken one. The
// layers under test are always the generic lsa_layer.
//
// The reference is the recursion itself: M_0 = alpha S, M_j = 2 M_{j-1} - M_{j-1} S M_{j-1}
// (newton_schulz_iterates), S = X X^T, prediction x_q^T M_k X y.
//
// Tolerances (properties/rounding_shadow.hpp; no tuned constants): layers and reference are
// straight-line programs of +, -, x on the same inputs (X, y, Xq, alpha) computing the same
// polynomial (the cited theorems), so they differ by <= 2 gamma_n (shadow_layers +
// shadow_reference); both programs have the shadow
//     Ahat = |X| |X|^T,  Shat_0 = |alpha| Ahat,  Shat_{j+1} = 2 Shat_j + Shat_j Ahat Shat_j,
//     prediction: |Xq|^T Shat_k |X| |y|^T,
// (every selector product has one nonzero term per sum and is exact; sums over the zero keys of
// the other tokens add exact zeros). Depths: set-up N + 1 (S, times alpha), a Newton layer
// 2d + 2 (M S, times M, heads summed, residual), read-out N (X y) + 2d + 1; we use
//     n_k = 2N + k (2d + 4) + 2d + 4.
// Residual: I - M_k S has shadow I + Shat_k Ahat (depth n_k + d + 1), (I - alpha S^2)^(2^k) by k
// squarings Rhat^(2^k), Rhat = I + |alpha| Ahat Ahat (depth N + d + 2 + k d).
// Expansions: sum_i |c_i| |alpha|^i Ahat^(2i-1) (depth N + 7d + 8).
// Rationals: tolerance 0, every check an equality.
//
// The registers check (registers_hold_iterates) does not use the shadows above, which compound
// (Shat_(j+1) >= 2 Shat_j + Shat_j Ahat Shat_j grows much faster than M_j: 10^7.4 above the error
// at step 5): it compares with the EXACT iterates (rationals) within the propagated bound of
// newton_register_error_bounds below.
#pragma once

#include "core/precision.hpp"
#include "exact_or_enclosed.hpp"
#include "harness/property.hpp"
#include "harness/tolerance.hpp"
#include "iterative_newton/iterative_newton_weights.hpp"
#include "newton_schulz/newton_schulz_weights.hpp"
#include "propagated_rounding.hpp"
#include "rounding_shadow.hpp"
#include "tasks/regression_task.hpp"

#include <rapidcheck.h>

#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace iclproof::iterative_newton_checks {

using rounding_shadow::compare_within;
using rounding_shadow::shadow_bound;

// The construction under test: setup, k Newton layers, read-out (the real one:
// iterative_newton_stack).
template <class T>
struct constructions {
  std::function<lsa_stack<T>(Eigen::Index d, int k, const T& alpha)> stack;
};

template <class T>
constructions<T> real_constructions() {
  return {&iterative_newton_stack<T>};
}

// A prompt: d in 1..4, N in d..d+5 context pairs, Q in 1..2 queries; integer data. The first d
// columns of X are upper triangular with nonzero diagonal, so S = X X^T is nonsingular (OLS
// exists). k in 1..k_max Newton layers.
template <class T>
struct in_case {
  Eigen::Index d, N, Q;
  int k;
  Mat<T> X, y, Xq, S, Xy;
};

template <class T>
in_case<T> gen_in_case(case_context& ctx, int k_max) {
  const int d = *rc::gen::inRange(1, 5);
  const int N = *rc::gen::inRange(d, d + 6);
  const int Q = *rc::gen::inRange(1, 3);
  const int k = *rc::gen::inRange(1, k_max + 1);
  const auto seed = *rc::gen::inRange<std::uint64_t>(0, 1u << 30);
  ctx.note("d, N, Q, k, data seed", std::to_string(d) + ", " + std::to_string(N) + ", " +
                                        std::to_string(Q) + ", " + std::to_string(k) + ", " +
                                        std::to_string(seed));
  data_rng rng(seed);
  const auto ints = [&](double a) { return std::floor(rng.uniform(-a, a + 1.0)); };
  Mat<double> X(d, N), y(1, N), Xq(d, Q);
  for (int j = 0; j < N; ++j) {
    for (int i = 0; i < d; ++i)
      X(i, j) = j < d ? (i < j    ? ints(3)
                         : i == j ? 1.0 + std::floor(rng.uniform(0.0, 3.0))
                                  : 0.0)
                      : ints(3);
    y(0, j) = ints(4);
  }
  for (int j = 0; j < Q; ++j)
    for (int i = 0; i < d; ++i) Xq(i, j) = ints(3);
  in_case<T> c{d, N, Q, k, from_double<T>(X), from_double<T>(y), from_double<T>(Xq), {}, {}};
  c.S = matmul_nt(c.X, c.X);
  c.Xy = matmul_nt(c.X, c.y);  // d x 1: sum_i y_i x_i
  return c;
}

inline double total_depth(Eigen::Index d, Eigen::Index N, int k) {
  return 2.0 * N + k * (2.0 * d + 4.0) + 2.0 * d + 4.0;
}

// Shat_0..Shat_k of the header.
template <class T>
std::vector<Mat<T>> iterate_shadows(const Mat<T>& X, const T& alpha, int k) {
  const Mat<T> A = matmul_nt(abs_of(X), abs_of(X));
  std::vector<Mat<T>> out{Mat<T>(A * abs_of(alpha))};
  for (int j = 0; j < k; ++j) {
    const Mat<T>& s = out.back();
    out.push_back(Mat<T>(s * T(2) + matmul(Mat<T>(matmul(s, A)), s)));
  }
  return out;
}

template <class T>
std::vector<Mat<T>> run_stack(const constructions<T>& make, const in_case<T>& c, const T& alpha,
                              int k) {
  return lsa_stack_forward<T>(make.stack(c.d, k, alpha), iterative_newton_tokens<T>(c.X, c.y, c.Xq),
                              c.N);
}

// The step size alpha of M_0 = alpha S: 1/||S||_F^2 (rational) or the authors' code's
// 1/||S S^T||_F (irrational: float scalars only; rounded once, the same value goes to the
// layers and the reference).
enum class alpha_choice { inverse_frobenius_squared, authors_code };

template <class T>
T authors_code_alpha(const Mat<T>& S) {
  if constexpr (is_exact_scalar<T>) {
    throw std::logic_error("authors_code_alpha: 1/||S S^T||_F is irrational, no exact form");
  } else {
    const Mat<T> SS = matmul_nt(S, S);
    return T(T(1) / sqrt_of(T(SS.squaredNorm())));
  }
}

// 1. The prediction after k + 2 layers is x_q^T M_k X y.
template <class T>
void prediction_with_alpha(case_context& ctx, const constructions<T>& make, alpha_choice choice) {
  const auto c = gen_in_case<T>(ctx, 4);
  const T alpha = choice == alpha_choice::authors_code ? authors_code_alpha<T>(c.S)
                                                       : inverse_frobenius_squared_alpha<T>(c.S);
  if (choice == alpha_choice::authors_code) {
    // ||S S^T||_F <= ||S||_F^2 (submultiplicativity): the authors' alpha is the larger one.
    if constexpr (is_ball_scalar<T>) {
      // On balls without the 8 eps: ||S S^T||_F^2 <= ||S||_F^4 on the exact integers of S = X X^T
      // (equal for d = 1, which an enclosure of the two alphas cannot decide).
      const T ss = T(matmul_nt(c.S, c.S).squaredNorm()), f = T(c.S.squaredNorm());
      ctx.require("||S S^T||_F^2 <= ||S||_F^4, so 1/||S S^T||_F >= 1/||S||_F^2 (exact integers)",
                  ss <= f * f,
                  "||S S^T||_F^2 = " + full_digits(ss) + ", ||S||_F^2 = " + full_digits(f));
    } else {
      const T af = inverse_frobenius_squared_alpha<T>(c.S);
      ctx.require("1/||S S^T||_F >= 1/||S||_F^2 (up to 8 eps)",
                  af <= alpha * T(T(1) + T(8) * eps<T>()),
                  "alpha_code = " + full_digits(alpha) + ", 1/||S||_F^2 = " + full_digits(af));
    }
  }
  const auto out = run_stack(make, c, alpha, c.k);
  ctx.require("k + 3 token matrices", out.size() == static_cast<std::size_t>(c.k + 3),
              "got " + std::to_string(out.size()));
  const Mat<T> Mk = newton_schulz_iterates<T>(c.S, Mat<T>(c.S * alpha), c.k).back();
  const Mat<T> ref = matmul(Mat<T>(matmul(Mat<T>(c.Xq.transpose()), Mk)), c.Xy).transpose();
  const T bound = tolerance<T>([&](auto) {
    const Mat<T> sh = iterate_shadows<T>(c.X, alpha, c.k).back();
    const Mat<T> p = matmul(Mat<T>(matmul(Mat<T>(abs_of(c.Xq).transpose()), sh)),
                            Mat<T>(matmul_nt(abs_of(c.X), abs_of(c.y))));
    return shadow_bound<T>(total_depth(c.d, c.N, c.k), T(T(2) * max_abs(p)));
  });
  compare_within<T>(ctx, "query y entries after k + 2 layers vs x_q^T M_k X y",
                    Mat<T>(iterative_newton_predictions<T>(out.back(), c.d, c.N)), ref, bound);
}

// Entrywise bounds on |M_j - M*_j|, j = 0..k, for the realised registers M_0..M_k (M* the exact
// Newton iterates from the exact S = X X^T and the given alpha), propagated through the
// computation (properties/propagated_rounding.hpp; hand-derived from Higham's Lemma 3.1 and
// the triangle inequality, a rigorous upper bound):
//   set-up:  |M_0 - alpha S| <= 2 gamma_(2N+2) |alpha| Ahat                (Ahat = |X| |X|^T);
//   layer j on its realised input M = M_j (S recomputed from X): M_(j+1) = 2 M - M S M + delta,
//            |delta| <= 2 gamma_(2N+2d+6) (2 |M| + |M| Ahat |M|);
//   exactly, with e = M_j - M*_j:  e_(j+1) = e (I - S M_j) + (I - M_j S) e + e S e + delta,
//   a linear map of e with coefficients from the REALISED M_j (their signs kept: I - M_j S is the
//   contracting residual that the shadows replace by I + Shat Ahat) plus the second-order term
//   |e S e| <= E_j Ahat E_j (E_j the bound on |e_j| already found), which is added to delta.
// The linear maps act on vec(e) (row-major, d^2 entries); their entries are computed in double
// from X and M_j (depth N + d + 5: S, one inner product, I -, the conversions).
template <class T>
std::vector<Mat<T>> newton_register_error_bounds(const Mat<T>& X, const T& alpha,
                                                 const std::vector<Mat<T>>& M) {
  const Eigen::Index d = X.rows(), N = X.cols(), n = d * d;
  const int k = static_cast<int>(M.size()) - 1;
  const Mat<T> Ahat = matmul_nt(abs_of(X), abs_of(X));
  const auto vec = [&](const Mat<T>& E) {
    Mat<T> v(1, n);
    for (Eigen::Index r = 0; r < d; ++r)
      for (Eigen::Index q = 0; q < d; ++q) v(0, r * d + q) = E(r, q);
    return v;
  };
  const auto unvec = [&](const Mat<T>& v) {
    Mat<T> E(d, d);
    for (Eigen::Index r = 0; r < d; ++r)
      for (Eigen::Index q = 0; q < d; ++q) E(r, q) = v(0, r * d + q);
    return E;
  };
  const auto to_d = [](const Mat<T>& A) {
    return Mat<double>(A.unaryExpr([](const T& x) { return static_cast<double>(x); }));
  };
  // States 1..k+1 are M_0..M_k (state 0 is exact and unused); L[m][m] maps e_(m-1) to e_m.
  propagated_rounding::linear_recurrence r;
  r.dim = n;
  r.entry_depth = N + d + 5.0;
  const Mat<double> Xd = to_d(X), S = Xd * Xd.transpose(),
                    S_hat = Xd.cwiseAbs() * Xd.cwiseAbs().transpose();
  const Mat<double> I = Mat<double>::Identity(d, d);
  for (int m = 0; m <= k; ++m) {
    r.L.push_back(std::vector<Mat<double>>(m + 1));
    r.L_hat.push_back(std::vector<Mat<double>>(m + 1));
    if (m == 0) continue;
    const Mat<double> Md = to_d(M[m - 1]);
    const Mat<double> P = I - S * Md, Q = I - Md * S;  // e -> e P + Q e
    const Mat<double> P_hat = I + S_hat * Md.cwiseAbs(), Q_hat = I + Md.cwiseAbs() * S_hat;
    Mat<double> K = Mat<double>::Zero(n, n), K_hat = Mat<double>::Zero(n, n);
    for (Eigen::Index a = 0; a < d; ++a)
      for (Eigen::Index b = 0; b < d; ++b)
        for (Eigen::Index t = 0; t < d; ++t) {
          // e_next(a, b) += e(a, t) P(t, b) + Q(a, t) e(t, b)
          K(a * d + t, a * d + b) += P(t, b);
          K_hat(a * d + t, a * d + b) += P_hat(t, b);
          K(t * d + b, a * d + b) += Q(a, t);
          K_hat(t * d + b, a * d + b) += Q_hat(a, t);
        }
    r.L[m][m] = K;
    r.L_hat[m][m] = K_hat;
  }
  const auto up = propagated_rounding::propagator_bounds(r);
  std::vector<Mat<T>> local{Mat<T>::Zero(1, n)}, E;
  for (int m = 1; m <= k + 1; ++m) {
    Mat<T> delta;
    if (m == 1) {
      delta = shadow_bound<T>(2.0 * N + 2.0, T(1)) * abs_of(alpha) * Ahat;
    } else {
      const Mat<T> aM = abs_of(M[m - 2]);
      delta = shadow_bound<T>(2.0 * N + 2.0 * d + 6.0, T(1)) *
                  Mat<T>(T(2) * aM + matmul(Mat<T>(matmul(aM, Ahat)), aM)) +
              matmul(Mat<T>(matmul(E.back(), Ahat)), E.back());
    }
    local.push_back(vec(delta));
    E.push_back(unvec(propagated_rounding::propagated_bound<T>(up, local, m)));
  }
  return E;
}

// 2. After the set-up the registers hold A = S, B = M_0 = alpha S, g = X y; after Newton layer j
//    B = M_j; the context and query tokens' x parts never move.
template <class T>
void registers_hold_iterates(case_context& ctx, const constructions<T>& make) {
  const auto c = gen_in_case<T>(ctx, 4);
  const T alpha = inverse_frobenius_squared_alpha<T>(c.S);
  const auto out = run_stack(make, c, alpha, c.k);
  const iterative_newton_rows r{c.d};
  const Mat<T>& E1 = out[1];
  const T bound_setup = tolerance<T>([&](auto) {
    return shadow_bound<T>(c.N + 1.0,
                           T(T(2) * max_abs(iterate_shadows<T>(c.X, alpha, 0).front()) +
                             T(2) * max_abs(Mat<T>(matmul_nt(abs_of(c.X), abs_of(c.X))))));
  });
  compare_within<T>(ctx, "set-up: register A block vs S", Mat<T>(E1.block(r.A(), c.N, c.d, c.d)),
                    c.S, bound_setup);
  compare_within<T>(ctx, "set-up: register g row vs (X y)^T", Mat<T>(E1.block(r.g(), c.N, 1, c.d)),
                    Mat<T>(c.Xy.transpose()), tolerance<T>([&](auto) {
                      return shadow_bound<T>(
                          c.N + 1.0,
                          T(T(2) * max_abs(Mat<T>(matmul_nt(abs_of(c.X), abs_of(c.y))))));
                    }));
  if constexpr (is_interval_scalar<T>) {
    // On enclosures: the recursion run on the same enclosures, an identity check
    // (case_context::compare uses no bound there; the enclosures contain every rounding).
    const auto M = newton_schulz_iterates<T>(c.S, Mat<T>(c.S * alpha), c.k);
    for (int j = 0; j <= c.k; ++j)
      ctx.compare<T>("step " + std::to_string(j + 1) + ": registers after layer " +
                         std::to_string(j) + " vs M_" + std::to_string(j),
                     Mat<T>(iterative_newton_iterate<T>(out[1 + j], c.d, c.N)), M[j], T(0));
  } else {
    // The exact iterates of the exact recursion from the exact S and the (rounded) alpha.
    using propagated_rounding::exact_of;
    const Mat<rational_real> S_x = matmul_nt(exact_of(c.X), exact_of(c.X));
    const auto M_x =
        newton_schulz_iterates<rational_real>(S_x, Mat<rational_real>(S_x * exact_of(alpha)), c.k);
    std::vector<Mat<T>> regs;
    for (int j = 0; j <= c.k; ++j)
      regs.push_back(iterative_newton_iterate<T>(out[1 + j], c.d, c.N));
    std::vector<Mat<T>> B;
    tolerance<T>([&](auto) {
      B = newton_register_error_bounds<T>(c.X, alpha, regs);
      return T(0);
    });
    for (int j = 0; j <= c.k; ++j) {
      const Mat<T> ref = propagated_rounding::rounded_from_exact<T>(M_x[j]);
      const T bound = tolerance<T>([&](auto) {
        return T((B[j] + propagated_rounding::rounding_of_reference<T>(ref)).maxCoeff());
      });
      compare_within<T>(ctx,
                        "step " + std::to_string(j + 1) + ": registers after layer " +
                            std::to_string(j) + " vs M_" + std::to_string(j),
                        regs[j], ref, bound);
    }
  }
  const Mat<T> E0 = out.front();
  bool x_fixed = true;
  for (const auto& E : out) x_fixed = x_fixed && E.topRows(c.d) == E0.topRows(c.d);
  ctx.require("x parts of every token unchanged by every layer (exact)", x_fixed, "an x moved");
}

// (I - alpha S^2)^(2^k) by k squarings.
template <class T>
Mat<T> residual_power(const Mat<T>& S, const T& alpha, int k) {
  Mat<T> R = Mat<T>::Identity(S.rows(), S.cols()) - matmul(S, S) * alpha;
  for (int j = 0; j < k; ++j) R = matmul(R, R);
  return R;
}

// 3. I - M_k S = (I - alpha S^2)^(2^k) for the layers' M_k.
template <class T>
void residual_is_power(case_context& ctx, const constructions<T>& make) {
  const auto c = gen_in_case<T>(ctx, 3);
  const T alpha = inverse_frobenius_squared_alpha<T>(c.S);
  const auto out = run_stack(make, c, alpha, c.k);
  const Mat<T> I = Mat<T>::Identity(c.d, c.d);
  const Mat<T> lhs = I - matmul(Mat<T>(iterative_newton_iterate<T>(out[1 + c.k], c.d, c.N)), c.S);
  const Mat<T> rhs = residual_power<T>(c.S, alpha, c.k);
  const T bound = tolerance<T>([&](auto) {
    const Mat<T> A = matmul_nt(abs_of(c.X), abs_of(c.X));
    const Mat<T> l = I + matmul(iterate_shadows<T>(c.X, alpha, c.k).back(), A);
    Mat<T> r = I + matmul(A, A) * abs_of(alpha);
    for (int j = 0; j < c.k; ++j) r = matmul(r, r);
    return shadow_bound<T>(total_depth(c.d, c.N, c.k) + c.d + 1.0 + c.k * c.d,
                           T(max_abs(l) + max_abs(r)));
  });
  compare_within<T>(ctx, "I - M_k S (layers) vs (I - alpha S^2)^(2^k)", lhs, rhs, bound);
}

// 4. The registers after Newton layers 1 and 2 equal the expansions
//    M_1 = 2 alpha S - alpha^2 S^3, M_2 = 4 alpha S - 6 alpha^2 S^3 + 4 alpha^3 S^5 - alpha^4 S^7.
template <class T>
void m1_m2_expansions(case_context& ctx, const constructions<T>& make) {
  auto c = gen_in_case<T>(ctx, 1);
  const T a = inverse_frobenius_squared_alpha<T>(c.S);
  const auto out = run_stack(make, c, a, 2);
  const Mat<T> S2 = matmul(c.S, c.S), S3 = matmul(S2, c.S), S5 = matmul(S3, S2),
               S7 = matmul(S5, S2);
  const T a2 = a * a, a3 = a2 * a, a4 = a3 * a;
  const Mat<T> M1 = c.S * T(T(2) * a) - S3 * a2;
  const Mat<T> M2 = c.S * T(T(4) * a) - S3 * T(T(6) * a2) + S5 * T(T(4) * a3) - S7 * a4;
  const auto sh = iterate_shadows<T>(c.X, a, 2);
  const auto expansion_shadow = [&](const std::vector<double>& coeff) {
    const Mat<T> A = matmul_nt(abs_of(c.X), abs_of(c.X)), A2 = matmul(A, A);
    Mat<T> power = A, sum = Mat<T>::Zero(c.d, c.d);
    T ai = abs_of(a);
    for (double co : coeff) {
      sum += power * T(T(co) * ai);
      power = matmul(power, A2);
      ai *= abs_of(a);
    }
    return sum;
  };
  const double n = total_depth(c.d, c.N, 2) + 7.0 * c.d + 8.0;
  const T b1 = tolerance<T>([&](auto) {
    return shadow_bound<T>(n, T(max_abs(sh[1]) + max_abs(expansion_shadow({2, 1}))));
  });
  const T b2 = tolerance<T>([&](auto) {
    return shadow_bound<T>(n, T(max_abs(sh[2]) + max_abs(expansion_shadow({4, 6, 4, 1}))));
  });
  compare_within<T>(ctx, "registers after Newton layer 1 vs 2 alpha S - alpha^2 S^3",
                    Mat<T>(iterative_newton_iterate<T>(out[2], c.d, c.N)), M1, b1);
  compare_within<T>(ctx,
                    "registers after Newton layer 2 vs 4 alpha S - 6 alpha^2 S^3 + 4 alpha^3 S^5 "
                    "- alpha^4 S^7",
                    Mat<T>(iterative_newton_iterate<T>(out[3], c.d, c.N)), M2, b2);
}

// 5. Exact only: with w* = S^-1 X y and w_j = M_j X y (the layers' registers),
//    w* - w_k = (I - alpha S^2)^(2^k) w*, and |w* - w_j|^2 does not increase with j.
template <class T>
void ols_error_is_residual_power(case_context& ctx, const constructions<T>& make) {
  const auto c = gen_in_case<T>(ctx, 4);
  const T alpha = inverse_frobenius_squared_alpha<T>(c.S);
  const auto out = run_stack(make, c, alpha, c.k);
  const Mat<T> w_star = spd_solve(c.S, c.Xy);
  exact_or_enclosed::require_identity<T>(ctx, "S w* = X y (exact solve)",
                                         Mat<T>(matmul(c.S, w_star)), c.Xy,
                                         [] { return std::string("solve inexact"); });
  T previous(-1);
  for (int j = 0; j <= c.k; ++j) {
    const Mat<T> w = matmul(Mat<T>(iterative_newton_iterate<T>(out[1 + j], c.d, c.N)), c.Xy);
    const Mat<T> err = w_star - w;
    const T e2 = err.squaredNorm();
    if constexpr (is_ball_scalar<T>) {
      // On balls every step's error is checked as the identity w* - w_j = P_j w*,
      // P_j = (I - alpha S^2)^(2^j), and the decrease is certified by ||P_(j-1)||_2 < 1
      // (exact_or_enclosed.hpp): w* - w_j = P_(j-1) (w* - w_(j-1)). For d = 1 every error is 0
      // (alpha S^2 = 1), which an enclosure comparison of the two squared norms cannot decide.
      exact_or_enclosed::require_identity<T>(
          ctx, "step " + std::to_string(j) + ": w* - w_j = (I - alpha S^2)^(2^j) w*", err,
          Mat<T>(matmul(residual_power<T>(c.S, alpha, j), w_star)), [] { return std::string(); });
      if (j > 0) {
        const Mat<T> P = residual_power<T>(c.S, alpha, j - 1);
        ctx.require("step " + std::to_string(j) +
                        ": |w* - w_j|^2 <= |w* - w_(j-1)|^2 (certified: I - P^T P positive "
                        "definite, P = (I - alpha S^2)^(2^(j-1)))",
                    exact_or_enclosed::certainly_contracting<T>(P),
                    "P =\n" + case_context::matrix_full_digits(P));
      }
    } else {
      if (j > 0)
        ctx.require("step " + std::to_string(j) + ": |w* - w_j|^2 <= |w* - w_(j-1)|^2 (exact)",
                    e2 <= previous,
                    "|w* - w_j|^2 = " + full_digits(e2) + " > " + full_digits(previous));
    }
    previous = e2;
    if constexpr (!is_ball_scalar<T>) {
      if (j == c.k)
        ctx.require("w* - w_k = (I - alpha S^2)^(2^k) w* (exact)",
                    err == Mat<T>(matmul(residual_power<T>(c.S, alpha, c.k), w_star)),
                    "w* - w_k =\n" + case_context::matrix_full_digits(err));
    }
  }
}

}  // namespace iclproof::iterative_newton_checks
