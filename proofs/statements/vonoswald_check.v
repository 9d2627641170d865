(* statements/vonoswald_check.v -- every claim of statements/vonoswald.v proved from the
   theorems the vonoswald properties cite (VonOswald.v, GradientDescent.v), with the bridge
   from the project's definitions to the statement file's proved here (bridge_* lemmas).

   The statement file's objects are used qualified (vonoswald.X), the project's through
   VonOswald / GradientDescent. *)

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
move=> R d o N Q eta W0 X Y Xq Yq _.
by rewrite bridge_masked_lsa_head bridge_delta_W prop1_lsa_gd_step.
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
