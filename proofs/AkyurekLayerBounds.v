(* AkyurekLayerBounds.v -- the bounds that the RAW / div layer bounds of iclproof
   (src/raw/layer_bounds.hpp, src/raw/approximation_bounds.hpp) combine, over Coq's R.

   Main results:
   - gelu_tanh_bypass_lower: for t >= 0, t exp(-2 u(t)) / 2 <= |g(t) - t| for the tanh GeLU g,
     u(t) = sqrt(2/pi)(t + 0.044715 t^3): the upper bound gelu_tanh_bypass_exponential
     (AkyurekBounds.v) is sharp within a factor 2 (C++: gelu_bypass_lower_bound).
   - gelu_tanh_bypass_bound_decreasing: for 1 <= s <= t, t exp(-2 u(t)) <= s exp(-2 u(s)): the
     bypass bound evaluated at the smallest possible t = Nb - max|z| bounds the error at every
     t >= Nb - max|z| (the C++ gelu_bypass_bound refuses t < 1 for the tanh form; below
     t ~ 0.6 the function increases).
   - hard_attention_deviation: a softmax with logit Natt on a >= 1 targets (values v) and 0 on
     b others (values w), all values of modulus <= V: its output minus the targets' mean m is
     exactly exp(-Natt) sum_j (w_j - m) / (a + b exp(-Natt)), of modulus <= 2 b exp(-Natt) V
     (C++: hard_attention_bound).
   - chain_error_propagation: a chain of layers f_l realised as g_l, both started from the same
     input, under any distance d with the triangle inequality: if at each realised input x^_l
     the one-layer error d(g_l x^_l, f_l x^_l) <= B_l and f_l moves points at distance <= E_l
     from x^_l by at most Lip_l(E_l), then d(x^_l, x_l) <= E_l for E_0 = 0,
     E_(l+1) = B_l + Lip_l(E_l) (C++: chain_error_bound's recursion).
   Dependencies: Coq Reals, Coquelicot, Interval, AkyurekBounds.v.  Assumptions: the standard
   set of allowed_axioms.txt. *)
From Coq Require Import Reals Lra ssreflect.
From Coquelicot Require Import Coquelicot.
From Interval Require Import Tactic.
From ICLProof Require Import AkyurekBounds.
Open Scope R_scope.

(* ---------------------------------------------------------------- GeLU bypass, tanh form *)

Lemma exp_le_inv_le (x y : R) : x <= y -> exp x <= exp y.
Proof. by case=> [xy | ->]; [left; apply: exp_increasing | right]. Qed.

Theorem gelu_tanh_bypass_lower (t : R) :
  0 <= t -> t * exp (-2 * gelu_arg t) / 2 <= Rabs (gelu_tanh t - t).
Proof.
move=> t_ge0.
have u_ge0 : 0 <= gelu_arg t.
  rewrite /gelu_arg /gelu_cubic; have := sigma_gt0 => s_gt0.
  by apply: Rmult_le_pos; nra.
set e := exp (-2 * gelu_arg t).
have e_gt0 : 0 < e by apply: exp_pos.
have e_le1 : e <= 1.
  rewrite /e -exp_0; apply: exp_le_inv_le; lra.
have -> : gelu_tanh t - t = - (t * e / (1 + e)) by rewrite /gelu_tanh -/e; field; lra.
rewrite Rabs_Ropp Rabs_pos_eq; last by apply: Rdiv_le_0_compat; nra.
apply/Rle_div_r; first by lra.
have : t * e / (1 + e) * 2 - t * e = t * e * (1 - e) / (1 + e) by field; lra.
have : 0 <= t * e * (1 - e) / (1 + e) by apply: Rdiv_le_0_compat; [apply: Rmult_le_pos; nra | lra].
by lra.
Qed.

Lemma nonpos_derive_decreasing (f df : R -> R) (s t : R) :
  s <= t -> (forall x, is_derive f x (df x)) -> (forall x, s <= x <= t -> df x <= 0) ->
  f t <= f s.
Proof.
move=> st f_der df_le0.
have [|c [c_in fc]] := MVT_gen f s t df (fun x _ => f_der x).
  move=> x _; apply/continuity_pt_filterlim; apply: ex_derive_continuous.
  by exists (df x); apply: f_der.
move: c_in fc; rewrite Rmin_left // Rmax_right // => c_in fc.
have := df_le0 c c_in => dfc_le0.
have : df c * (t - s) <= 0 by apply: Rmult_le_0_r; lra.
by lra.
Qed.

Lemma sigma_gt_half : 1 / 2 < sigma.
Proof. by rewrite /sigma; interval. Qed.

Theorem gelu_tanh_bypass_bound_decreasing (s t : R) :
  1 <= s -> s <= t -> t * exp (-2 * gelu_arg t) <= s * exp (-2 * gelu_arg s).
Proof.
move=> s_ge1 st.
pose df x := exp (-2 * gelu_arg x) * (1 - 2 * x * sigma * (1 + 3 * gelu_cubic * x ^ 2)).
apply: (nonpos_derive_decreasing (fun x => x * exp (-2 * gelu_arg x)) df) => //.
- move=> x; rewrite /df /gelu_arg; auto_derive => //.
  have -> : x * (x * (x * 1)) = x ^ 3 by ring.
  by ring.
- move=> x [sx _]; rewrite /df.
  have e_gt0 := exp_pos (-2 * gelu_arg x).
  have := sigma_gt_half => s_half.
  set k := 3 * gelu_cubic * x ^ 2.
  have k_ge0 : 0 <= k by rewrite /k /gelu_cubic; have := pow2_ge_0 x; lra.
  have xs : 1 <= 2 * x * sigma by nra.
  have : 0 <= 2 * x * sigma * k by apply: Rmult_le_pos; lra.
  have -> : 2 * x * sigma * (1 + k) = 2 * x * sigma + 2 * x * sigma * k by ring.
  move=> xsk.
  have : 0 <= exp (-2 * gelu_arg x) * (2 * x * sigma + 2 * x * sigma * k - 1).
    by apply: Rmult_le_pos; lra.
  by lra.
Qed.

(* ----------------------------------------------------------------- hard attention (C.4.1) *)

(* rsum f n = f 0 + ... + f (n - 1). *)
Fixpoint rsum (f : nat -> R) (n : nat) : R :=
  match n with O => 0 | S k => rsum f k + f k end.

Lemma rsum_abs_le (f : nat -> R) (n : nat) (V : R) :
  (forall i, (i < n)%nat -> Rabs (f i) <= V) -> Rabs (rsum f n) <= INR n * V.
Proof.
elim: n => [|n IH] fV; first by rewrite /= Rabs_R0; lra.
have IH' := IH (fun i i_lt => fV i (Nat.lt_lt_succ_r _ _ i_lt)).
have := fV n (Nat.lt_succ_diag_r n) => fn.
rewrite S_INR [rsum f (S n)]/=.
by have := Rabs_triang (rsum f n) (f n); lra.
Qed.

Lemma rsum_sub_const (f : nat -> R) (m : R) (n : nat) :
  rsum (fun j => f j - m) n = rsum f n - INR n * m.
Proof.
elim: n => [|n IH]; first by rewrite /=; ring.
rewrite S_INR.
change (rsum (fun j => f j - m) (S n)) with (rsum (fun j => f j - m) n + (f n - m)).
change (rsum f (S n)) with (rsum f n + f n).
by rewrite IH; ring.
Qed.

(* The triangle inequality and monotonicity of rsum, shared by AkyurekLayerAssembly.v and
   AkyurekChainLipschitz.v. *)
Lemma rsum_abs (f : nat -> R) (n : nat) : Rabs (rsum f n) <= rsum (fun j => Rabs (f j)) n.
Proof.
elim: n => [|n IH] /=; first by rewrite Rabs_R0; lra.
by have := Rabs_triang (rsum f n) (f n); lra.
Qed.

Lemma rsum_le (f g : nat -> R) (n : nat) :
  (forall j, (j < n)%nat -> f j <= g j) -> rsum f n <= rsum g n.
Proof.
elim: n => [|n IH] fg /=; first by lra.
have := IH (fun j j_lt => fg j (Nat.lt_lt_succ_r _ _ j_lt)).
by have := fg n (Nat.lt_succ_diag_r n); lra.
Qed.

Theorem hard_attention_deviation (Natt : R) (a b : nat) (v w : nat -> R) (V : R) :
  (1 <= a)%nat ->
  (forall i, (i < a)%nat -> Rabs (v i) <= V) -> (forall j, (j < b)%nat -> Rabs (w j) <= V) ->
  let o := (exp Natt * rsum v a + rsum w b) / (exp Natt * INR a + INR b) in
  let m := rsum v a / INR a in
  o - m = exp (- Natt) * rsum (fun j => w j - m) b / (INR a + INR b * exp (- Natt))
  /\ Rabs (o - m) <= 2 * INR b * exp (- Natt) * V.
Proof.
move=> a_ge1 vV wV o m.
have a_ge1R : 1 <= INR a by apply: (le_INR 1).
have b_ge0 := pos_INR b.
have E_gt0 := exp_pos (- Natt).
have eN_gt0 := exp_pos Natt.
have eE : exp Natt * exp (- Natt) = 1 by rewrite -exp_plus Rplus_opp_r exp_0.
have den_gt0 : 0 < INR a + INR b * exp (- Natt) by nra.
have id : o - m = exp (- Natt) * rsum (fun j => w j - m) b / (INR a + INR b * exp (- Natt)).
  rewrite rsum_sub_const /o /m.
  have -> : exp Natt = / exp (- Natt) by rewrite -exp_Ropp Ropp_involutive.
  by field; split; lra.
split => //.
rewrite id.
have V_ge0 : 0 <= V.
  by have := vV O (proj1 (Nat.le_succ_l _ _) a_ge1); have := Rabs_pos (v O); lra.
have m_le : Rabs m <= V.
  rewrite /m Rabs_div; last by lra.
  rewrite (Rabs_pos_eq (INR a)); last by lra.
  apply/Rle_div_l; first by lra.
  by have := rsum_abs_le v a V vV; lra.
have s_le : Rabs (rsum (fun j => w j - m) b) <= INR b * (2 * V).
  apply: rsum_abs_le => j j_lt.
  have := Rabs_triang (w j) (- m); rewrite Rabs_Ropp /Rminus.
  by have := wV j j_lt; lra.
rewrite Rabs_div; last by lra.
rewrite Rabs_mult (Rabs_pos_eq (exp _)); last by lra.
rewrite (Rabs_pos_eq (_ + _)); last by lra.
apply/Rle_div_l; first by lra.
have : exp (- Natt) * Rabs (rsum (fun j => w j - m) b) <= exp (- Natt) * (INR b * (2 * V)).
  by apply: Rmult_le_compat_l; lra.
have : 2 * INR b * exp (- Natt) * V <= 2 * INR b * exp (- Natt) * V * (INR a + INR b * exp (- Natt)).
  have bE : 0 <= INR b * exp (- Natt) by apply: Rmult_le_pos; lra.
  have P_ge0 : 0 <= 2 * INR b * exp (- Natt) * V by apply: Rmult_le_pos; [nra | lra].
  have : 0 <= 2 * INR b * exp (- Natt) * V * (INR a + INR b * exp (- Natt) - 1).
    by apply: Rmult_le_pos; lra.
  by lra.
by lra.
Qed.

(* ---------------------------------------------------------------- chain error propagation *)

Section ChainPropagation.
Variable X : Type.
Variable d : X -> X -> R.
Hypothesis d_triangle : forall x y z, d x z <= d x y + d y z.
Variables (f g : nat -> X -> X) (x0 : X).

(* exact and realised trajectories from the same input *)
Fixpoint exact_chain l : X := match l with O => x0 | S k => f k (exact_chain k) end.
Fixpoint realised_chain l : X := match l with O => x0 | S k => g k (realised_chain k) end.

(* B l: the one-layer bound at the realised input; Lip l e: how far f l moves points at distance
   <= e from the realised input (both may depend on the realised input, as in the C++). *)
Variables (B : nat -> R) (Lip : nat -> R -> R).
Fixpoint chain_bound l : R := match l with O => 0 | S k => B k + Lip k (chain_bound k) end.

Theorem chain_error_propagation :
  (forall x, d x x = 0) ->
  (forall l, d (g l (realised_chain l)) (f l (realised_chain l)) <= B l) ->
  (forall l y e, d (realised_chain l) y <= e ->
     d (f l (realised_chain l)) (f l y) <= Lip l e) ->
  forall l, d (realised_chain l) (exact_chain l) <= chain_bound l.
Proof.
move=> d_refl one_layer lip; elim=> [|l IH] /=; first by rewrite d_refl; lra.
have := d_triangle (g l (realised_chain l)) (f l (realised_chain l)) (f l (exact_chain l)).
have := one_layer l; have := lip l (exact_chain l) (chain_bound l) IH.
by lra.
Qed.

End ChainPropagation.
