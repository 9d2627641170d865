(* GeluErfTail.v -- the bypass of the exact (erf) GeLU of Akyurek et al. 2023 (Lemma 5, erf form):
   for t > 0, g(t) - t = -t (1 - Phi(t)) is exponentially small, with the Mills-ratio bounds
   (Gordon 1941) proved from the Gaussian integral of GaussianIntegral.v.

   gelu_erf is GeluErf.v's g(z) = z erfc(-z/sqrt 2) / 2.  With w = t / sqrt 2,
   g(t) - t = -(t / sqrt pi) gauss_tail w (gelu_erf_sub_id, from erf odd), and the Mills ratio
   for the tail: 2 w gauss_tail w <= exp(-w^2) (the function exp(-y^2) - 2 y gauss_tail y has
   derivative -2 gauss_tail y <= 0 and tends to 0) and w exp(-w^2) / (1 + 2 w^2) <= gauss_tail w
   (gauss_tail y - y exp(-y^2)/(1 + 2 y^2) has derivative -2 exp(-y^2)/(1 + 2 y^2)^2, tends to 0).

   Main results (the formulas of src/raw/approximation_bounds.hpp, form gelu_form::erf:
   gelu_bypass_bound(t) = exp(-t*t/2) / sqrt(2 pi), gelu_bypass_lower_bound(t) =
   gelu_bypass_bound(t) * t * t / (1 + t*t); the C++ evaluates -t*t/2 as (-t)*t/2, the same real):
   - gelu_erf_bypass_bound: for t > 0, |g(t) - t| <= exp(-(t*t)/2) / sqrt(2 pi).
   - gelu_erf_bypass_lower: for t > 0, exp(-(t*t)/2) / sqrt(2 pi) * t * t / (1 + t*t) <= |g(t) - t|.
   - gelu_erf_bypass_bound_decreasing: for 0 <= s <= t, the bound at t is <= the bound at s.
   - gelu_erf_bypass_bound_below: for 0 < s <= t, |g(t) - t| <= exp(-(s*s)/2) / sqrt(2 pi): the
     bound evaluated at the smallest argument s = Nb - max|z| (src/raw/layer_bounds.hpp) bounds
     the error at every t = Nb + z >= s.
   - gauss_tail_mills_upper, gauss_tail_mills_lower: the Mills-ratio bounds on the Gaussian tail.
   - erf_lim: erf x tends to 1 as x -> +oo.
   Dependencies: Coq Reals, Coquelicot, GeluErf.v, GaussianIntegral.v.  Assumptions: the standard
   set of allowed_axioms.txt. *)
From Coq Require Import Reals Lra ssreflect.
From Coquelicot Require Import Coquelicot.
From ICLProof Require Import GeluErf GaussianIntegral.
Open Scope R_scope.

Lemma exp_neg_sq_mul_le (y : R) : exp (- (y * y)) * (1 + y * y) <= 1.
Proof.
have H := exp_ineq1_le (y * y).
have e := exp_pos (- (y * y)).
have : exp (- (y * y)) * exp (y * y) = 1 by rewrite -exp_plus Rplus_opp_l exp_0.
by nra.
Qed.

Lemma mul_exp_neg_sq_le (y : R) : 0 < y -> y * exp (- (y * y)) <= 1 / y.
Proof.
move=> y0.
have H := exp_neg_sq_mul_le y; have e := exp_pos (- (y * y)).
have -> : 1 / y = / y * 1 by field; lra.
have iy : 0 < / y by apply: Rinv_0_lt_compat.
apply: (Rle_trans _ (/ y * (exp (- (y * y)) * (1 + y * y)))); last first.
  by apply: Rmult_le_compat_l; lra.
have -> : / y * (exp (- (y * y)) * (1 + y * y)) = y * exp (- (y * y)) + / y * exp (- (y * y)).
  by field; lra.
have : 0 <= / y * exp (- (y * y)) by nra.
by lra.
Qed.

Lemma nonneg_of_derive_nonpos_vanishing (h dh : R -> R) (x C : R) :
  0 <= C -> (forall y, is_derive h y (dh y)) -> (forall y, x <= y -> dh y <= 0) ->
  (forall y, 0 < y -> - (C / y) <= h y) -> 0 <= h x.
