(* ShermanMorrison.v -- the rank-one inverse update and the ridge Gram inverse.

   Main results
   - sherman_morrison : for a unit A and 1 + v^T A^-1 u != 0,
       (A + u v^T)^-1 = A^-1 - (1 + v^T A^-1 u)^-1 A^-1 u v^T A^-1   (any fieldType).
   - sherman_morrison_unitmx : under the same hypotheses A + u v^T is a unit.
   - sm_denom_neq0 : if A and A + u v^T are units then 1 + v^T A^-1 u != 0
       (so the Sherman-Morrison hypothesis is exactly invertibility of the update).
   - ridge_gram_unitmx : over a realFieldType, lambda I + sum_i u_i u_i^T is a unit for lambda > 0.
   - iterated_sherman_morrison_ridge : over a realFieldType with lambda > 0, starting from
       A_0^-1 = lambda^-1 I and applying the update for the columns x_1 .. x_N of X gives
       (lambda I + X X^T)^-1.
   - bayes_posterior_mean_ridge : (Y X^T / sigma2) (X X^T / sigma2 + I / tau2)^-1
       = Y X^T (X X^T + (sigma2 / tau2) I)^-1 for sigma2, tau2 > 0 (posterior mean = ridge).
   The C++ references (src/references: iterated_sherman_morrison, ridge) follow the same
   convention: columns are examples, X is d x N.

   Dependencies: mathcomp ssreflect/algebra (matrix, mxalgebra, ssrnum), algebra-tactics'
   field and MatrixFacts (mulmx_tr_sum).  No axioms: every theorem is closed under the global
   context. *)

From mathcomp Require Import all_ssreflect all_algebra.
From mathcomp Require Import ring.
From ICLProof Require Import MatrixFacts.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import Order.TTheory GRing.Theory Num.Theory.
Local Open Scope ring_scope.

Section ShermanMorrison.
Variable F : fieldType.

