// Cross-checks of the closed-form references against each other (CONSTRUCTIONS.md section 6).
// Each check is a template on the scalar and on the implementation under test, so the
// mutation tests in tests/unit/references_test.cpp can feed it a broken variant.
#pragma once

#include "core/precision.hpp"
#include "core/rational.hpp"
#include "harness/property.hpp"
#include "harness/size_profile.hpp"
#include "harness/tolerance.hpp"
#include "references/references.hpp"
#include "references/singular_value_certificate.hpp"
#include "tasks/rapidcheck_gen.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace iclproof::reference_checks {

// ||A||_F
template <class T>
T frobenius(const Mat<T>& A) {
  using boost::multiprecision::sqrt;
  using std::sqrt;
  return sqrt(A.squaredNorm());
}

// The update term's factor sum_{i=1..N} f_i / lambda_min(A_(i-1)), A_i = lambda I + sum_{j<=i}
// x_j x_j^T, f_i = min(kappa(A_N), (lambda_max(A_i) / lambda_min(A_N))^2): see
// sherman_morrison_ridge_error_bound. The eigenvalues of the N + 1 matrices A_i are computed in
// double (cheap at every size profile) and widened by 2^-40 d trace(A_i), far more than their
// error (backward-stable symmetric eigensolver, Higham Thm 8.x / Golub-Van Loan 8.1.2: error
// <= p(d) u ||A_i||_2 <= p(d) u trace(A_i), plus the conversion of X to double, relative 2^-53
// per entry); lambda_min is never taken below lambda, lambda_max never above lambda + ||X||_F^2,
// so each term is at most the old one, kappa(A_N) / lambda.
template <class T>
T sherman_morrison_update_sum(const Mat<T>& X, const T& lambda, const T& kappa_N) {
  const Mat<double> Xd = to_double(X);
  const double lam = static_cast<double>(lambda), kap = static_cast<double>(kappa_N);
  const Eigen::Index d = X.rows(), N = X.cols();
  Mat<double> S = Mat<double>::Zero(d, d);
  double trace = 0;
  std::vector<double> lo(static_cast<std::size_t>(N) + 1), hi(lo.size());
  for (Eigen::Index j = 0; j <= N; ++j) {
    if (j > 0) {
      S += Xd.col(j - 1) * Xd.col(j - 1).transpose();
      trace += Xd.col(j - 1).squaredNorm();
    }
    const Vec<double> ev =
        symmetric_eigenvalues<double>(Mat<double>(S + lam * Mat<double>::Identity(d, d)));
    const double slack = std::ldexp(static_cast<double>(d) * (lam + trace), -40);
    lo[static_cast<std::size_t>(j)] = std::max(lam, ev(0) - slack);
    hi[static_cast<std::size_t>(j)] = std::min(lam + trace, ev(d - 1) + slack);
  }
  const double lmin_N = lo.back();
  double sum = 0;
  for (std::size_t i = 1; i < lo.size(); ++i) {
    const double ratio = hi[i] / lmin_N;
    sum += std::min(kap, ratio * ratio) / lo[i - 1];
  }
  return T(sum);
}

// The task of the ridge-family cross-checks: d up to the dimension cap (8 under --size small),
// two outputs, N up to the examples cap (20), label noise up to max_noise.
template <class T>
task_spec gen_ridge_family_task(double max_noise) {
  task_ranges r;
  r.d_max = sized_max<T>(size_axis::dimension, 8);
  r.o_max = 2;
  r.N_max = sized_max<T>(size_axis::examples, 20);
  r.max_noise = max_noise;
  return *gen_task_spec(r);
}

