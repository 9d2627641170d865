(* statements/akyurek_check.v -- Coq checks that the project's theorems prove the claims of
   statements/akyurek.v: one check_<p> per claim_<p>.  The bridges between the statement file's
   plain objects (sum_first, layer_norm, the inputs, the stdlib-tanh GeLU, the Riemann-integral
   erf, softmax_average) and the project's (rsum, LayerNorm.layer_norm, ln_div_input,
   AkyurekBounds.gelu_tanh, GeluErf.erf with Coquelicot's RInt, ...) are proved here. *)
From Coq Require Import Reals Lra Lia.
From Coquelicot Require Import Coquelicot.
From mathcomp Require Import ssreflect ssrbool eqtype ssrnat.
From ICLProof Require Import AkyurekBounds AkyurekLayerBounds LayerNorm GeluErf GaussianIntegral.
From ICLProof Require Import GeluErfTail AkyurekLayerAssembly.
Require ICLProof.statements.akyurek.

Local Open Scope R_scope.

(* ------------------------------------------------------------------- sums, LayerNorm *)

Lemma sum_first_rsum (f : nat -> R) (n : nat) : akyurek.sum_first f n = rsum f n.
Proof. by elim: n => //= n ->. Qed.

Lemma rsum_ext_all (f g : nat -> R) (n : nat) : (forall j, f j = g j) -> rsum f n = rsum g n.
Proof. by move=> fg; apply: rsum_ext => j _. Qed.

Lemma ln_centred_bridge {v w : nat -> R} (L j : nat) :
  (forall j, v j = w j) -> akyurek.ln_centred v L j = ln_centred w L j.
Proof.
move=> vw; rewrite /akyurek.ln_centred /ln_centred /akyurek.ln_mean /ln_mean.
by rewrite sum_first_rsum (rsum_ext_all v w) // vw.
Qed.

Lemma ln_var_bridge {v w : nat -> R} (L : nat) :
  (forall j, v j = w j) -> akyurek.ln_var v L = ln_var w L.
Proof.
move=> vw; rewrite /akyurek.ln_var /ln_var sum_first_rsum.
by congr (_ / _); apply: rsum_ext_all => j; rewrite (ln_centred_bridge L j vw).
Qed.

Lemma layer_norm_bridge {v w : nat -> R} (L : nat) (e : R) (j : nat) :
  (forall j, v j = w j) -> akyurek.layer_norm v L e j = layer_norm w L e j.
Proof.
by move=> vw; rewrite /akyurek.layer_norm /layer_norm (ln_centred_bridge L j vw) (ln_var_bridge L vw).
Qed.

Lemma layer_norm_squared_bridge {v w : nat -> R} (L : nat) (e : R) (j : nat) :
  (forall j, v j = w j) -> akyurek.layer_norm_squared v L e j = layer_norm_squared w L e j.
Proof.
move=> vw; rewrite /akyurek.layer_norm_squared /layer_norm_squared.
by rewrite (ln_centred_bridge L j vw) (ln_var_bridge L vw).
Qed.

Lemma ltb_bridge (i k : nat) : (i <? k)%nat = (i < k)%N.
Proof. by case: ltP => [/Nat.ltb_lt | /Nat.ltb_nlt]. Qed.

Lemma eqb_bridge (i k : nat) : (i =? k)%nat = (i == k).
Proof. by case: eqP => [/Nat.eqb_eq | /Nat.eqb_neq]. Qed.

Lemma division_input_bridge (k : nat) (N c M : R) (y : nat -> R) (j : nat) :
  akyurek.ln_division_input k N c M y j = ln_div_input k N c M y j.
Proof. by case: j => //= i; rewrite ltb_bridge eqb_bridge sum_first_rsum. Qed.

Lemma bypass_input_bridge (k : nat) (N : R) (x : nat -> R) (j : nat) :
  akyurek.ln_bypass_input k N x j = ln_div_input k N 1 1 x j.
Proof.
case: j => [|i] /=; first by rewrite Rmult_1_r.
rewrite ltb_bridge eqb_bridge sum_first_rsum /ln_div_S.
by case: (i < k)%N; case: (i == k); rewrite // /Rdiv Rinv_1 !Rmult_1_r.
Qed.

Lemma division_den2_bridge (k p : nat) (N c M e : R) (y : nat -> R) :
  akyurek.ln_division_den2 k p N c M e y = ln_div_den2 k p N c M e y.
Proof. by rewrite /akyurek.ln_division_den2 /ln_div_den2 !sum_first_rsum. Qed.

Lemma division_q_bridge (k p : nat) (N c M e : R) (y : nat -> R) :
  akyurek.ln_division_q k p N c M e y = ln_div_q k p N c M e y.
Proof. by rewrite /akyurek.ln_division_q /ln_div_q !sum_first_rsum. Qed.

Lemma division_delta_bridge (k p : nat) (N c M e : R) (y : nat -> R) :
  akyurek.ln_division_delta k p N c M e y = ln_div_delta k p N c M e y.
Proof. by rewrite /akyurek.ln_division_delta /ln_div_delta division_q_bridge sum_first_rsum. Qed.

Lemma bypass_den2_bridge (k p : nat) (N e : R) (x : nat -> R) :
  N <> 0 -> akyurek.ln_bypass_den2 k p N e x = ln_div_den2 k p N 1 1 e x.
Proof.
move=> N_neq0; rewrite /akyurek.ln_bypass_den2 /ln_div_den2 /ln_div_S /ln_div_Q /ln_div_L !sum_first_rsum -!plusE.
by field.
Qed.

(* ------------------------------------------------------------------ LayerNorm claims *)

Lemma check_akyurek__layernorm_bypass_closed_form_returns_n_not_2n :
  akyurek.claim_akyurek__layernorm_bypass_closed_form_returns_n_not_2n.
Proof.
move=> k p N e x i [/ltP i_lt [N_pos e_ge0]].
rewrite bypass_den2_bridge; last by lra.
rewrite !(layer_norm_bridge _ _ _ (bypass_input_bridge k N x)).
exact: layernorm_bypass_closed_form.
Qed.

Lemma check_akyurek__layernorm_bypass_closed_form_squared_is_exact :
  akyurek.claim_akyurek__layernorm_bypass_closed_form_squared_is_exact.
Proof.
move=> k p N e x i [i_lt [N_neq0 e_ge0]].
rewrite bypass_den2_bridge //.
rewrite !(layer_norm_squared_bridge _ _ _ (bypass_input_bridge k N x)).
rewrite (ln_centred_bridge _ _ (bypass_input_bridge k N x)).
have [sq0 sq1] := layernorm_bypass_squared k p N e x i N_neq0 e_ge0 (elimT ltP i_lt).
split => //; split => //.
have [-> _] := layernorm_division_entry_sign k p N 1 1 x i Rlt_0_1 (elimT ltP i_lt).
by rewrite /Rdiv Rinv_1 Rmult_1_r.
Qed.

Lemma check_akyurek__layernorm_division_closed_form :
  akyurek.claim_akyurek__layernorm_division_closed_form.
Proof.
move=> k p N c M e y i [/ltP i_lt [N_pos [c_neq0 [M_pos e_ge0]]]].
rewrite division_den2_bridge (layer_norm_bridge _ _ _ (division_input_bridge k N c M y)).
exact: layernorm_division_closed_form.
Qed.

Lemma check_akyurek__layernorm_division_closed_form_squared_is_exact :
  akyurek.claim_akyurek__layernorm_division_closed_form_squared_is_exact.
Proof.
move=> k p N c M e y i [/ltP i_lt [N_neq0 [c_neq0 [M_pos e_ge0]]]].
rewrite division_den2_bridge (layer_norm_squared_bridge _ _ _ (division_input_bridge k N c M y)).
rewrite (ln_centred_bridge _ _ (division_input_bridge k N c M y)).
split; first by apply: layernorm_division_squared_entry => //; lra.
exact: layernorm_division_entry_sign.
Qed.

Lemma check_akyurek__layernorm_division_relative_error_is_minus_s_over_2ncm :
  akyurek.claim_akyurek__layernorm_division_relative_error_is_minus_s_over_2ncm.
Proof.
move=> k p N c M e y i [/ltP i_lt [N_pos [c_neq0 [M_pos [e_ge0 [y_neq0 delta_lt]]]]]].
cbv zeta.
rewrite (layer_norm_bridge _ _ _ (division_input_bridge k N c M y)).
rewrite division_q_bridge division_delta_bridge sum_first_rsum.
rewrite division_delta_bridge in delta_lt.
exact: layernorm_division_relative_error.
Qed.

(* ----------------------------------------------------------------------- the GeLUs *)

(* z/2 (1 + tanh u) = z / (1 + exp(-2u)). *)
Lemma gelu_tanh_bridge (z : R) : akyurek.gelu_tanh z = AkyurekBounds.gelu_tanh z.
Proof.
rewrite /akyurek.gelu_tanh /gelu_tanh /gelu_arg /sigma /gelu_cubic.
move: (sqrt (2 / PI) * _) => u.
have e2 : exp (-2 * u) = / exp u * / exp u.
  by rewrite -!exp_Ropp -exp_plus; congr exp; ring.
rewrite /tanh /sinh /cosh e2 exp_Ropp.
have := exp_pos u => e_pos.
by field; split; nra.
Qed.

(* The Riemann integral of the statement file is Coquelicot's RInt. *)
Lemma gauss_integral_bridge (x : R) : akyurek.gauss_integral x = gauss_int x.
Proof.
rewrite /akyurek.gauss_integral /gauss_int; case: Rle_lt_dec => h; first by rewrite -RInt_Reals.
rewrite -RInt_Reals; apply: (opp_RInt_swap (fun t => exp (- (t * t)))).
exact: ex_RInt_gauss.
Qed.

Lemma erf_bridge (x : R) : akyurek.erf x = GeluErf.erf x.
Proof. by rewrite /akyurek.erf /GeluErf.erf gauss_integral_bridge. Qed.

(* z/2 (1 + erf(z/sqrt 2)) = z erfc(-z/sqrt 2)/2, erf being odd. *)
Lemma gelu_erf_bridge (z : R) : akyurek.gelu_erf z = GeluErf.gelu_erf z.
Proof.
rewrite /akyurek.gelu_erf /gelu_erf /erfc erf_bridge /GeluErf.erf.
have -> : - z / sqrt 2 = - (z / sqrt 2) by rewrite /Rdiv Ropp_mult_distr_l.
rewrite -/(gauss_int (z / sqrt 2)) -/(gauss_int (- (z / sqrt 2))) gauss_int_opp.
by rewrite /Rdiv; ring.
Qed.

Lemma check_akyurek__gelu_bypass_error_is_exponentially_small :
  akyurek.claim_akyurek__gelu_bypass_error_is_exponentially_small.
Proof.
move=> t t_pos; cbv zeta.
rewrite gelu_tanh_bridge gelu_erf_bridge.
split; split.
- exact: gelu_tanh_bypass_lower (Rlt_le _ _ t_pos).
- exact: gelu_tanh_bypass_exponential (Rlt_le _ _ t_pos).
- exact: gelu_erf_bypass_lower.
- exact: gelu_erf_bypass_bound.
Qed.

Lemma check_akyurek__gelu_multiplication_within_proven_bound :
  akyurek.claim_akyurek__gelu_multiplication_within_proven_bound.
Proof.
move=> x y s X Y [s_pos [xX [yY [Xs Ys]]]].
rewrite /akyurek.gelu_product !gelu_tanh_bridge !gelu_erf_bridge.
split.
  rewrite -[(X ^ 4 + Y ^ 4)]Rmult_1_l.
  by apply: gelu_tanh_product_at_box => //; lra.
exact: gelu_erf_product_bound.
Qed.

(* ------------------------------------------------------------- softmax hard attention *)

Lemma rsum_const (c : R) (n : nat) : rsum (fun _ => c) n = INR n * c.
Proof.
elim: n => [|n IH]; first by rewrite /=; ring.
change (rsum (fun _ => c) n.+1) with (rsum (fun _ => c) n + c).
by rewrite IH S_INR; ring.
Qed.

Lemma rsum_scale (c : R) (f : nat -> R) (n : nat) : rsum (fun j => c * f j) n = c * rsum f n.
Proof. by elim: n => [|n IH] /=; [ring | rewrite IH; ring]. Qed.

Lemma check_akyurek__softmax_hard_attention_deviation_is_exact_and_bounded :
  akyurek.claim_akyurek__softmax_hard_attention_deviation_is_exact_and_bounded.
Proof.
move=> Natt a b v w V [a_ge1 [vV wV]]; cbv zeta.
have H := hard_attention_deviation Natt a b v w V (elimT leP a_ge1)
  (fun i i_lt => vV i (introT ltP i_lt)) (fun j j_lt => wV j (introT ltP j_lt)).
cbv zeta in H.
have low (j : nat) : (j < a)%coq_nat -> (j < a)%N = true by move=> /ltP.
have high (j : nat) : ((a + j)%coq_nat < a)%N = false by apply/negbTE/negP => /ltP; lia.
have back (j : nat) : ((a + j)%coq_nat - a)%N = j by rewrite plusE addKn.
rewrite /akyurek.softmax_average !sum_first_rsum.
change (a + b)%N with (a + b)%coq_nat; rewrite !rsum_split.
rewrite (rsum_ext _ (fun j => exp Natt * v j) a); last by move=> j /low ->.
rewrite (rsum_ext _ (fun j => exp 0 * w j) b); last by move=> j _; rewrite high back.
rewrite (rsum_ext (fun j => exp (if (j < a)%N then Natt else 0)) (fun _ => exp Natt));
  last by move=> j /low ->.
rewrite (rsum_ext (fun j => exp (if ((a + j)%coq_nat < a)%N then Natt else 0)) (fun _ => exp 0));
  last by move=> j _; rewrite high.
rewrite !rsum_scale !rsum_const exp_0 Rmult_1_l Rmult_1_r (Rmult_comm (INR a)).
have -> : rsum (fun j => w j - rsum v a / INR a) b =
          rsum (fun j => w j - akyurek.sum_first v a / INR a) b by rewrite sum_first_rsum.
by rewrite sum_first_rsum in H *.
Qed.

(* --------------------------------------------------------------- the realised div layer *)
From ICLProof Require Import AkyurekDivLayerState.

(* The softmax with logit Natt on token t and 0 on the t earlier tokens is the self head. *)
Lemma self_head_bridge (Natt : R) (v : nat -> R) (t : nat) :
  akyurek.softmax_average (fun j => if j == t then Natt else 0) v (t + 1) = self_head Natt v t.
Proof.
rewrite /akyurek.softmax_average addn1 /= !sum_first_rsum eqxx.
rewrite (rsum_ext (fun j => exp (if j == t then Natt else 0) * v j) v); last first.
  by move=> j /ltP j_lt; rewrite (ltn_eqF j_lt) exp_0 Rmult_1_l.
rewrite (rsum_ext (fun j => exp (if j == t then Natt else 0)) (fun _ => 1)); last first.
  by move=> j /ltP j_lt; rewrite (ltn_eqF j_lt) exp_0.
by rewrite rsum_const /self_head; congr (_ / _); ring.
Qed.

Lemma div_value_bridge (P k : nat) (h : nat -> nat -> R) (jp jm cr : nat) (yr wr : nat -> nat)
    (N M : R) (r t : nat) :
  akyurek.div_value P k h jp jm cr yr wr N M r t = dl_value P k h jp jm cr yr wr N M r t.
Proof. by rewrite /akyurek.div_value /dl_value ltb_bridge division_input_bridge. Qed.

Lemma div_ln_input_bridge (P k : nat) (h : nat -> nat -> R) (jp jm cr : nat)
    (yr wr : nat -> nat) (N M Natt : R) (t r : nat) :
  akyurek.div_ln_input P k h jp jm cr yr wr N M Natt t r = dl_x P k h jp jm cr yr wr N M Natt t r.
Proof.
rewrite /akyurek.div_ln_input self_head_bridge /dl_x /self_head div_value_bridge.
by rewrite (rsum_ext_all _ (dl_value P k h jp jm cr yr wr N M r)) // => j; rewrite div_value_bridge.
Qed.

Lemma div_read_bridge (P k nr : nat) (h : nat -> nat -> R) (jp jm cr : nat) (yr wr : nat -> nat)
    (N M e Natt : R) (t q : nat) :
  akyurek.div_read P k nr h jp jm cr yr wr N M e Natt t q
  = dl_contrast P k nr h jp jm cr yr wr N M e Natt t q.
Proof.
rewrite /akyurek.div_read /dl_contrast; cbv zeta.
have X := div_ln_input_bridge P k h jp jm cr yr wr N M Natt t.
rewrite (layer_norm_bridge _ _ _ X) sum_first_rsum.
rewrite (rsum_ext_all _ (fun j => layer_norm (dl_x P k h jp jm cr yr wr N M Natt t)
                                             (P + (k + 2) + nr) e (P + j))) //.
by move=> j; rewrite (layer_norm_bridge _ _ _ X).
Qed.

Lemma div_out_bridge (g : R -> R) (P k nr : nat) (h : nat -> nat -> R) (jp jm cr : nat)
    (yr wr : nat -> nat) (N M e Natt Nb : R) (t q : nat) :
  akyurek.div_out g P k nr h jp jm cr yr wr N M e Natt Nb t q
  = dl_out P k nr h jp jm cr yr wr N M e Natt Nb g t q.
Proof. by rewrite /akyurek.div_out /dl_out div_ln_input_bridge div_read_bridge. Qed.

Lemma check_akyurek__div_layer_realises_exact_div_within_bound :
  akyurek.claim_akyurek__div_layer_realises_exact_div_within_bound.
Proof.
move=> P k nr Tn h jp jm cr yr wr N M e Natt Nb t q.
move=> [N_pos [M_pos [e0 [/ltP t_lt [/ltP q_lt [w_lt [c_neq0 d_lt1]]]]]]].
have w_lt' : forall q', (q' < k)%coq_nat -> (wr q' < P)%coq_nat.
  by move=> q' /ltP /w_lt /ltP.
cbv zeta; split; [move=> s_ge1 | split; [move=> s_pos | move=> r /ltP r_lt canc]].
- rewrite div_out_bridge /dl_out gelu_tanh_bridge.
  exact: (div_layer_state_unit_tanh P k nr Tn h jp jm cr yr wr N M e Natt Nb t q
            N_pos M_pos e0 t_lt q_lt w_lt' c_neq0 d_lt1 s_ge1).
- rewrite div_out_bridge /dl_out gelu_erf_bridge.
  exact: (div_layer_state_unit_erf P k nr Tn h jp jm cr yr wr N M e Natt Nb t q
            N_pos M_pos e0 t_lt q_lt w_lt' c_neq0 d_lt1 s_pos).
- rewrite div_ln_input_bridge.
  exact: (div_state_untouched P k h jp jm cr yr wr N M Natt r t r_lt canc).
Qed.

(* ------------------------------------------------------ the RAW/div layers and the chains *)
From mathcomp Require Import all_ssreflect all_algebra.
From ICLProof Require Import AkyurekChains.
Local Open Scope ring_scope.

(* A project op as the statement file's op: its write into `out` from the layer input h. *)
Definition op_fun {F : realFieldType} (o : raw_op F) :
    akyurek.hstate F -> akyurek.hstate F -> akyurek.hstate F :=
  fun h out => raw_write h out o.

(* The statement's op list os and the project's ops write the same, op by op. *)
Fixpoint ops_agree {F : realFieldType}
    (os : seq (akyurek.hstate F -> akyurek.hstate F -> akyurek.hstate F)) (ops : seq (raw_op F))
    : Prop :=
  match os, ops with
  | [::], [::] => True
  | o :: os', op :: ops' => (forall h out, o h out = raw_write h out op) /\ ops_agree os' ops'
  | _, _ => False
  end.

Lemma ops_agree_map {F : realFieldType} (ops : seq (raw_op F)) : ops_agree (map op_fun ops) ops.
Proof. by elim: ops => //= op ops IH. Qed.

Lemma ops_agree_cat {F : realFieldType} os1 os2 (ops1 ops2 : seq (raw_op F)) :
  ops_agree os1 ops1 -> ops_agree os2 ops2 -> ops_agree (os1 ++ os2) (ops1 ++ ops2).
Proof.
elim: os1 ops1 => [|o os IH] [|op ops] //= [oop A] B.
by split => //; apply: IH.
Qed.

Lemma raw_layer_agree {F : realFieldType} os (ops : seq (raw_op F)) :
  ops_agree os ops -> forall h, akyurek.raw_layer os h = layer_exact h (LRaw ops).
Proof.
move=> A h; rewrite /akyurek.raw_layer /= /raw_exact /raw_apply.
elim: os ops A h {1 3}h => [|o os IH] [|op ops] //= [oop A] h out.
by rewrite oop; apply: IH.
Qed.

Lemma mul_ops_bridge (F : realFieldType) (p q r A0 B0 C0 : nat) :
  akyurek.mul_ops F p q r A0 B0 C0 = map op_fun (@mul_ops F p q r A0 B0 C0).
Proof.
rewrite /akyurek.mul_ops /mul_ops map_flatten -map_comp; congr flatten.
by apply: eq_map => i /=; rewrite -map_comp; apply: eq_map => j.
Qed.

Lemma mul_ops_agree (F : realFieldType) (p q r A0 B0 C0 : nat) :
  ops_agree (akyurek.mul_ops F p q r A0 B0 C0) (@mul_ops F p q r A0 B0 C0).
Proof. by rewrite mul_ops_bridge; apply: ops_agree_map. Qed.

(* The statement's layer list and the project's run the same, layer by layer. *)
Fixpoint agree {F : realFieldType} (fs : seq (akyurek.hstate F -> akyurek.hstate F))
    (ls : seq (layer F)) : Prop :=
  match fs, ls with
  | [::], [::] => True
  | f :: fs', l :: ls' => (forall h, f h = layer_exact h l) /\ agree fs' ls'
  | _, _ => False
  end.

Lemma agree_cat {F : realFieldType} fs1 fs2 (ls1 ls2 : seq (layer F)) :
  agree fs1 ls1 -> agree fs2 ls2 -> agree (fs1 ++ fs2) (ls1 ++ ls2).
Proof.
elim: fs1 ls1 => [|f fs IH] [|l ls] //= [fl A] B.
by split => //; apply: IH.
Qed.

Lemma agree_take {F : realFieldType} (m : nat) {fs} {ls : seq (layer F)} :
  agree fs ls -> agree (take m fs) (take m ls).
Proof.
elim: m fs ls => [|m IH] [|f fs] [|l ls] //= [fl A].
by split => //; apply: IH.
Qed.

Lemma agree_flatten {F : realFieldType} (T : Type) (s : seq T) FS (LS : T -> seq (layer F)) :
  (forall x, agree (FS x) (LS x)) -> agree (flatten (map FS s)) (flatten (map LS s)).
Proof. by move=> A; elim: s => //= x s IH; apply: agree_cat. Qed.

Lemma agree_run {F : realFieldType} {fs} {ls : seq (layer F)} :
  agree fs ls -> forall h, akyurek.run_layers fs h = run_exact ls h.
Proof.
rewrite /akyurek.run_layers /run_exact.
elim: fs ls => [|f fs IH] [|l ls] //= [fl A] h.
by rewrite fl; apply: IH.
Qed.

Lemma sgd_stage_agree (F : realFieldType) (d : nat) (w_init : 'cV[F]_d) (alpha lambda : F)
    (k : nat) :
  agree (akyurek.sgd_stage w_init alpha lambda k) (sgd_stage w_init alpha lambda k).
Proof.
rewrite /akyurek.sgd_stage /sgd_stage.
split.
  apply: raw_layer_agree; case: (k == 1%N); by repeat split; move=> h out; reflexivity.
do 2 (split; first by apply: raw_layer_agree; repeat split; move=> h out; reflexivity).
split; first by apply: raw_layer_agree; apply: mul_ops_agree.
by do 4 (split; first by apply: raw_layer_agree; repeat split; move=> h out; reflexivity).
Qed.

Lemma sm_stage_agree (F : realFieldType) (d : nat) (lambda : F) (k : nat) :
  agree (akyurek.sm_stage d lambda k) (sm_stage d lambda k).
Proof.
rewrite /akyurek.sm_stage /sm_stage.
split.
  apply: raw_layer_agree; case: (k == 1%N); by repeat split; move=> h out; reflexivity.
split; first by apply: raw_layer_agree; apply: ops_agree_cat; apply: mul_ops_agree.
split.
  apply: raw_layer_agree; apply: ops_agree_cat; first by apply: mul_ops_agree.
  by repeat split; move=> h out; reflexivity.
split; first by apply: raw_layer_agree; apply: ops_agree_cat; apply: mul_ops_agree.
split; first by apply: raw_layer_agree; repeat split; move=> h out; reflexivity.
split; first by move=> h; reflexivity.
split; first by apply: raw_layer_agree; repeat split; move=> h out; reflexivity.
split; first by apply: raw_layer_agree; apply: mul_ops_agree.
by do 2 (split; first by apply: raw_layer_agree; repeat split; move=> h out; reflexivity).
Qed.

(* The project's sgd_pass is a Fixpoint inside a Section (d, R discharged outside the fix), the
   statement's takes them as fix parameters: equal by induction on k. *)
Lemma sgd_pass_bridge (F : realFieldType) (d n N : nat) (X : 'M[F]_(d, N)) (y : 'M[F]_(1, n))
    (w_init : 'cV[F]_d) (alpha lambda : F) (k : nat) :
  akyurek.sgd_pass X y w_init alpha lambda k = sgd_pass X y w_init alpha lambda k.
Proof. by elim: k => //= k ->. Qed.

Lemma check_akyurek__theorem1_exact_chain_is_one_sgd_pass :
  akyurek.claim_akyurek__theorem1_exact_chain_is_one_sgd_pass.
Proof.
move=> F d n N X y w_init alpha lambda k kn; cbv zeta.
have A : agree (akyurek.theorem1_chain w_init alpha lambda n) (theorem1_chain w_init alpha lambda n).
  by apply: agree_flatten => j; apply: sgd_stage_agree.
rewrite (agree_run (agree_take (8 * k) A)) !sgd_pass_bridge.
have H := theorem1_chain_sgd_pass X y w_init alpha lambda kn; cbv zeta in H.
exact H.
Qed.

Lemma check_akyurek__theorem2_exact_chain_is_ridge :
  akyurek.claim_akyurek__theorem2_exact_chain_is_ridge.
Proof.
move=> F d n N X y lambda k [lambda_gt0 kn]; cbv zeta.
have A : agree (akyurek.theorem2_chain d lambda n) (theorem2_chain d lambda n).
  by apply: agree_flatten => j; apply: sm_stage_agree.
rewrite (agree_run (agree_take (10 * k) A)).
have H := theorem2_chain_ridge X y lambda_gt0 kn; cbv zeta in H.
case: H => hA hb hq hp.
by split; [exact: hA | split; [exact: hb | split; [exact: hq | exact: hp]]].
Qed.
