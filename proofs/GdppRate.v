(* GdppRate.v -- the condition-number map of the GD++ schedule gamma nu = 1/3
   (Vladymyrov, von Oswald, Sandler, Ge 2024, Lemma A.3 and the proof of Theorem 5.1;
   docs/constructions/gdpp_rate.md).

   A GD++ preconditioning layer maps X to X - gamma X X^T X, so Sigma = X X^T becomes
   (1 - gamma Sigma) Sigma (1 - gamma Sigma), an eigenvalue lambda becomes lambda (1 - gamma lambda)^2.

   Main results
   - gdpp_gram_step : (X - gamma X X^T X)(X - gamma X X^T X)^T = (1 - gamma S) S (1 - gamma S),
       S = X X^T; on a diagonal S = diag(l) this is diag(l_i (1 - gamma l_i)^2) (gdpp_gram_diag).
   - gdpp_nu_step : gamma nu = 1/3 gives nu (1 - gamma nu)^2 = 4 nu / 9.
   - gdpp_kappa_step : with gamma = 1/(3 nu), f(nu)/f(mu) = 4 k^3/(3 k - 1)^2, k = nu/mu.
   - gdpp_kappa_step_excess : 4 (1 + e)^3/(3 (1 + e) - 1)^2 - 1 = e^2 (3/4 + e)/(1 + 3 e/2)^2.
   - gdpp_kappa_step_quadratic : 0 <= e <= 1/10 gives that excess <= 2 e^2 (Lemma A.3, part 2).
   - gdpp_kappa_contracts : 11/10 <= k gives 4 k^3/(3 k - 1)^2 <= (4356/4761) k (part 1, with
       c = (4/9)/(1 - 1/3.3)^2 = 4356/4761, tight at k = 11/10).
   - gdpp_contraction_constant : (4/9)/(1 - 1/(33/10))^2 = 4356/4761 = 484/529 (= 0.914934 to six
       digits; the lemma's c in lowest terms).

   Dependencies: mathcomp ssreflect/algebra (ring, field). No axioms. *)

From mathcomp Require Import all_ssreflect all_algebra.
From mathcomp Require Import ring.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import Order.TTheory GRing.Theory Num.Theory.
Local Open Scope ring_scope.

Section GramStep.
Variable R : comRingType.
Variables d N : nat.

Theorem gdpp_gram_step (gamma : R) (X : 'M[R]_(d, N)) :
  let S := X *m X^T in
  (X - gamma *: (S *m X)) *m (X - gamma *: (S *m X))^T
    = (1%:M - gamma *: S) *m S *m (1%:M - gamma *: S).
Proof.
move=> S; have St : S^T = S by rewrite /S trmx_mul trmxK.
have -> : X - gamma *: (S *m X) = (1%:M - gamma *: S) *m X.
  by rewrite mulmxBl mul1mx scalemxAl.
rewrite trmx_mul -mulmxA [X *m _]mulmxA -/S.
have Pt : (1%:M - gamma *: S)^T = 1%:M - gamma *: S.
  by rewrite -[in RHS]St; apply/matrixP => i j; rewrite !mxE eq_sym.
by rewrite Pt mulmxA.
Qed.

Theorem gdpp_gram_diag (gamma : R) (l : 'rV[R]_d) :
  (1%:M - gamma *: diag_mx l) *m diag_mx l *m (1%:M - gamma *: diag_mx l)
    = diag_mx (\row_i (l 0 i * (1 - gamma * l 0 i) ^+ 2)).
Proof.
have -> : 1%:M - gamma *: diag_mx l = diag_mx (\row_i (1 - gamma * l 0 i)).
  apply/matrixP => i j; rewrite !mxE.
  by case: (i == j); rewrite ?mulr1n ?mulr0n ?mulr1 ?mulr0 ?subr0.
apply/matrixP => i j; rewrite mul_diag_mx mul_mx_diag !mxE.
have [->|ij] := eqVneq i j; rewrite ?eqxx ?(negbTE ij) ?mulr1n ?mulr0n ?mulr0 ?mul0r //.
by rewrite expr2 mulrA [(1 - _) * l 0 j]mulrC.
Qed.

End GramStep.

Section KappaMap.
Variable R : realFieldType.

Definition gdpp_f (gamma lambda : R) := lambda * (1 - gamma * lambda) ^+ 2.
Definition gdpp_kappa (k : R) := 4%:R * k ^+ 3 / (3%:R * k - 1) ^+ 2.

Theorem gdpp_nu_step (gamma nu : R) : gamma * nu = 3%:R^-1 -> gdpp_f gamma nu = 4%:R / 9%:R * nu.
Proof.
rewrite /gdpp_f => ->.
have h3 : (3%:R : R) != 0 by rewrite pnatr_eq0.
have h9 : (9%:R : R) != 0 by rewrite pnatr_eq0.
by field.
Qed.

Theorem gdpp_kappa_step (mu nu : R) : 0 < mu -> mu < 3%:R * nu ->
  gdpp_f (3%:R * nu)^-1 nu / gdpp_f (3%:R * nu)^-1 mu = gdpp_kappa (nu / mu).
Proof.
move=> mu0 munu.
have mu_neq0 : mu != 0 by rewrite gt_eqF.
have nu0 : 0 < nu.
  by rewrite -(@pmulr_rgt0 _ 3%:R) ?ltr0n // (lt_trans mu0).
have nu_neq0 : nu != 0 by rewrite gt_eqF.
have d_neq0 : 3%:R * nu - mu != 0 by rewrite subr_eq0 gt_eqF.
have h3 : (3%:R : R) != 0 by rewrite pnatr_eq0.
have e : 3%:R * (nu / mu) - 1 = (3%:R * nu - mu) / mu by field.
rewrite /gdpp_f /gdpp_kappa e.
have -> : 1 - (3%:R * nu)^-1 * mu = (3%:R * nu - mu) / (3%:R * nu) by field.
by field; rewrite ?d_neq0 ?nu_neq0 ?mu_neq0 ?h3. 
Qed.

Theorem gdpp_kappa_step_excess (e : R) : 0 <= e ->
  gdpp_kappa (1 + e) - 1 = e ^+ 2 * (3%:R / 4%:R + e) / (1 + 3%:R / 2%:R * e) ^+ 2.
Proof.
move=> e0.
have h2 : (2%:R : R) != 0 by rewrite pnatr_eq0.
have h4 : (4%:R : R) != 0 by rewrite pnatr_eq0.
have t0 : 0 <= 3%:R / 2%:R * e :> R by rewrite mulr_ge0 // divr_ge0 // ler0n.
have p1 : 1 + 3%:R / 2%:R * e != 0 :> R.
  by rewrite gt_eqF // (lt_le_trans ltr01) // ler_addl.
have p2 : 3%:R * (1 + e) - 1 != 0 :> R.
  have -> : 3%:R * (1 + e) - 1 = 2%:R * (1 + 3%:R / 2%:R * e) :> R by field.
  by rewrite mulf_neq0.
rewrite /gdpp_kappa; field.
have h3e : 0 <= 3%:R * e :> R by rewrite mulr_ge0 // ler0n.
by rewrite gt_eqF // (@lt_le_trans _ _ 2%:R) ?ltr0n // ler_addl.
Qed.

Theorem gdpp_kappa_step_quadratic (e : R) : 0 <= e -> e <= 10%:R^-1 ->
  gdpp_kappa (1 + e) - 1 <= 2%:R * e ^+ 2.
Proof.
move=> e0 e1; rewrite gdpp_kappa_step_excess //.
have t0 : 0 <= 3%:R / 2%:R * e :> R by rewrite mulr_ge0 // divr_ge0 // ler0n.
have den1 : 1 <= (1 + 3%:R / 2%:R * e) ^+ 2 :> R.
  by rewrite exprn_ege1 // ler_addl.
have den0 : 0 < (1 + 3%:R / 2%:R * e) ^+ 2 :> R by rewrite (lt_le_trans ltr01).
rewrite ler_pdivr_mulr //.
have h : 3%:R / 4%:R + e <= 2%:R :> R.
  apply: (le_trans (ler_add (lexx _) e1)); rewrite -subr_ge0.
  have h4 : (4%:R : R) != 0 by rewrite pnatr_eq0.
  have h10 : (10%:R : R) != 0 by rewrite pnatr_eq0.
  have h20 : (20%:R : R) != 0 by rewrite pnatr_eq0.
  have -> : 2%:R - (3%:R / 4%:R + 10%:R^-1) = 23%:R / 20%:R :> R by field.
  by rewrite divr_ge0 ?ler0n.
apply: (le_trans (ler_wpmul2l (sqr_ge0 e) h)).
rewrite mulrC -[X in X <= _]mulr1 ler_wpmul2l //.
by rewrite mulr_ge0 ?ler0n ?sqr_ge0.
Qed.

Theorem gdpp_kappa_contracts (k : R) : 11%:R / 10%:R <= k ->
  gdpp_kappa k <= 4356%:R / 4761%:R * k.
Proof.
move=> k1.
have h10 : (10%:R : R) != 0 by rewrite pnatr_eq0.
have h56 : (56%:R : R) != 0 by rewrite pnatr_eq0.
have h4761 : (4761%:R : R) != 0 by rewrite pnatr_eq0.
have k0 : 0 < k by rewrite (lt_le_trans _ k1) // divr_gt0 ?ltr0n.
have d0 : 0 < 3%:R * k - 1 :> R.
  rewrite subr_gt0; apply: (lt_le_trans _ (ler_wpmul2l (ler0n _ 3) k1)).
  rewrite -subr_gt0.
  have -> : 3%:R * (11%:R / 10%:R) - 1 = 23%:R / 10%:R :> R by field.
  by rewrite divr_gt0 ?ltr0n.
rewrite /gdpp_kappa ler_pdivr_mulr ?exprn_gt0 // -subr_ge0.
have -> : 4356%:R / 4761%:R * k * (3%:R * k - 1) ^+ 2 - 4%:R * k ^+ 3
    = k / 4761%:R * (20160%:R * (k - 11%:R / 10%:R) * (k - 11%:R / 56%:R)) :> R.
  by field.
have k56 : 11%:R / 56%:R <= k :> R.
  apply: le_trans k1; rewrite -subr_ge0.
  have -> : 11%:R / 10%:R - 11%:R / 56%:R = 253%:R / 280%:R :> R by field.
  by rewrite divr_ge0 ?ler0n.
rewrite mulr_ge0 // ?divr_ge0 ?ler0n ?(ltW k0) //.
by rewrite !mulr_ge0 ?ler0n ?subr_ge0.
Qed.

Theorem gdpp_contraction_constant :
  (4%:R / 9%:R) / (1 - (33%:R / 10%:R)^-1) ^+ 2 = 4356%:R / 4761%:R :> R
  /\ 4356%:R / 4761%:R = 484%:R / 529%:R :> R.
Proof.
have h9 : (9%:R : R) != 0 by rewrite pnatr_eq0.
have h10 : (10%:R : R) != 0 by rewrite pnatr_eq0.
have h33 : (33%:R : R) != 0 by rewrite pnatr_eq0.
have h529 : (529%:R : R) != 0 by rewrite pnatr_eq0.
have h4761 : (4761%:R : R) != 0 by rewrite pnatr_eq0.
have -> : 1 - (33%:R / 10%:R)^-1 = 23%:R / 33%:R :> R by field.
have h23 : (23%:R : R) != 0 by rewrite pnatr_eq0.
by split; field.
Qed.

End KappaMap.
