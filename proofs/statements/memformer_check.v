(* The project's theorems prove the statements of memformer.v (issue 37): each check_<p> has
   exactly the type ICLProof.statements.memformer.claim_<p>; the bridges from Memformer.v,
   ConjugateGradient.v and LeastSquares.v to the statement file's definitions are proved here. *)

From mathcomp Require Import all_ssreflect all_algebra.
From ICLProof Require Import AhnLemma1 LeastSquares Memformer ConjugateGradient.
From ICLProof Require statements.memformer.

Import GRing.Theory Num.Theory.
Local Open Scope ring_scope.


(* ---- bridges ---- *)

Lemma attn_A_bridge (R : fieldType) d N Q (A : 'M[R]_d) (Z : 'M[R]_(d + 1, N + Q)) :
  statements.memformer.attn_A A Z = ahn_attn (ahn_P 0) (ahn_Q A) Z.
Proof. by []. Qed.

Lemma model_state_bridge (R : fieldType) d N Q (X : 'M[R]_(d, N)) (Xq : 'M[R]_(d, Q))
    (y : 'M[R]_(1, N)) (w : 'cV[R]_d) :
  statements.memformer.model_state X Xq y w = ahn_state X Xq y w.
Proof. by []. Qed.

(* With coefficients equal at every layer (no functional extensionality: pointwise). *)
Lemma cgd_memformer_bridge (R : fieldType) d N Q (X : 'M[R]_(d, N)) (Xq : 'M[R]_(d, Q))
    (y : 'M[R]_(1, N)) (alpha gamma alpha' gamma' : nat -> R) L :
  (forall l, alpha l = alpha' l) -> (forall l, gamma l = gamma' l) ->
  statements.memformer.cgd_memformer X Xq y alpha gamma L = cgd_memformer X Xq y alpha' gamma' L.
Proof. by move=> Ea Eg; elim: L => [|l IH] //=; rewrite IH Ea Eg. Qed.

Lemma fnorm2_row (R : realFieldType) d (r : 'rV[R]_d) : fnorm2 r = (r *m r^T) ord0 ord0.
Proof. by rewrite /fnorm2 /fdot /mxtrace big_ord1. Qed.

Lemma fdot_quad (R : realFieldType) d (s : 'rV[R]_d) (H : 'M[R]_d) :
  fdot s (s *m H) = (s *m H *m s^T) ord0 ord0.
Proof.
rewrite /fdot /mxtrace big_ord1.
have -> : (s *m H *m s^T) ord0 ord0 = (s *m H *m s^T)^T ord0 ord0
  by rewrite [RHS]mxE.
by rewrite !trmx_mul trmxK.
Qed.

Lemma cg_run_bridge (R : realFieldType) d (H : 'M[R]_d) (b : 'rV[R]_d) n :
  statements.memformer.cg_run H b n
    = (cgw H b n, cgr H b n, cg_s (cg_iter H b n), cg_rr (cg_iter H b n)).
Proof.
elim: n => [|n IH]; first by rewrite /cgw /cgr cg_iter0.
rewrite /statements.memformer.cg_run iterS -/(statements.memformer.cg_run H b n) IH /cgw /cgr cg_iterS.
case: (cg_iter H b n) => w r s rr /=.
by rewrite /statements.memformer.cg_step /cg_step /= !fnorm2_row !fdot_quad.
Qed.

Lemma cg_alpha_bridge (R : realFieldType) d (H : 'M[R]_d) (b : 'rV[R]_d) l :
  statements.memformer.cg_alpha H b l = cga H b l.
Proof. by rewrite /statements.memformer.cg_alpha /cga !cg_run_bridge /= fnorm2_row fdot_quad. Qed.

Lemma cg_gamma_bridge (R : realFieldType) d (H : 'M[R]_d) (b : 'rV[R]_d) l :
  statements.memformer.cg_gamma H b l = cgg H b l.
Proof. by rewrite /statements.memformer.cg_gamma /cgg !cg_run_bridge /= fnorm2_row. Qed.

Lemma cg_iterate_bridge (R : realFieldType) d (H : 'M[R]_d) (b : 'rV[R]_d) n :
  statements.memformer.cg_iterate H b n = cgw H b n.
Proof. by rewrite /statements.memformer.cg_iterate cg_run_bridge. Qed.

Lemma sqnorm_bridge (R : realFieldType) m n (M : 'M[R]_(m, n)) : statements.memformer.sqnorm M = fnorm2 M.
Proof. by rewrite fnorm2E. Qed.

Lemma min_norm_ls_bridge (R : realFieldType) d N (X : 'M[R]_(d, N)) (y : 'M[R]_(1, N))
    (w : 'rV[R]_d) :
  statements.memformer.min_norm_ls_solution X y w -> w = min_norm_ls X y.
Proof.
case=> wmin wleast; apply/min_norm_least_squares_spec; split=> [V | V Vmin].
  by have := wmin V; rewrite /ls_loss !sqnorm_bridge.
have := wleast V; rewrite !sqnorm_bridge; apply=> U.
by have := Vmin U; rewrite /ls_loss !sqnorm_bridge.
Qed.

Lemma lfom_memformer_bridge (R : fieldType) d N Q (X : 'M[R]_(d, N)) (Xq : 'M[R]_(d, Q))
    (y : 'M[R]_(1, N)) Gamma (A : nat -> 'M[R]_d) L :
  statements.memformer.lfom_memformer X Xq y Gamma A L = lfom_memformer X Xq y Gamma A L.
Proof.
rewrite /statements.memformer.lfom_memformer /lfom_memformer; congr nth.
by elim: L => [|l IH] //=; rewrite IH.
Qed.

(* With Gamma equal at every (j, l) (pointwise, no functional extensionality). *)
Lemma lfom_memformer_ext_bridge (R : fieldType) d N Q (X : 'M[R]_(d, N)) (Xq : 'M[R]_(d, Q))
    (y : 'M[R]_(1, N)) Gamma Gamma' (A : nat -> 'M[R]_d) L :
  (forall j l, Gamma j l = Gamma' j l) ->
  statements.memformer.lfom_memformer X Xq y Gamma A L = lfom_memformer X Xq y Gamma' A L.
Proof.
move=> E; rewrite /statements.memformer.lfom_memformer /lfom_memformer; congr nth.
elim: L => [|l IH] //=; rewrite IH; congr rcons; congr (_ + _ *: _).
by apply: eq_bigr => j _; rewrite E.
Qed.

Lemma plfom_bridge (R : fieldType) d N (X : 'M[R]_(d, N)) (y : 'M[R]_(1, N))
    (lambda : nat -> nat -> R) (A : nat -> 'M[R]_d) L :
  statements.memformer.plfom X y lambda (fun j => (A j)^T) L = plfom_w X y lambda A L.
Proof.
rewrite /statements.memformer.plfom /plfom_w; congr nth.
by elim: L => [|l IH] //=; rewrite IH.
Qed.

Lemma plfom_identity_bridge (R : fieldType) d N (X : 'M[R]_(d, N)) (y : 'M[R]_(1, N))
    (c : nat -> nat -> R) L :
  statements.memformer.plfom X y c (fun=> 1%:M) L = lfom_w c (ahn_grad X y) 0 L.
Proof.
rewrite /statements.memformer.plfom /lfom_w; congr nth.
elim: L => [|l IH] //=; rewrite IH; congr rcons; congr (_ - _).
by apply: eq_bigr => j _; rewrite mul1mx.
Qed.

Lemma heavy_ball_bridge (R : fieldType) d N (X : 'M[R]_(d, N)) (y : 'M[R]_(1, N))
    (eta beta : R) L :
  statements.memformer.heavy_ball X y eta beta L = heavy_ball eta beta (ahn_grad X y) 0 L.
Proof. by elim: L => [|l IH] //=; rewrite IH. Qed.

Lemma nesterov_bridge (R : fieldType) d N (X : 'M[R]_(d, N)) (y : 'M[R]_(1, N))
    (eta beta : R) L :
  statements.memformer.nesterov X y eta beta L = nesterov eta beta (ahn_grad X y) 0 L.
Proof. by elim: L => [|l IH] //=; rewrite IH. Qed.

(* ---- checks ---- *)

Lemma check_memformer__cgd_with_cg_coefficients_reproduces_cg_iterates :
  statements.memformer.claim_memformer__cgd_with_cg_coefficients_reproduces_cg_iterates.
Proof.
move=> R d N Q X Xq y L _.
rewrite (@cgd_memformer_bridge R d N Q X Xq y _ _ (cga (statements.memformer.ls_H X) (statements.memformer.ls_b X y))
          (cgg (statements.memformer.ls_H X) (statements.memformer.ls_b X y)) L (fun l => cg_alpha_bridge R d _ _ l)
          (fun l => cg_gamma_bridge R d _ _ l)).
have [-> _] := cgd_memformer_cg X Xq y (cga (statements.memformer.ls_H X) (statements.memformer.ls_b X y))
                 (cgg (statements.memformer.ls_H X) (statements.memformer.ls_b X y)) L.
by rewrite cg_form_cg /= cg_iterate_bridge.
Qed.

Lemma check_memformer__cgd_after_rank_layers_equals_min_norm_prediction :
  statements.memformer.claim_memformer__cgd_after_rank_layers_equals_min_norm_prediction.
Proof.
move=> R d N Q X Xq y L [_ [N_gt0 rL]]; split.
  exists (min_norm_ls X y); have [minW leastW] := (min_norm_least_squares_spec X y _).1 erefl.
  split=> [V | V Vmin]; first by have := minW V; rewrite /ls_loss !sqnorm_bridge.
  rewrite !sqnorm_bridge; apply: leastW => U.
  by have := Vmin U; rewrite /ls_loss !sqnorm_bridge.
move=> wplus /min_norm_ls_bridge ->.
rewrite (@cgd_memformer_bridge R d N Q X Xq y _ _ (cga (statements.memformer.ls_H X) (statements.memformer.ls_b X y))
          (cgg (statements.memformer.ls_H X) (statements.memformer.ls_b X y)) L (fun l => cg_alpha_bridge R d _ _ l)
          (fun l => cg_gamma_bridge R d _ _ l)).
rewrite (cgd_after_rank_layers_equals_min_norm Xq y N_gt0 rL).
split=> //.
by rewrite /ahn_state block_mxKdr trmxK opprK.
Qed.

Lemma check_memformer__lfom_scalar_gamma_equals_lfom :
  statements.memformer.claim_memformer__lfom_scalar_gamma_equals_lfom.
Proof.
move=> R d N Q X Xq y lambda a L _.
by rewrite lfom_memformer_bridge lfom_memformer_scalar plfom_identity_bridge.
Qed.

Lemma check_memformer__momentum_gd_is_an_lfom_memformer :
  statements.memformer.claim_memformer__momentum_gd_is_an_lfom_memformer.
Proof.
move=> R d N Q X Xq y eta beta L _.
rewrite heavy_ball_bridge model_state_bridge -(memformer_momentum X Xq y eta beta L).
by apply: lfom_memformer_ext_bridge => j l; rewrite /momentum_coeff.
Qed.

Lemma check_memformer__nesterov_is_an_lfom_memformer :
  statements.memformer.claim_memformer__nesterov_is_an_lfom_memformer.
Proof.
move=> R d N Q X Xq y eta beta L _.
rewrite nesterov_bridge model_state_bridge -(memformer_nesterov X Xq y eta beta L).
by apply: lfom_memformer_ext_bridge => j l; rewrite /nesterov_coeff.
Qed.

Lemma check_memformer__diagonal_a_reaches_only_scalings_lambda_times_a_transpose :
  statements.memformer.claim_memformer__diagonal_a_reaches_only_scalings_lambda_times_a_transpose.
Proof.
move=> R d N Q X Xq y lambda A L _; split=> [| n A' a b].
  by rewrite lfom_memformer_bridge lfom_memformer_precond plfom_bridge.
exact: lfom_precond_not_arbitrary_diagonal.
Qed.

Lemma check_memformer__nonconstant_gamma_row_breaks_the_linear_model_reading :
  statements.memformer.claim_memformer__nonconstant_gamma_row_breaks_the_linear_model_reading.
Proof.
move=> R d N Q X Xq y Gamma A W [_ [_ [nW res]]] w.
exact: (no_linear_model_certificate nW res).
Qed.
