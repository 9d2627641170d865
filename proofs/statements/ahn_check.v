(* The project's theorems prove the statements of ahn.v (issue 37): each check_<p> has exactly
   the type ICLProof.statements.ahn.claim_<p>; the bridge from AhnLemma1.v's definitions to the
   statement file's is proved here. *)

From mathcomp Require Import all_ssreflect all_algebra.
From ICLProof Require Import AhnLemma1.
From ICLProof Require statements.ahn.

Import GRing.Theory.
Local Open Scope ring_scope.

(* Bridge: the statement file's head, layer, stack, gradient and iterate are AhnLemma1's. *)
Lemma zform_head_bridge (R : fieldType) d N Q (P Qm : 'M[R]_(d + 1)) (Z : 'M[R]_(d + 1, N + Q)) :
  statements.ahn.zform_head P Qm Z = ahn_attn P Qm Z.
Proof. by []. Qed.

Lemma zform_stack_bridge (R : fieldType) d N Q H (A : nat -> 'I_H -> 'M[R]_d) L
    (Z : 'M[R]_(d + 1, N + Q)) :
  statements.ahn.zform_stack (fun _ _ => ahn_P 0) (fun l h => ahn_Q (A l h)) L Z
    = ahn_stack_mh A L Z.
Proof. by elim: L => [|l IH] //=; rewrite IH. Qed.

Lemma precond_gd_bridge (R : fieldType) d N (X : 'M[R]_(d, N)) (y : 'M[R]_(1, N))
    (Pre : nat -> 'M[R]_d) L :
  statements.ahn.precond_gd X y Pre L = ahn_w X y Pre L.
Proof. by elim: L => [|l IH] //=; rewrite IH. Qed.

Lemma check_ahn__lemma1_layers_run_preconditioned_gd_with_a_transpose :
  statements.ahn.claim_ahn__lemma1_layers_run_preconditioned_gd_with_a_transpose.
Proof.
move=> R d N Q H L A _ P Qm Pre.
have -> : P = fun _ _ => ahn_P 0 by [].
have -> : Qm = fun l h => ahn_Q (A l h) by [].
split=> [X Xq y | X xq y].
  by rewrite zform_stack_bridge precond_gd_bridge ahn_lemma1_multihead.
by rewrite zform_stack_bridge precond_gd_bridge ahn_lemma1_multihead_readout opprK.
Qed.

Lemma check_ahn__x_rows_follow_the_sheet_formula_when_b_is_nonzero :
  statements.ahn.claim_ahn__x_rows_follow_the_sheet_formula_when_b_is_nonzero.
Proof.
move=> R d N Q A B _ X Xq y yq.
rewrite /statements.ahn.zform_layer big_ord1 zform_head_bridge.
exact: (ahn_lemma1_x_rows A B X Xq y yq).
Qed.
