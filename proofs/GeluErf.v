(* GeluErf.v -- the exact (erf) GeLU of Akyurek et al. 2023 (Appendix C.4.2) and its
   multiplication error (Lemma 4, corrected), over Coq's R with Coquelicot.

   erf is defined by its integral, erf x = 2/sqrt(pi) int_0^x exp(-t^2) dt, erfc x = 1 - erf x,
   and the GeLU as src/raw/gelu.hpp computes it: g(z) = z erfc(-z/sqrt 2) / 2 (= z Phi(z)).

   Main results:
   - erf_integrand_taylor: |int_0^w exp(-t^2) dt - (w - w^3/3)| <= |w|^5 / 10, for every w
     (from 1 - u <= exp(-u) <= 1 - u + u^2/2, u = t^2 >= 0).
   - gelu_erf_quartic: g(z) = z/2 + z^2/sqrt(2 pi) - z^4/(6 sqrt(2 pi)) + r, |r| <= z^6/(40 sqrt(2 pi)).
   - gelu_erf_product_bound: for s > 0, with gelu_product = s^2 sqrt(pi/2) (g((x+y)/s) - g(x/s)
     - g(y/s)):
       |gelu_product - x y| <= |(x+y)^4 - x^4 - y^4| / (12 s^2) + ((x+y)^6 + x^6 + y^6) / (80 s^4),
     the formula of src/raw/approximation_bounds.hpp:gelu_erf_product_bound (which the C++ uses
     only for |x|, |y|, |x+y| <= 2 s; the theorem holds for all x, y).
   Dependencies: Coq Reals, Coquelicot, AkyurekBounds.v (nonneg_from_derive).  Assumptions: the
   standard set of allowed_axioms.txt. *)
From Coq Require Import Reals Lra ssreflect.
From Coquelicot Require Import Coquelicot.
From ICLProof Require Import AkyurekBounds.
Open Scope R_scope.

Definition erf (x : R) : R := 2 / sqrt PI * RInt (fun t => exp (- (t * t))) 0 x.
Definition erfc (x : R) : R := 1 - erf x.
Definition gelu_erf (z : R) : R := z * erfc (- z / sqrt 2) / 2.
Definition gelu_erf_product (x y s : R) : R :=
  s ^ 2 * sqrt (PI / 2) * (gelu_erf ((x + y) / s) - gelu_erf (x / s) - gelu_erf (y / s)).

(* ------------------------------------------------------------------ the integrand *)

Definition erf_rest (t : R) : R := exp (- (t * t)) - (1 - t * t).

Lemma exp_neg_upper (u : R) : 0 <= u -> exp (- u) <= 1 - u + u ^ 2 / 2.
Proof.
move=> u_ge0.
suff : 0 <= 1 - u + u ^ 2 / 2 - exp (- u) by lra.
apply: (nonneg_from_derive (fun v => 1 - v + v ^ 2 / 2 - exp (- v))
          (fun v => -1 + v + exp (- v))) => //.
- by rewrite Ropp_0 exp_0; lra.
- by move=> v; auto_derive => //; field.
- move=> v _; have := exp_ineq1_le (- v); lra.
Qed.

Lemma erf_rest_bounds (t : R) : 0 <= erf_rest t <= (t ^ 4) / 2.
Proof.
rewrite /erf_rest; have := exp_ineq1_le (- (t * t)) => lo.
have := exp_neg_upper (t * t) (Rle_0_sqr t) => hi.
split; first by lra.
have -> : t ^ 4 = (t * t) ^ 2 by ring.
by lra.
Qed.

Lemma continuous_erf_rest (t : R) : continuous erf_rest t.
Proof. by apply: ex_derive_continuous; rewrite /erf_rest; auto_derive. Qed.

Lemma continuous_quartic (t : R) : continuous (fun t => t ^ 4 / 2) t.
Proof. by apply: ex_derive_continuous; auto_derive. Qed.

Lemma ex_RInt_erf_rest (a b : R) : ex_RInt erf_rest a b.
Proof. by apply: ex_RInt_continuous => z _; apply: continuous_erf_rest. Qed.

Lemma RInt_quartic (a b : R) : RInt (fun t => t ^ 4 / 2) a b = b ^ 5 / 10 - a ^ 5 / 10.
Proof.
apply: is_RInt_unique.
apply: (is_RInt_derive (fun t => t ^ 5 / 10)).
  by move=> x _; auto_derive => //; field.
by move=> x _; apply: continuous_quartic.
Qed.

Lemma RInt_erf_rest_bounds (a b : R) :
  a <= b -> 0 <= RInt erf_rest a b <= b ^ 5 / 10 - a ^ 5 / 10.
Proof.
move=> ab; split.
  have -> : 0 = RInt (fun _ => 0) a b by rewrite RInt_const /scal /= /mult /=; ring.
  apply: RInt_le => //; first by apply: ex_RInt_const.
    by apply: ex_RInt_erf_rest.
  by move=> x _; have := erf_rest_bounds x; lra.
