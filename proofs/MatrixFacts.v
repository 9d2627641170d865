(* MatrixFacts.v -- matrix identities shared by the theories (one proof each).

   Main results
   - mulmx_tr_sum : A B^T = sum_(i < N) (column i of A) (column i of B)^T (any ringType); used by
       VonOswald.v (lsa_tokenwise), ShermanMorrison.v (mulmx_tr_sum_col: X X^T as a sum of
       rank-one terms) and AttentionForms.v.
   - col_mulmx : column j of A B is A (column j of B).
   - mask_gram : Z diag(I_N, 0) Z^T = C C^T for the context columns C = lsubmx Z (the masked
       products of the attention layers use the context only).

   Dependencies: mathcomp ssreflect/algebra.  No axioms. *)

From mathcomp Require Import all_ssreflect all_algebra.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import GRing.Theory.
Local Open Scope ring_scope.

Section MatrixFacts.
Variable R : ringType.

Lemma mulmx_tr_sum m1 m2 N (A : 'M[R]_(m1, N)) (B : 'M[R]_(m2, N)) :
  A *m B^T = \sum_(i < N) col i A *m (col i B)^T.
Proof.
apply/matrixP => a b; rewrite !mxE summxE.
by apply: eq_bigr => i _; rewrite !mxE big_ord1 !mxE.
Qed.

Lemma col_mulmx m n p (A : 'M[R]_(m, n)) (B : 'M[R]_(n, p)) j : col j (A *m B) = A *m col j B.
Proof. by apply/matrixP => a b; rewrite !mxE; apply: eq_bigr => k _; rewrite !mxE. Qed.

Lemma mask_gram m N Q (Z : 'M[R]_(m, N + Q)) :
  Z *m block_mx 1%:M 0 0 0 *m Z^T = lsubmx Z *m (lsubmx Z)^T.
Proof.
rewrite -[Z in LHS](hsubmxK Z) mul_row_block !mulmx1 !mulmx0 !addr0 tr_row_mx mul_row_col.
by rewrite mul0mx addr0.
Qed.

End MatrixFacts.
