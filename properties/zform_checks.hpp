// The Z-form set-up shared by the checks of Ahn et al.'s Lemma 1 (properties/ahn.hpp), the
// Memformers (properties/memformer.hpp) and the first-order reference cross-checks
// (properties/references_first_order.hpp): the task as the Z-form sees it, the token rows a
// linear model predicts, the random weights, the CG cases, the shadows of the reference
// recursions (GD, CG, the preconditioned LFOM, heavy ball, Nesterov) and the rounding depths.
// The rounding argument is properties/rounding_shadow.hpp's; the depths of these programs:
//  * One layer of the Z-form transformer, P ((Z M Z^T)(Q Z)), has the chain N (the Gram sum)
//    + 3 (d+1) (three more products) + heads (head sum) + 2 (scale by 1/N, residual add). The
//    Memformer registers add <= 2 + L per layer (gamma R, sums over registers, Hadamard
//    weights, alpha/N), and the references' steps are shorter: a gradient H w - b with
//    H = X X^T/N is N + 1 + d + 1 deep, preconditioning d, the update 2-4 more. Coefficients
//    computed from eta, beta (eta beta^k) add <= L + 1. So every compared program has per-layer
//    depth <= layer_depth = N + 3 (d+1) + heads + 2 L + 10, and the final read-out x^T w adds
//    d + 2. With B != 0 the x-rows enter cubically (the depth from Z_0 would triple each
//    layer), so ahn.hpp checks those layers locally, one layer_depth from the realised Z_l.
//  * Where a claim is NOT a polynomial identity in the computed inputs (CG terminating after
//    rank(H) steps: the CG coefficients are computed from rounded data), the extra term is a
//    first-order model, said so where it is used.
// Everything here is in namespace memformer_checks, with the three families' checks.
#pragma once

#include "core/precision.hpp"
#include "harness/property.hpp"
#include "harness/size_profile.hpp"
#include "harness/tolerance.hpp"
#include "memformer/z_form_transformer.hpp"
#include "references/references.hpp"
#include "rounding_shadow.hpp"
#include "tasks/rapidcheck_gen.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace iclproof::memformer_checks {

// What the Z-form, CG and LFOM properties (ahn.cpp, memformer.cpp, references_first_order.cpp)
// do under --size paper and --size large (harness/size_statement.hpp, ICLPROOF_SIZES).
inline constexpr const char* zform_sizes =
    "follows: d, N (gen_zform_spec) and layers up to the profile's caps";
inline constexpr const char* lfom_sizes =
    "follows: d, N (gen_zform_spec) and the layers / steps L up to the profile's caps "
    "(gen_lfom_method_case)";
inline constexpr const char* cg_sizes =
    "follows: d up to the DEPTH cap (the claim runs rank(H) <= d layers / CG steps), N in "
    "[2d + 2, 3d + 12] or N < d - 1 (gen_cg_case, zform_checks.hpp)";

using rounding_shadow::compare_within;
using rounding_shadow::lambda_max_double;
using rounding_shadow::shadow_bound;

template <class T>
T two_norm(const Mat<T>& v) {
  using boost::multiprecision::sqrt;
  using std::sqrt;
  return sqrt(v.squaredNorm());
}

// Per-layer rounding depth of every program compared here (see the header comment).
inline double layer_depth(int d, int N, int heads, int L) {
  return N + 3.0 * (d + 1) + heads + 2.0 * L + 10.0;
}

// A random d x d matrix with ||A||_F = s / lambda_max(H): ||A^T H||_2 <= s (a step of that size
// does not blow the iterates up). Generated in double from a seed: exact in every scalar.
inline Mat<double> scaled_random_matrix(data_rng& rng, int d, double s, double lmax) {
  const Mat<double> G = rng.normal_matrix(d, d);
  const double f = G.norm();
  return G * (s / ((f > 0 ? f : 1.0) * lmax));
}

// A task of the Z-form checks: d in 1..d_max, N in 1..N_max, label noise up to 0.5 (the small
// profile's ranges; --size paper / large raise d_max and N_max: harness/size_profile.hpp).
template <class T>
task_spec gen_zform_spec(int d_max, int N_max) {
  task_ranges r;
  r.d_max = sized_max<T>(size_axis::dimension, d_max);
  r.N_max = sized_max<T>(size_axis::examples, N_max);
  r.max_noise = 0.5;
  return *gen_task_spec(r);
}

