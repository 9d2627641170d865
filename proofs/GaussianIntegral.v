(* GaussianIntegral.v -- the Gaussian integral int_0^oo exp(-x^2) dx = sqrt(pi)/2 and an explicit
   bound on its tail, over Coq's R with Coquelicot (Riemann integrals RInt).

   gauss_int t = int_0^t exp(-x^2) dx, gauss_tail t = sqrt(pi)/2 - gauss_int t.  The route is the
   classical parametric integral F(t) = int_0^1 exp(-t^2 (1 + x^2)) / (1 + x^2) dx (gauss_param):
   F'(t) = -2 exp(-t^2) gauss_int t (differentiation under the integral, is_derive_RInt_param, and
   the substitution u = t x), so gauss_int^2 + F has derivative 0 and equals its value at 0,
   F(0) = atan 1 = pi/4; and 0 <= F(t) <= exp(-t^2).

   Main results:
   - gauss_int_sq_add_param: for every t, gauss_int t ^ 2 + gauss_param t = PI / 4.
   - gauss_tail_bounds: for t >= 0, 0 <= gauss_tail t <= 2 / sqrt PI * exp (- (t * t))
     (erfc x = 2 / sqrt pi * gauss_tail x; used by GeluErfTail.v).
   - gauss_int_lim: gauss_int t tends to sqrt PI / 2 as t -> +oo (the Gaussian integral).
   Dependencies: Coq Reals, Coquelicot.  Assumptions: the standard set of allowed_axioms.txt. *)
From Coq Require Import Reals Lra ssreflect.
From Coquelicot Require Import Coquelicot.
Open Scope R_scope.

Definition gauss_int (t : R) : R := RInt (fun x => exp (- (x * x))) 0 t.
Definition gauss_param_integrand (t x : R) : R := exp (- (t * t * (1 + x * x))) / (1 + x * x).
Definition gauss_param (t : R) : R := RInt (fun x => gauss_param_integrand t x) 0 1.

Lemma one_plus_sq_pos (x : R) : 0 < 1 + x * x.
Proof. by have := Rle_0_sqr x; rewrite /Rsqr; lra. Qed.

Lemma continuous_gauss (x : R) : continuous (fun x => exp (- (x * x))) x.
Proof. by apply: ex_derive_continuous; auto_derive. Qed.

Lemma ex_RInt_gauss (a b : R) : ex_RInt (fun x => exp (- (x * x))) a b.
Proof. by apply: ex_RInt_continuous => z _; apply: continuous_gauss. Qed.

Lemma is_derive_gauss_int (t : R) : is_derive gauss_int t (exp (- (t * t))).
Proof.
apply: (is_derive_RInt (V := R_CompleteNormedModule) (fun x => exp (- (x * x))) gauss_int 0).
  by apply: filter_forall => b; apply: RInt_correct; apply: ex_RInt_gauss.
by apply: continuous_gauss.
Qed.

Definition gauss_param_partial (t x : R) : R := - (2 * t) * exp (- (t * t * (1 + x * x))).

Lemma is_derive_gauss_param_integrand (t x : R) :
  is_derive (fun u => gauss_param_integrand u x) t (gauss_param_partial t x).
Proof.
have := one_plus_sq_pos x => px.
rewrite /gauss_param_integrand /gauss_param_partial; auto_derive; first by lra.
by field; lra.
Qed.

Lemma continuity_2d_pt_exp (g : R -> R -> R) (x y : R) :
  continuity_2d_pt g x y -> continuity_2d_pt (fun u v => exp (g u v)) x y.
Proof.
move=> /continuity_2d_pt_filterlim H; apply/continuity_2d_pt_filterlim.
apply: (filterlim_comp _ _ _ (fun z : R * R => g (fst z) (snd z)) exp _ _ _ H).
by apply: ex_derive_continuous; auto_derive.
Qed.

Lemma continuity_2d_pt_gauss_param_partial (t x : R) :
  continuity_2d_pt gauss_param_partial t x.
Proof.
rewrite /gauss_param_partial.
apply: continuity_2d_pt_mult.
  apply: continuity_2d_pt_opp; apply: continuity_2d_pt_mult.
    by apply: continuity_2d_pt_const.
  by apply: continuity_2d_pt_id1.
apply: continuity_2d_pt_exp; apply: continuity_2d_pt_opp.
apply: continuity_2d_pt_mult; first apply: continuity_2d_pt_mult.
- by apply: continuity_2d_pt_id1.
- by apply: continuity_2d_pt_id1.
apply: continuity_2d_pt_plus; first by apply: continuity_2d_pt_const.
by apply: continuity_2d_pt_mult; apply: continuity_2d_pt_id2.
Qed.

Lemma continuous_gauss_param_integrand (t x : R) :
  continuous (fun x => gauss_param_integrand t x) x.
Proof.
have := one_plus_sq_pos x => px.
by apply: ex_derive_continuous; rewrite /gauss_param_integrand; auto_derive; lra.
Qed.

Lemma ex_RInt_gauss_param_integrand (t a b : R) :
  ex_RInt (fun x => gauss_param_integrand t x) a b.