// Bound on ||W_sm - W_ridge|| (max entry <= Frobenius) for W = Y X^T A^-1, A = lambda I + X X^T,
// computed by Cholesky (ridge) and by N Sherman-Morrison updates from A_0^-1 = I / lambda.
// Ridge: Cholesky, relative error <= kappa c / (1 - kappa c), c = 4 d (3d+1) u (Higham Thm 10.4).
// Sherman-Morrison: update i is a backward-stable O(d^2) operation on A_(i-1)^-1 and x_i; its
// rounding delta_i is gamma_{2d+3} relative to its OPERANDS, whose norm is ||A_(i-1)^-1||_2 =
// 1 / lambda_min(A_(i-1)), not to its result: the update A_(i-1)^-1 - u u^T / (1 + x^T u)
// cancels (in 1-D, 1/lambda - x^2 / (lambda (lambda + x^2)) = 1 / (lambda + x^2)). Propagated
// to A_N^-1 (first order): the later updates map a perturbation D of A_i^-1 to
// A_N^-1 A_i D A_i A_N^-1 (the derivative of B -> (B^-1 + sum_{j>i} x_j x_j^T)^-1 at
// B = A_i^-1), of 2-norm <= ||A_N^-1 A_i||_2^2 ||D||_2, and ||A_N^-1 A_i||_2^2 <=
// f_i = min(kappa(A_N), (lambda_max(A_i) / lambda_min(A_N))^2) (the first: A_N^-1/2 A_i
// A_N^-1/2 <= I, the factor of Yip, SIAM J. Sci. Stat. Comput. 7, 1986; the second:
// ||A_N^-1|| ||A_i||). So ||A_N^-1 error|| <= gamma_{2d+3} sum_i f_i / lambda_min(A_(i-1))
// (sherman_morrison_update_sum), and the error of W = (Y X^T) A_N^-1 is at most ||Y X^T||_F
// times that. History: until a 20000-case sweep (seed 20261123) failed a 1-D task with N = 1,
// lambda = 1/8 (tests/unit/references_test.cpp, "Sherman-Morrison bound: the update's
// cancellation") the operand norm was ||A_N^-1||; from then until the size profiles came it was
// 1 / lambda for every update with f_i = kappa(A_N) and ||X||_F ||Y||_F for ||Y X^T||_F, N
// kappa(A_N) ||X||_F ||Y||_F / lambda in all, which grows like N^2 on Gaussian data while the error
// grows at most like N (the early updates' errors are damped by the later ones, f_i ~ (i / N)^2,
// and 1 / lambda_min(A_(i-1)) ~ 1 / i): under --size paper (N up to 100) its margin reached 10^3.6
// (tests/unit/references_test.cpp, "Sherman-Morrison bound: sharp at the paper's N").
// The final product Y X^T A^-1 adds gamma_{N+d} relative in |.| norms, bounded by the Frobenius
// norms used here. The sum, with a factor 2 for second-order terms, is the bound.
template <class T>
T sherman_morrison_ridge_error_bound(const Mat<T>& X, const Mat<T>& Y, const T& lambda,
                                     const T& W_norm) {
  const Eigen::Index d = X.rows(), N = X.cols();
  const Mat<T> A = matmul_nt(X, X) + lambda * Mat<T>::Identity(d, d);
  const T kappa = spd_condition_number(A);
  const T XY = frobenius<T>(X) * frobenius<T>(Y);
  const T Ainv_norm = T(1) / symmetric_eigenvalues(A)(0);
  const T scale = std::max(W_norm, T(XY * Ainv_norm));
  const double dd = static_cast<double>(d), n = static_cast<double>(N);
  const T YXt = frobenius<T>(matmul_nt(Y, X));
  const T updates =
      YXt * higham_gamma<T>(2 * dd + 3) * sherman_morrison_update_sum<T>(X, lambda, kappa);
  return T(2) *
         (scale * (cholesky_solve_relative_bound<T>(dd, kappa) + T(2) * higham_gamma<T>(n + dd)) +
          updates);
}

// Iterated Sherman-Morrison == ridge (proofs/ShermanMorrison.v:iterated_sherman_morrison_ridge),
// within sherman_morrison_ridge_error_bound.
template <class T, class SM>
void sherman_morrison_equals_ridge(case_context& ctx, const SM& sherman_morrison) {
  const task_spec spec = gen_ridge_family_task<T>(0.1);
  const int lambda_exp = *rc::gen::inRange(-3, 4);  // lambda = 2^k, exact in every precision
  const T lambda = std::ldexp(1.0, lambda_exp);
  ctx.note_value("task", spec);
  ctx.note("lambda", full_digits(lambda));
  const auto task = make_task<T>(spec);
  const Mat<T> W_sm = sherman_morrison(task.X, task.Y, lambda);
  const Mat<T> W_ridge = ridge_closed_form(task.X, task.Y, lambda);
  // On balls compare is check_identity (the enclosure of the difference contains 0) and uses no
  // bound: the tolerance formula, and the eigenvalues it needs, are not evaluated there.
  T bound(0);
  if constexpr (!is_ball_scalar<T>) {
    bound = tolerance<T>([&](auto tag) {
      using S = typename decltype(tag)::scalar;
      return sherman_morrison_ridge_error_bound<S>(task.X, task.Y, lambda, frobenius<S>(W_ridge));
    });
  }
  ctx.compare<T>("W_sherman_morrison vs W_ridge", W_sm, W_ridge, bound);
}

