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

End BaiRelu.
