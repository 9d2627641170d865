(* The project's theorems prove the statements of newton_schulz.v (issue 37): each check_<p> has
   exactly the type ICLProof.statements.newton_schulz.claim_<p>; the bridge from NewtonSchulz.v's
   and GiannouNewton.v's definitions to the statement file's is proved here. *)

From mathcomp Require Import all_ssreflect all_algebra.
From ICLProof Require Import NewtonSchulz GiannouNewton.
From ICLProof Require statements.newton_schulz.

Import GRing.Theory.
Local Open Scope ring_scope.


(* Bridge: the Newton step and its iterates are NewtonSchulz.v's ns_step and ns_iter. *)
Lemma newton_step_bridge (R : ringType) n (A X : 'M[R]_n) : statements.newton_schulz.newton_step A X = ns_step A X.
Proof. by []. Qed.

Lemma newton_iter_bridge (R : ringType) n (A X0 : 'M[R]_n) k :
  statements.newton_schulz.newton_iter A X0 k = ns_iter A X0 k.
Proof. by elim: k => [|k IH] //=; rewrite IH. Qed.

(* Bridge: Lemma 4.1's tokens, selectors and layers are GiannouNewton.v's. *)
Lemma g41_layer1_bridge (R : comRingType) n (E : 'M[R]_(n + (n + (n + n)), n)) :
  statements.newton_schulz.g41_layer1 E
  = g_layer (g_sel_Z R n)^T (g_sel_C R n) (g_sel_A R n) (g_sel_C R n) (g_sel_X R n)^T (g_sel_X R n) (g_sel_C R n) (g_sel_C R n) E.
Proof. by []. Qed.

Lemma g41_layer2_bridge (R : comRingType) n (c : R) (E : 'M[R]_(n + (n + (n + n)), n)) :
  statements.newton_schulz.g41_layer2 c E
  = g_layer (- c *: (g_sel_X R n)^T) (g_sel_X R n) (g_sel_Z R n) (g_sel_X R n) (- (g_sel_Z R n)^T) (g_sel_C R n) (g_sel_A R n) (g_sel_C R n) E.
Proof. by []. Qed.

Lemma g41_sym_layer_bridge (R : comRingType) n (E : 'M[R]_(n + (n + (n + n)), n)) :
  statements.newton_schulz.g41_sym_layer E
  = g_layer (g_sel_X R n)^T (g_sel_X R n) (g_sel_C R n) (g_sel_C R n) (- (g_sel_X R n)^T) (g_sel_X R n) (g_sel_A R n) (g_sel_X R n) E.
Proof. by []. Qed.

Lemma g_tokens_bridge (R : comRingType) n (X A Z : 'M[R]_n) :
  statements.newton_schulz.g_tokens X A Z = g_tokens X A Z.
Proof. by []. Qed.

Lemma g41_stack_bridge (R : comRingType) n (c : R) k (E : 'M[R]_(n + (n + (n + n)), n)) :
  statements.newton_schulz.g41_stack c k E = g41_stack c k E.
Proof.
by elim: k => [|k IH] //=; rewrite g41_layer2_bridge g41_layer1_bridge IH.
Qed.

(* Bridge: the one-head variant's tokens and layers are NewtonSchulz.v's. *)
Lemma ns_tokens_bridge (R : comRingType) n (St M : 'M[R]_n) :
  statements.newton_schulz.ns_tokens St M = ns_tokens St M.
Proof. by []. Qed.

Lemma ns_doubling_bridge (R : comRingType) n (E : 'M[R]_(n + (n + n), n)) :
  statements.newton_schulz.ns_doubling E = lsa_unmasked sel_B^T sel_B sel_C sel_C E.
Proof. by []. Qed.

Lemma ns_correction_bridge (R : comRingType) n (c : R) (E : 'M[R]_(n + (n + n), n)) :
  statements.newton_schulz.ns_correction c E = lsa_unmasked (- c *: sel_B^T) sel_B sel_A sel_B E.
Proof. by []. Qed.

Lemma ns_stack_bridge (R : comRingType) n (c : R) k (E : 'M[R]_(n + (n + n), n)) :
  statements.newton_schulz.ns_stack c k E = ns_stack c k E.
Proof.
by elim: k => [|k IH] //=; rewrite ns_correction_bridge ns_doubling_bridge IH.
Qed.

Lemma check_newton_schulz__giannou_lemma_4_1_two_layers_of_two_heads_width_4d_step_any_square_a :
  statements.newton_schulz.claim_newton_schulz__giannou_lemma_4_1_two_layers_of_two_heads_width_4d_step_any_square_a.
Proof.
move=> R n c [_ c4] X A.
rewrite g41_layer1_bridge g41_layer2_bridge !g_tokens_bridge g41_two_layer_step //.
by rewrite g41_newton_form.
Qed.

Lemma check_newton_schulz__giannou_lemma_4_1_stack_squares_the_residual_from_x0_eps_a_transpose :
  statements.newton_schulz.claim_newton_schulz__giannou_lemma_4_1_stack_squares_the_residual_from_x0_eps_a_transpose.
Proof.
move=> R n k c [_ [_ c4]] A X0.
rewrite g41_stack_bridge !g_tokens_bridge newton_iter_bridge g41_stack_iter //.
by split=> //; rewrite !mulmxE; exact: ns_iter_residual.
Qed.

Lemma check_newton_schulz__giannou_symmetric_a_one_layer_of_two_heads_gives_the_step :
  statements.newton_schulz.claim_newton_schulz__giannou_symmetric_a_one_layer_of_two_heads_gives_the_step.
Proof.
move=> R n A [_ sA] X Z.
by rewrite g41_sym_layer_bridge !g_tokens_bridge g41_symmetric_layer // g41_newton_form.
Qed.

Lemma check_newton_schulz__giannou_one_layer_on_a_non_symmetric_a_gives_2x_minus_x_a_transpose_x :
  statements.newton_schulz.claim_newton_schulz__giannou_one_layer_on_a_non_symmetric_a_gives_2x_minus_x_a_transpose_x.
Proof.
move=> R n A _ X Z.
rewrite g41_sym_layer_bridge !g_tokens_bridge g41_symmetric_layer_any; split=> //.
rewrite /statements.newton_schulz.newton_step mulmxBr mulmxBl.
split=> [e | e].
  by apply/eqP; rewrite subr_eq0; apply/eqP; apply: oppr_inj; apply: (addrI (X *+ 2)).
by congr (_ - _); apply/eqP; rewrite -subr_eq0 -oppr_eq0 opprB e.
Qed.

Lemma check_newton_schulz__first_layer_doubles_the_iterate_exactly :
  statements.newton_schulz.claim_newton_schulz__first_layer_doubles_the_iterate_exactly.
Proof.
move=> R n _ St M.
by rewrite ns_doubling_bridge !ns_tokens_bridge ns_doubling_layer.
Qed.

Lemma check_newton_schulz__two_layers_compute_one_newton_schulz_step :
  statements.newton_schulz.claim_newton_schulz__two_layers_compute_one_newton_schulz_step.
Proof.
move=> R n c [_ c4] Sm M.
by rewrite ns_doubling_bridge ns_correction_bridge !ns_tokens_bridge ns_two_layer_step.
Qed.

Lemma check_newton_schulz__stack_of_2k_layers_holds_the_kth_iterate :
  statements.newton_schulz.claim_newton_schulz__stack_of_2k_layers_holds_the_kth_iterate.
Proof.
move=> R n k c [_ [_ c4]] Sm M0.
by rewrite ns_stack_bridge !ns_tokens_bridge newton_iter_bridge ns_stack_iter.
Qed.

Lemma check_newton_schulz__residual_of_the_stack_is_the_2_to_the_k_power :
  statements.newton_schulz.claim_newton_schulz__residual_of_the_stack_is_the_2_to_the_k_power.
Proof.
move=> R n k c [_ [_ c4]] Sm M0.
rewrite ns_stack_bridge !ns_tokens_bridge newton_iter_bridge ns_stack_iter //.
by split=> //; rewrite !mulmxE; exact: ns_iter_residual.
Qed.
