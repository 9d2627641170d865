(* LeastSquares.v -- the Frobenius inner product, minimum-norm least squares, OLS, and the
   ridge -> minimum-norm bound, over any real field (realFieldType; the square-root form of the
   bound over any real closed field, rcfType).

   Conventions are those of src/references/regression_solutions.hpp: columns are examples,
   X is d x N, Y is o x N, a model W is o x d and predicts W x; H = X X^T (gram X).  Rows of W
   live in R^d, so "W in the range of X" is mathcomp's row-space inclusion (W <= X^T)%MS.
   fdot A B = tr (A B^T) is the Frobenius inner product, fnorm2 A = ||A||_F^2, and
   frobenius A = sqrt (fnorm2 A).

   Main results
   - least_squares_normalP : W minimises ||W X - Y||_F^2 iff it solves the normal equations
       W X X^T = Y X^T.
   - min_norm_ls_unique : the normal equations have exactly one solution in the range of X,
       min_norm_ls X Y := Y X^T (H H)^- H  (min_norm_ls_normal, min_norm_ls_range).
   - min_norm_least_squares_spec : W = min_norm_ls X Y iff W is a least-squares solution of
       least Frobenius norm among all least-squares solutions (the minimum-norm least-squares
       solution W+ = Y (X^T)^+ of min_norm_least_squares in the C++).
   - ols_closed_form : if X X^T is invertible, W+ = Y X^T (X X^T)^-1 (OLS).
   - ridge_min_norm_gap : for lambda > 0, the exact identity
       W_ridge(lambda) - W+ = - lambda W+ (X X^T + lambda I)^-1,
       W_ridge(lambda) = Y X^T (X X^T + lambda I)^-1 (ridge_closed_form in the C++).
   - ridge_min_norm_bound2 : ||W_ridge(lambda) - W+||_F^2 <= (lambda / (lambda + mu))^2 ||W+||_F^2
       for every mu >= 0 with mu ||v||^2 <= ||v X||^2 for all v in the range of X
       (sv_lower_bound X mu; the largest such mu is sigma_min(X)^2, the square of the least
       NONZERO singular value of X: that identification is the SVD and is not proved here).
   - ridge_tends_to_min_norm_least_squares : the bound of the property of the same name,
       ||W_ridge(lambda) - W+||_F <= (lambda / mu) ||W+||_F, for lambda > 0, mu > 0 as above.
       The C++ rate ridge_min_norm_rate (src/references/regression_solutions.hpp) is lambda / mu,
       with mu just below sigma_min(X)^2 and certified per case (SingularValueCertificate.v).
   - sv_lower_bound_pinvmx : a valid mu always exists, mu = 1 / ||(X X^T)^- X||_F^2 (mathcomp's
       generalised inverse pinvmx), so ridge -> W+ as lambda -> 0 holds with no assumption:
   - ridge_min_norm_pinvmx_bound : ||W_ridge(lambda) - W+||_F
       <= lambda ||(X X^T)^- X||_F^2 ||W+||_F for every X and lambda > 0.
   - sv_lower_bound_ginv : mu = 1 / ||G X||_F^2 qualifies for ANY generalised inverse G of
       X X^T (X X^T G X X^T = X X^T), not only pinvmx.
   - ridge_min_norm_ginv_bound2 : the same bound squared, square-root free (any real field), for
       any such G: ||W_ridge(lambda) - W+||_F^2 <= (lambda ||G X||_F^2)^2 ||W+||_F^2; the exact
       rational check of references.ridge_tends_to_min_norm_least_squares evaluates it.

   Auxiliary: fdot_sqr_le (Cauchy-Schwarz), fnorm2_mulmx_le (||A B||_F <= ||A||_F ||B||_F),
   eqmx_gram (the row space of X X^T is that of X^T), mulmx_gram_eq0, fdot_range_ker,
   ridge_unitmx, ginv_mulmx_eq0 (G X = 0 forces X = 0 for a generalised inverse G of X X^T).

   Dependencies: mathcomp ssreflect/algebra, mathcomp zify (lia), algebra-tactics (ring).
   No axioms. *)

From mathcomp Require Import all_ssreflect all_algebra zify ring.
Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.
Import Order.TTheory GRing.Theory Num.Theory.
Local Open Scope ring_scope.

Section Frobenius.
Variable R : realFieldType.

