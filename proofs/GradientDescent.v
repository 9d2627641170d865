(* GradientDescent.v -- the squared loss of a linear model, its gradient, and K steps of GD.

   Conventions (as in src/references): columns are examples, X is d x N, Y is o x N and the
   model W is o x d; the Frobenius pairing is <A, B> = tr (A B^T).
     L(W)       = 1/(2N) ||W X - Y||^2
     grad L(W)  = (1/N) (W X - Y) X^T
     gd_step    : W |-> W - eta grad L(W)       (so DeltaW = - eta grad L(W))
     H          = X X^T / N

   Main results
   - gd_step_neg_grad : L(W + H) = L(W) + <grad L(W), H> + 1/(2N) ||H X||^2, i.e. the gradient
       of L at W is exactly (1/N) (W X - Y) X^T and the GD update DeltaW = - eta grad L(W);
       gd_delta_neg_grad states DeltaW = -(eta/N) (W X - Y) X^T = - eta grad L(W).
   - gd_iterates_neumann : K GD steps from W = 0 give
       W_K = eta (Y X^T / N) sum_(k < K) (I - eta H)^k    (by induction on K).
   The matrix power is mxpow (an iterated product), so d is arbitrary (also d = 0).

   Dependencies: mathcomp ssreflect/algebra (matrix, ssrnum), algebra-tactics' field.
   No axioms: every theorem is closed under the global context. *)

From mathcomp Require Import all_ssreflect all_algebra.
From mathcomp Require Import ring.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import Order.TTheory GRing.Theory Num.Theory.
Local Open Scope ring_scope.

Section MatrixPower.
Variable R : ringType.

(* A^k as an iterated right product, for square matrices of any size. *)
Definition mxpow n (A : 'M[R]_n) k := iter k (fun M => M *m A) 1%:M.

Lemma mxpow0 n (A : 'M[R]_n) : mxpow A 0 = 1%:M.
Proof. by []. Qed.

Lemma mxpowS n (A : 'M[R]_n) k : mxpow A k.+1 = mxpow A k *m A.
Proof. by []. Qed.

(* sum_(k < K.+1) A^k = 1 + (sum_(k < K) A^k) A *)
Lemma mxpow_sumS n (A : 'M[R]_n) K :
  \sum_(k < K.+1) mxpow A k = 1%:M + (\sum_(k < K) mxpow A k) *m A.
Proof.
by rewrite big_ord_recl mxpow0 mulmx_suml.
Qed.

End MatrixPower.

Section Frobenius.
Variable R : comRingType.

(* The Frobenius pairing <A, B> = tr (A B^T) = sum_ij A_ij B_ij. *)
Definition frob m n (A B : 'M[R]_(m, n)) := \tr (A *m B^T).

Lemma frobDl m n (A B C : 'M[R]_(m, n)) : frob (A + B) C = frob A C + frob B C.
Proof. by rewrite /frob mulmxDl mxtraceD. Qed.

Lemma frobDr m n (A B C : 'M[R]_(m, n)) : frob A (B + C) = frob A B + frob A C.
Proof. by rewrite /frob linearD mulmxDr mxtraceD. Qed.

Lemma frobC m n (A B : 'M[R]_(m, n)) : frob A B = frob B A.
Proof. by rewrite /frob -mxtrace_tr trmx_mul trmxK. Qed.

End Frobenius.

Section GradientDescent.
Variable R : numFieldType.
Variables d o N : nat.
Variables (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)).

Definition gd_loss (W : 'M[R]_(o, d)) : R :=
  (N%:R)^-1 / 2 * frob (W *m X - Y) (W *m X - Y).

Definition gd_grad (W : 'M[R]_(o, d)) : 'M[R]_(o, d) := (N%:R)^-1 *: ((W *m X - Y) *m X^T).

Definition gd_step (eta : R) (W : 'M[R]_(o, d)) := W - eta *: gd_grad W.

(* von Oswald's DeltaW = -(eta/N) sum_i (W x_i - y_i) x_i^T. *)
Definition gd_delta (eta : R) (W : 'M[R]_(o, d)) := - (eta / N%:R) *: ((W *m X - Y) *m X^T).

Definition gd_hess : 'M[R]_d := (N%:R)^-1 *: (X *m X^T).

Definition gd_iter (eta : R) K := iter K (gd_step eta) 0.

Lemma gd_iterS (eta : R) K : gd_iter eta K.+1 = gd_step eta (gd_iter eta K).
Proof. by []. Qed.

Lemma frob_grad (W H : 'M[R]_(o, d)) :
  frob (gd_grad W) H = (N%:R)^-1 * frob (W *m X - Y) (H *m X).
Proof. by rewrite /frob /gd_grad -scalemxAl mxtraceZ trmx_mul mulmxA. Qed.

Theorem gd_step_neg_grad (W H : 'M[R]_(o, d)) :
  gd_loss (W + H)
    = gd_loss W + frob (gd_grad W) H + (N%:R)^-1 / 2 * frob (H *m X) (H *m X).
Proof.
have two_neq0 : (2 : R) != 0 by rewrite pnatr_eq0.
rewrite /gd_loss frob_grad.
have -> : (W + H) *m X - Y = (W *m X - Y) + H *m X by rewrite mulmxDl addrAC.
move: (W *m X - Y) (H *m X) => r s.
rewrite !frobDl !frobDr [frob s r]frobC.
move: (frob r r) (frob r s) (frob s s) (N%:R^-1) => a b c n.
by field.
Qed.

Theorem gd_delta_neg_grad (eta : R) (W : 'M[R]_(o, d)) : gd_delta eta W = - eta *: gd_grad W.
Proof. by rewrite /gd_delta /gd_grad scalerA mulNr. Qed.

Lemma gd_step_delta (eta : R) (W : 'M[R]_(o, d)) : gd_step eta W = W + gd_delta eta W.
Proof. by rewrite gd_delta_neg_grad scaleNr. Qed.

Theorem gd_iterates_neumann (eta : R) K :
  gd_iter eta K
    = (eta *: ((N%:R)^-1 *: (Y *m X^T))) *m \sum_(k < K) mxpow (1%:M - eta *: gd_hess) k.
Proof.
elim: K => [|K IHK]; first by rewrite big_ord0 mulmx0.
rewrite [gd_iter _ _]/= -/(gd_iter eta K) IHK mxpow_sumS mulmxDr mulmx1 mulmxA.
set c := eta *: _; set P := c *m _.
rewrite /gd_step /gd_grad /gd_hess mulmxBr mulmx1 -!scalemxAr mulmxA mulmxBl scalerBr scalerBr.
by rewrite opprB addrCA /c scalerA; congr (_ + (_ - _)).
Qed.

End GradientDescent.
