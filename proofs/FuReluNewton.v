(* FuReluNewton.v -- Fu, Chen, Jia, Sharan (NeurIPS 2024), Theorem 5.1 as App. B.2 builds it,
   with ReLU attention and one MLP per Newton step (src/iterative_newton/fu_relu_weights.hpp;
   docs/constructions/iterative_newton.md): the algebra of its blocks on the token matrix
   U = T X (column j: T x_j), and the contraction at a fixed alpha.

   Main results
   - fu_relu_pair      : sigma(a) - sigma(-a) = a: two ReLU heads with opposite queries and
       opposite values compute the bilinear score exactly.
   - fu_relu_pair_same : sigma(a) + sigma(-a) = |a|: with V_1 = V_2 (as App. B.2 prints eqs. 21
       and 28) the two heads give |score|, not the score.
   - fu_init_blocks    : X + alpha (X X^T) X - X = (alpha S) X, S = X X^T (eqs. 20-23).
   - fu_newton_block   : with U = T X, (U - (1/2) U U^T X) *+ 2 = (2T - T S T^T) X
       (eqs. 27-30); for T^T = T that is ns_step S T applied to X (fu_newton_block_sym).
   - fu_readout        : Xq^T U y^T = Xq^T T (X y^T): the read-out's sum_j (x_q^T T x_j) y_j.
   - fu_contraction    : for S^T = S, 0 <= a, a F <= 2 and |S u|^2 <= F |u|^2 for all u
       (|u|^2 = fu_dot u u), |(I - a S^2) v|^2 <= |v|^2: the squared-norm error
       (I - a S^2)^(2^k) w* never grows with k. F = ||S||_F^2 satisfies the hypothesis by
       Cauchy-Schwarz, which is NOT proved here (the property checks a ||S||_F^2 <= 2 per prompt).

   Dependencies: mathcomp ssreflect/algebra (ring tactic of algebra-tactics), NewtonSchulz
   (ns_step). No axioms. *)

From mathcomp Require Import all_ssreflect all_algebra.
From mathcomp Require Import ring.
From ICLProof Require Import NewtonSchulz.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import Order.TTheory GRing.Theory Num.Theory.
Local Open Scope ring_scope.

Section ReluPair.
Variable R : realDomainType.

Definition relu (a : R) := Num.max 0 a.

Lemma fu_relu_pair (a : R) : relu a - relu (- a) = a.
Proof.
rewrite /relu /Num.Def.maxr oppr_gt0.
have [h|h] := ltrP 0 a; have [h'|h'] := ltrP a 0 => //=.
- by have := lt_trans h h'; rewrite ltxx.
- by rewrite subr0.
- by rewrite sub0r opprK.
- have -> : a = 0 by apply/eqP; rewrite eq_le h h'.
  by rewrite subr0.
Qed.

