(* ImplicitWeights.v -- every masked linear self-attention layer keeps an implicit linear model
   (Vladymyrov, von Oswald, Sandler, Ge 2024, Theorem 4.1 and Lemma 4.3, re-derived:
   docs/constructions/implicit_weights.md).

   Tokens are columns of a (d + o) x n matrix; the state (M, u, a, w) describes the tokens
     implicit_tokens M u a w X Y = col_mx (M X + u Y) (a Y - w^T X).

   Main results
   - lsa_masked_token_map : a head of VonOswald.lsa moves every token by one matrix,
       lsa P WV WK WQ C T = T + (P (WV C) (WK C)^T WQ) T,
     whatever P, WV, WK, WQ and the context C (the head's "token map").
   - implicit_layer_update : if the tokens are implicit_tokens M u a w X Y, then after
       T + block_mx A B Cyx D *m T they are implicit_tokens M' u' a' w' X Y with
       M' = (1%:M + A) M - B w^T, u' = (1%:M + A) u + B a, a' = (1%:M + D) a + Cyx u,
       w' = w (1%:M + D)^T - M^T Cyx^T.
   - implicit_stack_tokens : for ANY sequence of layer maps C_l, the tokens T_(l+1) = T_l + C_l T_l
       from T_0 = col_mx X Y are implicit_tokens of the recursively updated state (induction).
   - implicit_readout : a token with y = 0 holds -w^T x_q in its y-part, so -y = w^T x_q.
   - diagonal_token_map : diagonal heads P = diag(px, py), Q = diag(qx, qy) give the block map
       [[px qx S, px qy al], [py qx al^T, py qy la]] on G = [[S, al], [al^T, la]].

   Dependencies: mathcomp ssreflect/algebra, VonOswald (lsa). No axioms. *)

From mathcomp Require Import all_ssreflect all_algebra.
From mathcomp Require Import ring.
From ICLProof Require Import VonOswald.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import GRing.Theory.
Local Open Scope ring_scope.

Section ImplicitWeights.
Variable R : comRingType.
Variables d o : nat.

Lemma lsa_masked_token_map p N M (P WV : 'M[R]_(d + o)) (WK WQ : 'M[R]_(p, d + o))
    (C : 'M[R]_(d + o, N)) (T : 'M[R]_(d + o, M)) :
  lsa P WV WK WQ C T = T + (P *m ((WV *m C) *m (WK *m C)^T) *m WQ) *m T.
Proof. by rewrite /lsa !mulmxA. Qed.

Definition implicit_tokens n (M : 'M[R]_d) (u : 'M[R]_(d, o)) (a : 'M[R]_o) (w : 'M[R]_(d, o))
    (X : 'M[R]_(d, n)) (Y : 'M[R]_(o, n)) : 'M[R]_(d + o, n) :=
  col_mx (M *m X + u *m Y) (a *m Y - w^T *m X).

Definition next_M (A : 'M[R]_d) (B : 'M[R]_(d, o)) (M : 'M[R]_d) (w : 'M[R]_(d, o)) :=
  (1%:M + A) *m M - B *m w^T.
Definition next_u (A : 'M[R]_d) (B : 'M[R]_(d, o)) (u : 'M[R]_(d, o)) (a : 'M[R]_o) :=
  (1%:M + A) *m u + B *m a.
Definition next_a (Cyx : 'M[R]_(o, d)) (D : 'M[R]_o) (u : 'M[R]_(d, o)) (a : 'M[R]_o) :=
  (1%:M + D) *m a + Cyx *m u.
Definition next_w (Cyx : 'M[R]_(o, d)) (D : 'M[R]_o) (M : 'M[R]_d) (w : 'M[R]_(d, o)) :=
  w *m (1%:M + D)^T - M^T *m Cyx^T.

Theorem implicit_layer_update n (A : 'M[R]_d) (B : 'M[R]_(d, o)) (Cyx : 'M[R]_(o, d))
    (D : 'M[R]_o) M u a w (X : 'M[R]_(d, n)) (Y : 'M[R]_(o, n)) :
  let T := implicit_tokens M u a w X Y in
  T + block_mx A B Cyx D *m T
    = implicit_tokens (next_M A B M w) (next_u A B u a) (next_a Cyx D u a) (next_w Cyx D M w)
        X Y.
Proof.
rewrite /implicit_tokens mul_block_col add_col_mx /next_M /next_u /next_a /next_w.
congr col_mx.
  rewrite ?(mulmxDl, mulmxDr, mulmxBl, mulmxBr, mulmxN, mulNmx, mul1mx, mulmxA).
  by apply/matrixP => i j; rewrite !mxE; ring.
rewrite [(_ - _)^T]raddfB /= !trmx_mul !trmxK.
rewrite ?(mulmxDl, mulmxDr, mulmxBl, mulmxBr, mulmxN, mulNmx, mul1mx, mulmxA).
by apply/matrixP => i j; rewrite !mxE; ring.
Qed.

(* The state after l layers with token maps C_0, ..., C_(l-1). *)
Record implicit_state := ImplicitState {
  st_M : 'M[R]_d; st_u : 'M[R]_(d, o); st_a : 'M[R]_o; st_w : 'M[R]_(d, o) }.

Definition implicit_step (C : 'M[R]_(d + o)) (s : implicit_state) : implicit_state :=
  let A := ulsubmx C in let B := ursubmx C in let Cyx := dlsubmx C in let D := drsubmx C in
  ImplicitState (next_M A B (st_M s) (st_w s)) (next_u A B (st_u s) (st_a s))
    (next_a Cyx D (st_u s) (st_a s)) (next_w Cyx D (st_M s) (st_w s)).

Fixpoint implicit_states (C : nat -> 'M[R]_(d + o)) l : implicit_state :=
  if l is l'.+1 then implicit_step (C l') (implicit_states C l') else ImplicitState 1%:M 0 1%:M 0.

Fixpoint stack_tokens n (C : nat -> 'M[R]_(d + o)) (T0 : 'M[R]_(d + o, n)) l :=
  if l is l'.+1 then let T := stack_tokens C T0 l' in T + C l' *m T else T0.

Theorem implicit_stack_tokens n (C : nat -> 'M[R]_(d + o)) (X : 'M[R]_(d, n))
    (Y : 'M[R]_(o, n)) l :
  let s := implicit_states C l in
  stack_tokens C (col_mx X Y) l = implicit_tokens (st_M s) (st_u s) (st_a s) (st_w s) X Y.
Proof.
elim: l => [|l IH] /=.
  by rewrite /implicit_tokens !mul1mx trmx0 !mul0mx addr0 subr0.
by rewrite IH -{1}[C l]submxK; apply: implicit_layer_update.
Qed.

Theorem implicit_readout n (M : 'M[R]_d) u (a : 'M[R]_o) w (Xq : 'M[R]_(d, n)) :
  - dsubmx (implicit_tokens M u a w Xq 0) = w^T *m Xq.
Proof. by rewrite /implicit_tokens col_mxKd mulmx0 sub0r opprK. Qed.

Theorem diagonal_token_map (px py qx qy : R) (S : 'M[R]_d) (al : 'M[R]_(d, o))
    (la : 'M[R]_o) :
  block_mx (px%:M) 0 0 (py%:M) *m block_mx S al al^T la *m block_mx (qx%:M) 0 0 (qy%:M)
    = block_mx ((px * qx) *: S) ((px * qy) *: al) ((py * qx) *: al^T) ((py * qy) *: la).
Proof.
rewrite !mulmx_block !mul0mx !mulmx0 !addr0 !add0r !mul_scalar_mx.
by rewrite -!scalemxAl !mul_mx_scalar !scalerA.
Qed.

End ImplicitWeights.
