// The errata of CONSTRUCTIONS.md measured: each function evaluates the paper's
// statement and the corrected one on real data at the current MPFR precision and returns both
// numbers. `iclproof report` calls them through the findings registered in errata.cpp (the
// errata table shows both sides and a status); tests/unit/memformer_test.cpp and
// akyurek_errata_test.cpp call the same functions and check the numbers at 256 bits. All inputs are
// fixed (seeded), so a measurement is deterministic for a given precision.
#pragma once

#include "core/scalar.hpp"

namespace iclproof::errata {

using T = mpfr_real;

// Memformer eqs 26-27 against eq 11: d = 3, N = 10, L = 3 Ahn layers with random A_l; the
// transformer's prediction TF against <x_q, w> after L preconditioned steps with and without
// the extra 1/n.
struct eq26_27_numbers {
  T error_eq11;  // |TF - <x_q, w_eq11>|: corrected
  T error_eq27;  // |TF - <x_q, w_eq27>|: paper
};
eq26_27_numbers measure_eq26_27_extra_one_over_n();

// Memformer A.2: CG on a rank-4 problem (d = 4, N = 12) with the line-searched first step
// against A.2's unit first step; both coefficient sets run through the CGD Memformer.
struct a2_numbers {
  T alpha0;       // the line-searched first step (A.2: 1)
  T w_error_cg;   // ||w_4 - w+|| with the line-searched first step
  T w_error_a2;   // ... with A.2's unit first step
  T tf_error_cg;  // |TF - x_q^T w+|, Memformer with CG's coefficients
  T tf_error_a2;  // ... with A.2's coefficients
  T w_plus_norm;  // ||w+||
};
a2_numbers measure_a2_unit_first_step();

// Memformer Prop. 2 / eq 21: one LFOM Memformer layer (A = a I) whose Gamma last row is constant
// (a scalar per layer: the linear model holds) or per-token (the paper's reading says a linear
// model with a diagonal Lambda still holds). Deviation of the last row from the closest linear
// model, relative, and its rounding bound (memformer_checks::deviation_from_linear_model).
struct prop2_numbers {
  T deviation_constant_row;
  T rounding_constant_row;
  T deviation_token_row;
  T rounding_token_row;
  // With scalar rows the layer-0 scalings of two later layers are proportional (lambda A_0^T):
  // the best fit c Lambda_0^0 of the target pair Lambda_0^0 = diag(1, 2), Lambda_0^1 = diag(2, 1)
  // leaves this relative residual (0 if an arbitrary diagonal pair were reachable).
  T proportional_fit_residual;
};
prop2_numbers measure_prop2_token_gamma();

// Akyurek Lemma 4: the GeLU product s^2 sqrt(pi/2) (g((x+y)/s) - g(x/s) - g(y/s)) against xy.
// Order in the inputs (x = 0.6 t, y = -0.4 t, s = 1, t = 2^-10 vs 2^-14) and slope in s
// (x = 0.6, y = -0.4, s = 2^6 vs 2^10), for the erf and the tanh GeLU.
struct lemma4_numbers {
  double order_in_inputs_erf, order_in_inputs_tanh;  // corrected: 4; paper O(x^3 + y^3): 3
  double slope_in_s_erf, slope_in_s_tanh;            // corrected: -2; paper (read at x/s): -1
  T leading_term_ratio;  // error / (-xy(2x^2 + 3xy + 2y^2)/6) at x = 6e-5, y = -4e-5 (erf): ~1
};
lemma4_numbers measure_lemma4_gelu_product_order();

// Akyurek Lemma 6: sqrt(2/L) N LayerNorm([x, N, -N - sum x, 0...])'s second entry, N = 2^40.
struct lemma6_numbers {
  T second_over_n;   // corrected: 1 + O(S/N)
  T second_over_2n;  // paper: 1
  T s_over_n;        // |S| / N, S = sum x (the hand-derived deviation is -S/(2N))
};
lemma6_numbers measure_lemma6_bypass_second_entry();

// Akyurek Appendix A: one step against gradient descent on (w^T x - y)^2 + lambda |w|^2 with the
// gradient by central differences (exact for a quadratic, up to rounding).
struct appendix_a_numbers {
  T error_corrected;        // max |w - 2 alpha (x (w^T x - y) + lambda w) - w_gd|
  T error_printed;          // max |w - 2 alpha x (w^T x - y) - lambda w - w_gd|   (as printed)
  T error_printed_2lambda;  // the printed step with 2 lambda
};
appendix_a_numbers measure_appendix_a_ridge_step();

// Akyurek Lemma 5: GeLU(N + x) - N at N = 10, x = 1/2. The proof's eq 41 evaluates the GeLU at N
// (x dropped); the corrected identity (erf GeLU) is g(N + x) - N - x = -(N + x)(1 - Phi(N + x)).
struct lemma5_numbers {
  T x;
  T eq41_error;         // |eq 41's right side - (GeLU_tanh(N + x) - N)|: paper (~ |x|)
  T identity_residual;  // |g(N+x) - N - x + (N+x)(1 - Phi(N+x))| (erf GeLU): corrected
  T tail;               // (N + x)(1 - Phi(N + x)): the exponentially small error of the claim
};
lemma5_numbers measure_lemma5_bypass_keeps_x();

}  // namespace iclproof::errata