Proof.
move=> C0 h_der dh_le0 h_lim.
apply: Rnot_lt_le => hx.
have d0 : 0 < - h x by lra.
set y := Rmax x 1 + C / (- h x).
have m1 := Rmax_r x 1; have m2 := Rmax_l x 1.
have cd : 0 <= C / (- h x) by apply: Rdiv_le_0_compat; lra.
have y0 : 0 < y by rewrite /y; lra.
have xy : x <= y by rewrite /y; lra.
have dec : h y <= h x.
  have [|c [c_in hc]] := MVT_gen h x y dh (fun z _ => h_der z).
    move=> z _; apply/continuity_pt_filterlim; apply: ex_derive_continuous.
    by exists (dh z); apply: h_der.
  move: c_in hc; rewrite Rmin_left // Rmax_right // => c_in hc.
  have := dh_le0 c (proj1 c_in) => dhc.
  have : dh c * (y - x) <= 0 by apply: Rmult_le_0_r; lra.
  by lra.
have := h_lim y y0 => hy.
have : C / y < - h x.
  apply/Rlt_div_l => //.
  rewrite /y Rmult_plus_distr_l.
  have -> : - h x * (C / - h x) = C by field; lra.
  have : 0 < - h x * Rmax x 1 by apply: Rmult_lt_0_compat; lra.
  by lra.
by lra.
Qed.

Lemma is_derive_gauss_tail (y : R) : is_derive gauss_tail y (- exp (- (y * y))).
Proof.
rewrite /gauss_tail; auto_derive.
  by exists (exp (- (y * y))); apply: is_derive_gauss_int.
by rewrite (is_derive_unique _ _ _ (is_derive_gauss_int y)); ring.
Qed.

Theorem gauss_tail_mills_upper (x : R) : 0 <= x -> 2 * x * gauss_tail x <= exp (- (x * x)).
Proof.
move=> x0.
suff : 0 <= exp (- (x * x)) - 2 * x * gauss_tail x by lra.
have sp := sqrt_PI_pos.
apply: (nonneg_of_derive_nonpos_vanishing
          (fun y => exp (- (y * y)) - 2 * y * gauss_tail y) (fun y => - 2 * gauss_tail y)
          x (4 / sqrt PI)).
- by apply: Rdiv_le_0_compat; lra.
- move=> y; auto_derive.
    by exists (- exp (- (y * y))); apply: is_derive_gauss_tail.
  by rewrite (is_derive_unique _ _ _ (is_derive_gauss_tail y)); ring.
- move=> y xy; have [J0 _] := gauss_tail_bounds y ltac:(lra); by lra.
- move=> y y0.
  have [J0 J1] := gauss_tail_bounds y ltac:(lra).
  have E := mul_exp_neg_sq_le y y0.
  have e := exp_pos (- (y * y)).
  have : 2 * y * gauss_tail y <= 4 / sqrt PI * (y * exp (- (y * y))).
    have -> : 4 / sqrt PI * (y * exp (- (y * y))) = 2 * y * (2 / sqrt PI * exp (- (y * y))).
      by field; lra.
    by apply: Rmult_le_compat_l; lra.
  have : 4 / sqrt PI * (y * exp (- (y * y))) <= 4 / sqrt PI * (1 / y).
    by apply: Rmult_le_compat_l => //; apply: Rdiv_le_0_compat; lra.
  have -> : 4 / sqrt PI * (1 / y) = 4 / sqrt PI / y by field; lra.
  by lra.
Qed.

Theorem gauss_tail_mills_lower (x : R) :
  0 <= x -> x * exp (- (x * x)) / (1 + 2 * (x * x)) <= gauss_tail x.
Proof.
move=> x0.
suff : 0 <= gauss_tail x - x * exp (- (x * x)) / (1 + 2 * (x * x)) by lra.
apply: (nonneg_of_derive_nonpos_vanishing
          (fun y => gauss_tail y - y * exp (- (y * y)) / (1 + 2 * (y * y)))
          (fun y => - 2 * exp (- (y * y)) / (1 + 2 * (y * y)) ^ 2) x 1).
- by lra.
- move=> y; have py : 0 < 1 + 2 * (y * y) by have := Rle_0_sqr y; rewrite /Rsqr; lra.
  auto_derive.
    split; last by split => //; lra.
    by exists (- exp (- (y * y))); apply: is_derive_gauss_tail.
  rewrite (is_derive_unique _ _ _ (is_derive_gauss_tail y)).
  by field; lra.
