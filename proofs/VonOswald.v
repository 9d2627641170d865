(* VonOswald.v -- one linear self-attention layer is one gradient-descent step
   (von Oswald et al. 2023, Proposition 1), its unmasked deviation, K-layer stacks, and GD++.

   Tokens are columns e_j = (x_j; y_j) of a (d + o) x M token matrix T = col_mx Xt Yt; the context
   (keys and values) is C = col_mx X Y with N columns.  One head:
     lsa P WV WK WQ C T = T + P (WV C) (WK C)^T (WQ T),
   i.e. e_j <- e_j + P sum_(i context) (WV e_i) (WK e_i)^T (WQ e_j) for every token j
   (lsa_tokenwise).  Masked = the query is not among the keys/values (C = context only).

   Main results
   - prop1_lsa_gd_step : with WK = WQ = [[I_d, 0], [0, 0]], WV = [[0, 0], [W0, -I_o]],
       P = (eta/N) I, the layer maps the token matrix [[X, Xq], [Y, Yq]] (context AND queries) to
       [[X, Xq], [Y - DeltaW X, Yq - DeltaW Xq]],
       DeltaW = -(eta/N) (W0 X - Y) X^T = -eta grad L(W0);
       any d, o, N and any number of queries.  prop1_lsa_tokens: the same for any tokens.
   - prop1_readout : with y_q0 = -W0 x_q the new query y-part is -(W0 + DeltaW) x_q.
   - prop1_layer_readout : the same read out of the layer itself: the masked Prop. 1 layer on
       [[X, Xq], [Y, -W0 Xq]] leaves -(W0 + DeltaW) Xq in the query y-part (bottom-right block),
       i.e. the prediction -(y-part) is (W0 + DeltaW) Xq = one GD step's model applied to Xq.
   - prop1_unmasked_deviation : with the query e_q among the keys/values every token's y-part
       gains exactly (eta/N) (W0 x_q - y_q0) x_q^T x_j (prop1_unmasked_exact: none iff W0 x_q = y_q0
       is sufficient).
   - lsa_stack_gd_steps : K masked layers with W0 = 0 from [[X, Xq], [Y, 0]] give
       [[X, Xq], [Y - W_K X, - W_K Xq]], W_K = K GD steps from 0 (GradientDescent.gd_iter).
   - lsa_stack_neumann : the same with W_K in the closed Neumann form of gd_iterates_neumann.
   - lsa_stack_gd_steps_etas : K masked layers with W0 = 0, layer l with its own step eta_l,
       from [[X, Xq], [Y, 0]] give [[X, Xq], [Y - W_K X, - W_K Xq]], W_K = K GD steps from 0
       with the steps eta_0 .. eta_(K-1) (gd_iter_etas); gd_iter_etas_const: constant steps
       are gd_iter.
   - gdpp_layer_identity : GD++ head WV = [[-gamma I_d, 0], [W0, -I_o]],
       P = blockdiag(I_d, (eta/N) I_o): x_j <- (I - gamma X X^T) x_j, y_j <- y_j - DeltaW x_j.
   - gdpp_preconditioned_gd : layers (eta_l, gamma_l), W0 = 0: the stack gives
       [[S_L X, S_L Xq], [Y - W_L X, - W_L Xq]] with S_0 = I, S_(l+1) = (I - gamma_l X_l X_l^T) S_l,
       X_l = S_l X and W_(l+1) = W_l - eta_l grad L(W_l) S_l^2 (row-model form of
       w_(l+1) = w_l - eta_l S_l^2 grad L(w_l)); gdpp_S_sym: S_l is symmetric.

   Dependencies: mathcomp ssreflect/algebra, MatrixFacts (mulmx_tr_sum, col_mulmx),
   GradientDescent (gd_delta, gd_grad, gd_iter).
   No axioms. *)

From mathcomp Require Import all_ssreflect all_algebra.
From mathcomp Require Import ring.
From ICLProof Require Import MatrixFacts GradientDescent.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import Order.TTheory GRing.Theory Num.Theory.
Local Open Scope ring_scope.

Section LinearSelfAttention.
Variable R : ringType.

