(* statements/vonoswald.v -- the claims of the vonoswald family (von Oswald et al. 2023,
   Proposition 1, its unmasked deviation, K-layer GD stacks, GD++), stated on plain mathcomp
   objects defined below.  Checked against the project's theorems in vonoswald_check.v.

   Conventions: columns are tokens (examples).  X is d x N (the N context inputs), Y is o x N
   (their targets), Xq is d x Q and Yq is o x Q (the Q queries and their y-parts); the token
   matrix is [[X, Xq], [Y, Yq]] (block_mx X Xq Y Yq), context first.  A linear model W is o x d
   and predicts W x.  The last claim (floating point on dyadic data) is over Coq's real numbers
   (Reals, no Flocq), so it and its definitions depend on the classical-reals axioms; every
   other claim is over mathcomp's fields, closed. *)

From mathcomp Require Import all_ssreflect all_algebra.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import GRing.Theory Num.Theory.
Local Open Scope ring_scope.

(* One linear self-attention head: every token (column of T) attends to the context C,
   T + P (WV C) (WK C)^T (WQ T). *)
Definition lsa_head (R : ringType) (m p n M : nat) (P WV : 'M[R]_m) (WK WQ : 'M[R]_(p, m))
    (C : 'M[R]_(m, n)) (T : 'M[R]_(m, M)) : 'M[R]_(m, M) :=
  T + P *m (WV *m C) *m (WK *m C)^T *m (WQ *m T).

(* The masked head on a token matrix with N context tokens and Q queries: the keys and values
   are the N context tokens only (the first N columns, lsubmx T); every token is updated. *)
Definition masked_lsa_head (R : ringType) (m p N Q : nat) (P WV : 'M[R]_m)
    (WK WQ : 'M[R]_(p, m)) (T : 'M[R]_(m, N + Q)) : 'M[R]_(m, N + Q) :=
  lsa_head P WV WK WQ (lsubmx T) T.

(* Proposition 1's key and query weights W_K = W_Q = [[I_d, 0], [0, 0]]. *)
Definition prop1_WKQ (R : ringType) (d o : nat) : 'M[R]_(d + o) := block_mx 1%:M 0 0 0.

(* Proposition 1's value weights W_V = [[0, 0], [W0, -I_o]]. *)
Definition prop1_WV (R : ringType) (d o : nat) (W0 : 'M[R]_(o, d)) : 'M[R]_(d + o) :=
  block_mx 0 0 W0 (- 1%:M).

(* Proposition 1's projection P = (eta / N) I. *)
Definition prop1_P (R : fieldType) (d o N : nat) (eta : R) : 'M[R]_(d + o) := (eta / N%:R)%:M.

(* The loss L(W) = 1/(2N) ||W X - Y||_F^2 (||A||_F^2 = tr (A A^T)). *)
Definition loss (R : fieldType) (d o N : nat) (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N))
    (W : 'M[R]_(o, d)) : R :=
  (N%:R)^-1 / 2 * \tr ((W *m X - Y) *m (W *m X - Y)^T).

(* The gradient of L at W: (1/N) (W X - Y) X^T (the first claim below states it: L(W + H) =
   L(W) + <grad L(W), H> + 1/(2N) ||H X||_F^2). *)
Definition grad_loss (R : fieldType) (d o N : nat) (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N))
    (W : 'M[R]_(o, d)) : 'M[R]_(o, d) :=
  (N%:R)^-1 *: ((W *m X - Y) *m X^T).

(* von Oswald's update DeltaW = - eta grad L(W0). *)
Definition delta_W (R : fieldType) (d o N : nat) (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N))
    (eta : R) (W0 : 'M[R]_(o, d)) : 'M[R]_(o, d) :=
  - eta *: grad_loss X Y W0.

(* One gradient-descent step W - eta grad L(W). *)
Definition gd_step (R : fieldType) (d o N : nat) (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N))
    (eta : R) (W : 'M[R]_(o, d)) : 'M[R]_(o, d) :=
  W - eta *: grad_loss X Y W.

(* k gradient-descent steps from W = 0, the step l (l = 0 .. k-1) with step size etas l. *)
Fixpoint gd_steps (R : fieldType) (d o N : nat) (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N))
    (etas : nat -> R) (k : nat) : 'M[R]_(o, d) :=
  if k is k'.+1 then gd_step X Y (etas k') (gd_steps X Y etas k') else 0.

(* The square matrix A to the power k, A^0 = I, A^(k+1) = A^k A. *)
Definition mx_power (R : ringType) (n : nat) (A : 'M[R]_n) (k : nat) : 'M[R]_n :=
  iter k (fun M => M *m A) 1%:M.

(* A stack of K masked Prop. 1 heads with W0 = 0, the head l (l = 0 .. K-1) with step etas l;
   the head l reads the output of the head l - 1. *)
Fixpoint prop1_stack (R : fieldType) (d o N Q : nat) (etas : nat -> R) (K : nat)
    (T : 'M[R]_(d + o, N + Q)) : 'M[R]_(d + o, N + Q) :=
  if K is K'.+1 then
    masked_lsa_head (prop1_P d o N (etas K')) (prop1_WV (0 : 'M[R]_(o, d)))
      (prop1_WKQ R d o) (prop1_WKQ R d o) (prop1_stack etas K' T)
  else T.

(* The GD++ value weights W_V = [[-gamma I_d, 0], [W0, -I_o]] (W_K = W_Q = prop1_WKQ). *)
Definition gdpp_WV (R : ringType) (d o : nat) (gamma : R) (W0 : 'M[R]_(o, d)) : 'M[R]_(d + o) :=
  block_mx (- gamma%:M) 0 W0 (- 1%:M).

(* The GD++ projection P = [[I_d, 0], [0, (eta / N) I_o]]. *)
Definition gdpp_P (R : fieldType) (d o N : nat) (eta : R) : 'M[R]_(d + o) :=
  block_mx 1%:M 0 0 (eta / N%:R)%:M.

(* A stack of L masked GD++ heads with W0 = 0, the head l with (gammas l, etas l). *)
Fixpoint gdpp_stack (R : fieldType) (d o N Q : nat) (gammas etas : nat -> R) (L : nat)
    (T : 'M[R]_(d + o, N + Q)) : 'M[R]_(d + o, N + Q) :=
  if L is l.+1 then
    masked_lsa_head (gdpp_P d o N (etas l)) (gdpp_WV (gammas l) (0 : 'M[R]_(o, d)))
      (prop1_WKQ R d o) (prop1_WKQ R d o) (gdpp_stack gammas etas l T)
  else T.

(* GD++'s input transform: S_0 = I, S_(l+1) = (I - gamma_l X_l X_l^T) S_l with X_l = S_l X. *)
Fixpoint gdpp_S (R : fieldType) (d N : nat) (X : 'M[R]_(d, N)) (gammas : nat -> R) (L : nat)
    : 'M[R]_d :=
  if L is l.+1 then
    (1%:M - gammas l *: (gdpp_S X gammas l *m X *m (gdpp_S X gammas l *m X)^T))
      *m gdpp_S X gammas l
  else 1%:M.

(* Preconditioned GD: W_0 = 0, W_(l+1) = W_l - eta_l grad L(W_l) S_l^2. *)
Fixpoint gdpp_W (R : fieldType) (d o N : nat) (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N))
    (gammas etas : nat -> R) (L : nat) : 'M[R]_(o, d) :=
  if L is l.+1 then
    gdpp_W X Y gammas etas l
      - etas l *: (grad_loss X Y (gdpp_W X Y gammas etas l)
                   *m (gdpp_S X gammas l *m gdpp_S X gammas l))
  else 0.

(* ------------------------------------------------------------------------------------------ *)
(* vonoswald.prop1_layer_moves_every_token_by_one_gd_step: "The masked Prop. 1 head (W_K = W_Q =
   [[I,0],[0,0]], W_V = [[0,0],[W0,-I]], P = (eta/N) I) maps every token, queries included, to
   (x_j; y_j - DeltaW x_j) with DeltaW = -eta grad L(W0): random W0, o in 1..3, N < d and N > d,
   1-3 queries with arbitrary y_q0; x-parts bit-identical."
   Covers: the whole token matrix, over any ordered field, any W0, Yq and sizes >= 1, eta != 0
   (the property draws o in 1..3 and 1..3 queries; the claim is for every size); and that
   grad_loss is the gradient of L at W0 (second conjunct, from GradientDescent.v:gd_step_neg_grad:
   L(W0 + H) = L(W0) + tr(grad L(W0) H^T) + 1/(2N) ||H X||_F^2 for every H).  Not covered:
   "bit-identical" in floating point (the claim is exact arithmetic; the x-parts are the same
   matrices X and Xq; see prop1_layer_is_exact_on_dyadic_data for floating point). *)
Definition premises_vonoswald__prop1_layer_moves_every_token_by_one_gd_step
    (R : numFieldType) (d o N Q : nat) (eta : R) : Prop :=
  (0 < d)%N /\ (0 < o)%N /\ (0 < N)%N /\ (0 < Q)%N /\ eta != 0.

Definition claim_vonoswald__prop1_layer_moves_every_token_by_one_gd_step : Prop :=
  forall (R : numFieldType) (d o N Q : nat) (eta : R) (W0 : 'M[R]_(o, d))
    (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) (Xq : 'M[R]_(d, Q)) (Yq : 'M[R]_(o, Q)),
  premises_vonoswald__prop1_layer_moves_every_token_by_one_gd_step d o N Q eta ->
  masked_lsa_head (prop1_P d o N eta) (prop1_WV W0) (prop1_WKQ R d o) (prop1_WKQ R d o)
    (block_mx X Xq Y Yq)
  = block_mx X Xq (Y - delta_W X Y eta W0 *m X) (Yq - delta_W X Y eta W0 *m Xq)
  /\ (forall H : 'M[R]_(o, d),
        loss X Y (W0 + H)
        = loss X Y W0 + \tr (grad_loss X Y W0 *m H^T)
          + (N%:R)^-1 / 2 * \tr ((H *m X) *m (H *m X)^T)).

Lemma witness_vonoswald__prop1_layer_moves_every_token_by_one_gd_step :
  @premises_vonoswald__prop1_layer_moves_every_token_by_one_gd_step
    rat_numFieldType 2 1 3 2 (1 / 4).
Proof. by []. Qed.

(* vonoswald.prop1_readout_predicts_w0_plus_delta_w: "With y_q0 = -W0 x_q the prediction -(y-part
   of the query after the layer) equals (W0 + DeltaW) x_q, the GD-updated model's prediction."
   Covers: the masked Prop. 1 head on [[X, Xq], [Y, -W0 Xq]], the prediction read out of its
   query block (drsubmx, the y-rows of the Q query columns), all queries at once; exact
   arithmetic over any ordered field. *)
Definition premises_vonoswald__prop1_readout_predicts_w0_plus_delta_w
    (R : numFieldType) (d o N Q : nat) (eta : R) : Prop :=
  (0 < d)%N /\ (0 < o)%N /\ (0 < N)%N /\ (0 < Q)%N /\ eta != 0.

Definition claim_vonoswald__prop1_readout_predicts_w0_plus_delta_w : Prop :=
  forall (R : numFieldType) (d o N Q : nat) (eta : R) (W0 : 'M[R]_(o, d))
    (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) (Xq : 'M[R]_(d, Q)),
  premises_vonoswald__prop1_readout_predicts_w0_plus_delta_w d o N Q eta ->
  - drsubmx (masked_lsa_head (prop1_P d o N eta) (prop1_WV W0) (prop1_WKQ R d o)
               (prop1_WKQ R d o) (block_mx X Xq Y (- (W0 *m Xq))))
  = (W0 + delta_W X Y eta W0) *m Xq.

Lemma witness_vonoswald__prop1_readout_predicts_w0_plus_delta_w :
  @premises_vonoswald__prop1_readout_predicts_w0_plus_delta_w
    rat_numFieldType 3 2 2 1 (1 / 2).
Proof. by []. Qed.

(* vonoswald.unmasked_layer_deviates_by_the_query_term: "With the queries among the keys/values,
   every token's y-part is the GD-updated one plus exactly (eta/N) (W0 Xq - Yq0) Xq^T x_j."
   Covers: the unmasked head (keys and values: all N + Q tokens; P = (eta/N) I as in the masked
   head) on the whole token matrix, context and query columns, exact arithmetic. *)
Definition premises_vonoswald__unmasked_layer_deviates_by_the_query_term
    (R : numFieldType) (d o N Q : nat) (eta : R) : Prop :=
  (0 < d)%N /\ (0 < o)%N /\ (0 < N)%N /\ (0 < Q)%N /\ eta != 0.

Definition claim_vonoswald__unmasked_layer_deviates_by_the_query_term : Prop :=
  forall (R : numFieldType) (d o N Q : nat) (eta : R) (W0 : 'M[R]_(o, d))
    (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) (Xq : 'M[R]_(d, Q)) (Yq : 'M[R]_(o, Q)),
  premises_vonoswald__unmasked_layer_deviates_by_the_query_term d o N Q eta ->
  lsa_head (prop1_P d o N eta) (prop1_WV W0) (prop1_WKQ R d o) (prop1_WKQ R d o)
    (block_mx X Xq Y Yq) (block_mx X Xq Y Yq)
  = block_mx X Xq
      (Y - delta_W X Y eta W0 *m X + (eta / N%:R) *: ((W0 *m Xq - Yq) *m Xq^T *m X))
      (Yq - delta_W X Y eta W0 *m Xq + (eta / N%:R) *: ((W0 *m Xq - Yq) *m Xq^T *m Xq)).

Lemma witness_vonoswald__unmasked_layer_deviates_by_the_query_term :
  @premises_vonoswald__unmasked_layer_deviates_by_the_query_term
    rat_numFieldType 2 1 4 3 (1 / 8).
Proof. by []. Qed.

(* vonoswald.unmasked_layer_is_exact_when_w0_xq_equals_yq0: "When W0 Xq = Yq0 holds exactly
   (dyadic W0, Xq), the unmasked Prop. 1 layer is the GD step again."
   Covers: the unmasked head on the whole token matrix whenever W0 Xq = Yq holds, exact
   arithmetic (the property makes it hold in floating point by drawing dyadic W0, Xq). *)
Definition premises_vonoswald__unmasked_layer_is_exact_when_w0_xq_equals_yq0
    (R : numFieldType) (d o N Q : nat) (eta : R) (W0 : 'M[R]_(o, d)) (Xq : 'M[R]_(d, Q))
    (Yq : 'M[R]_(o, Q)) : Prop :=
  (0 < d)%N /\ (0 < o)%N /\ (0 < N)%N /\ (0 < Q)%N /\ eta != 0 /\ W0 *m Xq = Yq.

Definition claim_vonoswald__unmasked_layer_is_exact_when_w0_xq_equals_yq0 : Prop :=
  forall (R : numFieldType) (d o N Q : nat) (eta : R) (W0 : 'M[R]_(o, d))
    (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) (Xq : 'M[R]_(d, Q)) (Yq : 'M[R]_(o, Q)),
  premises_vonoswald__unmasked_layer_is_exact_when_w0_xq_equals_yq0 N eta W0 Xq Yq ->
  lsa_head (prop1_P d o N eta) (prop1_WV W0) (prop1_WKQ R d o) (prop1_WKQ R d o)
    (block_mx X Xq Y Yq) (block_mx X Xq Y Yq)
  = block_mx X Xq (Y - delta_W X Y eta W0 *m X) (Yq - delta_W X Y eta W0 *m Xq).

(* d = 2, o = 1, N = 2, Q = 1: W0 = [1 1], Xq = [1; 1], Yq = [2]. *)
Lemma witness_vonoswald__unmasked_layer_is_exact_when_w0_xq_equals_yq0 :
  @premises_vonoswald__unmasked_layer_is_exact_when_w0_xq_equals_yq0
    rat_numFieldType 2 1 2 1 (1 / 2)
    (const_mx 1) (const_mx 1) (const_mx 2).
Proof.
do 5 (split; first by []).
by apply/matrixP => i j; rewrite !mxE big_ord_recl big_ord1 !mxE mulr1.
Qed.

(* vonoswald.gd_stack_tokens_follow_k_gd_steps: "K masked Prop. 1 layers with W0 = 0 (a stack of
   K layers, and one layer applied K times) hold [[X, Xq], [Y - W_k X, -W_k Xq]] after layer k,
   W_k = k GD steps from 0 (the stack: layer l with its own eta_l, the steps taken with those
   eta_l; the recurrent layer: one eta)."
   Covers: both, after every number k of layers, from [[X, Xq], [Y, 0]]: the stack with any
   nonzero steps etas l, and one head with step eta applied k times; exact arithmetic. *)
Definition premises_vonoswald__gd_stack_tokens_follow_k_gd_steps
    (R : numFieldType) (d o N Q : nat) (etas : nat -> R) (eta : R) : Prop :=
  (0 < d)%N /\ (0 < o)%N /\ (0 < N)%N /\ (0 < Q)%N /\ (forall l, etas l != 0) /\ eta != 0.

Definition claim_vonoswald__gd_stack_tokens_follow_k_gd_steps : Prop :=
  forall (R : numFieldType) (d o N Q : nat) (etas : nat -> R) (eta : R)
    (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) (Xq : 'M[R]_(d, Q)),
  premises_vonoswald__gd_stack_tokens_follow_k_gd_steps d o N Q etas eta ->
  forall k : nat,
    prop1_stack etas k (block_mx X Xq Y 0)
      = block_mx X Xq (Y - gd_steps X Y etas k *m X) (- (gd_steps X Y etas k *m Xq))
    /\ iter k (masked_lsa_head (prop1_P d o N eta) (prop1_WV (0 : 'M[R]_(o, d)))
                 (prop1_WKQ R d o) (prop1_WKQ R d o)) (block_mx X Xq Y 0)
      = block_mx X Xq (Y - gd_steps X Y (fun _ => eta) k *m X)
          (- (gd_steps X Y (fun _ => eta) k *m Xq)).

(* etas l = 1 / (l + 2). *)
Lemma witness_vonoswald__gd_stack_tokens_follow_k_gd_steps :
  @premises_vonoswald__gd_stack_tokens_follow_k_gd_steps
    rat_numFieldType 3 1 2 2
    (fun l => 1 / (l.+2)%:R) (1 / 4).
Proof.
do 4 (split; first by []); split; last by [].
by move=> l; rewrite div1r invr_eq0 pnatr_eq0.
Qed.

(* vonoswald.gd_stack_prediction_equals_neumann_closed_form: "The K-layer stack predicts
   W^(K) x_q with W^(K) = eta (Y X^T/N) sum_{k<K} (I - eta H)^k."  (H = X X^T / N.)
   Covers: the stack of K heads with one step eta (as the property runs it) and the same head
   applied K times; the prediction -(query y-parts) from [[X, Xq], [Y, 0]], all queries at once;
   exact arithmetic. *)
Definition premises_vonoswald__gd_stack_prediction_equals_neumann_closed_form
    (R : numFieldType) (d o N Q : nat) (eta : R) : Prop :=
  (0 < d)%N /\ (0 < o)%N /\ (0 < N)%N /\ (0 < Q)%N /\ eta != 0.

Definition claim_vonoswald__gd_stack_prediction_equals_neumann_closed_form : Prop :=
  forall (R : numFieldType) (d o N Q : nat) (eta : R) (K : nat)
    (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) (Xq : 'M[R]_(d, Q)),
  premises_vonoswald__gd_stack_prediction_equals_neumann_closed_form d o N Q eta ->
  - drsubmx (prop1_stack (fun _ => eta) K (block_mx X Xq Y 0))
    = (eta *: ((N%:R)^-1 *: (Y *m X^T)))
        *m (\sum_(k < K) mx_power (1%:M - eta *: ((N%:R)^-1 *: (X *m X^T))) k) *m Xq
  /\ - drsubmx (iter K (masked_lsa_head (prop1_P d o N eta) (prop1_WV (0 : 'M[R]_(o, d)))
                         (prop1_WKQ R d o) (prop1_WKQ R d o)) (block_mx X Xq Y 0))
    = (eta *: ((N%:R)^-1 *: (Y *m X^T)))
        *m (\sum_(k < K) mx_power (1%:M - eta *: ((N%:R)^-1 *: (X *m X^T))) k) *m Xq.

Lemma witness_vonoswald__gd_stack_prediction_equals_neumann_closed_form :
  @premises_vonoswald__gd_stack_prediction_equals_neumann_closed_form
    rat_numFieldType 2 1 3 2 (1 / 2).
Proof. by []. Qed.

(* vonoswald.gdpp_layer_transforms_inputs_and_steps_targets: "The GD++ head (W_V = [[-gamma I, 0],
   [W0, -I]], P = blockdiag(I, (eta/N) I)) maps every token to ((I - gamma X X^T) x_j;
   y_j - DeltaW x_j), random W0."
   Covers: the masked GD++ head (W_K = W_Q = [[I, 0], [0, 0]], keys and values the context) on
   the whole token matrix, any W0 and Yq, gamma != 0, eta != 0; exact arithmetic. *)
Definition premises_vonoswald__gdpp_layer_transforms_inputs_and_steps_targets
    (R : numFieldType) (d o N Q : nat) (gamma eta : R) : Prop :=
  (0 < d)%N /\ (0 < o)%N /\ (0 < N)%N /\ (0 < Q)%N /\ gamma != 0 /\ eta != 0.

Definition claim_vonoswald__gdpp_layer_transforms_inputs_and_steps_targets : Prop :=
  forall (R : numFieldType) (d o N Q : nat) (gamma eta : R) (W0 : 'M[R]_(o, d))
    (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) (Xq : 'M[R]_(d, Q)) (Yq : 'M[R]_(o, Q)),
  premises_vonoswald__gdpp_layer_transforms_inputs_and_steps_targets d o N Q gamma eta ->
  masked_lsa_head (gdpp_P d o N eta) (gdpp_WV gamma W0) (prop1_WKQ R d o) (prop1_WKQ R d o)
    (block_mx X Xq Y Yq)
  = block_mx ((1%:M - gamma *: (X *m X^T)) *m X) ((1%:M - gamma *: (X *m X^T)) *m Xq)
      (Y - delta_W X Y eta W0 *m X) (Yq - delta_W X Y eta W0 *m Xq).

Lemma witness_vonoswald__gdpp_layer_transforms_inputs_and_steps_targets :
  @premises_vonoswald__gdpp_layer_transforms_inputs_and_steps_targets
    rat_numFieldType 2 2 3 1 (1 / 16) (1 / 2).
Proof. by []. Qed.

(* vonoswald.gdpp_stack_equals_preconditioned_gd: "GD++ layers (gamma_l, eta_l), per-layer and
   recurrent, hold [[S_l X, S_l Xq], [Y - W_l X, -W_l Xq]] with S_{l+1} = (I - gamma_l X_l X_l^T)
   S_l and W_l preconditioned GD with S_l^2."
   Covers: both, after every number l of layers, from [[X, Xq], [Y, 0]]: the stack with any
   nonzero (gammas l, etas l), and one GD++ head (gamma, eta) applied l times (S_l, W_l with the
   constant sequences); exact arithmetic. *)
Definition premises_vonoswald__gdpp_stack_equals_preconditioned_gd
    (R : numFieldType) (d o N Q : nat) (gammas etas : nat -> R) (gamma eta : R) : Prop :=
  (0 < d)%N /\ (0 < o)%N /\ (0 < N)%N /\ (0 < Q)%N
  /\ (forall l, gammas l != 0) /\ (forall l, etas l != 0) /\ gamma != 0 /\ eta != 0.

Definition claim_vonoswald__gdpp_stack_equals_preconditioned_gd : Prop :=
  forall (R : numFieldType) (d o N Q : nat) (gammas etas : nat -> R) (gamma eta : R)
    (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) (Xq : 'M[R]_(d, Q)),
  premises_vonoswald__gdpp_stack_equals_preconditioned_gd d o N Q gammas etas gamma eta ->
  forall l : nat,
    gdpp_stack gammas etas l (block_mx X Xq Y 0)
      = block_mx (gdpp_S X gammas l *m X) (gdpp_S X gammas l *m Xq)
          (Y - gdpp_W X Y gammas etas l *m X) (- (gdpp_W X Y gammas etas l *m Xq))
    /\ iter l (masked_lsa_head (gdpp_P d o N eta) (gdpp_WV gamma (0 : 'M[R]_(o, d)))
                 (prop1_WKQ R d o) (prop1_WKQ R d o)) (block_mx X Xq Y 0)
      = block_mx (gdpp_S X (fun _ => gamma) l *m X) (gdpp_S X (fun _ => gamma) l *m Xq)
          (Y - gdpp_W X Y (fun _ => gamma) (fun _ => eta) l *m X)
          (- (gdpp_W X Y (fun _ => gamma) (fun _ => eta) l *m Xq)).

(* gammas l = 1 / 16, etas l = 1 / (l + 1). *)
Lemma witness_vonoswald__gdpp_stack_equals_preconditioned_gd :
  @premises_vonoswald__gdpp_stack_equals_preconditioned_gd
    rat_numFieldType 2 1 3 2
    (fun _ => 1 / 16) (fun l => 1 / (l.+1)%:R) (1 / 16) (1 / 2).
Proof.
do 4 (split; first by []); split; first by [].
split; last by [].
by move=> l; rewrite div1r invr_eq0 pnatr_eq0.
Qed.

(* ------------------------------------------------------------------------------------------ *)
(* Floating point on dyadic data, over Coq's real numbers (Reals; no Flocq): the C++ programs of
   the Prop. 1 layer and of the GD reference, operation by operation, each operation rounded by
   fl.  Matrices are functions nat -> nat -> R read inside their sizes; the token matrix E is
   (d + o) x (N + Q), context first, x-rows first. *)

From Coq Require Import Reals Lia Lra.
Local Open Scope R_scope.

(* fl rounds to the binary format of precision p and least exponent emin (no overflow): rnd is
   an integer rounding (monotone, the identity on the integers: down, up, to nearest, ...), and
   a nonzero x with 2^(e-1) <= |x| < 2^e is rounded to rnd(x / 2^c) 2^c, c = max(e - p, emin). *)
Definition is_flt_rounding (emin p : Z) (rnd : R -> Z) (fl : R -> R) : Prop :=
  (forall x y : R, x <= y -> (rnd x <= rnd y)%Z)
  /\ (forall n : Z, rnd (IZR n) = n)
  /\ fl 0 = 0
  /\ (forall (x : R) (e : Z), x <> 0 -> powerRZ 2 (e - 1) <= Rabs x < powerRZ 2 e ->
        fl x = IZR (rnd (x * powerRZ 2 (- Z.max (e - p) emin)))
               * powerRZ 2 (Z.max (e - p) emin)).

(* The exact sum of the products a_k b_k of a list of pairs (a_k, b_k). *)
Fixpoint sum_prod (s : list (R * R)) : R :=
  match s with
  | nil => 0
  | cons (a, b) t => a * b + sum_prod t
  end.

(* The generic dot-product loop from acc: acc <- fl(acc + fl(a b)) for each pair in order. *)
Fixpoint dot_seq (fl : R -> R) (acc : R) (s : list (R * R)) : R :=
  match s with
  | nil => acc
  | cons (a, b) t => dot_seq fl (fl (acc + fl (a * b))) t
  end.

(* The same loop with a fused multiply-add: acc <- fl(acc + a b). *)
Fixpoint dot_fma (fl : R -> R) (acc : R) (s : list (R * R)) : R :=
  match s with
  | nil => acc
  | cons (a, b) t => dot_fma fl (fl (acc + a * b)) t
  end.

(* The exact sum rounded once (MPFR's dot product). *)
Definition dot_once (fl : R -> R) (acc : R) (s : list (R * R)) : R := fl (acc + sum_prod s).

(* The pairs (A i t, B t j), t = 0 .. n - 1, of the entry (i, j) of A B. *)
Definition row_col (n : nat) (A B : nat -> nat -> R) (i j : nat) : list (R * R) :=
  seq.map (fun t => (A i t, B t j)) (seq.iota 0 n).

(* The product A B with inner size n, each entry one call of the kernel dot from 0. *)
Definition fmul (dot : R -> list (R * R) -> R) (n : nat) (A B : nat -> nat -> R)
    : nat -> nat -> R :=
  fun i j => dot 0 (row_col n A B i j).

(* The exact product A B with inner size n. *)
Definition emul (n : nat) (A B : nat -> nat -> R) : nat -> nat -> R :=
  fun i j => sum_prod (row_col n A B i j).

(* The transpose. *)
Definition tr (A : nat -> nat -> R) : nat -> nat -> R := fun i j => A j i.

(* Entrywise operations, each rounded once. *)
Definition fadd (fl : R -> R) (F G : nat -> nat -> R) : nat -> nat -> R :=
  fun i j => fl (F i j + G i j).
Definition fsub (fl : R -> R) (F G : nat -> nat -> R) : nat -> nat -> R :=
  fun i j => fl (F i j - G i j).
Definition fscale (fl : R -> R) (c : R) (F : nat -> nat -> R) : nat -> nat -> R :=
  fun i j => fl (c * F i j).
Definition fdiv (fl : R -> R) (F : nat -> nat -> R) (c : R) : nat -> nat -> R :=
  fun i j => fl (F i j / c).

(* The identity matrix's entries. *)
Definition delta (i j : nat) : R := if Nat.eqb i j then 1 else 0.

(* W_K = W_Q = [[I_d, 0], [0, 0]]. *)
Definition dyadic_WKQ (d : nat) : nat -> nat -> R :=
  fun i j => if Nat.ltb i d then delta i j else 0.

(* W_V = [[0, 0], [W0, -I_o]]. *)
Definition dyadic_WV (d : nat) (W0 : nat -> nat -> R) : nat -> nat -> R :=
  fun i j => if Nat.leb d i then (if Nat.ltb j d then W0 (i - d)%nat j else - delta i j) else 0.

(* P = I * (eta / N): in floating point eta / N and each product rounded; exactly. *)
Definition dyadic_P_float (fl : R -> R) (eta : R) (N : nat) : nat -> nat -> R :=
  fun i j => fl (delta i j * fl (eta / INR N)).
Definition dyadic_P_exact (eta : R) (N : nat) : nat -> nat -> R :=
  fun i j => delta i j * (eta / INR N).

(* The masked Prop. 1 layer as the C++ computes it (D = d + o): V = W_V E, K = W_K E,
   A = V K^T over the N context columns, PA = P A, Qm = W_Q E, out = PA Qm + E. *)
Definition layer_float (fl : R -> R) (dot : R -> list (R * R) -> R) (d o N : nat) (eta : R)
    (W0 E : nat -> nat -> R) : nat -> nat -> R :=
  let D := (d + o)%nat in
  let V := fmul dot D (dyadic_WV d W0) E in
  let K := fmul dot D (dyadic_WKQ d) E in
  let A := fmul dot N V (tr K) in
  let PA := fmul dot D (dyadic_P_float fl eta N) A in
  let Qm := fmul dot D (dyadic_WKQ d) E in
  let U := fmul dot D PA Qm in
  fadd fl U E.

(* The same layer in exact arithmetic. *)
Definition layer_exact (d o N : nat) (eta : R) (W0 E : nat -> nat -> R) : nat -> nat -> R :=
  let D := (d + o)%nat in
  let V := emul D (dyadic_WV d W0) E in
  let K := emul D (dyadic_WKQ d) E in
  let A := emul N V (tr K) in
  let PA := emul D (dyadic_P_exact eta N) A in
  let Qm := emul D (dyadic_WKQ d) E in
  let U := emul D PA Qm in
  fun i j => U i j + E i j.

(* The rows d, d + 1, .. of A (the y-rows of a token matrix). *)
Definition rows_from (d : nat) (A : nat -> nat -> R) : nat -> nat -> R :=
  fun i j => A (d + i)%nat j.

(* The GD reference's y-rows as the C++ computes them: Y = E's y-rows, R1 = W0 E_x,
   Res = R1 - Y, G1 = Res E_x^T over the N context columns, G = G1 / N, dW = (-eta) G,
   MX = dW E_x, result Y - MX (every token, context and queries). *)
Definition gd_step_float (fl : R -> R) (dot : R -> list (R * R) -> R) (d N : nat) (eta : R)
    (W0 E : nat -> nat -> R) : nat -> nat -> R :=
  let Y := rows_from d E in
  let R1 := fmul dot d W0 E in
  let Res := fsub fl R1 Y in
  let G1 := fmul dot N Res (tr E) in
  let G := fdiv fl G1 (INR N) in
  let dW := fscale fl (- eta) G in
  let MX := fmul dot d dW E in
  fsub fl Y MX.

(* The same reference in exact arithmetic. *)
Definition gd_step_exact (d N : nat) (eta : R) (W0 E : nat -> nat -> R) : nat -> nat -> R :=
  let Y := rows_from d E in
  let R1 := emul d W0 E in
  let Res := fun i j => R1 i j - Y i j in
  let G1 := emul N Res (tr E) in
  let G := fun i j => G1 i j / INR N in
  let dW := fun i j => - eta * G i j in
  let MX := emul d dW E in
  fun i j => Y i j - MX i j.

(* x is an integer of magnitude at most b. *)
Definition small_int (b : Z) (x : R) : Prop := exists m : Z, x = IZR m /\ (Z.abs m <= b)%Z.

(* The size bound N D^5 b^6 + b 2^(j+k), D = d + o. *)
Definition dyadic_bound (d o N : nat) (b j k : Z) : Z :=
  (Z.of_nat N * Z.of_nat (d + o) ^ 5 * b ^ 6 + b * 2 ^ (j + k))%Z.

(* vonoswald.prop1_layer_is_exact_on_dyadic_data: "On small-integer data with N and eta powers of
   two, the Prop. 1 layer and the GD step are both computed exactly and agree bit for bit in every
   precision iclproof accepts (no tolerance; the proof needs N D^5 b^6 + b 2^(j+k) < 2^p, p >= 32
   for the drawn sizes)."
   Covers: every rounding of every binary format (p, emin) with N D^5 b^6 + b 2^(j+k) < 2^p and
   emin <= -(j + k), the three dot kernels of the C++ (loop, fused multiply-add, rounded once),
   entries of E and W0 integers of magnitude <= b, N = 2^j, eta = 2^-k: every entry of the
   floating-point layer equals the exact layer's, every y-entry of the floating-point reference
   equals the exact reference's, and the layer equals the reference entry for entry (x-rows: E's
   own).  Not covered here: overflow (no value exceeds 2^32 on the drawn data, not modelled);
   that the exact layer is Proposition 1 on mathcomp matrices is the claim
   vonoswald.prop1_layer_moves_every_token_by_one_gd_step above (this one's exact programs are
   entrywise sums, related to it only through the same algebra). *)
Definition premises_vonoswald__prop1_layer_is_exact_on_dyadic_data (emin p : Z)
    (rnd : R -> Z) (fl : R -> R) (dot : R -> list (R * R) -> R) (d o N Q : nat) (b j k : Z)
    (eta : R) (W0 E : nat -> nat -> R) : Prop :=
  is_flt_rounding emin p rnd fl
  /\ (dot = dot_seq fl \/ dot = dot_fma fl \/ dot = dot_once fl)
  /\ (1 <= d)%nat /\ (1 <= o)%nat /\ (1 <= Q)%nat /\ (1 <= b)%Z
  /\ Z.of_nat N = (2 ^ j)%Z /\ (0 <= j)%Z /\ (0 <= k)%Z /\ eta = powerRZ 2 (- k)
  /\ (forall i c, (i < d + o)%nat -> (c < N + Q)%nat -> small_int b (E i c))
  /\ (forall i c, (i < o)%nat -> (c < d)%nat -> small_int b (W0 i c))
  /\ (emin <= - (j + k))%Z /\ (dyadic_bound d o N b j k < 2 ^ p)%Z.

Definition claim_vonoswald__prop1_layer_is_exact_on_dyadic_data : Prop :=
  forall (emin p : Z) (rnd : R -> Z) (fl : R -> R) (dot : R -> list (R * R) -> R)
    (d o N Q : nat) (b j k : Z) (eta : R) (W0 E : nat -> nat -> R),
  premises_vonoswald__prop1_layer_is_exact_on_dyadic_data emin p rnd fl dot d o N Q b j k eta
    W0 E ->
  forall i c : nat, (i < d + o)%nat -> (c < N + Q)%nat ->
    layer_float fl dot d o N eta W0 E i c = layer_exact d o N eta W0 E i c
    /\ ((d <= i)%nat ->
        gd_step_float fl dot d N eta W0 E (i - d)%nat c = gd_step_exact d N eta W0 E (i - d)%nat c)
    /\ layer_float fl dot d o N eta W0 E i c
       = (if Nat.ltb i d then E i c else gd_step_float fl dot d N eta W0 E (i - d)%nat c).

(* For the witness: the exponent e(x) = Int_part(log2 |x|) + 1 (2^(e-1) <= |x| < 2^e for x <> 0)
   and the rounding down (rnd = Int_part) of the format (p, emin). *)
Definition round_down_exponent (x : R) : Z := (Int_part (Rlog 2 (Rabs x)) + 1)%Z.
Definition round_down_flt (emin p : Z) (x : R) : R :=
  IZR (Int_part (x * powerRZ 2 (- Z.max (round_down_exponent x - p) emin)))
  * powerRZ 2 (Z.max (round_down_exponent x - p) emin).

(* double (p = 53, emin = -1074) rounding down, the loop kernel, d = 2, o = 1, N = 2, Q = 1,
   b = 1, j = k = 1 (eta = 1/2), E and W0 all ones. *)
Lemma witness_vonoswald__prop1_layer_is_exact_on_dyadic_data :
  premises_vonoswald__prop1_layer_is_exact_on_dyadic_data (-1074) 53 Int_part
    (round_down_flt (-1074) 53) (dot_seq (round_down_flt (-1074) 53)) 2 1 2 1 1 1 1
    (powerRZ 2 (-1)) (fun _ _ => 1) (fun _ _ => 1).
Proof.
have int_IZR n : Int_part (IZR n) = n.
  have [h1 h2] := base_Int_part (IZR n).
  have a : (Int_part (IZR n) <= n)%Z by apply: le_IZR.
  have b : (n - 1 < Int_part (IZR n))%Z by apply: lt_IZR; rewrite minus_IZR; lra.
  lia.
have pow_Rpower z : powerRZ 2 z = Rpower 2 (IZR z) by apply: powerRZ_Rpower; lra.
have pow_lt z1 z2 : (z1 < z2)%Z -> powerRZ 2 z1 < powerRZ 2 z2.
  by move=> lt; rewrite !pow_Rpower; apply: Rpower_lt; [lra | apply: IZR_lt].
have pow_le z1 z2 : (z1 <= z2)%Z -> powerRZ 2 z1 <= powerRZ 2 z2.
  move=> le; case: (Z.eq_dec z1 z2) => [-> | ne]; first by apply: Rle_refl.
  by apply: Rlt_le; apply: pow_lt; lia.
(* the exponent of the witness brackets |x| and is the only one that does *)
have bracket x : x <> 0 ->
    powerRZ 2 (round_down_exponent x - 1) <= Rabs x < powerRZ 2 (round_down_exponent x).
  move=> x0; have ax : 0 < Rabs x by apply: Rabs_pos_lt.
  have [h1 h2] := base_Int_part (Rlog 2 (Rabs x)).
  have ex : Rpower 2 (Rlog 2 (Rabs x)) = Rabs x.
    by apply: Rpower_Rlog => //; [lra | lra].
  rewrite /round_down_exponent !pow_Rpower Z.add_simpl_r plus_IZR; split.
    case: (Rle_lt_or_eq_dec _ _ h1) => [lt | ->]; last by rewrite ex; apply: Rle_refl.
    by rewrite -{2}ex; apply: Rlt_le; apply: Rpower_lt => //; lra.
  by rewrite -{1}ex; apply: Rpower_lt => //; lra.
have unique x e : x <> 0 -> powerRZ 2 (e - 1) <= Rabs x < powerRZ 2 e ->
    e = round_down_exponent x.
  move=> x0 [e1 e2]; have [w1 w2] := bracket x x0.
  have a : ~ (e <= round_down_exponent x - 1)%Z.
    by move=> le; have := pow_le _ _ le; lra.
  have b : ~ (round_down_exponent x <= e - 1)%Z.
    by move=> le; have := pow_le _ _ le; lra.
  lia.
rewrite /premises_vonoswald__prop1_layer_is_exact_on_dyadic_data; split.
  split.
    move=> x y xy; apply: Znot_gt_le => lt.
    have le : (Int_part y + 1 <= Int_part x)%Z by lia.
    have := IZR_le _ _ le; rewrite plus_IZR.
    have [x1 x2] := base_Int_part x; have [y1 y2] := base_Int_part y; lra.
  split; first exact: int_IZR.
  split; first by rewrite /round_down_flt Rmult_0_l int_IZR Rmult_0_l.
  by move=> x e x0 br; rewrite /round_down_flt -(unique x e x0 br).
split; first by left.
do 4 (split; first by []).
split; first by [].
do 2 (split; first by []).
split; first by [].
split; first by move=> i c _ _; exists 1%Z.
split; first by move=> i c _ _; exists 1%Z.
by split.
Qed.
