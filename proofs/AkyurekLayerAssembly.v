(* AkyurekLayerAssembly.v -- the one-layer error bounds of the realised RAW and div layers
   (src/raw/layer_bounds.hpp: raw_layer_bound, div_layer_bound) assembled from their component
   bounds, over Coq's R, for the units exactly as src/raw/raw_operator.hpp builds them
   (build_raw_layer, build_div_layer) and src/raw/decoder_layer.hpp runs them.

   The C++ bound is the maximum over tokens i, ops and written rows of one unit's error; each
   theorem below bounds ONE unit's error by the expression the C++ evaluates for it (the names
   in brackets are the C++ locals), in exact real arithmetic: the C++ rounding terms (gamma_bound,
   0 on intervals) are not modelled, so the theorems cover the interval mode's bound.

   Main results:
   - ln_var_sums: L var(v) = sum v^2 - (sum v)^2 / L for the LayerNorm of decoder_layer.hpp.
   - ln_contrast: a contrast of the LayerNorm outputs (weights summing to 0) is the same contrast
     of the input over sqrt (var + e). Every unit of the RAW / div layers reads such a contrast
     (mlp_builder::unit: coefficients c_j on the rows and -total/2 on each pad; the div unit:
     its entry minus the mean of the k + 2 assembled entries), so the mean cancels exactly.
   - layernorm_division_closed_form_rest (Lemma 8 with the rest of the hidden state): for the
     LayerNorm input [N c, y/M, -N c - S/M, r_0, ..., r_(p-1)] (any rest r),
       sqrt (2/L) M N (lambda_(1+i) - mean of lambda over the k + 2 assembled entries)
         = (y_i / |c|) / sqrt (den2 + (|r|^2 - (sum r)^2 / L) / (2 N^2 c^2)),
     den2 = LayerNorm.v:ln_div_den2 (its e L term included).
   - ln_unit_scale_deviation: the scale a unit reads through the LayerNorm, sqrt (2/L) K /
     sqrt (var + e), is within d / (2 (1 - d) sqrt (1 - d)) (inv_sqrt_deviation) of 1 when
     |L (var + e) / (2 K^2) - 1| <= d < 1 (K = Nln for the RAW pads, K = N |c| for div).
   - raw_pad_radicand, raw_pad_unit_scale: for the LayerNorm input x of a RAW layer with the
     pads within p <= Nln of +-Nln and the other entries of squared norm <= xn2,
       |L (var + e) / (2 Nln^2) - 1| <= delta = (xn2 + e L) / (2 Nln^2) + 2 p / Nln + p^2 / Nln^2,
     so (delta < 1) the unit scale Kl / sqrt (var + e) is within inv_sqrt_deviation(delta) of 1
     (raw_layer_bound's delta and rx, with xn2 = xnorm^2).
   - div_radicand: for the LayerNorm input x of a div layer (length L = P + (k + 2) + R) with
     the assembled rows P .. P + k + 1 within e_att of [N c, y/M, -N c - S/M] and the other
     entries of squared norm <= rest2,
       |L (var + e) / (2 N^2 c^2) - 1| <= |S| / (N |c| M) + (S^2 + |y|^2) / (2 N^2 c^2 M^2)
                                           + (rest2 + e L + E) / (2 N^2 c^2),
     E = 4 e_att (N |c| + |y|_1 / M) + (k + 2) e_att^2 (div_layer_bound's delta; with
     ln_unit_scale_deviation at K = N |c| its rel).
   - raw_add_unit_assembly (RAW +, written row w_m): for the unit z = Nb + b0 + rho (lin -
     total pbar), out = h_w + g(z) - Nb, with |rho - 1| <= rx, the pads' mean |pbar| <= p,
     the scratch reads read_n + da_n + res_n (|da_n| <= e_att, |res_n| <= rho_t), |(W h_s)_n| <=
     Xs_n, |sum_q W_nq| <= Ws_n, and the GeLU bypass hypothesis |g(t) - t| <= byp for
     |t - Nb| <= zmax:
       |out - exact| <= byp + (sum |wo_n|) (rho_t + e_att) + rx (cx + p csum) + p csum,
       zmax = (1 + rx) (cx + p csum) + |b0|.
   - raw_hadamard_unit_assembly (RAW (.), written row w_m): with the product units' hypothesis
     |gp(a, b) - a b| <= approx_n for |a| <= |read_n| + dA_n, |b| <= |(W h_s)_n| + dB_n:
       |out - exact| <= byp + rx (|h_w| + p) + p
                        + sum_n |wo_n| (|read_n| dB_n + |(W h_s)_n| dA_n + dA_n dB_n + approx_n),
       dA_n = rx (At_n + p) + rho_t + e_att + p, dB_n = rx (Xs_n + p Ws_n) + p Ws_n,
       zmax = (1 + rx) (|h_w| + p) + |b0|.
   - div_unit_assembly (div, written row w_q): z = Nb + rho (y/|c| + (M/|c|) d), |d| <= 2 e_att,
     out = x_w + g(z) - Nb with |x_w| <= aw:
       |out - y/|c|| <= rel |y/|c|| + (1 + rel) 2 M e_att / |c| + byp + aw,
       zmax = (1 + rel) (|y/|c|| + 2 M e_att / |c|).
   - gelu_tanh_bypass_at_floor: the bypass hypothesis for the tanh GeLU, with byp the C++
     gelu_bypass_bound at t = Nb - zmax >= 1 (from AkyurekBounds.v:gelu_tanh_bypass_exponential
     and AkyurekLayerBounds.v:gelu_tanh_bypass_bound_decreasing).
   - gelu_erf_bypass_at_floor: the same for the erf GeLU from the erf bypass bound
     |g(t) - t| <= exp(-t^2/2) / sqrt(2 pi) for all t > 0, taken as its PREMISE (not proved
     here): the bound at t = Nb - zmax > 0 covers every |z - Nb| <= zmax.
   - gelu_tanh_product_at_box, gelu_erf_product_at_box: the product hypothesis of
     raw_hadamard_unit_assembly at X = |read_n| + dA_n, Y = |(W h_s)_n| + dB_n, with approx_n
     the C++ gelu_product_bound_abs(form, X, Y, s): (X^4 + Y^4) / s^2 for tanh when 10 X,
     10 Y <= s (AkyurekBounds.v:gelu_tanh_product_quartic, scaled), ((X+Y)^4 - X^4 - Y^4) /
     (12 s^2) + ((X+Y)^6 + X^6 + Y^6) / (80 s^4) for erf (GeluErf.v:gelu_erf_product_bound).
   - gelu_erf_bypass_at_floor_proved: gelu_erf_bypass_at_floor with its premise discharged by
     GeluErfTail.v:gelu_erf_bypass_bound (Gaussian integral and Mills ratio), unconditional.
   What stays a hypothesis: the attention deviations e_att
   (AkyurekLayerBounds.v:hard_attention_deviation, with the value bound the C++ assembles), and
   the squared norm of the LayerNorm input's other entries (RAW: xn2, the C++ xnorm^2 over the
   data, scratch reads and residues; div: rest2).
   Dependencies: Coq Reals, Coquelicot, AkyurekBounds.v, AkyurekLayerBounds.v, LayerNorm.v,
   GeluErf.v, GeluErfTail.v.
   Assumptions: the standard set of allowed_axioms.txt (classical reals; Interval's primitive
   floats through AkyurekLayerBounds.v). *)
From Coq Require Import Reals Lra Lia ssreflect.
From Coquelicot Require Import Coquelicot.
From ICLProof Require Import AkyurekBounds AkyurekLayerBounds LayerNorm GeluErf GeluErfTail.
Open Scope R_scope.

(* ------------------------------------------------------------------------ finite sums *)
Lemma rsum_plus (f g : nat -> R) (n : nat) :
  rsum (fun j => f j + g j) n = rsum f n + rsum g n.
Proof. by elim: n => [|n IH] /=; [ring | rewrite IH; ring]. Qed.

Lemma rsum_scal (a : R) (f : nat -> R) (n : nat) :
  rsum (fun j => a * f j) n = a * rsum f n.
Proof. by elim: n => [|n IH] /=; [ring | rewrite IH; ring]. Qed.

Lemma rsum_const (a : R) (n : nat) : rsum (fun _ => a) n = INR n * a.
Proof.
elim: n => [|n IH]; first by rewrite /=; ring.
by rewrite S_INR; change (rsum (fun _ => a) (S n)) with (rsum (fun _ => a) n + a); rewrite IH; ring.
Qed.

(* ------------------------------------------------------------------ LayerNorm contrasts *)

(* LayerNorm: L var = sum v^2 - (sum v)^2 / L. *)
Theorem ln_var_sums (v : nat -> R) (L : nat) :
  (0 < L)%nat ->
  ln_var v L * INR L = rsum (fun j => v j ^ 2) L - rsum v L ^ 2 / INR L.
Proof.
move=> L_pos.
have LR : 0 < INR L by apply: lt_0_INR.
rewrite /ln_var /ln_centred.
set m := ln_mean v L.
have -> : rsum (fun j => (v j - m) ^ 2) L =
          rsum (fun j => v j ^ 2) L + (-2 * m) * rsum v L + INR L * m ^ 2.
  rewrite -rsum_scal -rsum_const -!rsum_plus.
  by apply: rsum_ext => j _; ring.