// An exact power of two at most 1 / lambda_max(H), times 2^-shift: a step size for which
// ||I - eta H||_2 <= 1 (GD is non-expanding), representable exactly at every precision. The
// eigenvalue is taken in T where T has one; an exact scalar has none, and there it is taken in
// double (the step size only scales the data of an exact identity, any eta would do). Balls have
// no eigensolver: there lambda_max(H) is replaced by a certified upper bound, Gershgorin's
// max_i sum_j |H_ij| over the balls of H rounded up (gershgorin_upper_bound, core/ball_linalg.hpp),
// so eta <= 1 / lambda_max(H) is certified (a smaller step than the eigenvalue gives, by at most
// a factor d).
template <class T>
T contractive_step(const Mat<T>& X, int shift) {
  double lmax = 0;
  if constexpr (is_ball_scalar<T>) {
    lmax = gershgorin_upper_bound(Mat<T>(matmul_nt(X, X) / T(X.cols())));
  } else if constexpr (is_exact_scalar<T>) {
    const Mat<double> Xd = to_double(X);
    lmax = symmetric_eigenvalues<double>(matmul_nt(Xd, Xd) /
                                         static_cast<double>(X.cols()))(X.rows() - 1);
  } else {
    const Mat<T> H = matmul_nt(X, X) / T(X.cols());
    lmax = static_cast<double>(symmetric_eigenvalues(H)(H.rows() - 1));
  }
  const int e = lmax > 0 ? static_cast<int>(std::ceil(std::log2(lmax))) : 0;
  return T(std::ldexp(1.0, -e - shift));
}

// K GD steps == the Neumann closed form (proofs/GradientDescent.v:gd_iterates_neumann).
// Tolerance, first order in u, with eta <= 1/lambda_max(H) so ||I - eta H||_2 <= 1:
//  recursion: E_{k+1} = E_k (I - eta H) + delta_k, and one step's rounding is entrywise at most
//    gamma_{N+d+2} (|W_k| + eta (|W_k||X| + |Y|)|X^T| / N) (Higham eq. 3.13), so in Frobenius
//    norm ||E_K|| <= K gamma_{N+d+2} B,  B = max_k (||W_k|| + eta (||W_k|| ||X||^2 + ||Y||
//    ||X||)/N);
//  closed form: the powers M^k (||M||_2 <= 1, ||M^k||_F <= sqrt d) accumulate at most
//    k gamma_d sqrt(d) ||M||_F each, their sum K^2 gamma_d sqrt(d) ||M||_F, then the products
//    with eta Y X^T / N add gamma_{N+d} K sqrt(d) relative.
// The bound is twice the sum (second-order terms), in Frobenius norm >= the max-entry error.
template <class T, class GD>
void gd_steps_equal_neumann(case_context& ctx, const GD& gd_k_steps) {
  const task_spec spec = gen_ridge_family_task<T>(0.1);
  const int K = draw_size<T>(size_axis::depth, 1, 12);
  const int shift = *rc::gen::inRange(0, 3);
  ctx.note_value("task", spec);
  ctx.note_value("K", K);
  const auto task = make_task<T>(spec);
  const T eta = contractive_step(task.X, shift);
  ctx.note("eta", full_digits(eta));
  const Mat<T> W_rec = gd_k_steps(task.X, task.Y, eta, K);
  const Mat<T> W_closed = gd_neumann_closed_form(task.X, task.Y, eta, K);
  T bound(0);  // on balls compare is check_identity: no bound (see sherman_morrison_equals_ridge)
  if constexpr (!is_ball_scalar<T>) {
    bound = tolerance<T>([&](auto tag) {
      using S = typename decltype(tag)::scalar;
      const double d = spec.d, n = spec.N;
      const S nx = frobenius<S>(task.X), ny = frobenius<S>(task.Y);
      S B(0);
      for (const auto& Wk : gd_iterates<S>(Mat<S>::Zero(spec.o, spec.d), task.X, task.Y, eta, K)) {
        const S nw = frobenius<S>(Wk);
        B = std::max(B, S(nw + eta * (nw * nx * nx + ny * nx) / S(n)));
      }
      const Mat<S> M = Mat<S>::Identity(spec.d, spec.d) - eta * matmul_nt(task.X, task.X) / S(n);
      const S sd = sqrt_of(S(d));
      const S yx = eta * ny * nx / S(n);
      return S(2) * (S(K) * higham_gamma<S>(n + d + 2) * B +
                     yx * (S(K) * S(K) * higham_gamma<S>(d) * sd * frobenius<S>(M) +
                           S(K) * sd * higham_gamma<S>(n + d)));
    });
  }
  ctx.compare<T>("W_K by recursion vs closed form", W_rec, W_closed, bound);
}

