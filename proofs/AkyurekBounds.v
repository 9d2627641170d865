(* AkyurekBounds.v -- explicit error bounds of the GeLU and LayerNorm tricks of Akyurek et al.
   2023 (Appendix C.4.2, C.6), used verbatim as tolerances by properties/akyurek.* (the C++
   side lives in src/raw/approximation_bounds.hpp and names these theorems).

   Main results:
   - gelu_tanh_product_quartic: for |a|, |b| <= 1/10,
       |sqrt(pi/2) (g(a+b) - g(a) - g(b)) - a b| <= 1 * (a^4 + b^4)
     for the tanh GeLU g(z) = z / (1 + exp(-2 sqrt(2/pi)(z + 0.044715 z^3))) (the paper's eq. (36),
     written without the 1 + tanh cancellation). FOURTH order: the paper's Lemma 4 claims
     O(x^3 + y^3). Scaling a = x/s, b = y/s gives |gelu_product - x y| <= (x^4 + y^4)/s^2.
   - gelu_tanh_bypass_exponential: for t >= 0, |g(t) - t| <= t exp(-2 u(t)) (Lemma 5 with an
     explicit, exponentially small bound).
   - layernorm_bypass_deviation: for |delta| <= d < 1,
       |1 - 1 / sqrt (1 + delta)| <= d / (2 (1 - d) sqrt (1 - d))
     (the LayerNorm bypass of Lemma 6 and the RAW layers' pads, first order in delta).
   - layernorm_division_remainder: for |delta| < 1,
       |1 / sqrt (1 + delta) - (1 - delta / 2)|
         <= (3/8) delta^2 / ((1 - |delta|)^2 sqrt (1 - |delta|))
     (LayerNorm division, Lemma 8: relative error -S/(2 N c M) plus a second-order rest).
   Route (GeLU): u - tanh u in [0, u^3/3] for u >= 0 (mean-value theorem, Coquelicot's MVT_gen and
   auto_derive), so g(z) - z/2 - z^2/sqrt(2 pi) is at most 0.086 z^4 for |z| <= 1/5; the
   numeric constants (sqrt(2/pi), sqrt(pi/2)) are bounded with Interval. Route (LayerNorm):
   exact rational identities in s = sqrt (1 + delta), then r = sqrt (1 - |delta|) <= s, r <= 1.
   Dependencies: Coq Reals, Coquelicot, Interval. Assumptions: the standard set of
   allowed_axioms.txt (classical reals, primitive floats/integers of Interval). *)
From Coq Require Import Reals Lra ssreflect.
From Coquelicot Require Import Coquelicot.
From Interval Require Import Tactic.
Open Scope R_scope.

Definition tanh_e (u : R) : R := 1 - 2 / (exp (2 * u) + 1).

Lemma tanh_e0 : tanh_e 0 = 0.
Proof. by rewrite /tanh_e Rmult_0_r exp_0; field. Qed.

Lemma exp_pos1 (u : R) : 0 < exp (2 * u) + 1.
Proof. by have := exp_pos (2 * u); lra. Qed.

Lemma nonneg_from_derive (f df : R -> R) (u : R) :
  0 <= u -> f 0 = 0 -> (forall x, is_derive f x (df x)) ->
  (forall x, 0 <= x <= u -> 0 <= df x) -> 0 <= f u.
Proof.
move=> u_ge0 f0 f_der df_ge0.
have [|c [c_in fc]] := MVT_gen f 0 u df (fun x _ => f_der x).
  move=> x _; apply/continuity_pt_filterlim; apply: ex_derive_continuous.
  by exists (df x); apply: f_der.
move: c_in fc; rewrite Rmin_left // Rmax_right // f0 => c_in fc.
have := df_ge0 c c_in => dfc_ge0.
have : 0 <= df c * (u - 0) by apply: Rmult_le_pos; lra.
by lra.
Qed.

Lemma tanh_e_nonneg (u : R) : 0 <= u -> 0 <= tanh_e u.
Proof.
move=> u_ge0; rewrite /tanh_e.
have e_ge1 : 1 <= exp (2 * u).
  by have := exp_ineq1_le (2 * u); lra.
have e_pos := exp_pos1 u.
suff : 2 / (exp (2 * u) + 1) <= 1 by lra.
by apply/Rle_div_l; lra.
Qed.

Lemma tanh_e_le_id (u : R) : 0 <= u -> tanh_e u <= u.
Proof.
move=> u_ge0.
suff : 0 <= u - tanh_e u by lra.
apply: (nonneg_from_derive (fun v => v - tanh_e v) (fun v => tanh_e v ^ 2)) => //.
- by rewrite tanh_e0; field.
- move=> x; rewrite /tanh_e; auto_derive; first by have := exp_pos1 x; lra.
  by have := exp_pos1 x => e_pos; field; lra.
- by move=> x _; apply: pow2_ge_0.
Qed.

Lemma id_sub_tanh_e_le_cube (u : R) : 0 <= u -> u - tanh_e u <= u ^ 3 / 3.
Proof.
move=> u_ge0.
suff : 0 <= u ^ 3 / 3 - (u - tanh_e u) by lra.
apply: (nonneg_from_derive (fun v => v ^ 3 / 3 - (v - tanh_e v)) (fun v => v ^ 2 - tanh_e v ^ 2)) => //.
- by rewrite tanh_e0; field.
- move=> x; rewrite /tanh_e; auto_derive; first by have := exp_pos1 x; lra.
  by have := exp_pos1 x => e_pos; field; lra.
- move=> x [x_ge0 _].
  have t0 := tanh_e_nonneg x x_ge0; have t1 := tanh_e_le_id x x_ge0.
  by nra.
Qed.

Lemma tanh_e_odd (u : R) : tanh_e (- u) = - tanh_e u.
Proof.
rewrite /tanh_e.
have -> : exp (2 * - u) = / exp (2 * u) by rewrite -exp_Ropp; f_equal; field.
have := exp_pos (2 * u) => e_pos.
by field; lra.
Qed.

(* The cubic coefficient of the tanh GeLU, 0.044715 (paper eq. (36)). *)
Definition gelu_cubic : R := 44715 / 1000000.
Definition sigma : R := sqrt (2 / PI).
Definition gelu_arg (z : R) : R := sigma * (z + gelu_cubic * z ^ 3).
Definition gelu_tanh (z : R) : R := z / (1 + exp (-2 * gelu_arg z)).
(* gelu_tanh minus its quadratic Taylor polynomial z/2 + z^2/sqrt(2 pi) = z/2 + sigma/2 z^2. *)
Definition gelu_quartic_rest (z : R) : R := gelu_tanh z - z / 2 - sigma / 2 * z ^ 2.

Lemma sigma_gt0 : 0 < sigma.
Proof. by rewrite /sigma; apply: sqrt_lt_R0; have := PI_RGT_0 => pi_gt0; apply: Rdiv_lt_0_compat; lra. Qed.

Lemma gelu_tanh_tanh_e (z : R) : gelu_tanh z = z / 2 + z / 2 * tanh_e (gelu_arg z).
Proof.
rewrite /gelu_tanh /tanh_e.
have -> : exp (-2 * gelu_arg z) = / exp (2 * gelu_arg z) by rewrite -exp_Ropp; f_equal; field.
have := exp_pos (2 * gelu_arg z) => e_pos.
by field; lra.
Qed.

Lemma gelu_arg_odd (z : R) : gelu_arg (- z) = - gelu_arg z.
Proof. by rewrite /gelu_arg; ring. Qed.

Lemma gelu_quartic_rest_even (z : R) : gelu_quartic_rest (- z) = gelu_quartic_rest z.
Proof.
by rewrite /gelu_quartic_rest !gelu_tanh_tanh_e gelu_arg_odd tanh_e_odd; field.
Qed.

Lemma gelu_quartic_rest_nonneg_bound (z : R) :
  0 <= z <= 1 / 5 -> Rabs (gelu_quartic_rest z) <= 86 / 1000 * z ^ 4.
Proof.
move=> [z_ge0 z_le].
set u := gelu_arg z.
have s_gt0 := sigma_gt0.
have z3_ge0 : 0 <= z ^ 3 by apply: pow_le.
have zz_le : z * z <= 1 / 25 by nra.
have z3_le : z ^ 3 <= z / 25.
  have -> : z ^ 3 = z * (z * z) by field.
  by nra.
have u_ge0 : 0 <= u.
  by rewrite /u /gelu_arg /gelu_cubic; apply: Rmult_le_pos; lra.
have u_le : u <= sigma * z * (1 + gelu_cubic / 25).
  rewrite /u /gelu_arg.
  have -> : sigma * z * (1 + gelu_cubic / 25) = sigma * (z + gelu_cubic * (z / 25)) by field.
  by apply: Rmult_le_compat_l; rewrite /gelu_cubic; lra.
have w_ge0 : 0 <= u - tanh_e u by have := tanh_e_le_id u u_ge0; lra.
have w_le := id_sub_tanh_e_le_cube u u_ge0.
have u3_le : u ^ 3 <= (sigma * z * (1 + gelu_cubic / 25)) ^ 3 by apply: pow_incr; lra.
have rest_eq : gelu_quartic_rest z = z / 2 * (sigma * gelu_cubic * z ^ 3 - (u - tanh_e u)).
  by rewrite /gelu_quartic_rest gelu_tanh_tanh_e /u /gelu_arg; field.
have s_le : sigma <= 7979 / 10000 by rewrite /sigma; interval.
have s3_le : sigma ^ 3 * (1 + gelu_cubic / 25) ^ 3 / 6 <= 86 / 1000.
  by rewrite /sigma /gelu_cubic; interval.
have sc_le : sigma * gelu_cubic / 2 <= 86 / 1000 by rewrite /gelu_cubic; lra.
have z4_ge0 : 0 <= z ^ 4 by apply: pow_le.
rewrite rest_eq; apply: Rabs_le; split.
- have : z / 2 * (u - tanh_e u) <= z / 2 * (u ^ 3 / 3) by apply: Rmult_le_compat_l; lra.
  have : z / 2 * (u ^ 3 / 3) <= z / 2 * ((sigma * z * (1 + gelu_cubic / 25)) ^ 3 / 3)
    by apply: Rmult_le_compat_l; lra.
  have -> : z / 2 * ((sigma * z * (1 + gelu_cubic / 25)) ^ 3 / 3)
            = sigma ^ 3 * (1 + gelu_cubic / 25) ^ 3 / 6 * z ^ 4 by field.
  have : sigma ^ 3 * (1 + gelu_cubic / 25) ^ 3 / 6 * z ^ 4 <= 86 / 1000 * z ^ 4
    by apply: Rmult_le_compat_r.
  have : 0 <= z / 2 * (sigma * gelu_cubic * z ^ 3) by rewrite /gelu_cubic; apply: Rmult_le_pos; [lra | nra].
  by nra.
- have : z / 2 * (sigma * gelu_cubic * z ^ 3) = sigma * gelu_cubic / 2 * z ^ 4 by field.
  have : sigma * gelu_cubic / 2 * z ^ 4 <= 86 / 1000 * z ^ 4 by apply: Rmult_le_compat_r.
  have : 0 <= z / 2 * (u - tanh_e u) by apply: Rmult_le_pos; lra.
  by nra.
Qed.

Lemma gelu_quartic_rest_bound (z : R) :
  Rabs z <= 1 / 5 -> Rabs (gelu_quartic_rest z) <= 86 / 1000 * z ^ 4.
Proof.
move=> z_le.
case: (Rle_or_lt 0 z) => [z_ge0 | z_lt0].
  by apply: gelu_quartic_rest_nonneg_bound; move: z_le; rewrite Rabs_pos_eq //; lra.
rewrite -gelu_quartic_rest_even.
have -> : z ^ 4 = (- z) ^ 4 by field.
by apply: gelu_quartic_rest_nonneg_bound; move: z_le; rewrite Rabs_left //; lra.
Qed.

Lemma sqrt_pi_half_sigma : sqrt (PI / 2) * sigma = 1.
Proof.
have := PI_RGT_0 => pi_gt0.
rewrite /sigma -sqrt_mult; first last.
- by apply: Rlt_le; apply: Rdiv_lt_0_compat; lra.
- by lra.
have -> : PI / 2 * (2 / PI) = 1 by field; lra.
by rewrite sqrt_1.
Qed.

(* Lemma 4 of Akyurek et al. 2023, corrected: the tanh-GeLU product error is FOURTH order. *)
Theorem gelu_tanh_product_quartic (a b : R) :
  Rabs a <= 1 / 10 -> Rabs b <= 1 / 10 ->
  Rabs (sqrt (PI / 2) * (gelu_tanh (a + b) - gelu_tanh a - gelu_tanh b) - a * b)
    <= 1 * (a ^ 4 + b ^ 4).
Proof.
move=> a_le b_le.
have ab_le : Rabs (a + b) <= 1 / 5 by have := Rabs_triang a b; lra.
have ra := gelu_quartic_rest_bound a ltac:(lra).
have rb := gelu_quartic_rest_bound b ltac:(lra).
have rab := gelu_quartic_rest_bound (a + b) ab_le.
have sq := sqrt_pi_half_sigma.
have sq_le : sqrt (PI / 2) <= 12534 / 10000 by interval.
have sq_ge0 : 0 <= sqrt (PI / 2) by apply: sqrt_pos.
have -> : sqrt (PI / 2) * (gelu_tanh (a + b) - gelu_tanh a - gelu_tanh b) - a * b
          = sqrt (PI / 2) * (gelu_quartic_rest (a + b) - gelu_quartic_rest a - gelu_quartic_rest b)
            + (sqrt (PI / 2) * sigma - 1) * (a * b).
  by rewrite /gelu_quartic_rest; field.
rewrite sq.
have -> : (1 - 1) * (a * b) = 0 by field.
rewrite Rplus_0_r Rabs_mult (Rabs_pos_eq _ sq_ge0).
have tri : Rabs (gelu_quartic_rest (a + b) - gelu_quartic_rest a - gelu_quartic_rest b)
           <= 86 / 1000 * ((a + b) ^ 4 + a ^ 4 + b ^ 4).
  have := Rabs_triang (gelu_quartic_rest (a + b) + - gelu_quartic_rest a) (- gelu_quartic_rest b).
  have := Rabs_triang (gelu_quartic_rest (a + b)) (- gelu_quartic_rest a).
  rewrite /Rminus !Rabs_Ropp.
  by lra.
have sq2 : (a + b) ^ 2 <= 2 * (a ^ 2 + b ^ 2) by have := pow2_ge_0 (a - b); nra.
have sq2_ge0 : 0 <= (a + b) ^ 2 by apply: pow2_ge_0.
have sq4 : ((a + b) ^ 2) ^ 2 <= (2 * (a ^ 2 + b ^ 2)) ^ 2 by apply: pow_incr; lra.
have sq22 : (a ^ 2 + b ^ 2) ^ 2 <= 2 * (a ^ 4 + b ^ 4) by have := pow2_ge_0 (a ^ 2 - b ^ 2); nra.
have pow_le8 : (a + b) ^ 4 <= 8 * (a ^ 4 + b ^ 4).
  have -> : (a + b) ^ 4 = ((a + b) ^ 2) ^ 2 by field.
  by nra.
have a4 : 0 <= a ^ 4.
  have -> : a ^ 4 = (a ^ 2) ^ 2 by field.
  by apply: pow2_ge_0.
have b4 : 0 <= b ^ 4.
  have -> : b ^ 4 = (b ^ 2) ^ 2 by field.
  by apply: pow2_ge_0.
have : Rabs (gelu_quartic_rest (a + b) - gelu_quartic_rest a - gelu_quartic_rest b)
       <= 86 / 1000 * 9 * (a ^ 4 + b ^ 4) by nra.
move=> r9.
have r9' := Rmult_le_compat _ _ _ _ sq_ge0 (Rabs_pos _) sq_le r9.
have a4' : 0 <= a ^ 4 + b ^ 4 by lra.
by nra.
Qed.

(* Lemma 5 of Akyurek et al. 2023 with an explicit bound: for t >= 0 the tanh GeLU differs
   from the identity by at most t exp(-2 u(t)), u(t) = sqrt(2/pi)(t + 0.044715 t^3). *)
Theorem gelu_tanh_bypass_exponential (t : R) :
  0 <= t -> Rabs (gelu_tanh t - t) <= t * exp (-2 * gelu_arg t).
Proof.
move=> t_ge0.
set e := exp (-2 * gelu_arg t).
have e_gt0 : 0 < e by apply: exp_pos.
have -> : gelu_tanh t - t = - (t * e / (1 + e)) by rewrite /gelu_tanh -/e; field; lra.
rewrite Rabs_Ropp Rabs_pos_eq; last by apply: Rdiv_le_0_compat; nra.
apply/Rle_div_l; first by lra.
by nra.
Qed.

(* ------------------------------------------------------------------------------------------
   LayerNorm bypass and division (Lemmas 6 and 8 of Akyurek et al. 2023). Their exact closed
   form (AkyurekAlgebra.v:layernorm_division_squared) is x / sqrt (1 + delta) with delta the
   small normalisation error; the two bounds below are what the C++ tolerances use
   (src/raw/approximation_bounds.hpp: inv_sqrt_deviation and
   inv_sqrt_second_order_remainder).
   Route: with s = sqrt (1 + delta) and r = sqrt (1 - |delta|) <= s, r <= 1,
   1 - 1/s = delta / (s (s + 1)) and 1/s - 1 + delta/2 = delta^2 (s + 2) / (2 s (s + 1)^2). *)

Lemma sqrt_one_add_sandwich {delta d : R} :
  - d <= delta -> d < 1 ->
  sqrt (1 + delta) * sqrt (1 + delta) = 1 + delta /\ sqrt (1 - d) * sqrt (1 - d) = 1 - d /\
  0 < sqrt (1 - d) /\ sqrt (1 - d) <= sqrt (1 + delta).
Proof.
move=> delta_ge d_lt1.
split; first by apply: sqrt_sqrt; lra.
split; first by apply: sqrt_sqrt; lra.
by split; [apply: sqrt_lt_R0 | apply: sqrt_le_1_alt]; lra.
Qed.

(* The LayerNorm bypass (Lemma 6, and the pads of the RAW layers) scales by 1 / sqrt (1 + delta):
   its deviation from the identity is first order in |delta| <= d. *)
Theorem layernorm_bypass_deviation (delta d : R) :
  Rabs delta <= d -> d < 1 ->
  Rabs (1 - / sqrt (1 + delta)) <= d / (2 * (1 - d) * sqrt (1 - d)).
Proof.
move=> delta_le d_lt1.
have [delta_lo delta_hi] : - d <= delta <= d.
  by move: delta_le; rewrite /Rabs; case: Rcase_abs; lra.
have [ss [rr [r_gt0 r_le_s]]] := sqrt_one_add_sandwich delta_lo d_lt1.
set s := sqrt (1 + delta) in ss r_le_s *; set r := sqrt (1 - d) in rr r_gt0 r_le_s *.
have r_le1 : r <= 1 by nra.
have s_gt0 : 0 < s by lra.
have -> : 1 - / s = delta / (s * (s + 1)).
  have -> : delta = s * s - 1 by lra.
  by field; split; lra.
rewrite -rr Rabs_div; last by nra.
rewrite (Rabs_right (s * (s + 1))); last by nra.
apply: (Rle_trans _ (d / (s * (s + 1)))).
  by apply: Rmult_le_compat_r => //; apply/Rlt_le/Rinv_0_lt_compat; nra.
apply: Rmult_le_compat_l; first by have := Rabs_pos delta; lra.
by apply: Rinv_le_contravar; nra.
Qed.

(* LayerNorm division (Lemma 8): 1 / sqrt (1 + delta) is 1 - delta/2 up to a second-order
   remainder; so the division's relative error is -S/(2 N c M) to first order. *)
Theorem layernorm_division_remainder (delta : R) :
  Rabs delta < 1 ->
  Rabs (/ sqrt (1 + delta) - (1 - delta / 2))
    <= 3 / 8 * delta ^ 2 / ((1 - Rabs delta) ^ 2 * sqrt (1 - Rabs delta)).
Proof.
move=> delta_lt1.
have delta_lo : - Rabs delta <= delta by rewrite /Rabs; case: Rcase_abs; lra.
have [ss [rr [r_gt0 r_le_s]]] := sqrt_one_add_sandwich delta_lo delta_lt1.
set s := sqrt (1 + delta) in ss r_le_s *.
set r := sqrt (1 - Rabs delta) in rr r_gt0 r_le_s *.
have r_le1 : r <= 1 by have := Rabs_pos delta; nra.
have s_gt0 : 0 < s by lra.
have -> : / s - (1 - delta / 2) = delta ^ 2 * (s + 2) / (2 * s * (s + 1) ^ 2).
  have -> : delta = s * s - 1 by lra.
  by field; split; lra.
rewrite -rr Rabs_right; last first.
  apply/Rle_ge/Rmult_le_pos; first by have := pow2_ge_0 delta; nra.
  by apply/Rlt_le/Rinv_0_lt_compat; nra.
(* 4 r^5 (s + 2) <= 3 s (s + 1)^2: for s <= 1 from r <= s and
   3 (s + 1)^2 - 4 s^4 (s + 2) = (1 - s)(4 s^4 + 12 s^3 + 12 s^2 + 9 s + 3);
   for s > 1 from r <= 1 and 3 (s + 1)^2 - 4 (s + 2) = (3 s + 5)(s - 1). *)
have key : 4 * (r * r) ^ 2 * r * (s + 2) <= 3 * s * (s + 1) ^ 2.
  have rr_le1 : r * r <= 1 by nra.
  have r4 : (r * r) ^ 2 <= 1 by rewrite -(pow1 2); apply: pow_incr; nra.
  case: (Rle_lt_dec s 1) => [s_le1|s_gt1]; last first.
    have : (r * r) ^ 2 * r <= 1 by nra.
    by nra.
  have rs5 : (r * r) ^ 2 * r <= s ^ 5.
    have -> : (r * r) ^ 2 * r = r ^ 5 by ring.
    by apply: pow_incr; lra.
  have poly : 4 * s ^ 5 * (s + 2) <= 3 * s * (s + 1) ^ 2.
    have : 0 <= s * (1 - s) * (4 * s ^ 4 + 12 * s ^ 3 + 12 * s ^ 2 + 9 * s + 3).
      apply: Rmult_le_pos; first by nra.
      by have := pow_le s 4; have := pow_le s 3; have := pow_le s 2; lra.
    by nra.
  by nra.
have delta2_ge0 : 0 <= delta ^ 2 by apply: pow2_ge_0.
have Y_gt0 : 0 < (r * r) ^ 2 * r by apply: Rmult_lt_0_compat => //; apply: pow_lt; nra.
suff : 0 <= 3 / 8 * delta ^ 2 / ((r * r) ^ 2 * r) - delta ^ 2 * (s + 2) / (2 * s * (s + 1) ^ 2)
  by lra.
have -> : 3 / 8 * delta ^ 2 / ((r * r) ^ 2 * r) - delta ^ 2 * (s + 2) / (2 * s * (s + 1) ^ 2) =
          delta ^ 2 * (3 * s * (s + 1) ^ 2 - 4 * (r * r) ^ 2 * r * (s + 2)) /
            (8 * ((r * r) ^ 2 * r) * (s * (s + 1) ^ 2)).
  by field; split; [lra | split; [nra | lra]].
apply: Rmult_le_pos; first by apply: Rmult_le_pos => //; lra.
apply/Rlt_le/Rinv_0_lt_compat/Rmult_lt_0_compat; first by lra.
by apply: Rmult_lt_0_compat => //; apply: pow_lt; lra.
Qed.