rewrite -RInt_quartic; apply: RInt_le => //.
- by apply: ex_RInt_erf_rest.
- by apply: ex_RInt_continuous => z _; apply: continuous_quartic.
- by move=> x _; have := erf_rest_bounds x; lra.
Qed.

Theorem erf_integrand_taylor (w : R) :
  Rabs (RInt (fun t => exp (- (t * t))) 0 w - (w - w ^ 3 / 3)) <= Rabs w ^ 5 / 10.
Proof.
have ex_exp : ex_RInt (fun t => exp (- (t * t))) 0 w.
  by apply: ex_RInt_continuous => z _; apply: ex_derive_continuous; auto_derive.
have ex_poly : ex_RInt (fun t => 1 - t * t) 0 w.
  by apply: ex_RInt_continuous => z _; apply: ex_derive_continuous; auto_derive.
have poly : RInt (fun t => 1 - t * t) 0 w = w - w ^ 3 / 3.
  apply: is_RInt_unique.
  have := (is_RInt_derive (fun t => t - t ^ 3 / 3) (fun t => 1 - t * t) 0 w).
  rewrite /= => H; have -> : w - w ^ 3 / 3 = (w - w ^ 3 / 3) - (0 - 0 ^ 3 / 3) by field.
  apply: H; first by move=> x _; auto_derive => //; field.
  by move=> x _; apply: ex_derive_continuous; auto_derive.
have split_int : RInt (fun t => exp (- (t * t))) 0 w - (w - w ^ 3 / 3) = RInt erf_rest 0 w.
  by rewrite -poly /erf_rest (RInt_minus (fun t => exp (- (t * t))) (fun t => 1 - t * t)) .
rewrite split_int.
case: (Rle_lt_dec 0 w) => w0.
  have b := RInt_erf_rest_bounds 0 w w0.
  have z5 : 0 ^ 5 / 10 = 0 by field.
  rewrite (Rabs_pos_eq (RInt erf_rest 0 w)); last by lra.
  by rewrite (Rabs_pos_eq w) //; lra.
have b := RInt_erf_rest_bounds w 0 (Rlt_le _ _ w0).
have z5 : 0 ^ 5 / 10 = 0 by field.
rewrite -(opp_RInt_swap _ _ _ (ex_RInt_erf_rest _ _)).
rewrite (Rabs_left w) // Rabs_Ropp (Rabs_pos_eq (RInt erf_rest w 0)); last by lra.
have -> : (- w) ^ 5 = - w ^ 5 by ring.
by lra.
Qed.

(* ------------------------------------------------------------------- the GeLU *)

Lemma sqrt2_pos : 0 < sqrt 2.
Proof. by apply: sqrt_lt_R0; lra. Qed.

Lemma sqrtPI_pos : 0 < sqrt PI.
Proof. by apply: sqrt_lt_R0; apply: PI_RGT_0. Qed.

Lemma sqrt_2PI : sqrt (2 * PI) = sqrt 2 * sqrt PI.
Proof. by rewrite sqrt_mult_alt //; lra. Qed.

Theorem gelu_erf_quartic (z : R) :
  Rabs (gelu_erf z - (z / 2 + z ^ 2 / sqrt (2 * PI) - z ^ 4 / (6 * sqrt (2 * PI))))
    <= z ^ 6 / (40 * sqrt (2 * PI)).
Proof.
have s2 := sqrt2_pos; have sp := sqrtPI_pos.
have ss2 : sqrt 2 * sqrt 2 = 2 by apply: sqrt_sqrt; lra.
set w := - z / sqrt 2.
have T := erf_integrand_taylor w.
set I := RInt (fun t => exp (- (t * t))) 0 w in T.
have -> : gelu_erf z = z / 2 - z * (2 / sqrt PI * I) / 2.
  by rewrite /gelu_erf /erfc /erf -/I; field; lra.
rewrite sqrt_2PI.
have -> : z / 2 - z * (2 / sqrt PI * I) / 2 -
          (z / 2 + z ^ 2 / (sqrt 2 * sqrt PI) - z ^ 4 / (6 * (sqrt 2 * sqrt PI)))
          = - z / sqrt PI * (I - (w - w ^ 3 / 3)).
  rewrite /w.
  have -> : (- z / sqrt 2) ^ 3 = - z ^ 3 / (sqrt 2 * sqrt 2 * sqrt 2) by field; lra.
  by rewrite ss2; field; lra.
rewrite Rabs_mult.
have Aw : Rabs w = Rabs z / sqrt 2.
  rewrite /w Rabs_div; last by lra.
  by rewrite Rabs_Ropp (Rabs_pos_eq (sqrt 2)) //; lra.
rewrite Aw in T.
have -> : Rabs (- z / sqrt PI) = Rabs z / sqrt PI.
  rewrite Rabs_div; last by lra.
  by rewrite Rabs_Ropp (Rabs_pos_eq (sqrt PI)) //; lra.
