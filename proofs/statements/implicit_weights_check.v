(* The project's theorems prove the statements of implicit_weights.v (issue 37): each check_<p>
   has exactly the type ICLProof.statements.implicit_weights.claim_<p>; the bridges from
   ImplicitWeights.v, ImplicitWeightsHeads.v and GradientDescent.v to the statement file's
   definitions are proved here. *)

From mathcomp Require Import all_ssreflect all_algebra.
From ICLProof Require Import GradientDescent VonOswald ImplicitWeights ImplicitWeightsHeads.
From ICLProof Require statements.implicit_weights.

Import GRing.Theory Num.Theory.
Local Open Scope ring_scope.


Section Bridge.
Variables (R : comRingType) (d o : nat).
Variables (H : nat -> nat) (vd kd : forall l, 'I_(H l) -> nat).
Variables (P : forall l h, 'M[R]_(d + o, vd l h)) (WV : forall l h, 'M[R]_(vd l h, d + o)).
Variables (WK WQ : forall l h, 'M[R]_(kd l h, d + o)).

(* The statement's heads of layer l as the project's list of lsa_head records. *)
Definition heads_of (l : nat) : seq (lsa_head R d o) :=
  [seq @LsaHead R d o (vd l h) (kd l h) (P l h) (WV l h) (WK l h) (WQ l h)
     | h <- index_enum (ordinal_finType (H l))].

Lemma masked_stack_bridge N Q L (T : 'M[R]_(d + o, N + Q)) :
  statements.implicit_weights.masked_stack H vd kd P WV WK WQ L T = masked_stack heads_of L T.
Proof.
elim: L => [|l IH] //=; rewrite IH /statements.implicit_weights.masked_layer /masked_layer big_map.
by congr (_ + _); apply: eq_bigr.
Qed.

Lemma layer_token_map_bridge n l (C : 'M[R]_(d + o, n)) :
  statements.implicit_weights.layer_token_map (vd l) (kd l) (P l) (WV l) (WK l) (WQ l) C = layer_token_map (heads_of l) C.
Proof. by rewrite /statements.implicit_weights.layer_token_map /layer_token_map big_map. Qed.

Definition tuple_of (s : implicit_state R d o) := (st_M s, st_u s, st_a s, st_w s).

Lemma implicit_tokens_bridge n (s : implicit_state R d o) (X : 'M[R]_(d, n)) (Y : 'M[R]_(o, n)) :
  statements.implicit_weights.implicit_tokens (tuple_of s) X Y = state_tokens s X Y.
Proof. by case: s. Qed.

Lemma read_states_bridge N (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) L :
  statements.implicit_weights.read_states X Y H vd kd P WV WK WQ L = tuple_of (read_states X Y heads_of L).
Proof.
elim: L => [|l IH] //=; rewrite IH implicit_tokens_bridge layer_token_map_bridge.
by case: (read_states X Y heads_of l).
Qed.

End Bridge.

Lemma check_implicit_weights__every_token_of_a_random_linear_transformer_is_linear_in_the_input :
  statements.implicit_weights.claim_implicit_weights__every_token_of_a_random_linear_transformer_is_linear_in_the_input.
Proof.
move=> R d o N Q H vd kd P WV WK WQ L X Xq Y Yq _.
rewrite masked_stack_bridge read_states_bridge implicit_tokens_bridge.
exact: masked_stack_implicit_tokens.
Qed.

Lemma check_implicit_weights__every_token_of_a_random_paper_form_transformer_is_linear_in_the_input :
  statements.implicit_weights.claim_implicit_weights__every_token_of_a_random_paper_form_transformer_is_linear_in_the_input.
Proof.
move=> R d o N Q H Pk Qk L X Xq Y Yq _ vd I.
rewrite masked_stack_bridge read_states_bridge implicit_tokens_bridge.
exact: masked_stack_implicit_tokens.
Qed.

Lemma check_implicit_weights__prediction_is_the_implicit_linear_model_on_the_query :
  statements.implicit_weights.claim_implicit_weights__prediction_is_the_implicit_linear_model_on_the_query.
Proof.
move=> R d o N Q H vd kd P WV WK WQ L X Xq Y _.
rewrite masked_stack_bridge read_states_bridge /=.
exact: masked_stack_readout.
Qed.

(* The project's read_states depends on the heads only through their token maps. *)
Lemma read_states_ext (R : comRingType) d o N (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N))
    (hs hs' : nat -> seq (lsa_head R d o)) :
  (forall l (C : 'M[R]_(d + o, N)), layer_token_map (hs l) C = layer_token_map (hs' l) C) ->
  forall L, read_states X Y hs L = read_states X Y hs' L.
Proof.
move=> E; elim=> [|l IH]; first by [].
by rewrite [LHS]/= [RHS]/= IH E.
Qed.

Lemma gd_iterate_bridge (R : numFieldType) d o N (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) eta K :
  statements.implicit_weights.gd_iterate X Y eta K = gd_iter X Y eta K.
Proof. by elim: K => [|k IH] //=; rewrite IH. Qed.

Lemma check_implicit_weights__gd_stack_reads_as_the_gd_iterates :
  statements.implicit_weights.claim_implicit_weights__gd_stack_reads_as_the_gd_iterates.
Proof.
move=> R d o N eta X Y l _ D.
rewrite read_states_bridge gd_iterate_bridge.
have -> : (1%:M, 0, 1%:M, (gd_iter X Y eta l)^T)
    = @tuple_of _ d o (ImplicitState 1%:M 0 1%:M (gd_iter X Y eta l)^T) by [].
rewrite -(gd_stack_read_states X Y eta l); congr tuple_of.
apply: read_states_ext => k C.
rewrite /layer_token_map big_map big_ord1 big_seq1 /= /prop1_P /prop1_WV /prop1_WKQ.
by congr (_ *m _ *m _ *m (_ *m _)).
Qed.
