// The errata of CONSTRUCTIONS.md ("Errata found while writing this sheet"), each with the paper's
// claim and value and the corrected ones, next to the code that measures them (errata.hpp,
// errata.cpp): errata.cpp registers every entry as a finding with its measurement and evidence,
// and a unit test requires one for each (tests/unit/report_test.cpp).
#pragma once

#include "report/findings.hpp"

#include <vector>

namespace iclproof::errata {

inline const std::vector<finding>& catalogue() {
  // CONSTRUCTIONS.md, "Errata found while writing this sheet" (each checked there at 60 digits).
  static const std::vector<finding> catalogue = {
      {"memformer.eq26_27_extra_one_over_n",
       "memformer",
       "Extra factor 1/n in the LFOM update",
       "Memformer paper, eqs 26-27 (against eq 11)",
       "the Memformer update carries a factor 1/n in eqs 26-27",
       "eq 11 (no extra 1/n) is right; with the extra factor the iterates are scaled by 1/n",
       "(1/n) sum_j Gamma_j (.) R_j",
       "sum_j Gamma_j (.) R_j (eq 11)",
       {},
       {}},
      {"memformer.a2_unit_first_step",
       "memformer",
       "CG's first step is line-searched, not a unit step",
       "Memformer paper, Appendix A.2",
       "w_1 = w_0 + r_0 (unit first step)",
       "w_1 = w_0 + alpha_0 r_0 with alpha_0 = r_0^T r_0 / r_0^T H r_0 (line-searched CG)",
       "alpha_0 = 1",
       "alpha_0 = r_0^T r_0 / r_0^T H r_0",
       {},
       {}},
      {"memformer.prop2_hadamard_not_arbitrary_diagonal",
       "memformer",
       "Hadamard memory does not give an arbitrary per-coordinate diagonal",
       "Memformer paper, Proposition 2 / eq 21",
       "Hadamard rows Gamma_j^l realise any diagonal preconditioner Lambda_j^l",
       "with diagonal A_j the per-coordinate scaling is lambda_j^l A_j^T (rank-restricted); a "
       "per-token row of Gamma breaks the single-linear-model reading",
       "arbitrary diagonal Lambda_j^l",
       "lambda_j^l A_j^T only",
       {},
       {}},
      {"akyurek.lemma4_gelu_mul_error_fourth_order",
       "akyurek",
       "GeLU multiplication error is fourth order, O(1/s^2)",
       "Akyurek et al. 2023, Lemma 4",
       "s^2 sqrt(pi/2) (g((x+y)/s) - g(x/s) - g(y/s)) = xy + O(x^3 + y^3)",
       "the error is -xy(2x^2 + 3xy + 2y^2)/(6 s^2) + O(s^-4) (erf GeLU): fourth order in the "
       "inputs, O(1/s^2)",
       "O(x^3 + y^3)",
       "-xy(2x^2+3xy+2y^2)/(6 s^2)",
       {},
       {}},
      {"akyurek.lemma6_bypass_returns_n",
       "akyurek",
       "LayerNorm bypass returns N, not 2N",
       "Akyurek et al. 2023, Lemma 6",
       "sqrt(2/L) N lambda([x, N, -N - sum x, 0]) returns x and 2N",
       "it returns x(1 + O(sum x / N)) and N in the second entry",
       "2N",
       "N",
       {},
       {}},
      {"akyurek.appendix_a_ridge_step",
       "akyurek",
       "Ridge-penalised SGD step",
       "Akyurek et al. 2023, Appendix A",
       "w' = w - 2 alpha (x (w^T x - y)) - lambda w, mixing lambda and 2 lambda",
       "w' = w - 2 alpha (x (w^T x - y) + lambda w)",
       "- lambda w",
       "- 2 alpha lambda w",
       {},
       {}},
      {"akyurek.lemma5_proof_drops_x",
       "akyurek",
       "GeLU bypass: the proof drops x",
       "Akyurek et al. 2023, Lemma 5 (proof)",
       "the proof's expansion of g(N + x) loses the x term",
       "the claim holds: g(N + x) - N - x = -(N + x)(1 - Phi(N + x)), exponentially small in N",
       "error term without x",
       "-(N + x)(1 - Phi(N + x))",
       {},
       {}},
  };
  return catalogue;
}

}  // namespace iclproof::errata
