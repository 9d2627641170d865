(* The project's theorems prove the statement of bai.v (issue 37): check_<p> has exactly the type
   ICLProof.statements.bai.claim_<p>; the bridge from BaiRelu.v's relu and soft threshold to the
   statement file's is proved here, and the block algebra of the MLP's matrices on the tokens
   reduces the layer to BaiRelu.v:mlp_soft_threshold_residual on every entry of W. *)

From mathcomp Require Import all_ssreflect all_algebra.
From ICLProof Require Import BaiRelu.
From ICLProof Require statements.bai.

Import GRing.Theory Num.Theory.
Local Open Scope ring_scope.

(* Bridge: the statement file's relu and soft threshold are BaiRelu.v's. *)
Lemma relu_bridge (R : realDomainType) (x : R) : statements.bai.relu x = relu x.
Proof. by []. Qed.

Lemma soft_threshold_bridge (R : realDomainType) (th x : R) :
  statements.bai.soft_threshold th x = soft_threshold th x.
Proof. by []. Qed.

(* The column const_mx c (d x 1) times the constant row of ones (1 x n) is const_mx c. *)
Lemma const_col_times_ones (R : ringType) d n (c : R) :
  (const_mx c : 'M[R]_(d, 1)) *m (const_mx 1 : 'M[R]_(1, n)) = const_mx c.
Proof. by apply/matrixP => i j; rewrite !mxE big_ord1 !mxE mulr1. Qed.

Lemma check_bai__soft_threshold_mlp_applies_the_l1_prox_exactly :
  statements.bai.claim_bai__soft_threshold_mlp_applies_the_l1_prox_exactly.
Proof.
move=> R d n th [_ [_ th0]] X W y t.
rewrite /statements.bai.mlp_layer /statements.bai.soft_mlp_W1 /statements.bai.soft_mlp_W2.
rewrite /statements.bai.bai_tokens.
rewrite !mul_col_mx !mul_row_col !mul0mx !add0r !addr0 !mulNmx !mul1mx const_col_times_ones.
rewrite !map_col_mx ?mul_col_mx ?mul0mx ?mul_row_col ?mulNmx ?mul1mx !add_col_mx ?addr0.
congr (col_mx _ (col_mx _ (col_mx _ _))).
apply/matrixP => i j; rewrite !mxE !relu_bridge soft_threshold_bridge.
by rewrite -(mlp_soft_threshold_residual _ th0) !addrA.
Qed.

Lemma check_bai__heads_q_k_v_and_minus_q_k_minus_v_make_linear_attention :
  statements.bai.claim_bai__heads_q_k_v_and_minus_q_k_minus_v_make_linear_attention.
Proof.
move=> R D k n Hn Msk c Q K V _ H.
congr (_ + _); apply: eq_bigr => h _.
rewrite /statements.bai.relu_head /statements.bai.linear_head.
rewrite !mulNmx mulmxN -mulmxBl -mulmxBr; congr (_ *m _ *m _).
set S := (K h *m H)^T *m (Q h *m H).
by apply/matrixP => j i; rewrite !mxE !relu_bridge -mulrBr relu_pair_linear.
Qed.
