// Checks of the exact population optima (src/references/population_optima.hpp) against an
// exact integral of the GD reference's loss and against exact rational arithmetic. Each check
// takes the implementation under test as a parameter so that tests/unit/population_optima_test.cpp
// can feed it a broken one.
//
// The integral. Per context X (d x N), the project's GD reference (preconditioned_gd_iterates,
// one step from W0 = 0 on the task's R(W)) is run once per basis vector w = e_k (Y = e_k^T X),
// giving the rows e_k^T M of the map w^T |-> W_1 = w^T M (M = C P, read off the reference code,
// not the formula under test); w and the query are integrated in closed form (the error is
// bilinear in them): E_{w, x_q} (y_hat - y_q)^2 = f(X) = tr((M - I) Sigma_x (M - I)^T Sigma_w).
// f is a polynomial of total degree 4 in the context's d N coordinates (C is quadratic in X).
// Writing X = L Z with Z's coordinates independent and symmetric (L = I for U(-a, a)^d and
// N(0, sigma^2 I); L = Sigma^(1/2), Z ~ N(0, I) for N(0, Sigma)), f(L Z) is of degree 4 in Z and
// the degree-5 cubature rule of symmetric_cubature.hpp gives E f EXACTLY, up to rounding, from
// 2 (d N)^2 + 1 evaluations of the reference. Nothing is sampled; there is no false-alarm rate.
//
// Why not Monte Carlo (the first version of this check). A 5-standard-error criterion
// on a 2000-task sample mean failed on a correct formula (`iclproof check --scalar double --cases
// 3000 --seed 57465`: d = 3, N = 2, w ~ N(0, I), mean 0.91213 +- 0.00645 against the exact
// 0.94444, 5.007 standard errors). f has finite moments of every order (a polynomial in
// Gaussians; no inverse Wishart moment enters), but at small N it is strongly right-skewed
// (that case, 4e6 draws: skewness 9.6, kurtosis 309). A sample that misses the rare large values
// has both a low mean and a low sample standard deviation (the failing sample's skewness was
// 0.44), so the studentised error has a heavy left tail: of 2000 studentised 2000-draw means,
// 10 fell below -3 against 2.7 expected under the normal law (1 above +3). The normal rate
// P(|Z| > 5) = 5.7e-7 therefore did not hold, and no multiplier would be justified without a
// tail bound on f, which the check does not have; the exact integral removes the question
// (tests/unit/population_optima_test.cpp reproduces the failing draws).
//
// Rounding (hand-derived, first-order, not proved). Each node's f is computed from X = L z (one
// sqrt, a d-term product), C P (N- and d-term inner products) and a d^2-term trace; its absolute
// error is at most (N + 4 d + 8) u times the magnitude F = (|X|^2 |P| / N + sqrt(d))^2
// |Sigma_x| |Sigma_w| (Frobenius norms; F >= |f| since |M - I| <= |X|^2 |P| / N + sqrt(d)),
// with room for the error of spd_sqrt(Sigma) (backward stable, O(d u |Sigma|)). The weighted
// sum of n nodes adds n u sum |w_i| F_i (recursive summation, Higham (4.4)). Hence
//   |cubature - E f| <= 16 (N + 4 d + 8 + n) u sum_i |w_i| F_i;
// the formula's own evaluation (G, K, and for P* an LU solve with kappa(G) <= kappa(Sigma)^2)
// adds 32 d^3 kappa(Sigma)^2 u S, S = (d + 2) |P|^2 |Sigma_x|^3 |Sigma_w| + 2 |P| |Sigma_x|^2
// |Sigma_w| + |Sigma_x| |Sigma_w| (each term bounds one term of (2), |G| <= (d + 2) |Sigma_x|^2
// |Sigma_w|). The constants 16 and 32 are rounded up from the operation counts.
//
// Power: any error in the formula larger than this rounding bound (relative ~ 1e-12 in double,
// ~ 1e-70 at 256 bits) fails; the mutation tests show a wrong fourth moment and a wrong Wishart
// moment failing. The exact rational check below and the Coq theorems carry the minimiser's
// algebra.
#pragma once