// Forward error ||W_hat - W||_F of a ridge solve W = Y X^T A^-1, A = X X^T + lambda I, by
// Cholesky, in absolute terms (Higham, ASNA 2nd ed., Thm 7.2, the normwise perturbation bound
// ||x_hat - x|| <= ||A^-1|| (||db|| + ||dA|| ||x||) / (1 - ||A^-1|| ||dA||), applied per output):
//   solve:        ||W||_F chol(d, kappa(A))                      (Higham Thm 10.4, dA of the solve)
//   forming A:    ||W||_F gamma_{N+2} (||X||_F^2 + lambda sqrt d) ||A^-1||_2   (Higham 3.13)
//   forming the right-hand side B = Y X^T:  |dB| <= gamma_N |Y| |X|^T (Higham 3.13), so
//                 ||dB||_F ||A^-1||_2 <= gamma_N ||Y||_F ||X||_F ||A^-1||_2.
// The last term is absolute: it is NOT a multiple of ||W||_F. It was missing until a sweep with
// 20000 cases found ridge_at_p_agrees_with_ridge_at_2p failing on a 1-D task where
// sum_i x_i y_i cancels (|W| = 5.4e-4 against sum |x_i y_i| / (sum x_i^2 + lambda) ~ 0.1): the
// right-hand side's rounding is relative to sum |x_i y_i|, not to |sum x_i y_i|
// (tests/unit/references_test.cpp, "ridge forward bound: the right-hand side term").
// W_norm is ||W||_F of the solution (computed or reference: the 1/(1 - ...) factor and the
// difference are second order, covered by the callers' factor 2).
template <class T>
T ridge_solve_error_bound(const Mat<T>& X, const Mat<T>& Y, const T& lambda, const T& W_norm) {
  const Eigen::Index d = X.rows(), N = X.cols();
  const Mat<T> A = matmul_nt(X, X) + lambda * Mat<T>::Identity(d, d);
  const Vec<T> ev = symmetric_eigenvalues(A);
  const T kappa = ev(d - 1) / ev(0);
  const T nx = frobenius<T>(X);
  const T forming_A =
      higham_gamma<T>(static_cast<double>(N + 2)) * (nx * nx + lambda * sqrt_of(T(d))) / ev(0);
  const T forming_rhs = higham_gamma<T>(static_cast<double>(N)) * nx * frobenius<T>(Y) / ev(0);
  return W_norm * (cholesky_solve_relative_bound<T>(static_cast<double>(d), kappa) + forming_A) +
         forming_rhs;
}

// Bayes posterior mean with prior N(0, tau^2 I) and noise sigma^2 == ridge with
// lambda = sigma^2 / tau^2 (paper: CONSTRUCTIONS.md section 6; the algebra is one line:
// (X X^T / sigma^2 + I / tau^2)^-1 X y^T / sigma^2 = (X X^T + sigma^2/tau^2 I)^-1 X y^T).
// Tolerance: two Cholesky solves of matrices with the same condition number kappa, each within
// ridge_solve_error_bound (the solve, forming the matrix and forming the right-hand side X y^T;
// Higham Thm 10.4, 3.13, 7.2; dividing by sigma^2 = 2^k is exact); twice the sum.
template <class T, class Bayes>
void bayes_mean_equals_ridge(case_context& ctx, const Bayes& bayes) {
  const task_spec spec = gen_ridge_family_task<T>(0.5);
  const int sigma_exp = *rc::gen::inRange(-4, 2), tau_exp = *rc::gen::inRange(-2, 4);
  const T sigma2 = T(std::ldexp(1.0, sigma_exp)), tau2 = T(std::ldexp(1.0, tau_exp));
  const T lambda = sigma2 / tau2;  // a power of two: exact
  ctx.note_value("task", spec);
  ctx.note("sigma^2, tau^2", full_digits(sigma2) + ", " + full_digits(tau2));
  const auto task = make_task<T>(spec);
  const Mat<T> W_bayes = bayes(task.X, task.Y, sigma2, tau2);
  const Mat<T> W_ridge = ridge_closed_form(task.X, task.Y, lambda);
  // Two solves with matrices of the same condition number: twice one solve's bound. On balls
  // compare is check_identity: no bound (see sherman_morrison_equals_ridge).
  T bound(0);
  if constexpr (!is_ball_scalar<T>) {
    bound = tolerance<T>([&](auto tag) {
      using S = typename decltype(tag)::scalar;
      return S(S(2) * S(2) *
               ridge_solve_error_bound<S>(task.X, task.Y, lambda,
                                          std::max(frobenius<S>(W_ridge), frobenius<S>(W_bayes))));
    });
  }
  ctx.compare<T>("W_bayes vs W_ridge", W_bayes, W_ridge, bound);
}