Proof. by apply: ex_RInt_continuous => z _; apply: continuous_gauss_param_integrand. Qed.

Lemma RInt_gauss_param_partial (t : R) :
  RInt (fun x => gauss_param_partial t x) 0 1 = - 2 * exp (- (t * t)) * gauss_int t.
Proof.
have -> : RInt (fun x => gauss_param_partial t x) 0 1
          = RInt (fun x => scal (- 2 * exp (- (t * t)))
                               (scal t (exp (- ((t * x + 0) * (t * x + 0)))))) 0 1.
  apply: RInt_ext => x _; rewrite /gauss_param_partial /scal /= /mult /=.
  have -> : exp (- (t * t * (1 + x * x))) = exp (- (t * t)) * exp (- ((t * x + 0) * (t * x + 0))).
    by rewrite -exp_plus; f_equal; ring.
  by ring.
rewrite RInt_scal; last first.
  apply: ex_RInt_continuous => z _; apply: ex_derive_continuous; rewrite /scal /= /mult /=.
  by auto_derive.
rewrite (RInt_comp_lin (fun x => exp (- (x * x)))); last by apply: ex_RInt_gauss.
have -> : t * 0 + 0 = 0 by ring.
have -> : t * 1 + 0 = t by ring.
by rewrite /gauss_int /scal /= /mult /=.
Qed.

Lemma is_derive_gauss_param (t : R) :
  is_derive gauss_param t (- 2 * exp (- (t * t)) * gauss_int t).
Proof.
rewrite -RInt_gauss_param_partial /gauss_param.
have D : forall u x, Derive (fun z => gauss_param_integrand z x) u = gauss_param_partial u x.
  by move=> u x; apply: is_derive_unique; apply: is_derive_gauss_param_integrand.
have -> : RInt (fun x => gauss_param_partial t x) 0 1
          = RInt (fun x => Derive (fun u => gauss_param_integrand u x) t) 0 1.
  by apply: RInt_ext => x _; rewrite D.
apply: is_derive_RInt_param.
- apply: filter_forall => u x _.
  by exists (gauss_param_partial u x); apply: is_derive_gauss_param_integrand.
- move=> x _; apply: (continuity_2d_pt_ext gauss_param_partial).
    by move=> u v; rewrite D.
  by apply: continuity_2d_pt_gauss_param_partial.
- by apply: filter_forall => u; apply: ex_RInt_gauss_param_integrand.
Qed.

Lemma gauss_param_0 : gauss_param 0 = PI / 4.
Proof.
rewrite /gauss_param.
have -> : RInt (fun x => gauss_param_integrand 0 x) 0 1 = RInt (fun x => / (1 + x ^ 2)) 0 1.
  apply: RInt_ext => x _; rewrite /gauss_param_integrand.
  have -> : - (0 * 0 * (1 + x * x)) = 0 by ring.
  by rewrite exp_0 /Rdiv Rmult_1_l; f_equal; ring.
have -> : PI / 4 = minus (atan 1) (atan 0) by rewrite atan_1 atan_0 /minus /plus /opp /=; ring.
apply: is_RInt_unique; apply: (is_RInt_derive atan).
  by move=> x _; apply/is_derive_Reals; apply: derivable_pt_lim_atan.
move=> x _; apply: ex_derive_continuous; auto_derive.
by have := one_plus_sq_pos x; rewrite /= Rmult_1_r; lra.
Qed.

Lemma is_derive_gauss_sum (t : R) :
  is_derive (fun t => gauss_int t ^ 2 + gauss_param t) t 0.
Proof.
have -> : 0 = 2 * gauss_int t * exp (- (t * t)) + (- 2 * exp (- (t * t)) * gauss_int t) by ring.
apply: is_derive_plus; last by apply: is_derive_gauss_param.
have -> : 2 * gauss_int t * exp (- (t * t)) = INR 2 * exp (- (t * t)) * gauss_int t ^ pred 2.
  by rewrite /= Rmult_1_r; ring.
by apply: is_derive_pow; apply: is_derive_gauss_int.
Qed.

Theorem gauss_int_sq_add_param (t : R) : gauss_int t ^ 2 + gauss_param t = PI / 4.
Proof.
have [|c [_ H]] := MVT_gen (fun t => gauss_int t ^ 2 + gauss_param t) 0 t (fun _ => 0)
                     (fun x _ => is_derive_gauss_sum x).
  move=> x _; apply/continuity_pt_filterlim; apply: ex_derive_continuous.
  by exists 0; apply: is_derive_gauss_sum.
move: H; rewrite Rmult_0_l gauss_param_0.
have -> : gauss_int 0 = 0 by rewrite /gauss_int RInt_point.
by rewrite /=; lra.
Qed.

Lemma exp_le_mono (x y : R) : x <= y -> exp x <= exp y.
Proof. by case=> [xy|->]; [apply/Rlt_le/exp_increasing | right]. Qed.

Lemma gauss_param_nonneg (t : R) : 0 <= gauss_param t.
Proof.
apply: RInt_ge_0; first by lra.
  by apply: ex_RInt_gauss_param_integrand.
