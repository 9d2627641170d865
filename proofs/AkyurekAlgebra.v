(* AkyurekAlgebra.v -- exact algebra of the RAW construction of Akyurek et al. 2023 (Appendix C),
   over an arbitrary field (closed under the global context: no axioms).

   Main results:
   - layernorm_division_sum_squares: the entries of v = [N c, y/M, -N c - S/M] (S = sum y) sum
     to 0 and their squares sum to 2 N^2 c^2 D, D = 1 + S/(N c M) + (S^2 + |y|^2)/(2 N^2 c^2 M^2).
   - layernorm_division_squared: hence the LayerNorm (mean 0, variance sum/L, eps e) gives
       ((2/L) (M N)^2 (y_i/M)^2) / (Q/L + e) = (y_i/c)^2 / (D + e L/(2 N^2 c^2)),
     the squared form of the closed form of Lemma 8 (CONSTRUCTIONS.md section 5); the case
     c = 1, M = 1 is Lemma 6 (the bypass), whose N entry gives N^2 / D: N, not 2N.
   - raw_dot_reduction, raw_aff_reduction, raw_mov_reduction: Lemma 2 -- the RAW operator
     (eq. (26)) with the stated parameters computes dot, aff and mov;
   - raw_mul_entry: every entry of a matrix product is a RAW dot of a row and a column, so
     parallel dots (Lemma 7) compute mul.
   Checked numerically by the akyurek.layernorm and akyurek.theorem exact-chain properties. *)
From mathcomp Require Import all_ssreflect all_algebra.
From mathcomp Require Import ring.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import GRing.Theory.
Local Open Scope ring_scope.