rewrite /m /ln_mean; field; lra.
Qed.

(* A contrast of the LayerNorm outputs (weights summing to 0) is the same contrast of the input
   over sqrt (var + e): the mean cancels. *)
Theorem ln_contrast (v w : nat -> R) (L : nat) (e : R) :
  rsum w L = 0 ->
  rsum (fun j => w j * layer_norm v L e j) L = rsum (fun j => w j * v j) L / sqrt (ln_var v L + e).
Proof.
move=> w0.
rewrite /layer_norm /ln_centred.
set s := sqrt (ln_var v L + e); set m := ln_mean v L.
have -> : rsum (fun j => w j * ((v j - m) / s)) L =
          / s * rsum (fun j => w j * v j) L + (- m / s) * rsum w L.
  rewrite -!rsum_scal -rsum_plus; apply: rsum_ext => j _; rewrite /Rdiv; ring.
by rewrite w0 /Rdiv; ring.
Qed.

(* ------------------------------------------- LayerNorm division with the rest of the state *)

Section DivisionWithRest.
Variables (k p : nat) (N c M e : R) (y r : nat -> R).

Definition ln_div_rest_input (j : nat) : R :=
  if (j <? k + 2)%nat then ln_div_input k N c M y j else r (j - (k + 2))%nat.

Definition ln_div_rest_rad : R :=
  ln_div_den2 k p N c M e y
  + (rsum (fun j => r j ^ 2) p - rsum r p ^ 2 / INR (ln_div_L k p)) / (2 * (N * c) ^ 2).

Lemma ln_div_rest_split (g : R -> R) :
  rsum (fun j => g (ln_div_rest_input j)) (ln_div_L k p) =
  rsum (fun j => g (ln_div_input k N c M y j)) (k + 2) + rsum (fun j => g (r j)) p.
Proof.
rewrite /ln_div_L rsum_split; congr (_ + _).
  apply: rsum_ext => j /Nat.ltb_lt j_lt.
  by rewrite /ln_div_rest_input j_lt.
apply: rsum_ext => j _.
have lt : (k + 2 + j <? k + 2)%nat = false by apply/Nat.ltb_ge; lia.
by rewrite /ln_div_rest_input lt; congr (g (r _)); lia.
Qed.

Lemma ln_div_head_sum :
  M <> 0 -> rsum (ln_div_input k N c M y) (k + 2) = 0.
Proof.
move=> M_neq0.
have -> : (k + 2)%nat = ln_div_L k 0 by rewrite /ln_div_L; lia.
rewrite ln_div_rsum.
rewrite (rsum_ext (fun i => ln_div_input k N c M y (S i)) (fun i => y i / M)); last first.
  by move=> i i_lt; apply: ln_div_input_data.
rewrite rsum_div ln_div_input_close /= /ln_div_S.
by rewrite /Rdiv; ring.
Qed.

Lemma ln_div_head_squares :
  N <> 0 -> c <> 0 -> M <> 0 ->
  rsum (fun j => ln_div_input k N c M y j ^ 2) (k + 2) =
  2 * (N * c) ^ 2 * (1 + ln_div_S k y / (N * c * M)
                     + (ln_div_S k y ^ 2 + ln_div_Q k y) / (2 * (N * c) ^ 2 * M ^ 2)).
Proof.
move=> N_neq0 c_neq0 M_neq0.
have -> : (k + 2)%nat = ln_div_L k 0 by rewrite /ln_div_L; lia.
rewrite ln_div_rsum.
rewrite (rsum_ext (fun i => ln_div_input k N c M y (S i) ^ 2) (fun i => y i ^ 2 / M ^ 2)); last first.
  by move=> i i_lt; rewrite ln_div_input_data //; field.
rewrite rsum_div ln_div_input_close /= -/(ln_div_Q k y).
by field; repeat split => //; lra.
Qed.

Theorem ln_div_rest_var_eps :
  N <> 0 -> c <> 0 -> M <> 0 ->
  ln_var ln_div_rest_input (ln_div_L k p) + e =
  2 * (N * c) ^ 2 / INR (ln_div_L k p) * ln_div_rest_rad.
Proof.
move=> N_neq0 c_neq0 M_neq0.
have L_pos : (0 < ln_div_L k p)%nat by rewrite /ln_div_L; lia.
have LR : 0 < INR (ln_div_L k p) by apply: lt_0_INR.
have V := ln_var_sums ln_div_rest_input (ln_div_L k p) L_pos.
have sq := ln_div_rest_split (fun x => x ^ 2).
have sm := ln_div_rest_split (fun x => x).
cbv beta in sq; cbv beta in sm.
rewrite (rsum_ext (fun j => ln_div_rest_input j) ln_div_rest_input) // in sm.
rewrite (rsum_ext (fun j => ln_div_input k N c M y j) (ln_div_input k N c M y)) // in sm.
rewrite (rsum_ext (fun j => r j) r) // in sm.
rewrite ln_div_head_sum // Rplus_0_l in sm.
rewrite ln_div_head_squares // in sq.
have Nc2 : 0 < (N * c) ^ 2 by apply: sq_pos; apply: Rmult_integral_contrapositive.
have -> : ln_var ln_div_rest_input (ln_div_L k p) =
          (rsum (fun j => ln_div_rest_input j ^ 2) (ln_div_L k p)
           - rsum ln_div_rest_input (ln_div_L k p) ^ 2 / INR (ln_div_L k p)) / INR (ln_div_L k p).
  by rewrite -V; field; lra.
rewrite sq sm /ln_div_rest_rad /ln_div_den2.
by field; repeat split; lra.
Qed.