// The largest k such that lambda = sigma_min^2 2^-k keeps the Cholesky bound of the ridge solve
// valid: kappa(A) = kappa_X^2 2^k + 1 <= 2 kappa_X^2 2^k and chol needs kappa(A) c < 1/2,
// c = 4 d (3d + 1) u; k <= log2(1 / (8 c kappa_X^2)) keeps kappa(A) c <= 1/4. Negative (lambda
// above sigma_min^2, a weaker but still true rate) when kappa_X^2 c > 1/8. Without it, a square
// uniform X with kappa_X ~ 10^5 (about one draw in 20000) made the bound void in double and the
// property threw (tests/unit/references_test.cpp, "ridge -> min-norm: the exponent keeps the
// Cholesky bound valid").
template <class T>
int min_norm_ridge_exponent(int d, const T& kappa_X) {
  const double c = 4.0 * d * (3.0 * d + 1) * static_cast<double>(unit_roundoff<T>());
  const double kx = static_cast<double>(kappa_X);
  return static_cast<int>(std::floor(std::log2(1.0 / (8.0 * c * kx * kx))));
}

// Ridge tends to the minimum-norm least-squares solution W+ as lambda -> 0 (rank-deficient X and
// N < d included; rank is exact, in rationals).
//
// Exact scalar (the certified run): the Qed bound itself, squared and square-root free,
//     ||W_ridge - W+||_F^2 <= (lambda ||G X||_F^2)^2 ||W+||_F^2
// (proofs/LeastSquares.v:ridge_min_norm_ginv_bound2), G any generalised inverse of H = X X^T,
// lambda = 2^-k, every side an exact rational. What ties the computed matrices to the theorem's
// terms is checked exactly too, each as an equality in Q:
//   - W_ridge (H + lambda I) = Y X^T: W_ridge is the theorem's ridge Y X^T (H + lambda I)^-1
//     (H + lambda I is invertible for lambda > 0: LeastSquares.v:ridge_unitmx);
//   - W+ H = Y X^T (normal equations) and W+ = (W+ G X) X^T (W+ lies in the range of X, with the
//     witness W+ G X): then W+ is the theorem's min_norm_ls (LeastSquares.v:min_norm_ls_unique);
//   - H G H = H: G is a generalised inverse (psd_generalised_inverse, core/rational.hpp), the
//     hypothesis of the theorem;
//   - (W_ridge - W+)(H + lambda I) = -lambda W+ (LeastSquares.v:ridge_min_norm_gap).
// The bound's constant ||G X||_F^2 >= 1 / sigma_min(X)^2 is weaker than the rate below, by at
// most a factor rank(X) when G is the Moore-Penrose inverse (not proved; the pivot-block G used
// here is one only when H is invertible).
//
// Floating point: the sharper rate ||W_lambda - W+||_F <= (lambda / mu) ||W+||_F
// (ridge_min_norm_rate; proofs/SingularValueCertificate.v:ridge_tends_to_min_norm_certified, the
// theorem LeastSquares.v:ridge_tends_to_min_norm_least_squares with its hypothesis
// sv_lower_bound X mu certified), mu a T just below sigma_min(X)^2 (sigma_min the smallest
// NONZERO singular value, from a floating SVD) for which H^3 - mu H^2 = L diag(D) L^T, D >= 0,
// H = X X^T, is checked exactly in rationals on the exact X of the run (certified_sv_lower_bound,
// references/singular_value_certificate.hpp). The exact-real bound is thus Qed; the floating
// computation of W_ridge, W+ and the rate adds a rounding-model tolerance (below).
// Rounding: ridge by Cholesky, relative chol(d, kappa(A)) (Higham Thm 10.4); min-norm LS by a
// complete orthogonal decomposition, forward error <= kappa_X gamma_{4Nd} (2 + kappa_X
// ||r|| / (||X|| ||W+||)) relative (Higham Thm 20.1 with the backward error of Householder
// QR, Thm 19.4); both times ||W+||_F and 2 for second-order terms.
// Ridge: (X, Y, lambda) -> W_ridge; MinNorm: (X, Y) -> W+ (the mutation tests pass broken ones).
template <class T, class Ridge, class MinNorm>
void ridge_tends_to_min_norm(case_context& ctx, const Ridge& ridge, const MinNorm& min_norm) {
  task_ranges r;
  r.d_max = sized_max<T>(size_axis::dimension, 6);
  r.o_max = 2;
  r.N_max = sized_max<T>(size_axis::examples, 12);
  r.max_noise = 0.1;
  r.max_condition = 1e2;
  const task_spec spec = *gen_task_spec(r);
  const auto task_d = make_task_double(spec);
  const Eigen::Index rank = exact_rank(task_d.X);
  const auto task = make_task<T>(spec);
  ctx.require("the generated X has exact rank >= 1", rank >= 1,
              "exact rank " + std::to_string(rank) + " of the task's X");
  if constexpr (is_exact_scalar<T>) {
    const int k = *rc::gen::inRange(0, 21);
    const T lambda = T(std::ldexp(1.0, -k));
    ctx.note_value("task", spec);
    ctx.note_value("exact rank", rank);
    ctx.note("lambda", full_digits(lambda));
    const Mat<T> W_ridge = ridge(task.X, task.Y, lambda);
    const Mat<T> W_plus = min_norm(task.X, task.Y);
    const Mat<T> H = matmul_nt(task.X, task.X);
    const Mat<T> YXt = matmul_nt(task.Y, task.X);
    const Mat<T> A = H + lambda * Mat<T>::Identity(spec.d, spec.d);
    ctx.compare<T>("W_ridge (X X^T + lambda I) vs Y X^T", matmul(W_ridge, A), YXt, T(0));
    ctx.compare<T>("W_min_norm X X^T vs Y X^T (normal equations)", matmul(W_plus, H), YXt, T(0));
    const Mat<T> G = psd_generalised_inverse(H);
    ctx.compare<T>("X X^T G X X^T vs X X^T (G a generalised inverse)", matmul(matmul(H, G), H), H,
                   T(0));
    const Mat<T> GX = matmul(G, task.X);
    ctx.compare<T>("(W_min_norm G X) X^T vs W_min_norm (W_min_norm in the range of X)",
                   matmul_nt(matmul(W_plus, GX), task.X), W_plus, T(0));
    ctx.compare<T>("(W_ridge - W_min_norm)(X X^T + lambda I) vs -lambda W_min_norm",
                   matmul(Mat<T>(W_ridge - W_plus), A), Mat<T>(-lambda * W_plus), T(0));
    const T rate = lambda * GX.squaredNorm();
    ctx.check_le_proved<T>(
        "||W_ridge - W_min_norm||_F^2 <= (lambda ||G X||_F^2)^2 ||W_min_norm||_F^2",
        T(Mat<T>(W_ridge - W_plus).squaredNorm()), T(rate * rate * W_plus.squaredNorm()),
        "proofs/LeastSquares.v:ridge_min_norm_ginv_bound2", [&] {
          return "W_ridge =\n" + case_context::matrix_full_digits(W_ridge) + "W_min_norm =\n" +
                 case_context::matrix_full_digits(W_plus) + "G =\n" +
                 case_context::matrix_full_digits(G);
        });
    return;
  } else if constexpr (is_ball_scalar<T>) {
    // Balls: the theorem's rate with no rounding term, every side an enclosure. sigma_min(X) is
    // estimated in double (the X of a ball run is the generator's exact doubles, checked below)
    // only to choose lambda = sigma_min^2 2^-k and the candidates mu; mu is certified exactly on
    // the exact X (certified_sv_lower_bound in double: its certificate is checked in rationals),
    // W_ridge is Arb's certified Cholesky solve and W+ the certified min-norm solve
    // (min_norm_lstsq on balls, core/ball_linalg.hpp: rank decided exactly, Gram matrices
    // certified positive definite), and the check passes iff the upper end of the error's
    // enclosure is at most the lower end of the bound's.
    const Mat<double> Xd = to_double(task.X);
    bool same = true;
    for (Eigen::Index j = 0; j < Xd.cols(); ++j)
      for (Eigen::Index i = 0; i < Xd.rows(); ++i)
        same = same && exact_value_of_point(task.X(i, j)) == rational_real(Xd(i, j));
    ctx.require("the ball task's X is the generator's exact double X", same,
                "X =\n" + case_context::matrix_full_digits(task.X));
    const double smin = singular_values<double>(Xd)(rank - 1);
    const int k = *rc::gen::inRange(2, 41);
    const T lambda = T(smin * smin * std::ldexp(1.0, -k));  // an exact point
    ctx.note_value("task", spec);
    ctx.note_value("exact rank", rank);
    ctx.note("lambda", full_digits(lambda));
    const std::optional<double> mu = certified_sv_lower_bound<double>(Xd, smin);
    ctx.require("H^3 - mu H^2 = L diag(D) L^T, D >= 0, certified for some mu <= sigma_min^2",
                mu.has_value(),
                "no candidate mu = sigma_min^2 (1 - 2^-s) certified; sigma_min = " +
                    full_digits(smin) + ", X =\n" + case_context::matrix_full_digits(task.X));
    ctx.note("mu (certified)", full_digits(*mu));
    const Mat<T> W_ridge = ridge(task.X, task.Y, lambda);
    const Mat<T> W_plus = min_norm(task.X, task.Y);
    const T rate = ridge_min_norm_rate(lambda, T(*mu));
    ctx.check_le_proved<T>("||W_ridge - W_min_norm||_F <= (lambda / mu) ||W_min_norm||_F",
                           frobenius<T>(Mat<T>(W_ridge - W_plus)), T(rate * frobenius<T>(W_plus)),
                           "proofs/SingularValueCertificate.v:ridge_tends_to_min_norm_certified",
                           [&] {
                             return "W_ridge =\n" + case_context::matrix_full_digits(W_ridge) +
                                    "W_min_norm =\n" + case_context::matrix_full_digits(W_plus);
                           });
  } else {
    const Vec<T> sv = singular_values<T>(task.X);
    const T smin = sv(rank - 1), smax = sv(0);
    // lambda = sigma_min^2 2^-k, with k small enough that kappa(A) eps stays below 2^-8, and at
    // most min_norm_ridge_exponent(d, kappa_X), where the Cholesky bound is not void.
    const int p = scalar_traits<T>::bits();
    const int k = std::min(*rc::gen::inRange(2, std::max(3, std::min(40, p / 4))),
                           min_norm_ridge_exponent<T>(spec.d, smax / smin));
    const T lambda = smin * smin * T(std::ldexp(1.0, -k));
    ctx.note_value("task", spec);
    ctx.note_value("exact rank", rank);
    ctx.note("lambda", full_digits(lambda));
    const Mat<T> W_ridge = ridge(task.X, task.Y, lambda);
    const Mat<T> W_plus = min_norm(task.X, task.Y);
    const T kappa_A = (smax * smax + lambda) / lambda;
    const T kappa_X = smax / smin;
    const T nw = frobenius<T>(W_plus);
    const T resid = frobenius<T>(Mat<T>(matmul(W_plus, task.X) - task.Y));
    const double mn = 4.0 * spec.N * spec.d;
    const T ls_rel =
        kappa_X * higham_gamma<T>(mn) * (T(2) + kappa_X * resid / (smax * std::max(nw, eps<T>())));
    const std::optional<T> mu = certified_sv_lower_bound<T>(task.X, smin);
    ctx.require("H^3 - mu H^2 = L diag(D) L^T, D >= 0, certified for some mu <= sigma_min^2",
                mu.has_value(),
                "no candidate mu = sigma_min^2 (1 - 2^-s) certified; sigma_min = " +
                    full_digits(smin) + ", X =\n" + case_context::matrix_full_digits(task.X));
    ctx.note("mu (certified)", full_digits(*mu));
    // Same formula as SingularValueCertificate.v:ridge_tends_to_min_norm_certified, lambda / mu;
    // its one rounding (relative u) is far inside the rounding term.
    const T rate = ridge_min_norm_rate(lambda, *mu);
    const T bound =
        rate * nw + T(2) * nw * (cholesky_solve_relative_bound<T>(spec.d, kappa_A) + ls_rel);
    ctx.check_le_proved<T>(
        "||W_ridge - W_min_norm||_F <= (lambda / mu) ||W_min_norm||_F + rounding",
        frobenius<T>(Mat<T>(W_ridge - W_plus)), bound,
        "proofs/SingularValueCertificate.v:ridge_tends_to_min_norm_certified", [&] {
          return "W_ridge =\n" + case_context::matrix_full_digits(W_ridge) + "W_min_norm =\n" +
                 case_context::matrix_full_digits(W_plus);
        });
  }
}

