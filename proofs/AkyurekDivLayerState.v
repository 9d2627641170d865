(* AkyurekDivLayerState.v -- the one-layer bound of the realised div layer (Lemma 8 / C.6 of
   Akyurek et al. 2023, with the rest of the hidden state in the LayerNorm) evaluated from the
   hidden state, over Coq's R: the C++ src/raw/layer_bounds.hpp:div_layer_exact_bound (the
   exact-real part of div_layer_bound) with the SAME expressions, for the layer exactly as
   src/raw/raw_operator.hpp:build_div_layer wires it and src/raw/decoder_layer.hpp runs it.

   The model of the realised layer (exact real arithmetic), for a hidden state h r t (row r,
   token t < Tn), the div scratch at rows P .. P + k + 1 + nr (L = P + (k + 2) + nr rows in
   all), pads jp, jm, read rows cr (c) and yr q (y), written rows wr q (q < k):
   - the one head (pattern_head with attend_self on one-hot position rows, which no layer
     writes and check_div_rows checks in h): logit Natt on the token itself and 0 on each of the t earlier tokens (causal,
     no null slot), so its output in a row with values v is self_head v t =
     (exp Natt v_t + sum_(j < t) v_j) / (exp Natt + t);
   - its values (Wv h_t): -h on the pads and the w rows (dl_cancelled, rows < P),
     -h + [N c, y/M, -N c - S/M, 0 ...] on the div scratch, 0 on every other row < P;
   - x = h + head output (W^F the identity), the LayerNorm input of the token;
   - unit q reads sqrt (2/L) M N (lambda_(P+1+q) - mean of lambda over rows P .. P + k + 1)
     (the W_in row of build_div_layer, Kd on P + 1 + q and -Kd / (k + 2) on the k + 2
     assembled rows, applied to the LayerNorm output: the contrast it is), adds Nb, applies
     the GeLU g, and writes x_(w_q) + g(.) - Nb to row w_q (W_out 1, b_out -Nb). Each w row
     is written by one unit: the C++ bound refuses repeated w rows (check_div_rows).
   The exact div writes y_q / |c| to row w_q and keeps every other row (div_exact).

   Main results:
   - self_head_deviation: |self_head v t - v_t| <= 2 (Tn - 1) exp(-Natt) V when every value
     v_j, j <= t < Tn, has |v_j| <= V (AkyurekLayerBounds.v:hard_attention_deviation with one
     target and t others; C++ hard_attention_bound(Natt, Tn - 1, V)).
   - div_state_value_bound: dl_vmax (the C++ vmax: max(max over tokens of the pads' |h| and of
     N |c| + |S|/M + ymax/M, then + the div scratch's max |h|, then max with wmax) bounds every
     value the head averages in a cancelled row and in the div scratch, at every token.
   - div_state_attention: the LayerNorm input's assembled entries are within e_att
     (= hard_attention_bound(Natt, Tn - 1, vmax)) of [N c, y/M, -N c - S/M], its other div
     scratch entries and cancelled rows within e_att of 0, its w rows within
     hard_attention_bound(Natt, Tn - 1, wmax) of 0.
   - div_state_rest2: the squared norm of the LayerNorm input's entries outside the assembled
     rows is at most rest2 = sum_(r < P) (cancelled r ? e_att : |h_r|)^2 + nr e_att^2 (the
     C++ rest2; div_radicand's hypothesis).
   - div_layer_state_unit: for every token t < Tn and q < k, with c <> 0, N, M > 0, e >= 0,
     the w rows below P, dl_delta t < 1 and the GeLU bypass hypothesis at dl_zmax,
       |out_(w_q, t) - y_q / |c|| <= rel z + (1 + rel) 2 M e_att / |c| + byp
                                       + hard_attention_bound(Natt, Tn - 1, wmax),
     rel = delta / (2 (1 - delta) sqrt (1 - delta)), z = |y_q| / |c|, delta =
     |S| / (Nc M) + (S S + |y|^2) / (2 Nc Nc M M) + (rest2 + e L + E) / (2 Nc Nc),
     Nc = N |c|, E = 4 e_att (Nc + |y|_1 / M) + (k + 2) e_att e_att: the C++ err of
     div_layer_exact_bound, term for term.
   - div_layer_state_unit_tanh, div_layer_state_unit_erf: the same with the GeLU bypass
     discharged, byp the C++ gelu_bypass_bound at Nb - zmax (tanh: needs Nb - zmax >= 1;
     erf: Nb - zmax > 0).
   - div_state_untouched: every row r < P that is neither a pad nor a w row reaches the
     LayerNorm input (and, with no unit writing it, the output) unchanged.
   Not modelled: floating-point rounding (the C++ div_layer_bound adds its first-order rounding
   model, not proved, in the floating-point modes; the interval mode checks the exact-real bound
   div_layer_exact_bound alone, its enclosures containing the exact computation).
   Dependencies: Coq Reals, Coquelicot, AkyurekBounds.v, AkyurekLayerBounds.v, LayerNorm.v, GeluErf.v,
   GeluErfTail.v, AkyurekLayerAssembly.v.
   Assumptions: the standard set of allowed_axioms.txt (classical reals; Interval's primitive
   floats through AkyurekLayerBounds.v). *)
From Coq Require Import Reals Lra Lia Bool ssreflect.
From Coquelicot Require Import Coquelicot.
From ICLProof Require Import AkyurekBounds AkyurekLayerBounds LayerNorm GeluErf GeluErfTail.
From ICLProof Require Import AkyurekLayerAssembly.
Open Scope R_scope.

(* -------------------------------------------- maxima as the C++ max_of loops take them *)

(* rmax_upto f n = max (0, f 0, ..., f (n - 1)): the C++ `T m(0); ... m = max_of(m, f j)`. *)
Fixpoint rmax_upto (f : nat -> R) (n : nat) : R :=
  match n with O => 0 | S m => Rmax (rmax_upto f m) (f m) end.

Lemma rmax_upto_ge0 (f : nat -> R) (n : nat) : 0 <= rmax_upto f n.
Proof. by elim: n => [|n IH] /=; [lra | apply: Rle_trans IH (Rmax_l _ _)]. Qed.

Lemma rmax_upto_ge (f : nat -> R) (n j : nat) : (j < n)%nat -> f j <= rmax_upto f n.
Proof.
elim: n => [|n IH] j_lt; first by lia.
rewrite /=; case: (Nat.eq_dec j n) => [-> | ne]; first by apply: Rmax_r.
by apply: Rle_trans (Rmax_l _ _); apply: IH; lia.
Qed.

(* r is one of the rows w 0 .. w (n - 1) *)
Fixpoint in_rows (w : nat -> nat) (n r : nat) : bool :=
  match n with O => false | S m => in_rows w m r || (w m =? r)%nat end.

Lemma in_rows_at (w : nat -> nat) (n q : nat) : (q < n)%nat -> in_rows w n (w q) = true.
Proof.
elim: n => [|n IH] q_lt; first by lia.
rewrite /=; case: (Nat.eq_dec q n) => [-> | ne]; first by rewrite Nat.eqb_refl orb_true_r.
by rewrite IH //; lia.
Qed.

Lemma in_rows_spec (w : nat -> nat) (n r : nat) :
  in_rows w n r = true -> exists q, (q < n)%nat /\ w q = r.
Proof.
elim: n => [|n IH] //= /orb_true_iff [/IH [q [q_lt wq]] | /Nat.eqb_eq wn].
  by exists q; split => //; lia.
by exists n; split => //; lia.
Qed.

(* ------------------------------------------------------------------ the self head *)

Section SelfHead.
Variable Natt : R.

(* The head's output in one row at token t, the row's values being v 0 .. v t. *)
Definition self_head (v : nat -> R) (t : nat) : R :=
  (exp Natt * v t + rsum v t) / (exp Natt + INR t).

Theorem self_head_deviation (v : nat -> R) (t Tn : nat) (V : R) :
  (t < Tn)%nat -> (forall j, (j <= t)%nat -> Rabs (v j) <= V) ->
  Rabs (self_head v t - v t) <= 2 * INR (Tn - 1) * exp (- Natt) * V.
Proof.
move=> t_lt vV.
have H := hard_attention_deviation Natt 1 t (fun _ => v t) v V (le_n 1)
            (fun i _ => vV t (le_n t)) (fun j j_lt => vV j ltac:(lia)).
cbv zeta in H; case: H => _ dev.
have e1 : (exp Natt * rsum (fun _ => v t) 1 + rsum v t) / (exp Natt * INR 1 + INR t) =
          self_head v t by rewrite /self_head /=; congr (_ / _); ring.
have e2 : rsum (fun _ => v t) 1 / INR 1 = v t by rewrite /=; field.
rewrite e1 e2 in dev.
have V0 : 0 <= V by have := vV t (le_n t); have := Rabs_pos (v t); lra.
have tT : INR t <= INR (Tn - 1) by apply: le_INR; lia.
have E0 := exp_pos (- Natt).
apply: Rle_trans dev _.
have : 0 <= (INR (Tn - 1) - INR t) * (2 * exp (- Natt) * V).
  by apply: Rmult_le_pos; [lra | apply: Rmult_le_pos; lra].
by lra.
Qed.

End SelfHead.

(* ------------------------------------------------------- the realised div layer *)

Section DivLayerState.
Variables (P k nr Tn : nat) (h : nat -> nat -> R) (jp jm cr : nat) (yr wr : nat -> nat)
          (N M e Natt Nb : R).

Definition dl_L : nat := div_L P nr k.
Definition dl_c (t : nat) : R := h cr t.
Definition dl_y (t : nat) (q : nat) : R := h (yr q) t.
Definition dl_S (t : nat) : R := ln_div_S k (dl_y t).
(* the entries the head assembles on the div scratch: [N c, y/M, -N c - S/M, 0, ...] *)
Definition dl_assembled (t j : nat) : R := ln_div_input k N (dl_c t) M (dl_y t) j.
(* the rows whose content the head cancels: the pads and the written rows *)
Definition dl_cancelled (r : nat) : bool := (r =? jp)%nat || (r =? jm)%nat || in_rows wr k r.

(* the head's value in row r at token t (Wv h_t of build_div_layer) *)
Definition dl_value (r t : nat) : R :=
  if (r <? P)%nat then (if dl_cancelled r then - h r t else 0)
  else - h r t + dl_assembled t (r - P).

(* the LayerNorm input at token t: x = h + the head's output *)
Definition dl_x (t r : nat) : R := h r t + self_head Natt (dl_value r) t.

(* unit q's read of the LayerNorm output, and the row it writes *)
Definition dl_contrast (t q : nat) : R :=
  sqrt (2 / INR dl_L) * M * N *
  (layer_norm (dl_x t) dl_L e (P + S q)
   - rsum (fun j => layer_norm (dl_x t) dl_L e (P + j)) (k + 2) / INR (k + 2)).
Definition dl_out (g : R -> R) (t q : nat) : R := dl_x t (wr q) + g (Nb + dl_contrast t q) - Nb.

(* The C++ div_layer_exact_bound, expression for expression (locals in brackets). *)
Definition dl_pad_max : R := rmax_upto (fun t => Rmax (Rabs (h jp t)) (Rabs (h jm t))) Tn.
Definition dl_ymax (t : nat) : R := rmax_upto (fun q => Rabs (dl_y t q)) k.
Definition dl_assembled_max : R :=
  rmax_upto (fun t => N * Rabs (dl_c t) + Rabs (dl_S t) / M + dl_ymax t / M) Tn.
Definition dl_scratch_max : R :=                                      (* [scratch_max] *)
  rmax_upto (fun t => rmax_upto (fun j => Rabs (h (P + j)%nat t)) (k + 2 + nr)) Tn.
Definition dl_wmax : R := rmax_upto (fun q => rmax_upto (fun t => Rabs (h (wr q) t)) Tn) k.
Definition dl_vmax : R :=                                                    (* [vmax] *)
  Rmax (Rmax dl_pad_max dl_assembled_max + dl_scratch_max) dl_wmax.
Definition dl_hard (V : R) : R := 2 * INR (Tn - 1) * exp (- Natt) * V. (* hard_attention_bound *)
Definition dl_e_att : R := dl_hard dl_vmax.                                  (* [e_att] *)
Definition dl_rest2 (t : nat) : R :=                                          (* [rest2] *)
  rsum (fun r => (if dl_cancelled r then dl_e_att else Rabs (h r t)) ^ 2) P
  + INR nr * dl_e_att ^ 2.
Definition dl_Nc (t : nat) : R := N * Rabs (dl_c t).                            (* [Nc] *)
Definition dl_E (t : nat) : R :=                                                 (* [E] *)
  4 * dl_e_att * (dl_Nc t + div_Y1 k (dl_y t) / M) + INR (k + 2) * dl_e_att * dl_e_att.
Definition dl_delta (t : nat) : R :=                                         (* [delta] *)
  Rabs (dl_S t) / (dl_Nc t * M)
  + (dl_S t * dl_S t + ln_div_Q k (dl_y t)) / (2 * dl_Nc t * dl_Nc t * M * M)
  + (dl_rest2 t + e * INR dl_L + dl_E t) / (2 * dl_Nc t * dl_Nc t).
Definition dl_rel (t : nat) : R :=                           (* [rel]: inv_sqrt_deviation *)
  dl_delta t / (2 * (1 - dl_delta t) * sqrt (1 - dl_delta t)).
Definition dl_z (t q : nat) : R := Rabs (dl_y t q) / Rabs (dl_c t).               (* [z] *)
Definition dl_zmax (t q : nat) : R :=                                         (* [zmax] *)
  (1 + dl_rel t) * (dl_z t q + 2 * M * dl_e_att / Rabs (dl_c t)).
Definition dl_err (byp : R) (t q : nat) : R :=                    (* [err], byp the bypass *)
  dl_rel t * dl_z t q + (1 + dl_rel t) * 2 * M * dl_e_att / Rabs (dl_c t) + byp
  + dl_hard dl_wmax.

Lemma dl_assembled_abs (t j : nat) :
  0 <= N -> 0 < M ->
  Rabs (dl_assembled t j) <= N * Rabs (dl_c t) + Rabs (dl_S t) / M + dl_ymax t / M.
Proof.
move=> N0 M0.
have yq : forall q, (q < k)%nat -> Rabs (dl_y t q) / M <= dl_ymax t / M.
  move=> q q_lt; apply: Rmult_le_compat_r; first by apply/Rlt_le/Rinv_0_lt_compat.
  exact: (rmax_upto_ge (fun q => Rabs (dl_y t q))).
have a0 : 0 <= Rabs (dl_S t) / M by apply: Rdiv_le_0_compat; [apply: Rabs_pos | lra].
have a1 : 0 <= dl_ymax t / M by apply: Rdiv_le_0_compat; [apply: rmax_upto_ge0 | lra].
have a2 : 0 <= N * Rabs (dl_c t) by apply: Rmult_le_pos => //; apply: Rabs_pos.
have Nc : Rabs (N * dl_c t) = N * Rabs (dl_c t) by rewrite Rabs_mult Rabs_pos_eq.
have SM : Rabs (dl_S t / M) = Rabs (dl_S t) / M.
  by rewrite Rabs_div; [rewrite (Rabs_pos_eq M) //; lra | lra].
rewrite /dl_assembled /ln_div_input -/(dl_S t).
case: j => [| i]; first by rewrite Nc; lra.
case: (Nat.ltb_spec i k) => [i_lt | i_ge].
  have := yq i i_lt; rewrite Rabs_div; last by lra.
  by rewrite (Rabs_pos_eq M); lra.
case: (Nat.eqb_spec i k) => _; last by rewrite Rabs_R0; lra.
have := Rabs_triang (- (N * dl_c t)) (- (dl_S t / M)); rewrite !Rabs_Ropp Nc SM.
have -> : - (N * dl_c t) + - (dl_S t / M) = - (N * dl_c t) - dl_S t / M by ring.
by lra.
Qed.

(* vmax bounds every value the head averages in a cancelled row and on the div scratch. *)
Theorem div_state_value_bound (r t : nat) :
  0 <= N -> 0 < M -> (t < Tn)%nat ->
  ((r < P)%nat /\ dl_cancelled r = true \/ (P <= r < P + (k + 2 + nr))%nat) ->
  Rabs (dl_value r t) <= dl_vmax.
Proof.
move=> N0 M0 t_lt r_in.
have sc0 : 0 <= dl_scratch_max by apply: rmax_upto_ge0.
have pad_le : dl_pad_max <= dl_vmax.
  have := Rmax_l dl_pad_max dl_assembled_max.
  have := Rmax_l (Rmax dl_pad_max dl_assembled_max + dl_scratch_max) dl_wmax.
  by rewrite /dl_vmax; lra.
case: r_in => [[r_lt canc] | [r_ge r_lt]].
  rewrite /dl_value; have -> : (r <? P)%nat = true by apply/Nat.ltb_lt.
  rewrite canc Rabs_Ropp.
  move: canc; rewrite /dl_cancelled => /orb_true_iff [/orb_true_iff [/Nat.eqb_eq -> | /Nat.eqb_eq ->] | inw].
  - apply: Rle_trans pad_le; apply: Rle_trans (Rmax_l _ (Rabs (h jm t))) _.
    exact: (rmax_upto_ge (fun t => Rmax (Rabs (h jp t)) (Rabs (h jm t)))).
  - apply: Rle_trans pad_le; apply: Rle_trans (Rmax_r (Rabs (h jp t)) _) _.
    exact: (rmax_upto_ge (fun t => Rmax (Rabs (h jp t)) (Rabs (h jm t)))).
  - have [q [q_lt <-]] := in_rows_spec wr k r inw.
    apply: Rle_trans (Rmax_r _ _).
    apply: Rle_trans (rmax_upto_ge (fun q => rmax_upto (fun t => Rabs (h (wr q) t)) Tn) k q q_lt).
    exact: (rmax_upto_ge (fun t => Rabs (h (wr q) t))).
rewrite /dl_value; have -> : (r <? P)%nat = false by apply/Nat.ltb_ge.
have hs : Rabs (h r t) <= dl_scratch_max.
  have r_eq : r = (P + (r - P))%nat by lia.
  have h1 : Rabs (h (P + (r - P))%nat t)
            <= rmax_upto (fun j => Rabs (h (P + j)%nat t)) (k + 2 + nr).
    by apply: (rmax_upto_ge (fun j => Rabs (h (P + j)%nat t))); lia.
  have h2 := rmax_upto_ge
    (fun t => rmax_upto (fun j => Rabs (h (P + j)%nat t)) (k + 2 + nr)) Tn t t_lt.
  by rewrite /dl_scratch_max r_eq; cbv beta in h2; lra.
have am : Rabs (dl_assembled t (r - P)) <= dl_assembled_max.
  apply: Rle_trans (dl_assembled_abs t (r - P) N0 M0) _.
  exact: (rmax_upto_ge (fun t => N * Rabs (dl_c t) + Rabs (dl_S t) / M + dl_ymax t / M)).
have := Rabs_triang (- h r t) (dl_assembled t (r - P)); rewrite Rabs_Ropp.
have := Rmax_r dl_pad_max dl_assembled_max.
have := Rmax_l (Rmax dl_pad_max dl_assembled_max + dl_scratch_max) dl_wmax.
by rewrite /dl_vmax; lra.
Qed.

Lemma dl_vmax_ge0 : 0 <= dl_vmax.
Proof. by apply: Rle_trans (Rmax_r _ _); apply: rmax_upto_ge0. Qed.

Lemma dl_hard_ge0 (V : R) : 0 <= V -> 0 <= dl_hard V.
Proof.
move=> V0; rewrite /dl_hard; apply: Rmult_le_pos => //.
by apply: Rmult_le_pos; [have := pos_INR (Tn - 1); lra | apply/Rlt_le/exp_pos].
Qed.

(* The head's output moves each row it touches by at most e_att from the value it cancels or
   assembles; the w rows by at most hard_attention_bound(wmax). *)
Theorem div_state_attention (r t : nat) :
  0 <= N -> 0 < M -> (t < Tn)%nat ->
  ((r < P)%nat /\ dl_cancelled r = true -> Rabs (dl_x t r) <= dl_e_att) /\
  ((P <= r < P + (k + 2 + nr))%nat ->
     Rabs (dl_x t r - dl_assembled t (r - P)) <= dl_e_att).
Proof.
move=> N0 M0 t_lt.
have dev : forall r, ((r < P)%nat /\ dl_cancelled r = true \/ (P <= r < P + (k + 2 + nr))%nat) ->
    Rabs (self_head Natt (dl_value r) t - dl_value r t) <= dl_e_att.
  move=> r' r_in; apply: self_head_deviation => // j j_le.
  by apply: div_state_value_bound => //; lia.
split=> [[r_lt canc] | r_in].
  have := dev r (or_introl (conj r_lt canc)).
  rewrite /dl_x /dl_value; have -> : (r <? P)%nat = true by apply/Nat.ltb_lt.
  by rewrite canc; have -> : h r t + self_head Natt (fun t => - h r t) t =
                              self_head Natt (fun t => - h r t) t - - h r t by ring.
have := dev r (or_intror r_in).
have -> : dl_value r t = - h r t + dl_assembled t (r - P).
  by rewrite /dl_value; have -> : (r <? P)%nat = false by apply/Nat.ltb_ge; lia.
rewrite /dl_x.
by have -> : h r t + self_head Natt (dl_value r) t - dl_assembled t (r - P) =
             self_head Natt (dl_value r) t - (- h r t + dl_assembled t (r - P)) by ring.
Qed.

Theorem div_state_untouched (r t : nat) :
  (r < P)%nat -> dl_cancelled r = false -> dl_x t r = h r t.
Proof.
move=> r_lt canc.
rewrite /dl_x /self_head.
rewrite (rsum_ext (dl_value r) (fun _ => 0)); last first.
  move=> j _; rewrite /dl_value; have -> : (r <? P)%nat = true by apply/Nat.ltb_lt.
  by rewrite canc.
rewrite rsum_zero /dl_value; have -> : (r <? P)%nat = true by apply/Nat.ltb_lt.
by rewrite canc Rmult_0_r Rplus_0_l /Rdiv Rmult_0_l Rplus_0_r.
Qed.

(* The LayerNorm input's entries outside the assembled rows: squared norm <= rest2. *)
Theorem div_state_rest2 (t : nat) :
  0 <= N -> 0 < M -> (t < Tn)%nat ->
  rsum (fun j => dl_x t j ^ 2) P + rsum (fun j => dl_x t (P + (k + 2) + j)%nat ^ 2) nr
  <= dl_rest2 t.
Proof.
move=> N0 M0 t_lt.
have ea0 : 0 <= dl_e_att by apply: dl_hard_ge0; apply: dl_vmax_ge0.
have A := div_state_attention _ t N0 M0 t_lt.
have first : rsum (fun j => dl_x t j ^ 2) P <=
             rsum (fun r => (if dl_cancelled r then dl_e_att else Rabs (h r t)) ^ 2) P.
  apply: rsum_le => r r_lt.
  case canc : (dl_cancelled r).
    by apply: sq_le_of_abs; apply: (proj1 (A r)).
  by rewrite div_state_untouched // pow2_abs; lra.
have second : rsum (fun j => dl_x t (P + (k + 2) + j)%nat ^ 2) nr <= INR nr * dl_e_att ^ 2.
  rewrite -rsum_const; apply: rsum_le => j j_lt.
  apply: sq_le_of_abs.
  have := proj2 (A (P + (k + 2) + j)%nat) ltac:(lia).
  have -> : (P + (k + 2) + j - P)%nat = S (S (k + j)) by lia.
  by rewrite /dl_assembled ln_div_input_pad Rminus_0_r.
by rewrite /dl_rest2; lra.
Qed.

(* The whole unit: the C++ err of div_layer_exact_bound bounds the realised written row. *)
Theorem div_layer_state_unit (g : R -> R) (byp : R) (t q : nat) :
  0 < N -> 0 < M -> 0 <= e -> (t < Tn)%nat -> (q < k)%nat ->
  (forall q', (q' < k)%nat -> (wr q' < P)%nat) ->
  dl_c t <> 0 -> dl_delta t < 1 ->
  (forall z, Rabs (z - Nb) <= dl_zmax t q -> Rabs (g z - z) <= byp) ->
  Rabs (dl_out g t q - dl_y t q / Rabs (dl_c t)) <= dl_err byp t q.
Proof.
move=> N_pos M_pos e0 t_lt q_lt w_lt c_neq0 d_lt1 byp_le.
have N0 : 0 <= N by lra.
have M_neq0 : M <> 0 by lra.
set c := dl_c t; set y := dl_y t; set x := dl_x t; set ea := dl_e_att.
have ac : 0 < Rabs c by apply: Rabs_pos_lt.
have ea0 : 0 <= ea by apply: dl_hard_ge0; apply: dl_vmax_ge0.
have A := div_state_attention _ t N0 M_pos t_lt.
(* the radicand *)
have dev : forall j, (j < k + 2)%nat -> Rabs (x (P + j)%nat - div_a k y N c M j) <= ea.
  move=> j j_lt; have := proj2 (A (P + j)%nat) ltac:(lia).
  by have -> : (P + j - P)%nat = j by lia.
have R := div_radicand P nr k x y N c M e ea (dl_rest2 t) N_pos c_neq0 M_pos e0 ea0 dev
            (div_state_rest2 t N0 M_pos t_lt).
have NcK : (N * c) ^ 2 = (N * Rabs c) ^ 2.
  by rewrite !Rpow_mult_distr pow2_abs.
have Kpos : 0 < N * Rabs c by apply: Rmult_lt_0_compat.
have delta_eq : Rabs (ln_div_S k y) / (N * Rabs c * M)
                + (ln_div_S k y ^ 2 + ln_div_Q k y) / (2 * (N * c) ^ 2 * M ^ 2)
                + (dl_rest2 t + e * INR (div_L P nr k) + div_E k y N c M ea) / (2 * (N * c) ^ 2)
                = dl_delta t.
  rewrite /dl_delta /dl_E /dl_Nc /div_E /dl_S -/c -/y -/ea /dl_L NcK.
  by field; repeat split; lra.
rewrite delta_eq in R.
(* the unit scale *)
set L := dl_L.
have L_pos : (0 < L)%nat by rewrite /L /dl_L /div_L; lia.
have LR : 0 < INR L by apply: lt_0_INR.
have K2 : 0 < 2 * (N * Rabs c) ^ 2 by have := pow_lt _ 2 Kpos; lra.
have ve : 0 < ln_var x L + e.
  have lo : 1 - dl_delta t <= INR L * (ln_var x L + e) / (2 * (N * Rabs c) ^ 2).
    by move: R; rewrite -NcK /L /dl_L /Rabs; case: Rcase_abs; lra.
  have : 0 < INR L * (ln_var x L + e) / (2 * (N * Rabs c) ^ 2) by lra.
  move=> pos; have : 0 < INR L * (ln_var x L + e).
    have := Rdiv_lt_0_compat _ _ pos K2 => _.
    by move: pos; rewrite /Rdiv => pos; apply: (Rmult_lt_reg_r (/ (2 * (N * Rabs c) ^ 2)));
      [apply: Rinv_0_lt_compat | lra].
  by move=> hpos; apply: (Rmult_lt_reg_l (INR L)) => //; lra.
have R' : Rabs (INR L * (ln_var x L + e) / (2 * (N * Rabs c) ^ 2) - 1) <= dl_delta t.
  by rewrite -NcK.
have Sc := ln_unit_scale_deviation L (N * Rabs c) (ln_var x L + e) (dl_delta t) L_pos Kpos ve R'
             d_lt1.
set rho := sqrt (2 / INR L) * (N * Rabs c) / sqrt (ln_var x L + e).
(* the contrast the unit reads *)
set d := (x (P + S q)%nat - div_a k y N c M (S q))
         - rsum (fun j => x (P + j)%nat - div_a k y N c M j) (k + 2) / INR (k + 2).
have K2n : 0 < INR (k + 2) by apply: lt_0_INR; lia.
have d_le : Rabs d <= 2 * ea.
  have d1 := dev (S q) ltac:(lia).
  have d2 : Rabs (rsum (fun j => x (P + j)%nat - div_a k y N c M j) (k + 2)) <= INR (k + 2) * ea.
    by apply: rsum_abs_le.
  have d3 : Rabs (rsum (fun j => x (P + j)%nat - div_a k y N c M j) (k + 2) / INR (k + 2)) <= ea.
    rewrite Rabs_div; last by lra.
    rewrite (Rabs_pos_eq (INR _)); last by lra.
    by apply/Rle_div_l => //; lra.
  have := Rabs_triang (x (P + S q)%nat - div_a k y N c M (S q))
            (- (rsum (fun j => x (P + j)%nat - div_a k y N c M j) (k + 2) / INR (k + 2))).
  have -> : x (P + S q)%nat - div_a k y N c M (S q)
            + - (rsum (fun j => x (P + j)%nat - div_a k y N c M j) (k + 2) / INR (k + 2)) = d.
    by rewrite /d; ring.
  by rewrite Rabs_Ropp; lra.
have sv : 0 < sqrt (ln_var x L + e) by apply: sqrt_lt_R0.
have sL : 0 < sqrt (2 / INR L) by apply/sqrt_lt_R0/Rdiv_lt_0_compat; lra.
have contrast : dl_contrast t q = rho * (y q / Rabs c + M / Rabs c * d).
  rewrite /dl_contrast -/L -/x /layer_norm /ln_centred.
  set s := sqrt (ln_var x L + e); set m := ln_mean x L.
  have -> : rsum (fun j => (x (P + j)%nat - m) / s) (k + 2) =
            / s * rsum (fun j => x (P + j)%nat - div_a k y N c M j) (k + 2)
            + / s * rsum (div_a k y N c M) (k + 2) + (- m / s) * rsum (fun _ => 1) (k + 2).
    rewrite -!rsum_scal -!rsum_plus; apply: rsum_ext => j _; rewrite /Rdiv; ring.
  rewrite /div_a (ln_div_head_sum k N c M y M_neq0) rsum_const.
  rewrite /d /div_a ln_div_input_data // /rho -/s.
  have s0 : s <> 0 by rewrite /s; lra.
  by field; repeat split; lra.
(* the written row's old content *)
have xw_le : Rabs (x (wr q)) <= dl_hard dl_wmax.
  have wq := w_lt q q_lt.
  have := self_head_deviation Natt (dl_value (wr q)) t Tn dl_wmax t_lt.
  have vw : forall j, dl_value (wr q) j = - h (wr q) j.
    move=> j; rewrite /dl_value; have -> : (wr q <? P)%nat = true by apply/Nat.ltb_lt.
    by rewrite /dl_cancelled in_rows_at // !orb_true_r.
  have hw : forall j, (j <= t)%nat -> Rabs (dl_value (wr q) j) <= dl_wmax.
    move=> j j_le; rewrite vw Rabs_Ropp.
    apply: Rle_trans (rmax_upto_ge (fun q => rmax_upto (fun t => Rabs (h (wr q) t)) Tn) k q q_lt).
    by apply: (rmax_upto_ge (fun t => Rabs (h (wr q) t))); lia.
  move=> /(_ hw); rewrite vw /x /dl_x.
  by have -> : self_head Natt (dl_value (wr q)) t - - h (wr q) t =
               h (wr q) t + self_head Natt (dl_value (wr q)) t by ring.
(* the unit assembly *)
have Mc0 : 0 <= M / Rabs c by apply: Rdiv_le_0_compat; lra.
have zabs : Rabs (y q / Rabs c) = dl_z t q.
  by rewrite Rabs_div; [rewrite Rabs_Rabsolu | lra].
have zmax_eq : (1 + dl_rel t) * (Rabs (y q / Rabs c) + 2 * (M / Rabs c) * ea) = dl_zmax t q.
  by rewrite zabs /dl_zmax -/ea -/c; field; lra.
have byp' : forall z, Rabs (z - Nb) <= (1 + dl_rel t) * (Rabs (y q / Rabs c) + 2 * (M / Rabs c) * ea) ->
            Rabs (g z - z) <= byp by move=> z; rewrite zmax_eq; apply: byp_le.
have U := div_unit_assembly g (y q / Rabs c) rho (dl_rel t) (M / Rabs c) d ea (x (wr q))
            (dl_hard dl_wmax) Nb byp Sc d_le xw_le Mc0 byp'.
cbv zeta in U.
have -> : dl_out g t q = x (wr q) + g (Nb + rho * (y q / Rabs c + M / Rabs c * d)) - Nb.
  by rewrite /dl_out contrast.
apply: Rle_trans U _.
rewrite zabs /dl_err -/ea -/c.
have -> : (1 + dl_rel t) * (2 * (M / Rabs c) * ea) = (1 + dl_rel t) * 2 * M * ea / Rabs c.
  by field; lra.
by lra.
Qed.

(* The bypass discharged: the tanh form at t = Nb - zmax >= 1, the erf form at Nb - zmax > 0,
   byp the C++ gelu_bypass_bound there. *)
Corollary div_layer_state_unit_tanh (t q : nat) :
  0 < N -> 0 < M -> 0 <= e -> (t < Tn)%nat -> (q < k)%nat ->
  (forall q', (q' < k)%nat -> (wr q' < P)%nat) ->
  dl_c t <> 0 -> dl_delta t < 1 -> 1 <= Nb - dl_zmax t q ->
  Rabs (dl_out gelu_tanh t q - dl_y t q / Rabs (dl_c t))
    <= dl_err ((Nb - dl_zmax t q) * exp (-2 * gelu_arg (Nb - dl_zmax t q))) t q.
Proof.
move=> N_pos M_pos e0 t_lt q_lt w_lt c_neq0 d_lt1 t_ge1.
apply: div_layer_state_unit => //.
exact: gelu_tanh_bypass_at_floor.
Qed.

Corollary div_layer_state_unit_erf (t q : nat) :
  0 < N -> 0 < M -> 0 <= e -> (t < Tn)%nat -> (q < k)%nat ->
  (forall q', (q' < k)%nat -> (wr q' < P)%nat) ->
  dl_c t <> 0 -> dl_delta t < 1 -> 0 < Nb - dl_zmax t q ->
  Rabs (dl_out gelu_erf t q - dl_y t q / Rabs (dl_c t))
    <= dl_err (exp (- ((Nb - dl_zmax t q) * (Nb - dl_zmax t q)) / 2) / sqrt (2 * PI)) t q.
Proof.
move=> N_pos M_pos e0 t_lt q_lt w_lt c_neq0 d_lt1 t_pos.
apply: div_layer_state_unit => //.
exact: gelu_erf_bypass_at_floor_proved.
Qed.

End DivLayerState.
