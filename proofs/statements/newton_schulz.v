(* Statements of the family newton_schulz (Newton's iteration for the inverse, X_(k+1) =
   2 X_k - X_k A X_k, in linear-attention layers: Giannou et al., AISTATS 2025, Lemma 4.1 with
   its resources, and our one-head variant of width 3d), read by people: plain mathcomp, no
   project theory.  Checked against the project's theorems in newton_schulz_check.v.

   Conventions: a token matrix has one column per token and row blocks of n x n; a head of the
   generic layer (every token a key, no mask, no 1/N) adds P (W_V E) (W_K E)^T (W_Q E) to E;
   the weights below are the ones src/newton_schulz/*_weights.hpp builds; c is the constant 1/4
   of the correction head (stated as c *+ 4 = 1, so any commutative ring where 4 is a unit).

   Not stated here (partially proved, say why):
   - giannou_theorem_4_2_t_plus_3_layers_predict_a_test_x_t_a_transpose_y: the masks of its
     set-up and read-out layers and the zero blocks of the non-register tokens have no Coq
     theorem (only the register algebra g42_newton_heads, g42_readout is proved).
   - giannou_theorem_4_2_error_is_the_residual_power_at_the_class_eps: as above, and
     lambda_max <= trace and the monotone decrease of the error are checked, not proved. *)

From mathcomp Require Import all_ssreflect all_algebra.

Import GRing.Theory.
Local Open Scope ring_scope.

(* One Newton step for the inverse of A from X: 2X - X A X (= X (2I - A X)). *)
Definition newton_step {R : ringType} {n : nat} (A X : 'M[R]_n) : 'M[R]_n :=
  X *+ 2 - X *m A *m X.

(* k Newton steps from X0. *)
Fixpoint newton_iter {R : ringType} {n : nat} (A X0 : 'M[R]_n) (k : nat) : 'M[R]_n :=
  if k is k'.+1 then newton_step A (newton_iter A X0 k') else X0.

(* One head of the generic layer, without the residual: P (W_V E) (W_K E)^T (W_Q E). *)
Definition lin_head {R : ringType} {m n : nat} (P : 'M[R]_(m, n)) (WV WK WQ : 'M[R]_(n, m))
    (E : 'M[R]_(m, n)) : 'M[R]_(m, n) :=
  P *m ((WV *m E) *m (WK *m E)^T) *m (WQ *m E).

(* ---- Giannou et al. Lemma 4.1: tokens [X; A; I; Z], width 4n ---- *)

(* The tokens [X; A; I; Z] (the n columns are the tokens). *)
Definition g_tokens {R : ringType} {n : nat} (X A Z : 'M[R]_n)
    : 'M[R]_(n + (n + (n + n)), n) :=
  col_mx X (col_mx A (col_mx 1%:M Z)).

(* The selectors of the four blocks (sel_X E = X, ...); their transposes write into a block. *)
Definition gsel_X (R : ringType) (n : nat) : 'M[R]_(n, n + (n + (n + n))) := row_mx 1%:M 0.
Definition gsel_A (R : ringType) (n : nat) : 'M[R]_(n, n + (n + (n + n))) :=
  row_mx 0 (row_mx 1%:M 0).
Definition gsel_C (R : ringType) (n : nat) : 'M[R]_(n, n + (n + (n + n))) :=
  row_mx 0 (row_mx 0 (row_mx 1%:M 0)).
Definition gsel_Z (R : ringType) (n : nat) : 'M[R]_(n, n + (n + (n + n))) :=
  row_mx 0 (row_mx 0 (row_mx 0 1%:M)).

(* A layer of two heads with the residual: E + head1 E + head2 E. *)
Definition two_head_layer {R : ringType} {m n : nat} (P1 : 'M[R]_(m, n)) (V1 K1 Q1 : 'M[R]_(n, m))
    (P2 : 'M[R]_(m, n)) (V2 K2 Q2 : 'M[R]_(n, m)) (E : 'M[R]_(m, n)) : 'M[R]_(m, n) :=
  E + lin_head P1 V1 K1 Q1 E + lin_head P2 V2 K2 Q2 E.

(* Lemma 4.1, layer 1: heads (P = emb_Z; V = C, K = A, Q = C) and (P = emb_X; V = X, K = C,
   Q = C). *)
Definition g41_layer1 {R : ringType} {n : nat} (E : 'M[R]_(n + (n + (n + n)), n)) :=
  two_head_layer (gsel_Z R n)^T (gsel_C R n) (gsel_A R n) (gsel_C R n)
                 (gsel_X R n)^T (gsel_X R n) (gsel_C R n) (gsel_C R n) E.

(* Lemma 4.1, layer 2: heads (P = -c emb_X; V = X, K = Z, Q = X) and (P = -emb_Z; V = C, K = A,
   Q = C). *)
Definition g41_layer2 {R : ringType} {n : nat} (c : R) (E : 'M[R]_(n + (n + (n + n)), n)) :=
  two_head_layer (- c *: (gsel_X R n)^T) (gsel_X R n) (gsel_Z R n) (gsel_X R n)
                 (- (gsel_Z R n)^T) (gsel_C R n) (gsel_A R n) (gsel_C R n) E.

(* k copies of the pair of layers (2k layers). *)
Fixpoint g41_stack {R : ringType} {n : nat} (c : R) (k : nat) (E : 'M[R]_(n + (n + (n + n)), n))
    : 'M[R]_(n + (n + (n + n)), n) :=
  if k is k'.+1 then g41_layer2 c (g41_layer1 (g41_stack c k' E)) else E.

(* The one-layer step of the symmetric case: heads (P = emb_X; V = X, K = C, Q = C) and
   (P = -emb_X; V = X, K = A, Q = X). *)
Definition g41_sym_layer {R : ringType} {n : nat} (E : 'M[R]_(n + (n + (n + n)), n)) :=
  two_head_layer (gsel_X R n)^T (gsel_X R n) (gsel_C R n) (gsel_C R n)
                 (- (gsel_X R n)^T) (gsel_X R n) (gsel_A R n) (gsel_X R n) E.

(* newton_schulz.giannou_lemma_4_1_two_layers_of_two_heads_width_4d_step_any_square_a:
   "Lemma 4.1 with its resources: 2 generic LSA layers, 2 heads each, token width 4d, map
   [X; A; I; 0] to [X (2I - A X); A; I; 0] for a random non-symmetric integer A and dyadic X,
   d in 1..5 (exact)."
   Covers: any commutative ring with c = 1/4, any size n, ANY square A and X (the property's
   random non-symmetric integer A, dyadic X and d in 1..5 are cases).  The token layout is ours
   (the paper's display equations were lost in the transcription read). *)
Definition premises_newton_schulz__giannou_lemma_4_1_two_layers_of_two_heads_width_4d_step_any_square_a
    {R : ringType} (n : nat) (c : R) : Prop :=
  (1 <= n)%N /\ c *+ 4 = 1.

Definition claim_newton_schulz__giannou_lemma_4_1_two_layers_of_two_heads_width_4d_step_any_square_a
    : Prop :=
  forall (R : comRingType) (n : nat) (c : R),
  premises_newton_schulz__giannou_lemma_4_1_two_layers_of_two_heads_width_4d_step_any_square_a
    n c ->
  forall X A : 'M[R]_n,
  g41_layer2 c (g41_layer1 (g_tokens X A 0)) = g_tokens (X *m (2%:R%:M - A *m X)) A 0.

Lemma witness_newton_schulz__giannou_lemma_4_1_two_layers_of_two_heads_width_4d_step_any_square_a :
  premises_newton_schulz__giannou_lemma_4_1_two_layers_of_two_heads_width_4d_step_any_square_a
    2 (1 / 4 : rat).
Proof. by split. Qed.

(* newton_schulz.giannou_lemma_4_1_stack_squares_the_residual_from_x0_eps_a_transpose:
   "k copies of Lemma 4.1's two layers from X_0 = eps A^T, eps = 1/||A||_F^2 (inside the paper's
   (0, 2/lambda_1(A A^T))), hold X_j after 2j layers and I - X_k A = (I - X_0 A)^(2^k), k in 1..3
   (exact)."
   Covers: any commutative ring with c = 1/4, any size n + 1 >= 1, any k (so every j <= k), ANY X_0
   (X_0 = eps A^T with the property's eps is a case; the claim does not need it).  The layout is
   ours, as above. *)
Definition premises_newton_schulz__giannou_lemma_4_1_stack_squares_the_residual_from_x0_eps_a_transpose
    {R : ringType} (n k : nat) (c : R) : Prop :=
  (1 <= n.+1)%N /\ (1 <= k)%N /\ c *+ 4 = 1.

Definition claim_newton_schulz__giannou_lemma_4_1_stack_squares_the_residual_from_x0_eps_a_transpose
    : Prop :=
  forall (R : comRingType) (n k : nat) (c : R),
  premises_newton_schulz__giannou_lemma_4_1_stack_squares_the_residual_from_x0_eps_a_transpose
    n k c ->
  forall A X0 : 'M[R]_n.+1,
  g41_stack c k (g_tokens X0 A 0) = g_tokens (newton_iter A X0 k) A 0 /\
  1%:M - newton_iter A X0 k *m A = (1%:M - X0 *m A) ^+ (2 ^ k).

Lemma witness_newton_schulz__giannou_lemma_4_1_stack_squares_the_residual_from_x0_eps_a_transpose :
  premises_newton_schulz__giannou_lemma_4_1_stack_squares_the_residual_from_x0_eps_a_transpose
    2 2 (1 / 4 : rat).
Proof. by split. Qed.

(* newton_schulz.giannou_symmetric_a_one_layer_of_two_heads_gives_the_step:
   "Lemma 4.1's symmetric case: one generic LSA layer of 2 heads, width 4d, maps [X; A; I; 0] to
   [X (2I - A X); A; I; 0] for a random symmetric integer A, d in 1..5 (exact)."
   Covers: any commutative ring, any size n, any symmetric A, any X, and any Z block (the
   property's Z = 0 is a case).  The layout is ours, as above. *)
Definition premises_newton_schulz__giannou_symmetric_a_one_layer_of_two_heads_gives_the_step
    {R : ringType} {n : nat} (A : 'M[R]_n) : Prop :=
  (1 <= n)%N /\ A^T = A.

Definition claim_newton_schulz__giannou_symmetric_a_one_layer_of_two_heads_gives_the_step
    : Prop :=
  forall (R : comRingType) (n : nat) (A : 'M[R]_n),
  premises_newton_schulz__giannou_symmetric_a_one_layer_of_two_heads_gives_the_step A ->
  forall X Z : 'M[R]_n,
  g41_sym_layer (g_tokens X A Z) = g_tokens (X *m (2%:R%:M - A *m X)) A Z.

Lemma witness_newton_schulz__giannou_symmetric_a_one_layer_of_two_heads_gives_the_step :
  premises_newton_schulz__giannou_symmetric_a_one_layer_of_two_heads_gives_the_step
    (const_mx 1 : 'M[rat]_2).
Proof. by split; last by apply/matrixP => i j; rewrite !mxE. Qed.

(* newton_schulz.giannou_one_layer_on_a_non_symmetric_a_gives_2x_minus_x_a_transpose_x:
   "The one-layer symmetric step on a non-symmetric A gives 2X - X A^T X, and that is the Newton
   step of A exactly when X (A - A^T) X = 0: the lemma's restriction to symmetric A is needed by
   this layer (exact)."
   Covers: any commutative ring, any size n, any non-symmetric A, any X and any Z block: the
   layer's output, and the equivalence with the Newton step 2X - X A X. *)
Definition premises_newton_schulz__giannou_one_layer_on_a_non_symmetric_a_gives_2x_minus_x_a_transpose_x
    {R : ringType} {n : nat} (A : 'M[R]_n) : Prop :=
  (2 <= n)%N /\ A^T != A.

Definition claim_newton_schulz__giannou_one_layer_on_a_non_symmetric_a_gives_2x_minus_x_a_transpose_x
    : Prop :=
  forall (R : comRingType) (n : nat) (A : 'M[R]_n),
  premises_newton_schulz__giannou_one_layer_on_a_non_symmetric_a_gives_2x_minus_x_a_transpose_x
    A ->
  forall X Z : 'M[R]_n,
  g41_sym_layer (g_tokens X A Z) = g_tokens (X *+ 2 - X *m A^T *m X) A Z /\
  (X *+ 2 - X *m A^T *m X = newton_step A X <-> X *m (A - A^T) *m X = 0).

Lemma witness_newton_schulz__giannou_one_layer_on_a_non_symmetric_a_gives_2x_minus_x_a_transpose_x :
  premises_newton_schulz__giannou_one_layer_on_a_non_symmetric_a_gives_2x_minus_x_a_transpose_x
    (delta_mx 0 1 : 'M[rat]_2).
Proof.
split=> //; rewrite trmx_delta; apply/eqP => /matrixP /(_ 0 1).
by rewrite !mxE.
Qed.

(* ---- our one-head variant: tokens [S^T; M; I], width 3n ---- *)

(* The tokens [St; M; I]. *)
Definition ns_tokens {R : ringType} {n : nat} (St M : 'M[R]_n) : 'M[R]_(n + (n + n), n) :=
  col_mx St (col_mx M 1%:M).

(* The selectors of its three blocks. *)
Definition sel_A (R : ringType) (n : nat) : 'M[R]_(n, n + (n + n)) := row_mx 1%:M 0.
Definition sel_B (R : ringType) (n : nat) : 'M[R]_(n, n + (n + n)) := row_mx 0 (row_mx 1%:M 0).
Definition sel_C (R : ringType) (n : nat) : 'M[R]_(n, n + (n + n)) := row_mx 0 (row_mx 0 1%:M).

(* The doubling layer (W_V = sel_B, W_K = W_Q = sel_C, P = emb_B) with the residual. *)
Definition ns_doubling {R : ringType} {n : nat} (E : 'M[R]_(n + (n + n), n)) :=
  E + lin_head (sel_B R n)^T (sel_B R n) (sel_C R n) (sel_C R n) E.

(* The correction layer (W_V = sel_B, W_K = sel_A, W_Q = sel_B, P = -c emb_B) with the residual. *)
Definition ns_correction {R : ringType} {n : nat} (c : R) (E : 'M[R]_(n + (n + n), n)) :=
  E + lin_head (- c *: (sel_B R n)^T) (sel_B R n) (sel_A R n) (sel_B R n) E.

(* k copies of the pair (2k layers). *)
Fixpoint ns_stack {R : ringType} {n : nat} (c : R) (k : nat) (E : 'M[R]_(n + (n + n), n))
    : 'M[R]_(n + (n + n), n) :=
  if k is k'.+1 then ns_correction c (ns_doubling (ns_stack c k' E)) else E.

(* newton_schulz.first_layer_doubles_the_iterate_exactly:
   "The doubling layer (W_V = sel_B, W_K = W_Q = sel_C, P = emb_B, unmasked) maps the tokens
   [S^T; M; I] to [S^T; 2M; I] with no rounding in any scalar: d in 1..5, random integer S,
   dyadic M."
   Covers: the map, over any commutative ring (so exactly over the rationals), any size, any S
   and M; not the claim about floating-point rounding (no rounding happens on its data: checked
   by the property in every precision). *)
Definition premises_newton_schulz__first_layer_doubles_the_iterate_exactly (n : nat) : Prop :=
  (1 <= n)%N.

Definition claim_newton_schulz__first_layer_doubles_the_iterate_exactly : Prop :=
  forall (R : comRingType) (n : nat),
  premises_newton_schulz__first_layer_doubles_the_iterate_exactly n ->
  forall St M : 'M[R]_n, ns_doubling (ns_tokens St M) = ns_tokens St (M *+ 2).

Lemma witness_newton_schulz__first_layer_doubles_the_iterate_exactly :
  premises_newton_schulz__first_layer_doubles_the_iterate_exactly 2.
Proof. by []. Qed.

(* newton_schulz.two_layers_compute_one_newton_schulz_step:
   "Doubling then correction layer (W_V = sel_B, W_K = sel_A, W_Q = sel_B, P = -(1/4) emb_B) map
   [S^T; M; I] to [S^T; 2M - M S M; I] for any square S and M (exact in rationals; 2 gamma_n
   shadow bound in floats, n = 2d + 4)."
   Covers: the exact map over any commutative ring with c = 1/4, any size, any S and M; not the
   floating-point shadow bound (a rounding claim of the C++ check). *)
Definition premises_newton_schulz__two_layers_compute_one_newton_schulz_step
    {R : ringType} (n : nat) (c : R) : Prop :=
  (1 <= n)%N /\ c *+ 4 = 1.

Definition claim_newton_schulz__two_layers_compute_one_newton_schulz_step : Prop :=
  forall (R : comRingType) (n : nat) (c : R),
  premises_newton_schulz__two_layers_compute_one_newton_schulz_step n c ->
  forall S M : 'M[R]_n,
  ns_correction c (ns_doubling (ns_tokens S^T M)) = ns_tokens S^T (M *+ 2 - M *m S *m M).

Lemma witness_newton_schulz__two_layers_compute_one_newton_schulz_step :
  premises_newton_schulz__two_layers_compute_one_newton_schulz_step 2 (1 / 4 : rat).
Proof. by split. Qed.

(* newton_schulz.stack_of_2k_layers_holds_the_kth_iterate:
   "From M_0 = S^T / ||S||_F^2, layers 2j of the 2k-layer stack hold the Newton-Schulz iterate
   M_j = 2 M_(j-1) - M_(j-1) S M_(j-1), j = 1..k, k in 1..4 (exact in rationals; shadow bound
   with n = j (2d + 4) in floats)."
   Covers: the exact map over any commutative ring with c = 1/4, any size, any k (so every
   j <= k), ANY M_0 (the property's S^T / ||S||_F^2 is a case); not the floating-point shadow
   bound. *)
Definition premises_newton_schulz__stack_of_2k_layers_holds_the_kth_iterate
    {R : ringType} (n k : nat) (c : R) : Prop :=
  (1 <= n)%N /\ (1 <= k)%N /\ c *+ 4 = 1.

Definition claim_newton_schulz__stack_of_2k_layers_holds_the_kth_iterate : Prop :=
  forall (R : comRingType) (n k : nat) (c : R),
  premises_newton_schulz__stack_of_2k_layers_holds_the_kth_iterate n k c ->
  forall S M0 : 'M[R]_n,
  ns_stack c k (ns_tokens S^T M0) = ns_tokens S^T (newton_iter S M0 k).

Lemma witness_newton_schulz__stack_of_2k_layers_holds_the_kth_iterate :
  premises_newton_schulz__stack_of_2k_layers_holds_the_kth_iterate 2 2 (1 / 4 : rat).
Proof. by split. Qed.

(* newton_schulz.residual_of_the_stack_is_the_2_to_the_k_power:
   "The iterate M_k read off the 2k-layer stack satisfies I - M_k S = (I - M_0 S)^(2^k)
   (M_0 = S^T / ||S||_F^2, k in 1..3): the residual squares at every two layers."
   Covers: any commutative ring with c = 1/4, any size n + 1 >= 1, any k, ANY M_0 (the property's is a
   case): the stack holds M_k and I - M_k S = (I - M_0 S)^(2^k). *)
Definition premises_newton_schulz__residual_of_the_stack_is_the_2_to_the_k_power
    {R : ringType} (n k : nat) (c : R) : Prop :=
  (1 <= n.+1)%N /\ (1 <= k)%N /\ c *+ 4 = 1.

Definition claim_newton_schulz__residual_of_the_stack_is_the_2_to_the_k_power : Prop :=
  forall (R : comRingType) (n k : nat) (c : R),
  premises_newton_schulz__residual_of_the_stack_is_the_2_to_the_k_power n k c ->
  forall S M0 : 'M[R]_n.+1,
  ns_stack c k (ns_tokens S^T M0) = ns_tokens S^T (newton_iter S M0 k) /\
  1%:M - newton_iter S M0 k *m S = (1%:M - M0 *m S) ^+ (2 ^ k).

Lemma witness_newton_schulz__residual_of_the_stack_is_the_2_to_the_k_power :
  premises_newton_schulz__residual_of_the_stack_is_the_2_to_the_k_power 2 2 (1 / 4 : rat).
Proof. by split. Qed.
