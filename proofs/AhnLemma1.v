(* AhnLemma1.v -- Ahn et al. 2024, Lemma 1, in the Z-form restated by the Memformer paper
   (eqs 2-12): linear attention layers on Z = [[X, Xq], [y, yq]] run preconditioned GD.

   Z is (d + 1) x (N + Q): N context columns, Q query columns (the paper: Q = 1).
     M = diag(I_N, 0),  Attn_(P,Q)(Z) = P Z M (Z^T Q Z),  Z_(l+1) = Z_l + (1/N) Attn(Z_l),
     P_l = [[B_l, 0], [0, 1]],  Q_l = -[[A_l, 0], [0, 0]],  TF_L = -[Z_L]_(d+1, N+1).
     R(w) = 1/(2N) ||X^T w - y^T||^2,  grad R(w) = (1/N) X (X^T w - y^T).

   Main results
   - ahn_attn_block : Attn_(P,Q)(Z) = -[[B X X^T A X, B X X^T A Xq], [y X^T A X, y X^T A Xq]].
   - ahn_lemma1_x_rows : one layer with any A, B:
       X' = X - (1/N) B X X^T A X,   Xq' = Xq - (1/N) B X X^T A Xq      (x-rows)
       y' = y - (1/N) y X^T A X,     yq' = yq - (1/N) y X^T A Xq        (y-row)
     (the products X X^T and y X^T use the context columns only: the mask M).
   - ahn_lemma1 : B_l = 0 for all l, arbitrary d, N, Q, L and arbitrary (non-symmetric) A_l,
       any labels y (noise-free not assumed): from Z_0 = [[X, Xq], [y, 0]],
       Z_L = [[X, Xq], [y - w_L^T X, - w_L^T Xq]] with w_0 = 0,
       w_(l+1) = w_l - A_l^T grad R(w_l)   (induction over layers).
   - ahn_lemma1_readout : Q = 1: the bottom-right entry of Z_L is -<x_q, w_L>, so TF_L = <x_q, w_L>.
   - ahn_lemma1_multihead : H heads per layer, outputs summed (z_form_transformer.hpp's
       multi_head_attention), Z_(l+1) = Z_l + (1/N) sum_h Attn_(P_0, Q_(A_lh))(Z_l), any H, L,
       d, N, Q, general A_lh: Z_L = [[X, Xq], [y - w_L^T X, - w_L^T Xq]] for
       w_(l+1) = w_l - (sum_h A_lh)^T grad R(w_l), w_0 = 0 (ahn_layer_mh_sum: the H-head layer
       is the one-head layer with A = sum_h A_h; then ahn_lemma1).
   - ahn_lemma1_multihead_readout : its read-out, TF_L = <x_q, w_L>.

   Dependencies: mathcomp ssreflect/algebra.  No axioms. *)

From mathcomp Require Import all_ssreflect all_algebra.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import GRing.Theory Num.Theory.
Local Open Scope ring_scope.

Section AhnLemma1.
Variable R : fieldType.
Variables d N Q : nat.

Definition ahn_mask : 'M[R]_(N + Q) := block_mx 1%:M 0 0 0.

Definition ahn_attn (P Qm : 'M[R]_(d + 1)) (Z : 'M[R]_(d + 1, N + Q)) :=
  P *m Z *m ahn_mask *m (Z^T *m Qm *m Z).

Definition ahn_layer (P Qm : 'M[R]_(d + 1)) (Z : 'M[R]_(d + 1, N + Q)) :=
  Z + (N%:R)^-1 *: ahn_attn P Qm Z.