// The seed of the random weights (data_rng), drawn by RapidCheck so that it shrinks.
inline std::uint64_t gen_weight_seed() { return *rc::gen::inRange<std::uint64_t>(0, 1u << 30); }

// The task as the Z-form sees it.
template <class T>
struct zform_task {
  Mat<T> X;      // d x N
  Mat<T> y;      // 1 x N
  Mat<T> xq;     // d x 1
  Mat<T> X_all;  // d x (N+1): context and query columns
  Mat<T> y_ext;  // 1 x (N+1): y and 0 for the query
  Mat<T> Z0;
};

template <class T>
zform_task<T> make_zform_task(const task_spec& spec) {
  const auto t = make_task<T>(spec);
  zform_task<T> z;
  z.X = t.X;
  z.y = t.Y.topRows(1);
  z.xq = t.Xq.leftCols(1);
  z.X_all.resize(spec.d, spec.N + 1);
  z.X_all << z.X, z.xq;
  z.y_ext = Mat<T>::Zero(1, spec.N + 1);
  z.y_ext.leftCols(spec.N) = z.y;
  z.Z0 = Mat<T>::Zero(spec.d + 1, spec.N + 1);
  z.Z0.topRows(spec.d) = z.X_all;
  z.Z0.bottomRows(1) = z.y_ext;
  return z;
}

// The token row a linear model w predicts: y_i - <x_i, w> for context tokens, -<x_q, w> for the
// query (Lemma 1: the last row of Z_l is this row for w = w_l).
template <class T>
Mat<T> token_row(const zform_task<T>& z, const Mat<T>& w) {
  return z.y_ext - matmul_tn(w, z.X_all);
}
// Its shadow for a weight shadow w_hat (>= 0): |y_i| + |x_i|^T w_hat.
template <class T>
Mat<T> token_row_shadow(const zform_task<T>& z, const Mat<T>& w_hat) {
  return abs_of(z.y_ext) + matmul_tn(w_hat, abs_of(z.X_all));
}

// The model under test returns Z_0..Z_L: one token matrix per layer and the input.
template <class T>
void require_one_z_per_layer(case_context& ctx, const std::vector<Mat<T>>& Zs, int L) {
  ctx.require("one Z per layer", Zs.size() == static_cast<std::size_t>(L + 1),
              "got " + std::to_string(Zs.size()) + " matrices for L = " + std::to_string(L));
}

// The shadow of the least-squares problem R(w) = ||w^T X - y||^2 / (2N): H_hat = |X| |X|^T / N
// and b_hat = |X| |y|^T / N, the shadows of H and b in every reference recursion below.
template <class T>
struct quadratic_shadow {
  Mat<T> H, b;
};
template <class T>
quadratic_shadow<T> make_quadratic_shadow(const zform_task<T>& z) {
  const T n = T(z.X.cols());
  const Mat<T> absX = abs_of(z.X);
  return {Mat<T>(matmul_nt(absX, absX) / n), Mat<T>(matmul_nt(absX, abs_of(z.y)) / n)};
}

// ---------------------------------------------------------------------------------------------
// Data for the CG properties: mildly conditioned (the CG termination claim is checked against
// a first-order model whose size grows with kappa). N is drawn away from d (N < d - 1 or
// N >= 2d + 2): Gaussian X X^T with N close to d is arbitrarily ill-conditioned. The exact
// rank comes from rational elimination (tasks/regression_task.hpp: exact_rank).
struct cg_case {
  task_spec spec;
  Eigen::Index rank = 0;
  double kappa_plus = 0;  // lambda_max / smallest nonzero eigenvalue of H, in double
};

