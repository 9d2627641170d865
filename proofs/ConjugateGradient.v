(* ConjugateGradient.v -- conjugate gradient exactly as src/references/first_order_methods.hpp
   runs it, its invariants, its finite termination in rank(H) steps, and its limit: the
   minimum-norm least-squares solution; composed with Memformer.cgd_memformer_cg, the CGD
   Memformer after rank(X) layers.  Over any real field (realFieldType).

   CG (conjugate_gradient in the C++), on row vectors (w^T etc.; H is symmetric):
     r_0 = b, s_(-1) = 0, rr_(-1) = 0;  for l = 0, 1, ...:
       gamma_l = r_l^T r_l / rr_(l-1),  s_l = r_l + gamma_l s_(l-1),
       alpha_l = r_l^T r_l / s_l^T H s_l,  w_(l+1) = w_l + alpha_l s_l,
       r_(l+1) = r_l - alpha_l H s_l,  rr_l = r_l^T r_l.
   mathcomp's x / 0 = 0 is exactly the C++ guards (gamma = 0 when rr_prev = 0, alpha = 0 when
   s^T H s = 0).  cgw l = w_l, cgr l = r_l, cgs l = s_l, cga l = alpha_l, cgg l = gamma_l.

   Main results (for H with H^T = H and v^T H v = 0 -> H v = 0, b in the range of H; both hold
   for H = c X X^T, b = c X y^T, c > 0, the C++ problem with c = 1/N)
   - cg_residual_forms : the recursive residual is the true one, r_l = b - H w_l (= -grad R(w_l)).
   - cg_alpha_formulas : alpha_l = r_l^T r_l / s_l^T H s_l = r_l^T s_l / s_l^T H s_l.
   - cg_gamma_formulas : gamma_(l+1) = r_(l+1)^T r_(l+1) / r_l^T r_l
       = - r_(l+1)^T H s_l / s_l^T H s_l.
   - cg_exact_line_search : r_(l+1)^T s_l = 0 (alpha_l minimises R along s_l).
   - cg_residuals_orthogonal : r_j^T r_i = 0 for i < j.
   - cg_directions_conjugate : s_i^T H s_j = 0 for i < j.
   - cg_finite_termination : r_n = 0 for every n >= rank(H) (nonzero residuals are orthogonal
       vectors in the range of H: cg_nonzero_residuals_rank).
   - cg_after_rank_steps : for n >= rank(H), H w_n = b and w_n is in the range of H.
   - cg_after_rank_steps_equals_min_norm : with H = c X X^T, b = c X y^T (c > 0), for
       n >= rank(X), w_n = min_norm_ls X y, the minimum-norm least-squares solution
       (LeastSquares.min_norm_least_squares_spec).  Property
       references.cg_after_rank_steps_equals_min_norm (exact arithmetic).
   - cg_prediction_equals_min_norm : hence x_q^T w_n = x_q^T w+.
   - cgd_after_rank_layers_equals_min_norm(_prediction) : the CGD Memformer of Memformer.v,
       run with these CG coefficients (c = 1/N, N > 0), after L >= rank(X) layers holds
       ahn_state w+ and its query entries read - x_q^T w+.  Property
       memformer.cgd_after_rank_layers_equals_min_norm_prediction (exact arithmetic).

   Dependencies: mathcomp ssreflect/algebra, LeastSquares, AhnLemma1, Memformer.  No axioms. *)

From mathcomp Require Import all_ssreflect all_algebra ring.
From ICLProof Require Import LeastSquares AhnLemma1 Memformer.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.
Import Order.TTheory GRing.Theory Num.Theory.
Local Open Scope ring_scope.

Section CG.
Variables (R : realFieldType) (d : nat) (H : 'M[R]_d) (b : 'rV[R]_d).

(* The state before step l: w_l, the recursive residual r_l, the previous direction s_(l-1) and
   rr_(l-1) = r_(l-1)^T r_(l-1). *)