have az := Rabs_pos z.
have -> : z ^ 6 / (40 * (sqrt 2 * sqrt PI)) = Rabs z / sqrt PI * ((Rabs z / sqrt 2) ^ 5 / 10).
  have -> : z ^ 6 = Rabs z ^ 6.
    by rewrite (_ : z ^ 6 = (z ^ 2) ^ 3); [rewrite -pow2_abs; ring | ring].
  have -> : (Rabs z / sqrt 2) ^ 5 = Rabs z ^ 5 / (sqrt 2 * sqrt 2 * (sqrt 2 * sqrt 2) * sqrt 2).
    by field; lra.
  by rewrite ss2; field; lra.
apply: Rmult_le_compat_l => //.
by rewrite /Rdiv; apply: Rmult_le_pos => //; apply/Rlt_le/Rinv_0_lt_compat.
Qed.

(* --------------------------------------------------------- GeLU multiplication *)

Theorem gelu_erf_product_bound (x y s : R) :
  0 < s ->
  Rabs (gelu_erf_product x y s - x * y)
    <= Rabs ((x + y) ^ 4 - x ^ 4 - y ^ 4) / (12 * s ^ 2)
       + ((x + y) ^ 6 + x ^ 6 + y ^ 6) / (80 * s ^ 4).
Proof.
move=> s_pos.
have s2 := sqrt2_pos; have sp := sqrtPI_pos.
have sPI2 : sqrt (PI / 2) = sqrt PI / sqrt 2.
  by rewrite sqrt_div_alt //; lra.
set S := sqrt (2 * PI).
have S_pos : 0 < S by rewrite /S sqrt_2PI; apply: Rmult_lt_0_compat.
have ss2 : sqrt 2 * sqrt 2 = 2 by apply: sqrt_sqrt; lra.
have cS : s ^ 2 * sqrt (PI / 2) = s ^ 2 / 2 * S.
  rewrite sPI2 /S sqrt_2PI.
  have -> : s ^ 2 / 2 * (sqrt 2 * sqrt PI) = s ^ 2 * sqrt PI * sqrt 2 / (sqrt 2 * sqrt 2).
    by rewrite ss2; field.
  by field; lra.
set A := (x + y) / s; set B := x / s; set C := y / s.
have Ra := gelu_erf_quartic A; have Rb := gelu_erf_quartic B; have Rc := gelu_erf_quartic C.
rewrite -/S in Ra Rb Rc.
set ra := gelu_erf A - _ in Ra.
set rb := gelu_erf B - _ in Rb.
set rc := gelu_erf C - _ in Rc.
have gA : gelu_erf A = ra + (A / 2 + A ^ 2 / S - A ^ 4 / (6 * S)) by rewrite /ra; ring.
have gB : gelu_erf B = rb + (B / 2 + B ^ 2 / S - B ^ 4 / (6 * S)) by rewrite /rb; ring.
have gC : gelu_erf C = rc + (C / 2 + C ^ 2 / S - C ^ 4 / (6 * S)) by rewrite /rc; ring.
have s_neq0 : s <> 0 by lra.
have -> : gelu_erf_product x y s - x * y =
          - ((x + y) ^ 4 - x ^ 4 - y ^ 4) / (12 * s ^ 2) + s ^ 2 / 2 * S * (ra - rb - rc).
  rewrite /gelu_erf_product cS -/A -/B -/C gA gB gC /A /B /C.
  by field; lra.
have s2_pos : 0 < s ^ 2 by apply: pow_lt.
have bound_r : Rabs (s ^ 2 / 2 * S * (ra - rb - rc))
               <= ((x + y) ^ 6 + x ^ 6 + y ^ 6) / (80 * s ^ 4).
  have c_pos : 0 < s ^ 2 / 2 * S by apply: Rmult_lt_0_compat; lra.
  rewrite Rabs_mult (Rabs_pos_eq _ (Rlt_le _ _ c_pos)).
  have tri : Rabs (ra - rb - rc) <= Rabs ra + Rabs rb + Rabs rc.
    have := Rabs_triang (ra - rb) (- rc); have := Rabs_triang ra (- rb).
    by rewrite !Rabs_Ropp /Rminus; lra.
  apply: (Rle_trans _ (s ^ 2 / 2 * S *
                        (A ^ 6 / (40 * S) + B ^ 6 / (40 * S) + C ^ 6 / (40 * S)))).
    by apply: Rmult_le_compat_l; lra.
  by right; rewrite /A /B /C; field; lra.
have := Rabs_triang (- ((x + y) ^ 4 - x ^ 4 - y ^ 4) / (12 * s ^ 2))
                    (s ^ 2 / 2 * S * (ra - rb - rc)).
have -> : Rabs (- ((x + y) ^ 4 - x ^ 4 - y ^ 4) / (12 * s ^ 2)) =
          Rabs ((x + y) ^ 4 - x ^ 4 - y ^ 4) / (12 * s ^ 2).
  rewrite Rabs_div; last by lra.
  by rewrite Rabs_Ropp (Rabs_pos_eq (12 * s ^ 2)) //; lra.
by lra.
Qed.
