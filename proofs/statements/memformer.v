(* Statements of the family memformer (Memformers: linear transformers with memory registers run
   first-order methods), read by people: plain mathcomp, no project theory.  Checked against the
   project's theorems in memformer_check.v.

   Conventions (as in ahn.v): Z is the (d + 1) x (N + Q) token matrix [[X, Xq], [y, yq]], columns
   are tokens, the first N columns the context, the last Q the queries; the heads have
   P = [[0, 0], [0, 1]] and Q = -[[A, 0], [0, 0]]. *)

From mathcomp Require Import all_ssreflect all_algebra.

Import GRing.Theory Num.Theory.
Local Open Scope ring_scope.

(* The mask M = diag(I_N, 0_Q): only the N context columns act as keys and values. *)
Definition context_mask {R : ringType} (N Q : nat) : 'M[R]_(N + Q) := block_mx 1%:M 0 0 0.

(* One Z-form attention head with P = [[0,0],[0,1]], Q = -[[A,0],[0,0]]:
   Attn_A(Z) = P Z M (Z^T Q Z). *)
Definition attn_A {R : ringType} {d N Q : nat} (A : 'M[R]_d) (Z : 'M[R]_(d + 1, N + Q))
    : 'M[R]_(d + 1, N + Q) :=
  block_mx (0 : 'M[R]_d) 0 0 (1%:M : 'M[R]_1) *m Z *m context_mask N Q
    *m (Z^T *m (- block_mx A 0 0 (0 : 'M[R]_1)) *m Z).

(* The token matrix of a linear model w (a column): [[X, Xq], [y - w^T X, - w^T Xq]]. *)
Definition model_state {R : ringType} {d N Q : nat} (X : 'M[R]_(d, N)) (Xq : 'M[R]_(d, Q))
    (y : 'M[R]_(1, N)) (w : 'cV[R]_d) : 'M[R]_(d + 1, N + Q) :=
  block_mx X Xq (y - w^T *m X) (- (w^T *m Xq)).

(* grad R(w) of R(w) = 1/(2N) ||X^T w - y^T||^2: (1/N) X (X^T w - y^T). *)
Definition risk_grad {R : fieldType} {d N : nat} (X : 'M[R]_(d, N)) (y : 'M[R]_(1, N))
    (w : 'cV[R]_d) : 'cV[R]_d :=
  (N%:R)^-1 *: (X *m (X^T *m w - y^T)).

(* Squared Frobenius norm. *)
Definition sqnorm {R : ringType} {m n : nat} (M : 'M[R]_(m, n)) : R :=
  \sum_(i < m) \sum_(j < n) M i j ^+ 2.

(* ---- CGD Memformer and conjugate gradient ---- *)

(* The CGD Memformer (one register, A_l = I): the pair (Z_l, R_(l-1)), R_(-1) = 0,
   R_l = Attn_I(Z_l) + gamma_l R_(l-1),  Z_(l+1) = Z_l + (alpha_l / N) R_l,  Z_0 = [[X, Xq], [y, 0]]. *)
Fixpoint cgd_memformer {R : fieldType} {d N Q : nat} (X : 'M[R]_(d, N)) (Xq : 'M[R]_(d, Q))
    (y : 'M[R]_(1, N)) (alpha gamma : nat -> R) (L : nat)
    : 'M[R]_(d + 1, N + Q) * 'M[R]_(d + 1, N + Q) :=
  if L is l.+1 then
    let: (Zl, Rp) := cgd_memformer X Xq y alpha gamma l in
    let Rl := attn_A 1%:M Zl + gamma l *: Rp in
    (Zl + (alpha l / N%:R) *: Rl, Rl)
  else (block_mx X Xq y 0, 0).

(* Conjugate gradient as src/references/first_order_methods.hpp runs it, on row vectors, for
   H w = b: the state (w_l, r_l, s_(l-1), rr_(l-1)) from (0, b, 0, 0); one step:
     rr = r r^T, s = r + (rr / rr_(l-1)) s_(l-1), alpha = rr / (s H s^T),
     w' = w + alpha s, r' = r - alpha s H
   (x / 0 = 0 in mathcomp: the C++ guards gamma = 0 when rr_(l-1) = 0, alpha = 0 when s H s^T = 0). *)
Definition cg_step {R : fieldType} {d : nat} (H : 'M[R]_d)
    (st : 'rV[R]_d * 'rV[R]_d * 'rV[R]_d * R) : 'rV[R]_d * 'rV[R]_d * 'rV[R]_d * R :=
  let: (w, r, sp, rrp) := st in
  let rr := (r *m r^T) ord0 ord0 in
  let s := r + (rr / rrp) *: sp in
  let alpha := rr / (s *m H *m s^T) ord0 ord0 in
  (w + alpha *: s, r - alpha *: (s *m H), s, rr).

Definition cg_run {R : fieldType} {d : nat} (H : 'M[R]_d) (b : 'rV[R]_d) (n : nat) :=
  iter n (cg_step H) (0, b, 0, 0).

(* The CG iterate w_n, and the coefficients alpha_l, gamma_l that step l uses. *)
Definition cg_iterate {R : fieldType} {d : nat} (H : 'M[R]_d) (b : 'rV[R]_d) n : 'rV[R]_d :=
  (cg_run H b n).1.1.1.
Definition cg_alpha {R : fieldType} {d : nat} (H : 'M[R]_d) (b : 'rV[R]_d) l : R :=
  let r := (cg_run H b l).1.1.2 in let s := (cg_run H b l.+1).1.2 in
  (r *m r^T) ord0 ord0 / (s *m H *m s^T) ord0 ord0.
Definition cg_gamma {R : fieldType} {d : nat} (H : 'M[R]_d) (b : 'rV[R]_d) l : R :=
  let r := (cg_run H b l).1.1.2 in (r *m r^T) ord0 ord0 / (cg_run H b l).2.

(* The least-squares problem the C++ hands CG: H = X X^T / N, b = y X^T / N. *)
Definition ls_H {R : fieldType} {d N : nat} (X : 'M[R]_(d, N)) : 'M[R]_d :=
  (N%:R)^-1 *: (X *m X^T).
Definition ls_b {R : fieldType} {d N : nat} (X : 'M[R]_(d, N)) (y : 'M[R]_(1, N)) : 'rV[R]_d :=
  (N%:R)^-1 *: (y *m X^T).

(* w is the minimum-norm least-squares solution: it minimises ||w X - y||^2, and its norm is the
   least among all minimisers. *)
Definition min_norm_ls_solution {R : realFieldType} {d N : nat} (X : 'M[R]_(d, N))
    (y : 'M[R]_(1, N)) (w : 'rV[R]_d) : Prop :=
  (forall v : 'rV[R]_d, sqnorm (w *m X - y) <= sqnorm (v *m X - y)) /\
  (forall v : 'rV[R]_d, (forall u : 'rV[R]_d, sqnorm (v *m X - y) <= sqnorm (u *m X - y)) ->
     sqnorm w <= sqnorm v).

(* memformer.cgd_with_cg_coefficients_reproduces_cg_iterates:
   "The CGD Memformer (A_l = I, B_l = 0) with the per-instance CG coefficients alpha_l, gamma_l
   holds y_i - <x_i, w_l^CG> in the last row after layer l, for every token and layer."
   Covers: any real field, d, N >= 1, Q, every layer L: the whole token matrix (x-rows unchanged,
   context y_i - <x_i, w_L>, queries -<x_q, w_L>), w_L the L-th CG iterate on H = X X^T / N,
   b = y X^T / N with the coefficients CG itself computes. *)
Definition premises_memformer__cgd_with_cg_coefficients_reproduces_cg_iterates
    (d N : nat) : Prop :=
  (1 <= d)%N /\ (1 <= N)%N.

Definition claim_memformer__cgd_with_cg_coefficients_reproduces_cg_iterates : Prop :=
  forall (R : realFieldType) (d N Q : nat) (X : 'M[R]_(d, N)) (Xq : 'M[R]_(d, Q))
    (y : 'M[R]_(1, N)) (L : nat),
  premises_memformer__cgd_with_cg_coefficients_reproduces_cg_iterates d N ->
  (cgd_memformer X Xq y (cg_alpha (ls_H X) (ls_b X y)) (cg_gamma (ls_H X) (ls_b X y)) L).1
    = model_state X Xq y (cg_iterate (ls_H X) (ls_b X y) L)^T.

Lemma witness_memformer__cgd_with_cg_coefficients_reproduces_cg_iterates :
  premises_memformer__cgd_with_cg_coefficients_reproduces_cg_iterates 2 2.
Proof. by []. Qed.

(* memformer.cgd_after_rank_layers_equals_min_norm_prediction:
   "After rank(H) layers the CGD Memformer with CG coefficients predicts x_q^T w+, w+ the
   minimum-norm least-squares solution (rank-deficient X included; identity proved in exact
   arithmetic; ...)."
   Covers: any real field, d, N >= 1, Q, every L >= rank(X) (= rank(H), H = X X^T / N): the token
   matrix after L layers is the state of w+ (so every query reads -x_q^T w+), for every w+
   satisfying the definition above, and such a w+ exists (so that part is not vacuous); exact
   arithmetic only (the rounding model is not stated). *)
Definition premises_memformer__cgd_after_rank_layers_equals_min_norm_prediction
    {R : fieldType} {d N : nat} (X : 'M[R]_(d, N)) (L : nat) : Prop :=
  (1 <= d)%N /\ (1 <= N)%N /\ (\rank X <= L)%N.

Definition claim_memformer__cgd_after_rank_layers_equals_min_norm_prediction : Prop :=
  forall (R : realFieldType) (d N Q : nat) (X : 'M[R]_(d, N)) (Xq : 'M[R]_(d, Q))
    (y : 'M[R]_(1, N)) (L : nat),
  premises_memformer__cgd_after_rank_layers_equals_min_norm_prediction X L ->
  (exists wplus : 'rV[R]_d, min_norm_ls_solution X y wplus)
  /\ forall wplus : 'rV[R]_d, min_norm_ls_solution X y wplus ->
  (cgd_memformer X Xq y (cg_alpha (ls_H X) (ls_b X y)) (cg_gamma (ls_H X) (ls_b X y)) L).1
    = model_state X Xq y wplus^T
  /\ - drsubmx (cgd_memformer X Xq y (cg_alpha (ls_H X) (ls_b X y))
                  (cg_gamma (ls_H X) (ls_b X y)) L).1
     = wplus *m Xq.

Lemma witness_memformer__cgd_after_rank_layers_equals_min_norm_prediction :
  premises_memformer__cgd_after_rank_layers_equals_min_norm_prediction (1%:M : 'M[rat]_2) 2.
Proof. by split; [|split]; rewrite ?mxrank1. Qed.

(* ---- LFOM Memformer ---- *)

(* Hadamard (entrywise) product. *)
Definition hadamard {R : ringType} {m n : nat} (G M : 'M[R]_(m, n)) : 'M[R]_(m, n) :=
  \matrix_(i, j) (G i j * M i j).

(* The LFOM Memformer, every state kept: [:: Z_0; ..; Z_L] with Z_0 = [[X, Xq], [y, 0]] and
   Z_(l+1) = Z_l + (1/N) sum_(j <= l) Gamma_j^l (.) Attn_(A_j)(Z_j). *)
Fixpoint lfom_memformer_all {R : fieldType} {d N Q : nat} (X : 'M[R]_(d, N)) (Xq : 'M[R]_(d, Q))
    (y : 'M[R]_(1, N)) (Gamma : nat -> nat -> 'M[R]_(d + 1, N + Q)) (A : nat -> 'M[R]_d)
    (L : nat) : seq 'M[R]_(d + 1, N + Q) :=
  if L is l.+1 then
    let Zs := lfom_memformer_all X Xq y Gamma A l in
    rcons Zs (nth 0 Zs l
              + (N%:R)^-1 *: \sum_(j < l.+1) hadamard (Gamma j l) (attn_A (A j) (nth 0 Zs j)))
  else [:: block_mx X Xq y 0].

Definition lfom_memformer {R : fieldType} {d N Q : nat} (X : 'M[R]_(d, N)) (Xq : 'M[R]_(d, Q))
    (y : 'M[R]_(1, N)) (Gamma : nat -> nat -> 'M[R]_(d + 1, N + Q)) (A : nat -> 'M[R]_d)
    (L : nat) : 'M[R]_(d + 1, N + Q) :=
  nth 0 (lfom_memformer_all X Xq y Gamma A L) L.

(* The preconditioned LFOM, every iterate kept: w_0 = 0,
   w_(l+1) = w_l - sum_(j <= l) c_j^l P_j grad R(w_j). *)
Fixpoint plfom_all {R : fieldType} {d N : nat} (X : 'M[R]_(d, N)) (y : 'M[R]_(1, N))
    (c : nat -> nat -> R) (P : nat -> 'M[R]_d) (L : nat) : seq 'cV[R]_d :=
  if L is l.+1 then
    let ws := plfom_all X y c P l in
    rcons ws (nth 0 ws l - \sum_(j < l.+1) c j l *: (P j *m risk_grad X y (nth 0 ws j)))
  else [:: 0].

Definition plfom {R : fieldType} {d N : nat} (X : 'M[R]_(d, N)) (y : 'M[R]_(1, N))
    (c : nat -> nat -> R) (P : nat -> 'M[R]_d) (L : nat) : 'cV[R]_d :=
  nth 0 (plfom_all X y c P L) L.

(* memformer.lfom_scalar_gamma_equals_lfom:
   "The LFOM Memformer with A_j = a_j I and Gamma_j^l = lambda_j^l ones runs the LFOM
   w_{l+1} = w_l - sum_{j<=l} lambda_j^l a_j grad R(w_j)."
   Covers: any field, d, N >= 1, Q, L, any a_j, lambda_j^l: the whole token matrix Z_L is the
   state of the LFOM iterate w_L (P_j = I, coefficients lambda_j^l a_j). *)
Definition premises_memformer__lfom_scalar_gamma_equals_lfom (d N : nat) : Prop :=
  (1 <= d)%N /\ (1 <= N)%N.

Definition claim_memformer__lfom_scalar_gamma_equals_lfom : Prop :=
  forall (R : fieldType) (d N Q : nat) (X : 'M[R]_(d, N)) (Xq : 'M[R]_(d, Q))
    (y : 'M[R]_(1, N)) (lambda : nat -> nat -> R) (a : nat -> R) (L : nat),
  premises_memformer__lfom_scalar_gamma_equals_lfom d N ->
  lfom_memformer X Xq y (fun j l => const_mx (lambda j l)) (fun j => (a j)%:M) L
    = model_state X Xq y (plfom X y (fun j l => lambda j l * a j) (fun=> 1%:M) L).

Lemma witness_memformer__lfom_scalar_gamma_equals_lfom :
  premises_memformer__lfom_scalar_gamma_equals_lfom 2 2.
Proof. by []. Qed.

(* Heavy ball from w_(-1) = w_0 = 0: the pair (w_l, w_(l-1)),
   w_(l+1) = w_l - eta grad R(w_l) + beta (w_l - w_(l-1)). *)
Fixpoint heavy_ball {R : fieldType} {d N : nat} (X : 'M[R]_(d, N)) (y : 'M[R]_(1, N))
    (eta beta : R) (L : nat) : 'cV[R]_d * 'cV[R]_d :=
  if L is l.+1 then
    let: (w, wp) := heavy_ball X y eta beta l in
    (w - eta *: risk_grad X y w + beta *: (w - wp), w)
  else (0, 0).

(* memformer.momentum_gd_is_an_lfom_memformer:
   "Heavy-ball momentum (eta, beta; the paper's eta = 0.005, beta = 0.9 included) is the LFOM
   Memformer with A_j = I, Gamma_j^l = eta beta^(l-j) ones."
   Covers: any field, d, N >= 1, Q, L, any eta != 0, beta: Z_L is the state of the heavy-ball
   iterate w_L.  (eta = 0 is left out of the premises only to keep them a real step.) *)
Definition premises_memformer__momentum_gd_is_an_lfom_memformer
    {R : fieldType} (d N : nat) (eta : R) : Prop :=
  (1 <= d)%N /\ (1 <= N)%N /\ eta != 0.

Definition claim_memformer__momentum_gd_is_an_lfom_memformer : Prop :=
  forall (R : fieldType) (d N Q : nat) (X : 'M[R]_(d, N)) (Xq : 'M[R]_(d, Q))
    (y : 'M[R]_(1, N)) (eta beta : R) (L : nat),
  premises_memformer__momentum_gd_is_an_lfom_memformer d N eta ->
  lfom_memformer X Xq y (fun j l => const_mx (eta * beta ^+ (l - j))) (fun=> 1%:M) L
    = model_state X Xq y (heavy_ball X y eta beta L).1.

Lemma witness_memformer__momentum_gd_is_an_lfom_memformer :
  premises_memformer__momentum_gd_is_an_lfom_memformer 2 2 (1 : rat).
Proof. by split; [|split; [|exact: oner_neq0]]. Qed.

(* Nesterov from v_0 = w_0 = 0: the pair (v_l, w_l) of look-ahead point and iterate,
   w_(l+1) = v_l - eta grad R(v_l),  v_(l+1) = w_(l+1) + beta (w_(l+1) - w_l). *)
Fixpoint nesterov {R : fieldType} {d N : nat} (X : 'M[R]_(d, N)) (y : 'M[R]_(1, N))
    (eta beta : R) (L : nat) : 'cV[R]_d * 'cV[R]_d :=
  if L is l.+1 then
    let: (v, w) := nesterov X y eta beta l in
    let w' := v - eta *: risk_grad X y v in (w' + beta *: (w' - w), w')
  else (0, 0).

(* memformer.nesterov_is_an_lfom_memformer:
   "Nesterov's method (eta, beta; the paper's eta = 0.03, beta = 0.9 included) is the LFOM
   Memformer with A_j = I, Gamma_l^l = eta (1 + beta), Gamma_j^l = eta beta^(l-j+1); the
   Memformer tracks the look-ahead point v_l."
   Covers: any field, d, N >= 1, Q, L, any eta != 0, beta: Z_L is the state of v_L. *)
Definition premises_memformer__nesterov_is_an_lfom_memformer
    {R : fieldType} (d N : nat) (eta : R) : Prop :=
  (1 <= d)%N /\ (1 <= N)%N /\ eta != 0.

Definition claim_memformer__nesterov_is_an_lfom_memformer : Prop :=
  forall (R : fieldType) (d N Q : nat) (X : 'M[R]_(d, N)) (Xq : 'M[R]_(d, Q))
    (y : 'M[R]_(1, N)) (eta beta : R) (L : nat),
  premises_memformer__nesterov_is_an_lfom_memformer d N eta ->
  lfom_memformer X Xq y
      (fun j l => const_mx (if (j < l)%N then eta * beta ^+ (l - j).+1 else eta * (1 + beta)))
      (fun=> 1%:M) L
    = model_state X Xq y (nesterov X y eta beta L).1.

Lemma witness_memformer__nesterov_is_an_lfom_memformer :
  premises_memformer__nesterov_is_an_lfom_memformer 2 2 (1 : rat).
Proof. by split; [|split; [|exact: oner_neq0]]. Qed.

(* memformer.diagonal_a_reaches_only_scalings_lambda_times_a_transpose:
   "With scalar Gamma rows and diagonal (or general) A_j the LFOM Memformer is the
   preconditioned LFOM with Lambda_j^l = lambda_j^l A_j^T: one matrix per j times scalars, not an
   arbitrary diagonal Lambda_j^l as Prop. 2 / eq 21 claims."
   Covers: (1) any field, d, N >= 1, Q, L, any A_j, lambda_j^l: Z_L is the state of the
   preconditioned LFOM with P_j = A_j^T, coefficients lambda_j^l; (2) for every size n + 2 >= 2,
   no matrix A and scalars a, b give a A^T = diag(1, 0, ..., 0) and b A^T = diag(0, 1, 0, ..., 0)
   (0 and 1 are the first two indices): the family Lambda_0^0, Lambda_0^1 is not reachable. *)
Definition premises_memformer__diagonal_a_reaches_only_scalings_lambda_times_a_transpose
    (d N : nat) : Prop :=
  (2 <= d)%N /\ (1 <= N)%N.

Definition claim_memformer__diagonal_a_reaches_only_scalings_lambda_times_a_transpose : Prop :=
  forall (R : fieldType) (d N Q : nat) (X : 'M[R]_(d, N)) (Xq : 'M[R]_(d, Q))
     (y : 'M[R]_(1, N)) (lambda : nat -> nat -> R) (A : nat -> 'M[R]_d) (L : nat),
   premises_memformer__diagonal_a_reaches_only_scalings_lambda_times_a_transpose d N ->
   lfom_memformer X Xq y (fun j l => const_mx (lambda j l)) A L
     = model_state X Xq y (plfom X y lambda (fun j => (A j)^T) L)
   /\
   (forall (n : nat) (A' : 'M[R]_n.+2) (a b : R),
    ~ (a *: A'^T = diag_mx (\row_i (i == 0 :> 'I_n.+2)%:R)
       /\ b *: A'^T = diag_mx (\row_i (i == 1 :> 'I_n.+2)%:R))).

Lemma witness_memformer__diagonal_a_reaches_only_scalings_lambda_times_a_transpose :
  premises_memformer__diagonal_a_reaches_only_scalings_lambda_times_a_transpose 2 2.
Proof. by []. Qed.

(* Two facts used only to prove the witness below: the attention term in blocks, and the
   Hadamard product of block matrices. *)
Lemma attn_A_block {R : ringType} {d N Q : nat} (A : 'M[R]_d) (X : 'M[R]_(d, N))
    (Xq : 'M[R]_(d, Q)) (y : 'M[R]_(1, N)) (yq : 'M[R]_(1, Q)) :
  attn_A A (block_mx X Xq y yq)
    = - block_mx 0 0 (y *m X^T *m A *m X) (y *m X^T *m A *m Xq).
Proof.
rewrite /attn_A /context_mask tr_block_mx.
rewrite !mulmx_block ?mulmx0 ?mul0mx ?mulmx1 ?mul1mx ?addr0 ?add0r.
rewrite ?mulmxN ?mulNmx !mulmx_block ?mulmx0 ?mul0mx ?mulmx1 ?mul1mx ?addr0 ?add0r.
rewrite mulmxN mulmx_block ?mulmx0 ?mul0mx ?mulmx1 ?mul1mx ?addr0 ?add0r.
by rewrite !mulmxA.
Qed.

Lemma hadamard_block {R : ringType} {m1 m2 n1 n2 : nat} (G1 M1 : 'M[R]_(m1, n1))
    (G2 M2 : 'M[R]_(m1, n2)) (G3 M3 : 'M[R]_(m2, n1)) (G4 M4 : 'M[R]_(m2, n2)) :
  hadamard (block_mx G1 G2 G3 G4) (block_mx M1 M2 M3 M4)
    = block_mx (hadamard G1 M1) (hadamard G2 M2) (hadamard G3 M3) (hadamard G4 M4).
Proof.
apply/matrixP => i j; rewrite !mxE.
by case: (split i) => i'; rewrite ?mxE; case: (split j) => j'; rewrite ?mxE.
Qed.

(* memformer.nonconstant_gamma_row_breaks_the_linear_model_reading:
   "On random data, one LFOM Memformer layer whose Gamma has a non-constant last row leaves a
   Z_1 that is the state of NO single linear model w (the gap in Prop. 2's proof, A.3; erratum,
   CONSTRUCTIONS.md section 4). Exact rationals check a certificate on each case: a solution W of
   the normal equations of fitting the last row by W [X, Xq] whose residual is not zero. Floating
   point checks instead that the least-squares deviation exceeds 1024 times a hand-derived
   rounding bound."
   Covers: the certificate the exact mode checks: over any real field, for ONE LFOM Memformer
   layer Z_1 with any Gamma and A_0, if W solves W G G^T = T G^T (G = [X, Xq],
   T = [y, 0] - last row of Z_1) and W G != T, then Z_1 is the state of no column w;
   Not in the claim: the shared-x form without a certificate (two context columns with the same
   x, different Gamma y-row entries and y X^T A_0 x != 0; Memformer.v:
   lfom_memformer_nonconstant_gamma), whose premises have no witness in this file.
   Not covered: the floating-point mode's rounding bound.  The certificate does not need Gamma's last row to be non-constant (the
   witness's is). *)
Definition premises_memformer__nonconstant_gamma_row_breaks_the_linear_model_reading
    {R : realFieldType} {d N Q : nat} (X : 'M[R]_(d, N)) (Xq : 'M[R]_(d, Q))
    (y : 'M[R]_(1, N)) (Gamma : nat -> nat -> 'M[R]_(d + 1, N + Q)) (A : nat -> 'M[R]_d)
    (W : 'rV[R]_d) : Prop :=
  (1 <= d)%N /\ (1 <= N)%N /\
  W *m (row_mx X Xq *m (row_mx X Xq)^T)
    = (row_mx y 0 - dsubmx (lfom_memformer X Xq y Gamma A 1)) *m (row_mx X Xq)^T /\
  W *m row_mx X Xq != row_mx y 0 - dsubmx (lfom_memformer X Xq y Gamma A 1).

Definition claim_memformer__nonconstant_gamma_row_breaks_the_linear_model_reading : Prop :=
  forall (R : realFieldType) (d N Q : nat) (X : 'M[R]_(d, N)) (Xq : 'M[R]_(d, Q))
     (y : 'M[R]_(1, N)) (Gamma : nat -> nat -> 'M[R]_(d + 1, N + Q)) (A : nat -> 'M[R]_d)
     (W : 'rV[R]_d),
   premises_memformer__nonconstant_gamma_row_breaks_the_linear_model_reading X Xq y Gamma A W ->
   forall w : 'cV[R]_d, lfom_memformer X Xq y Gamma A 1 != model_state X Xq y w.

(* The witness: d = N = 2, one query, X = [[1, 1], [0, 0]], Xq = 0, y = [1, 1], A_0 = I,
   Gamma's y-row [1, 0 | 0] (non-constant), W = [1/2, 0]: T = [1, 0, 0], W G = [1/2, 1/2, 0]. *)
Definition nonconstant_example_X : 'M[rat]_(2, 2) := \matrix_(i, j) (i == ord0)%:R.
Definition nonconstant_example_y : 'M[rat]_(1, 2) := const_mx 1.
Definition nonconstant_example_g : 'M[rat]_(1, 2) := \row_j (j == ord0)%:R.
Definition nonconstant_example_Gamma : 'M[rat]_(2 + 1, 2 + 1) :=
  block_mx 0 0 nonconstant_example_g 0.
Definition nonconstant_example_W : 'rV[rat]_2 := \row_j ((j == ord0)%:R / 2%:R).

Lemma nonconstant_example_Z1 :
  lfom_memformer nonconstant_example_X (0 : 'M[rat]_(2, 1)) nonconstant_example_y
    (fun _ _ => nonconstant_example_Gamma) (fun _ => 1%:M) 1
  = block_mx nonconstant_example_X 0
      (nonconstant_example_y - (2%:R)^-1 *: hadamard nonconstant_example_g
         (nonconstant_example_y *m nonconstant_example_X^T *m nonconstant_example_X)) 0.
Proof.
rewrite /lfom_memformer /= big_ord1 attn_A_block mulmx1 mulmx0.
rewrite -[- block_mx _ _ _ _]scaleN1r scale_block_mx hadamard_block scale_block_mx.
rewrite add_block_mx; congr block_mx; apply/matrixP => i j;
  by rewrite !mxE !(mul0r, mulr0, addr0, mulN1r, mulrN, oppr0).
Qed.

Lemma witness_memformer__nonconstant_gamma_row_breaks_the_linear_model_reading :
  premises_memformer__nonconstant_gamma_row_breaks_the_linear_model_reading
    nonconstant_example_X (0 : 'M[rat]_(2, 1)) nonconstant_example_y
    (fun _ _ => nonconstant_example_Gamma) (fun _ => 1%:M) nonconstant_example_W.
Proof.
split; first by []; split; first by [].
rewrite nonconstant_example_Z1 block_mxEv col_mxKd opp_row_mx add_row_mx subrr tr_row_mx.
rewrite !mul_row_col mul_mx_row !mulmx0 trmx0 !mulmx0 !addr0.
split.
  apply/matrixP => i j; rewrite (ord1 i).
  do 5!(rewrite ?big_ord_recr ?big_ord0 ?mxE).
  by case: j => [[|[|j]] Hj]; [vm_compute | vm_compute | ].
apply/eqP => /eq_row_mx [E _]; move: E => /matrixP /(_ ord0 ord0).
do 5!(rewrite ?big_ord_recr ?big_ord0 ?mxE).
by move/eqP; vm_compute.
Qed.