#include "core/precision.hpp"
#include "harness/property.hpp"
#include "references/population_optima.hpp"
#include "references/references.hpp"
#include "symmetric_cubature.hpp"
#include "tasks/regression_task.hpp"

#include <boost/multiprecision/cpp_int.hpp>

#include <cmath>
#include <cstdint>
#include <string>

namespace iclproof::population_optima_checks {

inline constexpr const char* exact_integral_bound =
    "properties/population_optima.hpp: |cubature - E f| <= 16 (N + 4d + 8 + n) u sum |w_i| F_i "
    "+ 32 d^3 kappa^2 u S (first-order rounding model, hand-derived)";

// The loss of one preconditioned step with P, the context X = L Z, Z with d N independent
// symmetric coordinates of moments (s2, m4): its exact expectation (cubature) and the rounding
// bound of the comment above, without the formula's term.
template <class T>
struct exact_loss_integral {
  T value, rounding_bound;
  int nodes;
};

template <class T>
exact_loss_integral<T> integrate_one_step_loss(int d, int N, const Mat<T>& P, const Mat<T>& L,
                                               const T& s2, const T& m4, const Mat<T>& Sigma_x,
                                               const Mat<T>& Sigma_w) {
  using boost::multiprecision::sqrt;
  using std::sqrt;
  const Mat<T> I = Mat<T>::Identity(d, d);
  const T norm_P = sqrt(P.squaredNorm()), norm_x = sqrt(Sigma_x.squaredNorm()),
          norm_w = sqrt(Sigma_w.squaredNorm()), root_d = sqrt(T(d));
  auto f = [&](const Vec<T>& z) {
    const Mat<T> Z = Eigen::Map<const Mat<T>>(z.data(), d, N);
    const Mat<T> X = matmul(L, Z);
    Mat<T> M(d, d);
    for (int k = 0; k < d; ++k) {
      const Mat<T> Y = X.row(k);
      M.row(k) = preconditioned_gd_iterates(Mat<T>(Mat<T>::Zero(1, d)), X, Y, {P}).back();
    }
    const Mat<T> E = M - I;
    const T value = matmul(matmul(matmul(E, Sigma_x), Mat<T>(E.transpose())), Sigma_w).trace();
    const T m = T(X.squaredNorm() * norm_P / T(N) + root_d);
    return std::pair<T, T>{value, T(m * m * norm_x * norm_w)};
  };
  const cubature_sum<T> c = symmetric_degree5_expectation<T>(d * N, s2, m4, f);
  return {c.value, T(T(16 * (N + 4 * d + 8 + c.nodes)) * eps<T>() * c.abs_weighted), c.nodes};
}

// 32 d^3 kappa^2 u S of the comment above: the rounding of the formula's own evaluation.
template <class T>
T formula_rounding_bound(int d, const T& kappa, const Mat<T>& P, const Mat<T>& Sigma_x,
                         const Mat<T>& Sigma_w) {
  using boost::multiprecision::sqrt;
  using std::sqrt;
  const T p = sqrt(P.squaredNorm()), x = sqrt(Sigma_x.squaredNorm()),
          w = sqrt(Sigma_w.squaredNorm());
  const T S = T(T(d + 2) * p * p * x * x * x * w + T(2) * p * x * x * w + x * w);
  return T(T(32 * d * d * d) * kappa * kappa * eps<T>() * S);
}

// On balls (Arb) the integral (every node, the reference's step, the weighted sum) and the
// formula are enclosures of their exact values, so the comparison is the exact identity
// E f = formula as an identity of enclosures (case_context::check_identity: the enclosure of
// the difference must contain 0), with no rounding bound: the first-order model above plays
// no part. A wrong formula fails as soon as it differs by more than the two enclosures' widths.
template <class T>
void require_exact_integral(case_context& ctx, const std::string& label,
                            const exact_loss_integral<T>& integral, const T& formula_bound,
                            const T& formula) {
  using boost::multiprecision::abs;
  using std::abs;
  ctx.note(label + ": exact integral of the reference's loss (" + std::to_string(integral.nodes) +
               " cubature nodes)",
           full_digits(integral.value));
  ctx.note(label + ": formula", full_digits(formula));
  if constexpr (is_ball_scalar<T>) {
    ctx.check_identity(label + ": integral = formula (enclosures, no rounding bound)",
                       integral.value, formula);
  } else {
    ctx.check_le_hand_derived<T>(label + ": |integral - formula| <= rounding bound",
                                 T(abs(integral.value - formula)),
                                 T(integral.rounding_bound + formula_bound), exact_integral_bound);
  }
}

// A lower-triangular L with L L^T = Sigma (Cholesky, in the scalar's arithmetic). On balls it
// replaces spd_sqrt (an eigendecomposition, which balls do not have) as the factor of the
// context X = L Z: Z ~ N(0, I) is rotation invariant, so X = L Z ~ N(0, L L^T) = N(0, Sigma)
// for every factor, and the exact integral does not depend on the choice. A pivot whose
// enclosure reaches 0 or below gives a NaN ball (sqrt of a negative ball), which fails the
// identity, never a guess.
template <class T>
Mat<T> cholesky_factor(const Mat<T>& Sigma) {
  const Eigen::Index d = Sigma.rows();
  Mat<T> L = Mat<T>::Zero(d, d);
  for (Eigen::Index j = 0; j < d; ++j) {
    T diag = Sigma(j, j);
    for (Eigen::Index k = 0; k < j; ++k) diag -= L(j, k) * L(j, k);
    L(j, j) = sqrt(diag);
    for (Eigen::Index i = j + 1; i < d; ++i) {
      T v = Sigma(i, j);
      for (Eigen::Index k = 0; k < j; ++k) v -= L(i, k) * L(j, k);
      L(i, j) = v / L(j, j);
    }
  }
  return L;
}

// One GD step, isotropic data, w ~ N(0, I): the exact loss quadratic at eta* and at a second
// step size against the exact integral. `quadratic(d, N, moments)` is the implementation under
// test.
template <class T, class Quadratic>
void one_step_gd_isotropic_matches_exact_integral(case_context& ctx, const Quadratic& quadratic) {
  const bool uniform = *rc::gen::arbitrary<bool>();
  const int d = *rc::gen::inRange(1, 4), N = *rc::gen::inRange(1, 7);
  const int k = *rc::gen::inRange(2, 9);  // a = k/4 (uniform) or sigma^2 = k/4 (Gaussian)
  const T scale = T(k) / T(4);
  ctx.note("data", uniform ? "x ~ U(-a, a)^d, a = " + full_digits(scale)
                           : "x ~ N(0, sigma^2 I), sigma^2 = " + full_digits(scale));
  ctx.note("d, N", std::to_string(d) + ", " + std::to_string(N));
  const coordinate_moments<T> m =
      uniform ? uniform_coordinate_moments<T>(scale) : gaussian_coordinate_moments<T>(scale);
  const step_size_quadratic<T> q = quadratic(d, N, m);
  const Mat<T> I = Mat<T>::Identity(d, d), Sigma_x = m.second * I;
  for (const T& f : {T(1), T(T(1) / T(2))}) {
    const T eta = T(f * q.minimiser());
    const Mat<T> P = eta * I;
    const auto integral = integrate_one_step_loss<T>(d, N, P, I, m.second, m.fourth, Sigma_x, I);
    require_exact_integral<T>(ctx, f == T(1) ? "loss(eta*)" : "loss(eta*/2)", integral,
                              formula_rounding_bound<T>(d, T(1), P, Sigma_x, I), q.loss(eta));
  }
}

// A random SPD Sigma = U diag(lambda) U^T, lambda_i in {1/4, ..., 2}, exactly symmetric.
template <class T>
Mat<T> random_covariance(int d, data_rng& rng) {
  const Mat<double> U = rng.orthogonal_matrix(d);
  Vec<double> lambda(d);
  for (int i = 0; i < d; ++i) lambda(i) = *rc::gen::inRange(1, 9) / 4.0;
  const Mat<T> Ut = from_double<T>(U);
  Mat<T> S = matmul(matmul(Ut, Mat<T>(from_double<T>(Mat<double>(lambda.asDiagonal())))),
                    Mat<T>(Ut.transpose()));
  return Mat<T>((S + S.transpose()) / T(2));
}

// One preconditioned step on x ~ N(0, Sigma), w ~ N(0, I) or N(0, Sigma^-1): the exact loss at
// the optimal preconditioner P* and at a perturbed P against the exact integral, and P* against its
// closed form for each convention. `optimum(Sigma, Sigma_w, N)` and `loss(Sigma, Sigma_w, N, P)`
// are the implementations under test.
template <class T, class Optimum, class Loss>
void one_step_preconditioner_matches_exact_integral(case_context& ctx, const Optimum& optimum,
                                                    const Loss& loss) {
  const int d = *rc::gen::inRange(1, 4), N = *rc::gen::inRange(1, 7);
  const bool w_identity = *rc::gen::arbitrary<bool>();
  const std::uint64_t seed = *rc::gen::arbitrary<std::uint64_t>();
  data_rng rng(seed);
  const Mat<T> Sigma = random_covariance<T>(d, rng);
  const Mat<T> Sigma_inv = inverse(Sigma);
  const Mat<T> Sigma_w = w_identity ? Mat<T>(Mat<T>::Identity(d, d)) : Sigma_inv;
  ctx.note("w", w_identity ? "N(0, I)" : "N(0, Sigma^-1)");
  ctx.note("d, N", std::to_string(d) + ", " + std::to_string(N));
  ctx.note("seed of Sigma and of the perturbation", std::to_string(seed));
  ctx.note("Sigma", case_context::matrix_full_digits(Sigma));
  const preconditioner_optimum<T> opt = optimum(Sigma, Sigma_w, N);

  // P* against the closed form of its convention. Both are two solves with matrices of
  // condition <= kappa(Sigma)^2 (G = E[C Sigma_w C]); first-order model: relative error
  // <= 2 * 8 d^3 kappa(Sigma)^2 eps each (LU, Higham Thm 9.6, gamma_{3d}-type constants rounded
  // up to 8 d^3), hand-derived, not proved.
  const Mat<T> closed = w_identity ? optimal_preconditioner_w_identity(Sigma, N)
                                   : optimal_preconditioner_w_sigma_inverse(Sigma, N);
  // Balls: the identity of the two enclosures (ctx.compare on an interval scalar), so neither
  // kappa(Sigma) (an eigenvalue computation) nor the bound enters; the factor of the context is
  // a Cholesky factor (cholesky_factor above) instead of Sigma^(1/2).
  T kappa(1);
  Mat<T> S12;
  if constexpr (is_ball_scalar<T>) {
    ctx.compare<T>("P* (general formula) vs closed form of the convention", opt.P, closed, T(0));
    S12 = cholesky_factor(Sigma);
  } else {
    kappa = spd_condition_number(Sigma);
    using boost::multiprecision::sqrt;
    using std::sqrt;
    const T scale = sqrt(closed.squaredNorm());
    const T bound = T(32) * T(d * d * d) * kappa * kappa * eps<T>() * scale;
    ctx.compare<T>("P* (general formula) vs closed form of the convention", opt.P, closed, bound);
    // The loss at P* and at a perturbed P against the exact integral over X = Sigma^(1/2) Z.
    S12 = spd_sqrt(Sigma);
  }
  const T one(1), three(3);
  const auto integral = integrate_one_step_loss<T>(d, N, opt.P, S12, one, three, Sigma, Sigma_w);
  require_exact_integral<T>(ctx, "loss(P*)", integral,
                            formula_rounding_bound<T>(d, kappa, opt.P, Sigma, Sigma_w), opt.loss);
  // A perturbed preconditioner: the loss formula away from the optimum (and it must be larger).
  const Mat<T> E = from_double<T>(Mat<double>(0.25 * rng.normal_matrix(d, d)));
  const Mat<T> P2 = opt.P + matmul(E, opt.P);
  const T l2 = loss(Sigma, Sigma_w, N, P2);
  const auto integral2 = integrate_one_step_loss<T>(d, N, P2, S12, one, three, Sigma, Sigma_w);
  require_exact_integral<T>(ctx, "loss(P* + E P*)", integral2,
                            formula_rounding_bound<T>(d, kappa, P2, Sigma, Sigma_w), l2);
  // Optimality away from rounding: loss(P2) - loss(P*) = tr((P2 - P*)^T G (P2 - P*) Sigma) >= 0
  // up to the rounding of the two evaluations (a few eps times their size).
  if constexpr (is_ball_scalar<T>) {
    // Balls: decided on the enclosures (`<=` of two balls throws where they overlap).
    ctx.require("loss(P*) <= loss(P2) (decided on the enclosures)", opt.loss <= l2,
                "loss(P*) = " + full_digits(opt.loss) + ", loss(P2) = " + full_digits(l2));
  } else {
    ctx.check_le<T>("loss(P*) <= loss(P2) + rounding", T(opt.loss > l2 ? T(opt.loss - l2) : T(0)),
                    T(T(64 * d * d) * eps<T>() * l2));
  }
}

// Exact, in rationals: eta* = b/a minimises the quadratic (the excess at eta* +- h is exactly
// a h^2 > 0, the derivative 2 a eta* - 2 b is exactly 0, the minimum is loss(eta*)) and equals
// the simplified closed form N s2 / (m4 + (N + d - 2) s2^2); for a = 1 uniform
// 15 N / (5 N + 5 d - 1), for sigma = 1 Gaussian N / (N + d + 1) (the numbers of
// proofs/PopulationOptima.v). `quadratic` is the implementation under test, instantiated on
// cpp_rational.
template <class Quadratic>
void step_size_minimises_quadratic_exactly(case_context& ctx, const Quadratic& quadratic) {
  using Q = boost::multiprecision::cpp_rational;
  const bool uniform = *rc::gen::arbitrary<bool>();
  const int d = *rc::gen::inRange(1, 33), N = *rc::gen::inRange(1, 101);
  const int p = *rc::gen::inRange(1, 9), r = *rc::gen::inRange(1, 9);
  const int hk = *rc::gen::inRange(1, 1000);
  const bool unit = *rc::gen::arbitrary<bool>();
  const Q scale = unit ? Q(1) : Q(p) / Q(r), h = Q(1) / Q(hk);
  ctx.note("data", std::string(uniform ? "uniform, a = " : "Gaussian, sigma^2 = ") + scale.str());
  ctx.note("d, N, h", std::to_string(d) + ", " + std::to_string(N) + ", " + h.str());
  const coordinate_moments<Q> m =
      uniform ? uniform_coordinate_moments<Q>(scale) : gaussian_coordinate_moments<Q>(scale);
  const step_size_quadratic<Q> q = quadratic(d, N, m);
  const Q eta = q.minimiser();
  ctx.note("eta*", eta.str());
  ctx.require("a > 0", q.a > 0, "a = " + q.a.str());
  for (const Q& s : {h, Q(-h)})
    ctx.require("loss(eta* + h) - loss(eta*) == a h^2 > 0",
                q.loss(eta + s) - q.loss(eta) == q.a * s * s && q.a * s * s > 0,
                "excess = " + Q(q.loss(eta + s) - q.loss(eta)).str());
  ctx.require("2 a eta* - 2 b == 0", 2 * q.a * eta - 2 * q.b == 0, "");
  ctx.require("minimum() == loss(eta*)", q.minimum() == q.loss(eta), q.minimum().str());
  const Q s2 = m.second;
  ctx.require("eta* == N s2 / (m4 + (N + d - 2) s2^2)",
              eta == Q(N) * s2 / (m.fourth + Q(N + d - 2) * s2 * s2), "");
  if (unit && uniform)
    ctx.require("uniform a = 1: eta* == 15 N / (5 N + 5 d - 1)",
                eta == Q(15 * N) / Q(5 * N + 5 * d - 1), "");
  if (unit && !uniform)
    ctx.require("Gaussian sigma = 1: eta* == N / (N + d + 1)", eta == Q(N) / Q(N + d + 1), "");
}

}  // namespace iclproof::population_optima_checks
