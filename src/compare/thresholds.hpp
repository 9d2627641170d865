// The acceptance thresholds of `iclproof compare` (compare.hpp), each with its justification.
#pragma once

namespace iclproof {

// THRESHOLDS. These are acceptance criteria for a statistical claim ("training converges to the
// construction"), not floating-point error bounds: the 256-bit evaluation makes rounding
// irrelevant (errors ~2^-250), and what remains is the distance of a finite Adam run from the
// optimum. The values follow the project's acceptance criteria (cosine >= 0.99, relative
// distance <= 0.05) and von Oswald et al. (Figure 2: after training, cosine similarity of
// sensitivities ~1 and prediction differences near 0; Figure 3: the recurrent model "realigns
// perfectly" with GD++), and the Memformer paper (Figures 1-2: Memformers match or beat GD,
// compete with CG).
namespace thresholds {
// One LSA layer: the optimum over LSA weights is Prop 1's construction with eta* (for x with a
// distribution invariant under signed coordinate permutations, the x-block of the optimal
// preconditioner commutes with them, hence is a multiple of I). A converged run is within Adam's
// noise floor of it: we accept 5% in relative Frobenius distance / prediction difference.
constexpr double relative_distance = 0.05;
constexpr double cosine = 0.99;
// Loss ratio trained / reference: the trained model may be slightly better (it has more freedom
// than GD) but must not be worse by more than the same 5%.
constexpr double loss_ratio = 1.05;
// Ahn Theorem 3 (as restated in the Memformer paper App. D): A_l -> a_l Sigma^-1 at the optimum.
// Appendix D's Figure 8 shows Dist falling to ~0.1 over training; we accept 0.1.
constexpr double ahn_dist = 0.10;
// Weight alignment with GD++ (relative_distance above) is gated for the recurrent (tied) model
// only. von Oswald et al. claim it there (Sec. 3, Fig. 3: the recurrent Transformer "realigns
// perfectly with GD++" and interpolates with the construction), but for deep untied stacks they
// report the opposite: with per-layer (eta_l, gamma_l) the trained stack aligns with GD++ as a
// function, "Nevertheless, we see that the naive correction necessary for model interpolation
// used in the aforementioned experiments is not enough to interpolate without a loss increase.
// We leave a search for better weight corrections to future work." (Sec. 3, the 5-layer
// non-recurrent paragraph). Per-layer weights of an untied stack are therefore not claimed to
// match the construction after the A.3 scale correction; the distance is reported, and the
// untied stack is judged by what the paper does claim: predictions, sensitivities and loss
// against GD++ whose per-layer coefficients are TUNED ("a different GD learning rate as well as
// gamma per step (layer) need to be tuned to match the Transformer performance"; all gated, same
// thresholds; compare_lsa_gdpp). Against GD++ with the coefficients read off the weights these
// three are reported only for an untied stack.
//
// Multi-layer LSA models (tied and untied) against K plain GD steps with the line-searched eta:
// von Oswald et al. Sec. 3, "When optimizing such Transformers with K layers, we observe that
// these models generally outperform K steps of plain gradient descent, see Figure 3", and for
// the recurrent model "we find that the trained model surpasses plain gradient descent". The
// loss ratio must therefore be <= 1 (gated: GD++ models wrong by a sign or a scale pass the
// weight-read metrics but fail this one; measured 0.71 (gdpp) and 0.68 (stack) on the CI
// presets, 0.71 and 0.61 on the paper presets, src/trainer/README.md).
constexpr double beats_plain_gd = 1.0;
// One Z-form layer (ahn_linear, memformer_lfom, memformer_cgd with L = 1) has an exact population
// optimum over its weights (references/population_optima.hpp): A* = (N/(N+d+1)) Sigma^-1 for
// Gaussian inputs with w ~ N(0, Sigma^-1), eta* I for uniform inputs (the optimum commutes with
// signed permutations of the coordinates) and for the scalar step of memformer_cgd. There
// `loss.ratio_to_gd <= 1` cannot be passed by anything but the optimum itself on isotropic data
// (one GD step at eta* IS the optimum), so the gate is the loss ratio R = L(TF) / L(A*), both
// evaluated on the same fresh tasks (paired, so that the task-to-task spread cancels), with
//     R <= 1 + optimum_relative_excess + optimum_z * se(R),
// se(R) the paired delta-method standard error (loss_ratio_standard_error). The relative excess
// is the 5% of loss_ratio above; z = 3: a model exactly at the allowed excess fails with
// probability ~ 1 - Phi(3) = 0.13% (normal approximation of the ratio estimator).
constexpr double optimum_relative_excess = loss_ratio - 1.0;
constexpr double optimum_z = 3.0;
}  // namespace thresholds

}  // namespace iclproof
