(* IterativeNewton.v -- k iterations of iterative Newton for in-context regression in k + 2
   linear-attention layers (Fu, Chen, Jia, Sharan, NeurIPS 2024, Sec. 5;
   docs/constructions/iterative_newton.md): the algebra of the set-up, Newton and read-out heads
   on the register tokens, and the facts about the iterates M_0 = alpha S,
   M_j = 2 M_{j-1} - M_{j-1} S M_{j-1} (NewtonSchulz.ns_iter).

   Main results
   - in_setup        : the set-up heads give the registers S = X X^T, alpha S and (X y^T)^T.
   - in_newton_layer : on register tokens [S; M; I] with S^T = S, the two heads
       (+emb_B: values B, keys C, query C) and (-emb_B: values B, keys A, query B) summed with the
       residual (in_step_layer) give [S; 2M - M S M; I].
   - in_stack_iter   : k Newton layers give [S; M_k; I], M_k = ns_iter S M_0 k.
   - in_readout      : the read-out head's value g^T M^T x equals the prediction x^T M g (1 x 1).
   - in_residual_power : 1 - M_k S = (1 - alpha S^2)^(2^k) for M_0 = alpha S.
   - in_m1_expansion : M_1 = 2 alpha S - alpha^2 S^3.
   - in_m2_expansion : M_2 = 4 alpha S - 6 alpha^2 S^3 + 4 alpha^3 S^5 - alpha^4 S^7.
   - in_ols_error    : if S w = b then w - M_k b = (1 - alpha S^2)^(2^k) w.

   Dependencies: mathcomp ssreflect/algebra (ring tactic of algebra-tactics), NewtonSchulz.
   No axioms. *)

From mathcomp Require Import all_ssreflect all_algebra.
From mathcomp Require Import ring.
From ICLProof Require Import NewtonSchulz.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import GRing.Theory.
Local Open Scope ring_scope.

Section IterativeNewtonLayers.
Variable R : comRingType.

Lemma in_setup d N (X : 'M[R]_(d, N)) (y : 'M[R]_(1, N)) (a : R) :
  [/\ X *m X^T *m 1%:M = X *m X^T, (a *: 1%:M) *m (X *m X^T) *m 1%:M = a *: (X *m X^T)
    & y *m X^T *m 1%:M = (X *m y^T)^T].
Proof. by rewrite !mulmx1 scalemx1 mul_scalar_mx trmx_mul trmxK. Qed.

