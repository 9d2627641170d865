(* statements/vonoswald_check.v -- every claim of statements/vonoswald.v proved from the
   theorems the vonoswald properties cite (VonOswald.v, GradientDescent.v, and for the dyadic
   claim DyadicExact.v over Flocq), with the bridge from the project's definitions to the
   statement file's proved here (bridge_* lemmas).

   The statement file's objects are used qualified (vonoswald.X).  The dyadic claim is over
   Coq's reals, so its check (at the end) depends on the classical-reals axioms of
   allowed_axioms.txt (as DyadicExact.v does); every other check is closed. *)

From mathcomp Require Import all_ssreflect all_algebra.
From ICLProof Require Import MatrixFacts GradientDescent VonOswald.
From ICLProof Require statements.vonoswald.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import GRing.Theory Num.Theory.
Local Open Scope ring_scope.

(* ---- the bridge ---- *)

Lemma bridge_lsa_head (R : ringType) m p n M (P WV : 'M[R]_m) (WK WQ : 'M[R]_(p, m))
    (C : 'M[R]_(m, n)) (T : 'M[R]_(m, M)) :
  vonoswald.lsa_head P WV WK WQ C T = VonOswald.lsa P WV WK WQ C T.
Proof. by rewrite /vonoswald.lsa_head /VonOswald.lsa !mulmxA. Qed.

