(* Statements of the family bai (Bai et al. 2023, "Transformers as Statisticians": ridge GD and
   Lasso proximal GD by ReLU-attention and MLP layers), read by people: plain mathcomp, no project
   theory.  Checked against the project's theorems in bai_check.v.

   Conventions: tokens are the columns of a (d + (1 + (d + (1 + 1)))) x n matrix
   H = [X; y; W; 1; t] (the rows x, y, w, the constant 1 and t of each token h_i = [x_i; y_i; w_i;
   1; t_i], src/bai/bai_weights.hpp); relu x = max(x, 0) (the paper's sigma); an MLP layer maps
   every token h to h + W2 relu(W1 h) (Definition 2 with no biases).

   Not stated here (partially proved, say why):
   - relu_attention_layer_is_definition_1_token_by_token, mlp_layer_is_definition_2_token_by_token:
     a definition checked against the layer's code; no theorem states it.
   - one_relu_attention_layer_makes_one_exact_ridge_gd_step,
     t_gd_layers_hold_the_ridge_gd_iterates_and_read_out_the_prediction,
     lasso_blocks_hold_the_ista_iterates_and_read_out_the_prediction: the attention layer's
     matrices realising the scores, and the class bound |<x_i, w_t>| <= R, have no Coq theorem.
   - one_lasso_block_lands_on_the_optimum_of_an_orthogonal_design: as above, and that the soft
     threshold is the Lasso optimum of an orthogonal design is not in Coq.
   - theorem_4_layer_count_predicts_the_ridge_solution_within_eps: an approximation whose GD rate
     and rounding recursion have no Coq proof. *)

From mathcomp Require Import all_ssreflect all_algebra.

Import GRing.Theory Num.Theory.
Local Open Scope ring_scope.

(* relu x = max(x, 0). *)
Definition relu {R : realDomainType} (x : R) : R := if 0 <= x then x else 0.

(* The soft threshold S_th(x) = sign(x) max(|x| - th, 0), the prox of th |.|. *)
Definition soft_threshold {R : realDomainType} (th x : R) : R :=
  if th < x then x - th else if x < - th then x + th else 0.

(* The token matrix [X; y; W; 1; t] (n tokens: column i is [x_i; y_i; w_i; 1; t_i]). *)
Definition bai_tokens {R : ringType} {d n : nat} (X : 'M[R]_(d, n)) (y : 'M[R]_(1, n))
    (W : 'M[R]_(d, n)) (t : 'M[R]_(1, n)) : 'M[R]_(d + (1 + (d + (1 + 1))), n) :=
  col_mx X (col_mx y (col_mx W (col_mx (const_mx 1) t))).

(* An MLP layer without biases on every token: H + W2 relu(W1 H) (relu entrywise). *)
Definition mlp_layer {R : realDomainType} {D h n : nat} (W1 : 'M[R]_(h, D)) (W2 : 'M[R]_(D, h))
    (H : 'M[R]_(D, n)) : 'M[R]_(D, n) :=
  H + W2 *m map_mx relu (W1 *m H).

(* The soft-threshold MLP's first matrix (4d x D): its hidden units, in four blocks of d,
   compute relu(w_k - th), relu(-w_k - th), relu(w_k), relu(-w_k), th through the constant 1. *)
Definition soft_mlp_W1 {R : ringType} (d : nat) (th : R)
    : 'M[R]_(d + (d + (d + d)), d + (1 + (d + (1 + 1)))) :=
  col_mx (row_mx 0 (row_mx 0 (row_mx 1%:M (row_mx (const_mx (- th)) 0))))
 (col_mx (row_mx 0 (row_mx 0 (row_mx (- 1%:M) (row_mx (const_mx (- th)) 0))))
 (col_mx (row_mx 0 (row_mx 0 (row_mx 1%:M 0)))
         (row_mx 0 (row_mx 0 (row_mx (- 1%:M) 0))))).

(* Its second matrix (D x 4d): w_k receives relu(w_k - th) - relu(-w_k - th) - relu(w_k)
   + relu(-w_k); every other row 0. *)
Definition soft_mlp_W2 {R : ringType} (d : nat)
    : 'M[R]_(d + (1 + (d + (1 + 1))), d + (d + (d + d))) :=
  col_mx 0 (col_mx 0 (col_mx (row_mx 1%:M (row_mx (- 1%:M) (row_mx (- 1%:M) 1%:M))) 0)).

(* bai.soft_threshold_mlp_applies_the_l1_prox_exactly:
   "The MLP with 4d hidden units (sigma(w_k - theta), sigma(-w_k - theta), sigma(w_k),
   sigma(-w_k), theta = eta lambda through the token's constant 1) maps every token's w to
   S_theta(w) = prox_(theta ||.||_1)(w) with the residual connection, x, y, 1, t unchanged
   (Proposition C.1's exact MLP; the soft threshold is exactly two ReLUs)."
   Covers: any real domain (so the rationals and the reals), any d, any number n of tokens, any
   theta >= 0 (the property's eta lambda is one), any X, y, W, t.  The hidden units are grouped
   by kind here; the C++ interleaves them per coordinate (unit 4k + r), a reordering of the
   hidden units that does not change the layer. *)
Definition premises_bai__soft_threshold_mlp_applies_the_l1_prox_exactly
    {R : realDomainType} (d n : nat) (th : R) : Prop :=
  (1 <= d)%N /\ (1 <= n)%N /\ 0 <= th.

Definition claim_bai__soft_threshold_mlp_applies_the_l1_prox_exactly : Prop :=
  forall (R : realDomainType) (d n : nat) (th : R),
  premises_bai__soft_threshold_mlp_applies_the_l1_prox_exactly d n th ->
  forall (X W : 'M[R]_(d, n)) (y t : 'M[R]_(1, n)),
  mlp_layer (soft_mlp_W1 d th) (soft_mlp_W2 d) (bai_tokens X y W t)
    = bai_tokens X y (map_mx (soft_threshold th) W) t.

Lemma witness_bai__soft_threshold_mlp_applies_the_l1_prox_exactly :
  premises_bai__soft_threshold_mlp_applies_the_l1_prox_exactly 2 3 (1 / 2 : rat).
Proof. by split. Qed.

(* One ReLU-attention head on the token matrix H (D x n, column i the token h_i): column i gets
   c_i sum_j m_ji relu(<Q h_i, K h_j>) V h_j, with m_ji the key mask (1 if token j is a key of
   token i: every token, the context tokens or the tokens up to i) and c_i the scale of token i
   (1/N, 1/(number of its keys) or 1). *)
Definition relu_head {R : realDomainType} {D k n : nat} (Msk : 'M[R]_n) (c : 'rV[R]_n)
    (Q K : 'M[R]_(k, D)) (V : 'M[R]_D) (H : 'M[R]_(D, n)) : 'M[R]_(D, n) :=
  (V *m H) *m (\matrix_(j, i) (Msk j i * relu (((K *m H)^T *m (Q *m H)) j i))) *m diag_mx c.

(* The same head without relu (linear attention): c_i sum_j m_ji <Q h_i, K h_j> V h_j. *)
Definition linear_head {R : ringType} {D k n : nat} (Msk : 'M[R]_n) (c : 'rV[R]_n)
    (Q K : 'M[R]_(k, D)) (V : 'M[R]_D) (H : 'M[R]_(D, n)) : 'M[R]_(D, n) :=
  (V *m H) *m (\matrix_(j, i) (Msk j i * ((K *m H)^T *m (Q *m H)) j i)) *m diag_mx c.

(* bai.heads_q_k_v_and_minus_q_k_minus_v_make_linear_attention:
   "Every head (Q, K, V) paired with (-Q, K, -V) gives h_i + c_i sum_j <Q h_i, K h_j> V h_j: the
   identity sigma(t) - sigma(-t) = t that the paper's read-out and square-loss heads use."
   Covers: a layer of Hn such pairs (all heads summed, the residual added once), any real
   domain, any sizes, any Q_h, K_h (k x D), V_h (D x D), any tokens H, any 0/1 key mask (so
   the property's all / context / causal keys) and any scales c_i (so 1/N, 1/|keys| and none). *)
Definition premises_bai__heads_q_k_v_and_minus_q_k_minus_v_make_linear_attention
    {R : realDomainType} (D n Hn : nat) (Msk : 'M[R]_n) : Prop :=
  (1 <= D)%N /\ (1 <= n)%N /\ (1 <= Hn)%N /\ (forall j i, Msk j i = 0 \/ Msk j i = 1).

Definition claim_bai__heads_q_k_v_and_minus_q_k_minus_v_make_linear_attention : Prop :=
  forall (R : realDomainType) (D k n Hn : nat) (Msk : 'M[R]_n) (c : 'rV[R]_n)
    (Q K : 'I_Hn -> 'M[R]_(k, D)) (V : 'I_Hn -> 'M[R]_D),
  premises_bai__heads_q_k_v_and_minus_q_k_minus_v_make_linear_attention D n Hn Msk ->
  forall H : 'M[R]_(D, n),
  H + \sum_(h < Hn) (relu_head Msk c (Q h) (K h) (V h) H + relu_head Msk c (- Q h) (K h) (- V h) H)
    = H + \sum_(h < Hn) linear_head Msk c (Q h) (K h) (V h) H.

Lemma witness_bai__heads_q_k_v_and_minus_q_k_minus_v_make_linear_attention :
  premises_bai__heads_q_k_v_and_minus_q_k_minus_v_make_linear_attention 2 3 2
    (\matrix_(j < 3, i < 3) (if (j <= i)%N then 1 else 0) : 'M[rat]_3).
Proof.
do 3 (split; first by []).
by move=> j i; rewrite mxE; case: ifP => _; [right | left].
Qed.
