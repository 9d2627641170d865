(* BaiRelu.v -- the exact identities of Bai, Chen, Wang, Xiong, Mei, "Transformers as
   Statisticians" (NeurIPS 2023, arXiv 2306.04637) that the bai family's ReLU-attention and MLP
   layers rely on (docs/constructions/bai.md; src/bai/bai_weights.hpp).

   relu x = max(x, 0) (the paper's sigma).  Main results
   - relu_pair_linear     : relu x - relu (- x) = x  (the identity "t = sigma(t) - sigma(-t)" of
                            the proof of Theorem 13 (b), and d_s l(s, t) = s - t as two relus, D.1).
   - relu_pair_scale      : the same times any vector of an lmodType (two heads, values +-v).
   - relu_masked          : |s| <= R -> relu (s - R) = 0 (a key with t_j = 0 drops out).
   - bai_gd_heads         : the two square-loss heads with scores s_j - R + R t_j and
                            -s_j - R + R t_j and values +-x_j sum to  sum_j t_j s_j x_j  when every
                            key has t_j = 1, or t_j = 0 and |s_j| <= R.
   - relu_indicator       : relu t = t for t in {0, 1} (the ridge head's weights sigma(t_j)).
   - soft_threshold_two_relus : for theta >= 0 the soft threshold (the prox of theta |.|)
                            equals relu (x - theta) - relu (- x - theta).
   - mlp_soft_threshold_residual : x + (relu (x - th) - relu (- x - th) - relu x + relu (- x))
                            = soft_threshold th x (the 4-unit MLP with its residual connection).

   Post-ICL validation (Section 4.1, Theorem H.3 = Propositions H.3 and H.2):
   - relu_square_pair     : relu s * s + relu (- s) * (- s) = s ^+ 2 (two heads square a residual).
   - bai_validation_heads : the two validation heads with the mask -2 Rb (1 + t_j) sum, over the
                            keys, to the sum of e_j ^+ 2 over the keys with t_j = -1 when every
                            other key has t_j in {0, 1} and |e_j| <= 2 Rb.
   - relu_mul_nonneg      : 0 <= b -> relu (b * a) = b * relu a (the selection heads' scores).
   - selection_gap_bound  : L_k - L_l <= sum_m relu (L_k - L_m) (c_k <= gamma bounds every gap).
   - selection_indicator_positive : 0 < relu (1 - c / g) -> c < g (g > 0; over a field).
   - selection_weights_sum, selection_weights_nonneg, selection_weight_support : the weights
                            lambda_k = relu (1 - S_k) - relu (1 - S_(k+1)), S_k = u_0 + ... + u_(k-1),
                            sum to 1 once S_K >= 1, are >= 0 when u_k >= 0, and are > 0 only where
                            u_k > 0.
   - selection_heads      : the 2 (K + 1) selection heads (scores (f_k + Rb)(1 - S_k) with value
                            +1 and (f_(k-1) + Rb)(1 - S_k) with value -1, f_(-1) = f_K = 0) sum to
                            sum_k lambda_k f_k when f_k + Rb >= 0 and Rb >= 0.

   Dependencies: mathcomp ssreflect/algebra.  No axioms. *)

From mathcomp Require Import all_ssreflect all_algebra.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import Order.TTheory GRing.Theory Num.Theory.
Local Open Scope ring_scope.

Section BaiRelu.
Variable R : realDomainType.

Definition relu (x : R) : R := if 0 <= x then x else 0.

Lemma relu_ge0 x : 0 <= relu x.
Proof. by rewrite /relu; case: ifP => // /negbT; rewrite -ltNge => /ltW. Qed.

Lemma relu_pair_linear x : relu x - relu (- x) = x.
Proof.
rewrite /relu oppr_ge0; case: ifP => hx; case: ifP => hy.
- have x0 : x = 0 by apply/le_anti; rewrite hx hy.
  by rewrite x0 oppr0 subr0.
- by rewrite subr0.
- by rewrite sub0r opprK.
- by move: (le_total 0 x); rewrite hx hy.
Qed.

Lemma relu_pair_scale (V : lmodType R) (s : R) (v : V) :
  relu s *: v - relu (- s) *: v = s *: v.
Proof. by rewrite -scalerBl relu_pair_linear. Qed.

Lemma relu_masked s Rb : `|s| <= Rb -> relu (s - Rb) = 0.
Proof.
move=> hs; rewrite /relu subr_ge0; case: ifP => // h.
apply/eqP; rewrite subr_eq0 eq_le h andbT.
exact: le_trans (ler_norm s) hs.
Qed.

Lemma relu_indicator t : t = 0 \/ t = 1 -> relu t = t.
Proof. by case=> ->; rewrite /relu ?lexx ?ler01. Qed.

Lemma bai_gd_heads (V : lmodType R) n (s t : 'I_n -> R) (x : 'I_n -> V) Rb :
  (forall j, t j = 1 \/ (t j = 0 /\ `|s j| <= Rb)) ->
  \sum_(j < n) (relu (s j - Rb + Rb * t j) *: x j - relu (- s j - Rb + Rb * t j) *: x j)
    = \sum_(j < n) (t j * s j) *: x j.
Proof.
move=> ht; apply: eq_bigr => j _.
case: (ht j) => [-> | [-> hs]].
- by rewrite mulr1 mul1r !subrK relu_pair_scale.
- rewrite mulr0 mul0r !addr0 relu_masked // relu_masked ?normrN //.
  by rewrite !scale0r subr0.
Qed.

Definition soft_threshold (th x : R) : R :=
  if th < x then x - th else if x < - th then x + th else 0.

Lemma soft_threshold_two_relus th x : 0 <= th ->
  soft_threshold th x = relu (x - th) - relu (- x - th).
Proof.
move=> th0; rewrite /soft_threshold /relu !subr_ge0 ler_oppr.
have hneg : - th <= th by apply: (le_trans _ th0); rewrite oppr_le0.
case: (ltrP th x) => h1.
- have hn : (x <= - th) = false.
    by apply/negbTE; rewrite -ltNge (le_lt_trans hneg h1).
  by rewrite (ltW h1) hn subr0.
case: (ltrP x (- th)) => h2.
- have hx : (th <= x) = false.
    by apply/negbTE; rewrite -ltNge (lt_le_trans h2 hneg).
  by rewrite hx (ltW h2) sub0r opprB opprK addrC.
case: (lerP th x) => h3.
- have e : x = th by apply/eqP; rewrite eq_le h1 h3.
  case: (lerP x (- th)) => h4.
  + have hle : th <= 0.
      by rewrite -oppr_ge0; apply: (le_trans th0); rewrite -{1}e.
    have t0 : th = 0 by apply/eqP; rewrite eq_le hle th0.
    by rewrite e t0 !(oppr0, addr0).
  + by rewrite e subrr subr0.
- case: (lerP x (- th)) => h4.
  + have e : x = - th by apply/eqP; rewrite eq_le h4 h2.
    by rewrite e opprK subrr subr0.
  + by rewrite subrr.
Qed.

Lemma mlp_soft_threshold_residual th x : 0 <= th ->
  x + (relu (x - th) - relu (- x - th) - relu x + relu (- x)) = soft_threshold th x.
Proof.
move=> th0; rewrite soft_threshold_two_relus //.
have cancel (u r r' : R) : (r - r') + (u - r + r') = u.
  by rewrite (addrAC u) -(addrA u) -opprB addrC addrK.
by rewrite -{1}(relu_pair_linear x) cancel.
Qed.

(* ---------------------------------------------------------------------------------------
   Post-ICL validation (Section 4.1, Theorem H.3 = Propositions H.3 and H.2). *)

(* sigma(s) s + sigma(-s) (-s) = s^2: the two validation heads of one run square the residual. *)
Lemma relu_square_pair s : relu s * s + relu (- s) * (- s) = s ^+ 2.
Proof.
rewrite /relu oppr_ge0; case: (lerP 0 s) => h.
- case: (lerP s 0) => h'.
  + have -> : s = 0 by apply/le_anti; rewrite h h'.
    by rewrite oppr0 mul0r addr0 expr2 mul0r.
  + by rewrite mul0r addr0 expr2.
- by rewrite (ltW h) mul0r add0r mulrNN expr2.
Qed.

Lemma relu_nonpos x : x <= 0 -> relu x = 0.
Proof.
move=> h; rewrite /relu; case: ifP => // hx.
by apply/le_anti; rewrite h hx.
Qed.

(* Proposition H.3's heads with our mask -2 Rb (1 + t_j): summed over the keys, the two heads of
   a run give sum over the validation keys (t_j = -1) of e_j^2, provided every other key has
   t_j = 0 or t_j = 1 and |e_j| <= 2 Rb (the paper's "|f_k(x_j) - y_j| <= 2R"). *)
Lemma bai_validation_heads n (e t : 'I_n -> R) Rb :
  0 <= Rb ->
  (forall j, t j = -1 \/ ((t j = 0 \/ t j = 1) /\ `|e j| <= 2%:R * Rb)) ->
  \sum_(j < n) (relu (e j - 2%:R * Rb * (1 + t j)) * e j
                + relu (- e j - 2%:R * Rb * (1 + t j)) * (- e j))
    = \sum_(j < n) (if t j == -1 then e j ^+ 2 else 0).
Proof.
move=> R0 ht; apply: eq_bigr => j _.
case: (ht j) => [-> | [ht01 he]].
- by rewrite eqxx subrr mulr0 !subr0 relu_square_pair.
- have hne : (t j == -1) = false.
    case: ht01 => ->; apply/negbTE.
    + by rewrite eq_sym oppr_eq0 oner_eq0.
    + by rewrite -addr_eq0 paddr_eq0 ?ler01 // oner_eq0.
  rewrite hne.
  have key : forall s, `|s| <= 2%:R * Rb -> relu (s - 2%:R * Rb * (1 + t j)) = 0.
    move=> s hs; apply: relu_nonpos; rewrite subr_le0.
    apply: (le_trans (ler_norm s)); apply: (le_trans hs).
    case: ht01 => ->; first by rewrite addr0 mulr1.
    rewrite -{1}(mulr1 (2%:R * Rb)) ler_wpmul2l ?mulr_ge0 ?ler0n //.
    by rewrite -[X in X <= _]add0r ler_add2r ler01.
  by rewrite key // key ?normrN // !mul0r addr0.
Qed.

(* sigma(b a) = b sigma(a) for b >= 0: the selection heads' scores (f + R_f)(1 - S). *)
Lemma relu_mul_nonneg a b : 0 <= b -> relu (b * a) = b * relu a.
Proof.
move=> b0; rewrite /relu; case: (lerP 0 a) => ha.
- by rewrite mulr_ge0.
- case: ifP => h; last by rewrite mulr0.
  rewrite mulr0; apply/le_anti; rewrite h andbT.
  by rewrite mulr_ge0_le0 // ltW.
Qed.

(* Step 1: c_k = sum_l sigma(L_k - L_l) (the term l = k is sigma(0) = 0, which the MLP omits)
   bounds every gap, so c_k <= gamma gives L_k <= L_l + gamma for every l. *)
Lemma relu_ge x : x <= relu x.
Proof. by rewrite /relu; case: ifP => // /negbT; rewrite -ltNge => /ltW. Qed.

Lemma selection_gap_bound K (L : 'I_K -> R) k l :
  L k - L l <= \sum_(m < K) relu (L k - L m).
Proof.
rewrite (bigD1 l) //= -[X in X <= _]addr0 ler_add ?relu_ge //.
by apply: sumr_ge0 => m _; exact: relu_ge0.
Qed.

(* Step 3: the weights lambda_k = sigma(1 - S_k) - sigma(1 - S_{k+1}), S_k = u_0 + ... + u_{k-1}. *)
Definition sel_S (u : nat -> R) k := \sum_(m < k) u m.
Definition sel_lambda (u : nat -> R) k := relu (1 - sel_S u k) - relu (1 - sel_S u k.+1).

Lemma sel_lambda_telescope (u : nat -> R) K :
  \sum_(k < K) sel_lambda u k = relu (1 - sel_S u 0) - relu (1 - sel_S u K).
Proof.
elim: K => [|K IH]; first by rewrite big_ord0 subrr.
by rewrite big_ord_recr /= IH /sel_lambda addrA subrK.
Qed.

(* The weights sum to 1 once the u's reach 1 (the best run has c = 0, so u = 1). *)
Lemma selection_weights_sum (u : nat -> R) K :
  1 <= sel_S u K -> \sum_(k < K) sel_lambda u k = 1.
Proof.
move=> hS; rewrite sel_lambda_telescope /sel_S big_ord0 subr0.
rewrite (relu_nonpos (x := 1 - _)) ?subr0 ?subr_le0 //.
by rewrite /relu ler01.
Qed.

Lemma relu_le_mono x y : x <= y -> relu x <= relu y.
Proof.
move=> h; rewrite /relu; case: (lerP 0 x) => hx.
- by rewrite (le_trans hx h).
- by case: ifP.
Qed.

(* lambda_k >= 0 when every u is >= 0 (S grows, sigma is monotone). *)
Lemma selection_weights_nonneg (u : nat -> R) k :
  0 <= u k -> 0 <= sel_lambda u k.
Proof.
move=> hu; rewrite /sel_lambda subr_ge0 relu_le_mono //.
by rewrite /sel_S big_ord_recr /= opprD addrA ger_addl oppr_le0.
Qed.

(* lambda_k > 0 only if u_k > 0, hence (Step 2) c_k < gamma and (Step 1) L_k < min L + gamma. *)
Lemma selection_weight_support (u : nat -> R) k :
  0 <= u k -> 0 < sel_lambda u k -> 0 < u k.
Proof.
move=> hu hl; rewrite lt_def hu andbT; apply/negP => /eqP uk0.
by move: hl; rewrite /sel_lambda /sel_S big_ord_recr /= uk0 addr0 subrr ltxx.
Qed.

(* Step 3's attention: heads (k, 0) with scores (g k + Rb)(1 - S_k) and value +1, heads (k, 1)
   with scores (g' k + Rb)(1 - S_k) and value -1, k = 0..K (0-based), where g k = f k for k < K
   and 0 for k = K, g' 0 = 0 and g' k.+1 = f k: their sum is sum_k lambda_k f_k, provided
   f k + Rb >= 0 for every run and Rb >= 0. *)
Definition sel_f (f : nat -> R) K k := if (k < K)%N then f k else 0.
Definition sel_f_prev (f : nat -> R) k := if k is k'.+1 then f k' else 0.

Lemma selection_heads (u f : nat -> R) K Rb :
  0 <= Rb -> (forall k, (k < K)%N -> 0 <= f k + Rb) ->
  \sum_(k < K.+1)
      (relu ((sel_f f K k + Rb) * (1 - sel_S u k))
       - relu ((sel_f_prev f k + Rb) * (1 - sel_S u k)))
    = \sum_(k < K) sel_lambda u k * f k.
Proof.
move=> R0 hf.
have g0 : forall k : nat, 0 <= sel_f f K k + Rb.
  by move=> k; rewrite /sel_f; case: ifP => [/hf // | _]; rewrite add0r.
have g1 : forall k : nat, (k <= K)%N -> 0 <= sel_f_prev f k + Rb.
  by case=> [|k] hk /=; [rewrite add0r | apply: hf].
rewrite (eq_bigr (fun k : 'I_K.+1 =>
    sel_f f K k * relu (1 - sel_S u k) - sel_f_prev f k * relu (1 - sel_S u k))); last first.
  move=> k _; have kK : (k <= K)%N by rewrite -ltnS ltn_ord.
  rewrite !relu_mul_nonneg ?g0 ?g1 //.
  by rewrite !mulrDl opprD addrACA subrr addr0.
rewrite sumrB big_ord_recr /= /sel_f ltnn mul0r addr0 big_ord_recl /= mul0r add0r.
rewrite -sumrB; apply: eq_bigr => k _.
by rewrite /= ltn_ord /sel_lambda mulrBl !(mulrC (f k)).
Qed.

End BaiRelu.

(* Step 2: u = sigma(1 - c / gamma) > 0 only if c < gamma (over a field, for the division). *)
Section BaiSelectionField.
Variable F : realFieldType.

Lemma selection_indicator_positive (c g : F) :
  0 < g -> 0 < relu (1 - c / g) -> c < g.
Proof.
move=> g0; rewrite /relu; case: ifP => _; last by rewrite ltxx.
by rewrite subr_gt0 ltr_pdivr_mulr // mul1r.
Qed.

End BaiSelectionField.