(* Lemma 8 with the rest of the hidden state in the LayerNorm: the division unit's contrast
   (its entry minus the mean over the k + 2 assembled entries) recovers y_i / |c| over the
   square root of the radicand with the rest's term (|r|^2 - (sum r)^2 / L) / (2 N^2 c^2). *)
Theorem layernorm_division_closed_form_rest (i : nat) :
  0 < N -> c <> 0 -> 0 < M -> (i < k)%nat -> 0 < ln_div_rest_rad ->
  let v := ln_div_rest_input in
  let L := ln_div_L k p in
  sqrt (2 / INR L) * M * N *
    (layer_norm v L e (S i) - rsum (fun j => layer_norm v L e j) (k + 2) / INR (k + 2))
  = (y i / Rabs c) / sqrt ln_div_rest_rad.
Proof.
move=> N_pos c_neq0 M_pos i_lt R_pos v L.
have N_neq0 : N <> 0 by lra.
have M_neq0 : M <> 0 by lra.
have L_pos : (0 < L)%nat by rewrite /L /ln_div_L; lia.
have LR : 0 < INR L by apply: lt_0_INR.
have K2 : 0 < INR (k + 2) by apply: lt_0_INR; lia.
have sR : 0 < sqrt ln_div_rest_rad by apply: sqrt_lt_R0.
have sL : 0 < sqrt (2 / INR L) by apply/sqrt_lt_R0/Rdiv_lt_0_compat; lra.
have ac : 0 < Rabs c by apply: Rabs_pos_lt.
have VE := ln_div_rest_var_eps N_neq0 c_neq0 M_neq0.
have s_eq : sqrt (ln_var v L + e) = sqrt (2 / INR L) * (N * Rabs c) * sqrt ln_div_rest_rad.
  rewrite /v /L VE.
  have -> : 2 * (N * c) ^ 2 / INR (ln_div_L k p) * ln_div_rest_rad =
            2 / INR (ln_div_L k p) * (Rsqr (N * c) * ln_div_rest_rad) by rewrite /Rsqr; field; rewrite -/L; lra.
  rewrite sqrt_mult_alt; last by apply/Rlt_le/Rdiv_lt_0_compat; rewrite -/L; lra.
  rewrite sqrt_mult_alt; last by apply: Rle_0_sqr.
  by rewrite sqrt_Rsqr_abs Rabs_mult (Rabs_pos_eq N); [ring | lra].
have head : forall j, (j < k + 2)%nat -> v j = ln_div_input k N c M y j.
  by move=> j /Nat.ltb_lt j_lt; rewrite /v /ln_div_rest_input j_lt.
rewrite /layer_norm /ln_centred.
set s := sqrt (ln_var v L + e); set m := ln_mean v L.
have -> : rsum (fun j => (v j - m) / s) (k + 2) =
          / s * rsum (ln_div_input k N c M y) (k + 2) + (- m / s) * rsum (fun _ => 1) (k + 2).
  rewrite -!rsum_scal -rsum_plus; apply: rsum_ext => j j_lt; rewrite head //.
  by rewrite /Rdiv; ring.
rewrite ln_div_head_sum // rsum_const.
rewrite head; last by lia.
rewrite ln_div_input_data // /s s_eq.
by field; repeat split; lra.
Qed.

End DivisionWithRest.

(* ---------------------------------------------------------------------- unit assembly *)

Lemma abs_mul_le (a b A B : R) : Rabs a <= A -> Rabs b <= B -> Rabs (a * b) <= A * B.
Proof.
move=> aA bB; rewrite Rabs_mult.
by apply: Rmult_le_compat => //; apply: Rabs_pos.
Qed.

(* The scratch read of a RAW unit (one term n of the sum): realised value x_t = read + da + res. *)
Theorem raw_add_unit_assembly (g : R -> R) (nt : nat)
    (wo read da res wx Xs wsum Ws : nat -> R)
    (hw b0 Nb rho rx p pbar e_att rho_t byp : R) :
  (forall n, (n < nt)%nat -> Rabs (da n) <= e_att) ->
  (forall n, (n < nt)%nat -> Rabs (res n) <= rho_t) ->
  (forall n, (n < nt)%nat -> Rabs (wx n) <= Xs n) ->
  (forall n, (n < nt)%nat -> Rabs (wsum n) <= Ws n) ->
  Rabs pbar <= p -> Rabs (rho - 1) <= rx ->
  let At n := Rabs (read n) + e_att + rho_t in
  let lin := - hw + rsum (fun n => wo n * (read n + da n + res n + wx n)) nt in
  let total := -1 + rsum (fun n => wo n * (1 + wsum n)) nt in
  let z := Nb + b0 + rho * (lin - total * pbar) in
  let cx := Rabs hw + rsum (fun n => Rabs (wo n) * (At n + Xs n)) nt in
  let csum := 1 + rsum (fun n => Rabs (wo n) * (1 + Ws n)) nt in
  let zmax := (1 + rx) * (cx + p * csum) + Rabs b0 in
  (forall t, Rabs (t - Nb) <= zmax -> Rabs (g t - t) <= byp) ->
  let out := hw + g z - Nb in
  let target := rsum (fun n => wo n * (read n + wx n)) nt + b0 in
  Rabs (out - target)
    <= byp + rsum (fun n => Rabs (wo n)) nt * (rho_t + e_att) + rx * (cx + p * csum) + p * csum.
Proof.
move=> da_le res_le wx_le ws_le p_le rho_le At lin total z cx csum zmax byp_le out target.
have rx_ge0 : 0 <= rx by have := Rabs_pos (rho - 1); lra.
have p_ge0 : 0 <= p by have := Rabs_pos pbar; lra.
have lin_le : Rabs lin <= cx.
  rewrite /lin /cx.
  have := Rabs_triang (- hw) (rsum (fun n => wo n * (read n + da n + res n + wx n)) nt).
  rewrite Rabs_Ropp.
  have := rsum_abs (fun n => wo n * (read n + da n + res n + wx n)) nt.
  have : rsum (fun j => Rabs (wo j * (read j + da j + res j + wx j))) nt <=
         rsum (fun n => Rabs (wo n) * (At n + Xs n)) nt.
    apply: rsum_le => n n_lt; rewrite Rabs_mult; apply: Rmult_le_compat_l; first by apply: Rabs_pos.
    have := Rabs_triang (read n + da n + res n) (wx n).
    have := Rabs_triang (read n + da n) (res n).
    have := Rabs_triang (read n) (da n).
    have := da_le n n_lt; have := res_le n n_lt; have := wx_le n n_lt.
    by rewrite /At; lra.
  by lra.
have total_le : Rabs total <= csum.
  rewrite /total /csum.
  have := Rabs_triang (-1) (rsum (fun n => wo n * (1 + wsum n)) nt).
  rewrite Rabs_Ropp Rabs_R1.
  have := rsum_abs (fun n => wo n * (1 + wsum n)) nt.
  have : rsum (fun j => Rabs (wo j * (1 + wsum j))) nt <=
         rsum (fun n => Rabs (wo n) * (1 + Ws n)) nt.
    apply: rsum_le => n n_lt; rewrite Rabs_mult; apply: Rmult_le_compat_l; first by apply: Rabs_pos.
    have := Rabs_triang 1 (wsum n); rewrite Rabs_R1; have := ws_le n n_lt; lra.
  by lra.
have tp_le : Rabs (total * pbar) <= csum * p by apply: abs_mul_le.
set q := lin - total * pbar.
have q_le : Rabs q <= cx + p * csum.
  by rewrite /q /Rminus; have := Rabs_triang lin (- (total * pbar)); rewrite Rabs_Ropp; lra.
have rho_abs : Rabs rho <= 1 + rx.
  have := Rabs_triang (rho - 1) 1; rewrite Rabs_R1.
  have -> : rho - 1 + 1 = rho by ring.
  by lra.
have z_le : Rabs (z - Nb) <= zmax.
  have -> : z - Nb = b0 + rho * q by rewrite /z /q; ring.
  have := Rabs_triang b0 (rho * q); have := abs_mul_le _ _ _ _ rho_abs q_le.
  by rewrite /zmax; lra.
have gz := byp_le z z_le.
(* the deviations the attention and the scratch residue leave in the read *)
set D := rsum (fun n => wo n * (da n + res n)) nt.
have D_le : Rabs D <= rsum (fun n => Rabs (wo n)) nt * (rho_t + e_att).
  rewrite (Rmult_comm (rsum _ nt)) -rsum_scal /D.
  have := rsum_abs (fun n => wo n * (da n + res n)) nt.
  have : rsum (fun j => Rabs (wo j * (da j + res j))) nt <=
         rsum (fun n => (rho_t + e_att) * Rabs (wo n)) nt.
    apply: rsum_le => n n_lt; rewrite Rabs_mult Rmult_comm; apply: Rmult_le_compat_r.
      by apply: Rabs_pos.
    by have := Rabs_triang (da n) (res n); have := da_le n n_lt; have := res_le n n_lt; lra.
  by lra.
have lin_eq : lin + hw = target - b0 + D.
  rewrite /lin /target /D.
  have -> : rsum (fun n => wo n * (read n + da n + res n + wx n)) nt =
            rsum (fun n => wo n * (read n + wx n)) nt + rsum (fun n => wo n * (da n + res n)) nt.
    by rewrite -rsum_plus; apply: rsum_ext => n _; ring.
  by ring.
have -> : out - target = (g z - z) + (rho - 1) * q + D + - (total * pbar).
  rewrite /out /z -/q.
  have -> : q = lin - total * pbar by [].
  by lra.
have := abs_mul_le _ _ _ _ rho_le q_le.
have := Rabs_triang ((g z - z) + (rho - 1) * q + D) (- (total * pbar)); rewrite Rabs_Ropp.
have := Rabs_triang ((g z - z) + (rho - 1) * q) D.
have := Rabs_triang (g z - z) ((rho - 1) * q).
by lra.
Qed.

Theorem raw_hadamard_unit_assembly (g : R -> R) (gp : R -> R -> R) (nt : nat)
    (wo read da res wx Xs wsum Ws approx : nat -> R)
    (hw b0 Nb rho rx p pbar e_att rho_t byp : R) :
  (forall n, (n < nt)%nat -> Rabs (da n) <= e_att) ->
  (forall n, (n < nt)%nat -> Rabs (res n) <= rho_t) ->
  (forall n, (n < nt)%nat -> Rabs (wx n) <= Xs n) ->
  (forall n, (n < nt)%nat -> Rabs (wsum n) <= Ws n) ->
  Rabs pbar <= p -> Rabs (rho - 1) <= rx ->
  let At n := Rabs (read n) + e_att + rho_t in
  let dA n := rx * (At n + p) + rho_t + e_att + p in
  let dB n := rx * (Xs n + p * Ws n) + p * Ws n in
  (forall n a b, (n < nt)%nat -> Rabs a <= Rabs (read n) + dA n -> Rabs b <= Rabs (wx n) + dB n ->
     Rabs (gp a b - a * b) <= approx n) ->
  let A n := rho * (read n + da n + res n - pbar) in
  let B n := rho * (wx n - wsum n * pbar) in
  let z := Nb + b0 + rho * (- hw + pbar) in
  let zmax := (1 + rx) * (Rabs hw + p) + Rabs b0 in
  (forall t, Rabs (t - Nb) <= zmax -> Rabs (g t - t) <= byp) ->
  let out := hw + g z - Nb + rsum (fun n => wo n * gp (A n) (B n)) nt in
  let target := rsum (fun n => wo n * (read n * wx n)) nt + b0 in
  Rabs (out - target)
    <= byp + rx * (Rabs hw + p) + p
       + rsum (fun n => Rabs (wo n) * (Rabs (read n) * dB n + Rabs (wx n) * dA n + dA n * dB n
                                       + approx n)) nt.
Proof.
move=> da_le res_le wx_le ws_le p_le rho_le At dA dB prod_le A B z zmax byp_le out target.
have rx_ge0 : 0 <= rx by have := Rabs_pos (rho - 1); lra.
have p_ge0 : 0 <= p by have := Rabs_pos pbar; lra.
have rho_abs : Rabs rho <= 1 + rx.
  have := Rabs_triang (rho - 1) 1; rewrite Rabs_R1.
  have -> : rho - 1 + 1 = rho by ring.
  by lra.
have q_le : Rabs (- hw + pbar) <= Rabs hw + p.
  by have := Rabs_triang (- hw) pbar; rewrite Rabs_Ropp; lra.
have z_le : Rabs (z - Nb) <= zmax.
  have -> : z - Nb = b0 + rho * (- hw + pbar) by rewrite /z; ring.
  have := Rabs_triang b0 (rho * (- hw + pbar)); have := abs_mul_le _ _ _ _ rho_abs q_le.
  by rewrite /zmax; lra.
have gz := byp_le z z_le.
(* per scratch component: the recovered factors are within dA, dB of the exact ones *)
have dev n : (n < nt)%nat ->
    Rabs (A n - read n) <= dA n /\ Rabs (B n - wx n) <= dB n.
  move=> n_lt.
  have xt_le : Rabs (read n + da n + res n - pbar) <= At n + p.
    have := Rabs_triang (read n + da n + res n) (- pbar); rewrite Rabs_Ropp.
    have := Rabs_triang (read n + da n) (res n); have := Rabs_triang (read n) (da n).
    by have := da_le n n_lt; have := res_le n n_lt; rewrite /At /Rminus; lra.
  have wb_le : Rabs (wx n - wsum n * pbar) <= Xs n + p * Ws n.
    have := Rabs_triang (wx n) (- (wsum n * pbar)); rewrite Rabs_Ropp.
    have := abs_mul_le _ _ _ _ (ws_le n n_lt) p_le.
    by have := wx_le n n_lt; rewrite /Rminus; lra.
  split.
    have -> : A n - read n = (rho - 1) * (read n + da n + res n - pbar) + (da n + res n) + - pbar.
      by rewrite /A; ring.
    have := abs_mul_le _ _ _ _ rho_le xt_le.
    have := Rabs_triang ((rho - 1) * (read n + da n + res n - pbar) + (da n + res n)) (- pbar).
    have := Rabs_triang ((rho - 1) * (read n + da n + res n - pbar)) (da n + res n).
    have := Rabs_triang (da n) (res n); rewrite Rabs_Ropp.
    by have := da_le n n_lt; have := res_le n n_lt; rewrite /dA; lra.
  have -> : B n - wx n = (rho - 1) * (wx n - wsum n * pbar) + - (wsum n * pbar).
    by rewrite /B; ring.
  have := abs_mul_le _ _ _ _ rho_le wb_le.
  have := Rabs_triang ((rho - 1) * (wx n - wsum n * pbar)) (- (wsum n * pbar)); rewrite Rabs_Ropp.
  have := abs_mul_le _ _ _ _ (ws_le n n_lt) p_le.
  by rewrite /dB; lra.
have term n : (n < nt)%nat ->
    Rabs (wo n * (gp (A n) (B n) - read n * wx n))
    <= Rabs (wo n) * (Rabs (read n) * dB n + Rabs (wx n) * dA n + dA n * dB n + approx n).
  move=> n_lt; rewrite Rabs_mult; apply: Rmult_le_compat_l; first by apply: Rabs_pos.
  have [dAn dBn] := dev n n_lt.
  have Aa : Rabs (A n) <= Rabs (read n) + dA n.
    have := Rabs_triang (A n - read n) (read n).
    have -> : A n - read n + read n = A n by ring.
    by lra.
  have Bb : Rabs (B n) <= Rabs (wx n) + dB n.
    have := Rabs_triang (B n - wx n) (wx n).
    have -> : B n - wx n + wx n = B n by ring.
    by lra.
  have pr := prod_le n (A n) (B n) n_lt Aa Bb.
  have -> : gp (A n) (B n) - read n * wx n =
            (gp (A n) (B n) - A n * B n) + read n * (B n - wx n) + wx n * (A n - read n)
            + (A n - read n) * (B n - wx n) by ring.
  have := abs_mul_le _ _ _ _ (Rle_refl (Rabs (read n))) dBn.
  have := abs_mul_le _ _ _ _ (Rle_refl (Rabs (wx n))) dAn.
  have := abs_mul_le _ _ _ _ dAn dBn.
  set u1 := gp (A n) (B n) - A n * B n; set u2 := read n * (B n - wx n).
  set u3 := wx n * (A n - read n); set u4 := (A n - read n) * (B n - wx n).
  have := Rabs_triang (u1 + u2 + u3) u4; have := Rabs_triang (u1 + u2) u3;
  have := Rabs_triang u1 u2.
  have pr2 : Rabs u1 <= approx n by exact: pr.
  by lra.
set P := rsum (fun n => wo n * (gp (A n) (B n) - read n * wx n)) nt.
have P_le : Rabs P <= rsum (fun n => Rabs (wo n) * (Rabs (read n) * dB n + Rabs (wx n) * dA n
                                                     + dA n * dB n + approx n)) nt.
  have := rsum_abs (fun n => wo n * (gp (A n) (B n) - read n * wx n)) nt.
  have := rsum_le _ _ nt term.
  by rewrite /P; lra.
have -> : out - target = (g z - z) + (rho - 1) * (- hw + pbar) + pbar + P.
  rewrite /out /target /P /z.
  have -> : rsum (fun n => wo n * (gp (A n) (B n) - read n * wx n)) nt =
            rsum (fun n => wo n * gp (A n) (B n)) nt + - rsum (fun n => wo n * (read n * wx n)) nt.
    have -> : - rsum (fun n => wo n * (read n * wx n)) nt = -1 * rsum (fun n => wo n * (read n * wx n)) nt by ring.
    rewrite -rsum_scal -rsum_plus; apply: rsum_ext => n _; ring.
  by ring.
have := abs_mul_le _ _ _ _ rho_le q_le.
have := Rabs_triang ((g z - z) + (rho - 1) * (- hw + pbar) + pbar) P.
have := Rabs_triang ((g z - z) + (rho - 1) * (- hw + pbar)) pbar.
have := Rabs_triang (g z - z) ((rho - 1) * (- hw + pbar)).
by lra.
Qed.

Theorem div_unit_assembly (g : R -> R) (z0 rho rel Mc d e_att xw aw Nb byp : R) :
  Rabs (rho - 1) <= rel -> Rabs d <= 2 * e_att -> Rabs xw <= aw -> 0 <= Mc ->
  let z := Nb + rho * (z0 + Mc * d) in
  let zmax := (1 + rel) * (Rabs z0 + 2 * Mc * e_att) in
  (forall t, Rabs (t - Nb) <= zmax -> Rabs (g t - t) <= byp) ->
  let out := xw + g z - Nb in
  Rabs (out - z0) <= rel * Rabs z0 + (1 + rel) * (2 * Mc * e_att) + byp + aw.
Proof.
move=> rho_le d_le xw_le Mc_ge0 z zmax byp_le out.
have rel_ge0 : 0 <= rel by have := Rabs_pos (rho - 1); lra.
have rho_abs : Rabs rho <= 1 + rel.
  have := Rabs_triang (rho - 1) 1; rewrite Rabs_R1.
  have -> : rho - 1 + 1 = rho by ring.
  by lra.
have Md_le : Rabs (Mc * d) <= Mc * (2 * e_att).
  by apply: abs_mul_le => //; rewrite Rabs_pos_eq //; lra.
have q_le : Rabs (z0 + Mc * d) <= Rabs z0 + 2 * Mc * e_att.
  by have := Rabs_triang z0 (Mc * d); lra.
have z_le : Rabs (z - Nb) <= zmax.
  have -> : z - Nb = rho * (z0 + Mc * d) by rewrite /z; ring.
  by rewrite Rabs_mult /zmax; apply: Rmult_le_compat => //; apply: Rabs_pos.
have gz := byp_le z z_le.
have -> : out - z0 = (g z - z) + (rho - 1) * z0 + rho * (Mc * d) + xw.
  by rewrite /out /z; ring.
have := abs_mul_le _ _ _ _ rho_le (Rle_refl (Rabs z0)).
have := abs_mul_le _ _ _ _ rho_abs Md_le.
have := Rabs_triang ((g z - z) + (rho - 1) * z0 + rho * (Mc * d)) xw.
have := Rabs_triang ((g z - z) + (rho - 1) * z0) (rho * (Mc * d)).
have := Rabs_triang (g z - z) ((rho - 1) * z0).
by lra.
Qed.

(* The scale the unit reads through the LayerNorm: Kl / sqrt (var + e), Kl = sqrt (2/L) K, is
   1 / sqrt (1 + delta') for 1 + delta' = L (var + e) / (2 K^2); within inv_sqrt_deviation d of 1
   when |delta'| <= d < 1 (AkyurekBounds.v:layernorm_bypass_deviation). K = Nln for the RAW pads,
   K = N |c| for the division. *)
Theorem ln_unit_scale_deviation (L : nat) (K var_e d : R) :
  (0 < L)%nat -> 0 < K -> 0 < var_e ->
  Rabs (INR L * var_e / (2 * K ^ 2) - 1) <= d -> d < 1 ->
  Rabs (sqrt (2 / INR L) * K / sqrt var_e - 1) <= d / (2 * (1 - d) * sqrt (1 - d)).
Proof.
move=> L_pos K_pos v_pos dl_le d_lt1.
have LR : 0 < INR L by apply: lt_0_INR.
set delta := INR L * var_e / (2 * K ^ 2) - 1.
have dev := layernorm_bypass_deviation delta d dl_le d_lt1.
have sL : 0 < 2 / INR L by apply: Rdiv_lt_0_compat; lra.
have s2 : 0 < sqrt (2 / INR L) by apply: sqrt_lt_R0.
have sv : 0 < sqrt var_e by apply: sqrt_lt_R0.
have e1 : sqrt (1 + delta) = sqrt var_e / (sqrt (2 / INR L) * K).
  have -> : 1 + delta = Rsqr (sqrt var_e / (sqrt (2 / INR L) * K)).
    rewrite /Rsqr.
    have -> : sqrt var_e / (sqrt (2 / INR L) * K) * (sqrt var_e / (sqrt (2 / INR L) * K)) =
              (sqrt var_e * sqrt var_e) / ((sqrt (2 / INR L) * sqrt (2 / INR L)) * K ^ 2).
      by field; split; lra.
    rewrite !sqrt_sqrt; try lra.
    by rewrite /delta; field; lra.
  by rewrite sqrt_Rsqr //; apply/Rlt_le/Rdiv_lt_0_compat => //; apply: Rmult_lt_0_compat.
have -> : sqrt (2 / INR L) * K / sqrt var_e - 1 = - (1 - / sqrt (1 + delta)).
  by rewrite e1; field; repeat split; lra.
by rewrite Rabs_Ropp.
Qed.

(* The tanh GeLU bypass at every pre-activation the unit can take: if |z - Nb| <= zmax and
   Nb - zmax >= 1, |g(z) - z| is at most the bound at t = Nb - zmax (the C++ gelu_bypass_bound). *)
Theorem gelu_tanh_bypass_at_floor (Nb zmax : R) :
  1 <= Nb - zmax ->
  forall z, Rabs (z - Nb) <= zmax ->
  Rabs (gelu_tanh z - z) <= (Nb - zmax) * exp (-2 * gelu_arg (Nb - zmax)).
Proof.
move=> t_ge1 z z_le.
have z_ge : Nb - zmax <= z by move: z_le; rewrite /Rabs; case: Rcase_abs; lra.
have := gelu_tanh_bypass_exponential z ltac:(lra).
have := gelu_tanh_bypass_bound_decreasing (Nb - zmax) z t_ge1 z_ge.
by lra.
Qed.

(* The erf form's bypass hypothesis from the erf bypass bound at every t > 0 (its premise, the
   formula of the C++ gelu_bypass_bound): the bound at t = Nb - zmax > 0 covers every
   |z - Nb| <= zmax, since exp (- t^2 / 2) decreases in t > 0. *)
Theorem gelu_erf_bypass_at_floor (Nb zmax : R) :
  (forall t, 0 < t -> Rabs (gelu_erf t - t) <= exp (- (t * t) / 2) / sqrt (2 * PI)) ->
  0 < Nb - zmax ->
  forall z, Rabs (z - Nb) <= zmax ->
  Rabs (gelu_erf z - z) <= exp (- ((Nb - zmax) * (Nb - zmax)) / 2) / sqrt (2 * PI).
Proof.
move=> erf_bypass t0_pos z z_le.
have z_ge : Nb - zmax <= z by move: z_le; rewrite /Rabs; case: Rcase_abs; lra.
have := erf_bypass z ltac:(lra).
have sp : 0 < sqrt (2 * PI) by apply: sqrt_lt_R0; have := PI_RGT_0; lra.
have : exp (- (z * z) / 2) <= exp (- ((Nb - zmax) * (Nb - zmax)) / 2).
  by apply: exp_le_inv_le; nra.
move=> e_le b_le; apply: Rle_trans b_le _.
by apply: Rmult_le_compat_r => //; apply/Rlt_le/Rinv_0_lt_compat.
Qed.

(* The premise of gelu_erf_bypass_at_floor discharged by GeluErfTail.v:gelu_erf_bypass_bound (the
   Gaussian integral and the Mills ratio): the erf GeLU bypass bound at the floor, unconditional. *)
Theorem gelu_erf_bypass_at_floor_proved (Nb zmax : R) :
  0 < Nb - zmax ->
  forall z, Rabs (z - Nb) <= zmax ->
  Rabs (gelu_erf z - z) <= exp (- ((Nb - zmax) * (Nb - zmax)) / 2) / sqrt (2 * PI).
Proof. exact: (gelu_erf_bypass_at_floor Nb zmax gelu_erf_bypass_bound). Qed.

(* ------------------------------------------- the product units at the perturbed factors *)

Lemma sq_le_of_abs (x X : R) : Rabs x <= X -> x ^ 2 <= X ^ 2.
Proof.
move=> xX; have a0 := Rabs_pos x.
have -> : x ^ 2 = Rabs x ^ 2 by rewrite pow2_abs.
by apply: pow_incr; lra.
Qed.

Theorem gelu_erf_product_at_box (x y s X Y : R) :
  0 < s -> Rabs x <= X -> Rabs y <= Y ->
  Rabs (gelu_erf_product x y s - x * y)
    <= ((X + Y) ^ 4 - X ^ 4 - Y ^ 4) / (12 * s ^ 2) + ((X + Y) ^ 6 + X ^ 6 + Y ^ 6) / (80 * s ^ 4).
Proof.
move=> s_pos xX yY.
have B := gelu_erf_product_bound x y s s_pos.
have a0 := Rabs_pos x; have b0 := Rabs_pos y.
have s2 : 0 < 12 * s ^ 2 by have := pow_lt s 2 s_pos; lra.
have s4 : 0 < 80 * s ^ 4 by have := pow_lt s 4 s_pos; lra.
have q_le : Rabs ((x + y) ^ 4 - x ^ 4 - y ^ 4) <= (X + Y) ^ 4 - X ^ 4 - Y ^ 4.
  have -> : (x + y) ^ 4 - x ^ 4 - y ^ 4 = (x * y) * (4 * x ^ 2 + 6 * (x * y) + 4 * y ^ 2) by ring.
  have -> : (X + Y) ^ 4 - X ^ 4 - Y ^ 4 = (X * Y) * (4 * X ^ 2 + 6 * (X * Y) + 4 * Y ^ 2) by ring.
  have xy_le : Rabs (x * y) <= X * Y by apply: abs_mul_le.
  have x2 := sq_le_of_abs x X xX; have y2 := sq_le_of_abs y Y yY.
  have in_le : Rabs (4 * x ^ 2 + 6 * (x * y) + 4 * y ^ 2) <= 4 * X ^ 2 + 6 * (X * Y) + 4 * Y ^ 2.
    have := Rabs_triang (4 * x ^ 2 + 6 * (x * y)) (4 * y ^ 2).
    have := Rabs_triang (4 * x ^ 2) (6 * (x * y)).
    have h1 : Rabs (4 * x ^ 2) = 4 * x ^ 2.
      by rewrite Rabs_pos_eq //; have := pow2_ge_0 x; lra.
    have h3 : Rabs (4 * y ^ 2) = 4 * y ^ 2.
      by rewrite Rabs_pos_eq //; have := pow2_ge_0 y; lra.
    have h2 : Rabs (6 * (x * y)) <= 6 * (X * Y).
      by rewrite Rabs_mult (Rabs_pos_eq 6); lra.
    by lra.
  by apply: abs_mul_le.
have r_le : (x + y) ^ 6 + x ^ 6 + y ^ 6 <= (X + Y) ^ 6 + X ^ 6 + Y ^ 6.
  have xy : Rabs (x + y) <= X + Y by have := Rabs_triang x y; lra.
  have e6 : forall u U, Rabs u <= U -> u ^ 6 <= U ^ 6.
    move=> u U uU; have := sq_le_of_abs u U uU => u2.
    have -> : u ^ 6 = (u ^ 2) ^ 3 by ring.
    have -> : U ^ 6 = (U ^ 2) ^ 3 by ring.
    by apply: pow_incr; split; [apply: pow2_ge_0 | lra].
  by have := e6 _ _ xy; have := e6 _ _ xX; have := e6 _ _ yY; lra.
have : Rabs ((x + y) ^ 4 - x ^ 4 - y ^ 4) / (12 * s ^ 2) <= ((X + Y) ^ 4 - X ^ 4 - Y ^ 4) / (12 * s ^ 2).
  by apply: Rmult_le_compat_r => //; apply/Rlt_le/Rinv_0_lt_compat.
have : ((x + y) ^ 6 + x ^ 6 + y ^ 6) / (80 * s ^ 4) <= ((X + Y) ^ 6 + X ^ 6 + Y ^ 6) / (80 * s ^ 4).
  by apply: Rmult_le_compat_r => //; apply/Rlt_le/Rinv_0_lt_compat.
by lra.
Qed.

Theorem gelu_tanh_product_at_box (x y s X Y : R) :
  0 < s -> Rabs x <= X -> Rabs y <= Y -> X * 10 <= s -> Y * 10 <= s ->
  Rabs (s ^ 2 * sqrt (PI / 2) * (gelu_tanh ((x + y) / s) - gelu_tanh (x / s) - gelu_tanh (y / s))
        - x * y)
    <= 1 * (X ^ 4 + Y ^ 4) / (s * s).
Proof.
move=> s_pos xX yY Xs Ys.
have a0 := Rabs_pos x; have b0 := Rabs_pos y.
have is_pos : 0 < / s by apply: Rinv_0_lt_compat.
have a_le : Rabs (x / s) <= 1 / 10.
  rewrite Rabs_div; last by lra.
  rewrite (Rabs_pos_eq s); last by lra.
  by apply/Rle_div_l => //; lra.
have b_le : Rabs (y / s) <= 1 / 10.
  rewrite Rabs_div; last by lra.
  rewrite (Rabs_pos_eq s); last by lra.
  by apply/Rle_div_l => //; lra.
have Q := gelu_tanh_product_quartic (x / s) (y / s) a_le b_le.
have -> : (x + y) / s = x / s + y / s by field; lra.
have -> : s ^ 2 * sqrt (PI / 2) * (gelu_tanh (x / s + y / s) - gelu_tanh (x / s) - gelu_tanh (y / s))
          - x * y =
          s ^ 2 * (sqrt (PI / 2) * (gelu_tanh (x / s + y / s) - gelu_tanh (x / s) - gelu_tanh (y / s))
                   - x / s * (y / s)) by field; lra.
rewrite Rabs_mult (Rabs_pos_eq (s ^ 2)); last by apply: pow2_ge_0.
have s2 : 0 <= s ^ 2 by apply: pow2_ge_0.
have : s ^ 2 * Rabs (sqrt (PI / 2) * (gelu_tanh (x / s + y / s) - gelu_tanh (x / s) - gelu_tanh (y / s))
                     - x / s * (y / s)) <= s ^ 2 * (1 * ((x / s) ^ 4 + (y / s) ^ 4)).
  by apply: Rmult_le_compat_l.
have -> : s ^ 2 * (1 * ((x / s) ^ 4 + (y / s) ^ 4)) = 1 * (x ^ 4 + y ^ 4) / (s * s) by field; lra.
have e4 : forall u U, Rabs u <= U -> u ^ 4 <= U ^ 4.
  move=> u U uU; have := sq_le_of_abs u U uU => u2.
  have -> : u ^ 4 = (u ^ 2) ^ 2 by ring.
  have -> : U ^ 4 = (U ^ 2) ^ 2 by ring.
  by apply: pow_incr; split; [apply: pow2_ge_0 | lra].
have ss : 0 < s * s by nra.
have : 1 * (x ^ 4 + y ^ 4) / (s * s) <= 1 * (X ^ 4 + Y ^ 4) / (s * s).
  apply: Rmult_le_compat_r; first by apply/Rlt_le/Rinv_0_lt_compat.
  by have := e4 _ _ xX; have := e4 _ _ yY; lra.
by lra.
Qed.

(* ------------------------------------------------ the RAW pads' LayerNorm radicand *)

Lemma rsum_pick (f : nat -> R) (n jp : nat) :
  (jp < n)%nat -> rsum f n = rsum (fun j => if (j =? jp)%nat then 0 else f j) n + f jp.
Proof.
elim: n => [|n IH] jp_lt; first by lia.
change (rsum f (S n)) with (rsum f n + f n).
change (rsum (fun j => if (j =? jp)%nat then 0 else f j) (S n))
  with (rsum (fun j => if (j =? jp)%nat then 0 else f j) n + (if (n =? jp)%nat then 0 else f n)).
case: (Nat.eq_dec n jp) => [<- | n_ne].
  rewrite Nat.eqb_refl (rsum_ext (fun j => if (j =? n)%nat then 0 else f j) f); first by ring.
  by move=> j j_lt; have -> : (j =? n)%nat = false by apply/Nat.eqb_neq; lia.
have -> : (n =? jp)%nat = false by apply/Nat.eqb_neq.
by rewrite IH; [ring | lia].
Qed.

Lemma rsum_nonneg (f : nat -> R) (n : nat) : (forall j, 0 <= f j) -> 0 <= rsum f n.
Proof. by move=> f0; elim: n => [|n IH] /=; [lra | have := f0 n; lra]. Qed.

(* The LayerNorm radicand of a RAW layer: with the pads at jp, jm within p <= Nln of +-Nln and
   the other entries of squared norm <= xn2, 1 + delta' = L (var + e) / (2 Nln^2) has
   |delta'| <= (xn2 + e L) / (2 Nln^2) + 2 p / Nln + p^2 / Nln^2 (the C++ delta). *)
Theorem raw_pad_radicand (x : nat -> R) (L jp jm : nat) (Nln p e xn2 : R) :
  (jp < L)%nat -> (jm < L)%nat -> jp <> jm -> 0 < Nln -> 0 <= e -> p <= Nln ->
  Rabs (x jp - Nln) <= p -> Rabs (x jm + Nln) <= p ->
  rsum (fun j => if (j =? jp)%nat then 0 else if (j =? jm)%nat then 0 else x j ^ 2) L <= xn2 ->
  Rabs (INR L * (ln_var x L + e) / (2 * Nln ^ 2) - 1)
    <= (xn2 + e * INR L) / (2 * Nln ^ 2) + 2 * p / Nln + p ^ 2 / Nln ^ 2.
Proof.
move=> jp_lt jm_lt jpm Nln_pos e_ge0 pN p1 p2 rest.
have L_pos : (0 < L)%nat by lia.
have LR : 0 < INR L by apply: lt_0_INR.
have [p1l p1h] : - p <= x jp - Nln <= p by move: p1; rewrite /Rabs; case: Rcase_abs; lra.
have [p2l p2h] : - p <= x jm + Nln <= p by move: p2; rewrite /Rabs; case: Rcase_abs; lra.
have N2 : 0 < Nln ^ 2 by apply: pow_lt.
set m := ln_mean x L.
(* L var = sum (x - m)^2, between (x_jp - x_jm)^2 / 2 and sum x^2 *)
have Lvar : ln_var x L * INR L = rsum (fun j => ln_centred x L j ^ 2) L.
  by rewrite /ln_var; field; lra.
have sums := ln_var_sums x L L_pos.
have two : forall g : nat -> R, rsum g L =
    rsum (fun j => if (j =? jp)%nat then 0 else if (j =? jm)%nat then 0 else g j) L + g jp + g jm.
  move=> g; rewrite (rsum_pick g L jp jp_lt).
  rewrite (rsum_pick (fun j => if (j =? jp)%nat then 0 else g j) L jm jm_lt).
  have -> : (jm =? jp)%nat = false by apply/Nat.eqb_neq; lia.
  rewrite (rsum_ext (fun j => if (j =? jm)%nat then 0 else if (j =? jp)%nat then 0 else g j)
                    (fun j => if (j =? jp)%nat then 0 else if (j =? jm)%nat then 0 else g j)).
    by ring.
  by move=> j _; case: (j =? jp)%nat; case: (j =? jm)%nat.
have upper : ln_var x L * INR L <= xn2 + 2 * Nln ^ 2 + 4 * Nln * p + 2 * p ^ 2.
  rewrite sums (two (fun j => x j ^ 2)).
  have := pow2_ge_0 (rsum x L / INR L); have := pow2_ge_0 (rsum x L).
  have : 0 <= rsum x L ^ 2 / INR L by apply: Rdiv_le_0_compat; [apply: pow2_ge_0 | lra].
  have : x jp ^ 2 <= (Nln + p) ^ 2.
    have -> : x jp ^ 2 = Rabs (x jp) ^ 2 by rewrite pow2_abs.
    apply: pow_incr; split; first by apply: Rabs_pos.
    by move: p1; rewrite /Rabs; case: Rcase_abs; case: Rcase_abs; lra.
  have : x jm ^ 2 <= (Nln + p) ^ 2.
    have -> : x jm ^ 2 = Rabs (x jm) ^ 2 by rewrite pow2_abs.
    apply: pow_incr; split; first by apply: Rabs_pos.
    by move: p2; rewrite /Rabs; case: Rcase_abs; case: Rcase_abs; lra.
  by nra.
have lower : 2 * Nln ^ 2 - 4 * Nln * p <= ln_var x L * INR L.
  rewrite Lvar (two (fun j => ln_centred x L j ^ 2)).
  have := rsum_nonneg (fun j => if (j =? jp)%nat then 0 else if (j =? jm)%nat then 0
                                 else ln_centred x L j ^ 2) L.
  have : forall j, 0 <= (if (j =? jp)%nat then 0 else if (j =? jm)%nat then 0
                         else ln_centred x L j ^ 2).
    by move=> j; case: (j =? jp)%nat; case: (j =? jm)%nat; try lra; apply: pow2_ge_0.
  move=> nn /(_ nn) => rest_ge0.
  rewrite /ln_centred -/m in rest_ge0 *.
  (* (a - m)^2 + (b - m)^2 >= (a - b)^2 / 2 >= (2 Nln - 2 p)^2 / 2 *)
  have ab : 2 * Nln - 2 * p <= x jp - x jm by lra.
  have ab0 : 0 <= 2 * Nln - 2 * p by lra.
  have : (2 * Nln - 2 * p) ^ 2 <= (x jp - x jm) ^ 2 by apply: pow_incr; lra.
  have : (x jp - x jm) ^ 2 / 2 <= (x jp - m) ^ 2 + (x jm - m) ^ 2.
    have := pow2_ge_0 (x jp + x jm - 2 * m); lra.
  have := pow2_ge_0 p.
  have -> : (2 * Nln - 2 * p) ^ 2 = 4 * Nln ^ 2 - 8 * Nln * p + 4 * p ^ 2 by ring.
  by lra.
have Nl : 0 < Nln by lra.
have -> : INR L * (ln_var x L + e) / (2 * Nln ^ 2) - 1 =
          (ln_var x L * INR L - 2 * Nln ^ 2) / (2 * Nln ^ 2) + e * INR L / (2 * Nln ^ 2).
  by field; lra.
have eL : 0 <= e * INR L / (2 * Nln ^ 2) by apply: Rdiv_le_0_compat; nra.
have xn2_ge0 : 0 <= xn2.
  apply: Rle_trans rest; apply: rsum_nonneg => j.
  by case: (j =? jp)%nat; case: (j =? jm)%nat; try lra; apply: pow2_ge_0.
have p0 : 0 <= p by have := Rabs_pos (x jp - Nln); lra.
have up : (ln_var x L * INR L - 2 * Nln ^ 2) / (2 * Nln ^ 2)
          <= xn2 / (2 * Nln ^ 2) + 2 * p / Nln + p ^ 2 / Nln ^ 2.
  apply/Rle_div_l; first by lra.
  have -> : (xn2 / (2 * Nln ^ 2) + 2 * p / Nln + p ^ 2 / Nln ^ 2) * (2 * Nln ^ 2) =
            xn2 + 4 * Nln * p + 2 * p ^ 2 by field; lra.
  by lra.
have lo : - (2 * p / Nln) <= (ln_var x L * INR L - 2 * Nln ^ 2) / (2 * Nln ^ 2).
  apply/Rle_div_r; first by lra.
  have -> : - (2 * p / Nln) * (2 * Nln ^ 2) = - (4 * Nln * p) by field; lra.
  by lra.
have -> : (xn2 + e * INR L) / (2 * Nln ^ 2) = xn2 / (2 * Nln ^ 2) + e * INR L / (2 * Nln ^ 2).
  by field; lra.
have x0 : 0 <= xn2 / (2 * Nln ^ 2) by apply: Rdiv_le_0_compat; lra.
have q0 : 0 <= p ^ 2 / Nln ^ 2 by apply: Rdiv_le_0_compat; [apply: pow2_ge_0 | lra].
rewrite /Rabs; case: Rcase_abs; lra.
Qed.

(* The scale every RAW unit reads (Kl / sqrt (var + e), Kl = sqrt (2/L) Nln: build_raw_layer)
   is within inv_sqrt_deviation(delta) of 1, delta the C++ raw_layer_bound's delta. *)
Corollary raw_pad_unit_scale (x : nat -> R) (L jp jm : nat) (Nln p e xn2 : R) :
  (jp < L)%nat -> (jm < L)%nat -> jp <> jm -> 0 < Nln -> 0 <= e -> p <= Nln ->
  Rabs (x jp - Nln) <= p -> Rabs (x jm + Nln) <= p ->
  rsum (fun j => if (j =? jp)%nat then 0 else if (j =? jm)%nat then 0 else x j ^ 2) L <= xn2 ->
  let delta := (xn2 + e * INR L) / (2 * Nln ^ 2) + 2 * p / Nln + p ^ 2 / Nln ^ 2 in
  delta < 1 ->
  Rabs (sqrt (2 / INR L) * Nln / sqrt (ln_var x L + e) - 1)
    <= delta / (2 * (1 - delta) * sqrt (1 - delta)).
Proof.
move=> jp_lt jm_lt jpm Nln_pos e_ge0 pN p1 p2 rest delta d_lt1.
have R := raw_pad_radicand x L jp jm Nln p e xn2 jp_lt jm_lt jpm Nln_pos e_ge0 pN p1 p2 rest.
have L_pos : (0 < L)%nat by lia.
have LR : 0 < INR L by apply: lt_0_INR.
have N2 : 0 < 2 * Nln ^ 2 by have := pow_lt Nln 2 Nln_pos; lra.
have ve : 0 < ln_var x L + e.
  have lo : 1 - delta <= INR L * (ln_var x L + e) / (2 * Nln ^ 2).
    by move: R; rewrite -/delta /Rabs; case: Rcase_abs; lra.
  have : 0 < INR L * (ln_var x L + e) / (2 * Nln ^ 2) by lra.
  rewrite /Rdiv => pos.
  have : 0 < INR L * (ln_var x L + e).
    have := Rinv_0_lt_compat _ N2 => iN.
    by apply: (Rmult_lt_reg_r (/ (2 * Nln ^ 2))) => //; lra.
  move=> h; apply: (Rmult_lt_reg_l (INR L)) => //; lra.
by apply: ln_unit_scale_deviation.
Qed.

(* ---------------------------------------------------- the div layer's LayerNorm radicand *)

Section DivisionRadicand.
Variables (P nr k : nat) (x y : nat -> R) (N c M e e_att rest2 : R).

Definition div_L : nat := (P + (k + 2) + nr)%nat.
Definition div_a (j : nat) : R := ln_div_input k N c M y j.
Definition div_Y1 : R := rsum (fun q => Rabs (y q)) k.
Definition div_E : R := 4 * e_att * (N * Rabs c + div_Y1 / M) + INR (k + 2) * e_att ^ 2.

Lemma div_rsum3 (f : nat -> R) :
  rsum f div_L = rsum f P + rsum (fun j => f (P + j)%nat) (k + 2)
                 + rsum (fun j => f (P + (k + 2) + j)%nat) nr.
Proof. by rewrite /div_L rsum_split rsum_split. Qed.

Lemma div_a_abs_sum :
  0 < N -> 0 < M -> rsum (fun j => Rabs (div_a j)) (k + 2) <= 2 * (N * Rabs c + div_Y1 / M).
Proof.
move=> N_pos M_pos.
have -> : (k + 2)%nat = ln_div_L k 0 by rewrite /ln_div_L; lia.
rewrite ln_div_rsum /div_a.
rewrite (rsum_ext (fun i => Rabs (ln_div_input k N c M y (S i))) (fun i => Rabs (y i) / M)); last first.
  move=> i i_lt; rewrite ln_div_input_data // Rabs_div; last by lra.
  by rewrite (Rabs_pos_eq M) //; lra.
rewrite rsum_div ln_div_input_close.
rewrite (rsum_ext (fun j => Rabs (ln_div_input k N c M y (S (S (k + j))))) (fun _ => 0)); last first.
  by move=> j _; rewrite ln_div_input_pad Rabs_R0.
rewrite rsum_zero /= -/div_Y1.
have S_le : Rabs (ln_div_S k y) <= div_Y1 by apply: rsum_abs.
have SM : Rabs (ln_div_S k y / M) <= div_Y1 / M.
  rewrite Rabs_div; last by lra.
  rewrite (Rabs_pos_eq M); last by lra.
  by apply: Rmult_le_compat_r; [apply/Rlt_le/Rinv_0_lt_compat |].
have Nc : Rabs (N * c) = N * Rabs c by rewrite Rabs_mult Rabs_pos_eq //; lra.
have := Rabs_triang (- (N * c)) (- (ln_div_S k y / M)); rewrite !Rabs_Ropp.
have -> : - (N * c) + - (ln_div_S k y / M) = - (N * c) - ln_div_S k y / M by ring.
by lra.
Qed.

(* The LayerNorm radicand of the div layer: the assembled entries at rows P .. P + k + 1 within
   e_att of [N c, y/M, -N c - S/M], the other entries of squared norm <= rest2:
     |L (var + e) / (2 N^2 c^2) - 1| <= |S| / (N |c| M) + (S^2 + |y|^2) / (2 N^2 c^2 M^2)
                                         + (rest2 + e L + E) / (2 N^2 c^2),
   E = 4 e_att (N |c| + |y|_1 / M) + (k + 2) e_att^2 (the C++ div_layer_bound's delta). *)
Theorem div_radicand :
  0 < N -> c <> 0 -> 0 < M -> 0 <= e -> 0 <= e_att ->
  (forall j, (j < k + 2)%nat -> Rabs (x (P + j)%nat - div_a j) <= e_att) ->
  rsum (fun j => x j ^ 2) P + rsum (fun j => x (P + (k + 2) + j)%nat ^ 2) nr <= rest2 ->
  Rabs (INR div_L * (ln_var x div_L + e) / (2 * (N * c) ^ 2) - 1)
    <= Rabs (ln_div_S k y) / (N * Rabs c * M)
       + (ln_div_S k y ^ 2 + ln_div_Q k y) / (2 * (N * c) ^ 2 * M ^ 2)
       + (rest2 + e * INR div_L + div_E) / (2 * (N * c) ^ 2).
Proof.
move=> N_pos c_neq0 M_pos e_ge0 ea_ge0 dev rest.
have N_neq0 : N <> 0 by lra.
have M_neq0 : M <> 0 by lra.
have L_pos : (0 < div_L)%nat by rewrite /div_L; lia.
have LR : 0 < INR div_L by apply: lt_0_INR.
have K2 : 0 < INR (k + 2) by apply: lt_0_INR; lia.
have Nc2 : 0 < (N * c) ^ 2 by apply: sq_pos; apply: Rmult_integral_contrapositive.
have ac : 0 < Rabs c by apply: Rabs_pos_lt.
set A2 := rsum (fun j => div_a j ^ 2) (k + 2).
have A2_eq : A2 = 2 * (N * c) ^ 2 * (1 + ln_div_S k y / (N * c * M)
                     + (ln_div_S k y ^ 2 + ln_div_Q k y) / (2 * (N * c) ^ 2 * M ^ 2)).
  by rewrite /A2 /div_a ln_div_head_squares.
set A1 := rsum (fun j => Rabs (div_a j)) (k + 2).
have A1_le := div_a_abs_sum N_pos M_pos; rewrite -/A1 in A1_le.
set X2 := rsum (fun j => x (P + j)%nat ^ 2) (k + 2).
(* the assembled entries' squares move by at most 2 e_att A1 + (k + 2) e_att^2 *)
have sq_dev : forall j, (j < k + 2)%nat ->
    - (2 * e_att * Rabs (div_a j)) <= x (P + j)%nat ^ 2 - div_a j ^ 2
    <= 2 * e_att * Rabs (div_a j) + e_att ^ 2.
  move=> j j_lt; have dj := dev j j_lt.
  set d := x (P + j)%nat - div_a j in dj.
  have -> : x (P + j)%nat = div_a j + d by rewrite /d; ring.
  have ad : Rabs (div_a j * d) <= Rabs (div_a j) * e_att.
    by rewrite Rabs_mult; apply: Rmult_le_compat_l => //; apply: Rabs_pos.
  have [adl adh] : - (Rabs (div_a j) * e_att) <= div_a j * d <= Rabs (div_a j) * e_att.
    by move: ad; rewrite /Rabs; case: Rcase_abs; lra.
  have d2 : d ^ 2 <= e_att ^ 2.
    have -> : d ^ 2 = Rabs d ^ 2 by rewrite pow2_abs.
    by apply: pow_incr; split; [apply: Rabs_pos | lra].
  by have := pow2_ge_0 d; split; nra.
have X2_hi : X2 <= A2 + 2 * e_att * A1 + INR (k + 2) * e_att ^ 2.
  have := rsum_le (fun j => x (P + j)%nat ^ 2)
            (fun j => div_a j ^ 2 + (2 * e_att * Rabs (div_a j) + e_att ^ 2)) (k + 2).
  rewrite rsum_plus rsum_plus rsum_scal rsum_const -/A2 -/A1 -/X2 => h.
  by have := h (fun j j_lt => ltac:(have := sq_dev j j_lt; lra)); lra.
have X2_lo : A2 - 2 * e_att * A1 <= X2.
  have := rsum_le (fun j => div_a j ^ 2 + (- (2 * e_att)) * Rabs (div_a j))
            (fun j => x (P + j)%nat ^ 2) (k + 2).
  rewrite rsum_plus rsum_scal -/A2 -/A1 -/X2 => h.
  by have := h (fun j j_lt => ltac:(have := sq_dev j j_lt; lra)); lra.
(* sum over the assembled entries: sum a = 0, so |sum x| <= (k + 2) e_att *)
set X1 := rsum (fun j => x (P + j)%nat) (k + 2).
have X1_le : Rabs X1 <= INR (k + 2) * e_att.
  have -> : X1 = rsum (fun j => x (P + j)%nat - div_a j) (k + 2).
    rewrite /X1 (rsum_ext (fun j => x (P + j)%nat - div_a j)
                          (fun j => x (P + j)%nat + (-1) * div_a j)); last by move=> j _; ring.
    by rewrite rsum_plus rsum_scal /div_a (ln_div_head_sum k N c M y M_neq0); ring.
  by apply: rsum_abs_le.
have X1sq : X1 ^ 2 / INR (k + 2) <= INR (k + 2) * e_att ^ 2.
  apply/Rle_div_l => //.
  have -> : X1 ^ 2 = Rabs X1 ^ 2 by rewrite pow2_abs.
  have : Rabs X1 ^ 2 <= (INR (k + 2) * e_att) ^ 2 by apply: pow_incr; split; [apply: Rabs_pos | lra].
  by lra.
have rest_ge0 : 0 <= rsum (fun j => x j ^ 2) P /\ 0 <= rsum (fun j => x (P + (k + 2) + j)%nat ^ 2) nr.
  by split; apply: rsum_nonneg => j; apply: pow2_ge_0.
have rest2_ge0 : 0 <= rest2 by lra.
(* L var <= sum x^2 *)
have sums := ln_var_sums x div_L L_pos.
have upper : ln_var x div_L * INR div_L <= rest2 + A2 + 2 * e_att * A1 + INR (k + 2) * e_att ^ 2.
  rewrite sums (div_rsum3 (fun j => x j ^ 2)) -/X2.
  have : 0 <= rsum x div_L ^ 2 / INR div_L by apply: Rdiv_le_0_compat; [apply: pow2_ge_0 | lra].
  by lra.
(* L var = sum (x - m)^2 >= sum over the assembled entries >= X2 - X1^2 / (k + 2) *)
have lower : A2 - 2 * e_att * A1 - INR (k + 2) * e_att ^ 2 <= ln_var x div_L * INR div_L.
  have -> : ln_var x div_L * INR div_L = rsum (fun j => ln_centred x div_L j ^ 2) div_L.
    by rewrite /ln_var; field; lra.
  rewrite (div_rsum3 (fun j => ln_centred x div_L j ^ 2)).
  have := rsum_nonneg (fun j => ln_centred x div_L j ^ 2) P (fun j => pow2_ge_0 _).
  have := rsum_nonneg (fun j => ln_centred x div_L (P + (k + 2) + j)%nat ^ 2) nr
            (fun j => pow2_ge_0 _).
  rewrite /ln_centred; set m := ln_mean x div_L.
  have -> : rsum (fun j => (x (P + j)%nat - m) ^ 2) (k + 2) =
            X2 + (-2 * m) * X1 + INR (k + 2) * m ^ 2.
    rewrite -rsum_scal -rsum_const -!rsum_plus; apply: rsum_ext => j _; ring.
  have : X2 - X1 ^ 2 / INR (k + 2) <= X2 + (-2 * m) * X1 + INR (k + 2) * m ^ 2.
    have : 0 <= (INR (k + 2) * m - X1) ^ 2 / INR (k + 2).
      by apply: Rdiv_le_0_compat; [apply: pow2_ge_0 | lra].
    have -> : (INR (k + 2) * m - X1) ^ 2 / INR (k + 2) =
              INR (k + 2) * m ^ 2 - 2 * m * X1 + X1 ^ 2 / INR (k + 2) by field; lra.
    by lra.
  by lra.
have A1_ge0 : 0 <= A1 by apply: rsum_nonneg => j; apply: Rabs_pos.
have E_ge : 2 * e_att * A1 + INR (k + 2) * e_att ^ 2 <= div_E.
  rewrite /div_E; have := Rmult_le_compat_l (2 * e_att) _ _ ltac:(lra) A1_le; lra.
have -> : INR div_L * (ln_var x div_L + e) / (2 * (N * c) ^ 2) - 1 =
          (ln_div_S k y / (N * c * M) + (ln_div_S k y ^ 2 + ln_div_Q k y) / (2 * (N * c) ^ 2 * M ^ 2))
          + (ln_var x div_L * INR div_L - A2 + e * INR div_L) / (2 * (N * c) ^ 2).
  by rewrite A2_eq; field; repeat split => //; lra.
have q_ge0 : 0 <= (ln_div_S k y ^ 2 + ln_div_Q k y) / (2 * (N * c) ^ 2 * M ^ 2).
  apply: Rdiv_le_0_compat; last by have := pow_lt M 2 M_pos; nra.
  have : 0 <= ln_div_Q k y by apply: rsum_nonneg => j; apply: pow2_ge_0.
  by have := pow2_ge_0 (ln_div_S k y); lra.
have S_abs : Rabs (ln_div_S k y / (N * c * M)) = Rabs (ln_div_S k y) / (N * Rabs c * M).
  rewrite Rabs_div; last by apply: Rmult_integral_contrapositive; split;
    [apply: Rmult_integral_contrapositive |]; lra.
  by rewrite !Rabs_mult (Rabs_pos_eq N) ?(Rabs_pos_eq M) //; lra.
have eL : 0 <= e * INR div_L by apply: Rmult_le_pos; lra.
have mid : Rabs ((ln_var x div_L * INR div_L - A2 + e * INR div_L) / (2 * (N * c) ^ 2))
           <= (rest2 + e * INR div_L + div_E) / (2 * (N * c) ^ 2).
  rewrite Rabs_div; last by lra.
  rewrite (Rabs_pos_eq (2 * _)); last by lra.
  apply: Rmult_le_compat_r; first by apply/Rlt_le/Rinv_0_lt_compat; lra.
  by rewrite /Rabs; case: Rcase_abs; lra.
have := Rabs_triang (ln_div_S k y / (N * c * M)
                     + (ln_div_S k y ^ 2 + ln_div_Q k y) / (2 * (N * c) ^ 2 * M ^ 2))
                    ((ln_var x div_L * INR div_L - A2 + e * INR div_L) / (2 * (N * c) ^ 2)).
have := Rabs_triang (ln_div_S k y / (N * c * M))
                    ((ln_div_S k y ^ 2 + ln_div_Q k y) / (2 * (N * c) ^ 2 * M ^ 2)).
rewrite S_abs (Rabs_pos_eq ((ln_div_S k y ^ 2 + ln_div_Q k y) / _)) //.
by lra.
Qed.

End DivisionRadicand.