template <class T, class Ridge>
void ridge_tends_to_min_norm(case_context& ctx, const Ridge& ridge) {
  ridge_tends_to_min_norm<T>(
      ctx, ridge, [](const Mat<T>& X, const Mat<T>& Y) { return min_norm_least_squares(X, Y); });
}

// The floating-point scalars: the 2p ridge (MPFR) rounded to p bits, within twice the p-bit
// Cholesky forward-error bound plus the rounding of the 2p result to p bits.
template <class T, class Task>
void ridge_agrees_with_twice_the_precision_rounded(case_context& ctx, const task_spec& spec,
                                                   const T& lambda, const Task& task,
                                                   const Mat<T>& W_p, int p) {
  Mat<T> W_2p_rounded;
  {
    scoped_mpfr_precision twice(2 * std::max(p, min_precision_bits));
    const auto task2 = make_task<mpfr_real>(spec);
    const Mat<mpfr_real> W_2p =
        ridge_closed_form(task2.X, task2.Y, mpfr_real(static_cast<double>(lambda)));
    W_2p_rounded.resize(W_2p.rows(), W_2p.cols());
    for (Eigen::Index j = 0; j < W_2p.cols(); ++j)
      for (Eigen::Index i = 0; i < W_2p.rows(); ++i)
        W_2p_rounded(i, j) = static_cast<T>(W_2p(i, j));
  }
  // + eps for rounding the 2p result to p bits (|x - fl(x)| <= u |x|).
  const T nw = frobenius<T>(W_p);
  const T bound = T(2) * (ridge_solve_error_bound<T>(task.X, task.Y, lambda, nw) + eps<T>() * nw);
  ctx.compare<T>("ridge at p vs ridge at 2p", W_p, W_2p_rounded, bound);
}