- move=> y _; have py : 0 < 1 + 2 * (y * y) by have := Rle_0_sqr y; rewrite /Rsqr; lra.
  have e := exp_pos (- (y * y)).
  have : 0 < (1 + 2 * (y * y)) ^ 2 by apply: pow_lt.
  move=> p2.
  have -> : - 2 * exp (- (y * y)) / (1 + 2 * (y * y)) ^ 2
            = - (2 * exp (- (y * y)) / (1 + 2 * (y * y)) ^ 2) by field; lra.
  have : 0 <= 2 * exp (- (y * y)) / (1 + 2 * (y * y)) ^ 2 by apply: Rdiv_le_0_compat; lra.
  by lra.
- move=> y y0.
  have [J0 _] := gauss_tail_bounds y ltac:(lra).
  have E := mul_exp_neg_sq_le y y0.
  have e := exp_pos (- (y * y)).
  have py : 1 <= 1 + 2 * (y * y) by have := Rle_0_sqr y; rewrite /Rsqr; lra.
  have : y * exp (- (y * y)) / (1 + 2 * (y * y)) <= y * exp (- (y * y)).
    apply/Rle_div_l; first by lra.
    have : 0 <= y * exp (- (y * y)) by nra.
    by nra.
  by lra.
Qed.

Lemma gauss_int_opp (x : R) : gauss_int (- x) = - gauss_int x.
Proof.
have H := RInt_comp_lin (fun t => exp (- (t * t))) (-1) 0 0 x (ex_RInt_gauss _ _).
have -> : - x = -1 * x + 0 by ring.
rewrite /gauss_int.
have {1}-> : 0 = -1 * 0 + 0 by ring.
rewrite -H.
have -> : RInt (fun y => scal (-1) (exp (- ((-1 * y + 0) * (-1 * y + 0))))) 0 x
          = RInt (fun y => opp (exp (- (y * y)))) 0 x.
  apply: RInt_ext => y _; rewrite /scal /opp /= /mult /=.
  have -> : (-1 * y + 0) * (-1 * y + 0) = y * y by ring.
  by ring.
by rewrite RInt_opp; last by apply: ex_RInt_gauss.
Qed.

Lemma gelu_erf_sub_id (t : R) : gelu_erf t - t = - (t / sqrt PI) * gauss_tail (t / sqrt 2).
Proof.
have s2 := sqrt2_pos; have sp := sqrt_PI_pos.
rewrite /gelu_erf /erfc /erf /gauss_tail.
have -> : - t / sqrt 2 = - (t / sqrt 2) by field; lra.
rewrite -/(gauss_int (- (t / sqrt 2))) gauss_int_opp.
by field; lra.
Qed.

Lemma gelu_erf_bypass_abs (t : R) :
  0 <= t -> Rabs (gelu_erf t - t) = t / sqrt PI * gauss_tail (t / sqrt 2).
Proof.
move=> t0; have s2 := sqrt2_pos; have sp := sqrt_PI_pos.
have w0 : 0 <= t / sqrt 2 by apply: Rdiv_le_0_compat.
have [J0 _] := gauss_tail_bounds (t / sqrt 2) w0.
rewrite gelu_erf_sub_id Ropp_mult_distr_l_reverse Rabs_Ropp Rabs_pos_eq //.
by apply: Rmult_le_pos => //; apply: Rdiv_le_0_compat.
Qed.

Lemma sq_div_sqrt2 (t : R) : t / sqrt 2 * (t / sqrt 2) = t * t / 2.
Proof.
have s2 := sqrt2_pos; have ss2 : sqrt 2 * sqrt 2 = 2 by apply: sqrt_sqrt; lra.
have -> : t / sqrt 2 * (t / sqrt 2) = t * t / (sqrt 2 * sqrt 2) by field; lra.
by rewrite ss2.
Qed.

(* The bypass at t > 0 through w = t / sqrt 2: |g(t) - t| = 2 w gauss_tail w / sqrt (2 pi), with
   w^2 = t^2 / 2; the Mills-ratio bounds on 2 w gauss_tail w then give gelu_erf_bypass_bound and
   gelu_erf_bypass_lower. *)
Lemma gelu_erf_bypass_mills (t : R) :
  0 < t ->
  Rabs (gelu_erf t - t) = 2 * (t / sqrt 2) * gauss_tail (t / sqrt 2) / sqrt (2 * PI) /\
  t / sqrt 2 * (t / sqrt 2) = t * t / 2 /\ 0 <= t / sqrt 2.