(* One head of linear self-attention: every token (column of T) attends to the context C. *)
Definition lsa m p N M (P : 'M[R]_m) (WV : 'M[R]_m) (WK WQ : 'M[R]_(p, m))
    (C : 'M[R]_(m, N)) (T : 'M[R]_(m, M)) : 'M[R]_(m, M) :=
  T + P *m ((WV *m C) *m (WK *m C)^T) *m (WQ *m T).

(* The token-wise reading: e_j <- e_j + P sum_i (WV c_i) (WK c_i)^T (WQ e_j). *)
Lemma lsa_tokenwise m p N M (P : 'M[R]_m) (WV : 'M[R]_m) (WK WQ : 'M[R]_(p, m))
    (C : 'M[R]_(m, N)) (T : 'M[R]_(m, M)) j :
  col j (lsa P WV WK WQ C T)
    = col j T + P *m (\sum_(i < N) (WV *m col i C) *m (WK *m col i C)^T) *m (WQ *m col j T).
Proof.
have colD (A B : 'M[R]_(m, M)) : col j (A + B) = col j A + col j B.
  by apply/matrixP => a b; rewrite !mxE.
rewrite /lsa colD !col_mulmx; congr (_ + P *m _ *m _).
by rewrite mulmx_tr_sum; apply: eq_bigr => i _; rewrite !col_mulmx.
Qed.

(* Masked attention on a token matrix whose first N columns are the context. *)
Definition lsa_masked m p N Q (P : 'M[R]_m) (WV : 'M[R]_m) (WK WQ : 'M[R]_(p, m))
    (T : 'M[R]_(m, N + Q)) := lsa P WV WK WQ (lsubmx T) T.

End LinearSelfAttention.

Section Proposition1.
Variable R : numFieldType.
Variables d o : nat.

Definition prop1_WKQ : 'M[R]_(d + o) := block_mx 1%:M 0 0 0.
Definition prop1_WV (W0 : 'M[R]_(o, d)) : 'M[R]_(d + o) := block_mx 0 0 W0 (- 1%:M).
Definition prop1_P N (eta : R) : 'M[R]_(d + o) := (eta / N%:R)%:M.

Lemma prop1_keys N (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) :
  prop1_WKQ *m col_mx X Y = col_mx X 0.
Proof. by rewrite /prop1_WKQ mul_block_col !mul1mx !mul0mx addr0 add0r. Qed.

Lemma prop1_values N (W0 : 'M[R]_(o, d)) (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) :
  prop1_WV W0 *m col_mx X Y = col_mx 0 (W0 *m X - Y).
Proof. by rewrite /prop1_WV mul_block_col !mul0mx addr0 mulNmx mul1mx. Qed.

(* The attention update of the Prop. 1 head for a context of K columns and any tokens. *)
Lemma prop1_update N K M (eta : R) (W0 : 'M[R]_(o, d))
    (X : 'M[R]_(d, K)) (Y : 'M[R]_(o, K)) (Xt : 'M[R]_(d, M)) (Yt : 'M[R]_(o, M)) :
  prop1_P N eta *m ((prop1_WV W0 *m col_mx X Y) *m (prop1_WKQ *m col_mx X Y)^T)
    *m (prop1_WKQ *m col_mx Xt Yt)
  = col_mx 0 ((eta / N%:R) *: ((W0 *m X - Y) *m X^T *m Xt)).
Proof.
rewrite !prop1_keys prop1_values tr_col_mx trmx0 mul_col_row !mul0mx !mulmx0.
by rewrite -mulmxA mul_block_col !mul0mx !addr0 /prop1_P mul_scalar_mx scale_col_mx scaler0.
Qed.

Lemma prop1_lsa_tokens N M (eta : R) (W0 : 'M[R]_(o, d))
    (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) (Xt : 'M[R]_(d, M)) (Yt : 'M[R]_(o, M)) :
  lsa (prop1_P N eta) (prop1_WV W0) prop1_WKQ prop1_WKQ (col_mx X Y) (col_mx Xt Yt)
    = col_mx Xt (Yt - gd_delta X Y eta W0 *m Xt).
Proof.
rewrite /lsa prop1_update add_col_mx addr0; congr col_mx.
by rewrite /gd_delta -scalemxAl scaleNr opprK.
Qed.

Lemma lsubmx_block m1 m2 n1 n2 (A : 'M[R]_(m1, n1)) (B : 'M[R]_(m1, n2))
    (C : 'M[R]_(m2, n1)) (D : 'M[R]_(m2, n2)) :
  lsubmx (block_mx A B C D) = col_mx A C.
Proof. by rewrite block_mxEh row_mxKl. Qed.

(* Proposition 1: context tokens [X; Y] and queries [Xq; Yq] in one token matrix. *)
Theorem prop1_lsa_gd_step N Q (eta : R) (W0 : 'M[R]_(o, d))
    (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) (Xq : 'M[R]_(d, Q)) (Yq : 'M[R]_(o, Q)) :
  lsa_masked (prop1_P N eta) (prop1_WV W0) prop1_WKQ prop1_WKQ (block_mx X Xq Y Yq)
    = block_mx X Xq (Y - gd_delta X Y eta W0 *m X) (Yq - gd_delta X Y eta W0 *m Xq).
Proof.
rewrite /lsa_masked lsubmx_block [block_mx X Xq Y Yq]block_mxEv prop1_lsa_tokens.
by rewrite mul_mx_row opp_row_mx add_row_mx block_mxEv.
Qed.

(* Read-out: with y_q0 = -W0 x_q the query holds -(W0 + DeltaW) x_q. *)
Theorem prop1_readout N Q (eta : R) (W0 : 'M[R]_(o, d))
    (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) (Xq : 'M[R]_(d, Q)) :
  - (W0 *m Xq) - gd_delta X Y eta W0 *m Xq = - ((W0 + gd_delta X Y eta W0) *m Xq).
Proof. by rewrite mulmxDl opprD. Qed.

(* The read-out composed with the layer: the prediction after the layer is (W0 + DeltaW) x_q. *)
Theorem prop1_layer_readout N Q (eta : R) (W0 : 'M[R]_(o, d))
    (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) (Xq : 'M[R]_(d, Q)) :
  - drsubmx (lsa_masked (prop1_P N eta) (prop1_WV W0) prop1_WKQ prop1_WKQ
               (block_mx X Xq Y (- (W0 *m Xq))))
    = (W0 + gd_delta X Y eta W0) *m Xq.
Proof. by rewrite prop1_lsa_gd_step block_mxKdr prop1_readout opprK. Qed.

(* Unmasked: the queries [Xq; Yq] are also keys and values. *)
Theorem prop1_unmasked_deviation N Q M (eta : R) (W0 : 'M[R]_(o, d))
    (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) (Xq : 'M[R]_(d, Q)) (Yq : 'M[R]_(o, Q))
    (Xt : 'M[R]_(d, M)) (Yt : 'M[R]_(o, M)) :
  lsa (prop1_P N eta) (prop1_WV W0) prop1_WKQ prop1_WKQ
      (row_mx (col_mx X Y) (col_mx Xq Yq)) (col_mx Xt Yt)
    = lsa (prop1_P N eta) (prop1_WV W0) prop1_WKQ prop1_WKQ (col_mx X Y) (col_mx Xt Yt)
      + col_mx 0 ((eta / N%:R) *: ((W0 *m Xq - Yq) *m Xq^T *m Xt)).
Proof.
rewrite /lsa !mul_mx_row tr_row_mx mul_row_col mulmxDr mulmxDl addrA.
by rewrite [in LHS]prop1_update [in RHS]prop1_update prop1_update.
Qed.

Theorem prop1_unmasked_exact N Q M (eta : R) (W0 : 'M[R]_(o, d))
    (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) (Xq : 'M[R]_(d, Q)) (Yq : 'M[R]_(o, Q))
    (Xt : 'M[R]_(d, M)) (Yt : 'M[R]_(o, M)) :
  W0 *m Xq = Yq ->
  lsa (prop1_P N eta) (prop1_WV W0) prop1_WKQ prop1_WKQ
      (row_mx (col_mx X Y) (col_mx Xq Yq)) (col_mx Xt Yt)
    = col_mx Xt (Yt - gd_delta X Y eta W0 *m Xt).
Proof.
move=> readout_exact; rewrite prop1_unmasked_deviation readout_exact subrr !mul0mx scaler0.
by rewrite col_mx0 addr0 prop1_lsa_tokens.
Qed.

(* The residual targets Y - W X: one step on them from 0 is the step on Y from W. *)
Lemma gd_delta_residual N (eta : R) (W : 'M[R]_(o, d)) (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) :
  gd_delta X (Y - W *m X) eta 0 = gd_delta X Y eta W.
Proof. by rewrite /gd_delta mul0mx sub0r opprB. Qed.

(* K masked layers with W0 = 0: the y-parts hold the residuals Y - W_K X, the queries -W_K Xq. *)
Theorem lsa_stack_gd_steps N Q (eta : R) K
    (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) (Xq : 'M[R]_(d, Q)) :
  iter K (lsa_masked (prop1_P N eta) (prop1_WV 0) prop1_WKQ prop1_WKQ) (block_mx X Xq Y 0)
    = block_mx X Xq (Y - gd_iter X Y eta K *m X) (- (gd_iter X Y eta K *m Xq)).
Proof.
elim: K => [|K IHK]; first by rewrite /= !mul0mx subr0 oppr0.
rewrite iterS IHK prop1_lsa_gd_step gd_delta_residual gd_iterS gd_step_delta.
by rewrite !mulmxDl opprD addrA opprD.
Qed.

(* GD with one step size per step: W_0 = 0, W_(l+1) = W_l - eta_l grad L(W_l). *)
Fixpoint gd_iter_etas N (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) (etas : nat -> R) K
    : 'M[R]_(o, d) :=
  if K is K'.+1 then gd_step X Y (etas K') (gd_iter_etas X Y etas K') else 0.

(* A stack of K masked Prop. 1 layers with W0 = 0, layer l (from 0) with its own step eta_l. *)
Fixpoint lsa_stack_etas N Q (etas : nat -> R) K (T : 'M[R]_(d + o, N + Q))
    : 'M[R]_(d + o, N + Q) :=
  if K is K'.+1 then
    lsa_masked (prop1_P N (etas K')) (prop1_WV 0) prop1_WKQ prop1_WKQ (lsa_stack_etas etas K' T)
  else T.

(* K layers with steps eta_0 .. eta_(K-1): the y-parts hold Y - W_K X, the queries -W_K Xq,
   W_K = K GD steps from 0 with those steps in that order. *)
Theorem lsa_stack_gd_steps_etas N Q (etas : nat -> R) K
    (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) (Xq : 'M[R]_(d, Q)) :
  lsa_stack_etas etas K (block_mx X Xq Y 0)
    = block_mx X Xq (Y - gd_iter_etas X Y etas K *m X) (- (gd_iter_etas X Y etas K *m Xq)).
Proof.
elim: K => [|K IHK]; first by rewrite /= !mul0mx subr0 oppr0.
rewrite /= IHK prop1_lsa_gd_step gd_delta_residual gd_step_delta.
by rewrite !mulmxDl opprD addrA opprD.
Qed.

(* With one step size for every layer the per-layer stack is the recurrent one. *)
Lemma gd_iter_etas_const N (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) (eta : R) K :
  gd_iter_etas X Y (fun=> eta) K = gd_iter X Y eta K.
Proof. by elim: K => [|K IHK] //=; rewrite IHK. Qed.

(* The stack's prediction in closed form: -(query y-part) = W_K Xq with
   W_K = eta (Y X^T / N) sum_(k < K) (I - eta X X^T / N)^k. *)
Theorem lsa_stack_neumann N Q (eta : R) K
    (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) (Xq : 'M[R]_(d, Q)) :
  iter K (lsa_masked (prop1_P N eta) (prop1_WV 0) prop1_WKQ prop1_WKQ) (block_mx X Xq Y 0)
    = block_mx X Xq (Y - gd_iter X Y eta K *m X)
        (- ((eta *: ((N%:R)^-1 *: (Y *m X^T)))
             *m (\sum_(k < K) mxpow (1%:M - eta *: gd_hess X) k) *m Xq)).
Proof. by rewrite lsa_stack_gd_steps gd_iterates_neumann. Qed.

End Proposition1.

Arguments prop1_WKQ {R d o}.

Section GDplusplus.
Variable R : numFieldType.
Variables d o : nat.

(* The GD++ head: WK = WQ = prop1_WKQ, WV = [[-gamma I_d, 0], [W0, -I_o]],
   P = blockdiag(I_d, (eta/N) I_o)  (our scaling: gamma carries no 1/N). *)
Definition gdpp_WV (gamma : R) (W0 : 'M[R]_(o, d)) : 'M[R]_(d + o) :=
  block_mx (- gamma%:M) 0 W0 (- 1%:M).
Definition gdpp_P N (eta : R) : 'M[R]_(d + o) := block_mx 1%:M 0 0 (eta / N%:R)%:M.

Lemma gdpp_update N K M (gamma eta : R) (W0 : 'M[R]_(o, d))
    (X : 'M[R]_(d, K)) (Y : 'M[R]_(o, K)) (Xt : 'M[R]_(d, M)) (Yt : 'M[R]_(o, M)) :
  gdpp_P N eta *m ((gdpp_WV gamma W0 *m col_mx X Y) *m (prop1_WKQ *m col_mx X Y)^T)
    *m (prop1_WKQ *m col_mx Xt Yt)
  = col_mx (- gamma *: (X *m X^T *m Xt)) ((eta / N%:R) *: ((W0 *m X - Y) *m X^T *m Xt)).
Proof.
rewrite !prop1_keys /gdpp_WV mul_block_col !mul0mx addr0 !mulNmx mul1mx mul_scalar_mx.
rewrite tr_col_mx trmx0 mul_col_row !mulmx0 -mulmxA mul_block_col !mul0mx !addr0.
rewrite /gdpp_P mul_block_col !mul0mx mul1mx addr0 add0r mul_scalar_mx.
by rewrite !mulNmx -!scalemxAl scaleNr.
Qed.

Lemma gdpp_lsa_tokens N M (gamma eta : R) (W0 : 'M[R]_(o, d))
    (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) (Xt : 'M[R]_(d, M)) (Yt : 'M[R]_(o, M)) :
  lsa (gdpp_P N eta) (gdpp_WV gamma W0) prop1_WKQ prop1_WKQ (col_mx X Y) (col_mx Xt Yt)
    = col_mx ((1%:M - gamma *: (X *m X^T)) *m Xt) (Yt - gd_delta X Y eta W0 *m Xt).
Proof.
rewrite /lsa gdpp_update add_col_mx; congr col_mx.
  by rewrite mulmxBl mul1mx -scalemxAl scaleNr.
by rewrite /gd_delta -scalemxAl scaleNr opprK.
Qed.

(* One GD++ layer: x_j <- (I - gamma X X^T) x_j and y_j <- y_j - DeltaW x_j, for the context and
   the queries, all computed from the layer's input. *)
Theorem gdpp_layer_identity N Q (gamma eta : R) (W0 : 'M[R]_(o, d))
    (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) (Xq : 'M[R]_(d, Q)) (Yq : 'M[R]_(o, Q)) :
  lsa_masked (gdpp_P N eta) (gdpp_WV gamma W0) prop1_WKQ prop1_WKQ (block_mx X Xq Y Yq)
    = block_mx ((1%:M - gamma *: (X *m X^T)) *m X) ((1%:M - gamma *: (X *m X^T)) *m Xq)
               (Y - gd_delta X Y eta W0 *m X) (Yq - gd_delta X Y eta W0 *m Xq).
Proof.
rewrite /lsa_masked lsubmx_block [block_mx X Xq Y Yq]block_mxEv gdpp_lsa_tokens.
by rewrite !mul_mx_row opp_row_mx add_row_mx block_mxEv.
Qed.

Variables (N Q : nat) (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) (Xq : 'M[R]_(d, Q)).
Variables gamma eta : nat -> R.

(* Layers 0 .. L-1 with (gamma_l, eta_l) and W0 = 0. *)
Fixpoint gdpp_stack L (T : 'M[R]_(d + o, N + Q)) :=
  if L is l.+1 then
    lsa_masked (gdpp_P N (eta l)) (gdpp_WV (gamma l) 0) prop1_WKQ prop1_WKQ (gdpp_stack l T)
  else T.

(* S_0 = I, S_(l+1) = (I - gamma_l X_l X_l^T) S_l with X_l = S_l X. *)
Fixpoint gdpp_S L : 'M[R]_d :=
  if L is l.+1 then
    (1%:M - gamma l *: (gdpp_S l *m X *m (gdpp_S l *m X)^T)) *m gdpp_S l
  else 1%:M.

(* Preconditioned GD in the original coordinates: W_(l+1) = W_l - eta_l grad L(W_l) S_l^2. *)
Fixpoint gdpp_W L : 'M[R]_(o, d) :=
  if L is l.+1 then gdpp_W l - eta l *: (gd_grad X Y (gdpp_W l) *m (gdpp_S l *m gdpp_S l))
  else 0.

Lemma gdpp_S_sym_comm L : (gdpp_S L)^T = gdpp_S L /\ comm_mx (X *m X^T) (gdpp_S L).
Proof.
elim: L => [|l [symS commS]] /=; first by rewrite trmx1; split; last exact: comm_mx1.
have SXXS : gdpp_S l *m X *m (gdpp_S l *m X)^T = gdpp_S l *m (X *m X^T) *m gdpp_S l.
  by rewrite trmx_mul symS !mulmxA.
have commSA : comm_mx (gdpp_S l) (X *m X^T) by exact: comm_mx_sym.
have commM : comm_mx (gdpp_S l) (1%:M - gamma l *: (gdpp_S l *m (X *m X^T) *m gdpp_S l)).
  apply: comm_mxB; first exact: comm_mx1.
  rewrite -mul_scalar_mx; apply: comm_mxM; first exact: comm_mx_scalar.
  apply: comm_mxM; last exact: comm_mx_refl.
  by apply: comm_mxM; [exact: comm_mx_refl | exact: commSA].
rewrite SXXS; split.
  rewrite trmx_mul linearB /= trmx1 linearZ /= !trmx_mul symS trmxK.
  by rewrite [gdpp_S l *m (X *m X^T *m _)]mulmxA; exact: commM.
apply: comm_mxM => //; apply: comm_mxB; first exact: comm_mx1.
rewrite -mul_scalar_mx; apply: comm_mxM; first exact: comm_mx_scalar.
by apply: comm_mxM => //; apply: comm_mxM => //; exact: comm_mx_refl.
Qed.

Lemma gdpp_S_sym L : (gdpp_S L)^T = gdpp_S L.
Proof. by case: (gdpp_S_sym_comm L). Qed.

Theorem gdpp_preconditioned_gd L :
  gdpp_stack L (block_mx X Xq Y 0)
    = block_mx (gdpp_S L *m X) (gdpp_S L *m Xq) (Y - gdpp_W L *m X) (- (gdpp_W L *m Xq)).
Proof.
elim: L => [|l IHl]; first by rewrite /= !mul1mx !mul0mx subr0 oppr0.
rewrite [gdpp_stack _ _]/= IHl gdpp_layer_identity /= !mulmxA.
set S := gdpp_S l; set W := gdpp_W l.
have DS : gd_delta (S *m X) (Y - W *m X) (eta l) 0 *m S
    = - eta l *: (gd_grad X Y W *m S *m S).
  rewrite /gd_delta /gd_grad mul0mx sub0r opprB trmx_mul gdpp_S_sym -!scalemxAl scalerA.
  by rewrite !mulmxA mulNr.
have W' : W - eta l *: (gd_grad X Y W *m S *m S)
    = W + gd_delta (S *m X) (Y - W *m X) (eta l) 0 *m S by rewrite DS scaleNr.
by rewrite W' !mulmxDl !opprD addrA.
Qed.

End GDplusplus.