Definition fdot m n (A B : 'M[R]_(m, n)) : R := \tr (A *m B^T).
Definition fnorm2 m n (A : 'M[R]_(m, n)) : R := fdot A A.

Lemma fdotE m n (A B : 'M[R]_(m, n)) : fdot A B = \sum_i \sum_j A i j * B i j.
Proof.
rewrite /fdot /mxtrace; apply: eq_bigr => i _; rewrite !mxE.
by apply: eq_bigr => j _; rewrite !mxE.
Qed.

Lemma fnorm2E m n (A : 'M[R]_(m, n)) : fnorm2 A = \sum_i \sum_j A i j ^+ 2.
Proof. by rewrite /fnorm2 fdotE; apply: eq_bigr => i _; apply: eq_bigr => j _; rewrite expr2. Qed.

Lemma fnorm2_ge0 m n (A : 'M[R]_(m, n)) : 0 <= fnorm2 A.
Proof. by rewrite fnorm2E sumr_ge0 // => i _; rewrite sumr_ge0 // => j _; rewrite sqr_ge0. Qed.

Lemma fnorm2_eq0 m n (A : 'M[R]_(m, n)) : fnorm2 A = 0 -> A = 0.
Proof.
rewrite fnorm2E => A0; apply/matrixP => i j; rewrite mxE.
have Ai : \sum_j A i j ^+ 2 = 0.
  by apply: (psumr_eq0P _ A0) => // k _; rewrite sumr_ge0 // => l _; rewrite sqr_ge0.
apply/eqP; rewrite -sqrf_eq0; apply/eqP.
by apply: (psumr_eq0P _ Ai) => // k _; rewrite sqr_ge0.
Qed.

Lemma fdotC m n (A B : 'M[R]_(m, n)) : fdot A B = fdot B A.
Proof. by rewrite /fdot -mxtrace_tr trmx_mul trmxK. Qed.

Lemma fdotDl m n (A B C : 'M[R]_(m, n)) : fdot (A + B) C = fdot A C + fdot B C.
Proof. by rewrite /fdot mulmxDl mxtraceD. Qed.

Lemma fdotDr m n (A B C : 'M[R]_(m, n)) : fdot A (B + C) = fdot A B + fdot A C.
Proof. by rewrite fdotC fdotDl !(fdotC A). Qed.

Lemma fdotZl m n a (A B : 'M[R]_(m, n)) : fdot (a *: A) B = a * fdot A B.
Proof. by rewrite /fdot -scalemxAl mxtraceZ. Qed.

Lemma fdotZr m n a (A B : 'M[R]_(m, n)) : fdot A (a *: B) = a * fdot A B.
Proof. by rewrite fdotC fdotZl fdotC. Qed.

Lemma fdotNl m n (A B : 'M[R]_(m, n)) : fdot (- A) B = - fdot A B.
Proof. by rewrite -scaleN1r fdotZl mulN1r. Qed.

Lemma fdotNr m n (A B : 'M[R]_(m, n)) : fdot A (- B) = - fdot A B.
Proof. by rewrite fdotC fdotNl fdotC. Qed.

Lemma fdotBl m n (A B C : 'M[R]_(m, n)) : fdot (A - B) C = fdot A C - fdot B C.
Proof. by rewrite fdotDl fdotNl. Qed.

Lemma fdotBr m n (A B C : 'M[R]_(m, n)) : fdot A (B - C) = fdot A B - fdot A C.
Proof. by rewrite fdotDr fdotNr. Qed.

Lemma fdot0l m n (A : 'M[R]_(m, n)) : fdot 0 A = 0.
Proof. by rewrite /fdot mul0mx /mxtrace big1 // => i _; rewrite mxE. Qed.

Lemma fdot0r m n (A : 'M[R]_(m, n)) : fdot A 0 = 0.
Proof. by rewrite fdotC fdot0l. Qed.

(* The adjoint of right multiplication by M is right multiplication by M^T. *)
Lemma fdotMr m n p (A : 'M[R]_(m, n)) (M : 'M[R]_(n, p)) (B : 'M[R]_(m, p)) :
  fdot (A *m M) B = fdot A (B *m M^T).
Proof. by rewrite /fdot trmx_mul trmxK mulmxA. Qed.

Lemma fnorm2D m n (A B : 'M[R]_(m, n)) :
  fnorm2 (A + B) = fnorm2 A + fnorm2 B + 2 * fdot A B.
Proof.
by rewrite /fnorm2 fdotDl !fdotDr (fdotC B A); ring.
Qed.

Lemma fnorm2Z m n a (A : 'M[R]_(m, n)) : fnorm2 (a *: A) = a ^+ 2 * fnorm2 A.
Proof. by rewrite /fnorm2 fdotZl fdotZr mulrA expr2. Qed.

Lemma fnorm2N m n (A : 'M[R]_(m, n)) : fnorm2 (- A) = fnorm2 A.
Proof. by rewrite /fnorm2 fdotNl fdotNr opprK. Qed.

(* Cauchy-Schwarz for the Frobenius inner product, squared. *)
Lemma fdot_sqr_le m n (A B : 'M[R]_(m, n)) : fdot A B ^+ 2 <= fnorm2 A * fnorm2 B.
Proof.
have [A0|Apos] := eqVneq (fnorm2 A) 0.
  by rewrite (fnorm2_eq0 A0) fdot0l expr0n /= fnorm2E big1 ?mul0r // => i _; rewrite big1 // => j _; rewrite mxE expr0n.
have a_gt0 : 0 < fnorm2 A by rewrite lt0r Apos fnorm2_ge0.
have := fnorm2_ge0 (fnorm2 A *: B - fdot A B *: A).
rewrite fnorm2D fnorm2Z fnorm2N fnorm2Z fdotNr fdotZl fdotZr (fdotC B A).
have -> : fnorm2 A ^+ 2 * fnorm2 B + fdot A B ^+ 2 * fnorm2 A +
    2 * - (fnorm2 A * (fdot A B * fdot A B)) =
    fnorm2 A * (fnorm2 A * fnorm2 B - fdot A B ^+ 2) by ring.
by rewrite pmulr_rge0 // subr_ge0.
Qed.

(* ||A B||_F^2 <= ||A||_F^2 ||B||_F^2. *)
Lemma fnorm2_mulmx_le m n p (A : 'M[R]_(m, n)) (B : 'M[R]_(n, p)) :
  fnorm2 (A *m B) <= fnorm2 A * fnorm2 B.
Proof.
have rowE i : fnorm2 (row i A) = \sum_k A i k ^+ 2.
  by rewrite fnorm2E big_ord1; apply: eq_bigr => k _; rewrite mxE.
have colE j : fnorm2 (col j B)^T = \sum_k B k j ^+ 2.
  by rewrite fnorm2E big_ord1; apply: eq_bigr => k _; rewrite !mxE.
have entryE i j : fdot (row i A) (col j B)^T = (A *m B) i j.
  by rewrite fdotE big_ord1 mxE; apply: eq_bigr => k _; rewrite !mxE.
have fA : fnorm2 A = \sum_i fnorm2 (row i A).
  by rewrite fnorm2E; apply: eq_bigr => i _; rewrite rowE.
have fB : fnorm2 B = \sum_j fnorm2 (col j B)^T.
  by rewrite fnorm2E exchange_big; apply: eq_bigr => j _; rewrite colE.
rewrite fA fB big_distrlr /= fnorm2E; apply: ler_sum => i _; apply: ler_sum => j _.
by rewrite -entryE fdot_sqr_le.
Qed.

End Frobenius.
Section Gram.
Variable R : realFieldType.

Definition gram m n (X : 'M[R]_(m, n)) : 'M[R]_m := X *m X^T.

Lemma gram_tr m n (X : 'M[R]_(m, n)) : (gram X)^T = gram X.
Proof. by rewrite /gram trmx_mul trmxK. Qed.

Lemma fnorm2_gram m n (X : 'M[R]_(m, n)) : fnorm2 X = \tr (gram X).
Proof. by []. Qed.

Lemma mul_tr_self_eq0 m n (A : 'M[R]_(m, n)) : A *m A^T = 0 -> A = 0.
Proof. by move=> A0; apply: fnorm2_eq0; rewrite /fnorm2 /fdot A0 /mxtrace big1 // => i _; rewrite mxE. Qed.

(* V (X X^T) = 0 forces V X = 0. *)
Lemma mulmx_gram_eq0 p m n (V : 'M[R]_(p, m)) (X : 'M[R]_(m, n)) :
  V *m gram X = 0 -> V *m X = 0.
Proof.
move=> VG; apply: mul_tr_self_eq0.
by rewrite trmx_mul mulmxA -(mulmxA V) -/(gram X) VG mul0mx.
Qed.

(* Rows in the row space of X^T (= the column space of X) are orthogonal to anything that X
   annihilates from the right. *)
Lemma fdot_range_ker p m n (D E : 'M[R]_(p, m)) (X : 'M[R]_(m, n)) :
  (D <= X^T)%MS -> E *m X = 0 -> fdot D E = 0.
Proof.
case/submxP=> C -> EX; rewrite fdotMr trmxK EX fdot0r //.
Qed.

(* The row space of X X^T is the row space of X^T: the range of X. *)
Lemma eqmx_gram m n (X : 'M[R]_(m, n)) : (gram X :=: X^T)%MS.
Proof.
apply/eqmxP; have sub : (gram X <= X^T)%MS by exact: submxMl.
have le : (\rank X^T <= \rank (gram X))%N.
  have kk : (kermx (gram X) <= kermx X)%MS.
    by rewrite sub_kermx (mulmx_gram_eq0 (mulmx_ker _)).
  have := mxrankS kk; rewrite !mxrank_ker mxrank_tr.
  by have := rank_leq_row X; have := rank_leq_row (gram X); lia.
have [_ eqr] := mxrank_leqif_sup sub.
by rewrite sub /= -eqr eqn_leq le andbT; apply: mxrankS.
Qed.

Lemma eqmx_gram2 m n (X : 'M[R]_(m, n)) : (gram X *m gram X :=: X^T)%MS.
Proof.
have -> : gram X *m gram X = gram (gram X) by rewrite /gram gram_tr.
by apply: eqmx_trans (eqmx_gram _) _; rewrite gram_tr; apply: eqmx_gram.
Qed.

End Gram.
Section LeastSquares.
Variables (R : realFieldType) (d N o : nat).
Variables (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)).

Local Notation H := (gram X).

(* W+ = Y X^T (H H)^- H, for any generalised inverse (H H)^- (mathcomp's pinvmx). *)
Definition min_norm_ls : 'M[R]_(o, d) := Y *m X^T *m pinvmx (H *m H) *m H.

Definition normal_eq (W : 'M[R]_(o, d)) := W *m H = Y *m X^T.

Definition ls_loss (W : 'M[R]_(o, d)) := fnorm2 (W *m X - Y).

Theorem min_norm_ls_normal : normal_eq min_norm_ls.
Proof.
rewrite /normal_eq /min_norm_ls -mulmxA mulmxKpV //.
by rewrite (eqmx_gram2 X); apply: submxMl.
Qed.

Theorem min_norm_ls_range : (min_norm_ls <= X^T)%MS.
Proof. by apply: submx_trans (submxMl _ _) _; rewrite (eqmx_gram X). Qed.

Lemma ls_loss_split W V : normal_eq W ->
  ls_loss V = ls_loss W + fnorm2 ((V - W) *m X).
Proof.
move=> nW; rewrite /ls_loss; have -> : V *m X - Y = (W *m X - Y) + (V - W) *m X.
  by rewrite mulmxBl [RHS]addrC addrA subrK.
rewrite fnorm2D (fdotC (W *m X - Y)) fdotMr (mulmxBl (W *m X)) -mulmxA -/(gram X) nW subrr fdot0r.
by rewrite mulr0 addr0.
Qed.

Lemma normal_eq_diff W V : normal_eq W -> normal_eq V -> (V - W) *m X = 0.
Proof. by move=> nW nV; apply: mulmx_gram_eq0; rewrite mulmxBl nW nV subrr. Qed.

(* A least-squares solution is a solution of the normal equations, and conversely. *)
Theorem least_squares_normalP W :
  (forall V, ls_loss W <= ls_loss V) <-> normal_eq W.
Proof.
split=> [Wmin | nW V]; last by rewrite (ls_loss_split V nW) ler_addl fnorm2_ge0.
have := Wmin min_norm_ls; rewrite (ls_loss_split W min_norm_ls_normal) ger_addl => le0.
have /fnorm2_eq0 D0 : fnorm2 ((W - min_norm_ls) *m X) = 0.
  by apply/eqP; rewrite eq_le le0 fnorm2_ge0.
rewrite /normal_eq -min_norm_ls_normal; apply/eqP; rewrite -subr_eq0 -mulmxBl /gram mulmxA D0.
by rewrite mul0mx.
Qed.

(* Pythagoras: every other solution of the normal equations is longer. *)
Lemma normal_eq_norm V : normal_eq V ->
  fnorm2 V = fnorm2 min_norm_ls + fnorm2 (V - min_norm_ls).
Proof.
move=> nV; rewrite -{1}(subrK min_norm_ls V) addrC fnorm2D.
by rewrite (fdot_range_ker min_norm_ls_range (normal_eq_diff min_norm_ls_normal nV)) mulr0 addr0.
Qed.

(* The solution of the normal equations in the range of X is unique. *)
Theorem min_norm_ls_unique W : (W <= X^T)%MS -> normal_eq W -> W = min_norm_ls.
Proof.
move=> WX nW; apply/eqP; rewrite -subr_eq0; apply/eqP/fnorm2_eq0.
apply: fdot_range_ker; last exact: normal_eq_diff min_norm_ls_normal nW.
by rewrite addmx_sub // -scaleN1r scalemx_sub // min_norm_ls_range.
Qed.

(* W+ is the minimum-norm least-squares solution: W = W+ iff W minimises the loss and has the
   least Frobenius norm among all minimisers. *)
Theorem min_norm_least_squares_spec W :
  W = min_norm_ls <->
  (forall V, ls_loss W <= ls_loss V) /\
  (forall V, (forall U, ls_loss V <= ls_loss U) -> fnorm2 W <= fnorm2 V).
Proof.
split=> [-> | [Wmin Wleast]].
  split; first exact/least_squares_normalP/min_norm_ls_normal.
  by move=> V /least_squares_normalP nV; rewrite (normal_eq_norm nV) ler_addl fnorm2_ge0.
have nW := (least_squares_normalP W).1 Wmin.
have := Wleast _ ((least_squares_normalP _).2 min_norm_ls_normal).
rewrite (normal_eq_norm nW) ger_addl => le0.
have /fnorm2_eq0 D0 : fnorm2 (W - min_norm_ls) = 0 by apply/eqP; rewrite eq_le le0 fnorm2_ge0.
by apply/eqP; rewrite -subr_eq0 D0.
Qed.

(* OLS: with X X^T invertible (full row rank), W+ = Y X^T (X X^T)^-1. *)
Theorem ols_closed_form : H \in unitmx -> min_norm_ls = Y *m X^T *m invmx H.
Proof. by move=> Hu; rewrite -min_norm_ls_normal mulmxK. Qed.

End LeastSquares.
Section Ridge.
Variables (R : realFieldType) (d N o : nat).
Variables (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)).

Local Notation H := (gram X).
Local Notation Wp := (min_norm_ls X Y).

(* Ridge, as src/references/regression_solutions.hpp: W = Y X^T (X X^T + lambda I)^-1. *)
Definition ridge (lambda : R) : 'M[R]_(o, d) := Y *m X^T *m invmx (H + lambda%:M).

Lemma ridge_unitmx lambda : 0 < lambda -> H + lambda%:M \in unitmx.
Proof.
move=> lpos; rewrite -row_free_unit -kermx_eq0; apply/eqP.
set K := kermx _; have K0 : fdot K (K *m (H + lambda%:M)) = 0 by rewrite mulmx_ker fdot0r.
move: K0; rewrite mulmxDr fdotDr mul_mx_scalar fdotZr -/(fnorm2 K) /gram mulmxA -fdotMr.
move/eqP; rewrite paddr_eq0 ?mulr_ge0 ?fnorm2_ge0 ?ltW // => /andP[_].
by rewrite mulf_eq0 gt_eqF //= => /eqP/fnorm2_eq0.
Qed.

(* The gap is an exact identity: W_ridge(lambda) - W+ = - lambda W+ (X X^T + lambda I)^-1. *)
Theorem ridge_min_norm_gap lambda : 0 < lambda ->
  ridge lambda - Wp = - lambda *: (Wp *m invmx (H + lambda%:M)).
Proof.
move=> lpos; have Au := ridge_unitmx lpos.
rewrite /ridge -(min_norm_ls_normal X Y) -{2}(mulmxK Au Wp) -mulmxBl -mulmxBr.
have -> : H - (H + lambda%:M) = (- lambda)%:M by rewrite opprD addrA subrr add0r raddfN.
by rewrite mul_mx_scalar -scalemxAl.
Qed.

Lemma fdot_rows m n (A B : 'M[R]_(m, n)) : fdot A B = \sum_i fdot (row i A) (row i B).
Proof.
rewrite fdotE; apply: eq_bigr => i _; rewrite fdotE big_ord1.
by apply: eq_bigr => j _; rewrite !mxE.
Qed.

(* mu is a lower bound on ||v X||^2 / ||v||^2 over the nonzero v in the range of X, i.e. mu <=
   sigma_min(X)^2, the square of the least NONZERO singular value of X (and mu = sigma_min(X)^2
   satisfies it, by the singular value decomposition). *)
Definition sv_lower_bound (mu : R) :=
  forall v : 'rV[R]_d, (v <= X^T)%MS -> mu * fnorm2 v <= fnorm2 (v *m X).

Lemma sv_lower_bound_mx mu (U : 'M[R]_(o, d)) :
  sv_lower_bound mu -> (U <= X^T)%MS -> mu * fnorm2 U <= fnorm2 (U *m X).
Proof.
move=> hmu UX; rewrite /fnorm2 !(fdot_rows) mulr_sumr; apply: ler_sum => i _.
by rewrite row_mul; apply: hmu; apply: submx_trans (row_sub i U) UX.
Qed.

(* The ridge -> min-norm bound, squared: ||W_ridge(lambda) - W+||_F^2
   <= (lambda / (lambda + mu))^2 ||W+||_F^2. *)
Theorem ridge_min_norm_bound2 lambda mu : 0 < lambda -> 0 <= mu -> sv_lower_bound mu ->
  fnorm2 (ridge lambda - Wp) <= (lambda / (lambda + mu)) ^+ 2 * fnorm2 Wp.
Proof.
move=> lpos mu0 hmu; have Au := ridge_unitmx lpos.
rewrite ridge_min_norm_gap // fnorm2Z sqrrN.
set U := Wp *m invmx _.
have UA : U *m (H + lambda%:M) = Wp by rewrite /U mulmxKV.
have UX : (U <= X^T)%MS.
  have -> : U = lambda^-1 *: (Wp - U *m H).
    by rewrite -{1}UA mulmxDr mul_mx_scalar addrAC subrr add0r scalerA mulVf ?gt_eqF // scale1r.
  rewrite scalemx_sub // addmx_sub ?min_norm_ls_range // -scaleN1r scalemx_sub //.
  by apply: submx_trans (submxMl _ _) _; rewrite (eqmx_gram X).
have key : (lambda + mu) * fnorm2 U <= fdot U Wp.
  rewrite -UA mulmxDr fdotDr mul_mx_scalar fdotZr -/(fnorm2 U) /gram mulmxA -fdotMr.
  by rewrite -/(fnorm2 (U *m X)) mulrDl addrC ler_add2r sv_lower_bound_mx.
have lm_gt0 : 0 < lambda + mu by rewrite ltr_paddr.
have [U0|Upos] := eqVneq (fnorm2 U) 0.
  by rewrite U0 mulr0 mulr_ge0 ?sqr_ge0 ?fnorm2_ge0.
have U_gt0 : 0 < fnorm2 U by rewrite lt0r Upos fnorm2_ge0.
have sq : ((lambda + mu) * fnorm2 U) * ((lambda + mu) * fnorm2 U) <= fnorm2 U * fnorm2 Wp.
  apply: le_trans (fdot_sqr_le U Wp); rewrite expr2.
  by apply: ler_pmul => //; rewrite mulr_ge0 ?fnorm2_ge0 ?ltW.
have sq' : (lambda + mu) ^+ 2 * fnorm2 U <= fnorm2 Wp.
  rewrite -(ler_pmul2r U_gt0) (mulrC (fnorm2 Wp)); apply: le_trans sq; rewrite expr2.
  by rewrite le_eqVlt; apply/orP; left; apply/eqP; ring.
rewrite expr_div_n (mulrAC (lambda ^+ 2)) -(mulrA (lambda ^+ 2)) ler_pmul2l ?exprn_gt0 //.
by rewrite ler_pdivl_mulr ?exprn_gt0 // mulrC.
Qed.

(* A generalised inverse G of H = X X^T (H G H = H) kills nothing of X: G X = 0 forces X = 0. *)
Lemma ginv_mulmx_eq0 (G : 'M[R]_d) : H *m G *m H = H -> G *m X = 0 -> X = 0.
Proof.
move=> HGH GX0; apply: mul_tr_self_eq0; rewrite -/(gram X) -HGH -mulmxA /gram (mulmxA G) GX0.
by rewrite mul0mx mulmx0.
Qed.

(* sv_lower_bound_pinvmx for ANY generalised inverse G of H (H G H = H), not only mathcomp's
   pinvmx: mu = 1 / ||G X||_F^2 qualifies.  The C++ computes such a G by exact elimination and
   checks H G H = H. *)
Theorem sv_lower_bound_ginv (G : 'M[R]_d) : H *m G *m H = H ->
  sv_lower_bound (fnorm2 (G *m X))^-1.
Proof.
move=> HGH v vX; set M := G *m X.
have vGH : v *m G *m H = v.
  have /submxP[w ->] : (v <= H)%MS by rewrite (eqmx_gram X).
  by rewrite -(mulmxA w) -mulmxA HGH.
have e : fnorm2 v = fdot (v *m M) (v *m X).
  rewrite /M (mulmxA v) /fnorm2 -{1}vGH /gram.
  by rewrite (mulmxA (v *m G)) (fdotMr (v *m G *m X)) trmxK.
have cs : fnorm2 v * fnorm2 v <= fnorm2 v * (fnorm2 M * fnorm2 (v *m X)).
  apply: le_trans (_ : fdot (v *m M) (v *m X) ^+ 2 <= _); first by rewrite -e expr2.
  apply: le_trans (fdot_sqr_le _ _) _; rewrite mulrA ler_wpmul2r ?fnorm2_ge0 //.
  exact: fnorm2_mulmx_le.
have [v0|vpos] := eqVneq (fnorm2 v) 0; first by rewrite v0 mulr0 fnorm2_ge0.
have [M0|Mpos] := eqVneq (fnorm2 M) 0; first by rewrite M0 invr0 mul0r fnorm2_ge0.
rewrite ler_pdivr_mull ?lt0r ?Mpos ?fnorm2_ge0 //.
by rewrite -(ler_pmul2l (_ : 0 < fnorm2 v)) ?lt0r ?vpos ?fnorm2_ge0.
Qed.

(* A valid mu always exists: mu = 1 / ||(X X^T)^- X||_F^2 (mathcomp's generalised inverse
   pinvmx; mu = 0 only for X = 0).  With the Moore-Penrose inverse, ||H^+ X||_F^2 is the sum of
   1 / sigma_i^2 over the nonzero singular values (not proved here), so this mu is within a factor
   rank(X) of sigma_min^2.  The corollary of sv_lower_bound_ginv for G = pinvmx H, a generalised
   inverse of H by mulmxKpV (H <= H). *)
Theorem sv_lower_bound_pinvmx : sv_lower_bound (fnorm2 (pinvmx H *m X))^-1.
Proof. exact: sv_lower_bound_ginv (mulmxKpV (submx_refl H)). Qed.

(* The bound of ridge_min_norm_pinvmx_bound, squared (no square root, so it holds over any real
   field and an exact rational check evaluates it) and for ANY generalised inverse G of X X^T:
   ||W_ridge(lambda) - W+||_F^2 <= (lambda ||G X||_F^2)^2 ||W+||_F^2.
   references.ridge_tends_to_min_norm_least_squares checks it in exact rationals. *)
Theorem ridge_min_norm_ginv_bound2 (G : 'M[R]_d) lambda : 0 < lambda -> H *m G *m H = H ->
  fnorm2 (ridge lambda - Wp) <= (lambda * fnorm2 (G *m X)) ^+ 2 * fnorm2 Wp.
Proof.
move=> lpos HGH; set M := G *m X.
have [M0|Mpos] := eqVneq (fnorm2 M) 0.
  have X0 := ginv_mulmx_eq0 HGH (fnorm2_eq0 M0).
  rewrite /ridge /min_norm_ls /gram X0 trmx0 !mulmx0 !mul0mx subrr.
  by rewrite /fnorm2 !fdot0l mulr0.
have M_gt0 : 0 < fnorm2 M by rewrite lt0r Mpos fnorm2_ge0.
have mu_gt0 : 0 < (fnorm2 M)^-1 by rewrite invr_gt0.
apply: le_trans (ridge_min_norm_bound2 lpos (ltW mu_gt0) (sv_lower_bound_ginv HGH)) _.
rewrite ler_wpmul2r ?fnorm2_ge0 //.
have h1 : 0 <= lambda / (lambda + (fnorm2 M)^-1) by rewrite divr_ge0 // ltW // addr_gt0.
have h2 : 0 <= lambda * fnorm2 M by rewrite mulr_ge0 ?fnorm2_ge0 ?ltW.
rewrite ler_sqr ?nnegrE // -[X in _ <= lambda * X]invrK ler_pmul2l // lef_pinv ?posrE ?addr_gt0 //.
by rewrite ler_addr ltW.
Qed.

End Ridge.

Section RidgeNorm.
Variables (R : rcfType) (d N o : nat).
Variables (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)).

Definition frobenius m n (A : 'M[R]_(m, n)) := Num.sqrt (fnorm2 A).

(* references.ridge_tends_to_min_norm_least_squares:
   ||W_ridge(lambda) - W+||_F <= (lambda / sigma_min(X)^2) ||W+||_F, with sigma_min(X)^2
   entering as any mu > 0 with mu ||v||^2 <= ||v X||^2 on the range of X (sv_lower_bound). *)
Theorem ridge_tends_to_min_norm_least_squares lambda mu :
  0 < lambda -> 0 < mu -> sv_lower_bound X mu ->
  frobenius (ridge X Y lambda - min_norm_ls X Y) <= lambda / mu * frobenius (min_norm_ls X Y).
Proof.
move=> lpos mupos hmu; have := ridge_min_norm_bound2 Y lpos (ltW mupos) hmu.
have le : (lambda / (lambda + mu)) ^+ 2 <= (lambda / mu) ^+ 2.
  have h1 : 0 <= lambda / (lambda + mu) by rewrite divr_ge0 // ltW // addr_gt0.
  have h2 : 0 <= lambda / mu by rewrite divr_ge0 // ltW.
  rewrite ler_sqr ?nnegrE // ler_pmul2l // lef_pinv ?posrE ?addr_gt0 //.
  by rewrite ler_addr ltW.
move=> /le_trans /(_ (ler_wpmul2r (fnorm2_ge0 _) le)) /ler_wsqrtr.
by rewrite /frobenius sqrtrM ?sqr_ge0 // sqrtr_sqr ger0_norm // divr_ge0 ?ltW.
Qed.

(* Ridge -> min-norm least squares as lambda -> 0, with no assumption on X: the rate constant
   is ||(X X^T)^- X||_F^2 (sv_lower_bound_pinvmx) instead of 1 / sigma_min(X)^2. *)
Theorem ridge_min_norm_pinvmx_bound lambda : 0 < lambda ->
  frobenius (ridge X Y lambda - min_norm_ls X Y)
    <= lambda * fnorm2 (pinvmx (gram X) *m X) * frobenius (min_norm_ls X Y).
Proof.
move=> lpos; set M := pinvmx (gram X) *m X.
have [M0|Mpos] := eqVneq (fnorm2 M) 0.
  have X0 : X = 0.
    have HPH : gram X *m pinvmx (gram X) *m gram X = gram X by apply: mulmxKpV.
    have PX0 : pinvmx (gram X) *m X = 0 := fnorm2_eq0 M0.
    have PH0 : pinvmx (gram X) *m gram X = 0.
      by rewrite (mulmxA (pinvmx (gram X)) X X^T) PX0 mul0mx.
    by apply: mul_tr_self_eq0; rewrite -/(gram X) -HPH -mulmxA PH0 mulmx0.
  rewrite /ridge /min_norm_ls /gram X0 trmx0 !mulmx0 !mul0mx subrr /frobenius.
  by rewrite /fnorm2 fdot0l sqrtr0 mulr0.
have mu_gt0 : 0 < (fnorm2 M)^-1 by rewrite invr_gt0 lt0r Mpos fnorm2_ge0.
have := ridge_tends_to_min_norm_least_squares lpos mu_gt0 (@sv_lower_bound_pinvmx _ _ _ X).
by rewrite invrK.
Qed.

End RidgeNorm.