(* One Newton layer of the generic layer on the register tokens: two heads and the residual. *)
Definition in_step_layer n (E : 'M[R]_(n + (n + n), n)) :=
  E + sel_B^T *m ((sel_B *m E) *m (sel_C *m E)^T) *m (sel_C *m E)
    + (- sel_B^T) *m ((sel_B *m E) *m (sel_A *m E)^T) *m (sel_B *m E).

Lemma in_newton_layer n (S M : 'M[R]_n) : S^T = S ->
  in_step_layer (ns_tokens S M) = ns_tokens S (ns_step S M).
Proof.
move=> sS; rewrite /in_step_layer sel_A_tokens sel_B_tokens sel_C_tokens trmx1 !mulmx1 sS.
rewrite emb_B_add mulNmx mulNmx -mulmxA -[in X in _ + X = _]mulmxN emb_B_add.
by rewrite /ns_step mulr2n.
Qed.

Fixpoint in_steps n k (E : 'M[R]_(n + (n + n), n)) :=
  if k is k'.+1 then in_step_layer (in_steps k' E) else E.

Lemma in_stack_iter n (S M0 : 'M[R]_n) k : S^T = S ->
  in_steps k (ns_tokens S M0) = ns_tokens S (ns_iter S M0 k).
Proof. by move=> sS; elim: k => [|k IH] //=; rewrite IH in_newton_layer. Qed.

Lemma in_readout d (M : 'M[R]_d) (g x : 'cV[R]_d) : g^T *m M^T *m x = x^T *m M *m g.
Proof.
rewrite -trmx_mul -[x in _ *m x]trmxK -trmx_mul mulmxA.
by apply/matrixP => i j; rewrite [i]ord1 [j]ord1 mxE.
Qed.

End IterativeNewtonLayers.

Section IterativeNewtonIterates.
Variable R : comRingType.
Variable n : nat.
Implicit Types S M : 'M[R]_n.+1.

Lemma in_residual_power S (a : R) k :
  1 - ns_iter S (a *: S) k * S = (1 - a *: (S * S)) ^+ (2 ^ k).
Proof. by rewrite ns_iter_residual scalerAl. Qed.

Lemma in_ols_error S (a : R) k (w b : 'cV[R]_n.+1) : S *m w = b ->
  w - ns_iter S (a *: S) k *m b = (1 - a *: (S * S)) ^+ (2 ^ k) *m w.
Proof.
move=> <-; rewrite -in_residual_power mulmxA mulmxBl mul1mx.
by rewrite mulmxE.
Qed.

(* The iterates as polynomials in S. *)
Fixpoint in_poly (a : R) k : {poly R} :=
  if k is k'.+1 then in_poly a k' *+ 2 - in_poly a k' * 'X * in_poly a k' else a%:P * 'X.

Lemma horner_in_poly S (a : R) k : horner_mx S (in_poly a k) = ns_iter S (a *: S) k.
Proof.
elim: k => [|k IH] /=.
  by rewrite rmorphM /= horner_mx_C horner_mx_X -mulmxE mul_scalar_mx.
by rewrite rmorphB rmorphMn !rmorphM /= horner_mx_X IH /ns_step -!mulmxE.
Qed.

Lemma in_m1_expansion S (a : R) :
  ns_iter S (a *: S) 1 = (a *+ 2) *: S - a ^+ 2 *: S ^+ 3.
Proof.
rewrite -horner_in_poly.
have -> : in_poly a 1 = (a *+ 2)%:P * 'X - (a ^+ 2)%:P * 'X ^+ 3.
  by rewrite /= !polyCMn polyC_exp; ring.
rewrite rmorphB !rmorphM /= !horner_mx_C !horner_mx_X.
have -> : S * (S * S) = S ^+ 3 by rewrite !exprS expr0 mulr1.
by rewrite -!mulmxE -scalar_mxM -expr2 !mul_scalar_mx.
Qed.

Lemma in_m2_expansion S (a : R) :
  ns_iter S (a *: S) 2
  = (a *+ 4) *: S - (a ^+ 2 *+ 6) *: S ^+ 3 + (a ^+ 3 *+ 4) *: S ^+ 5 - a ^+ 4 *: S ^+ 7.
Proof.
rewrite -horner_in_poly.
have -> : in_poly a 2 = (a *+ 4)%:P * 'X - (a ^+ 2 *+ 6)%:P * 'X ^+ 3
                        + (a ^+ 3 *+ 4)%:P * 'X ^+ 5 - (a ^+ 4)%:P * 'X ^+ 7.
  by rewrite /= !polyCMn !polyC_exp; ring.
rewrite rmorphB rmorphD rmorphB !rmorphM /= !horner_mx_C !horner_mx_X.
have e7 : S * (S * (S * (S * (S * (S * S))))) = S ^+ 7 by rewrite !exprS expr0 mulr1.
have e5 : S * (S * (S * (S * S))) = S ^+ 5 by rewrite !exprS expr0 mulr1.
have e3 : S * (S * S) = S ^+ 3 by rewrite !exprS expr0 mulr1.
have ea : a * (a * (a * a)) = a ^+ 4 by rewrite !exprS expr0 mulr1.
rewrite e7 e5 e3 -!mulmxE -!scalar_mxM ea.
by rewrite !mul_scalar_mx.
Qed.

End IterativeNewtonIterates.
