(* Memformer.v -- Memformers (linear transformers with memory registers) run first-order methods:
   the CGD Memformer and the CG-form recursion, the LFOM Memformer with scalar Gamma, and
   momentum GD / Nesterov as LFOMs.

   Setting of AhnLemma1.v (A_l = a_l I or I, B_l = 0): Z = [[X, Xq], [y, yq]], the state of the
   model w is ahn_state w = [[X, Xq], [y - w^T X, - w^T Xq]] (queries hold -<x_q, w>), and
   grad R(w) = (1/N) X (X^T w - y^T) (AhnLemma1.ahn_grad).  An LFOM with coefficients c_j^l and
   gradient map g is  w_(l+1) = w_l - sum_(j <= l) c_j^l g(w_j)  (lfom_w; lfom_wS).

   Main results
   - cgd_memformer_cg : given ANY coefficient sequences alpha_l, gamma_l, the CGD Memformer
       R_l = Attn(Z_l) + gamma_l R_(l-1) (R_(-1) = 0), Z_(l+1) = Z_l + (alpha_l/N) R_l, A_l = I,
       holds Z_l = ahn_state w_l and (1/N) R_l = [[0, 0], [-s_l^T X, -s_l^T Xq]] for the CG-form
       recursion r_l = -grad R(w_l), s_l = r_l + gamma_l s_(l-1) (s_(-1) = 0),
       w_(l+1) = w_l + alpha_l s_l.
       (So with the per-instance CG coefficients it reproduces the CG iterates exactly.)
   - lfom_memformer_scalar : the LFOM Memformer Z_(l+1) = Z_l + (1/N) sum_(j<=l) Gamma_j^l (.) R_j
       (Hadamard), R_j = Attn(Z_j) with A_j = a_j I, Gamma_j^l = lambda_j^l * ones, holds
       Z_l = ahn_state w_l for the LFOM w_(l+1) = w_l - sum_(j<=l) lambda_j^l a_j grad R(w_j).
   - lfom_memformer_precond : the same with ANY A_j (B_j = 0): the LFOM
       w_(l+1) = w_l - sum_(j<=l) lambda_j^l A_j^T grad R(w_j); so with diagonal A_j the reachable
       per-coordinate scaling is lambda_j^l A_j^T (rank-restricted), as CONSTRUCTIONS.md says.
   - lfom_precond_one_matrix_per_j, lfom_precond_not_arbitrary_diagonal : those preconditioners
       are one matrix per j times scalars (any two with the same j are proportional), so for
       d >= 2 no A_0 and no scalars lambda_0^0, lambda_0^1 give the diagonal family
       Lambda_0^0 = diag(1, 0, ..), Lambda_0^1 = diag(0, 1, ..): not an arbitrary diagonal
       Lambda_j^l as Prop. 2 / eq. 21 claim.
   - lfom_memformer_nonconstant_gamma : a non-constant Gamma row breaks the single-linear-model
       reading: two context columns with the same x, different Gamma y-row entries and a non-zero
       attention entry y X^T A_0 x give a Z_1 that is ahn_state w for NO w.
   - momentum_as_lfom : heavy ball w_(l+1) = w_l - eta g(w_l) + beta (w_l - w_(l-1)), w_(-1) = w_0,
       is the LFOM with c_j^l = eta beta^(l-j)   (any g, any module).
   - nesterov_as_lfom : Nesterov's look-ahead sequence v (w_(l+1) = v_l - eta g(v_l),
       v_(l+1) = w_(l+1) + beta (w_(l+1) - w_l), v_0 = w_0) is the LFOM on v with
       c_j^l = eta beta^(l-j+1) for j < l and c_l^l = eta (1 + beta)   (any g).
   - memformer_momentum : lfom_memformer_scalar composed with momentum_as_lfom: the LFOM Memformer
       with Gamma_j^l = eta beta^(l-j) * ones and A_j = I holds Z_L = ahn_state w_L for the
       heavy-ball iterate w_L (w_(-1) = w_0 = 0) on R(w).
   - memformer_nesterov : the same with the Nesterov coefficients (nesterov_coeff): Z_L is the
       state of Nesterov's look-ahead point v_L (v_0 = w_0 = 0).

   - no_linear_model_certificate : over any real field, if W solves the normal equations of
       fitting T = [y, 0] - (last row of Z1) by W [X, Xq] and W [X, Xq] != T, then Z1 is
       ahn_state w for NO w (the exact certificate the property checks in rationals on random
       data, where lfom_memformer_nonconstant_gamma's shared-x hypothesis does not hold).

   Dependencies: mathcomp ssreflect/algebra, AhnLemma1 (ahn_attn, ahn_P, ahn_Q, ahn_grad,
   ahn_attn_block), LeastSquares (normal_eq, normal_eq_diff, gram).  No axioms. *)