Definition ahn_P (B : 'M[R]_d) : 'M[R]_(d + 1) := block_mx B 0 0 1%:M.
Definition ahn_Q (A : 'M[R]_d) : 'M[R]_(d + 1) := - block_mx A 0 0 0.

(* The attention term itself: the mask keeps the context columns X, y only. *)
Lemma ahn_attn_block (A B : 'M[R]_d) (X : 'M[R]_(d, N)) (Xq : 'M[R]_(d, Q))
    (y : 'M[R]_(1, N)) (yq : 'M[R]_(1, Q)) :
  ahn_attn (ahn_P B) (ahn_Q A) (block_mx X Xq y yq)
    = - block_mx (B *m X *m X^T *m A *m X) (B *m X *m X^T *m A *m Xq)
                 (y *m X^T *m A *m X) (y *m X^T *m A *m Xq).
Proof.
rewrite /ahn_attn /ahn_P /ahn_Q /ahn_mask tr_block_mx.
rewrite !mulmx_block ?mulmx0 ?mul0mx ?mulmx1 ?mul1mx ?addr0 ?add0r.
rewrite ?mulmxN ?mulNmx !mulmx_block ?mulmx0 ?mul0mx ?mulmx1 ?mul1mx ?addr0 ?add0r.
rewrite mulmxN mulmx_block ?mulmx0 ?mul0mx ?mulmx1 ?mul1mx ?addr0 ?add0r.
by rewrite !mulmxA.
Qed.

Theorem ahn_lemma1_x_rows (A B : 'M[R]_d) (X : 'M[R]_(d, N)) (Xq : 'M[R]_(d, Q))
    (y : 'M[R]_(1, N)) (yq : 'M[R]_(1, Q)) :
  ahn_layer (ahn_P B) (ahn_Q A) (block_mx X Xq y yq)
    = block_mx (X - (N%:R)^-1 *: (B *m X *m X^T *m A *m X))
               (Xq - (N%:R)^-1 *: (B *m X *m X^T *m A *m Xq))
               (y - (N%:R)^-1 *: (y *m X^T *m A *m X))
               (yq - (N%:R)^-1 *: (y *m X^T *m A *m Xq)).
Proof.
by rewrite /ahn_layer ahn_attn_block scalerN scale_block_mx opp_block_mx add_block_mx.
Qed.

Variables (X : 'M[R]_(d, N)) (y : 'M[R]_(1, N)).
Variable A : nat -> 'M[R]_d.

Definition ahn_grad (w : 'cV[R]_d) : 'cV[R]_d := (N%:R)^-1 *: (X *m (X^T *m w - y^T)).

(* Preconditioned GD with preconditioner A_l^T, from w_0 = 0. *)
Fixpoint ahn_w L : 'cV[R]_d := if L is l.+1 then ahn_w l - (A l)^T *m ahn_grad (ahn_w l) else 0.

Fixpoint ahn_stack L (Z : 'M[R]_(d + 1, N + Q)) :=
  if L is l.+1 then ahn_layer (ahn_P 0) (ahn_Q (A l)) (ahn_stack l Z) else Z.

Lemma ahn_w_trS l :
  (ahn_w l.+1)^T
    = (ahn_w l)^T + (N%:R)^-1 *: ((y - (ahn_w l)^T *m X) *m X^T *m A l).
Proof.
rewrite /= /ahn_grad linearB /= trmx_mul trmxK linearZ /= trmx_mul linearB /= trmx_mul trmxK.
rewrite trmxK -scalemxAl -scalerN; congr (_ + _ *: _).
by rewrite -[y - _]opprB !mulNmx.
Qed.

Theorem ahn_lemma1 L (Xq : 'M[R]_(d, Q)) :
  ahn_stack L (block_mx X Xq y 0)
    = block_mx X Xq (y - (ahn_w L)^T *m X) (- ((ahn_w L)^T *m Xq)).
Proof.
elim: L => [|l IHl]; first by rewrite /= trmx0 !mul0mx subr0 oppr0.
rewrite [ahn_stack _ _]/= IHl ahn_lemma1_x_rows !mul0mx !scaler0 !subr0 ahn_w_trS.
by rewrite !(mulmxDl (ahn_w l)^T) -!scalemxAl !opprD addrA.
Qed.

End AhnLemma1.

(* One query (Q = 1): the bottom-right entry of Z_L is -<x_q, w_L>, i.e. TF_L = <x_q, w_L>. *)
Theorem ahn_lemma1_readout (R : fieldType) d N (X : 'M[R]_(d, N)) (y : 'M[R]_(1, N))
    (A : nat -> 'M[R]_d) L (xq : 'cV[R]_d) :
  (ahn_stack (Q := 1) A L (block_mx X xq y 0)) (rshift d ord0) (rshift N ord0)
    = - ((ahn_w X y A L)^T *m xq) ord0 ord0.
Proof. by rewrite ahn_lemma1 block_mxEdr mxE. Qed.

Section MultiHead.
Variable R : fieldType.
Variables d N Q : nat.

(* A layer with H heads whose outputs are summed (src/memformer/z_form_transformer.hpp,
   multi_head_attention): Z' = Z + (1/N) sum_h Attn_(P_h, Q_h)(Z). *)
Definition ahn_layer_mh H (Ps Qs : 'I_H -> 'M[R]_(d + 1)) (Z : 'M[R]_(d + 1, N + Q)) :=
  Z + (N%:R)^-1 *: \sum_(h < H) ahn_attn (Ps h) (Qs h) Z.

Lemma ahn_attn_sumQ H (P : 'M[R]_(d + 1)) (Qs : 'I_H -> 'M[R]_(d + 1)) (Z : 'M[R]_(d + 1, N + Q)) :
  \sum_(h < H) ahn_attn P (Qs h) Z = ahn_attn P (\sum_(h < H) Qs h) Z.
Proof. by rewrite /ahn_attn mulmx_sumr mulmx_suml mulmx_sumr. Qed.

Lemma ahn_Q_sum H (A : 'I_H -> 'M[R]_d) : \sum_(h < H) ahn_Q (A h) = ahn_Q (\sum_(h < H) A h).
Proof.
apply: (big_rec2 (fun S T => S = ahn_Q T)) => [|h S T _ ->].
  by rewrite /ahn_Q block_mx0 oppr0.
by rewrite /ahn_Q -opprD add_block_mx !addr0.
Qed.

(* B = 0 in every head: the H-head layer is the one-head layer with A = sum_h A_h. *)
Lemma ahn_layer_mh_sum H (A : 'I_H -> 'M[R]_d) (Z : 'M[R]_(d + 1, N + Q)) :
  ahn_layer_mh (fun=> ahn_P 0) (fun h => ahn_Q (A h)) Z
    = ahn_layer (ahn_P 0) (ahn_Q (\sum_(h < H) A h)) Z.
Proof. by rewrite /ahn_layer_mh /ahn_layer ahn_attn_sumQ ahn_Q_sum. Qed.

Fixpoint ahn_stack_mh H (A : nat -> 'I_H -> 'M[R]_d) L (Z : 'M[R]_(d + 1, N + Q)) :=
  if L is l.+1 then
    ahn_layer_mh (fun=> ahn_P 0) (fun h => ahn_Q (A l h)) (ahn_stack_mh A l Z)
  else Z.

(* Lemma 1 with H heads per layer (any H, L, d, N, Q, general A_lh, heads summed): the stack is
   preconditioned GD with preconditioner (sum_h A_lh)^T. *)
Theorem ahn_lemma1_multihead H (A : nat -> 'I_H -> 'M[R]_d) L
    (X : 'M[R]_(d, N)) (y : 'M[R]_(1, N)) (Xq : 'M[R]_(d, Q)) :
  ahn_stack_mh A L (block_mx X Xq y 0)
    = block_mx X Xq (y - (ahn_w X y (fun l => \sum_(h < H) A l h) L)^T *m X)
                    (- ((ahn_w X y (fun l => \sum_(h < H) A l h) L)^T *m Xq)).
Proof.
rewrite -ahn_lemma1; elim: L => [|l IHl] //=.
by rewrite IHl ahn_layer_mh_sum.
Qed.

End MultiHead.

(* The read-out of the H-head stack (Q = 1): TF_L = <x_q, w_L> with A_l = sum_h A_lh. *)
Theorem ahn_lemma1_multihead_readout (R : fieldType) d N H (A : nat -> 'I_H -> 'M[R]_d) L
    (X : 'M[R]_(d, N)) (y : 'M[R]_(1, N)) (xq : 'cV[R]_d) :
  (ahn_stack_mh (Q := 1) A L (block_mx X xq y 0)) (rshift d ord0) (rshift N ord0)
    = - ((ahn_w X y (fun l => \sum_(h < H) A l h) L)^T *m xq) ord0 ord0.
Proof. by rewrite ahn_lemma1_multihead block_mxEdr mxE. Qed.
