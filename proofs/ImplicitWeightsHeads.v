(* ImplicitWeightsHeads.v -- Theorem 4.1 of Vladymyrov et al. 2024 for the layers iclproof runs:
   several heads per layer, each of its own shapes (W_K, W_Q h x D, W_V v x D, P D x v), masked,
   and the implicit states computed from the context alone, as src/implicit_weights
   (read_implicit_weights) computes them.

   ImplicitWeights.v states the state update for ONE token map C (implicit_layer_update) and
   for an arbitrary sequence of token maps (implicit_stack_tokens); its head lemma
   lsa_masked_token_map is for one head with square P, W_V.  What this file adds:
   - the layer as src/lsa/lsa_layer_impl.hpp computes it: every head's update
       P ((W_V C) (W_K C)^T) (W_Q T)   (lsa_head_update; C the N context columns of T),
     summed over the heads and added to T (lsa_layer_forward, context_keys mask): masked_layer;
   - the token map as src/implicit_weights/implicit_weights_impl.hpp (token_map) computes it:
       sum_h (P_h W_V,h) (C C^T) (W_K,h^T W_Q,h): layer_token_map;
   - the states as implicit_weights_impl.hpp (read) computes them WITHOUT running the layers:
     from the identity state, state l+1 = implicit_step (the token map of layer l on the
     context's implicit tokens under state l) (state l): read_states.

   Main results
   - head_update_token_map, masked_layer_token_map : a masked layer of any number of heads of any
       shapes moves every token by one matrix, T + layer_token_map hs (context) *m T.
   - masked_layer_one_head : with one square head the layer is VonOswald.lsa_masked.
   - masked_stack_implicit_tokens : for ANY layers (any heads, any shapes, any number), after l
       layers the token matrix [[X, Xq], [Y, Yq]] (N context columns, any queries, any y_q)
       is implicit_tokens of read_states l on [X, Xq], [Y, Yq]: Theorem 4.1 with the states that
       read computes from the context alone (properties
       implicit_weights.every_token_of_a_random_linear_transformer_is_linear_in_the_input and
       ..._paper_form_...).
   - masked_stack_readout : with y_q = 0 the read-out is - (query y-part) = (w^l)^T Xq, w^l the
       last field of read_states l, a function of the context X, Y and the weights only
       (property implicit_weights.prediction_is_the_implicit_linear_model_on_the_query).
   - gd_stack_read_states : for von Oswald's GD stack (every layer the Prop. 1 head with W0 = 0
       and step eta), read_states l = (M, u, a, w) = (I, 0, I, W_l^T), W_l = GradientDescent.gd_iter
       (property implicit_weights.gd_stack_reads_as_the_gd_iterates).

   Dependencies: mathcomp ssreflect/algebra, GradientDescent (gd_iter, gd_step, gd_grad),
   VonOswald (lsa, lsa_masked, prop1_P, prop1_WV, prop1_WKQ), ImplicitWeights (implicit_tokens,
   implicit_state, implicit_step, implicit_layer_update).  No axioms. *)

From mathcomp Require Import all_ssreflect all_algebra.
From ICLProof Require Import GradientDescent VonOswald ImplicitWeights.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import GRing.Theory.
Local Open Scope ring_scope.

Section Heads.
Variable R : comRingType.
Variables d o : nat.

(* One head with its own key/query dimension k and value dimension v (the C++ lsa_head). *)
Record lsa_head := LsaHead {
  head_v : nat; head_k : nat;
  head_P : 'M[R]_(d + o, head_v); head_WV : 'M[R]_(head_v, d + o);
  head_WK : 'M[R]_(head_k, d + o); head_WQ : 'M[R]_(head_k, d + o) }.

(* lsa_head_update: P ((W_V C) (W_K C)^T) (W_Q T), C the keys/values. *)
Definition head_update n M (h : lsa_head) (C : 'M[R]_(d + o, n)) (T : 'M[R]_(d + o, M)) :=
  head_P h *m ((head_WV h *m C) *m (head_WK h *m C)^T) *m (head_WQ h *m T).