From mathcomp Require Import all_ssreflect all_algebra.
From ICLProof Require Import AhnLemma1 LeastSquares.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import GRing.Theory.
Local Open Scope ring_scope.

Section CourseOfValues.
Variable T : zmodType.

(* x_0, then x_(n+1) = step n [:: x_0; ..; x_n]. *)
Fixpoint cov_seq (x0 : T) (step : nat -> seq T -> T) n : seq T :=
  if n is n'.+1 then rcons (cov_seq x0 step n') (step n' (cov_seq x0 step n')) else [:: x0].

Lemma size_cov_seq x0 step n : size (cov_seq x0 step n) = n.+1.
Proof. by elim: n => [|n IHn] //=; rewrite size_rcons IHn. Qed.

Lemma nth_cov_seq x0 step n m :
  (m <= n)%N -> nth 0 (cov_seq x0 step n) m = nth 0 (cov_seq x0 step m) m.
Proof.
elim: n => [|n IHn]; first by rewrite leqn0 => /eqP ->.
rewrite leq_eqVlt => /orP [/eqP -> // | m_lt].
by rewrite /= nth_rcons size_cov_seq m_lt; apply: IHn.
Qed.

Lemma nth_cov_seqS x0 step n :
  nth 0 (cov_seq x0 step n.+1) n.+1 = step n (cov_seq x0 step n).
Proof. by rewrite /= nth_rcons size_cov_seq ltnn eqxx. Qed.

End CourseOfValues.

Lemma cov_seq_map (U V : zmodType) (F : U -> V) u0 (stepU : nat -> seq U -> U)
    (stepV : nat -> seq V -> V) :
  (forall n us, size us = n.+1 -> stepV n (map F us) = F (stepU n us)) ->
  forall n, cov_seq (F u0) stepV n = map F (cov_seq u0 stepU n).
Proof.
move=> stepF; elim=> [|n IHn] //=.
by rewrite IHn map_rcons stepF // size_cov_seq.
Qed.

Section LFOM.
Variables (R : ringType) (V : lmodType R).

Definition lfom_step (c : nat -> nat -> R) (g : V -> V) l (ws : seq V) : V :=
  nth 0 ws l - \sum_(j < l.+1) c j l *: g (nth 0 ws j).

(* The LFOM iterate w_l. *)
Definition lfom_w c g (w0 : V) l := nth 0 (cov_seq w0 (lfom_step c g) l) l.

Lemma lfom_w0 c g (w0 : V) : lfom_w c g w0 0 = w0.
Proof. by []. Qed.

Lemma lfom_wS c g (w0 : V) l :
  lfom_w c g w0 l.+1 = lfom_w c g w0 l - \sum_(j < l.+1) c j l *: g (lfom_w c g w0 j).
Proof.
rewrite /lfom_w nth_cov_seqS /lfom_step; congr (_ - _).
by apply: eq_bigr => j _; rewrite nth_cov_seq // -ltnS.
Qed.

(* The iterates depend on the coefficients only through their values. *)
Lemma eq_lfom_w c c' g (w0 : V) :
  (forall j l, c j l = c' j l) -> forall l, lfom_w c g w0 l = lfom_w c' g w0 l.
Proof.
move=> cc' l; elim: l {-2}l (leqnn l) => [|l IH] m; first by rewrite leqn0 => /eqP ->.
rewrite leq_eqVlt => /orP [/eqP -> | ]; last by rewrite ltnS; apply: IH.
rewrite !lfom_wS IH //; congr (_ - _); apply: eq_bigr => j _.
by rewrite cc' IH // -ltnS.
Qed.

End LFOM.

Section MomentumNesterov.
Variables (R : comRingType) (V : lmodType R).
Variables (eta beta : R) (g : V -> V) (w0 : V).

(* Heavy ball: the pair (w_l, w_(l-1)), with w_(-1) = w_0. *)
Fixpoint heavy_ball l : V * V :=
  if l is l'.+1 then
    let: (w, wp) := heavy_ball l' in (w - eta *: g w + beta *: (w - wp), w)
  else (w0, w0).

Definition momentum_coeff (j l : nat) : R := eta * beta ^+ (l - j).

Theorem momentum_as_lfom l : (heavy_ball l).1 = lfom_w momentum_coeff g w0 l.
Proof.
suff [] : (heavy_ball l).1 = lfom_w momentum_coeff g w0 l
    /\ beta *: ((heavy_ball l).1 - (heavy_ball l).2)
       = - \sum_(j < l) (eta * beta ^+ (l - j)) *: g (lfom_w momentum_coeff g w0 j) by [].
elim: l => [|l [IH1 IH2]]; first by rewrite /= subrr scaler0 big_ord0 oppr0.
move: IH1 IH2; rewrite /=; case: (heavy_ball l) => w wp /= -> IH2.
have wS : lfom_w momentum_coeff g w0 l - eta *: g (lfom_w momentum_coeff g w0 l)
    + beta *: (lfom_w momentum_coeff g w0 l - wp) = lfom_w momentum_coeff g w0 l.+1.
  rewrite lfom_wS big_ord_recr /= /momentum_coeff subnn expr0 mulr1 IH2 opprD.
  by rewrite addrAC addrA.
split=> //; rewrite wS lfom_wS addrAC subrr add0r scalerN; congr (- _).
rewrite scaler_sumr; apply: eq_bigr => j _; rewrite scalerA /momentum_coeff.
by rewrite mulrCA -exprS subSn // -ltnS.
Qed.

(* Nesterov: the pair (v_l, w_l) of look-ahead point and iterate, v_0 = w_0. *)
Fixpoint nesterov l : V * V :=
  if l is l'.+1 then
    let: (v, w) := nesterov l' in
    let w' := v - eta *: g v in (w' + beta *: (w' - w), w')
  else (w0, w0).

Definition nesterov_coeff (j l : nat) : R :=
  if (j < l)%N then eta * beta ^+ (l - j).+1 else eta * (1 + beta).

Theorem nesterov_as_lfom l : (nesterov l).1 = lfom_w nesterov_coeff g w0 l.
Proof.
suff [] : (nesterov l).1 = lfom_w nesterov_coeff g w0 l
    /\ beta *: ((nesterov l).1 - (nesterov l).2)
       = - \sum_(j < l) (eta * beta ^+ (l - j).+1) *: g (lfom_w nesterov_coeff g w0 j) by [].
elim: l => [|l [IH1 IH2]]; first by rewrite /= subrr scaler0 big_ord0 oppr0.
move: IH1 IH2; rewrite /=; case: (nesterov l) => v w /= -> IH2.
have vS : lfom_w nesterov_coeff g w0 l - eta *: g (lfom_w nesterov_coeff g w0 l)
    + beta *: (lfom_w nesterov_coeff g w0 l - eta *: g (lfom_w nesterov_coeff g w0 l) - w)
    = lfom_w nesterov_coeff g w0 l.+1.
  rewrite lfom_wS big_ord_recr /=.
  have -> : nesterov_coeff l l = eta * (1 + beta) by rewrite /nesterov_coeff ltnn.
  have -> : \sum_(i < l) nesterov_coeff i l *: g (lfom_w nesterov_coeff g w0 i)
      = \sum_(j < l) (eta * beta ^+ (l - j).+1) *: g (lfom_w nesterov_coeff g w0 j).
    by apply: eq_bigr => i _; rewrite /nesterov_coeff ltn_ord.
  rewrite [_ - _ - w]addrAC scalerBr IH2 mulrDr mulr1 scalerDl scalerA mulrC.
  by rewrite !opprD !addrA; congr (_ + _); rewrite addrAC.
split=> //; rewrite [X in beta *: X]addrC addKr [_ - _ - w]addrAC scalerBr IH2.
rewrite big_ord_recr /= subSnn scalerBr scalerN opprD scaler_sumr scalerA scalerA.
congr (- _ - _); last by rewrite expr2 mulrC.
by apply: eq_bigr => j _; rewrite scalerA mulrCA -exprS subSn // ltnW.
Qed.

End MomentumNesterov.

Section Memformers.
Variable R : fieldType.
Variables d N Q : nat.
Variables (X : 'M[R]_(d, N)) (Xq : 'M[R]_(d, Q)) (y : 'M[R]_(1, N)).

Local Notation Z := 'M[R]_(d + 1, N + Q).
Local Notation grad := (ahn_grad X y).

(* The token matrix of a linear model w: [[X, Xq], [y - w^T X, - w^T Xq]]. *)
Definition ahn_state (w : 'cV[R]_d) : Z := block_mx X Xq (y - w^T *m X) (- (w^T *m Xq)).

Lemma ahn_state_add (w u : 'cV[R]_d) :
  ahn_state w + col_mx 0 (u^T *m row_mx X Xq) = ahn_state (w - u).
Proof.
rewrite /ahn_state !block_mxEv add_col_mx addr0 mul_mx_row add_row_mx linearB /= !mulmxBl.
by rewrite !opprB addrA -[u^T *m Xq - _]addrC addrAC.
Qed.

(* Attention of the model state with A = a I, B = 0:
   (1/N) Attn = [[0, 0], [a grad^T X, a grad^T Xq]]. *)
Lemma ahn_attn_state (a : R) (w : 'cV[R]_d) :
  (N%:R)^-1 *: ahn_attn (ahn_P 0) (ahn_Q a%:M) (ahn_state w)
    = col_mx 0 (a *: ((grad w)^T *m row_mx X Xq)).
Proof.
rewrite /ahn_state ahn_attn_block !mul0mx block_mxEv row_mx0 opp_col_mx oppr0 scale_col_mx scaler0.
congr col_mx; rewrite -!mulmxA -mul_mx_row !mulmxA mul_mx_scalar /ahn_grad linearZ /=.
rewrite trmx_mul linearB /= trmx_mul !trmxK -!scalemxAl -mulNmx opprB scalerA mulrC -scalerA.
by rewrite -scale_row_mx -mul_mx_row -scalemxAr mulmxA.
Qed.

Lemma ahn_state0 : ahn_state 0 = block_mx X Xq y 0.
Proof. by rewrite /ahn_state trmx0 !mul0mx subr0 oppr0. Qed.

Lemma sum_col_mx0 m n p I (r : seq I) (P : pred I) (F : I -> 'M[R]_(n, p)) :
  \sum_(i <- r | P i) col_mx (0 : 'M[R]_(m, p)) (F i) = col_mx 0 (\sum_(i <- r | P i) F i).
Proof.
elim/big_rec2: _ => [|i A B _ ->]; first by rewrite col_mx0.
by rewrite add_col_mx addr0.
Qed.

Lemma trmx_sumZ n (c : 'I_n -> R) (v : 'I_n -> 'cV[R]_d) :
  (\sum_(j < n) c j *: v j)^T = \sum_(j < n) c j *: (v j)^T.
Proof.
apply/matrixP => i k; rewrite !mxE !summxE; apply: eq_bigr => j _.
by rewrite !mxE.
Qed.

(* The CGD Memformer: one register R, A_l = I, B_l = 0.  State: (Z_l, R_(l-1)), R_(-1) = 0. *)
Section CGD.
Variables alpha gamma : nat -> R.

Fixpoint cgd_memformer L : Z * Z :=
  if L is l.+1 then
    let: (Zl, Rp) := cgd_memformer l in
    let Rl := ahn_attn (ahn_P 0) (ahn_Q 1%:M) Zl + gamma l *: Rp in
    (Zl + (alpha l / N%:R) *: Rl, Rl)
  else (block_mx X Xq y 0, 0).

(* The CG-form recursion: (w_L, s_(L-1)), s_(-1) = 0, r_l = - grad R(w_l). *)
Fixpoint cg_form L : 'cV[R]_d * 'cV[R]_d :=
  if L is l.+1 then
    let: (w, sp) := cg_form l in
    let s := - grad w + gamma l *: sp in (w + alpha l *: s, s)
  else (0, 0).

Theorem cgd_memformer_cg L :
  (cgd_memformer L).1 = ahn_state (cg_form L).1
  /\ (N%:R)^-1 *: (cgd_memformer L).2 = col_mx 0 (- (((cg_form L).2)^T *m row_mx X Xq)).
Proof.
elim: L => [|l]; first by rewrite /= ahn_state0 scaler0 trmx0 mul0mx oppr0 col_mx0.
rewrite /=; case: (cgd_memformer l) => Zl Rp; case: (cg_form l) => w sp /= [-> IHR].
set s := - grad w + gamma l *: sp.
have Rl : (N%:R)^-1 *: (ahn_attn (ahn_P 0) (ahn_Q 1%:M) (ahn_state w) + gamma l *: Rp)
    = col_mx 0 (- (s^T *m row_mx X Xq)).
  rewrite scalerDr ahn_attn_state scale1r scalerA mulrC -scalerA IHR scale_col_mx scaler0.
  rewrite add_col_mx addr0 /s; congr col_mx; move: (grad w) => gw.
  have -> : (- gw + gamma l *: sp)^T = - gw^T + gamma l *: sp^T.
    by apply/matrixP => i j; rewrite !mxE.
  by rewrite mulmxDl mulNmx -scalemxAl opprD opprK scalerN.
split=> //; rewrite -scalerA Rl scale_col_mx scaler0 scalerN scalemxAl -mulNmx.
have -> : - (alpha l *: s^T) = (- (alpha l *: s))^T by apply/matrixP => i j; rewrite !mxE.
by rewrite ahn_state_add opprK.
Qed.

End CGD.

(* Hadamard product. *)
Definition hadamard m n (G M : 'M[R]_(m, n)) : 'M[R]_(m, n) := \matrix_(i, j) (G i j * M i j).

Lemma hadamard_const m n (c : R) (M : 'M[R]_(m, n)) : hadamard (const_mx c) M = c *: M.
Proof. by apply/matrixP => i j; rewrite !mxE. Qed.

(* The LFOM Memformer: Z_(l+1) = Z_l + (1/N) sum_(j <= l) Gamma_j^l (.) Attn_(A_j)(Z_j). *)
Definition lfom_mem_step (Gamma : nat -> nat -> Z) (A : nat -> 'M[R]_d) l (Zs : seq Z) : Z :=
  nth 0 Zs l
  + (N%:R)^-1 *: \sum_(j < l.+1)
                   hadamard (Gamma j l) (ahn_attn (ahn_P 0) (ahn_Q (A j)) (nth 0 Zs j)).

Definition lfom_memformer Gamma A L :=
  nth 0 (cov_seq (block_mx X Xq y 0) (lfom_mem_step Gamma A) L) L.

Lemma trmxZ_mx m n (c : R) (M : 'M[R]_(m, n)) : (c *: M)^T = c *: M^T.
Proof. by apply/matrixP => i j; rewrite !mxE. Qed.

Lemma trmxB_mx m n (M M' : 'M[R]_(m, n)) : (M - M')^T = M^T - M'^T.
Proof. by apply/matrixP => i j; rewrite !mxE. Qed.

(* Attention of the model state with any A, B = 0:
   (1/N) Attn = [[0, 0], [(A^T grad)^T X, (A^T grad)^T Xq]]. *)
Lemma ahn_attn_state_mx (A : 'M[R]_d) (w : 'cV[R]_d) :
  (N%:R)^-1 *: ahn_attn (ahn_P 0) (ahn_Q A) (ahn_state w)
    = col_mx 0 ((A^T *m grad w)^T *m row_mx X Xq).
Proof.
rewrite /ahn_state ahn_attn_block !mul0mx block_mxEv row_mx0 opp_col_mx oppr0 scale_col_mx scaler0.
congr col_mx; rewrite -!mulmxA -mul_mx_row trmx_mul trmxK /ahn_grad trmxZ_mx trmx_mul trmxB_mx.
by rewrite -mul_mx_row -mul_mx_row trmx_mul !trmxK -mulNmx opprB -!scalemxAl !mulmxA.
Qed.

(* The LFOM with matrix preconditioners:
   w_(l+1) = w_l - sum_(j <= l) lambda_j^l A_j^T grad R(w_j). *)
Definition plfom_step (lambda : nat -> nat -> R) (A : nat -> 'M[R]_d) l (ws : seq 'cV[R]_d) :=
  nth 0 ws l - \sum_(j < l.+1) lambda j l *: ((A j)^T *m grad (nth 0 ws j)).

Definition plfom_w lambda A L := nth 0 (cov_seq 0 (plfom_step lambda A) L) L.

Lemma plfom_wS lambda A l :
  plfom_w lambda A l.+1
    = plfom_w lambda A l - \sum_(j < l.+1) lambda j l *: ((A j)^T *m grad (plfom_w lambda A j)).
Proof.
rewrite /plfom_w nth_cov_seqS /plfom_step; congr (_ - _).
by apply: eq_bigr => j _; rewrite nth_cov_seq // -ltnS.
Qed.

(* Scalar Gamma rows with ANY A_j: the per-coordinate scaling reachable is lambda_j^l A_j^T
   (with diagonal A_j: a diagonal of rank-restricted form, not an arbitrary Lambda_j^l). *)
Theorem lfom_memformer_precond (lambda : nat -> nat -> R) (A : nat -> 'M[R]_d) L :
  lfom_memformer (fun j l => const_mx (lambda j l)) A L = ahn_state (plfom_w lambda A L).
Proof.
rewrite /lfom_memformer /plfom_w -ahn_state0.
rewrite (@cov_seq_map _ _ ahn_state 0 (plfom_step lambda A)).
  by rewrite (nth_map 0) // size_cov_seq.
move=> n us size_us; rewrite /lfom_mem_step /plfom_step (nth_map 0) ?size_us //.
rewrite -ahn_state_add; congr (_ + _); rewrite scaler_sumr.
rewrite trmx_sumZ mulmx_suml -sum_col_mx0; apply: eq_bigr => j _.
rewrite hadamard_const (nth_map 0) ?size_us //.
rewrite scalerA [_^-1 * _]mulrC -[LHS]scalerA ahn_attn_state_mx.
by rewrite scale_col_mx scaler0 scalemxAl.
Qed.

(* With scalar preconditioners A_j = a_j I the preconditioned LFOM is the LFOM with
   coefficients lambda_j^l a_j (so lfom_memformer_scalar is lfom_memformer_precond's case). *)
Lemma plfom_w_scalar (lambda : nat -> nat -> R) (a : nat -> R) l :
  plfom_w lambda (fun j => (a j)%:M) l = lfom_w (fun j l => lambda j l * a j) grad 0 l.
Proof.
rewrite /plfom_w /lfom_w (@cov_seq_map _ _ id 0 (lfom_step (fun j l => lambda j l * a j) grad)
                            (plfom_step lambda (fun j => (a j)%:M))) ?map_id // => n us _.
rewrite map_id /plfom_step /lfom_step; congr (_ - _); apply: eq_bigr => j _.
by rewrite tr_scalar_mx mul_scalar_mx scalerA.
Qed.

Theorem lfom_memformer_scalar (lambda : nat -> nat -> R) (a : nat -> R) L :
  lfom_memformer (fun j l => const_mx (lambda j l)) (fun j => (a j)%:M) L
    = ahn_state (lfom_w (fun j l => lambda j l * a j) grad 0 L).
Proof. by rewrite lfom_memformer_precond plfom_w_scalar. Qed.

Lemma lfom_memformer1 Gamma A :
  lfom_memformer Gamma A 1
    = block_mx X Xq y 0
      + (N%:R)^-1 *: hadamard (Gamma 0%N 0%N)
                        (ahn_attn (ahn_P 0) (ahn_Q (A 0%N)) (block_mx X Xq y 0)).
Proof. by rewrite /lfom_memformer nth_cov_seqS /lfom_mem_step big_ord1. Qed.

Lemma mulmx_col_entry m (M : 'M[R]_(m, d)) (a : 'I_m) (k : 'I_N) :
  (M *m X) a k = (M *m col k X) a ord0.
Proof. by rewrite !mxE; apply: eq_bigr => i _; rewrite mxE. Qed.

Lemma lfom_memformer1_entry Gamma A (k : 'I_N) :
  lfom_memformer Gamma A 1 (rshift d ord0) (lshift Q k)
    = y ord0 k - (N%:R)^-1
        * (Gamma 0%N 0%N (rshift d ord0) (lshift Q k) * (y *m X^T *m A 0%N *m col k X) ord0 ord0).
Proof.
rewrite lfom_memformer1 ahn_attn_block mxE block_mxEdl mxE mxE mxE block_mxEdl.
by rewrite mulmx_col_entry !mulrN.
Qed.

(* A non-constant Gamma row breaks the single-linear-model reading: if two context columns carry
   the same input x (x_i = x_j), Gamma's y-row differs there and the attention's y-entry
   (y X^T A_0 x) is non-zero, then after one layer Z_1 is ahn_state w for NO w
   (CONSTRUCTIONS.md section 4; the Memformer paper's Prop. 2 glosses over this). *)
Theorem lfom_memformer_nonconstant_gamma (Gamma : nat -> nat -> Z) (A : nat -> 'M[R]_d)
    (i j : 'I_N) :
  N%:R != 0 :> R -> col i X = col j X ->
  Gamma 0%N 0%N (rshift d ord0) (lshift Q i) != Gamma 0%N 0%N (rshift d ord0) (lshift Q j) ->
  (y *m X^T *m A 0%N *m col i X) ord0 ord0 != 0 ->
  forall w, lfom_memformer Gamma A 1 != ahn_state w.
Proof.
move=> N_neq0 xi_xj gamma_ij attn_neq0 w; apply/eqP => lin.
have entry k : lfom_memformer Gamma A 1 (rshift d ord0) (lshift Q k)
    = y ord0 k - (w^T *m col k X) ord0 ord0.
  by rewrite lin /ahn_state block_mxEdl [LHS]mxE mxE mulmx_col_entry.
move: (entry i) (entry j); rewrite !lfom_memformer1_entry -xi_xj => /addrI/oppr_inj <-.
move/addrI/oppr_inj/(mulfI (invr_neq0 N_neq0))/(mulIf attn_neq0)/eqP.
by rewrite eq_sym (negbTE gamma_ij).
Qed.

(* lfom_memformer_scalar with every A_j = I: the LFOM Memformer with Gamma_j^l = lambda_j^l * ones
   runs the LFOM with coefficients lambda (momentum and Nesterov below are two such). *)
Corollary lfom_memformer_identity (lambda : nat -> nat -> R) L :
  lfom_memformer (fun j l => const_mx (lambda j l)) (fun=> 1%:M) L
    = ahn_state (lfom_w lambda grad 0 L).
Proof.
rewrite (lfom_memformer_scalar lambda (fun=> 1)).
by congr ahn_state; apply: eq_lfom_w => j l; rewrite mulr1.
Qed.

(* Momentum GD as a Memformer: Gamma_j^l = eta beta^(l-j) * ones, A_j = I, from
   Z_0 = [[X, Xq], [y, 0]] (w_0 = 0): Z_L is the state of the heavy-ball iterate w_L on
   R(w) = 1/(2N) ||X^T w - y^T||^2. *)
Theorem memformer_momentum (eta beta : R) L :
  lfom_memformer (fun j l => const_mx (momentum_coeff eta beta j l)) (fun=> 1%:M) L
    = ahn_state (heavy_ball eta beta grad 0 L).1.
Proof. by rewrite lfom_memformer_identity momentum_as_lfom. Qed.

(* Nesterov as a Memformer: Gamma_j^l = eta beta^(l-j+1) * ones (j < l), eta (1 + beta) * ones
   (j = l), A_j = I: Z_L is the state of Nesterov's look-ahead point v_L (v_0 = w_0 = 0). *)
Theorem memformer_nesterov (eta beta : R) L :
  lfom_memformer (fun j l => const_mx (nesterov_coeff eta beta j l)) (fun=> 1%:M) L
    = ahn_state (nesterov eta beta grad 0 L).1.
Proof. by rewrite lfom_memformer_identity nesterov_as_lfom. Qed.

End Memformers.

(* The "not arbitrary" half of the Prop. 2 erratum (CONSTRUCTIONS.md section 4): the
   preconditioners lfom_memformer_precond yields are Lambda_j^l = lambda_j^l A_j^T, one matrix
   per j times scalars, so any two of them (same j) are proportional; hence the arbitrary diagonal
   family Lambda_0^0 = diag(1, 0, ..), Lambda_0^1 = diag(0, 1, ..) (d >= 2) is reached by no
   A_0 and no scalars lambda_0^0, lambda_0^1. *)
Section NotArbitraryDiagonal.
Variable R : fieldType.

Theorem lfom_precond_one_matrix_per_j (lambda : nat -> nat -> R) d (A : nat -> 'M[R]_d)
    (j l l' : nat) :
  lambda j l' *: (lambda j l *: (A j)^T) = lambda j l *: (lambda j l' *: (A j)^T).
Proof. by rewrite !scalerA mulrC. Qed.

Theorem lfom_precond_not_arbitrary_diagonal n (A : 'M[R]_n.+2) (a b : R) :
  ~ (a *: A^T = diag_mx (\row_i (i == 0 :> 'I_n.+2)%:R)
     /\ b *: A^T = diag_mx (\row_i (i == 1 :> 'I_n.+2)%:R)).
Proof.
case=> hA hB.
have e00 : a * A 0 0 = 1.
  by have := congr1 (fun M : 'M_n.+2 => M 0 0) hA; rewrite /= !mxE eqxx.
have e11 : b * A 1 1 = 1.
  by have := congr1 (fun M : 'M_n.+2 => M 1 1) hB; rewrite /= !mxE eqxx.
have f00 : b * A 0 0 = 0.
  by have := congr1 (fun M : 'M_n.+2 => M 0 0) hB; rewrite /= !mxE eqxx.
have A00 : A 0 0 != 0 by apply: contra_eq_neq e00 => ->; rewrite mulr0 eq_sym oner_neq0.
have b0 : b = 0 by apply/eqP; move: f00 => /eqP; rewrite mulf_eq0 (negbTE A00) orbF.
by move: e11; rewrite b0 mul0r => /eqP; rewrite eq_sym oner_eq0.
Qed.

End NotArbitraryDiagonal.

(* A certificate that NO linear model explains a token matrix Z1, for data where no theorem
   constructs one (memformer.nonconstant_gamma_row_breaks_the_linear_model_reading checks it
   in exact rationals on Z1 of one LFOM Memformer layer): W solves the normal equations of fitting
   the target T = [y, 0] - (last row of Z1) by W [X, Xq], and its residual is not zero. Then
   Z1 = ahn_state w for no w: ahn_state w would make w^T an exact fit, and every solution of the
   normal equations has the same fitted values (LeastSquares.normal_eq_diff). *)
Section NoLinearModel.
Variable R : realFieldType.
Variables d N Q : nat.
Variables (X : 'M[R]_(d, N)) (Xq : 'M[R]_(d, Q)) (y : 'M[R]_(1, N)).

Theorem no_linear_model_certificate (Z1 : 'M[R]_(d + 1, N + Q)) (W : 'M[R]_(1, d)) :
  W *m gram (row_mx X Xq) = (row_mx y 0 - dsubmx Z1) *m (row_mx X Xq)^T ->
  W *m row_mx X Xq != row_mx y 0 - dsubmx Z1 ->
  forall w, Z1 != ahn_state X Xq y w.
Proof.
move=> nW res w; apply/eqP => Zw.
have T_eq : row_mx y 0 - dsubmx Z1 = w^T *m row_mx X Xq.
  rewrite Zw /ahn_state block_mxEv col_mxKd opp_row_mx add_row_mx mul_mx_row.
  by congr row_mx; [rewrite opprB addrC subrK | rewrite sub0r opprK].
have nw : normal_eq (row_mx X Xq) (row_mx y 0 - dsubmx Z1) w^T.
  by rewrite /normal_eq T_eq /gram mulmxA.
have := normal_eq_diff nW nw; rewrite mulmxBl => /eqP; rewrite subr_eq0 => /eqP e.
by move: res; rewrite -e -T_eq eqxx.
Qed.

End NoLinearModel.
