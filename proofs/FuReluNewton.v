(* FuReluNewton.v -- Fu, Chen, Jia, Sharan (NeurIPS 2024), Theorem 5.1 as App. B.2 builds it,
   with ReLU attention and one MLP per Newton step (src/iterative_newton/fu_relu_weights.hpp;
   docs/constructions/iterative_newton.md): the algebra of its blocks on the token matrix
   U = T X (column j: T x_j), the ReLU selections of the paper's five read-out layers, and the
   contraction at a fixed alpha for every prompt of a data class.

   Main results
   - fu_relu_pair      : sigma(a) - sigma(-a) = a: two ReLU heads with opposite queries and
       opposite values compute the bilinear score exactly.
   - fu_relu_pair_same : sigma(a) + sigma(-a) = |a|: with V_1 = V_2 (as App. B.2 prints eqs. 21
       and 28) the two heads give |score|, not the score.
   - fu_init_blocks    : X + alpha (X X^T) X - X = (alpha S) X, S = X X^T (eqs. 20-23).
   - fu_newton_block   : with U = T X, (U - (1/2) U U^T X) *+ 2 = (2T - T S T^T) X
       (eqs. 27-30); for T^T = T that is ns_step S T applied to X (fu_newton_block_sym).
   - fu_readout        : Xq^T U y^T = Xq^T T (X y^T): the read-out's sum_j (x_q^T T x_j) y_j.
   - fu_select_on, fu_select_off : relu f = f for 0 <= f; relu (f - c) = 0 for f <= c (the
       paper layout's mov heads R1, R4: the flag on the previous column, 0 on every other key).
   - fu_label_mul_off  : |y| <= Y c -> relu (y - Y c) - relu (-y - Y c) = 0 (the mul heads R2 on
       the other keys; on the own column, c = 0, fu_relu_pair gives y).
   - fu_lemma_b3_heads : relu 1 + relu (-1) = 1 (Lemma B.3's two heads as printed, R3).
   - fu_label_sum      : sum_j y_j (col j U) = U y^T (R3 over R2's y_j T x_j gives T X y).
   - fu_contraction    : for S^T = S, 0 <= a, a F <= 2 and |S u|^2 <= F |u|^2 for all u
       (|u|^2 = fu_dot u u), |(I - a S^2) v|^2 <= |v|^2: the squared-norm error
       (I - a S^2)^(2^k) w* never grows with k.
   - fu_cauchy_schwarz : (sum a b)^2 <= (sum a^2)(sum b^2) (Lagrange's identity).
   - fu_frobenius_bound: |S u|^2 <= ||S||_F^2 |u|^2 (fu_frob S = ||S||_F^2), so
       fu_contraction_frobenius: the contraction whenever a ||S||_F^2 <= 2.
   - fu_gram_frobenius : ||X X^T||_F^2 <= (||X||_F^2)^2, so fu_class_contraction: every X with
       ||X||_F^2 = sum_i ||x_i||^2 <= B2 contracts at any fixed a with a B2^2 <= 2 (the
       property's class: B2 = 96, a = 1/9216).

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

(* The paper's read-out layers (fu_relu_weights.hpp R1-R5). R1, R4 (mov): the score
   f_t - (t - 1 - t_j)^2 is the receiver's flag f_t >= 0 on the previous column and <= 0 on every
   other key, whose (integer) distance term is >= 1 >= f_t. *)
Lemma fu_select_on (f : R) : 0 <= f -> relu f = f.
Proof.
move=> f0; rewrite /relu /Num.Def.maxr.
have [h|h] := ltrP 0 f => //.
by apply/eqP; rewrite eq_le h f0.
Qed.

Lemma fu_select_off (f c : R) : f <= c -> relu (f - c) = 0.
Proof.
move=> h; rewrite /relu /Num.Def.maxr.
have hc : f - c <= 0 by rewrite subr_le0.
have [h1|h1] := ltrP 0 (f - c) => //.
by have := lt_le_trans h1 hc; rewrite ltxx.
Qed.

(* R2 (mul): the two heads' scores +-y - Y c, c = (t - t_j)^2: on the own column (c = 0) the pair
   gives y (fu_relu_pair); on every other key with |y| <= Y c both ReLUs vanish. *)
Lemma fu_label_mul_off (y Y c : R) :
  `|y| <= Y * c -> relu (y - Y * c) - relu (- y - Y * c) = 0.
Proof.
move=> h.
rewrite !fu_select_off ?subr0 //; apply: le_trans h.
  by rewrite -normrN ler_norm.
exact: ler_norm.
Qed.

(* R3: Lemma B.3 as printed: two heads with scores 1 and -1 and the same value matrix add
   ReLU(1) + ReLU(-1) = 1 (the printed V_1 = V_2 is right here, the scores being constants). *)
Lemma fu_lemma_b3_heads : relu (1 : R) + relu (- 1) = 1.
Proof. by rewrite fu_relu_pair_same normr1. Qed.

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

(* R3 applied to R2's output: the sum over the label tokens of y_j (T x_j) is (T X) y^T. *)
Lemma fu_label_sum d n (U : 'M[R]_(d, n)) (y : 'M[R]_(1, n)) :
  \sum_(j < n) y 0 j *: col j U = U *m y^T.
Proof.
apply/matrixP => i k; rewrite summxE mxE; apply: eq_bigr => j _.
by rewrite !mxE (ord1 k) mulrC.
Qed.

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

(* Cauchy-Schwarz for finite sums, by Lagrange's identity:
   sum_i sum_j (a_i b_j - a_j b_i)^2 = 2 (sum a^2)(sum b^2) - 2 (sum a b)^2 >= 0. *)
Lemma fu_cauchy_schwarz n (a b : 'I_n -> R) :
  (\sum_i a i * b i) ^+ 2 <= (\sum_i a i ^+ 2) * (\sum_i b i ^+ 2).
Proof.
set A := \sum_i \sum_j a i ^+ 2 * b j ^+ 2.
set C := \sum_i \sum_j (a i * b i) * (a j * b j).
have eA : (\sum_i a i ^+ 2) * (\sum_i b i ^+ 2) = A.
  by rewrite mulr_suml; apply: eq_bigr => i _; rewrite mulr_sumr.
have eC : (\sum_i a i * b i) ^+ 2 = C.
  by rewrite expr2 mulr_suml; apply: eq_bigr => i _; rewrite mulr_sumr.
have eA' : \sum_i \sum_j a j ^+ 2 * b i ^+ 2 = A by rewrite exchange_big.
have L : \sum_i \sum_j (a i * b j - a j * b i) ^+ 2 = (A + A) - (C + C).
  rewrite -[in X in (X + _) - _]eA' -!big_split -sumrB /=.
  apply: eq_bigr => i _; rewrite -!big_split -sumrB /=.
  by apply: eq_bigr => j _; ring.
have h : 0 <= (A + A) - (C + C).
  by rewrite -L; apply: sumr_ge0 => i _; apply: sumr_ge0 => j _; exact: sqr_ge0.
rewrite eA eC; rewrite subr_ge0 -!mulr2n in h.
by rewrite ler_pmuln2r in h.
Qed.

(* The squared Frobenius norm, sum_i sum_j S_ij^2. *)
Definition fu_frob m n (S : 'M[R]_(m, n)) : R := \sum_i \sum_j S i j ^+ 2.

(* fu_contraction's hypothesis holds with F = ||S||_F^2. *)
Lemma fu_frobenius_bound m n (S : 'M[R]_(m, n)) (u : 'cV[R]_n) :
  fu_dot (S *m u) (S *m u) <= fu_frob S * fu_dot u u.
Proof.
rewrite /fu_dot /fu_frob mulr_suml; apply: ler_sum => i _.
rewrite mxE -expr2.
have -> : \sum_i0 u i0 0 * u i0 0 = \sum_k u k 0 ^+ 2 by apply: eq_bigr => k _; rewrite expr2.
exact: (fu_cauchy_schwarz (fun k => S i k) (fun k => u k 0)).
Qed.

(* So the contraction holds whenever a ||S||_F^2 <= 2. *)
Lemma fu_contraction_frobenius n (S : 'M[R]_n) (a : R) (v : 'cV[R]_n) :
  S^T = S -> 0 <= a -> a * fu_frob S <= 2%:R ->
  fu_dot ((1%:M - a *: (S *m S)) *m v) ((1%:M - a *: (S *m S)) *m v) <= fu_dot v v.
Proof.
move=> sS a0 aF; apply: (@fu_contraction n S a (fu_frob S) v sS a0 aF) => u.
exact: fu_frobenius_bound.
Qed.

(* The data-class bound: ||X X^T||_F <= ||X||_F^2 = sum_i ||x_i||^2 (Cauchy-Schwarz per entry). *)
Lemma fu_gram_frobenius d n (X : 'M[R]_(d, n)) : fu_frob (X *m X^T) <= fu_frob X ^+ 2.
Proof.
rewrite /fu_frob expr2 mulr_suml; apply: ler_sum => i _.
rewrite mulr_sumr; apply: ler_sum => k _.
rewrite mxE.
have -> : \sum_j X i j * X^T j k = \sum_j X i j * X k j by apply: eq_bigr => j _; rewrite mxE.
exact: (fu_cauchy_schwarz (fun j => X i j) (fun j => X k j)).
Qed.

(* Every prompt of a class with ||X||_F^2 <= B2 and a B2^2 <= 2 contracts at the fixed a:
   the property's class has B2 = n_max * d_max * 2^2 = 96 and a = 1/96^2. *)
Lemma fu_class_contraction d n (X : 'M[R]_(d, n)) (a B2 : R) (v : 'cV[R]_d) :
  0 <= a -> fu_frob X <= B2 -> a * B2 ^+ 2 <= 2%:R ->
  fu_dot ((1%:M - a *: (X *m X^T *m (X *m X^T))) *m v)
         ((1%:M - a *: (X *m X^T *m (X *m X^T))) *m v) <= fu_dot v v.
Proof.
move=> a0 hX aB; apply: fu_contraction_frobenius => //.
  by rewrite trmx_mul trmxK.
apply: le_trans aB; rewrite ler_wpmul2l //.
apply: (le_trans (fu_gram_frobenius X)).
have f0 : 0 <= fu_frob X by apply: sumr_ge0 => i _; apply: sumr_ge0 => j _; exact: sqr_ge0.
by rewrite !expr2 ler_pmul // (le_trans f0 hX).
Qed.

End Contraction.