Section LayerNormDivision.
Variable R : fieldType.
Variable k : nat.
Variables (N c M : R) (y : 'I_k -> R).

Definition ysum := \sum_i y i.
Definition ysq := \sum_i y i ^+ 2.
Definition ln_div_D := 1 + ysum / (N * c * M) + (ysum ^+ 2 + ysq) / (2 * N ^+ 2 * c ^+ 2 * M ^+ 2).

Lemma layernorm_division_mean :
  M != 0 -> N * c + \sum_i (y i / M) + (- (N * c) - ysum / M) = 0.
Proof.
move=> M_neq0.
rewrite /ysum -mulr_suml.
move: (\sum_i y i) => S.
by ring.
Qed.

Theorem layernorm_division_sum_squares :
  N != 0 -> c != 0 -> M != 0 -> (2 : R) != 0 ->
  (N * c) ^+ 2 + \sum_i (y i / M) ^+ 2 + (- (N * c) - ysum / M) ^+ 2 =
  2 * N ^+ 2 * c ^+ 2 * ln_div_D.
Proof.
move=> N_neq0 c_neq0 M_neq0 two_neq0.
have -> : \sum_i (y i / M) ^+ 2 = ysq / M ^+ 2.
  rewrite /ysq mulr_suml; apply: eq_bigr => i _.
  by rewrite expr_div_n.
rewrite /ln_div_D /ysum.
move: (\sum_i y i) ysq => S Q.
field.
by rewrite M_neq0 c_neq0 N_neq0 two_neq0.
Qed.

Theorem layernorm_division_squared (L e : R) (i : 'I_k) :
  N != 0 -> c != 0 -> M != 0 -> (2 : R) != 0 -> L != 0 ->
  2 * N ^+ 2 * c ^+ 2 * ln_div_D + e * L != 0 ->
  (2 / L) * (M * N) ^+ 2 * (y i / M) ^+ 2
    / (((N * c) ^+ 2 + \sum_j (y j / M) ^+ 2 + (- (N * c) - ysum / M) ^+ 2) / L + e)
  = (y i / c) ^+ 2 / (ln_div_D + e * L / (2 * N ^+ 2 * c ^+ 2)).
Proof.
move=> N_neq0 c_neq0 M_neq0 two_neq0 L_neq0.
rewrite layernorm_division_sum_squares //.
move: ln_div_D => D Q_neq0.
have cc_neq0 : 2 * N ^+ 2 * c ^+ 2 != 0 by rewrite !mulf_neq0 ?expf_neq0.
have -> : D + e * L / (2 * N ^+ 2 * c ^+ 2) = (2 * N ^+ 2 * c ^+ 2 * D + e * L) / (2 * N ^+ 2 * c ^+ 2).
  by field; rewrite ?N_neq0 ?c_neq0 ?two_neq0 ?L_neq0.
have -> : (2 * N ^+ 2 * c ^+ 2 * D) / L + e = (2 * N ^+ 2 * c ^+ 2 * D + e * L) / L.
  by field; rewrite ?N_neq0 ?c_neq0 ?two_neq0 ?L_neq0.
move: (2 * N ^+ 2 * c ^+ 2 * D + e * L) Q_neq0 => Q Q_neq0.
field.
by rewrite ?N_neq0 ?c_neq0 ?M_neq0 ?two_neq0 ?L_neq0 ?Q_neq0.
Qed.

End LayerNormDivision.

Section RawReductions.
Variable R : comRingType.

(* The elementwise (Hadamard) product of two column vectors. *)
Definition hadamard n (u v : 'cV[R]_n) : 'cV[R]_n := \col_i (u i 0 * v i 0).

(* RAW, eq. (26), on one timestep: `read` is the attention read h_k[r] (already averaged over
   K(i)), `cur` the current h_i[s]. *)
Definition raw_add w t r s (Wo : 'M[R]_(w, t)) (Wa : 'M[R]_(t, r)) (W : 'M[R]_(t, s)) (b0 : 'cV[R]_w)
  (read : 'cV[R]_r) (cur : 'cV[R]_s) : 'cV[R]_w := Wo *m (Wa *m read + W *m cur) + b0.
Definition raw_had w t r s (Wo : 'M[R]_(w, t)) (Wa : 'M[R]_(t, r)) (W : 'M[R]_(t, s)) (b0 : 'cV[R]_w)
  (read : 'cV[R]_r) (cur : 'cV[R]_s) : 'cV[R]_w := Wo *m hadamard (Wa *m read) (W *m cur) + b0.

Theorem raw_dot_reduction n (a b : 'cV[R]_n) :
  raw_had (const_mx 1 : 'M_(1, n)) 1%:M 1%:M 0 b a = (b^T *m a).
Proof.
apply/matrixP => i j; rewrite !ord1 /raw_had addr0 !mul1mx !mxE.
by apply: eq_bigr => k _; rewrite /hadamard !mxE mul1r.
Qed.

Theorem raw_aff_reduction w p q (W1 : 'M[R]_(w, p)) (W2 : 'M[R]_(w, q)) (b : 'cV[R]_w)
  (hp : 'cV[R]_p) (hq : 'cV[R]_q) :
  raw_add 1%:M W2 W1 b hq hp = W1 *m hp + W2 *m hq + b.
Proof. by rewrite /raw_add mul1mx (addrC (W2 *m hq)). Qed.

Theorem raw_mov_reduction r s (read : 'cV[R]_r) (cur : 'cV[R]_s) :
  raw_add 1%:M 1%:M 0 0 read cur = read.
Proof. by rewrite /raw_add mul0mx addr0 !mul1mx addr0. Qed.

(* Lemma 7 for mul: entry (i, j) of A B is the RAW dot of column i of A^T and column j of B. *)
Theorem raw_mul_entry p q m (A : 'M[R]_(p, q)) (B : 'M[R]_(q, m)) (i : 'I_p) (j : 'I_m) :
  (A *m B) i j = (raw_had (const_mx 1 : 'M_(1, q)) 1%:M 1%:M 0 (col i A^T) (col j B)) 0 0.
Proof.
rewrite raw_dot_reduction !mxE.
by apply: eq_bigr => k _; rewrite !mxE.
Qed.

End RawReductions.