// d in 1..6 under the small profile; under paper and large up to the profile's DEPTH cap, not
// its dimension cap, because the claims run rank(H) <= d layers (CG steps).
template <class T>
cg_case gen_cg_case() {
  task_ranges r;
  r.d_max = std::min(sized_max<T>(size_axis::dimension, 6), sized_max<T>(size_axis::depth, 6));
  r.N_max = 8;
  r.max_noise = 0.5;
  r.max_condition = 10.0;
  cg_case c;
  c.spec = *gen_task_spec(r);
  const int d = c.spec.d;
  const bool wide = d >= 4 && *rc::gen::arbitrary<bool>();
  c.spec.N = wide ? *rc::gen::inRange(1, d - 1) : *rc::gen::inRange(2 * d + 2, 3 * d + 13);
  note_drawn_size(size_axis::examples, c.spec.N);
  const auto td = make_task_double(c.spec);
  c.rank = exact_rank(td.X);
  RC_PRE(c.rank >= 1);
  const Mat<double> H = matmul_nt(td.X, td.X) / static_cast<double>(c.spec.N);
  const Vec<double> ev = symmetric_eigenvalues(H);
  c.kappa_plus = ev(d - 1) / ev(d - c.rank);
  // Mild conditioning only: the termination model is first order in u kappa.
  RC_PRE(c.kappa_plus <= 1e3);
  return c;
}

// Shadow of the reference CG (references/first_order_methods.hpp) with its coefficients as
// inputs: s = r + |gamma| s, w += |alpha| s, r += |alpha| H_hat s; returns w_hat_0..w_hat_L.
template <class T>
std::vector<Mat<T>> cg_shadow(const zform_task<T>& z, const std::vector<T>& alpha,
                              const std::vector<T>& gamma) {
  const quadratic_shadow<T> sh = make_quadratic_shadow(z);
  Mat<T> r_hat = sh.b, s_hat = Mat<T>::Zero(z.X.rows(), 1);
  Mat<T> w_hat = s_hat;
  std::vector<Mat<T>> out{w_hat};
  for (std::size_t l = 0; l < alpha.size(); ++l) {
    s_hat = r_hat + abs_of(gamma[l]) * s_hat;
    w_hat = w_hat + abs_of(alpha[l]) * s_hat;
    r_hat = r_hat + abs_of(alpha[l]) * matmul(sh.H, s_hat);
    out.push_back(w_hat);
  }
  return out;
}

// The tolerance of "CG after rank(H) steps = the min-norm least-squares solution".
//  (a) CG vs its exact-arithmetic self, FIRST-ORDER MODEL (not a proven bound): the rounding
//      errors of the r steps are at most 2 gamma_n ||w_hat||-sized (the shadow bound above);
//      they perturb the Krylov recurrence, and a residual perturbation turns into a solution
//      error amplified by at most ||H^+|| ||H|| = kappa_+ (the smallest nonzero eigenvalue of
//      H on range(H); components in null(H) come from rounding H and stay first order). So
//      ||w_r - w+||_2 <~ 2 gamma_n kappa_+ ||w_hat_r||_2 with n = r layer_depth + d + 2.
//  (b) The min-norm solution by a complete orthogonal decomposition of X^T: relative forward
//      error <= kappa_X gamma_{4Nd} (2 + kappa_X ||res|| / (sigma_max ||w+||)) (Higham Thm 20.1
//      with the Householder QR backward error, Thm 19.4), times 2 for second order.
// Returns the bound on |x_q^T (w_r - w+)| = ||x_q|| ((a) + (b)).
template <class T>
T cg_termination_bound(const zform_task<T>& z, const cg_case& c, const Mat<T>& w_hat_r,
                       const Mat<T>& w_plus) {
  const int d = c.spec.d, N = c.spec.N;
  const Vec<T> sv = singular_values<T>(z.X);
  const T smax = sv(0), smin = sv(c.rank - 1);
  const T kappa_X = smax / smin;
  const T kappa_H = kappa_X * kappa_X;
  const double n =
      static_cast<double>(c.rank) * layer_depth(d, N, 1, static_cast<int>(c.rank)) + d + 2;
  const T model = T(2) * higham_gamma<T>(n) * kappa_H * two_norm<T>(w_hat_r);
  const T nw = two_norm<T>(w_plus);
  const T res = two_norm<T>(Mat<T>(matmul_tn(w_plus, z.X) - z.y));
  const T ls_rel = kappa_X * higham_gamma<T>(4.0 * N * d) *
                   (T(2) + kappa_X * res / (smax * std::max(nw, eps<T>())));
  return two_norm<T>(z.xq) * (model + T(2) * ls_rel * nw);
}

