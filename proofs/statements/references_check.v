(* statements/references_check.v -- every claim of statements/references.v proved from the
   theorems the references properties cite (GradientDescent.v, ShermanMorrison.v,
   LeastSquares.v, SingularValueCertificate.v, ConjugateGradient.v, Memformer.v), with the bridge
   from the project's definitions to the statement file's proved here (bridge_* lemmas).

   The statement file's objects are used qualified (references.X). *)

From mathcomp Require Import all_ssreflect all_algebra.
From ICLProof Require Import GradientDescent ShermanMorrison LeastSquares.
From ICLProof Require Import SingularValueCertificate ConjugateGradient Memformer.
From ICLProof Require statements.references.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import Order.TTheory GRing.Theory Num.Theory.
Local Open Scope ring_scope.

(* ---- the bridge ---- *)

Lemma bridge_gd_iterate (R : numFieldType) d o N (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N))
    (eta : R) K :
  references.gd_iterate X Y eta K = GradientDescent.gd_iter X Y eta K.
Proof. by []. Qed.

Lemma bridge_sm_updates (R : realFieldType) d N (X : 'M[R]_(d, N)) (lambda : R) :
  references.sm_updates X lambda = sm_iter lambda [seq col i X | i <- enum 'I_N].
Proof. by []. Qed.

Lemma bridge_ridge (R : realFieldType) d N o (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N))
    (lambda : R) :
  references.ridge X Y lambda = LeastSquares.ridge X Y lambda.
Proof. by []. Qed.

Lemma bridge_frob2 (R : realFieldType) m n (A : 'M[R]_(m, n)) :
  references.frob2 A = fnorm2 A.
Proof. by []. Qed.

(* The statement file's minimum-norm least-squares solutions are exactly min_norm_ls. *)
Lemma bridge_is_min_norm_ls (R : realFieldType) d N o (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N))
    (W : 'M[R]_(o, d)) :
  references.is_min_norm_ls X Y W <-> W = min_norm_ls X Y.
Proof.
split=> [[Wmin Wleast] | ->].
  by apply/(min_norm_least_squares_spec X Y W).2; split; [exact: Wmin | exact: Wleast].
by have [Wmin Wleast] := (min_norm_least_squares_spec X Y (min_norm_ls X Y)).1 erefl.
Qed.

(* The CG state is (w_n, r_n, s_(n-1), rr_(n-1)) of ConjugateGradient.cg_iter. *)
Lemma bridge_cg_state (R : realFieldType) d (H : 'M[R]_d) (b : 'rV[R]_d) n :
  references.cg_state H b n
  = (cgw H b n, cgr H b n, cg_s (cg_iter H b n), cg_rr (cg_iter H b n)).
Proof.
elim: n => [|n IHn]; first by rewrite /cgw /cgr cg_iter0.
rewrite /= IHn /cgw /cgr cg_iterS /= /references.dot_rv /fnorm2 /fdot.
by rewrite !trace_mx11.
Qed.

Lemma bridge_cg_weights (R : realFieldType) d (H : 'M[R]_d) (b : 'rV[R]_d) n :
  references.cg_weights H b n = cgw H b n.
Proof. by rewrite /references.cg_weights bridge_cg_state. Qed.

(* The statement file's LFOM iterates are Memformer.cov_seq's course of values. *)
Lemma bridge_lfom_iterates (R : ringType) (V : lmodType R) (c : nat -> nat -> R) (g : V -> V)
    (w0 : V) l :
  references.lfom_iterates c g w0 l = cov_seq w0 (lfom_step c g) l.
Proof.
elim: l => [|l IHl] //=; rewrite IHl /lfom_step; congr (rcons _ (_ - _)).
by rewrite -nth_last size_cov_seq /= (set_nth_default 0) // size_cov_seq.
Qed.

Lemma bridge_lfom (R : ringType) (V : lmodType R) (c : nat -> nat -> R) (g : V -> V) (w0 : V)
    l :
  references.lfom c g w0 l = lfom_w c g w0 l.
Proof.
rewrite /references.lfom bridge_lfom_iterates /lfom_w -nth_last size_cov_seq /=.
by rewrite (set_nth_default 0) // size_cov_seq.
Qed.

Lemma bridge_heavy_ball (R : comRingType) (V : lmodType R) (eta beta : R) (g : V -> V)
    (w0 : V) l :
  references.heavy_ball eta beta g w0 l = Memformer.heavy_ball eta beta g w0 l.
Proof. by elim: l => [|l IHl] //=; rewrite IHl. Qed.

Lemma bridge_nesterov (R : comRingType) (V : lmodType R) (eta beta : R) (g : V -> V)
    (w0 : V) l :
  references.nesterov eta beta g w0 l = Memformer.nesterov eta beta g w0 l.
Proof. by elim: l => [|l IHl] //=; rewrite IHl. Qed.

(* ---- the checks ---- *)

Lemma check_references__k_step_gd_equals_neumann_closed_form :
  ICLProof.statements.references.claim_references__k_step_gd_equals_neumann_closed_form.
Proof.
move=> R d o N eta K X Y _.
by rewrite bridge_gd_iterate gd_iterates_neumann.
Qed.

Lemma check_references__iterated_sherman_morrison_equals_ridge :
  ICLProof.statements.references.claim_references__iterated_sherman_morrison_equals_ridge.
Proof.
move=> R d N o lambda X Y [_ [_ lambda_gt0]].
rewrite bridge_sm_updates iterated_sherman_morrison_ridge // /references.ridge.
by rewrite addrC ShermanMorrison.ridge_unitmx.
Qed.

Lemma check_references__bayes_posterior_mean_equals_ridge :
  ICLProof.statements.references.claim_references__bayes_posterior_mean_equals_ridge.
Proof.
move=> R d N o sigma2 tau2 X Y [_ [_ [_ [sigma2_gt0 tau2_gt0]]]]; split.
  by apply: ShermanMorrison.ridge_unitmx; rewrite divr_gt0.
by rewrite bayes_posterior_mean_ridge.
Qed.

Lemma check_references__cg_after_rank_steps_equals_min_norm :
  ICLProof.statements.references.claim_references__cg_after_rank_steps_equals_min_norm.
Proof.
move=> R d N X y c n [_ [_ [c_gt0 rank_le]]].
have rank_X : (\rank X <= n)%N by rewrite -(rank_scaled_gram X c_gt0).
have cg_min := cg_after_rank_steps_equals_min_norm y c_gt0 rank_X.
rewrite bridge_cg_weights; split; first by apply/bridge_is_min_norm_ls.
by move=> wp /bridge_is_min_norm_ls ->.
Qed.

Lemma check_references__momentum_equals_lfom_with_momentum_coefficients :
  ICLProof.statements.references.claim_references__momentum_equals_lfom_with_momentum_coefficients.
Proof.
move=> R V eta beta g w0 l _.
by rewrite bridge_heavy_ball bridge_lfom momentum_as_lfom.
Qed.

Lemma check_references__nesterov_equals_lfom_with_nesterov_coefficients :
  ICLProof.statements.references.claim_references__nesterov_equals_lfom_with_nesterov_coefficients.
Proof.
move=> R V eta beta g w0 l _.
by rewrite bridge_nesterov bridge_lfom nesterov_as_lfom.
Qed.

Lemma check_references__ridge_tends_to_min_norm_least_squares :
  ICLProof.statements.references.claim_references__ridge_tends_to_min_norm_least_squares.
Proof.
move=> R d N o k X Y lambda G mu L D Wp [_ [_ [lambda_gt0 [HGH [mu_gt0 [D_ge0 cert]]]]]].
move=> /bridge_is_min_norm_ls ->; rewrite !bridge_frob2 bridge_ridge; split.
  exact (ridge_min_norm_ginv_bound2 Y lambda_gt0 HGH).
have sv := sv_lower_bound_of_ldl D_ge0 cert.
refine (le_trans (ridge_min_norm_bound2 Y lambda_gt0 (ltW mu_gt0) sv) _).
rewrite ler_wpmul2r ?fnorm2_ge0 //.
have h1 : 0 <= lambda / (lambda + mu) by rewrite divr_ge0 // ltW // addr_gt0.
have h2 : 0 <= lambda / mu by rewrite divr_ge0 // ltW.
rewrite ler_sqr ?nnegrE // ler_pmul2l // lef_pinv ?posrE ?addr_gt0 //.
by rewrite ler_addr ltW.
Qed.
