(* GiannouNewton.v -- Giannou, Yang, Wang, Papailiopoulos, Lee (AISTATS 2025; arXiv 2403.03183
   v1), Lemma 4.1 with its resources (2 linear-attention layers, 2 heads each, width 4d, one
   Newton step X_1 = X_0 (2 I - A X_0) for any square A), its one-layer symmetric case, and the
   register algebra of Theorem 4.2's linear-regression transformer
   (docs/constructions/newton_schulz.md; src/newton_schulz/giannou_weights.hpp). The token
   layouts are ours (the paper's display equations were not readable).

   Tokens of Lemma 4.1: the d columns of E = [X; A; I; Z] (row blocks X, A, C = I, Z), width 4d.
   A head of the generic layer (src/lsa/lsa_layer.hpp, every token a key) adds
   P (WV E) (WK E)^T (WQ E); a layer adds the sum of its heads to E (g_layer).

   Main results
   - g41_first_layer   : heads (emb_Z; V = C, K = A, Q = C) and (emb_X; V = X, K = C, Q = C)
       map [X; A; I; 0] to [2X; A; I; A^T].
   - g41_second_layer  : heads (-c emb_X; V = X, K = Z, Q = X) and (-emb_Z; V = C, K = A, Q = C)
       map [X2; A; I; A^T] to [X2 - c X2 A X2; A; I; 0].
   - g41_two_layer_step : with c *+ 4 = 1 the two layers map [X; A; I; 0] to
       [ns_step A X; A; I; 0], ns_step A X = 2X - X A X = X (2 I - A X) (g41_newton_form).
   - g41_stack_iter    : k copies of the pair give [ns_iter A X0 k; A; I; 0].
   - g41_symmetric_layer_any : the one layer (emb_X; V = X, K = C, Q = C) and
       (-emb_X; V = X, K = A, Q = X) maps [X; A; I; Z] to [2X - X A^T X; A; I; Z] for any A;
     g41_symmetric_layer : for A^T = A that is [ns_step A X; A; I; Z].
   - g42_newton_heads  : on register blocks (C = I, R, X) the two heads give X + X - X R^T X,
       = ns_step R X when R^T = R.
   - g42_readout       : y (X At)^T q = (q^T X (At y^T))^T: the read-out's value
       sum_i y_i (X a_i)^T q is the prediction q^T X A^T y (a 1 x 1 matrix, g42_scalar_tr).

   Dependencies: mathcomp ssreflect/algebra, NewtonSchulz (ns_step, ns_iter). No axioms. *)

From mathcomp Require Import all_ssreflect all_algebra.
From ICLProof Require Import NewtonSchulz.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import GRing.Theory.
Local Open Scope ring_scope.

Section GiannouLemma41.
Variable R : comRingType.
Variable n : nat.

Local Notation D := (n + (n + (n + n)))%N.

Definition g_sel_X : 'M[R]_(n, D) := row_mx 1%:M 0.
Definition g_sel_A : 'M[R]_(n, D) := row_mx 0 (row_mx 1%:M 0).
Definition g_sel_C : 'M[R]_(n, D) := row_mx 0 (row_mx 0 (row_mx 1%:M 0)).
Definition g_sel_Z : 'M[R]_(n, D) := row_mx 0 (row_mx 0 (row_mx 0 1%:M)).

Definition g_tokens (X A Z : 'M[R]_n) : 'M[R]_(D, n) := col_mx X (col_mx A (col_mx 1%:M Z)).

(* One head's update (no residual) and a layer of two heads with the residual. *)
Definition g_head (P : 'M[R]_(D, n)) (WV WK WQ : 'M[R]_(n, D)) (E : 'M[R]_(D, n)) :=
  P *m ((WV *m E) *m (WK *m E)^T) *m (WQ *m E).

Definition g_layer P1 V1 K1 Q1 P2 V2 K2 Q2 (E : 'M[R]_(D, n)) :=
  E + g_head P1 V1 K1 Q1 E + g_head P2 V2 K2 Q2 E.

Lemma g_sel_X_tokens X A Z : g_sel_X *m g_tokens X A Z = X.
Proof. by rewrite /g_sel_X /g_tokens mul_row_col mul1mx mul0mx addr0. Qed.

Lemma g_sel_A_tokens X A Z : g_sel_A *m g_tokens X A Z = A.
Proof. by rewrite /g_sel_A /g_tokens !mul_row_col mul1mx !mul0mx add0r addr0. Qed.

Lemma g_sel_C_tokens X A Z : g_sel_C *m g_tokens X A Z = 1%:M.
Proof. by rewrite /g_sel_C /g_tokens !mul_row_col mul1mx !mul0mx !add0r addr0. Qed.

Lemma g_sel_Z_tokens X A Z : g_sel_Z *m g_tokens X A Z = Z.
Proof. by rewrite /g_sel_Z /g_tokens !mul_row_col mul1mx !mul0mx !add0r. Qed.

Lemma g_emb_X X A Z (Y : 'M[R]_n) : g_tokens X A Z + g_sel_X^T *m Y = g_tokens (X + Y) A Z.
Proof.
rewrite /g_sel_X /g_tokens tr_row_mx trmx0 trmx1 mul_col_mx mul1mx mul0mx.
by rewrite add_col_mx addr0.
Qed.

Lemma g_emb_Z X A Z (Y : 'M[R]_n) : g_tokens X A Z + g_sel_Z^T *m Y = g_tokens X A (Z + Y).
Proof.
rewrite /g_sel_Z /g_tokens !tr_row_mx !trmx0 trmx1 !mul_col_mx mul1mx !mul0mx.
by rewrite !add_col_mx !addr0.
Qed.

Lemma g_head_scale (c : R) P V K Q E : g_head (c *: P) V K Q E = c *: g_head P V K Q E.
Proof. by rewrite /g_head -!scalemxAl. Qed.

Lemma g_head_opp P V K Q E : g_head (- P) V K Q E = - g_head P V K Q E.
Proof. by rewrite /g_head !mulNmx. Qed.

Lemma g_head_emb P V K Q E : g_head P V K Q E = P *m ((V *m E) *m (K *m E)^T *m (Q *m E)).
Proof. by rewrite /g_head !mulmxA. Qed.

Theorem g41_first_layer (X A : 'M[R]_n) :
  g_layer g_sel_Z^T g_sel_C g_sel_A g_sel_C g_sel_X^T g_sel_X g_sel_C g_sel_C (g_tokens X A 0)
  = g_tokens (X *+ 2) A A^T.
Proof.
rewrite /g_layer !g_head_emb g_sel_C_tokens g_sel_A_tokens g_sel_X_tokens trmx1 !mulmx1 mul1mx.
by rewrite g_emb_Z add0r g_emb_X mulr2n.
Qed.

Theorem g41_second_layer (c : R) (X2 A : 'M[R]_n) :
  g_layer (- c *: g_sel_X^T) g_sel_X g_sel_Z g_sel_X (- g_sel_Z^T) g_sel_C g_sel_A g_sel_C
    (g_tokens X2 A A^T)
  = g_tokens (X2 - c *: (X2 *m A *m X2)) A 0.
Proof.
rewrite /g_layer g_head_scale g_head_opp !g_head_emb g_sel_X_tokens g_sel_Z_tokens.
rewrite g_sel_C_tokens g_sel_A_tokens trmxK mulmx1 mul1mx.
by rewrite scaleNr scalemxAr -[in X in X - _ = _]mulmxN g_emb_X -mulmxN g_emb_Z subrr.
Qed.

Lemma g41_newton_form (A X : 'M[R]_n) : ns_step A X = X *m (2%:R%:M - A *m X).
Proof.
by rewrite /ns_step mulmxBr mul_mx_scalar scaler_nat mulmxA.
Qed.

Theorem g41_two_layer_step (c : R) (A X : 'M[R]_n) : c *+ 4 = 1 ->
  g_layer (- c *: g_sel_X^T) g_sel_X g_sel_Z g_sel_X (- g_sel_Z^T) g_sel_C g_sel_A g_sel_C
    (g_layer g_sel_Z^T g_sel_C g_sel_A g_sel_C g_sel_X^T g_sel_X g_sel_C g_sel_C (g_tokens X A 0))
  = g_tokens (ns_step A X) A 0.
Proof.
move=> c4; rewrite g41_first_layer g41_second_layer /ns_step.
congr (g_tokens (_ - _) _ _).
have -> : X *+ 2 *m A *m (X *+ 2) = (X *m A *m X) *+ 4.
  by rewrite mulr2n !mulmxDl !mulmxDr !mulrS mulr0n addr0 !addrA.
by rewrite -scalerMnr scalerMnl c4 scale1r.
Qed.

(* The stack: the pair of layers applied k times. *)
Fixpoint g41_stack c k (E : 'M[R]_(D, n)) : 'M[R]_(D, n) :=
  if k is k'.+1 then
    g_layer (- c *: g_sel_X^T) g_sel_X g_sel_Z g_sel_X (- g_sel_Z^T) g_sel_C g_sel_A g_sel_C
      (g_layer g_sel_Z^T g_sel_C g_sel_A g_sel_C g_sel_X^T g_sel_X g_sel_C g_sel_C
        (g41_stack c k' E))
  else E.

Theorem g41_stack_iter c (A X0 : 'M[R]_n) k : c *+ 4 = 1 ->
  g41_stack c k (g_tokens X0 A 0) = g_tokens (ns_iter A X0 k) A 0.
Proof. by move=> c4; elim: k => [|k IH] //=; rewrite IH g41_two_layer_step. Qed.

Theorem g41_symmetric_layer_any (X A Z : 'M[R]_n) :
  g_layer g_sel_X^T g_sel_X g_sel_C g_sel_C (- g_sel_X^T) g_sel_X g_sel_A g_sel_X (g_tokens X A Z)
  = g_tokens (X *+ 2 - X *m A^T *m X) A Z.
Proof.
rewrite /g_layer g_head_opp !g_head_emb g_sel_X_tokens g_sel_C_tokens g_sel_A_tokens.
rewrite trmx1 !mulmx1 g_emb_X -mulmxN g_emb_X.
by rewrite mulr2n.
Qed.

Theorem g41_symmetric_layer (X A Z : 'M[R]_n) : A^T = A ->
  g_layer g_sel_X^T g_sel_X g_sel_C g_sel_C (- g_sel_X^T) g_sel_X g_sel_A g_sel_X (g_tokens X A Z)
  = g_tokens (ns_step A X) A Z.
Proof. by move=> sA; rewrite g41_symmetric_layer_any sA. Qed.

End GiannouLemma41.

Section GiannouTheorem42.
Variable R : comRingType.

(* A Newton layer on the registers: the values X e_i, keys e_i (C) and R e_i, queries e_j and
   X e_j give X + X I^T I - X R^T X. *)
Theorem g42_newton_heads n (Rm Xm : 'M[R]_n) : Rm^T = Rm ->
  Xm + Xm *m (1%:M)^T *m 1%:M - Xm *m Rm^T *m Xm = ns_step Rm Xm.
Proof. by move=> sR; rewrite trmx1 !mulmx1 sR /ns_step mulr2n. Qed.

(* The read-out: the query q receives sum_i y_i (X a_i)^T q = y (X At)^T q (At = A^T, columns
   a_i), the transpose of q^T X A^T y. *)
Theorem g42_readout d N (Xm : 'M[R]_d) (At : 'M[R]_(d, N)) (y : 'M[R]_(1, N)) (q : 'M[R]_(d, 1)) :
  y *m (Xm *m At)^T *m q = (q^T *m Xm *m (At *m y^T))^T.
Proof. by rewrite !trmx_mul !trmxK !mulmxA. Qed.

Lemma g42_scalar_tr (M : 'M[R]_1) : M^T = M.
Proof. by rewrite [M]mx11_scalar tr_scalar_mx. Qed.

End GiannouTheorem42.