Record cg_state := CGState { cg_w : 'rV[R]_d; cg_r : 'rV[R]_d; cg_s : 'rV[R]_d; cg_rr : R }.

Definition cg_step (st : cg_state) : cg_state :=
  let rr := fnorm2 (cg_r st) in
  let s := cg_r st + (rr / cg_rr st) *: cg_s st in
  let alpha := rr / fdot s (s *m H) in
  CGState (cg_w st + alpha *: s) (cg_r st - alpha *: (s *m H)) s rr.

(* w_0 = 0, r_0 = b, s_(-1) = 0, rr_(-1) = 0 (so gamma_0 = 0, as in the C++). *)
Definition cg_init := CGState 0 b 0 0.
Fact cg_iter_key : unit. Proof. by []. Qed.
Definition cg_iter : nat -> cg_state :=
  locked_with cg_iter_key (fun n => iter n cg_step cg_init).
Canonical cg_iter_unlockable := [unlockable fun cg_iter].
Lemma cg_iter0 : cg_iter 0 = cg_init. Proof. by rewrite unlock. Qed.
Lemma cg_iterS n : cg_iter n.+1 = cg_step (cg_iter n). Proof. by rewrite unlock. Qed.

Definition cgw n := cg_w (cg_iter n).
Definition cgr n := cg_r (cg_iter n).
Definition cgs n := cg_s (cg_iter n.+1).
Definition cga n := fnorm2 (cgr n) / fdot (cgs n) (cgs n *m H).
Definition cgg n := fnorm2 (cgr n) / cg_rr (cg_iter n).

Lemma cgw0 : cgw 0 = 0. Proof. by rewrite /cgw cg_iter0. Qed.
Lemma cgr0 : cgr 0 = b. Proof. by rewrite /cgr cg_iter0. Qed.
Lemma cgg0 : cgg 0 = 0. Proof. by rewrite /cgg cg_iter0 /= invr0 mulr0. Qed.
Lemma cgs0 : cgs 0 = cgr 0. Proof. by rewrite /cgs /cgr cg_iterS cg_iter0 /= scaler0 addr0. Qed.
Lemma cgsS n : cgs n.+1 = cgr n.+1 + cgg n.+1 *: cgs n.
Proof. by rewrite /cgs (cg_iterS n.+1). Qed.
Lemma cggS n : cgg n.+1 = fnorm2 (cgr n.+1) / fnorm2 (cgr n).
Proof. by rewrite /cgg cg_iterS. Qed.
Lemma cgrS n : cgr n.+1 = cgr n - cga n *: (cgs n *m H).
Proof. by rewrite /cgr /cga /cgs cg_iterS. Qed.
Lemma cgwS n : cgw n.+1 = cgw n + cga n *: cgs n.
Proof. by rewrite /cgw /cga /cgs cg_iterS. Qed.

(* The recursive residual r_(l+1) = r_l - alpha_l H s_l of the C++ is the true residual
   b - H w_l = - grad R(w_l), in exact arithmetic. *)
Theorem cg_residual_forms n : cgr n = b - cgw n *m H.
Proof.
elim: n => [|n IHn]; first by rewrite cgr0 cgw0 mul0mx subr0.
by rewrite cgrS cgwS IHn mulmxDl -scalemxAl opprD addrA.
Qed.

Lemma cgs_res0 n : cgr n = 0 -> cgs n = 0.
Proof.
case: n => [|n] r0; first by rewrite cgs0.
by rewrite cgsS cggS r0 /fnorm2 fdot0l mul0r scale0r addr0.
Qed.

(* Once the residual vanishes, CG stays put: alpha = gamma = 0. *)
Lemma cg_stays n : cgr n = 0 -> cgr n.+1 = 0 /\ cgw n.+1 = cgw n.
Proof.
move=> r0; have s0 := cgs_res0 r0.
by rewrite cgrS cgwS s0 r0 scaler0 addr0 mul0mx scaler0 subr0.
Qed.

Lemma cg_stays_after n m : cgr n = 0 -> (n <= m)%N -> cgr m = 0 /\ cgw m = cgw n.
Proof.
move=> r0; elim: m => [|m IHm]; first by rewrite leqn0 => /eqP n0; subst n.
rewrite leq_eqVlt => /orP [/eqP <- // | ]; rewrite ltnS => /IHm [rm wm].
by have [-> ->] := cg_stays rm.
Qed.

(* The invariants need H symmetric, v^T H v = 0 only when H v = 0 (true for positive
   semidefinite H) and b in the range of H (true for b = X y^T / N, H = X X^T / N). *)
Section Invariants.
Hypothesis Hsym : H^T = H.
Hypothesis Hnull : forall v : 'rV[R]_d, fdot v (v *m H) = 0 -> v *m H = 0.
Hypothesis bH : (b <= H)%MS.

Lemma fdotH (u v : 'rV[R]_d) : fdot u (v *m H) = fdot v (u *m H).
Proof. by rewrite fdotC fdotMr Hsym. Qed.

Lemma range_null (v : 'rV[R]_d) : (v <= H)%MS -> fdot v (v *m H) = 0 -> v = 0.
Proof.
case/submxP=> C -> /Hnull CHH; apply: fnorm2_eq0.
by rewrite /fnorm2 fdotMr Hsym CHH fdot0r.
Qed.

Lemma cg_range n :
  [&& (cgw n <= H)%MS, (cgr n <= H)%MS & (cg_s (cg_iter n) <= H)%MS].
Proof.
elim: n => [|n]; first by rewrite /cgw /cgr cg_iter0 /= bH !sub0mx.
case/and3P=> wH rH sH; rewrite /cgw /cgr cg_iterS /=.
have s'H : ((cg_r (cg_iter n) + (fnorm2 (cg_r (cg_iter n)) / cg_rr (cg_iter n)) *:
            cg_s (cg_iter n))%R <= H)%MS by rewrite addmx_sub // scalemx_sub.
by rewrite s'H !addmx_sub // ?scalemx_sub // -scaleN1r !scalemx_sub // submxMl.
Qed.

Lemma cgw_range n : (cgw n <= H)%MS. Proof. by case/and3P: (cg_range n). Qed.
Lemma cgr_range n : (cgr n <= H)%MS. Proof. by case/and3P: (cg_range n). Qed.
Lemma cgs_range n : (cgs n <= H)%MS. Proof. by case/and3P: (cg_range n.+1). Qed.

Lemma cg_rs n : (forall i, (i < n)%N -> fdot (cgr n) (cgs i) = 0) ->
  fdot (cgr n) (cgs n) = fnorm2 (cgr n).
Proof.
case: n => [|n] orth; first by rewrite cgs0.
by rewrite cgsS fdotDr fdotZr orth // mulr0 addr0.
Qed.

Lemma cg_rr_orth m : (forall i, (i < m)%N -> fdot (cgr m) (cgs i) = 0) ->
  forall k, (k < m)%N -> fdot (cgr m) (cgr k) = 0.
Proof.
move=> orth [|k] km; first by rewrite -cgs0 orth.
have -> : cgr k.+1 = cgs k.+1 - cgg k.+1 *: cgs k by rewrite cgsS addrK.
by rewrite fdotBr fdotZr !orth ?mulr0 ?subr0 // (ltn_trans _ km).
Qed.

(* Either s_i = 0, or s_i^T H s_i != 0 and r_i^T r_i != 0 (so alpha_i != 0). *)
Lemma cg_dir_cases i :
  cgs i = 0 \/ (fdot (cgs i) (cgs i *m H) != 0 /\ fnorm2 (cgr i) != 0).
Proof.
have [q0|qn0] := eqVneq (fdot (cgs i) (cgs i *m H)) 0.
  by left; apply: range_null q0; apply: cgs_range.
have [rr0|rrn0] := eqVneq (fnorm2 (cgr i)) 0; last by right.
by left; apply/cgs_res0/fnorm2_eq0.
Qed.

Lemma cgsH i : fdot (cgs i) (cgs i *m H) != 0 -> fnorm2 (cgr i) != 0 ->
  cgs i *m H = (cga i)^-1 *: (cgr i - cgr i.+1).
Proof.
move=> qn0 rrn0; have an0 : cga i != 0 by rewrite mulf_neq0 ?invr_neq0.
by rewrite cgrS opprB addrC subrK scalerA mulVf // scale1r.
Qed.

(* The CG invariant up to step n: r_m is orthogonal to s_i (i < m <= n) and the directions
   s_0, ..., s_n are H-conjugate. *)
Definition cg_orth n :=
  (forall m i, (i < m)%N -> (m <= n)%N -> fdot (cgr m) (cgs i) = 0) /\
  (forall i j, (i < j)%N -> (j <= n)%N -> fdot (cgs i) (cgs j *m H) = 0).

Lemma cg_orth0 : cg_orth 0.
Proof.
split=> [m i im | i j ij]; rewrite leqn0 => /eqP j0; first by move: im; rewrite j0.
by move: ij; rewrite j0.
Qed.

Lemma cg_orth_step n : cg_orth n -> cg_orth n.+1.
Proof.
case=> orth conj.
have orthn m : (m <= n)%N -> forall i, (i < m)%N -> fdot (cgr m) (cgs i) = 0.
  by move=> mn i im; apply: orth.
have orn := orthn n (leqnn n).
have step : fdot (cgr n.+1) (cgs n) = 0.
  rewrite cgrS fdotBl fdotZl (fdotC (cgs n *m H)) (cg_rs orn).
  case: (cg_dir_cases n) => [s0 | [qn0 rrn0]]; last by rewrite /cga divfK // subrr.
  by move: (cg_rs orn); rewrite s0 fdot0r => <-; rewrite mul0mx fdot0r mulr0 subrr.
have orth' : forall i, (i < n.+1)%N -> fdot (cgr n.+1) (cgs i) = 0.
  move=> i; rewrite ltnS leq_eqVlt => /orP [/eqP -> // | lt_in].
  rewrite cgrS fdotBl fdotZl orth // (fdotC (cgs n *m H)) (conj i n) //.
  by rewrite mulr0 subr0.
have rr := cg_rr_orth orth'.
split=> [m i im | i j ij].
  rewrite leq_eqVlt => /orP [/eqP mn | ]; first by rewrite mn; apply: orth'; rewrite -mn.
  by rewrite ltnS; apply: orth.
rewrite leq_eqVlt => /orP [/eqP jn | ]; last by rewrite ltnS; apply: conj.
move: ij; rewrite jn cgsS mulmxDl fdotDr -scalemxAl fdotZr fdotH ltnS => ilen.
case: (cg_dir_cases i) => [-> | [qn0 rrn0]]; first by rewrite fdot0l mul0mx fdot0r mulr0 addr0.
rewrite cgsH // fdotZr fdotBr rr ?ltnS // sub0r.
move: ilen; rewrite leq_eqVlt => /orP [/eqP -> | ilt].
  rewrite cggS /cga invf_div -/(fnorm2 (cgr n.+1)).
  move: (fdot _ _) (fnorm2 (cgr n)) (fnorm2 (cgr n.+1)) => x y z.
  by rewrite mulrN addrC [z / y * x]mulrAC [x / y * z]mulrAC (mulrC z) subrr.
by rewrite rr ?ltnS // (conj i n) ?oppr0 ?mulr0 ?addr0.
Qed.

Theorem cg_orthogonality n : cg_orth n.
Proof. by elim: n => [|n]; [apply: cg_orth0 | apply: cg_orth_step]. Qed.

(* r_j is orthogonal to every earlier residual. *)
Theorem cg_residuals_orthogonal i j : (i < j)%N -> fdot (cgr j) (cgr i) = 0.
Proof.
have [orth _] := cg_orthogonality j.
by apply: cg_rr_orth => k kj; apply: orth.
Qed.

(* The directions are H-conjugate. *)
Theorem cg_directions_conjugate i j : (i < j)%N -> fdot (cgs i) (cgs j *m H) = 0.
Proof. by have [_ conj] := cg_orthogonality j => ij; apply: conj. Qed.

(* Exact line search: the new residual -grad R(w_(l+1)) is orthogonal to s_l, i.e. alpha_l
   minimises alpha |-> R(w_l + alpha s_l). *)
Theorem cg_exact_line_search n : fdot (cgr n.+1) (cgs n) = 0.
Proof. by have [orth _] := cg_orthogonality n.+1; apply: orth. Qed.

(* The two alpha formulas agree: r^T r / s^T H s (the C++) = r^T s / s^T H s (line search). *)
Theorem cg_alpha_formulas n :
  cga n = fdot (cgr n) (cgs n) / fdot (cgs n) (cgs n *m H).
Proof.
have [orth _] := cg_orthogonality n.
by rewrite cg_rs // => i ni; apply: orth.
Qed.

(* The two gamma formulas agree: r_(l+1)^T r_(l+1) / r_l^T r_l (Fletcher-Reeves form, the C++)
   = - r_(l+1)^T H s_l / s_l^T H s_l (the conjugacy-enforcing, Hestenes-Stiefel form). *)
Theorem cg_gamma_formulas n :
  cgg n.+1 = - fdot (cgr n.+1) (cgs n *m H) / fdot (cgs n) (cgs n *m H).
Proof.
have [orth _] := cg_orthogonality n.
have rs := cg_rs (fun i ni => orth n i ni (leqnn n)).
case: (cg_dir_cases n) => [s0 | [qn0 rrn0]].
  move: rs; rewrite cggS s0 fdot0r => <-.
  by rewrite invr0 mulr0 mul0mx fdot0r oppr0 mul0r.
rewrite cggS {1}cgsH // fdotZr fdotBr cg_residuals_orthogonal // sub0r /cga invf_div.
rewrite -/(fnorm2 (cgr n.+1)).
move: (fdot (cgs n) (cgs n *m H)) (fnorm2 (cgr n)) (fnorm2 (cgr n.+1)) qn0 => x y z xn0.
by rewrite mulrN opprK mulrAC [x / y / x]mulrAC divff // mul1r mulrC.
Qed.

(* Nonzero residuals r_0, ..., r_k are orthogonal and lie in the range of H: k < rank H. *)
Lemma cg_nonzero_residuals_rank k : (forall i, (i <= k)%N -> cgr i != 0) -> (k < \rank H)%N.
Proof.
move=> nz; pose M := \matrix_(i < k.+1) cgr i.
have MH : (M <= H)%MS by apply/row_subP => i; rewrite rowK cgr_range.
have MMt : M *m M^T = diag_mx (\row_(i < k.+1) fnorm2 (cgr i)).
  apply/matrixP => i j; rewrite !mxE.
  have -> : \sum_l M i l * M^T l j = fdot (cgr i) (cgr j).
    by rewrite fdotE big_ord1; apply: eq_bigr => l _; rewrite !mxE.
  have [ij | ji | /val_inj ij] := ltngtP i j; last by rewrite ij eqxx mulr1n.
    by rewrite fdotC cg_residuals_orthogonal // -val_eqE (ltn_eqF ij) mulr0n.
  by rewrite cg_residuals_orthogonal // -val_eqE (gtn_eqF ji) mulr0n.
have U : M *m M^T \in unitmx.
  rewrite unitmxE MMt det_diag unitfE; apply/prodf_neq0 => i _; rewrite mxE.
  by apply/eqP => /fnorm2_eq0; apply/eqP/nz; rewrite -ltnS.
have := mxrankM_maxl M M^T; rewrite mxrank_unit // => kM.
exact: leq_trans kM (mxrankS MH).
Qed.

(* Finite termination: after rank(H) steps the residual is zero (and stays zero). *)
Theorem cg_finite_termination n : (\rank H <= n)%N -> cgr n = 0.
Proof.
move=> rn; have [/existsP [k /eqP rk] | none] := boolP [exists k : 'I_(\rank H).+1, cgr k == 0].
  by have [] := cg_stays_after rk (leq_trans (ltnSE (ltn_ord k)) rn).
suff : (\rank H < \rank H)%N by rewrite ltnn.
apply: cg_nonzero_residuals_rank => i ir.
by move/existsPn: none => /(_ (Ordinal (ir : (i < (\rank H).+1)%N))).
Qed.

(* After rank(H) steps, w solves H w = b and lies in the range of H. *)
Theorem cg_after_rank_steps n : (\rank H <= n)%N -> cgw n *m H = b /\ (cgw n <= H)%MS.
Proof.
move=> rn; split; last exact: cgw_range.
by apply/eqP; rewrite eq_sym -subr_eq0 -cg_residual_forms cg_finite_termination.
Qed.

End Invariants.
End CG.

Section CGLeastSquares.
Variables (R : realFieldType) (d N : nat) (X : 'M[R]_(d, N)) (y : 'rV[R]_N) (c : R).
Hypothesis c_gt0 : 0 < c.

(* The C++ problem (first_order_methods.hpp, make_quadratic_problem) has c = 1/N:
   H = X X^T / N, b = X y^T / N (b as a row vector: y X^T / N). *)
Local Notation H := (c *: gram X).
Local Notation b := (c *: (y *m X^T)).

Lemma cg_scale_neq0 : c != 0. Proof. by rewrite gt_eqF. Qed.

Lemma scaled_gram_sym : H^T = H.
Proof. by rewrite linearZ /= gram_tr. Qed.

Lemma scaled_gram_null (v : 'rV[R]_d) : fdot v (v *m H) = 0 -> v *m H = 0.
Proof.
rewrite -scalemxAr fdotZr /gram mulmxA -fdotMr -/(fnorm2 (v *m X)) => /eqP.
by rewrite mulf_eq0 (negbTE cg_scale_neq0) /= => /eqP/fnorm2_eq0 ->; rewrite mul0mx scaler0.
Qed.

Lemma scaled_gram_range : (H :=: X^T)%MS.
Proof. exact: eqmx_trans (eqmx_scale _ cg_scale_neq0) (eqmx_gram X). Qed.

Lemma scaled_rhs_range : (b <= H)%MS.
Proof. by rewrite scaled_gram_range scalemx_sub // submxMl. Qed.

Lemma rank_scaled_gram : \rank H = \rank X.
Proof. by rewrite (eqmx_rank (introT eqmxP scaled_gram_range)) mxrank_tr. Qed.

(* references.cg_after_rank_steps_equals_min_norm: CG on R(w) = (c/2) ||w X - y||^2 from w = 0
   (H = c X X^T, b = c y X^T; the C++ has c = 1/N), run for rank(H) = rank(X) steps or more,
   returns the minimum-norm least-squares solution W+ = min_norm_ls X y. *)
Theorem cg_after_rank_steps_equals_min_norm n :
  (\rank X <= n)%N -> cgw H b n = min_norm_ls X y.
Proof.
move=> rn; rewrite -rank_scaled_gram in rn.
have [wHb wH] := cg_after_rank_steps scaled_gram_sym scaled_gram_null scaled_rhs_range rn.
apply: min_norm_ls_unique; first by rewrite -scaled_gram_range.
rewrite /normal_eq; move: wHb; rewrite -scalemxAr => /(congr1 (fun M => c^-1 *: M)).
by rewrite !scalerA mulVf ?cg_scale_neq0 // !scale1r.
Qed.

(* The prediction the property compares: x_q^T w_CG = x_q^T w+ for every query x_q. *)
Corollary cg_prediction_equals_min_norm n (xq : 'cV[R]_d) :
  (\rank X <= n)%N -> cgw H b n *m xq = min_norm_ls X y *m xq.
Proof. by move=> rn; rewrite cg_after_rank_steps_equals_min_norm. Qed.

End CGLeastSquares.

Section CGDMemformerMinNorm.
Variables (R : realFieldType) (d N Q : nat).
Variables (X : 'M[R]_(d, N)) (Xq : 'M[R]_(d, Q)) (y : 'M[R]_(1, N)).
Hypothesis N_gt0 : (0 < N)%N.

Local Notation c := ((N%:R : R)^-1).
Local Notation H := (c *: gram X).
Local Notation b := (c *: (y *m X^T)).

Lemma cgs_def l : cgs H b l = cgr H b l + cgg H b l *: cg_s (cg_iter H b l).
Proof. by rewrite /cgs cg_iterS. Qed.

(* -grad R(w) (AhnLemma1.ahn_grad, column vectors) is the transposed residual b - w^T H. *)
Lemma ahn_grad_residual (w : 'rV[R]_d) : - ahn_grad X y w^T = (b - w *m H)^T.
Proof.
have E : X^T *m w^T - y^T = (w *m X - y)^T by rewrite linearB /= trmx_mul.
have F : b - w *m H = - (c *: ((w *m X - y) *m X^T)).
  by rewrite -scalemxAr mulmxBl -mulmxA scalerBr opprB.
rewrite /ahn_grad E -[X *m _]trmxK trmx_mul !trmxK F.
by rewrite linearN /=; congr (- _); apply/matrixP => i j; rewrite !mxE.
Qed.

(* Memformer.v's CG-form recursion, run with the CG coefficients alpha_l, gamma_l of
   first_order_methods.hpp (cga, cgg), is CG: w_L and s_(L-1), transposed. *)
Lemma cg_form_cg L :
  cg_form X y (cga H b) (cgg H b) L = ((cgw H b L)^T, (cg_s (cg_iter H b L))^T).
Proof.
elim: L => [|l IHl]; first by rewrite /= /cgw cg_iter0 /= trmx0.
rewrite /= IHl /= ahn_grad_residual -cg_residual_forms -/(cgs H b l).
have -> : (cgr H b l)^T + cgg H b l *: (cg_s (cg_iter H b l))^T = (cgs H b l)^T.
  by rewrite cgs_def linearD /= linearZ.
by rewrite cgwS linearD /= linearZ.
Qed.

(* memformer.cgd_after_rank_layers_equals_min_norm_prediction, exact arithmetic: the CGD
   Memformer with the CG coefficients, after L >= rank(X) = rank(H) layers, holds the model
   state of the minimum-norm least-squares solution w+ (as a column vector, (W+)^T) ... *)
Theorem cgd_after_rank_layers_equals_min_norm L : (\rank X <= L)%N ->
  (cgd_memformer X Xq y (cga H b) (cgg H b) L).1 = ahn_state X Xq y (min_norm_ls X y)^T.
Proof.
move=> rL; have [-> _] := cgd_memformer_cg X Xq y (cga H b) (cgg H b) L.
rewrite cg_form_cg /= cg_after_rank_steps_equals_min_norm //.
by rewrite invr_gt0 ltr0n.
Qed.

(* ... so its query entries read out - x_q^T w+ for every query column x_q of Xq. *)
Corollary cgd_after_rank_layers_equals_min_norm_prediction L : (\rank X <= L)%N ->
  drsubmx (cgd_memformer X Xq y (cga H b) (cgg H b) L).1 = - (min_norm_ls X y *m Xq).
Proof.
by move=> rL; rewrite cgd_after_rank_layers_equals_min_norm // /ahn_state block_mxKdr trmxK.
Qed.

End CGDMemformerMinNorm.
