(* Statements of the family implicit_weights (Vladymyrov, von Oswald, Sandler, Ge 2024,
   Theorem 4.1 and Lemma 4.3: every masked linear self-attention layer keeps an implicit linear
   model), read by people: plain mathcomp, no project theory.  Checked against the project's
   theorems in implicit_weights_check.v.

   Conventions: tokens are the columns of a (d + o) x (N + Q) matrix [[X, Xq], [Y, Yq]], the first
   N columns are the context (the keys and values of every head), the last Q the queries.
   A layer has H heads; head h has its own value dimension vd h and key/query dimension kd h:
   P_h is (d + o) x vd h, W_V,h is vd h x (d + o), W_K,h and W_Q,h are kd h x (d + o). *)

From mathcomp Require Import all_ssreflect all_algebra.

Import GRing.Theory Num.Theory.
Local Open Scope ring_scope.

(* One head's update of the tokens T, keys and values from the context C:
   P ((W_V C) (W_K C)^T) (W_Q T). *)
Definition head_update {R : ringType} {D n m v k : nat} (P : 'M[R]_(D, v)) (WV : 'M[R]_(v, D))
    (WK WQ : 'M[R]_(k, D)) (C : 'M[R]_(D, n)) (T : 'M[R]_(D, m)) : 'M[R]_(D, m) :=
  P *m ((WV *m C) *m (WK *m C)^T) *m (WQ *m T).

(* A masked layer of H heads: T + sum_h head_update_h (context = first N columns of T) T. *)
Definition masked_layer {R : ringType} {D N Q H : nat} (vd kd : 'I_H -> nat)
    (P : forall h, 'M[R]_(D, vd h)) (WV : forall h, 'M[R]_(vd h, D))
    (WK WQ : forall h, 'M[R]_(kd h, D)) (T : 'M[R]_(D, N + Q)) : 'M[R]_(D, N + Q) :=
  T + \sum_(h < H) head_update (P h) (WV h) (WK h) (WQ h) (lsubmx T) T.

(* L such layers; layer l has H l heads with the weights P l h, WV l h, WK l h, WQ l h. *)
Fixpoint masked_stack {R : ringType} {D N Q : nat} (H : nat -> nat)
    (vd kd : forall l, 'I_(H l) -> nat) (P : forall l h, 'M[R]_(D, vd l h))
    (WV : forall l h, 'M[R]_(vd l h, D)) (WK WQ : forall l h, 'M[R]_(kd l h, D)) (L : nat)
    (T : 'M[R]_(D, N + Q)) : 'M[R]_(D, N + Q) :=
  if L is l.+1 then
    masked_layer (vd l) (kd l) (P l) (WV l) (WK l) (WQ l) (masked_stack H vd kd P WV WK WQ l T)
  else T.

(* The implicit tokens of a state s = (M, u, a, w) on inputs X, Y:
   [[M X + u Y], [a Y - w^T X]]. *)
Definition implicit_tokens {R : ringType} {d o n : nat}
    (s : 'M[R]_d * 'M[R]_(d, o) * 'M[R]_o * 'M[R]_(d, o)) (X : 'M[R]_(d, n)) (Y : 'M[R]_(o, n))
    : 'M[R]_(d + o, n) :=
  let: (M, u, a, w) := s in col_mx (M *m X + u *m Y) (a *m Y - w^T *m X).

(* The token map of a layer on the context tokens C: sum_h (P_h W_V,h) (C C^T) (W_K,h^T W_Q,h). *)
Definition layer_token_map {R : ringType} {D n H : nat} (vd kd : 'I_H -> nat)
    (P : forall h, 'M[R]_(D, vd h)) (WV : forall h, 'M[R]_(vd h, D))
    (WK WQ : forall h, 'M[R]_(kd h, D)) (C : 'M[R]_(D, n)) : 'M[R]_D :=
  \sum_(h < H) (P h *m WV h) *m (C *m C^T) *m ((WK h)^T *m WQ h).

(* The state update for a token map with blocks [[A, B], [Cyx, Dm]]:
   M' = (I + A) M - B w^T,  u' = (I + A) u + B a,  a' = (I + Dm) a + Cyx u,
   w' = w (I + Dm)^T - M^T Cyx^T. *)
Definition implicit_step {R : ringType} {d o : nat} (Cm : 'M[R]_(d + o))
    (s : 'M[R]_d * 'M[R]_(d, o) * 'M[R]_o * 'M[R]_(d, o))
    : 'M[R]_d * 'M[R]_(d, o) * 'M[R]_o * 'M[R]_(d, o) :=
  let: (M, u, a, w) := s in
  ((1%:M + ulsubmx Cm) *m M - ursubmx Cm *m w^T, (1%:M + ulsubmx Cm) *m u + ursubmx Cm *m a,
   (1%:M + drsubmx Cm) *m a + dlsubmx Cm *m u,
   w *m (1%:M + drsubmx Cm)^T - M^T *m (dlsubmx Cm)^T).

(* The states as read_implicit_weights computes them, from the context X, Y and the weights
   alone (the layers are not run on the queries): from (I, 0, I, 0), state l + 1 is the update of
   state l by layer l's token map on the context's implicit tokens under state l. *)
Fixpoint read_states {R : ringType} {d o N : nat} (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N))
    (H : nat -> nat) (vd kd : forall l, 'I_(H l) -> nat) (P : forall l h, 'M[R]_(d + o, vd l h))
    (WV : forall l h, 'M[R]_(vd l h, d + o)) (WK WQ : forall l h, 'M[R]_(kd l h, d + o))
    (L : nat) : 'M[R]_d * 'M[R]_(d, o) * 'M[R]_o * 'M[R]_(d, o) :=
  if L is l.+1 then
    let s := read_states X Y H vd kd P WV WK WQ l in
    implicit_step (layer_token_map (vd l) (kd l) (P l) (WV l) (WK l) (WQ l) (implicit_tokens s X Y)) s
  else (1%:M, 0, 1%:M, 0).

(* implicit_weights.every_token_of_a_random_linear_transformer_is_linear_in_the_input:
   "For random masked linear transformers (1-3 layers, 1-2 heads of arbitrary W_K, W_Q, W_V, P,
   o in 1..2), every token of every layer, queries included with arbitrary y_q, equals
   [[M^l x + u^l y], [a^l y - (w^l)^T x]] with the states read_implicit_weights computes without
   running the layers (Theorem 4.1 via Lemma 4.3)."
   Covers: any commutative ring, any d, o, N, Q, any number of layers and of heads per layer, each
   head of its own shapes, any weights, any X, Y, Xq, Yq: the whole token matrix after L layers.
   Wider than the property's draws (1-3 layers, 1-2 heads, o <= 2). *)
Definition premises_implicit_weights__every_token_of_a_random_linear_transformer_is_linear_in_the_input
    (d o N : nat) : Prop :=
  (1 <= d)%N /\ (1 <= o)%N /\ (1 <= N)%N.

Definition claim_implicit_weights__every_token_of_a_random_linear_transformer_is_linear_in_the_input
    : Prop :=
  forall (R : comRingType) (d o N Q : nat) (H : nat -> nat) (vd kd : forall l, 'I_(H l) -> nat)
    (P : forall l h, 'M[R]_(d + o, vd l h)) (WV : forall l h, 'M[R]_(vd l h, d + o))
    (WK WQ : forall l h, 'M[R]_(kd l h, d + o)) (L : nat)
    (X : 'M[R]_(d, N)) (Xq : 'M[R]_(d, Q)) (Y : 'M[R]_(o, N)) (Yq : 'M[R]_(o, Q)),
  premises_implicit_weights__every_token_of_a_random_linear_transformer_is_linear_in_the_input
    d o N ->
  masked_stack H vd kd P WV WK WQ L (block_mx X Xq Y Yq)
    = implicit_tokens (read_states X Y H vd kd P WV WK WQ L) (row_mx X Xq) (row_mx Y Yq).

Lemma witness_implicit_weights__every_token_of_a_random_linear_transformer_is_linear_in_the_input :
  premises_implicit_weights__every_token_of_a_random_linear_transformer_is_linear_in_the_input
    2 2 2.
Proof. by []. Qed.

(* implicit_weights.every_token_of_a_random_paper_form_transformer_is_linear_in_the_input:
   "The same for the paper's parametrisation e_i += sum_k P_k (sum_j e_j e_j^T) Q_k e_i with
   random full P_k, Q_k (W_K = W_V = I, W_Q = Q, P = P)."
   Covers: the claim above for heads W_K = W_V = I (square), W_Q = Q_lk, P = P_lk, any P_lk, Q_lk,
   any number of layers and heads, any commutative ring, d, o, N, Q. *)
Definition premises_implicit_weights__every_token_of_a_random_paper_form_transformer_is_linear_in_the_input
    (d o N : nat) : Prop :=
  (1 <= d)%N /\ (1 <= o)%N /\ (1 <= N)%N.

Definition claim_implicit_weights__every_token_of_a_random_paper_form_transformer_is_linear_in_the_input
    : Prop :=
  forall (R : comRingType) (d o N Q : nat) (H : nat -> nat)
    (Pk Qk : forall l (h : 'I_(H l)), 'M[R]_(d + o)) (L : nat)
    (X : 'M[R]_(d, N)) (Xq : 'M[R]_(d, Q)) (Y : 'M[R]_(o, N)) (Yq : 'M[R]_(o, Q)),
  premises_implicit_weights__every_token_of_a_random_paper_form_transformer_is_linear_in_the_input
    d o N ->
  let vd := fun l (h : 'I_(H l)) => (d + o)%N in
  let I := fun l (h : 'I_(H l)) => (1%:M : 'M[R]_(d + o)) in
  masked_stack H vd vd Pk I I Qk L (block_mx X Xq Y Yq)
    = implicit_tokens (read_states X Y H vd vd Pk I I Qk L) (row_mx X Xq) (row_mx Y Yq).

Lemma witness_implicit_weights__every_token_of_a_random_paper_form_transformer_is_linear_in_the_input :
  premises_implicit_weights__every_token_of_a_random_paper_form_transformer_is_linear_in_the_input
    2 2 2.
Proof. by []. Qed.

(* implicit_weights.prediction_is_the_implicit_linear_model_on_the_query:
   "With y_q = 0 the read-out -y^L_q of a random masked linear transformer is (w^L)^T x_q: a
   linear model of the query whose weights w^L depend on the context only."
   Covers: any commutative ring, d, o, N, Q, layers, heads and weights: with Yq = 0 the queries'
   y-part after L layers is -(w^L)^T Xq, w^L the last component of read_states X Y ..., which
   takes the context and the weights, not the queries. *)
Definition premises_implicit_weights__prediction_is_the_implicit_linear_model_on_the_query
    (d o N : nat) : Prop :=
  (1 <= d)%N /\ (1 <= o)%N /\ (1 <= N)%N.

Definition claim_implicit_weights__prediction_is_the_implicit_linear_model_on_the_query : Prop :=
  forall (R : comRingType) (d o N Q : nat) (H : nat -> nat) (vd kd : forall l, 'I_(H l) -> nat)
    (P : forall l h, 'M[R]_(d + o, vd l h)) (WV : forall l h, 'M[R]_(vd l h, d + o))
    (WK WQ : forall l h, 'M[R]_(kd l h, d + o)) (L : nat)
    (X : 'M[R]_(d, N)) (Xq : 'M[R]_(d, Q)) (Y : 'M[R]_(o, N)),
  premises_implicit_weights__prediction_is_the_implicit_linear_model_on_the_query d o N ->
  - drsubmx (masked_stack H vd kd P WV WK WQ L (block_mx X Xq Y 0))
    = (read_states X Y H vd kd P WV WK WQ L).2^T *m Xq.

Lemma witness_implicit_weights__prediction_is_the_implicit_linear_model_on_the_query :
  premises_implicit_weights__prediction_is_the_implicit_linear_model_on_the_query 2 2 2.
Proof. by []. Qed.

(* K steps of GD on L(W) = 1/(2N) ||W X - Y||^2 from W_0 = 0 with step eta:
   W_(l+1) = W_l - eta (1/N) (W_l X - Y) X^T. *)
Fixpoint gd_iterate {R : fieldType} {d o N : nat} (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N))
    (eta : R) (K : nat) : 'M[R]_(o, d) :=
  if K is k.+1 then
    gd_iterate X Y eta k - eta *: ((N%:R)^-1 *: ((gd_iterate X Y eta k *m X - Y) *m X^T))
  else 0.

(* implicit_weights.gd_stack_reads_as_the_gd_iterates:
   "Read off von Oswald's built GD stack (W0 = 0, step eta), the implicit weights are M = I,
   u = 0, a = I and w^l = W_l^T, the l-th GD iterate, at every layer (compared for equality, no
   tolerance, on dyadic data)."
   Covers: any numeric field, d, o, N, eta != 0, every layer l: every layer one head (von Oswald's
   Prop. 1 head with W0 = 0), P = (eta/N) I, W_V = [[0, 0], [0, -I_o]], W_K = W_Q = [[I_d, 0], [0, 0]];
   the states read from it are (I, 0, I, W_l^T).  (The claim is for any data, not only dyadic.) *)
Definition premises_implicit_weights__gd_stack_reads_as_the_gd_iterates
    {R : numFieldType} (d o N : nat) (eta : R) : Prop :=
  (1 <= d)%N /\ (1 <= o)%N /\ (1 <= N)%N /\ eta != 0.

Definition claim_implicit_weights__gd_stack_reads_as_the_gd_iterates : Prop :=
  forall (R : numFieldType) (d o N : nat) (eta : R) (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N))
    (l : nat),
  premises_implicit_weights__gd_stack_reads_as_the_gd_iterates d o N eta ->
  let D := fun (l : nat) (h : 'I_1) => (d + o)%N in
  read_states X Y (fun=> 1%N) D D
      (fun l h => (eta / N%:R)%:M) (fun l h => block_mx 0 0 0 (- 1%:M))
      (fun l h => block_mx 1%:M 0 0 0) (fun l h => block_mx 1%:M 0 0 0) l
    = (1%:M, 0, 1%:M, (gd_iterate X Y eta l)^T).

Lemma witness_implicit_weights__gd_stack_reads_as_the_gd_iterates :
  premises_implicit_weights__gd_stack_reads_as_the_gd_iterates 2 2 2 (1 : rat).
Proof. by split; [|split; [|split; [|exact: oner_neq0]]]. Qed.