Proof.
move=> t0; have s2 := sqrt2_pos; have sp := sqrt_PI_pos.
have ss2 : sqrt 2 * sqrt 2 = 2 by apply: sqrt_sqrt; lra.
split; last by split; [exact: sq_div_sqrt2 | apply: Rdiv_le_0_compat; lra].
rewrite gelu_erf_bypass_abs; last by lra.
rewrite sqrt_2PI; set J := gauss_tail (t / sqrt 2).
have -> : 2 * (t / sqrt 2) * J / (sqrt 2 * sqrt PI) = 2 * t * J / (sqrt 2 * sqrt 2 * sqrt PI).
  by field; lra.
by rewrite ss2; field; lra.
Qed.

Theorem gelu_erf_bypass_bound (t : R) :
  0 < t -> Rabs (gelu_erf t - t) <= exp (- (t * t) / 2) / sqrt (2 * PI).
Proof.
move=> t0; have [-> [ww w0]] := gelu_erf_bypass_mills t t0.
have M := gauss_tail_mills_upper _ w0; rewrite ww in M.
have -> : - (t * t) / 2 = - (t * t / 2) by field.
rewrite /Rdiv; apply: Rmult_le_compat_r => //.
by apply/Rlt_le/Rinv_0_lt_compat; rewrite sqrt_2PI; apply: Rmult_lt_0_compat;
  [apply: sqrt2_pos | apply: sqrt_PI_pos].
Qed.

Theorem gelu_erf_bypass_lower (t : R) :
  0 < t -> exp (- (t * t) / 2) / sqrt (2 * PI) * t * t / (1 + t * t) <= Rabs (gelu_erf t - t).
Proof.
move=> t0; have [-> [ww w0]] := gelu_erf_bypass_mills t t0.
have M := gauss_tail_mills_lower _ w0; rewrite ww in M.
have sp : 0 < sqrt (2 * PI).
  by rewrite sqrt_2PI; apply: Rmult_lt_0_compat; [apply: sqrt2_pos | apply: sqrt_PI_pos].
set w := t / sqrt 2 in ww w0 M *; set J := gauss_tail w in M *.
have -> : - (t * t) / 2 = - (t * t / 2) by field.
have -> : exp (- (t * t / 2)) / sqrt (2 * PI) * t * t / (1 + t * t)
          = 2 * w * (w * exp (- (t * t / 2)) / (1 + 2 * (t * t / 2))) / sqrt (2 * PI).
  have -> : 2 * w * (w * exp (- (t * t / 2)) / (1 + 2 * (t * t / 2)))
            = 2 * (w * w) * exp (- (t * t / 2)) / (1 + 2 * (t * t / 2)) by field; nra.
  by rewrite ww; field; split; nra.
rewrite /Rdiv; apply: Rmult_le_compat_r; first by apply/Rlt_le/Rinv_0_lt_compat.
by apply: Rmult_le_compat_l; [lra | rewrite -/(Rdiv _ _)].
Qed.

Theorem gelu_erf_bypass_bound_decreasing (s t : R) :
  0 <= s -> s <= t -> exp (- (t * t) / 2) / sqrt (2 * PI) <= exp (- (s * s) / 2) / sqrt (2 * PI).
Proof.
move=> s0 st.
have sp : 0 < sqrt (2 * PI) by rewrite sqrt_2PI; apply: Rmult_lt_0_compat; [apply: sqrt2_pos | apply: sqrt_PI_pos].
rewrite /Rdiv; apply: Rmult_le_compat_r; first by apply/Rlt_le/Rinv_0_lt_compat.
by apply: exp_le_mono; nra.
Qed.

Theorem gelu_erf_bypass_bound_below (s t : R) :
  0 < s -> s <= t -> Rabs (gelu_erf t - t) <= exp (- (s * s) / 2) / sqrt (2 * PI).
Proof.
move=> s0 st; apply: (Rle_trans _ _ _ (gelu_erf_bypass_bound t ltac:(lra))).
by apply: gelu_erf_bypass_bound_decreasing; lra.
Qed.

Theorem erf_lim : is_lim erf p_infty 1.
Proof.
have sp := sqrt_PI_pos.
have H := is_lim_scal_l gauss_int (2 / sqrt PI) p_infty (sqrt PI / 2) gauss_int_lim.
have -> : Finite 1 = Rbar_mult (2 / sqrt PI) (sqrt PI / 2) by rewrite /=; f_equal; field; lra.
by apply: (is_lim_ext _ _ _ _ _ H) => y.
Qed.