Lemma fu_relu_pair_same (a : R) : relu a + relu (- a) = `|a|.
Proof.
rewrite /relu /Num.Def.maxr oppr_gt0.
have [h|h] := ltrP 0 a; have [h'|h'] := ltrP a 0 => //=.
- by have := lt_trans h h'; rewrite ltxx.
- by rewrite addr0 gtr0_norm.
- by rewrite add0r ltr0_norm.
- have -> : a = 0 by apply/eqP; rewrite eq_le h h'.
  by rewrite addr0 normr0.
Qed.

End ReluPair.

Section Blocks.
Variable R : comRingType.

Lemma fu_init_blocks d n (a : R) (X : 'M[R]_(d, n)) :
  X + a *: (X *m X^T *m X) - X = (a *: (X *m X^T)) *m X.
Proof. by rewrite addrC addKr scalemxAl. Qed.

Lemma fu_newton_block d n (h : R) (T : 'M[R]_d) (X : 'M[R]_(d, n)) : h *+ 2 = 1 ->
  let U := T *m X in
  (U - h *: (U *m U^T *m X)) *+ 2 = (T *+ 2 - T *m (X *m X^T) *m T^T) *m X.
Proof.
move=> h2 U; rewrite /U mulrnBl mulmxBl.
congr (_ - _); first by rewrite !mulr2n mulmxDl.
by rewrite scalerMnl h2 scale1r trmx_mul !mulmxA.
Qed.

Lemma fu_newton_block_sym d n (h : R) (T : 'M[R]_d) (X : 'M[R]_(d, n)) :
  h *+ 2 = 1 -> T^T = T ->
  let U := T *m X in
  (U - h *: (U *m U^T *m X)) *+ 2 = ns_step (X *m X^T) T *m X.
Proof. by move=> h2 sT U; rewrite fu_newton_block // sT /ns_step. Qed.

Lemma fu_readout d n q (T : 'M[R]_d) (X : 'M[R]_(d, n)) (y : 'M[R]_(1, n))
    (Xq : 'M[R]_(d, q)) :
  Xq^T *m (T *m X) *m y^T = Xq^T *m T *m (X *m y^T).
Proof. by rewrite !mulmxA. Qed.

End Blocks.

Section Contraction.
Variable R : realFieldType.

(* The dot product of two column vectors, and its squared norm dot u u. *)
Definition fu_dot n (u z : 'cV[R]_n) : R := \sum_i u i 0 * z i 0.

Lemma fu_dotC n (u z : 'cV[R]_n) : fu_dot u z = fu_dot z u.
Proof. by apply: eq_bigr => i _; rewrite mulrC. Qed.

Lemma fu_dotBl n (u z w : 'cV[R]_n) : fu_dot (u - z) w = fu_dot u w - fu_dot z w.
Proof. by rewrite /fu_dot -sumrB; apply: eq_bigr => i _; rewrite !mxE mulrBl. Qed.

Lemma fu_dotZl n (c : R) (u w : 'cV[R]_n) : fu_dot (c *: u) w = c * fu_dot u w.
Proof. by rewrite /fu_dot mulr_sumr; apply: eq_bigr => i _; rewrite mxE mulrA. Qed.

Lemma fu_dot_mul n (S : 'M[R]_n) (u z : 'cV[R]_n) : fu_dot (S *m u) z = fu_dot u (S^T *m z).
Proof.
rewrite /fu_dot; under eq_bigr do rewrite mxE big_distrl /=.
rewrite exchange_big /=; apply: eq_bigr => k _.
rewrite mxE big_distrr /=; apply: eq_bigr => i _.
by rewrite mxE mulrCA mulrA.
Qed.

Lemma fu_dot_ge0 n (u : 'cV[R]_n) : 0 <= fu_dot u u.
Proof. by apply: sumr_ge0 => i _; rewrite -expr2 sqr_ge0. Qed.

Lemma fu_contraction n (S : 'M[R]_n) (a F : R) (v : 'cV[R]_n) :
  S^T = S -> 0 <= a -> a * F <= 2%:R ->
  (forall u : 'cV[R]_n, fu_dot (S *m u) (S *m u) <= F * fu_dot u u) ->
  fu_dot ((1%:M - a *: (S *m S)) *m v) ((1%:M - a *: (S *m S)) *m v) <= fu_dot v v.
Proof.
move=> sS a0 aF hF.
set w := S *m v.
have -> : (1%:M - a *: (S *m S)) *m v = v - a *: (S *m w).
  by rewrite mulmxBl mul1mx -scalemxAl -mulmxA.
have vSw : fu_dot v (S *m w) = fu_dot w w.
  by rewrite fu_dotC fu_dot_mul sS.
rewrite !fu_dotBl ![fu_dot _ (v - _)]fu_dotC !fu_dotBl !fu_dotZl.
rewrite ![fu_dot _ (a *: _)]fu_dotC !fu_dotZl fu_dotC vSw.
have ww := fu_dot_ge0 w.
have h1 : a * (a * fu_dot (S *m w) (S *m w)) <= a * (a * (F * fu_dot w w)).
  by rewrite ler_wpmul2l // ler_wpmul2l.
have h2 : a * (a * (F * fu_dot w w)) <= a * (2%:R * fu_dot w w).
  by rewrite ler_wpmul2l // mulrA ler_wpmul2r.
rewrite -subr_ge0.
have -> : fu_dot v v - (fu_dot v v - a * fu_dot w w -
            (a * fu_dot w w - a * (a * fu_dot (S *m w) (S *m w))))
          = a * (2%:R * fu_dot w w) - a * (a * fu_dot (S *m w) (S *m w)) by ring.
by rewrite subr_ge0 (le_trans h1 h2).
Qed.

End Contraction.