// CG after rank(H) steps == the min-norm least-squares prediction (paper: Memformer eqs 17-18
// with CG finite termination, Nocedal-Wright Thm 5.1; for singular H the iterates stay in
// range(X), so the limit is the min-norm solution). Exact arithmetic, any real field:
// proofs/ConjugateGradient.v:cg_after_rank_steps_equals_min_norm (the CG of

// Reference: the preconditioned LFOM w_{l+1} = w_l - sum_{j<=l} lambda(l, j) A_j^T grad R(w_j)
// (scalar A_j = a_j I gives the LFOM of first_order_methods.hpp with lambda(l, j) a_j).
// Returns w_0..w_L and, in w_hat, the shadows.
template <class T>
std::vector<Mat<T>> preconditioned_lfom(const zform_task<T>& z, const std::vector<Mat<T>>& A,
                                        const Mat<T>& lambda, std::vector<Mat<T>>* w_hat) {
  const auto q = make_quadratic_problem<T>(z.X, z.y);
  const Eigen::Index d = z.X.rows();
  std::vector<Mat<T>> w{Mat<T>::Zero(d, 1)}, g;
  for (std::size_t l = 0; l < A.size(); ++l) {
    g.push_back(matmul_tn(A[l], Mat<T>(q.gradient(Vec<T>(w.back())))));  // A_l^T grad R(w_l)
    Mat<T> next = w.back();
    for (std::size_t j = 0; j <= l; ++j) next -= lambda(l, j) * g[j];
    w.push_back(next);
  }
  if (!w_hat) return w;  // no shadows wanted (exact mode)
  const quadratic_shadow<T> s = make_quadratic_shadow(z);
  std::vector<Mat<T>> wh{Mat<T>::Zero(d, 1)}, gh;
  for (std::size_t l = 0; l < A.size(); ++l) {
    gh.push_back(matmul_tn(abs_of(A[l]), Mat<T>(matmul(s.H, wh.back()) + s.b)));
    Mat<T> next_hat = wh.back();
    for (std::size_t j = 0; j <= l; ++j) next_hat += abs_of(lambda(l, j)) * gh[j];
    wh.push_back(next_hat);
  }
  *w_hat = wh;
  return w;
}

// (eta, beta): the paper's values (Appendix B: momentum eta = 0.005, NAG eta = 0.03, beta = 0.9;
// as the doubles nearest to them) or random ones with eta = s / lambda_max(H).
inline std::pair<double, double> gen_eta_beta(double paper_eta, double lmax) {
  const int kind = *rc::gen::inRange(0, 3);
  if (kind == 0) return {paper_eta, 0.9};
  const double s = *rc::gen::elementOf(std::vector<double>{0.125, 0.25, 0.5, 1.0});
  const double beta = *rc::gen::elementOf(std::vector<double>{0.0, 0.25, 0.5, 0.75, 0.9});
  return {s / lmax, beta};
}

// Shadow of the heavy-ball recursion w' = w - eta (H w - b) + beta (w - w_prev):
// w_hat' = w_hat + |eta| (H_hat w_hat + b_hat) + |beta| (w_hat + w_hat_prev); w_hat_0..w_hat_L.
template <class T>
std::vector<Mat<T>> heavy_ball_shadow(const quadratic_shadow<T>& s, const T& abs_eta,
                                      const T& abs_beta, int L) {
  std::vector<Mat<T>> w_hat{Mat<T>::Zero(s.b.rows(), 1)};
  Mat<T> prev = w_hat[0];
  for (int l = 0; l < L; ++l) {
    const Mat<T> cur = w_hat.back();
    w_hat.push_back(cur + abs_eta * (matmul(s.H, cur) + s.b) + abs_beta * (cur + prev));
    prev = cur;
  }
  return w_hat;
}

