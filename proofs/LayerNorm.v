(* LayerNorm.v -- the LayerNorm division (Lemma 8) and bypass (Lemma 6) of Akyurek et al. 2023
   for the LayerNorm that iclproof computes (src/raw/decoder_layer.hpp: layer_norm_centre,
   layer_norm, layer_norm_squared), over Coq's R, with the square root.

   The LayerNorm of v (length L, no gain, no bias, epsilon e):
     mean = (sum_j v_j) / L,  centred_j = v_j - mean,  var = (sum_j centred_j^2) / L,
     layer_norm_j = centred_j / sqrt (var + e),  layer_norm_squared_j = centred_j^2 / (var + e).
   The division input (properties/akyurek.hpp: layernorm_division_closed_form and its squared twin), of length
   L = k + 2 + p (p zero pads):  v = [N c, y_0/M, ..., y_(k-1)/M, -N c - S/M, 0, ..., 0],
   S = sum y, and den2 = 1 + S/(N c M) + (S^2 + sum y^2)/(2 N^2 c^2 M^2) + e L/(2 N^2 c^2)
   (src/raw/approximation_bounds.hpp: layernorm_division_denominator_squared).

   Main results (N, c, M nonzero, e >= 0 unless said otherwise):
   - ln_div_mean, ln_div_var: the mean of v is 0 and L var = 2 N^2 c^2 D, D the den2 of e = 0.
   - layernorm_division_squared_entry: (2/L) M^2 N^2 layer_norm_squared_(1+i) = (y_i/c)^2 / den2;
     layernorm_division_squared_first_entry: (2/L) M^2 N^2 layer_norm_squared_0 = M^2 N^2 / den2.
   - layernorm_division_entry_sign: for M > 0 the centred entry 1+i is y_i / M, so it (and the
     LayerNorm output) has the sign of y_i.
   - layernorm_bypass_squared: the bypass (c = M = 1, y = x): (2/L) N^2 layer_norm_squared of the
     x entries is x_i^2 / den2 and of the N entry N^2 / den2 (N, not the paper's 2N).
   - layernorm_division_closed_form: for N, M > 0, c <> 0:
       sqrt (2/L) M N layer_norm_(1+i) = (y_i / |c|) / sqrt den2  (Lemma 8, exact form);
     layernorm_bypass_closed_form: for N > 0, c = M = 1: the x entries are x_i / sqrt den2 and the
     N entry is N / sqrt den2.
   - layernorm_division_relative_error: with den2 = 1 + delta, delta = S/(N c M) + q,
     q = (S^2 + sum y^2)/(2 N^2 c^2 M^2) + e L/(2 N^2 c^2) >= 0 and |delta| < 1, for y_i <> 0 the
     relative error of z = sqrt (2/L) M N layer_norm_(1+i) against x = y_i/|c| is
       |(z - x)/x + S/(2 N c M)| <= q/2 + (3/8) delta^2 / ((1 - |delta|)^2 sqrt (1 - |delta|)),
     the formula of layernorm_division_first_order_remainder (approximation_bounds.hpp), from
     AkyurekBounds.v:layernorm_division_remainder.
   Dependencies: Coq Reals, AkyurekBounds.v, AkyurekLayerBounds.v (rsum).  Assumptions: the
   standard set of allowed_axioms.txt (classical reals). *)
From Coq Require Import Reals Lra Lia ssreflect.
From ICLProof Require Import AkyurekBounds AkyurekLayerBounds.
Open Scope R_scope.

(* ------------------------------------------------------------------------ finite sums *)

Lemma rsum_ext (f g : nat -> R) (n : nat) :
  (forall i, (i < n)%nat -> f i = g i) -> rsum f n = rsum g n.
Proof.
elim: n => [|n IH] fg //=.
rewrite IH; last by move=> i i_lt; apply: fg; lia.
by rewrite fg //; lia.
Qed.

Lemma rsum_split (f : nat -> R) (a b : nat) :
  rsum f (a + b) = rsum f a + rsum (fun j => f (a + j)%nat) b.
Proof.
elim: b => [|b IH]; first by rewrite Nat.add_0_r /=; ring.
by rewrite Nat.add_succ_r /= IH; ring.
Qed.

Lemma rsum_zero (n : nat) : rsum (fun _ => 0) n = 0.
Proof. by elim: n => [|n IH] //=; rewrite IH; ring. Qed.

Lemma rsum_div (f : nat -> R) (M : R) (n : nat) :
  rsum (fun i => f i / M) n = rsum f n / M.
Proof. by elim: n => [|n IH] /=; [rewrite /Rdiv Rmult_0_l | rewrite IH; rewrite /Rdiv; ring]. Qed.

Lemma sq_pos (x : R) : x <> 0 -> 0 < x ^ 2.
Proof. by move=> x_neq0; rewrite /= Rmult_1_r; apply: (Rsqr_pos_lt x). Qed.

(* ------------------------------------------------------------------------- LayerNorm *)

Definition ln_mean (v : nat -> R) (L : nat) : R := rsum v L / INR L.
Definition ln_centred (v : nat -> R) (L : nat) (j : nat) : R := v j - ln_mean v L.
Definition ln_var (v : nat -> R) (L : nat) : R := rsum (fun j => ln_centred v L j ^ 2) L / INR L.
Definition layer_norm (v : nat -> R) (L : nat) (e : R) (j : nat) : R :=
  ln_centred v L j / sqrt (ln_var v L + e).
Definition layer_norm_squared (v : nat -> R) (L : nat) (e : R) (j : nat) : R :=
  ln_centred v L j ^ 2 / (ln_var v L + e).

(* ------------------------------------------------------------- the division input *)

Section LayerNormDivision.
Variables (k p : nat) (N c M e : R) (y : nat -> R).

Definition ln_div_L : nat := (k + 2 + p)%nat.
Definition ln_div_S : R := rsum y k.
Definition ln_div_Q : R := rsum (fun i => y i ^ 2) k.

Definition ln_div_input (j : nat) : R :=
  match j with
  | O => N * c
  | S i => if (i <? k)%nat then y i / M
           else if (i =? k)%nat then - (N * c) - ln_div_S / M else 0
  end.

(* The radicand of the closed form (layernorm_division_denominator_squared). *)
Definition ln_div_den2 : R :=
  1 + ln_div_S / (N * c * M) + (ln_div_S ^ 2 + ln_div_Q) / (2 * (N * c) ^ 2 * M ^ 2)
    + e * INR ln_div_L / (2 * (N * c) ^ 2).

(* The pieces of den2 the relative error is written with. *)
Definition ln_div_q : R :=
  (ln_div_S ^ 2 + ln_div_Q) / (2 * (N * c) ^ 2 * M ^ 2) + e * INR ln_div_L / (2 * (N * c) ^ 2).
Definition ln_div_delta : R := ln_div_S / (N * c * M) + ln_div_q.

(* Any sum over the input splits into the first entry, the k data entries, the closing entry
   and the pads. *)
Lemma ln_div_rsum (g : nat -> R) :
  rsum g ln_div_L =
  g O + rsum (fun i => g (S i)) k + g (S k) + rsum (fun j => g (S (S (k + j)))) p.
Proof.
have -> : ln_div_L = (1 + (k + (1 + p)))%nat by rewrite /ln_div_L; lia.
rewrite rsum_split [rsum g 1]/= rsum_split rsum_split [rsum _ 1]/= Nat.add_0_r.
rewrite (rsum_ext (fun j => g (1 + (k + (1 + j)))%nat) (fun j => g (S (S (k + j))))); last first.
  by move=> j _; congr g; lia.
by rewrite (rsum_ext (fun j => g (1 + j)%nat) (fun i => g (S i))) //; ring.
Qed.

Lemma ln_div_input_data (i : nat) : (i < k)%nat -> ln_div_input (S i) = y i / M.
Proof. by move=> /Nat.ltb_lt /= ->. Qed.

Lemma ln_div_input_close : ln_div_input (S k) = - (N * c) - ln_div_S / M.
Proof. by rewrite /= Nat.ltb_irrefl Nat.eqb_refl. Qed.

Lemma ln_div_input_pad (j : nat) : ln_div_input (S (S (k + j))) = 0.
Proof.
have lt : (S (k + j) <? k)%nat = false by apply/Nat.ltb_ge; lia.
have eq : (S (k + j) =? k)%nat = false by apply/Nat.eqb_neq; lia.
by rewrite /ln_div_input lt eq.
Qed.

Lemma ln_div_L_pos : 0 < INR ln_div_L.
Proof. by apply: lt_0_INR; rewrite /ln_div_L; lia. Qed.

Theorem ln_div_mean : M <> 0 -> ln_mean ln_div_input ln_div_L = 0.
Proof.
move=> M_neq0; rewrite /ln_mean ln_div_rsum.
rewrite (rsum_ext (fun i => ln_div_input (S i)) (fun i => y i / M)); last first.
  by move=> i /ln_div_input_data.
rewrite (rsum_ext (fun j => ln_div_input (S (S (k + j)))) (fun _ => 0)); last first.
  by move=> j _; rewrite ln_div_input_pad.
rewrite rsum_zero rsum_div ln_div_input_close /= /ln_div_S.
by rewrite /Rdiv; ring.
Qed.

Lemma ln_div_centred (j : nat) :
  M <> 0 -> ln_centred ln_div_input ln_div_L j = ln_div_input j.
Proof. by move=> M_neq0; rewrite /ln_centred ln_div_mean //; ring. Qed.

(* L var = 2 (N c)^2 D with D = 1 + S/(N c M) + (S^2 + Q)/(2 (N c)^2 M^2). *)
Theorem ln_div_var :
  N <> 0 -> c <> 0 -> M <> 0 ->
  ln_var ln_div_input ln_div_L * INR ln_div_L =
  2 * (N * c) ^ 2 * (1 + ln_div_S / (N * c * M) + (ln_div_S ^ 2 + ln_div_Q) / (2 * (N * c) ^ 2 * M ^ 2)).
Proof.
move=> N_neq0 c_neq0 M_neq0.
have L_pos := ln_div_L_pos.
rewrite /ln_var (rsum_ext _ (fun j => ln_div_input j ^ 2)); last first.
  by move=> j _; rewrite ln_div_centred.
rewrite ln_div_rsum.
rewrite (rsum_ext (fun i => ln_div_input (S i) ^ 2) (fun i => y i ^ 2 / M ^ 2)); last first.
  by move=> i i_lt; rewrite ln_div_input_data //; field.
rewrite (rsum_ext (fun j => ln_div_input (S (S (k + j))) ^ 2) (fun _ => 0)); last first.
  by move=> j _; rewrite ln_div_input_pad; ring.
rewrite rsum_zero rsum_div ln_div_input_close /= -/ln_div_Q.
by field; repeat split => //; lra.
Qed.

Lemma ln_div_den2_split :
  ln_div_den2 = 1 + ln_div_delta.
Proof. by rewrite /ln_div_den2 /ln_div_delta /ln_div_q; ring. Qed.

(* var + e = (2 (N c)^2 / L) den2, and den2 >= 1/2 (the first entry alone gives (N c)^2). *)
Lemma ln_div_var_eps :
  N <> 0 -> c <> 0 -> M <> 0 ->
  ln_var ln_div_input ln_div_L + e = 2 * (N * c) ^ 2 / INR ln_div_L * ln_div_den2.
Proof.
move=> N_neq0 c_neq0 M_neq0.
have L_pos := ln_div_L_pos.
have V := ln_div_var N_neq0 c_neq0 M_neq0.
have -> : ln_var ln_div_input ln_div_L =
          2 * (N * c) ^ 2 * (1 + ln_div_S / (N * c * M) +
            (ln_div_S ^ 2 + ln_div_Q) / (2 * (N * c) ^ 2 * M ^ 2)) / INR ln_div_L.
  by rewrite -V; field; lra.
by rewrite /ln_div_den2; field; repeat split => //; lra.
Qed.

Lemma ln_div_var_ge : N <> 0 -> c <> 0 -> M <> 0 ->
  (N * c) ^ 2 <= ln_var ln_div_input ln_div_L * INR ln_div_L.
Proof.
move=> N_neq0 c_neq0 M_neq0.
rewrite /ln_var.
have L_pos := ln_div_L_pos.
have -> : rsum (fun j => ln_centred ln_div_input ln_div_L j ^ 2) ln_div_L / INR ln_div_L *
            INR ln_div_L = rsum (fun j => ln_centred ln_div_input ln_div_L j ^ 2) ln_div_L.
  by field; lra.
rewrite ln_div_rsum (ln_div_centred O) //.
have -> : ln_div_input O = N * c by [].
have nonneg : forall n (f : nat -> R), 0 <= rsum (fun j => f j ^ 2) n.
  move=> n f; elim: n => [|n IH]; first by rewrite /=; lra.
  change (rsum (fun j => f j ^ 2) (S n)) with (rsum (fun j => f j ^ 2) n + f n ^ 2).
  by have := pow2_ge_0 (f n); lra.
have := nonneg k (fun i => ln_centred ln_div_input ln_div_L (S i)).
have := nonneg p (fun j => ln_centred ln_div_input ln_div_L (S (S (k + j)))).
have := pow2_ge_0 (ln_centred ln_div_input ln_div_L (S k)).
by lra.
Qed.

Lemma ln_div_den2_pos : N <> 0 -> c <> 0 -> M <> 0 -> 0 <= e -> 0 < ln_div_den2.
Proof.
move=> N_neq0 c_neq0 M_neq0 e_ge0.
have L_pos := ln_div_L_pos.
have Nc2 : 0 < (N * c) ^ 2 by apply: sq_pos; apply: Rmult_integral_contrapositive.
have VE := ln_div_var_eps N_neq0 c_neq0 M_neq0.
have VG := ln_div_var_ge N_neq0 c_neq0 M_neq0.
have var_pos : 0 < ln_var ln_div_input ln_div_L.
  apply: (Rmult_lt_reg_r (INR ln_div_L)) => //; lra.
have : 0 < 2 * (N * c) ^ 2 / INR ln_div_L * ln_div_den2 by lra.
have f_pos : 0 < 2 * (N * c) ^ 2 / INR ln_div_L.
  by apply: Rdiv_lt_0_compat => //; lra.
move=> prod_pos.
by apply: (Rmult_lt_reg_l (2 * (N * c) ^ 2 / INR ln_div_L)) => //; lra.
Qed.

(* ------------------------------------------------------------------ squared forms *)

Theorem layernorm_division_squared_entry (i : nat) :
  N <> 0 -> c <> 0 -> M <> 0 -> 0 <= e -> (i < k)%nat ->
  2 / INR ln_div_L * M ^ 2 * N ^ 2 * layer_norm_squared ln_div_input ln_div_L e (S i) =
  (y i / c) ^ 2 / ln_div_den2.
Proof.
move=> N_neq0 c_neq0 M_neq0 e_ge0 i_lt.
have L_pos := ln_div_L_pos.
have D_pos := ln_div_den2_pos N_neq0 c_neq0 M_neq0 e_ge0.
rewrite /layer_norm_squared ln_div_var_eps // ln_div_centred // ln_div_input_data //.
by field; repeat split => //; lra.
Qed.

Theorem layernorm_division_squared_first_entry :
  N <> 0 -> c <> 0 -> M <> 0 -> 0 <= e ->
  2 / INR ln_div_L * M ^ 2 * N ^ 2 * layer_norm_squared ln_div_input ln_div_L e O =
  M ^ 2 * N ^ 2 / ln_div_den2.
Proof.
move=> N_neq0 c_neq0 M_neq0 e_ge0.
have L_pos := ln_div_L_pos.
have D_pos := ln_div_den2_pos N_neq0 c_neq0 M_neq0 e_ge0.
rewrite /layer_norm_squared ln_div_var_eps // ln_div_centred //=.
by field; repeat split => //; lra.
Qed.

(* The centred data entry is y_i / M: for M > 0 its sign, and the sign of the LayerNorm output
   (a positive multiple of it), are the sign of y_i. *)
Theorem layernorm_division_entry_sign (i : nat) :
  0 < M -> (i < k)%nat ->
  ln_centred ln_div_input ln_div_L (S i) = y i / M /\
  (0 < ln_centred ln_div_input ln_div_L (S i) <-> 0 < y i) /\
  (ln_centred ln_div_input ln_div_L (S i) < 0 <-> y i < 0).
Proof.
move=> M_pos i_lt.
have M_neq0 : M <> 0 by lra.
rewrite ln_div_centred // ln_div_input_data //.
have iM : 0 < / M by apply: Rinv_0_lt_compat.
split => //; rewrite /Rdiv; split; split => h.
- by apply: (Rmult_lt_reg_r (/ M)) => //; lra.
- by apply: Rmult_lt_0_compat.
- by apply: (Rmult_lt_reg_r (/ M)) => //; lra.
- by have := Rmult_lt_compat_r (/ M) _ _ iM h; lra.
Qed.

(* ------------------------------------------------------------ with the square root *)

Lemma ln_div_sqrt_var_eps :
  0 < N -> c <> 0 -> M <> 0 -> 0 <= e ->
  sqrt (ln_var ln_div_input ln_div_L + e) =
  sqrt (2 / INR ln_div_L) * (N * Rabs c) * sqrt ln_div_den2.
Proof.
move=> N_pos c_neq0 M_neq0 e_ge0.
have N_neq0 : N <> 0 by lra.
have L_pos := ln_div_L_pos.
have D_pos := ln_div_den2_pos N_neq0 c_neq0 M_neq0 e_ge0.
have two_L : 0 <= 2 / INR ln_div_L by apply/Rlt_le/Rdiv_lt_0_compat; lra.
rewrite ln_div_var_eps //.
have -> : 2 * (N * c) ^ 2 / INR ln_div_L * ln_div_den2 =
          2 / INR ln_div_L * (Rsqr (N * c) * ln_div_den2) by rewrite /Rsqr; field; lra.
rewrite sqrt_mult_alt // sqrt_mult_alt; last by apply: Rle_0_sqr.
rewrite sqrt_Rsqr_abs Rabs_mult (Rabs_pos_eq N); last by lra.
by ring.
Qed.

Theorem layernorm_division_closed_form (i : nat) :
  0 < N -> c <> 0 -> 0 < M -> 0 <= e -> (i < k)%nat ->
  sqrt (2 / INR ln_div_L) * M * N * layer_norm ln_div_input ln_div_L e (S i) =
  (y i / Rabs c) / sqrt ln_div_den2.
Proof.
move=> N_pos c_neq0 M_pos e_ge0 i_lt.
have N_neq0 : N <> 0 by lra.
have M_neq0 : M <> 0 by lra.
have L_pos := ln_div_L_pos.
have D_pos := ln_div_den2_pos N_neq0 c_neq0 M_neq0 e_ge0.
have sD : 0 < sqrt ln_div_den2 by apply: sqrt_lt_R0.
have sL : 0 < sqrt (2 / INR ln_div_L) by apply/sqrt_lt_R0/Rdiv_lt_0_compat; lra.
have ac : 0 < Rabs c by apply: Rabs_pos_lt.
rewrite /layer_norm ln_div_sqrt_var_eps // ln_div_centred // ln_div_input_data //.
by field; repeat split; lra.
Qed.

(* ----------------------------------------------------------------- relative error *)

Theorem layernorm_division_relative_error (i : nat) :
  0 < N -> c <> 0 -> 0 < M -> 0 <= e -> (i < k)%nat -> y i <> 0 ->
  Rabs ln_div_delta < 1 ->
  let z := sqrt (2 / INR ln_div_L) * M * N * layer_norm ln_div_input ln_div_L e (S i) in
  let x := y i / Rabs c in
  Rabs ((z - x) / x - - (ln_div_S / (2 * N * c * M)))
    <= ln_div_q / 2
       + 3 / 8 * ln_div_delta ^ 2 / ((1 - Rabs ln_div_delta) ^ 2 * sqrt (1 - Rabs ln_div_delta)).
Proof.
move=> N_pos c_neq0 M_pos e_ge0 i_lt y_neq0 delta_lt1 z x.
have N_neq0 : N <> 0 by lra.
have M_neq0 : M <> 0 by lra.
have L_pos := ln_div_L_pos.
have D_pos := ln_div_den2_pos N_neq0 c_neq0 M_neq0 e_ge0.
have sD : 0 < sqrt ln_div_den2 by apply: sqrt_lt_R0.
have ac : 0 < Rabs c by apply: Rabs_pos_lt.
have x_neq0 : x <> 0 by rewrite /x; apply: Rmult_integral_contrapositive; split;
  [| apply: Rinv_neq_0_compat]; lra.
have q_ge0 : 0 <= ln_div_q.
  have Nc2 : 0 < (N * c) ^ 2 by apply: sq_pos; apply: Rmult_integral_contrapositive.
  have M2 : 0 < M ^ 2 by apply: pow_lt; lra.
  have Q_ge0 : 0 <= ln_div_Q.
    rewrite /ln_div_Q; elim: (k) => [|n IH]; first by rewrite /=; lra.
    change (rsum (fun j => y j ^ 2) (S n)) with (rsum (fun j => y j ^ 2) n + y n ^ 2).
    by have := pow2_ge_0 (y n); lra.
  have S2 := pow2_ge_0 ln_div_S.
  have L_ge0 : 0 <= INR ln_div_L by lra.
  rewrite /ln_div_q /Rdiv; apply: Rplus_le_le_0_compat.
    by apply: Rmult_le_pos; [lra | apply/Rlt_le/Rinv_0_lt_compat; nra].
  by apply: Rmult_le_pos; [nra | apply/Rlt_le/Rinv_0_lt_compat; nra].
have z_eq : z = x * / sqrt (1 + ln_div_delta).
  by rewrite /z layernorm_division_closed_form // -ln_div_den2_split /x /Rdiv.
have -> : (z - x) / x - - (ln_div_S / (2 * N * c * M)) =
          (/ sqrt (1 + ln_div_delta) - (1 - ln_div_delta / 2)) - ln_div_q / 2.
  have s1 : 0 < sqrt (1 + ln_div_delta) by rewrite -ln_div_den2_split.
  have -> : ln_div_S / (2 * N * c * M) = (ln_div_delta - ln_div_q) / 2.
    by rewrite /ln_div_delta; field.
  rewrite z_eq; move: (sqrt (1 + ln_div_delta)) s1 => s s1.
  by field; lra.
have R := layernorm_division_remainder ln_div_delta delta_lt1.
set A := / sqrt (1 + ln_div_delta) - (1 - ln_div_delta / 2) in R *.
have T := Rabs_triang A (- (ln_div_q / 2)).
rewrite Rabs_Ropp (Rabs_pos_eq (ln_div_q / 2)) in T; last by lra.
change (A + - (ln_div_q / 2)) with (A - ln_div_q / 2) in T.
by lra.
Qed.

End LayerNormDivision.

(* ---------------------------------------------------------- the bypass (Lemma 6) *)

(* The bypass input (built by the C++ as [N, x_0, ..., x_(k-1), -N - sum x, 0, ...]; the paper
   writes [x, N, -N - sum x]) is the division input at c = M = 1, y = x. *)
Theorem layernorm_bypass_squared (k p : nat) (N e : R) (x : nat -> R) (i : nat) :
  N <> 0 -> 0 <= e -> (i < k)%nat ->
  2 / INR (ln_div_L k p) * N ^ 2 * layer_norm_squared (ln_div_input k N 1 1 x) (ln_div_L k p) e (S i)
    = x i ^ 2 / ln_div_den2 k p N 1 1 e x
  /\ 2 / INR (ln_div_L k p) * N ^ 2 * layer_norm_squared (ln_div_input k N 1 1 x) (ln_div_L k p) e O
    = N ^ 2 / ln_div_den2 k p N 1 1 e x.
Proof.
move=> N_neq0 e_ge0 i_lt.
have one_neq0 : (1 : R) <> 0 by lra.
split.
  have := layernorm_division_squared_entry k p N 1 1 e x i N_neq0 one_neq0 one_neq0 e_ge0 i_lt.
  by rewrite pow1 Rmult_1_r /Rdiv Rinv_1 Rmult_1_r.
have := layernorm_division_squared_first_entry k p N 1 1 e x N_neq0 one_neq0 one_neq0 e_ge0.
by rewrite pow1 Rmult_1_r Rmult_1_l.
Qed.

Theorem layernorm_bypass_closed_form (k p : nat) (N e : R) (x : nat -> R) (i : nat) :
  0 < N -> 0 <= e -> (i < k)%nat ->
  sqrt (2 / INR (ln_div_L k p)) * N * layer_norm (ln_div_input k N 1 1 x) (ln_div_L k p) e (S i)
    = x i / sqrt (ln_div_den2 k p N 1 1 e x)
  /\ sqrt (2 / INR (ln_div_L k p)) * N * layer_norm (ln_div_input k N 1 1 x) (ln_div_L k p) e O
    = N / sqrt (ln_div_den2 k p N 1 1 e x).
Proof.
move=> N_pos e_ge0 i_lt.
have N_neq0 : N <> 0 by lra.
have one_neq0 : (1 : R) <> 0 by lra.
have one_pos : (0 : R) < 1 by lra.
split.
  have := layernorm_division_closed_form k p N 1 1 e x i N_pos one_neq0 one_pos e_ge0 i_lt.
  by rewrite Rmult_1_r Rabs_R1 /Rdiv Rinv_1 Rmult_1_r.
have L_pos := ln_div_L_pos k p.
have D_pos := ln_div_den2_pos k p N 1 1 e x N_neq0 one_neq0 one_neq0 e_ge0.
have sD : 0 < sqrt (ln_div_den2 k p N 1 1 e x) by apply: sqrt_lt_R0.
have sL : 0 < sqrt (2 / INR (ln_div_L k p)) by apply/sqrt_lt_R0/Rdiv_lt_0_compat; lra.
rewrite /layer_norm (ln_div_sqrt_var_eps k p N 1 1 e x N_pos one_neq0 one_neq0 e_ge0).
rewrite ln_div_centred //= Rabs_R1.
by field; repeat split; lra.
Qed.
