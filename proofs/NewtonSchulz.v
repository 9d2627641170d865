(* NewtonSchulz.v -- one Newton-Schulz step M' = 2M - M S M in two linear-attention layers
   (Giannou, Yang, Wang, Papailiopoulos, Lee, AISTATS 2025; docs/constructions/newton_schulz.md),
   and the residual identity of the iteration.

   Tokens are the columns of E = col_mx St (col_mx M 1) (blocks A = St, B = M, C = I; St = S^T
   for the matrix S to invert).  One unmasked head of the generic layer (src/lsa/lsa_layer.hpp,
   every token a key) maps E to E + P (WV E) (WK E)^T (WQ E).  sel_A, sel_B, sel_C are the block
   selectors row_mx 1 0 ..., emb_X = sel_X^T.

   Main results
   - ns_residual_sq   : 1 - (2M - M S M) S = (1 - M S)^2 (any ring of square matrices).
   - ns_iter_residual : after k steps 1 - M_k S = (1 - M_0 S)^(2^k).
   - ns_doubling_layer   : WV = sel_B, WK = WQ = sel_C, P = emb_B maps E to
       col_mx St (col_mx (M *+ 2) 1).
   - ns_correction_layer : WV = sel_B, WK = sel_A, WQ = sel_B, P = - c emb_B maps
       col_mx St (col_mx M2 1) to col_mx St (col_mx (M2 - c (M2 St^T M2)) 1).
   - ns_two_layer_step   : with c *+ 4 = 1 (c = 1/4) the two layers map
       col_mx S^T (col_mx M 1) to col_mx S^T (col_mx (2M - M S M) 1).
   - ns_stack_iter       : 2k layers (the pair k times) give the k-th iterate ns_iter.

   Dependencies: mathcomp ssreflect/algebra.  No axioms. *)

From mathcomp Require Import all_ssreflect all_algebra.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import GRing.Theory.
Local Open Scope ring_scope.

Section NewtonSchulzIteration.
Variable R : ringType.

(* One Newton-Schulz step for the inverse of S, and k steps. *)
Definition ns_step n (S M : 'M[R]_n) : 'M[R]_n := M *+ 2 - M *m S *m M.

Fixpoint ns_iter n (S M : 'M[R]_n) k : 'M[R]_n :=
  if k is k'.+1 then ns_step S (ns_iter S M k') else M.

Lemma ns_residual_sq n (S M : 'M[R]_n.+1) :
  1 - ns_step S M * S = (1 - M * S) ^+ 2.
Proof.
rewrite /ns_step !mulmxE expr2 [(M *+ 2 - _) * S]mulrBl mulrnAl mulrBl mul1r mulrBr mulr1.
have -> : M * S * M * S = (M * S) * (M * S) by rewrite !mulrA.
move: (M * S) => x; rewrite mulr2n opprB opprD.
by rewrite opprB !addrA; congr (_ - _); exact: addrAC.
Qed.

Lemma ns_iter_residual n (S M : 'M[R]_n.+1) k :
  1 - ns_iter S M k * S = (1 - M * S) ^+ (2 ^ k).
Proof.
elim: k => [|k IH] /=; first by rewrite expr1.
by rewrite ns_residual_sq IH -exprM expnS mulnC.
Qed.

End NewtonSchulzIteration.

Section NewtonSchulzLayers.
Variable R : comRingType.
Variable n : nat.

Local Notation D := (n + (n + n))%N.

Definition sel_A : 'M[R]_(n, D) := row_mx 1%:M 0.
Definition sel_B : 'M[R]_(n, D) := row_mx 0 (row_mx 1%:M 0).
Definition sel_C : 'M[R]_(n, D) := row_mx 0 (row_mx 0 1%:M).

(* The tokens [St; M; I]. *)
Definition ns_tokens (St M : 'M[R]_n) : 'M[R]_(D, n) := col_mx St (col_mx M 1%:M).

(* One unmasked head of the generic layer: E + P (WV E) (WK E)^T (WQ E). *)
Definition lsa_unmasked m (P : 'M[R]_(m, n)) (WV WK WQ : 'M[R]_(n, m)) (E : 'M[R]_(m, n)) :=
  E + P *m ((WV *m E) *m (WK *m E)^T) *m (WQ *m E).

Lemma sel_A_tokens St M : sel_A *m ns_tokens St M = St.
Proof. by rewrite /sel_A /ns_tokens mul_row_col mul1mx mul0mx addr0. Qed.

Lemma sel_B_tokens St M : sel_B *m ns_tokens St M = M.
Proof.
by rewrite /sel_B /ns_tokens !mul_row_col mul1mx !mul0mx add0r addr0.
Qed.

Lemma sel_C_tokens St M : sel_C *m ns_tokens St M = 1%:M.
Proof.
by rewrite /sel_C /ns_tokens !mul_row_col mul1mx !mul0mx !add0r.
Qed.

(* Writing X into the B block: E + emb_B X. *)
Lemma emb_B_add St M (X : 'M[R]_n) :
  ns_tokens St M + sel_B^T *m X = ns_tokens St (M + X).
Proof.
rewrite /sel_B /ns_tokens !tr_row_mx trmx0 trmx1 !mul_col_mx mul1mx !mul0mx.
by rewrite !add_col_mx !addr0.
Qed.

Lemma ns_doubling_layer St M :
  lsa_unmasked sel_B^T sel_B sel_C sel_C (ns_tokens St M) = ns_tokens St (M *+ 2).
Proof.
by rewrite /lsa_unmasked sel_B_tokens sel_C_tokens trmx1 !mulmx1 emb_B_add mulr2n.
Qed.

Lemma ns_correction_layer c St M2 :
  lsa_unmasked (- c *: sel_B^T) sel_B sel_A sel_B (ns_tokens St M2)
  = ns_tokens St (M2 - c *: (M2 *m St^T *m M2)).
Proof.
rewrite /lsa_unmasked sel_A_tokens sel_B_tokens -mulmxA -scalemxAl scalemxAr emb_B_add.
by rewrite scaleNr.
Qed.

Lemma ns_two_layer_step c S M : c *+ 4 = 1 ->
  lsa_unmasked (- c *: sel_B^T) sel_B sel_A sel_B
    (lsa_unmasked sel_B^T sel_B sel_C sel_C (ns_tokens S^T M))
  = ns_tokens S^T (ns_step S M).
Proof.
move=> c4; rewrite ns_doubling_layer ns_correction_layer trmxK /ns_step.
congr (ns_tokens _ (_ - _)).
have -> : M *+ 2 *m S *m (M *+ 2) = (M *m S *m M) *+ 4.
  by rewrite mulr2n !mulmxDl !mulmxDr !mulrS mulr0n addr0 !addrA.
by rewrite -scalerMnr scalerMnl c4 scale1r.
Qed.

(* The stack: the pair of layers applied k times. *)
Fixpoint ns_stack c k (E : 'M[R]_(D, n)) : 'M[R]_(D, n) :=
  if k is k'.+1 then
    lsa_unmasked (- c *: sel_B^T) sel_B sel_A sel_B
      (lsa_unmasked sel_B^T sel_B sel_C sel_C (ns_stack c k' E))
  else E.

Lemma ns_stack_iter c S M0 k : c *+ 4 = 1 ->
  ns_stack c k (ns_tokens S^T M0) = ns_tokens S^T (ns_iter S M0 k).
Proof.
move=> c4; elim: k => [|k IH] //=.
by rewrite IH ns_two_layer_step.
Qed.

End NewtonSchulzLayers.

Arguments sel_A {R n}.
Arguments sel_B {R n}.
Arguments sel_C {R n}.