// Shadow of Nesterov's look-ahead recursion v = w + beta (w - w_prev), w' = v - eta (H v - b):
// v_hat = w_hat + |beta| (w_hat + w_hat_prev), w_hat' = v_hat + |eta| (H_hat v_hat + b_hat);
// v_hat_0..v_hat_L.
template <class T>
std::vector<Mat<T>> nesterov_lookahead_shadow(const quadratic_shadow<T>& s, const T& abs_eta,
                                              const T& abs_beta, int L) {
  Mat<T> w = Mat<T>::Zero(s.b.rows(), 1), w_prev = w;
  std::vector<Mat<T>> v_hat;
  for (int l = 0; l <= L; ++l) {
    const Mat<T> vl = w + abs_beta * (w + w_prev);
    v_hat.push_back(vl);
    w_prev = w;
    w = vl + abs_eta * (matmul(s.H, vl) + s.b);
  }
  return v_hat;
}

// A first-order method that is an LFOM (Memformer paper, Appendix B; CONSTRUCTIONS.md sections
// 4 and 6): its reference iterates, its LFOM coefficients and its shadow, for the Memformer
// check (memformer.hpp: lfom_method_is_lfom_memformer) and the reference cross-check
// (references_first_order.hpp: lfom_method_equals_lfom).
template <class T>
struct lfom_method {
  const char* memformer_label;  // "LFOM Memformer vs <this>"
  const char* step_label;       // "step l: <this> vs LFOM"
  double paper_eta;             // Appendix B (beta = 0.9)
  std::vector<Vec<T>> (*iterates)(const quadratic_problem<T>&, const T& eta, const T& beta,
                                  int L);  // 0..L, the sequence the LFOM reproduces
  Mat<T> (*coefficients)(const T& eta, const T& beta, int L);
  std::vector<Mat<T>> (*shadow)(const quadratic_shadow<T>&, const T& abs_eta, const T& abs_beta,
                                int L);
  // Rounding depth of iterate l in steps of layer_depth, for the cross-check: l for the heavy
  // ball's w_l, l + 1 for Nesterov's look-ahead v_l (computed from w_l by one more update).
  int extra_steps;
};

// The case of a check of an lfom_method: a Z-form task, L in 1..L_max, (eta, beta) by
// gen_eta_beta around the method's paper eta; noted as "<L_name>, eta, beta".
template <class T>
struct lfom_method_case {
  task_spec spec;
  int L = 0;
  T eta, beta;
  zform_task<T> z;
};
template <class T>
lfom_method_case<T> gen_lfom_method_case(case_context& ctx, const lfom_method<T>& method, int L_max,
                                         const std::string& L_name) {
  lfom_method_case<T> c;
  c.spec = gen_zform_spec<T>(6, 20);
  c.L = draw_size<T>(size_axis::depth, 1, L_max);
  const auto [eta_d, beta_d] =
      gen_eta_beta(method.paper_eta, lambda_max_double(make_task_double(c.spec).X));
  ctx.note_value("task", c.spec);
  ctx.note(L_name + ", eta, beta",
           std::to_string(c.L) + ", " + std::to_string(eta_d) + ", " + std::to_string(beta_d));
  c.eta = T(eta_d);
  c.beta = T(beta_d);
  c.z = make_zform_task<T>(c.spec);
  return c;
}

// Heavy-ball momentum: lambda(l, j) = eta beta^(l-j) (proofs/Memformer.v:momentum_as_lfom).
template <class T>
lfom_method<T> heavy_ball_method() {
  return {"momentum GD",         "momentum", 0.005, &momentum_gd<T>, &momentum_lfom_coefficients<T>,
          &heavy_ball_shadow<T>, 0};
}

// Nesterov's look-ahead sequence v_l: lambda(l, l) = eta (1 + beta), lambda(l, j) =
// eta beta^(l-j+1) (proofs/Memformer.v:nesterov_as_lfom).
template <class T>
lfom_method<T> nesterov_method() {
  return {
      "Nesterov look-ahead v_l",      "Nesterov look-ahead",         0.03, &nesterov_lookahead<T>,
      &nesterov_lfom_coefficients<T>, &nesterov_lookahead_shadow<T>, 1};
}

}  // namespace iclproof::memformer_checks
