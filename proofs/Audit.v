(* Audit.v -- the list of headline theorems of iclproof.

   audit.sh runs every `Print Assumptions ICLProof.Module.name.` line below on the compiled
   theories and fails on anything but "Closed under the global context" or names listed in
   allowed_axioms.txt; it also fails if a `Theorem` of a file in _CoqProject is not listed here.
   To add a theory: add its file to _CoqProject, Require it below, and append one
   Print Assumptions line per headline Theorem (auxiliary results are `Lemma`s).
   Not part of _CoqProject: the audit compiles it (with Redirect) in a scratch directory. *)

From ICLProof Require ShermanMorrison GradientDescent VonOswald AhnLemma1 Memformer
  AkyurekBounds AkyurekAlgebra LeastSquares ConjugateGradient PopulationOptima.

(* ShermanMorrison.v *)
Print Assumptions ICLProof.ShermanMorrison.sherman_morrison.
Print Assumptions ICLProof.ShermanMorrison.iterated_sherman_morrison_ridge.
Print Assumptions ICLProof.ShermanMorrison.bayes_posterior_mean_ridge.

(* GradientDescent.v *)
Print Assumptions ICLProof.GradientDescent.gd_step_neg_grad.
Print Assumptions ICLProof.GradientDescent.gd_iterates_neumann.
Print Assumptions ICLProof.GradientDescent.gd_delta_neg_grad.

(* VonOswald.v *)
Print Assumptions ICLProof.VonOswald.prop1_lsa_gd_step.
Print Assumptions ICLProof.VonOswald.prop1_readout.
Print Assumptions ICLProof.VonOswald.prop1_unmasked_deviation.
Print Assumptions ICLProof.VonOswald.prop1_unmasked_exact.
Print Assumptions ICLProof.VonOswald.lsa_stack_gd_steps.
Print Assumptions ICLProof.VonOswald.lsa_stack_neumann.
Print Assumptions ICLProof.VonOswald.gdpp_layer_identity.
Print Assumptions ICLProof.VonOswald.gdpp_preconditioned_gd.

(* AhnLemma1.v *)
Print Assumptions ICLProof.AhnLemma1.ahn_lemma1.
Print Assumptions ICLProof.AhnLemma1.ahn_lemma1_x_rows.
Print Assumptions ICLProof.AhnLemma1.ahn_lemma1_readout.

(* Memformer.v *)
Print Assumptions ICLProof.Memformer.cgd_memformer_cg.
Print Assumptions ICLProof.Memformer.lfom_memformer_scalar.
Print Assumptions ICLProof.Memformer.lfom_memformer_precond.
Print Assumptions ICLProof.Memformer.lfom_memformer_nonconstant_gamma.
Print Assumptions ICLProof.Memformer.momentum_as_lfom.
Print Assumptions ICLProof.Memformer.nesterov_as_lfom.

(* AkyurekBounds.v *)
Print Assumptions ICLProof.AkyurekBounds.gelu_tanh_product_quartic.
Print Assumptions ICLProof.AkyurekBounds.gelu_tanh_bypass_exponential.
Print Assumptions ICLProof.AkyurekBounds.layernorm_bypass_deviation.
Print Assumptions ICLProof.AkyurekBounds.layernorm_division_remainder.

(* AkyurekAlgebra.v *)
Print Assumptions ICLProof.AkyurekAlgebra.layernorm_division_sum_squares.
Print Assumptions ICLProof.AkyurekAlgebra.layernorm_division_squared.
Print Assumptions ICLProof.AkyurekAlgebra.raw_dot_reduction.
Print Assumptions ICLProof.AkyurekAlgebra.raw_aff_reduction.
Print Assumptions ICLProof.AkyurekAlgebra.raw_mov_reduction.
Print Assumptions ICLProof.AkyurekAlgebra.raw_mul_entry.

(* LeastSquares.v *)
Print Assumptions ICLProof.LeastSquares.min_norm_ls_normal.
Print Assumptions ICLProof.LeastSquares.min_norm_ls_range.
Print Assumptions ICLProof.LeastSquares.least_squares_normalP.
Print Assumptions ICLProof.LeastSquares.min_norm_ls_unique.
Print Assumptions ICLProof.LeastSquares.min_norm_least_squares_spec.
Print Assumptions ICLProof.LeastSquares.ols_closed_form.
Print Assumptions ICLProof.LeastSquares.ridge_min_norm_gap.
Print Assumptions ICLProof.LeastSquares.ridge_min_norm_bound2.
Print Assumptions ICLProof.LeastSquares.ridge_tends_to_min_norm_least_squares.
Print Assumptions ICLProof.LeastSquares.sv_lower_bound_pinvmx.
Print Assumptions ICLProof.LeastSquares.ridge_min_norm_pinvmx_bound.

(* ConjugateGradient.v *)
Print Assumptions ICLProof.ConjugateGradient.cg_residual_forms.
Print Assumptions ICLProof.ConjugateGradient.cg_orthogonality.
Print Assumptions ICLProof.ConjugateGradient.cg_residuals_orthogonal.
Print Assumptions ICLProof.ConjugateGradient.cg_directions_conjugate.
Print Assumptions ICLProof.ConjugateGradient.cg_exact_line_search.
Print Assumptions ICLProof.ConjugateGradient.cg_alpha_formulas.
Print Assumptions ICLProof.ConjugateGradient.cg_gamma_formulas.
Print Assumptions ICLProof.ConjugateGradient.cg_finite_termination.
Print Assumptions ICLProof.ConjugateGradient.cg_after_rank_steps.
Print Assumptions ICLProof.ConjugateGradient.cg_after_rank_steps_equals_min_norm.
Print Assumptions ICLProof.ConjugateGradient.cg_prediction_equals_min_norm.
Print Assumptions ICLProof.ConjugateGradient.cgd_after_rank_layers_equals_min_norm.
Print Assumptions ICLProof.ConjugateGradient.cgd_after_rank_layers_equals_min_norm_prediction.

(* PopulationOptima.v *)
Print Assumptions ICLProof.PopulationOptima.quadratic_excess.
Print Assumptions ICLProof.PopulationOptima.quadratic_minimum.
Print Assumptions ICLProof.PopulationOptima.quadratic_minimiser.
Print Assumptions ICLProof.PopulationOptima.isotropic_step_optimum.
Print Assumptions ICLProof.PopulationOptima.uniform_step_optimum.
Print Assumptions ICLProof.PopulationOptima.gaussian_step_optimum.
