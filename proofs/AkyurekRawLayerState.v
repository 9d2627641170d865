(* AkyurekRawLayerState.v -- the hypotheses of the RAW unit assembly (AkyurekLayerAssembly.v:
   raw_add_unit_assembly, raw_hadamard_unit_assembly, raw_pad_unit_scale) that
   src/raw/layer_bounds.hpp:raw_layer_bound evaluates from the hidden state h, proved over Coq's
   R with the expressions the C++ evaluates (the names in brackets are the C++ locals), for the
   layer exactly as src/raw/raw_operator.hpp:build_raw_layer builds it and
   src/raw/decoder_layer.hpp runs it.

   In a RAW layer the LayerNorm input of token i is x = h_i + (attention outputs): the pattern
   head of each timestep map K writes, into the scratch rows t_n of each op o with that K, the
   causal softmax average of the values v_k = (Wa h_k[r])_n with logit Natt on k in K(i) and 0
   on the other k <= i (the position rows are one-hot: embed_state writes them, no head or unit
   writes them); the cleaning head writes, into each div scratch row r, the average of -h_k[r]
   with K(i) = {i}. No head writes the data rows, the position rows or the pads.

   The C++ evaluates the same expressions (src/raw/layer_bounds.hpp: raw_attention_errors,
   raw_ln_input_sq_bound, raw_layer_bound_terms say which theorem each implements).

   Main results:
   - pattern_head_deviation: the causal softmax output of such a head (any shift mx of the
     logits, as decoder_layer.hpp subtracts its largest logit) at token i (n = i + 1 <= T keys)
     is within 2 (T - 1) e^-Natt V of the mean of the values over K(i) (K(i) non-empty, every
     |v_k| <= V for k <= i): the C++ hard_attention_bound(Natt, T - 1, V), V the C++ mv (a max
     over all tokens and components, so it bounds every value the head averages) [e_att].
   - pattern_mean_linear: that mean of the values Wa h_k[r] is Wa times the mean of the h_k[r]
     over K(i), the exact read of raw_exact and of the C++ exact_read [reads].
   - cleaning_head_entry: a div scratch row's LayerNorm input entry, h_i[r] plus the cleaning
     head's output, is within 2 (T - 1) e^-Natt vrow of 0, vrow = max_k |h_k[r]| (the C++
     raw_ln_input_sq_bound's entry for r >= div_scratch0).
   - op_scratch_entry: an op scratch row's entry res + att, with att within e_att of the exact
     read, is at most |res| + |read| + e_att (raw_ln_input_sq_bound for an op's scratch row);
     every other non-pad entry is h_i[r] itself (|h_i[r]|).
   - raw_ln_input_sq_le: entrywise bounds |x_j| <= X_j off the pads give the squared-norm
     hypothesis of raw_pad_radicand with xn2 = sum_j X_j^2 (the C++ xn2).
   - raw_state_unit_scale: raw_pad_unit_scale with that xn2: the unit scale rho is within
     inv_sqrt_deviation(delta) of 1, delta = (xn2 + e L) / (2 Nln^2) + 2 p / Nln + p^2 / Nln^2
     (the C++ delta and rx).
   - pad_mean_le: the pads' mean pbar = (x_+ + x_-) / 2 that every unit subtracts is within p
     (the C++ pad_deviation) of 0 [the assembly's |pbar| <= p].
   - weighted_sum_abs_le: |sum_q W_nq h_i[s_q]| <= sum_q |W_nq| |h_i[s_q]| [Xs_n], the
     assembly's |wx_n| <= Xs_n (its |wsum_n| <= Ws_n is AkyurekLayerBounds.v:rsum_abs).
   What these do not cover: the floating-point rounding of the realised layer (the C++ rounding
   terms, a first-order model: the rounding part of raw_layer_bound_split; 0 on intervals).
   Dependencies: Coq Reals, Coquelicot, AkyurekBounds.v, AkyurekLayerBounds.v, LayerNorm.v,
   AkyurekLayerAssembly.v.
   Assumptions: the standard set of allowed_axioms.txt (classical reals; Interval's primitive
   floats through AkyurekLayerBounds.v). *)
From Coq Require Import Reals Lra Lia ssreflect.
From Coquelicot Require Import Coquelicot.
From ICLProof Require Import AkyurekBounds AkyurekLayerBounds LayerNorm AkyurekLayerAssembly.
Open Scope R_scope.

(* ------------------------------------------------------------------------ finite sums *)

Lemma rsum_split_pred (P : nat -> bool) (f g : nat -> R) (n : nat) :
  rsum (fun k => if P k then f k else g k) n =
  rsum (fun k => if P k then f k else 0) n + rsum (fun k => if P k then 0 else g k) n.
Proof.
rewrite -rsum_plus; apply: rsum_ext => k _.
by case: (P k); ring.
Qed.

Lemma rsum_comm (f : nat -> nat -> R) (n m : nat) :
  rsum (fun k => rsum (fun q => f k q) m) n = rsum (fun q => rsum (fun k => f k q) n) m.
Proof.
elim: n => [|n IH].
  by rewrite /=; elim: m => [|m IHm] /=; [done | rewrite -IHm; ring].
change (rsum (fun k => rsum (fun q => f k q) m) (S n))
  with (rsum (fun k => rsum (fun q => f k q) m) n + rsum (fun q => f n q) m).
rewrite IH -rsum_plus.
by apply: rsum_ext.
Qed.

Lemma rsum_abs_pred_le (P : nat -> bool) (f : nat -> R) (n : nat) (V : R) :
  (forall k, (k < n)%nat -> Rabs (f k) <= V) ->
  Rabs (rsum (fun k => if P k then f k else 0) n) <= V * rsum (fun k => if P k then 1 else 0) n.
Proof.
move=> fV.
have := rsum_abs (fun k => if P k then f k else 0) n.
have : rsum (fun k => Rabs (if P k then f k else 0)) n
       <= rsum (fun k => V * (if P k then 1 else 0)) n.
  apply: rsum_le => k k_lt; case: (P k); first by have := fV k k_lt; lra.
  by rewrite Rabs_R0; lra.
by rewrite rsum_scal; lra.
Qed.

Lemma rsum_pred_ge0 (P : nat -> bool) (n : nat) : 0 <= rsum (fun k => if P k then 1 else 0) n.
Proof. by apply: rsum_nonneg => k; case: (P k); lra. Qed.

(* ---------------------------------------------------------- the pattern attention head *)

Section PatternHead.
Variables (Natt mx : R) (n : nat) (inK : nat -> bool) (v : nat -> R).

(* The logit of key k <= i at query i: (W^Q h_i)^T (W^K h_k) = Natt [k in K(i)] for the pattern
   head (raw_operator.hpp:pattern_head) on one-hot position rows. *)
Definition pattern_logit (k : nat) : R := if inK k then Natt else 0.
Definition pattern_weight (k : nat) : R := exp (pattern_logit k - mx).
(* decoder_layer.hpp:attention_head_forward: sum_k (wgt_k / denom) V_k over k < n = i + 1. *)
Definition pattern_output : R :=
  rsum (fun k => pattern_weight k * v k) n / rsum pattern_weight n.
Definition pattern_count : R := rsum (fun k => if inK k then 1 else 0) n.
(* The uniform read over K(i) (a list of distinct tokens <= i; raw_operator.hpp:check_op_shapes). *)
Definition pattern_mean : R := rsum (fun k => if inK k then v k else 0) n / pattern_count.

Theorem pattern_head_deviation (T : nat) (V : R) :
  (n <= T)%nat -> (exists k0, (k0 < n)%nat /\ inK k0 = true) ->
  (forall k, (k < n)%nat -> Rabs (v k) <= V) ->
  Rabs (pattern_output - pattern_mean) <= 2 * INR (T - 1) * exp (- Natt) * V.
Proof.
move=> nT [k0 [k0_lt k0_in]] vV.
set E := exp Natt; set c := exp (- mx).
have E_pos : 0 < E by apply: exp_pos.
have c_pos : 0 < c by apply: exp_pos.
have V_ge0 : 0 <= V by have := vV k0 k0_lt; have := Rabs_pos (v k0); lra.
have w_eq k : pattern_weight k = c * (if inK k then E else 1).
  rewrite /pattern_weight /pattern_logit /E /c; case: (inK k).
    by rewrite /Rminus exp_plus Rmult_comm.
  by rewrite Rminus_0_l Rmult_1_r.
set a := pattern_count.
set b := rsum (fun k => if inK k then 0 else 1) n.
set Sin := rsum (fun k => if inK k then v k else 0) n.
set Sout := rsum (fun k => if inK k then 0 else v k) n.
have a_ge1 : 1 <= a.
  rewrite /a /pattern_count.
  have := rsum_pick (fun k => if inK k then 1 else 0) n k0 k0_lt; cbv beta; rewrite k0_in => ->.
  have : 0 <= rsum (fun j => if (j =? k0)%nat then 0 else if inK j then 1 else 0) n.
    by apply: rsum_nonneg => j; case: (j =? k0)%nat; case: (inK j); lra.
  by lra.
have b_ge0 : 0 <= b by apply: rsum_nonneg => j; case: (inK j); lra.
have ab : a + b = INR n.
  rewrite /a /b /pattern_count -rsum_plus -(Rmult_1_r (INR n)) -rsum_const.
  by apply: rsum_ext => k _; case: (inK k); ring.
have num : rsum (fun k => pattern_weight k * v k) n = c * (E * Sin + Sout).
  rewrite (rsum_ext _ (fun k => c * (E * (if inK k then v k else 0) + (if inK k then 0 else v k))));
    last by move=> k _; rewrite w_eq; case: (inK k); ring.
  by rewrite rsum_scal rsum_plus rsum_scal /Sin /Sout.
have den : rsum pattern_weight n = c * (E * a + b).
  rewrite (rsum_ext _ (fun k => c * (E * (if inK k then 1 else 0) + (if inK k then 0 else 1))));
    last by move=> k _; rewrite w_eq; case: (inK k); ring.
  by rewrite rsum_scal rsum_plus rsum_scal /a /b /pattern_count.
have Ea : E <= E * a + b by nra.
have in_le : Rabs Sin <= V * a by exact: rsum_abs_pred_le.
set m := pattern_mean.
have m_eq : m = Sin / a by [].
have m_le : Rabs m <= V.
  rewrite m_eq Rabs_div; last by lra.
  rewrite (Rabs_pos_eq a); last by lra.
  by apply/Rle_div_l; lra.
have out_le : Rabs (Sout - m * b) <= (2 * V) * b.
  have -> : Sout - m * b
            = rsum (fun k => (if inK k then 0 else v k) + (- m) * (if inK k then 0 else 1)) n.
    by rewrite rsum_plus rsum_scal /Sout /b; ring.
  rewrite (rsum_ext _ (fun k => if negb (inK k) then v k - m else 0)); last first.
    by move=> k _; case: (inK k) => /=; ring.
  have -> : b = rsum (fun k => if negb (inK k) then 1 else 0) n.
    by rewrite /b; apply: rsum_ext => k _; case: (inK k).
  apply: rsum_abs_pred_le => k k_lt.
  have := Rabs_triang (v k) (- m); rewrite Rabs_Ropp.
  by have := vV k k_lt; rewrite /Rminus; lra.
have diff : pattern_output - m = (Sout - m * b) / (E * a + b).
  rewrite /pattern_output num den m_eq.
  by field; repeat split; lra.
have b_le : b <= INR (T - 1).
  have n_ge1 : (1 <= n)%nat by lia.
  rewrite minus_INR; last by lia.
  have : INR n <= INR T by apply: le_INR.
  by rewrite /= in a_ge1 *; lra.
rewrite diff Rabs_div; last by lra.
rewrite (Rabs_pos_eq (E * a + b)); last by lra.
apply/Rle_div_l; first by lra.
have eE : exp (- Natt) * E = 1 by rewrite /E -exp_plus Rplus_opp_l exp_0.
have eN := exp_pos (- Natt).
(* 2 V b <= 2 (T-1) e^-Natt V E <= 2 (T-1) e^-Natt V (E a + b) *)
have step1 : 2 * V * b <= 2 * INR (T - 1) * exp (- Natt) * V * E.
  have -> : 2 * INR (T - 1) * exp (- Natt) * V * E = 2 * INR (T - 1) * V * (exp (- Natt) * E)
    by ring.
  by rewrite eE; nra.
have step2 : 2 * INR (T - 1) * exp (- Natt) * V * E
             <= 2 * INR (T - 1) * exp (- Natt) * V * (E * a + b).
  apply: Rmult_le_compat_l => //.
  have := pos_INR (T - 1); nra.
by lra.
Qed.

End PatternHead.

(* The head reads Wa h_k[r]: its mean over K(i) is Wa times the mean of the h_k[r], the exact
   read of raw_exact (Wa acc / |K(i)|) and of the C++ exact_read. *)
Theorem pattern_mean_linear (n nr : nat) (inK : nat -> bool) (Wa : nat -> R)
    (hr : nat -> nat -> R) :
  pattern_mean n inK (fun k => rsum (fun q => Wa q * hr q k) nr)
  = rsum (fun q => Wa q * pattern_mean n inK (hr q)) nr.
Proof.
rewrite /pattern_mean.
have -> : rsum (fun k => if inK k then rsum (fun q => Wa q * hr q k) nr else 0) n
          = rsum (fun k => rsum (fun q => Wa q * (if inK k then hr q k else 0)) nr) n.
  apply: rsum_ext => k _; case: (inK k) => //.
  rewrite (rsum_ext _ (fun _ => 0)); last by move=> q _; ring.
  by rewrite rsum_const; ring.
rewrite rsum_comm.
have -> : rsum (fun q => Wa q * (rsum (fun k => if inK k then hr q k else 0) n
                                  / pattern_count n inK)) nr
          = / pattern_count n inK
            * rsum (fun q => Wa q * rsum (fun k => if inK k then hr q k else 0) n) nr.
  by rewrite -rsum_scal; apply: rsum_ext => q _; rewrite /Rdiv; ring.
rewrite /Rdiv Rmult_comm; congr (_ * _).
by apply: rsum_ext => q _; rewrite rsum_scal.
Qed.

(* --------------------------------------------------------- the LayerNorm input's entries *)

Lemma rsum_single (f : nat -> R) (i : nat) :
  rsum (fun k => if (k =? i)%nat then f k else 0) (S i) = f i.
Proof.
change (rsum (fun k => if (k =? i)%nat then f k else 0) (S i))
  with (rsum (fun k => if (k =? i)%nat then f k else 0) i + (if (i =? i)%nat then f i else 0)).
rewrite Nat.eqb_refl (rsum_ext _ (fun _ => 0)); first by rewrite rsum_const; ring.
by move=> k k_lt; have -> : (k =? i)%nat = false by apply/Nat.eqb_neq; lia.
Qed.

(* A div scratch row r of a RAW layer: the cleaning head (raw_operator.hpp:cleaning_head, value
   -h_k[r], K(i) = {i}) cancels h_i[r] up to the attention deviation, vrow = max_k |h_k[r]|. *)
Theorem cleaning_head_entry (Natt mx vrow : R) (T i : nat) (hr : nat -> R) :
  (i < T)%nat -> (forall k, (k <= i)%nat -> Rabs (hr k) <= vrow) ->
  Rabs (hr i + pattern_output Natt mx (S i) (fun k => (k =? i)%nat) (fun k => - hr k))
    <= 2 * INR (T - 1) * exp (- Natt) * vrow.
Proof.
move=> iT hV.
have m_eq : pattern_mean (S i) (fun k => (k =? i)%nat) (fun k => - hr k) = - hr i.
  rewrite /pattern_mean /pattern_count rsum_single.
  rewrite (rsum_single (fun _ => 1)).
  by field.
have D := pattern_head_deviation Natt mx (S i) (fun k => (k =? i)%nat) (fun k => - hr k) T vrow.
rewrite m_eq in D.
have -> : hr i + pattern_output Natt mx (S i) (fun k => (k =? i)%nat) (fun k => - hr k)
          = pattern_output Natt mx (S i) (fun k => (k =? i)%nat) (fun k => - hr k) - - hr i.
  by ring.
apply: D; first by lia.
  by exists i; split; [lia | apply: Nat.eqb_refl].
by move=> k k_lt; rewrite Rabs_Ropp; apply: hV; lia.
Qed.

(* An op scratch row t_n: the residue res = h_i[t_n] plus the head's output att, within e_att of
   the exact read (pattern_head_deviation): the C++ |h_i[t_n]| + |read_n| + e_att. *)
Theorem op_scratch_entry (res att read e_att : R) :
  Rabs (att - read) <= e_att -> Rabs (res + att) <= Rabs res + Rabs read + e_att.
Proof.
move=> a_le.
have := Rabs_triang res att.
have := Rabs_triang (att - read) read.
have -> : att - read + read = att by ring.
by lra.
Qed.

(* Entrywise bounds off the pads bound the squared norm raw_pad_radicand takes (its xn2). *)
Theorem raw_ln_input_sq_le (x X : nat -> R) (L jp jm : nat) :
  (forall j, (j < L)%nat -> j <> jp -> j <> jm -> Rabs (x j) <= X j) ->
  rsum (fun j => if (j =? jp)%nat then 0 else if (j =? jm)%nat then 0 else x j ^ 2) L
    <= rsum (fun j => if (j =? jp)%nat then 0 else if (j =? jm)%nat then 0 else X j ^ 2) L.
Proof.
move=> xX; apply: rsum_le => j j_lt.
case: (Nat.eq_dec j jp) => [-> | jp_ne]; first by rewrite Nat.eqb_refl; lra.
have -> : (j =? jp)%nat = false by apply/Nat.eqb_neq.
case: (Nat.eq_dec j jm) => [-> | jm_ne]; first by rewrite Nat.eqb_refl; lra.
have -> : (j =? jm)%nat = false by apply/Nat.eqb_neq.
by apply: sq_le_of_abs; apply: xX.
Qed.

(* raw_pad_unit_scale with xn2 the sum of the squared entry bounds (the C++ xn2, delta, rx). *)
Theorem raw_state_unit_scale (x X : nat -> R) (L jp jm : nat) (Nln p e : R) :
  (jp < L)%nat -> (jm < L)%nat -> jp <> jm -> 0 < Nln -> 0 <= e -> p <= Nln ->
  Rabs (x jp - Nln) <= p -> Rabs (x jm + Nln) <= p ->
  (forall j, (j < L)%nat -> j <> jp -> j <> jm -> Rabs (x j) <= X j) ->
  let xn2 := rsum (fun j => if (j =? jp)%nat then 0 else if (j =? jm)%nat then 0 else X j ^ 2) L in
  let delta := (xn2 + e * INR L) / (2 * Nln ^ 2) + 2 * p / Nln + p ^ 2 / Nln ^ 2 in
  delta < 1 ->
  Rabs (sqrt (2 / INR L) * Nln / sqrt (ln_var x L + e) - 1)
    <= delta / (2 * (1 - delta) * sqrt (1 - delta)).
Proof.
move=> jp_lt jm_lt jpm Nln_pos e_ge0 pN p1 p2 xX xn2 delta d_lt1.
have S := raw_ln_input_sq_le x X L jp jm xX.
exact: (raw_pad_unit_scale x L jp jm Nln p e xn2 jp_lt jm_lt jpm Nln_pos e_ge0 pN p1 p2 S d_lt1).
Qed.

(* ------------------------------------------------------- the other assembly hypotheses *)

(* Every unit subtracts the pads' mean (mlp_builder::unit: -total/2 on each pad): within p. *)
Theorem pad_mean_le (xp xm Nln p : R) :
  Rabs (xp - Nln) <= p -> Rabs (xm + Nln) <= p -> Rabs ((xp + xm) / 2) <= p.
Proof.
move=> p1 p2.
have -> : (xp + xm) / 2 = ((xp - Nln) + (xm + Nln)) / 2 by field.
rewrite Rabs_div; last by lra.
rewrite (Rabs_pos_eq 2); last by lra.
by have := Rabs_triang (xp - Nln) (xm + Nln); lra.
Qed.

(* The current-token factor (W h_i[s])_n against the C++ Xs_n = sum_q |W_nq| |h_i[s_q]|. *)
Theorem weighted_sum_abs_le (W hs : nat -> R) (ns : nat) :
  Rabs (rsum (fun q => W q * hs q) ns) <= rsum (fun q => Rabs (W q) * Rabs (hs q)) ns.
Proof.
have := rsum_abs (fun q => W q * hs q) ns.
have : rsum (fun q => Rabs (W q * hs q)) ns <= rsum (fun q => Rabs (W q) * Rabs (hs q)) ns.
  by apply: rsum_le => q _; rewrite Rabs_mult; lra.
by lra.
Qed.
