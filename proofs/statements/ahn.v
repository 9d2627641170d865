(* Statements of the family ahn (Ahn et al. 2024, Lemma 1, in the Z-form of the Memformer paper),
   read by people: plain mathcomp, no project theory.  Checked against the project's theorems
   in ahn_check.v.

   Conventions: Z is the (d + 1) x (N + Q) token matrix [[X, Xq], [y, yq]], columns are tokens,
   the first N columns are the context, the last Q the queries. *)

From mathcomp Require Import all_ssreflect all_algebra.

Import GRing.Theory Num.Theory.
Local Open Scope ring_scope.

(* The mask M = diag(I_N, 0_Q): only the N context columns act as keys and values. *)
Definition context_mask {R : ringType} (N Q : nat) : 'M[R]_(N + Q) := block_mx 1%:M 0 0 0.

(* One Z-form attention head: Attn_(P,Qm)(Z) = P Z M (Z^T Qm Z). *)
Definition zform_head {R : ringType} {d N Q : nat} (P Qm : 'M[R]_(d + 1))
    (Z : 'M[R]_(d + 1, N + Q)) : 'M[R]_(d + 1, N + Q) :=
  P *m Z *m context_mask N Q *m (Z^T *m Qm *m Z).

(* One layer of H heads, outputs summed: Z + (1/N) sum_h Attn_(P_h, Qm_h)(Z). *)
Definition zform_layer {R : fieldType} {d N Q H : nat} (P Qm : 'I_H -> 'M[R]_(d + 1))
    (Z : 'M[R]_(d + 1, N + Q)) : 'M[R]_(d + 1, N + Q) :=
  Z + (N%:R)^-1 *: \sum_(h < H) zform_head (P h) (Qm h) Z.

(* L such layers, layer l with the heads (P l h, Qm l h). *)
Fixpoint zform_stack {R : fieldType} {d N Q H : nat} (P Qm : nat -> 'I_H -> 'M[R]_(d + 1))
    (L : nat) (Z : 'M[R]_(d + 1, N + Q)) : 'M[R]_(d + 1, N + Q) :=
  if L is l.+1 then zform_layer (P l) (Qm l) (zform_stack P Qm l Z) else Z.

(* The gradient of R(w) = 1/(2N) ||X^T w - y^T||^2: grad R(w) = (1/N) X (X^T w - y^T). *)
Definition risk_grad {R : fieldType} {d N : nat} (X : 'M[R]_(d, N)) (y : 'M[R]_(1, N))
    (w : 'cV[R]_d) : 'cV[R]_d :=
  (N%:R)^-1 *: (X *m (X^T *m w - y^T)).

(* Preconditioned GD from w_0 = 0: w_(l+1) = w_l - (Pre l)^T grad R(w_l). *)
Fixpoint precond_gd {R : fieldType} {d N : nat} (X : 'M[R]_(d, N)) (y : 'M[R]_(1, N))
    (Pre : nat -> 'M[R]_d) (L : nat) : 'cV[R]_d :=
  if L is l.+1 then
    precond_gd X y Pre l - (Pre l)^T *m risk_grad X y (precond_gd X y Pre l)
  else 0.

(* ahn.lemma1_layers_run_preconditioned_gd_with_a_transpose:
   "L Z-form layers with P = [[0,0],[0,1]], Q = -[[A_lh,0],[0,0]] (A general, non-symmetric,
   heads summed) leave the x-rows unchanged and hold y_i - <x_i, w_l> in the last row, with
   w_{l+1} = w_l - (sum_h A_lh)^T grad R(w_l), w_0 = 0, noisy labels included; the read-out
   -Z_L[d, N] is <x_q, w_L>."
   Covers: any field, any d, N, Q, H, L, any A_lh and any labels y (so noisy ones); the whole
   token matrix after L layers (x-rows, context and query y-entries), and the read-out for one
   query.  Wider than the property (which draws 1-3 heads, one query, rationals or reals). *)
Definition premises_ahn__lemma1_layers_run_preconditioned_gd_with_a_transpose
    (d N H L : nat) : Prop :=
  (1 <= d)%N /\ (1 <= N)%N /\ (1 <= H)%N /\ (1 <= L)%N.

Definition claim_ahn__lemma1_layers_run_preconditioned_gd_with_a_transpose : Prop :=
  forall (R : fieldType) (d N Q H L : nat) (A : nat -> 'I_H -> 'M[R]_d),
  premises_ahn__lemma1_layers_run_preconditioned_gd_with_a_transpose d N H L ->
  let P := fun (l : nat) (h : 'I_H) => block_mx (0 : 'M[R]_d) 0 0 (1%:M : 'M[R]_1) in
  let Qm := fun (l : nat) (h : 'I_H) => - block_mx (A l h) 0 0 (0 : 'M[R]_1) in
  let Pre := fun l => \sum_(h < H) A l h in
  (forall (X : 'M[R]_(d, N)) (Xq : 'M[R]_(d, Q)) (y : 'M[R]_(1, N)),
     zform_stack P Qm L (block_mx X Xq y 0)
       = block_mx X Xq (y - (precond_gd X y Pre L)^T *m X) (- ((precond_gd X y Pre L)^T *m Xq)))
  /\
  (forall (X : 'M[R]_(d, N)) (xq : 'cV[R]_d) (y : 'M[R]_(1, N)),
     - (zform_stack (Q := 1) P Qm L (block_mx X xq y 0)) (rshift d ord0) (rshift N ord0)
       = ((precond_gd X y Pre L)^T *m xq) ord0 ord0).

Lemma witness_ahn__lemma1_layers_run_preconditioned_gd_with_a_transpose :
  premises_ahn__lemma1_layers_run_preconditioned_gd_with_a_transpose 2 2 2 2.
Proof. by []. Qed.

(* ahn.x_rows_follow_the_sheet_formula_when_b_is_nonzero:
   "With B_l != 0 the rows move as X_{l+1} = X_l - (1/N) B_l Xbar_l Xbar_l^T A_l X_l and
   Y_{l+1} = Y_l - (1/N) Ybar_l Xbar_l^T A_l X_l (bars: context columns)."
   Covers: one layer with P = [[B,0],[0,1]], Q = -[[A,0],[0,0]], any field, d, N, Q, any A, B
   and ANY input token matrix [[X, Xq], [y, yq]] (so every layer of a stack, whose input is the
   previous layer's output): X, y are the bars (context), [X, Xq] and [y, yq] are X_l, Y_l.
   The premise B != 0 is the property's case; the identity holds for B = 0 as well. *)
Definition premises_ahn__x_rows_follow_the_sheet_formula_when_b_is_nonzero
    {R : fieldType} (d N : nat) (B : 'M[R]_d) : Prop :=
  (1 <= d)%N /\ (1 <= N)%N /\ B != 0.

Definition claim_ahn__x_rows_follow_the_sheet_formula_when_b_is_nonzero : Prop :=
  forall (R : fieldType) (d N Q : nat) (A B : 'M[R]_d),
  premises_ahn__x_rows_follow_the_sheet_formula_when_b_is_nonzero d N B ->
  forall (X : 'M[R]_(d, N)) (Xq : 'M[R]_(d, Q)) (y : 'M[R]_(1, N)) (yq : 'M[R]_(1, Q)),
  zform_layer (H := 1) (fun=> block_mx B 0 0 (1%:M : 'M[R]_1))
                       (fun=> - block_mx A 0 0 (0 : 'M[R]_1)) (block_mx X Xq y yq)
    = block_mx (X - (N%:R)^-1 *: (B *m X *m X^T *m A *m X))
               (Xq - (N%:R)^-1 *: (B *m X *m X^T *m A *m Xq))
               (y - (N%:R)^-1 *: (y *m X^T *m A *m X))
               (yq - (N%:R)^-1 *: (y *m X^T *m A *m Xq)).

Lemma witness_ahn__x_rows_follow_the_sheet_formula_when_b_is_nonzero :
  premises_ahn__x_rows_follow_the_sheet_formula_when_b_is_nonzero 2 2 (1%:M : 'M[rat]_2).
Proof.
split; first by []; split; first by [].
by apply/eqP => /matrixP /(_ ord0 ord0); rewrite !mxE.
Qed.