// Ridge at precision p agrees with ridge at precision 2p (tolerance-free in spirit: the 2p
// result stands in for the exact one; its own error is 2^-p times smaller). Bound: the
// forward error at p, ridge_solve_error_bound (solve, forming A and the right-hand side), plus
// the 2p error and rounding the 2p result to p bits, twice the sum.
// For double and long double the 2p run is MPFR at twice their significand bits.
template <class T, class Ridge>
void ridge_agrees_with_twice_the_precision(case_context& ctx, const Ridge& ridge) {
  const task_spec spec = gen_ridge_family_task<T>(0.1);
  const T lambda = T(std::ldexp(1.0, *rc::gen::inRange(-6, 3)));
  ctx.note_value("task", spec);
  ctx.note("lambda", full_digits(lambda));
  const auto task = make_task<T>(spec);
  const Mat<T> W_p = ridge(task.X, task.Y, lambda);
  const int p = precision_of(T(0));
  if constexpr (is_ball_scalar<T>) {
    // Balls: the ridge at p bits (Arb's arb_mat_spd_solve under ridge_closed_form) and the same
    // ridge on balls at 2p bits both enclose the exact ridge solution of the same (exactly
    // converted) task, so the two enclosures must overlap: the identity check of ctx.compare
    // (the enclosure of W_p - W_2p contains 0). No rounding model and no eigenvalue enter.
    Mat<T> W_2p;
    {
      scoped_mpfr_precision twice(2 * std::max(p, min_precision_bits));
      const auto task2 = make_task<T>(spec);
      W_2p = ridge(task2.X, task2.Y, T(static_cast<double>(lambda)));
    }
    ctx.note("ridge at 2p bits (enclosures)", case_context::matrix_full_digits(W_2p));
    ctx.compare<T>("ridge at p vs ridge at 2p (enclosures of the exact ridge overlap)", W_p, W_2p,
                   T(0));
  } else {
    ridge_agrees_with_twice_the_precision_rounded<T>(ctx, spec, lambda, task, W_p, p);
  }
}

}  // namespace iclproof::reference_checks