Lemma invmx_right n (A B : 'M[F]_n) : A *m B = 1%:M -> invmx A = B.
Proof.
move=> AB1; have [unitA _] := mulmx1_unit AB1.
by rewrite -[RHS](mulKmx unitA) AB1 mulmx1.
Qed.

Definition sm_denom n (Ainv : 'M[F]_n) (u v : 'cV[F]_n) := 1 + (v^T *m Ainv *m u) 0 0.

Definition sm_update n (Ainv : 'M[F]_n) (u v : 'cV[F]_n) :=
  Ainv - (sm_denom Ainv u v)^-1 *: (Ainv *m u *m v^T *m Ainv).

Lemma sm_update_right n (A : 'M[F]_n) (u v : 'cV[F]_n) :
  A \in unitmx -> sm_denom (invmx A) u v != 0 ->
  (A + u *m v^T) *m sm_update (invmx A) u v = 1%:M.
Proof.
move=> unitA denom_neq0; rewrite /sm_update.
set c := sm_denom _ u v; set s := (v^T *m invmx A *m u) 0 0.
set W := u *m v^T *m invmx A.
have uvAuvA : u *m v^T *m (invmx A *m u *m v^T *m invmx A) = s *: W.
  have -> : u *m v^T *m (invmx A *m u *m v^T *m invmx A)
           = u *m (v^T *m invmx A *m u) *m (v^T *m invmx A) by rewrite !mulmxA.
  by rewrite [v^T *m invmx A *m u]mx11_scalar mul_mx_scalar -scalemxAl mulmxA.
rewrite mulmxDl !mulmxBr mulmxV // -!scalemxAr uvAuvA.
rewrite !mulmxA mulmxV // mul1mx -/W scalerA -addrA -[RHS]addr0; congr (_ + _).
rewrite -[W in W - _]scale1r -scalerBl -scaleNr -scalerDl.
suff -> : - c^-1 + (1 - c^-1 * s) = 0 by rewrite scale0r.
by move: denom_neq0; rewrite /c /sm_denom -/s => denom_neq0; field.
Qed.


Lemma sm_denom_neq0 n (A : 'M[F]_n) (u v : 'cV[F]_n) :
  A \in unitmx -> A + u *m v^T \in unitmx -> sm_denom (invmx A) u v != 0.
Proof.
move=> unitA unitAuv; apply/negP => /eqP denom0.
set s := (v^T *m invmx A *m u) 0 0.
have Mw : (A + u *m v^T) *m (invmx A *m u) = (1 + s) *: u.
  rewrite mulmxDl (mulKVmx unitA) scalerDl scale1r; congr (_ + _).
  by rewrite -!mulmxA (mulmxA v^T) [v^T *m _ *m u]mx11_scalar mul_mx_scalar.
move: Mw; rewrite [1 + s]denom0 scale0r => Mw.
have w0 : invmx A *m u = 0 by rewrite -(mulKmx unitAuv (invmx A *m u)) Mw mulmx0.
have u0 : u = 0 by rewrite -(mulKVmx unitA u) w0 mulmx0.
by move: denom0; rewrite /sm_denom u0 mulmx0 mxE addr0 => /eqP; rewrite oner_eq0.
Qed.

Theorem sherman_morrison n (A : 'M[F]_n) (u v : 'cV[F]_n) :
  A \in unitmx -> 1 + (v^T *m invmx A *m u) 0 0 != 0 ->
  invmx (A + u *m v^T)
    = invmx A - (1 + (v^T *m invmx A *m u) 0 0)^-1 *: (invmx A *m u *m v^T *m invmx A).
Proof. by move=> unitA denom_neq0; apply: invmx_right; apply: sm_update_right. Qed.

Lemma sherman_morrison_unitmx n (A : 'M[F]_n) (u v : 'cV[F]_n) :
  A \in unitmx -> 1 + (v^T *m invmx A *m u) 0 0 != 0 -> A + u *m v^T \in unitmx.
Proof. by move=> unitA denom_neq0; have [] := mulmx1_unit (sm_update_right unitA denom_neq0). Qed.

(* The update used by the iteration: a symmetric rank-one term u u^T. *)
Lemma sm_update_gram n (A : 'M[F]_n) (u : 'cV[F]_n) :
  A \in unitmx -> A + u *m u^T \in unitmx -> sm_update (invmx A) u u = invmx (A + u *m u^T).
Proof.
by move=> unitA unitAuu; rewrite (sherman_morrison unitA (sm_denom_neq0 unitA unitAuu)).
Qed.

End ShermanMorrison.

Section Ridge.
Variable R : realFieldType.

(* lambda I + sum_(u in us) u u^T: the ridge Gram matrix of the columns us. *)
Definition ridge_gram d (lambda : R) (us : seq 'cV[R]_d) := lambda%:M + \sum_(u <- us) u *m u^T.

Lemma ridge_gram_unitmx d (lambda : R) (us : seq 'cV[R]_d) :
  0 < lambda -> ridge_gram lambda us \in unitmx.
Proof.
move=> lambda_gt0; rewrite -row_free_unit -kermx_eq0; apply/eqP/row_matrixP => i.
rewrite row0; set z := row i _.
have zG0 : z *m ridge_gram lambda us = 0 by rewrite -row_mul mulmx_ker row0.
have quad : z *m ridge_gram lambda us *m z^T
    = lambda *: (z *m z^T) + \sum_(u <- us) (z *m u) *m (z *m u)^T.
  rewrite /ridge_gram mulmxDr mul_mx_scalar mulmx_sumr mulmxDl mulmx_suml -scalemxAl.
  by congr (_ + _); apply: eq_bigr => u _; rewrite trmx_mul !mulmxA.
have /eqP := congr1 (fun M : 'M_1 => M 0 0) quad.
rewrite zG0 mul0mx mxE [in X in _ == X]mxE summxE eq_sym.
rewrite paddr_eq0; last first.
- by apply: sumr_ge0 => u _; rewrite mxE big_ord1 !mxE -expr2 sqr_ge0.
- rewrite mxE; apply: mulr_ge0; first exact: ltW.
  by rewrite mxE; apply: sumr_ge0 => j _; rewrite !mxE -expr2 sqr_ge0.
rewrite mxE mulf_eq0 gt_eqF //= mxE => /andP [/eqP zz0 _].
move: zz0 => /psumr_eq0P zz0; apply/rowP => j; rewrite [RHS]mxE.
have /eqP : z 0 j * z^T j 0 = 0 by apply: zz0 => // k _; rewrite !mxE -expr2 sqr_ge0.
by rewrite [z^T _ _]mxE mulf_eq0 orbb => /eqP.
Qed.

(* A_0^-1 = lambda^-1 I, then one Sherman-Morrison update per column. *)
Definition sm_iter d (lambda : R) (us : seq 'cV[R]_d) :=
  foldl (fun Ainv u => sm_update Ainv u u) (lambda^-1 *: 1%:M) us.

Lemma sm_iter_gram d (lambda : R) (us : seq 'cV[R]_d) :
  0 < lambda -> sm_iter lambda us = invmx (ridge_gram lambda us).
Proof.
move=> lambda_gt0; elim/last_ind: us => [|us u IHus].
  rewrite /sm_iter /ridge_gram big_nil addr0 /=; apply/esym/invmx_right.
  by rewrite mul_scalar_mx scalerA mulfV ?scale1r // gt_eqF.
have gramS : ridge_gram lambda (rcons us u) = ridge_gram lambda us + u *m u^T.
  by rewrite /ridge_gram -cats1 big_cat big_seq1 addrA.
move: IHus; rewrite /sm_iter foldl_rcons => ->; rewrite gramS sm_update_gram //.
  exact: ridge_gram_unitmx.
by rewrite -gramS; apply: ridge_gram_unitmx.
Qed.

Lemma mulmx_tr_sum_col d N (X : 'M[R]_(d, N)) :
  X *m X^T = \sum_(u <- [seq col i X | i <- enum 'I_N]) u *m u^T.
Proof. by rewrite big_map big_enum /= mulmx_tr_sum. Qed.

Theorem iterated_sherman_morrison_ridge d N (X : 'M[R]_(d, N)) (lambda : R) :
  0 < lambda ->
  sm_iter lambda [seq col i X | i <- enum 'I_N] = invmx (lambda%:M + X *m X^T).
Proof. by move=> lambda_gt0; rewrite sm_iter_gram // mulmx_tr_sum_col. Qed.

Lemma ridge_unitmx d N (X : 'M[R]_(d, N)) (lambda : R) :
  0 < lambda -> X *m X^T + lambda%:M \in unitmx.
Proof.
move=> lambda_gt0; rewrite addrC mulmx_tr_sum_col.
exact: (ridge_gram_unitmx _ lambda_gt0).
Qed.

(* The Bayes posterior mean of W (prior N(0, tau2 I), Gaussian noise of variance sigma2),
   (Y X^T / sigma2) (X X^T / sigma2 + I / tau2)^-1, is ridge with lambda = sigma2 / tau2. *)
Theorem bayes_posterior_mean_ridge d N o (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) (sigma2 tau2 : R) :
  0 < sigma2 -> 0 < tau2 ->
  (sigma2^-1 *: (Y *m X^T)) *m invmx (sigma2^-1 *: (X *m X^T) + tau2^-1%:M)
    = Y *m X^T *m invmx (X *m X^T + (sigma2 / tau2)%:M).
Proof.
move=> sigma2_gt0 tau2_gt0; have sigma2_neq0 : sigma2 != 0 by rewrite gt_eqF.
have -> : sigma2^-1 *: (X *m X^T) + tau2^-1%:M
    = sigma2^-1 *: (X *m X^T + (sigma2 / tau2)%:M).
  by rewrite scalerDr scale_scalar_mx mulrA mulVf ?mul1r.
rewrite invmxZ; last by rewrite unitmxZ ?unitfE ?invr_eq0 // ridge_unitmx ?divr_gt0.
by rewrite -scalemxAr -scalemxAl scalerA invrK mulfV ?scale1r.
Qed.

End Ridge.