(* lsa_layer_forward with the context_keys mask: the first N columns are the keys/values. *)
Definition masked_layer N Q (hs : seq lsa_head) (T : 'M[R]_(d + o, N + Q)) :=
  T + \sum_(h <- hs) head_update h (lsubmx T) T.

(* token_map of implicit_weights_impl.hpp: sum_h (P_h W_V,h) (C C^T) (W_K,h^T W_Q,h). *)
Definition layer_token_map n (hs : seq lsa_head) (C : 'M[R]_(d + o, n)) : 'M[R]_(d + o) :=
  \sum_(h <- hs) (head_P h *m head_WV h) *m (C *m C^T) *m ((head_WK h)^T *m head_WQ h).

Lemma head_update_token_map n M (h : lsa_head) (C : 'M[R]_(d + o, n)) (T : 'M[R]_(d + o, M)) :
  head_update h C T
    = (head_P h *m head_WV h) *m (C *m C^T) *m ((head_WK h)^T *m head_WQ h) *m T.
Proof. by rewrite /head_update trmx_mul !mulmxA. Qed.

Theorem masked_layer_token_map N Q (hs : seq lsa_head) (T : 'M[R]_(d + o, N + Q)) :
  masked_layer hs T = T + layer_token_map hs (lsubmx T) *m T.
Proof.
rewrite /masked_layer /layer_token_map mulmx_suml; congr (_ + _).
by apply: eq_bigr => h _; rewrite head_update_token_map.
Qed.

(* One square head: the layer of VonOswald.v. *)
Theorem masked_layer_one_head p N Q (P WV : 'M[R]_(d + o)) (WK WQ : 'M[R]_(p, d + o))
    (T : 'M[R]_(d + o, N + Q)) :
  masked_layer [:: @LsaHead (d + o) p P WV WK WQ] T = lsa_masked P WV WK WQ T.
Proof. by rewrite /masked_layer big_seq1. Qed.

(* Layers 0 .. l-1, layer j with the heads hs j. *)
Fixpoint masked_stack N Q (hs : nat -> seq lsa_head) l (T : 'M[R]_(d + o, N + Q)) :=
  if l is l'.+1 then masked_layer (hs l') (masked_stack hs l' T) else T.

Definition state_tokens n (s : implicit_state R d o) (X : 'M[R]_(d, n)) (Y : 'M[R]_(o, n)) :=
  implicit_tokens (st_M s) (st_u s) (st_a s) (st_w s) X Y.

(* read of implicit_weights_impl.hpp: the states from the context (X, Y) alone. *)
Fixpoint read_states N (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) (hs : nat -> seq lsa_head) l :=
  if l is l'.+1 then
    let s := read_states X Y hs l' in implicit_step (layer_token_map (hs l') (state_tokens s X Y)) s
  else ImplicitState 1%:M 0 1%:M 0.

Lemma lsubmx_col_row m1 m2 n1 n2 (A : 'M[R]_(m1, n1)) (B : 'M[R]_(m1, n2))
    (C : 'M[R]_(m2, n1)) (D : 'M[R]_(m2, n2)) :
  lsubmx (col_mx (row_mx A B) (row_mx C D)) = col_mx A C.
Proof. by rewrite -block_mxEv block_mxEh row_mxKl. Qed.

Lemma state_tokens_row N Q s (X : 'M[R]_(d, N)) (Xq : 'M[R]_(d, Q)) (Y : 'M[R]_(o, N))
    (Yq : 'M[R]_(o, Q)) :
  state_tokens s (row_mx X Xq) (row_mx Y Yq)
    = col_mx (row_mx (st_M s *m X + st_u s *m Y) (st_M s *m Xq + st_u s *m Yq))
             (row_mx (st_a s *m Y - (st_w s)^T *m X) (st_a s *m Yq - (st_w s)^T *m Xq)).
Proof. by rewrite /state_tokens /implicit_tokens !mul_mx_row opp_row_mx !add_row_mx. Qed.

Lemma lsubmx_state_tokens N Q s (X : 'M[R]_(d, N)) (Xq : 'M[R]_(d, Q)) (Y : 'M[R]_(o, N))
    (Yq : 'M[R]_(o, Q)) :
  lsubmx (state_tokens s (row_mx X Xq) (row_mx Y Yq)) = state_tokens s X Y.
Proof. by rewrite state_tokens_row lsubmx_col_row. Qed.

(* Theorem 4.1 as checked: every token of every layer, context and queries. *)
Theorem masked_stack_implicit_tokens N Q (hs : nat -> seq lsa_head) l (X : 'M[R]_(d, N))
    (Xq : 'M[R]_(d, Q)) (Y : 'M[R]_(o, N)) (Yq : 'M[R]_(o, Q)) :
  masked_stack hs l (block_mx X Xq Y Yq)
    = state_tokens (read_states X Y hs l) (row_mx X Xq) (row_mx Y Yq).
Proof.
elim: l => [|l IH] /=.
  by rewrite state_tokens_row /= trmx0 !mul1mx !mul0mx !addr0 !subr0 block_mxEv.
rewrite IH masked_layer_token_map lsubmx_state_tokens.
set C := layer_token_map _ _; rewrite -{1}[C]submxK.
exact: implicit_layer_update.
Qed.

(* The read-out with y_q = 0: - (query y-part) = (w^l)^T Xq. *)
Theorem masked_stack_readout N Q (hs : nat -> seq lsa_head) l (X : 'M[R]_(d, N))
    (Xq : 'M[R]_(d, Q)) (Y : 'M[R]_(o, N)) :
  - drsubmx (masked_stack hs l (block_mx X Xq Y 0))
    = (st_w (read_states X Y hs l))^T *m Xq.
Proof.
by rewrite masked_stack_implicit_tokens state_tokens_row -block_mxEv block_mxKdr mulmx0 sub0r opprK.
Qed.

(* The Prop. 1 head with W0 = 0 (VonOswald.v: prop1_P, prop1_WV 0, prop1_WKQ), written out. *)
Definition residual_head (c : R) : lsa_head :=
  @LsaHead (d + o) (d + o) c%:M (block_mx 0 0 0 (- 1%:M)) (block_mx 1%:M 0 0 0)
    (block_mx 1%:M 0 0 0).

Lemma residual_head_token_map n (c : R) (Xc : 'M[R]_(d, n)) (Rc : 'M[R]_(o, n)) :
  layer_token_map [:: residual_head c] (col_mx Xc Rc) = block_mx 0 0 (- c *: (Rc *m Xc^T)) 0.
Proof.
rewrite /layer_token_map big_seq1 /=.
rewrite mul_scalar_mx tr_col_mx mul_col_row tr_block_mx !trmx1 !trmx0 -!scalemxAl.
rewrite !mulmx_block ?(mul0mx, mulmx0, mul1mx, mulmx1, addr0, add0r, mulNmx).
by rewrite !subr0 oppr0 scale_block_mx !scaler0 scaleNr scalerN.
Qed.

(* One such layer on the state (I, 0, I, w): the state (I, 0, I, w + c X (Y - w^T X)^T). *)
Lemma residual_head_step n (c : R) (Xc : 'M[R]_(d, n)) (Yc : 'M[R]_(o, n)) (w : 'M[R]_(d, o)) :
  implicit_step (layer_token_map [:: residual_head c]
                   (state_tokens (ImplicitState 1%:M 0 1%:M w) Xc Yc))
    (ImplicitState 1%:M 0 1%:M w)
  = ImplicitState 1%:M 0 1%:M (w + c *: (Xc *m (Yc - w^T *m Xc)^T)).
Proof.
rewrite /state_tokens /implicit_tokens /= !mul1mx mul0mx addr0 residual_head_token_map.
rewrite /implicit_step /= block_mxKul block_mxKur block_mxKdl block_mxKdr.
rewrite /next_M /next_u /next_a /next_w !addr0 !mul1mx !mul0mx !mulmx0 subr0 addr0 trmx1.
rewrite addr0 trmx1 mulmx1 mul1mx; congr ImplicitState.
by rewrite linearZ /= trmx_mul trmxK scaleNr opprK.
Qed.

End Heads.

Section GDStack.
Variable R : numFieldType.
Variables d o N : nat.
Variables (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) (eta : R).

(* von Oswald's GD stack: every layer the Prop. 1 head with W0 = 0 and step eta
   (src/lsa/vonoswald_weights_impl.hpp: gd_stack_weights, prop1_weights). *)
Definition gd_stack_heads : nat -> seq (lsa_head R d o) :=
  fun=> [:: @LsaHead R d o (d + o) (d + o) (prop1_P d o N eta) (prop1_WV 0) prop1_WKQ prop1_WKQ].

Lemma gd_stack_heads_residual l : gd_stack_heads l = [:: residual_head d o (eta / N%:R)].
Proof. by []. Qed.

Theorem gd_stack_read_states l :
  read_states X Y gd_stack_heads l = ImplicitState 1%:M 0 1%:M (gd_iter X Y eta l)^T.
Proof.
elim: l => [|l IH] /=; first by rewrite trmx0.
rewrite IH gd_stack_heads_residual residual_head_step /gd_step /gd_grad trmxK.
congr ImplicitState; rewrite [RHS]linearB /= !linearZ /= trmx_mul trmxK scalerA.
have -> : (Y - gd_iter X Y eta l *m X)^T = - (gd_iter X Y eta l *m X - Y)^T.
  by apply/matrixP => i j; rewrite !mxE opprB.
by rewrite mulmxN scalerN.
Qed.

End GDStack.