move=> x _; rewrite /gauss_param_integrand.
apply: Rdiv_le_0_compat; first by apply/Rlt_le/exp_pos.
by apply: one_plus_sq_pos.
Qed.

Lemma gauss_param_le (t : R) : gauss_param t <= exp (- (t * t)).
Proof.
have -> : exp (- (t * t)) = RInt (fun _ => exp (- (t * t))) 0 1.
  by rewrite RInt_const /scal /= /mult /=; ring.
apply: RInt_le; first by lra.
- by apply: ex_RInt_gauss_param_integrand.
- by apply: ex_RInt_const.
move=> x [x0 x1]; rewrite /gauss_param_integrand.
have px : 1 <= 1 + x * x by nra.
have e1 : exp (- (t * t * (1 + x * x))) <= exp (- (t * t)).
  apply: exp_le_mono; have := Rle_0_sqr t; rewrite /Rsqr; nra.
have e0 := exp_pos (- (t * t * (1 + x * x))).
apply/Rle_div_l; first by lra.
by nra.
Qed.

Lemma gauss_int_nonneg (t : R) : 0 <= t -> 0 <= gauss_int t.
Proof.
move=> t0; apply: RInt_ge_0 => //; first by apply: ex_RInt_gauss.
by move=> x _; apply/Rlt_le/exp_pos.
Qed.

Definition gauss_tail (t : R) : R := sqrt PI / 2 - gauss_int t.

Lemma sqrt_PI_pos : 0 < sqrt PI.
Proof. by apply: sqrt_lt_R0; apply: PI_RGT_0. Qed.

Lemma tail_from_square (s i f : R) :
  0 < s -> 0 <= i -> 0 <= f -> i ^ 2 + f = s * s / 4 -> 0 <= s / 2 - i <= 2 / s * f.
Proof.
move=> s0 i0 f0 E.
have key : (s / 2 - i) * (s / 2 + i) = f.
  have -> : (s / 2 - i) * (s / 2 + i) = s * s / 4 - i ^ 2 by field.
  by lra.
have pos : 0 < s / 2 + i by lra.
have J0 : 0 <= s / 2 - i.
  have -> : s / 2 - i = f / (s / 2 + i) by rewrite -key; field; lra.
  by apply: Rdiv_le_0_compat.
split => //.
have H : (s / 2 - i) * (s / 2) <= f by rewrite -key; nra.
have -> : 2 / s * f = f / (s / 2) by field; lra.
by apply/Rle_div_r; lra.
Qed.

Theorem gauss_tail_bounds (t : R) :
  0 <= t -> 0 <= gauss_tail t <= 2 / sqrt PI * exp (- (t * t)).
Proof.
move=> t0.
have sp := sqrt_PI_pos.
have ss : sqrt PI * sqrt PI = PI by apply: sqrt_sqrt; have := PI_RGT_0; lra.
have [J0 J1] : 0 <= gauss_tail t <= 2 / sqrt PI * gauss_param t.
  apply: tail_from_square => //.
  - by apply: gauss_int_nonneg.
  - by apply: gauss_param_nonneg.
  - by rewrite ss; apply: gauss_int_sq_add_param.
split => //; apply: (Rle_trans _ _ _ J1).
apply: Rmult_le_compat_l; last by apply: gauss_param_le.
by apply: Rdiv_le_0_compat; lra.
Qed.

Theorem gauss_int_lim : is_lim gauss_int p_infty (sqrt PI / 2).
Proof.
apply/is_lim_spec => eps /=.
have sp := sqrt_PI_pos; have e0 := cond_pos eps.
exists (2 / (sqrt PI * eps)) => y yM.
have M0 : 0 < 2 / (sqrt PI * eps) by apply: Rdiv_lt_0_compat; [lra | nra].
have y0 : 0 < y by lra.
have [J0 J1] := gauss_tail_bounds y ltac:(lra).
have -> : gauss_int y - sqrt PI / 2 = - gauss_tail y by rewrite /gauss_tail; ring.
rewrite Rabs_Ropp Rabs_pos_eq //.
(* exp (-y^2) < 1 / y, from exp (y^2) >= 1 + y^2 > y *)
have ey : exp (- (y * y)) * y < 1.
  have H := exp_ineq1_le (y * y); have e := exp_pos (- (y * y)).
  have : exp (- (y * y)) * exp (y * y) = 1 by rewrite -exp_plus Rplus_opp_l exp_0.
  by nra.
have : 2 / sqrt PI * exp (- (y * y)) * y < 2 / sqrt PI.
  have -> : 2 / sqrt PI * exp (- (y * y)) * y = 2 / sqrt PI * (exp (- (y * y)) * y) by ring.
  have c0 : 0 < 2 / sqrt PI by apply: Rdiv_lt_0_compat; lra.
  by nra.
move=> H.
have H2 : 2 / sqrt PI <= eps * y.
  have -> : 2 / sqrt PI = eps * (2 / (sqrt PI * eps)) by field; lra.
  by apply: Rmult_le_compat_l; lra.
have : gauss_tail y * y < eps * y by nra.
by move=> H3; apply: (Rmult_lt_reg_r y) => //.
Qed.