Lemma bridge_masked_lsa_head (R : ringType) m p N Q (P WV : 'M[R]_m) (WK WQ : 'M[R]_(p, m))
    (T : 'M[R]_(m, N + Q)) :
  vonoswald.masked_lsa_head P WV WK WQ T = VonOswald.lsa_masked P WV WK WQ T.
Proof. by rewrite /vonoswald.masked_lsa_head bridge_lsa_head. Qed.

Lemma bridge_prop1_WKQ (R : numFieldType) d o :
  vonoswald.prop1_WKQ R d o = @VonOswald.prop1_WKQ R d o.
Proof. by []. Qed.

Lemma bridge_prop1_WV (R : numFieldType) d o (W0 : 'M[R]_(o, d)) :
  vonoswald.prop1_WV W0 = VonOswald.prop1_WV W0.
Proof. by []. Qed.

Lemma bridge_prop1_P (R : numFieldType) d o N (eta : R) :
  vonoswald.prop1_P d o N eta = VonOswald.prop1_P d o N eta.
Proof. by []. Qed.

Lemma bridge_gdpp_WV (R : numFieldType) d o (gamma : R) (W0 : 'M[R]_(o, d)) :
  vonoswald.gdpp_WV gamma W0 = VonOswald.gdpp_WV gamma W0.
Proof. by []. Qed.

Lemma bridge_gdpp_P (R : numFieldType) d o N (eta : R) :
  vonoswald.gdpp_P d o N eta = VonOswald.gdpp_P d o N eta.
Proof. by []. Qed.

Lemma bridge_grad_loss (R : numFieldType) d o N (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N))
    (W : 'M[R]_(o, d)) :
  vonoswald.grad_loss X Y W = GradientDescent.gd_grad X Y W.
Proof. by []. Qed.

Lemma bridge_delta_W (R : numFieldType) d o N (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) (eta : R)
    (W0 : 'M[R]_(o, d)) :
  vonoswald.delta_W X Y eta W0 = GradientDescent.gd_delta X Y eta W0.
Proof. by rewrite /vonoswald.delta_W gd_delta_neg_grad. Qed.

Lemma bridge_gd_step (R : numFieldType) d o N (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) (eta : R)
    (W : 'M[R]_(o, d)) :
  vonoswald.gd_step X Y eta W = GradientDescent.gd_step X Y eta W.
Proof. by []. Qed.

Lemma bridge_gd_steps (R : numFieldType) d o N (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N))
    (etas : nat -> R) k :
  vonoswald.gd_steps X Y etas k = VonOswald.gd_iter_etas X Y etas k.
Proof. by elim: k => [|k IHk] //=; rewrite IHk bridge_gd_step. Qed.

Lemma bridge_mx_power (R : ringType) n (A : 'M[R]_n) k :
  vonoswald.mx_power A k = GradientDescent.mxpow A k.
Proof. by []. Qed.

Lemma bridge_prop1_stack (R : numFieldType) d o N Q (etas : nat -> R) K
    (T : 'M[R]_(d + o, N + Q)) :
  vonoswald.prop1_stack etas K T = VonOswald.lsa_stack_etas etas K T.
Proof.
elim: K => [|K IHK] //=.
by rewrite IHK bridge_masked_lsa_head bridge_prop1_P bridge_prop1_WV bridge_prop1_WKQ.
Qed.

(* The recurrent layer: one head with step eta applied K times is the stack with steps eta. *)
Lemma bridge_prop1_iter (R : numFieldType) d o N Q (eta : R) K (T : 'M[R]_(d + o, N + Q)) :
  iter K (vonoswald.masked_lsa_head (vonoswald.prop1_P d o N eta)
            (vonoswald.prop1_WV (0 : 'M[R]_(o, d))) (vonoswald.prop1_WKQ R d o)
            (vonoswald.prop1_WKQ R d o)) T
  = iter K (VonOswald.lsa_masked (VonOswald.prop1_P d o N eta) (VonOswald.prop1_WV 0)
              VonOswald.prop1_WKQ VonOswald.prop1_WKQ) T.
Proof. by elim: K => [|K IHK] //=; rewrite IHK bridge_masked_lsa_head. Qed.

Lemma bridge_prop1_stack_const (R : numFieldType) d o N Q (eta : R) K
    (T : 'M[R]_(d + o, N + Q)) :
  vonoswald.prop1_stack (fun _ => eta) K T
  = iter K (VonOswald.lsa_masked (VonOswald.prop1_P d o N eta) (VonOswald.prop1_WV 0)
              VonOswald.prop1_WKQ VonOswald.prop1_WKQ) T.
Proof. by rewrite -bridge_prop1_iter; elim: K => [|K IHK] //=; rewrite IHK. Qed.

Lemma bridge_gd_steps_const (R : numFieldType) d o N (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N))
    (eta : R) k :
  vonoswald.gd_steps X Y (fun _ => eta) k = GradientDescent.gd_iter X Y eta k.
Proof. by rewrite bridge_gd_steps gd_iter_etas_const. Qed.

Lemma bridge_gdpp_stack (R : numFieldType) d o N Q (gammas etas : nat -> R) L
    (T : 'M[R]_(d + o, N + Q)) :
  vonoswald.gdpp_stack gammas etas L T = VonOswald.gdpp_stack gammas etas L T.
Proof.
elim: L => [|L IHL] //=.
by rewrite IHL bridge_masked_lsa_head bridge_gdpp_P bridge_gdpp_WV bridge_prop1_WKQ.
Qed.

Lemma bridge_gdpp_iter (R : numFieldType) d o N Q (gamma eta : R) L
    (T : 'M[R]_(d + o, N + Q)) :
  iter L (vonoswald.masked_lsa_head (vonoswald.gdpp_P d o N eta)
            (vonoswald.gdpp_WV gamma (0 : 'M[R]_(o, d))) (vonoswald.prop1_WKQ R d o)
            (vonoswald.prop1_WKQ R d o)) T
  = VonOswald.gdpp_stack (fun _ => gamma) (fun _ => eta) L T.
Proof. by elim: L => [|L IHL] //=; rewrite IHL bridge_masked_lsa_head. Qed.

Lemma bridge_gdpp_S (R : numFieldType) d N (X : 'M[R]_(d, N)) (gammas : nat -> R) L :
  vonoswald.gdpp_S X gammas L = VonOswald.gdpp_S X gammas L.
Proof. by elim: L => [|L IHL] //=; rewrite IHL. Qed.

Lemma bridge_gdpp_W (R : numFieldType) d o N (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N))
    (gammas etas : nat -> R) L :
  vonoswald.gdpp_W X Y gammas etas L = VonOswald.gdpp_W X Y gammas etas L.
Proof. by elim: L => [|L IHL] //=; rewrite IHL bridge_gdpp_S bridge_grad_loss. Qed.

(* The unmasked head on the token matrix: the context is all N + Q tokens. *)
Lemma bridge_unmasked (R : numFieldType) d o N Q (eta : R) (W0 : 'M[R]_(o, d))
    (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) (Xq : 'M[R]_(d, Q)) (Yq : 'M[R]_(o, Q)) :
  vonoswald.lsa_head (vonoswald.prop1_P d o N eta) (vonoswald.prop1_WV W0)
    (vonoswald.prop1_WKQ R d o) (vonoswald.prop1_WKQ R d o)
    (block_mx X Xq Y Yq) (block_mx X Xq Y Yq)
  = VonOswald.lsa (VonOswald.prop1_P d o N eta) (VonOswald.prop1_WV W0)
      VonOswald.prop1_WKQ VonOswald.prop1_WKQ
      (row_mx (col_mx X Y) (col_mx Xq Yq)) (col_mx (row_mx X Xq) (row_mx Y Yq)).
Proof. by rewrite bridge_lsa_head -block_mxEh -block_mxEv. Qed.

(* The masked head's context columns: lsa on the context [X; Y] is the masked head. *)
Lemma masked_as_lsa (R : numFieldType) d o N Q (eta : R) (W0 : 'M[R]_(o, d))
    (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) (Xq : 'M[R]_(d, Q)) (Yq : 'M[R]_(o, Q)) :
  VonOswald.lsa (VonOswald.prop1_P d o N eta) (VonOswald.prop1_WV W0)
    VonOswald.prop1_WKQ VonOswald.prop1_WKQ (col_mx X Y) (col_mx (row_mx X Xq) (row_mx Y Yq))
  = VonOswald.lsa_masked (VonOswald.prop1_P d o N eta) (VonOswald.prop1_WV W0)
      VonOswald.prop1_WKQ VonOswald.prop1_WKQ (block_mx X Xq Y Yq).
Proof. by rewrite /VonOswald.lsa_masked lsubmx_block -block_mxEv. Qed.

Lemma col_mx0_row (R : ringType) m1 m2 n1 n2 (A : 'M[R]_(m2, n1)) (B : 'M[R]_(m2, n2)) :
  col_mx (0 : 'M[R]_(m1, n1 + n2)) (row_mx A B) = block_mx 0 0 A B.
Proof. by rewrite block_mxEv row_mx0. Qed.

(* ---- the checks ---- *)

Lemma check_vonoswald__prop1_layer_moves_every_token_by_one_gd_step :
  ICLProof.statements.vonoswald.claim_vonoswald__prop1_layer_moves_every_token_by_one_gd_step.
Proof.
move=> R d o N Q eta W0 X Y Xq Yq _; split.
  by rewrite bridge_masked_lsa_head bridge_delta_W prop1_lsa_gd_step.
by move=> H; exact: (gd_step_neg_grad X Y W0 H).
Qed.

Lemma check_vonoswald__prop1_readout_predicts_w0_plus_delta_w :
  ICLProof.statements.vonoswald.claim_vonoswald__prop1_readout_predicts_w0_plus_delta_w.
Proof.
move=> R d o N Q eta W0 X Y Xq _.
by rewrite bridge_masked_lsa_head bridge_delta_W prop1_layer_readout.
Qed.

Lemma check_vonoswald__unmasked_layer_deviates_by_the_query_term :
  ICLProof.statements.vonoswald.claim_vonoswald__unmasked_layer_deviates_by_the_query_term.
Proof.
move=> R d o N Q eta W0 X Y Xq Yq _.
rewrite bridge_unmasked prop1_unmasked_deviation masked_as_lsa prop1_lsa_gd_step.
by rewrite bridge_delta_W mul_mx_row scale_row_mx col_mx0_row add_block_mx !addr0.
Qed.

Lemma check_vonoswald__unmasked_layer_is_exact_when_w0_xq_equals_yq0 :
  ICLProof.statements.vonoswald.claim_vonoswald__unmasked_layer_is_exact_when_w0_xq_equals_yq0.
Proof.
move=> R d o N Q eta W0 X Y Xq Yq [_ [_ [_ [_ [_ W0XqYq]]]]].
rewrite bridge_unmasked (prop1_unmasked_exact _ _ _ _ _ W0XqYq) bridge_delta_W.
by rewrite mul_mx_row opp_row_mx add_row_mx -block_mxEv.
Qed.

Lemma check_vonoswald__gd_stack_tokens_follow_k_gd_steps :
  ICLProof.statements.vonoswald.claim_vonoswald__gd_stack_tokens_follow_k_gd_steps.
Proof.
move=> R d o N Q etas eta X Y Xq _ k; split.
  by rewrite bridge_prop1_stack bridge_gd_steps lsa_stack_gd_steps_etas.
by rewrite bridge_prop1_iter bridge_gd_steps_const lsa_stack_gd_steps.
Qed.

Lemma check_vonoswald__gd_stack_prediction_equals_neumann_closed_form :
  ICLProof.statements.vonoswald.claim_vonoswald__gd_stack_prediction_equals_neumann_closed_form.
Proof.
move=> R d o N Q eta K X Y Xq _.
have closed_form : - drsubmx (iter K (VonOswald.lsa_masked (VonOswald.prop1_P d o N eta)
      (VonOswald.prop1_WV 0) VonOswald.prop1_WKQ VonOswald.prop1_WKQ) (block_mx X Xq Y 0))
    = (eta *: ((N%:R)^-1 *: (Y *m X^T)))
        *m (\sum_(k < K) vonoswald.mx_power (1%:M - eta *: ((N%:R)^-1 *: (X *m X^T))) k) *m Xq.
  by rewrite lsa_stack_neumann block_mxKdr opprK.
by rewrite bridge_prop1_stack_const bridge_prop1_iter; split; exact: closed_form.
Qed.

Lemma check_vonoswald__gdpp_layer_transforms_inputs_and_steps_targets :
  ICLProof.statements.vonoswald.claim_vonoswald__gdpp_layer_transforms_inputs_and_steps_targets.
Proof.
move=> R d o N Q gamma eta W0 X Y Xq Yq _.
by rewrite bridge_masked_lsa_head bridge_gdpp_P bridge_gdpp_WV bridge_prop1_WKQ bridge_delta_W
  gdpp_layer_identity.
Qed.

Lemma check_vonoswald__gdpp_stack_equals_preconditioned_gd :
  ICLProof.statements.vonoswald.claim_vonoswald__gdpp_stack_equals_preconditioned_gd.
Proof.
move=> R d o N Q gammas etas gamma eta X Y Xq _ l; split.
  by rewrite bridge_gdpp_stack !bridge_gdpp_S !bridge_gdpp_W gdpp_preconditioned_gd.
by rewrite bridge_gdpp_iter !bridge_gdpp_S !bridge_gdpp_W gdpp_preconditioned_gd.
Qed.

(* ---- the dyadic claim: Coq's reals, bridged to DyadicExact.v (Flocq) ---- *)

From Coq Require Import Reals Lia Lra.
From Flocq Require Import Core.
From ICLProof Require DyadicExact.

Local Open Scope R_scope.

(* The statement file's rounding premise gives Flocq's rounding: rnd is a Valid_rnd, and fl is
   Flocq's round radix2 (FLT_exp emin p) rnd (DyadicExact.fl). *)
Lemma bridge_valid_rnd emin p rnd fl :
  vonoswald.is_flt_rounding emin p rnd fl -> Valid_rnd rnd.
Proof. by move=> [H1 [H2 _]]; split. Qed.

Lemma bridge_fl emin p rnd fl :
  vonoswald.is_flt_rounding emin p rnd fl -> forall x, fl x = DyadicExact.fl emin p rnd x.
Proof.
move=> H; have V := bridge_valid_rnd H; move: H => [_ [_ [H0 H4]]] x.
case: (Req_dec x 0) => [-> | x0]; first by rewrite H0 /DyadicExact.fl round_0.
have br : powerRZ 2 (mag radix2 x - 1) <= Rabs x < powerRZ 2 (mag radix2 x).
  by rewrite -!(bpow_powerRZ radix2); split; [apply: bpow_mag_le | apply: bpow_mag_gt].
rewrite (H4 x _ x0 br) /DyadicExact.fl /round /F2R /scaled_mantissa /cexp /FLT_exp /=.
by rewrite !(bpow_powerRZ radix2).
Qed.

Lemma bridge_sum_prod s : vonoswald.sum_prod s = DyadicExact.sum_prod s.
Proof. by elim: s => [|[a b] s IHs] //=; rewrite IHs. Qed.

Lemma bridge_dot_seq emin p rnd fl : (forall x, fl x = DyadicExact.fl emin p rnd x) ->
  forall acc s, vonoswald.dot_seq fl acc s = DyadicExact.dot_seq emin p rnd acc s.
Proof. by move=> Hfl acc s; elim: s acc => [|[a b] s IHs] acc //=; rewrite IHs !Hfl. Qed.

Lemma bridge_dot_fma emin p rnd fl : (forall x, fl x = DyadicExact.fl emin p rnd x) ->
  forall acc s, vonoswald.dot_fma fl acc s = DyadicExact.dot_fma emin p rnd acc s.
Proof. by move=> Hfl acc s; elim: s acc => [|[a b] s IHs] acc //=; rewrite IHs !Hfl. Qed.

Lemma bridge_dot_once emin p rnd fl : (forall x, fl x = DyadicExact.fl emin p rnd x) ->
  forall acc s, vonoswald.dot_once fl acc s = DyadicExact.dot_once emin p rnd acc s.
Proof.
by move=> Hfl acc s; rewrite /vonoswald.dot_once /DyadicExact.dot_once Hfl bridge_sum_prod.
Qed.

Lemma bridge_map_iota (f : nat -> R * R) a n :
  seq.map f (seq.iota a n) = List.map f (List.seq a n).
Proof. by elim: n a => [|n IHn] a //=; rewrite IHn. Qed.

(* Entrywise-equal arguments give entrywise-equal results. *)
Lemma bridge_row_col n (A A' B B' : nat -> nat -> R) :
  (forall i j, A i j = A' i j) -> (forall i j, B i j = B' i j) ->
  forall i j, vonoswald.row_col n A B i j = DyadicExact.row_col n A' B' i j.
Proof.
move=> HA HB i j; rewrite /vonoswald.row_col /DyadicExact.row_col bridge_map_iota.
by apply: List.map_ext => t; rewrite HA HB.
Qed.

Lemma bridge_fmul dot dot' n (A A' B B' : nat -> nat -> R) :
  (forall acc s, dot acc s = dot' acc s) ->
  (forall i j, A i j = A' i j) -> (forall i j, B i j = B' i j) ->
  forall i j, vonoswald.fmul dot n A B i j = DyadicExact.fmul dot' n A' B' i j.
Proof.
move=> Hdot HA HB i j; rewrite /vonoswald.fmul /DyadicExact.fmul Hdot.
by rewrite (bridge_row_col _ HA HB).
Qed.

Lemma bridge_emul n (A A' B B' : nat -> nat -> R) :
  (forall i j, A i j = A' i j) -> (forall i j, B i j = B' i j) ->
  forall i j, vonoswald.emul n A B i j = DyadicExact.emul n A' B' i j.
Proof.
move=> HA HB i j; rewrite /vonoswald.emul /DyadicExact.emul bridge_sum_prod.
by rewrite (bridge_row_col _ HA HB).
Qed.

(* The layer and the reference: the statement file's programs with fl and dot are the project's
   with Flocq's rounding and a kernel dot' equal to dot. *)

Lemma bridge_layer_float (emin p : Z) (rnd : R -> Z) (fl : R -> R)
    (dot dot' : R -> list (R * R) -> R)
    (d o N : nat) (eta : R) (W0 E : nat -> nat -> R) :
  (forall x, fl x = DyadicExact.fl emin p rnd x) -> (forall acc s, dot acc s = dot' acc s) ->
  forall i c,
  vonoswald.layer_float fl dot d o N eta W0 E i c
  = DyadicExact.layer_float emin p rnd dot' d o N eta W0 E i c.
Proof.
move=> Hfl Hdot i c.
rewrite /vonoswald.layer_float /DyadicExact.layer_float /vonoswald.fadd /DyadicExact.fadd Hfl.
have eqE : forall i j, E i j = E i j by [].
have HV := bridge_fmul (d + o) Hdot (fun i j => erefl (DyadicExact.prop1_wv d W0 i j)) eqE.
have HK := bridge_fmul (d + o) Hdot (fun i j => erefl (DyadicExact.prop1_wkq d i j)) eqE.
have HA := bridge_fmul N Hdot HV (fun i j => HK j i).
have HP : forall i j, vonoswald.dyadic_P_float fl eta N i j
    = DyadicExact.prop1_p_float emin p rnd eta N i j.
  by move=> i' j'; rewrite /vonoswald.dyadic_P_float /DyadicExact.prop1_p_float !Hfl.
have HPA := bridge_fmul (d + o) Hdot HP HA.
by rewrite (bridge_fmul (d + o) Hdot HPA HK).
Qed.

Lemma bridge_layer_exact (d o N : nat) (eta : R) (W0 E : nat -> nat -> R) i c :
  vonoswald.layer_exact d o N eta W0 E i c = DyadicExact.layer_exact d o N eta W0 E i c.
Proof.
rewrite /vonoswald.layer_exact /DyadicExact.layer_exact.
have eqE : forall i j, E i j = E i j by [].
have HV := bridge_emul (d + o) (fun i j => erefl (DyadicExact.prop1_wv d W0 i j)) eqE.
have HK := bridge_emul (d + o) (fun i j => erefl (DyadicExact.prop1_wkq d i j)) eqE.
have HA := bridge_emul N HV (fun i j => HK j i).
have HPA := bridge_emul (d + o) (fun i j => erefl (DyadicExact.prop1_p_exact eta N i j)) HA.
by rewrite (bridge_emul (d + o) HPA HK).
Qed.

Lemma bridge_gd_step_float (emin p : Z) (rnd : R -> Z) (fl : R -> R)
    (dot dot' : R -> list (R * R) -> R)
    (d N : nat) (eta : R) (W0 E : nat -> nat -> R) :
  (forall x, fl x = DyadicExact.fl emin p rnd x) -> (forall acc s, dot acc s = dot' acc s) ->
  forall i c,
  vonoswald.gd_step_float fl dot d N eta W0 E i c
  = DyadicExact.gd_step_float emin p rnd dot' d N eta W0 E i c.
Proof.
move=> Hfl Hdot i c.
rewrite /vonoswald.gd_step_float /DyadicExact.gd_step_float /vonoswald.fsub /DyadicExact.fsub.
have eqE : forall i j, E i j = E i j by [].
have eqW : forall i j, W0 i j = W0 i j by [].
have HR1 := bridge_fmul d Hdot eqW eqE.
have HRes : forall i j, fl (vonoswald.fmul dot d W0 E i j - vonoswald.rows_from d E i j)
    = DyadicExact.fl emin p rnd (DyadicExact.fmul dot' d W0 E i j - DyadicExact.rows_from d E i j).
  by move=> i' j'; rewrite Hfl HR1.
have HG1 := bridge_fmul N Hdot HRes (fun i j => eqE j i).
have HdW : forall i j,
    vonoswald.fscale fl (- eta) (vonoswald.fdiv fl (vonoswald.fmul dot N
      (vonoswald.fsub fl (vonoswald.fmul dot d W0 E) (vonoswald.rows_from d E))
      (vonoswald.tr E)) (INR N)) i j
    = DyadicExact.fscale emin p rnd (- eta) (DyadicExact.fdiv emin p rnd (DyadicExact.fmul dot' N
      (DyadicExact.fsub emin p rnd (DyadicExact.fmul dot' d W0 E) (DyadicExact.rows_from d E))
      (DyadicExact.tr E)) (INR N)) i j.
  move=> i' j'; rewrite /vonoswald.fscale /DyadicExact.fscale /vonoswald.fdiv /DyadicExact.fdiv.
  by rewrite !Hfl HG1.
by rewrite Hfl (bridge_fmul d Hdot HdW eqE).
Qed.

Lemma bridge_gd_step_exact (d N : nat) (eta : R) (W0 E : nat -> nat -> R) i c :
  vonoswald.gd_step_exact d N eta W0 E i c = DyadicExact.gd_step_exact d N eta W0 E i c.
Proof.
rewrite /vonoswald.gd_step_exact /DyadicExact.gd_step_exact.
have eqE : forall i j, E i j = E i j by [].
have eqW : forall i j, W0 i j = W0 i j by [].
have HR1 := bridge_emul d eqW eqE.
have HRes : forall i j, vonoswald.emul d W0 E i j - vonoswald.rows_from d E i j
    = DyadicExact.emul d W0 E i j - DyadicExact.rows_from d E i j.
  by move=> i' j'; rewrite HR1.
have HG1 := bridge_emul N HRes (fun i j => eqE j i).
have HdW : forall i j, - eta * (vonoswald.emul N (fun i0 j0 => vonoswald.emul d W0 E i0 j0
      - vonoswald.rows_from d E i0 j0) (vonoswald.tr E) i j / INR N)
    = - eta * (DyadicExact.emul N (fun i0 j0 => DyadicExact.emul d W0 E i0 j0
      - DyadicExact.rows_from d E i0 j0) (DyadicExact.tr E) i j / INR N).
  by move=> i' j'; rewrite HG1.
by rewrite (bridge_emul d HdW eqE).
Qed.


Lemma check_vonoswald__prop1_layer_is_exact_on_dyadic_data :
  ICLProof.statements.vonoswald.claim_vonoswald__prop1_layer_is_exact_on_dyadic_data.
Proof.
move=> emin p rnd fl dot d o N Q b j k eta W0 E.
move=> [Hround [Hkern [_ [Ho [_ [Hb [HN [Hj [Hk [Heta [HE [HW [Hemin Hprec]]]]]]]]]]]]].
move=> i c Hi Hc.
have V := bridge_valid_rnd Hround; have Hfl := bridge_fl Hround.
(* the project's kernel, equal to dot *)
have [dot' [Hkern' Hdot]] : exists dot', DyadicExact.cpp_dot_kernel emin p rnd dot'
    /\ forall acc s, dot acc s = dot' acc s.
  case: Hkern => [-> | [-> | ->]].
  - by exists (DyadicExact.dot_seq emin p rnd); split; [left | exact: bridge_dot_seq].
  - by exists (DyadicExact.dot_fma emin p rnd); split; [right; left | exact: bridge_dot_fma].
  - by exists (DyadicExact.dot_once emin p rnd); split; [right; right | exact: bridge_dot_once].
have Hexact : DyadicExact.dot_exact_on_grid emin p dot'.
  case: Hkern' => [-> | [-> | ->]]; [exact: DyadicExact.dot_seq_exact
    | exact: DyadicExact.dot_fma_exact | exact: DyadicExact.dot_once_exact].
have Heta' : eta = bpow radix2 (- k) by rewrite Heta (bpow_powerRZ radix2).
have grid x : vonoswald.small_int b x -> DyadicExact.on_grid 0 b x.
  by move=> [m [-> Hm]]; exists m; split; [rewrite /= Rmult_1_r | exact: Hm].
have HE' : forall i c, (i < d + o)%coq_nat -> (c < N + Q)%coq_nat ->
    DyadicExact.on_grid 0 b (E i c).
  by move=> i' c' /ltP Hi' /ltP Hc'; apply: grid; apply: HE.
have HW' : forall i c, (i < o)%coq_nat -> (c < d)%coq_nat ->
    DyadicExact.on_grid 0 b (W0 i c).
  by move=> i' c' /ltP Hi' /ltP Hc'; apply: grid; apply: HW.
have Ho' : (1 <= o)%coq_nat by apply/leP.
have Hi' : (i < d + o)%coq_nat by apply/ltP.
have Hc' : (c < N + Q)%coq_nat by apply/ltP.
split.
  rewrite (bridge_layer_float d o N eta W0 E Hfl Hdot) bridge_layer_exact.
  exact: (DyadicExact.layer_no_rounding Hexact Hb Ho' HN Heta' Hj Hk HE' HW' Hemin Hprec Hi' Hc').
split.
  move=> Hdi; rewrite (bridge_gd_step_float d N eta W0 E Hfl Hdot) bridge_gd_step_exact.
  have Hid : (i - d < o)%coq_nat by apply/ltP; rewrite ltn_subLR.
  exact: (DyadicExact.gd_step_no_rounding Hexact Hb Ho' HN Heta' Hj Hk HE' HW' Hemin Hprec Hid Hc').
rewrite (bridge_layer_float d o N eta W0 E Hfl Hdot) (bridge_gd_step_float d N eta W0 E Hfl Hdot).
exact: (DyadicExact.prop1_dyadic_exact_in_floating_point Hkern' Hb Ho' HN Heta' Hj Hk HE' HW'
  Hemin Hprec Hi' Hc').
Qed.
