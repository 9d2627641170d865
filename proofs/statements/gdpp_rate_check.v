(* The project's theorems prove the statement of gdpp_rate.v (issue 37): check_<p> has exactly
   the type ICLProof.statements.gdpp_rate.claim_<p>; the bridge from VonOswald.v's GD++ layer to
   the statement file's is proved here, and the stack is an induction over the cited one-layer
   theorems (gdpp_layer_identity, gdpp_gram_step, gdpp_gram_diag). *)

From mathcomp Require Import all_ssreflect all_algebra.
From ICLProof Require Import GradientDescent VonOswald GdppRate.
From ICLProof Require statements.gdpp_rate.

Import GRing.Theory Num.Theory.
Local Open Scope ring_scope.


Lemma gdpp_layer_bridge (R : numFieldType) d o N Q (gamma eta : R) (T : 'M[R]_(d + o, N + Q)) :
  statements.gdpp_rate.gdpp_layer gamma eta T
    = lsa_masked (gdpp_P d o N eta) (gdpp_WV gamma 0) prop1_WKQ prop1_WKQ T.
Proof.
rewrite /statements.gdpp_rate.gdpp_layer /statements.gdpp_rate.lsa_masked_layer /lsa_masked /lsa /gdpp_P /gdpp_WV /prop1_WKQ.
by congr (_ + _ *m (_ *m _) *m (_ *m _)).
Qed.

Lemma check_gdpp_rate__preconditioning_layer_maps_each_eigenvalue_to_lambda_one_minus_gamma_lambda_squared :
  statements.gdpp_rate.claim_gdpp_rate__preconditioning_layer_maps_each_eigenvalue_to_lambda_one_minus_gamma_lambda_squared.
Proof.
move=> R d o N Q gamma eta X Xq Y Yq lam0 L [_ [_ XXt]].
elim: L => [|l IH]; first by rewrite [statements.gdpp_rate.gdpp_stack _ _ 0 _]/= block_mxKul.
rewrite [statements.gdpp_rate.gdpp_stack _ _ l.+1 _]/= gdpp_layer_bridge.
rewrite -[statements.gdpp_rate.gdpp_stack gamma eta l _]submxK gdpp_layer_identity block_mxKul.
move: IH; set Xl := ulsubmx _ => IH.
have -> : (1%:M - gamma l *: (Xl *m Xl^T)) *m Xl = Xl - gamma l *: (Xl *m Xl^T *m Xl).
  by rewrite mulmxBl mul1mx -scalemxAl.
by rewrite gdpp_gram_step IH gdpp_gram_diag.
Qed.
