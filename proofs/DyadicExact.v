(* DyadicExact.v -- on small-integer data with N and eta powers of two, floating point computes
   the Prop. 1 layer and the GD step WITHOUT ANY ROUNDING, in every precision p that the data's
   size bound allows (Flocq's FLT formats: radix 2, precision p, minimal exponent emin, any
   rounding function: round-to-nearest and MPFI's directed endpoint roundings alike).

   The programs are the C++ ones, operation by operation:
     - layer (src/lsa/lsa_layer_impl.hpp, lsa_head_update and lsa_layer_forward):
         V = W_V C, K = W_K C, A = V K^T (over the N context columns), PA = P A,
         Qm = W_Q E, U = PA Qm, out = U + E, with P = Identity * (eta / N) (prop1_weights);
     - GD reference (properties/vonoswald.hpp, prop1_exact_on_dyadic_data, gd_delta and
       src/references/gradient_descent.hpp, least_squares_gradient):
         R1 = W0 X, Res = R1 - Y, G1 = Res X^T, G = G1 / N, dW = (-eta) G, MX = dW E_x,
         ref_y = E_y - MX (the x-rows of the reference are a copy of E's, no arithmetic).
   Every matrix product is a dot product per entry (src/core/linalg_impl.hpp, product_loops)
   computed by a KERNEL; the theorems hold for every kernel that is exact whenever all its
   terms and partial sums lie on a common grid of the format (dot_exact_on_grid).  Three
   kernels are proved to be such: the sequential loop acc <- fl(acc + fl(a b)) of the generic
   dot_accumulate (dot_seq), the same with a fused multiply-add fl(acc + a b) (dot_fma: what
   floating-point contraction would compile), and one rounding of the exact sum (dot_once:
   mpfr_dot_into).  Every elementwise +, -, x and / is rounded once.

   Data hypotheses (the C++ checks them on every draw, properties/vonoswald.hpp,
   prop1_exact_on_dyadic_data, with the same formula in dyadic_bound): the entries of the token matrix E = [[X, Xq], [Y, Yq0]] and of W0 are
   integers of magnitude <= b (b >= 1), N = 2^j, eta = 2^-k, emin <= -(j + k) and
       N D^5 b^6 + b 2^(j+k) < 2^p,      D = d + o                       (dyadic_bound)
   (every intermediate is an integer multiple of 2^-(j+k) whose integer is at most this).
   The C++ draws b = 4, d <= 6, o <= 3, N <= 16, k <= 5: the bound is at most
   3 869 837 312 < 2^32, so p >= 32 suffices; double (53), long double (64) and every MPFR
   precision iclproof accepts (>= 53) satisfy it, and their emin (-1074, -16445) is far below
   -(j + k) >= -9.  MPFR has no subnormals: take emin = -(j + k); every nonzero value of that
   FLT format is at least 2^-(j+k), far above MPFR's least positive value, so it is an MPFR
   number of precision p too.

   Main results
   - prop1_dyadic_exact_in_floating_point : on such data, for the C++ dot kernels
       (cpp_dot_kernel: dot_seq, dot_fma or dot_once), every entry of the floating-point layer
       equals the floating-point GD-updated token matrix: x-rows E's own entries, y-rows
       E_y - DeltaW E_x as the reference computes it (the property's `out == ref`, bit for bit).
       prop1_dyadic_bit_for_bit: the same for every kernel satisfying dot_exact_on_grid.
   - layer_no_rounding : the floating-point layer equals the exact layer (every entry).
   - gd_step_no_rounding : the floating-point GD-updated y-rows equal the exact ones.
   - layer_exact_is_gd_step : Prop. 1 for the exact programs in this representation (x-rows
       unchanged, y-rows y - DeltaW x, context and queries), the entrywise counterpart of
       VonOswald.v:prop1_lsa_gd_step (whose mathcomp matrices need R as a numFieldType, which
       this library cannot give Coq's reals without further axioms).
   - dot_seq_exact, dot_fma_exact, dot_once_exact : the three kernels satisfy dot_exact_on_grid.
   - on_grid_round : a value on the grid (integer multiple of 2^e, integer < 2^p, e >= emin) is
       in generic_format radix2 (FLT_exp emin p), so every rounding leaves it unchanged.
   Rounding model: every operation returns round(exact result) for one rounding function rnd of
   the FLT format (Flocq's Valid_rnd), so round-to-nearest (double, long double, MPFR) and the
   directed roundings of MPFI's endpoints (on point intervals each endpoint follows the same
   program with rnd = down or up) are all covered; no overflow is modelled (all values here are
   below 2^32).  Matrices are functions nat -> nat -> R read inside their dimensions.

   Dependencies: Flocq 4 (Core), Coq's Reals.  Axioms: those of Coq's classical reals
   (allowed_axioms.txt (a)). *)

From Coq Require Import Reals ZArith Lia Lra List.
From Flocq Require Import Core.
Import ListNotations.

Set Implicit Arguments.
Unset Strict Implicit.

Local Open Scope R_scope.

Section Grid.

(* x = m 2^e with m an integer, |m| <= B. *)
Definition on_grid (e B : Z) (x : R) : Prop :=
  exists m : Z, x = IZR m * bpow radix2 e /\ (Z.abs m <= B)%Z.

Lemma on_grid_nonneg e B x : on_grid e B x -> (0 <= B)%Z.
Proof. intros [m [_ H]]; lia. Qed.

Lemma on_grid_weaken e B B' x : (B <= B')%Z -> on_grid e B x -> on_grid e B' x.
Proof. intros HB [m [Hx Hm]]; exists m; split; [exact Hx | lia]. Qed.

Lemma on_grid_0 e B : (0 <= B)%Z -> on_grid e B 0.
Proof. intros HB; exists 0%Z; split; [simpl; ring | simpl; lia]. Qed.

Lemma on_grid_add e B1 B2 x y :
  on_grid e B1 x -> on_grid e B2 y -> on_grid e (B1 + B2) (x + y).
Proof.
intros [m1 [-> H1]] [m2 [-> H2]]; exists (m1 + m2)%Z; split.
- rewrite plus_IZR; ring.
- lia.
Qed.

Lemma on_grid_opp e B x : on_grid e B x -> on_grid e B (- x).
Proof.
intros [m [-> H]]; exists (- m)%Z; split.
- rewrite opp_IZR; ring.
- lia.
Qed.

Lemma on_grid_sub e B1 B2 x y :
  on_grid e B1 x -> on_grid e B2 y -> on_grid e (B1 + B2) (x - y).
Proof. intros H1 H2; apply on_grid_add; [exact H1 | now apply on_grid_opp]. Qed.

Lemma on_grid_mul e1 e2 B1 B2 x y :
  on_grid e1 B1 x -> on_grid e2 B2 y -> on_grid (e1 + e2) (B1 * B2) (x * y).
Proof.
intros [m1 [-> H1]] [m2 [-> H2]]; exists (m1 * m2)%Z; split.
- rewrite mult_IZR, bpow_plus; ring.
- rewrite Z.abs_mul; apply Z.mul_le_mono_nonneg; lia.
Qed.

(* A coarser grid: 2^e = 2^t 2^(e - t). *)
Lemma on_grid_shift e t B x :
  (0 <= t)%Z -> on_grid e B x -> on_grid (e - t) (B * 2 ^ t) x.
Proof.
intros Ht [m [-> H]]; exists (m * 2 ^ t)%Z; split.
- change (2 ^ t)%Z with (Zpower radix2 t).
  rewrite mult_IZR, IZR_Zpower by exact Ht.
  rewrite Rmult_assoc, <- bpow_plus; do 2 f_equal; ring.
- rewrite Z.abs_mul, (Z.abs_eq (2 ^ t)) by (apply Z.pow_nonneg; lia).
  apply Z.mul_le_mono_nonneg_r; [apply Z.pow_nonneg; lia | exact H].
Qed.

Lemma on_grid_div_pow e j B x :
  on_grid e B x -> on_grid (e - j) B (x / bpow radix2 j).
Proof.
intros [m [-> H]]; exists m; split; [| exact H].
unfold Rdiv; rewrite <- bpow_opp, Rmult_assoc, <- bpow_plus; reflexivity.
Qed.

Lemma on_grid_exp e e' B x : e = e' -> on_grid e B x -> on_grid e' B x.
Proof. now intros <-. Qed.

Variables emin p : Z.

(* The grid lies in the format: x = m 2^e, |m| < 2^p, e >= emin. *)
Lemma on_grid_format e B x :
  (emin <= e)%Z -> (B < 2 ^ p)%Z -> on_grid e B x ->
  generic_format radix2 (FLT_exp emin p) x.
Proof.
intros He HB [m [-> Hm]].
apply generic_format_FLT; apply (FLT_spec _ _ _ _ (Float radix2 m e)).
- reflexivity.
- simpl; lia.
- simpl; lia.
Qed.

Variable rnd : R -> Z.
Context {valid_rnd : Valid_rnd rnd}.

(* One rounded operation of the format, any rounding function. *)
Definition fl (x : R) : R := round radix2 (FLT_exp emin p) rnd x.

Theorem on_grid_round e B x :
  (emin <= e)%Z -> (B < 2 ^ p)%Z -> on_grid e B x -> fl x = x.
Proof.
intros He HB Hx; unfold fl; apply round_generic; [exact valid_rnd |].
exact (on_grid_format He HB Hx).
Qed.

(* ------------------------------------------------------------------------------------------ *)
(* Dot-product kernels: acc + sum_k a_k b_k, the terms taken in list order. *)

Fixpoint sum_prod (s : list (R * R)) : R :=
  match s with
  | [] => 0
  | (a, b) :: t => a * b + sum_prod t
  end.

(* The generic loop of src/core/kernels.hpp (dot_accumulate): acc += a * b, two roundings. *)
Fixpoint dot_seq (acc : R) (s : list (R * R)) : R :=
  match s with
  | [] => acc
  | (a, b) :: t => dot_seq (fl (acc + fl (a * b))) t
  end.

(* The same loop contracted to fused multiply-adds: one rounding per step. *)
Fixpoint dot_fma (acc : R) (s : list (R * R)) : R :=
  match s with
  | [] => acc
  | (a, b) :: t => dot_fma (fl (acc + a * b)) t
  end.

(* mpfr_dot_into: the exact sum rounded once. *)
Definition dot_once (acc : R) (s : list (R * R)) : R := fl (acc + sum_prod s).

Definition terms_on_grid (ea eb Ba Bb : Z) (s : list (R * R)) : Prop :=
  Forall (fun ab => on_grid ea Ba (fst ab) /\ on_grid eb Bb (snd ab)) s.

(* A kernel is exact on the grid when, for terms a_k on grid (ea, Ba), b_k on grid (eb, Bb) and
   an accumulator on grid (ea + eb, B0), B0 + n Ba Bb < 2^p and emin <= ea + eb, it returns the
   exact value acc + sum_k a_k b_k. *)
Definition dot_exact_on_grid (dot : R -> list (R * R) -> R) : Prop :=
  forall ea eb Ba Bb B0 acc s,
    (emin <= ea + eb)%Z ->
    (B0 + Z.of_nat (length s) * Ba * Bb < 2 ^ p)%Z ->
    on_grid (ea + eb) B0 acc -> terms_on_grid ea eb Ba Bb s ->
    dot acc s = acc + sum_prod s.

Lemma sum_prod_on_grid ea eb Ba Bb s :
  (0 <= Ba)%Z -> (0 <= Bb)%Z -> terms_on_grid ea eb Ba Bb s ->
  on_grid (ea + eb) (Z.of_nat (length s) * Ba * Bb) (sum_prod s).
Proof.
intros HBa HBb; induction s as [| [a b] t IH]; intros Hs.
- apply on_grid_0; simpl; lia.
- inversion Hs as [| x l [Ha Hb] Ht]; subst; simpl in Ha, Hb.
  simpl sum_prod; replace (Z.of_nat (length ((a, b) :: t)) * Ba * Bb)%Z
    with (Ba * Bb + Z.of_nat (length t) * Ba * Bb)%Z
    by (simpl length; rewrite Nat2Z.inj_succ; ring).
  apply on_grid_add; [now apply on_grid_mul | now apply IH].
Qed.

(* A kernel that folds a step over the terms is exact on the grid when its step is: for an
   accumulator on grid (ea + eb, B0) and a term (a, b) on grids (ea, Ba) and (eb, Bb) with
   B0 + Ba Bb < 2^p, the step returns acc + a b.  Shared by dot_seq_exact and dot_fma_exact. *)
Lemma dot_exact_of_step (dot : R -> list (R * R) -> R) (step : R -> R -> R -> R) :
  (forall acc, dot acc [] = acc) ->
  (forall acc a b t, dot acc ((a, b) :: t) = dot (step acc a b) t) ->
  (forall ea eb Ba Bb B0 acc a b,
     (emin <= ea + eb)%Z -> (B0 + Ba * Bb < 2 ^ p)%Z ->
     on_grid (ea + eb) B0 acc -> on_grid ea Ba a -> on_grid eb Bb b ->
     step acc a b = acc + a * b) ->
  dot_exact_on_grid dot.
Proof.
intros Hnil Hcons Hstep ea eb Ba Bb B0 acc s He; revert B0 acc.
induction s as [| [a b] t IH]; intros B0 acc Hp Hacc Hs.
- rewrite Hnil; simpl; ring.
- inversion Hs as [| x l [Ha Hb] Ht]; subst; simpl in Ha, Hb.
  assert (HB0 := on_grid_nonneg Hacc).
  assert (HBa := on_grid_nonneg Ha); assert (HBb := on_grid_nonneg Hb).
  simpl length in Hp; rewrite Nat2Z.inj_succ in Hp; unfold Z.succ in Hp.
  assert (Hsum := on_grid_add Hacc (on_grid_mul Ha Hb)).
  assert (P2 : (B0 + Ba * Bb < 2 ^ p)%Z) by nia.
  assert (P3 : (B0 + Ba * Bb + Z.of_nat (length t) * Ba * Bb < 2 ^ p)%Z) by nia.
  rewrite Hcons, (Hstep _ _ _ _ _ _ _ _ He P2 Hacc Ha Hb), (IH _ _ P3 Hsum Ht); simpl; ring.
Qed.

Theorem dot_seq_exact : dot_exact_on_grid dot_seq.
Proof.
apply (dot_exact_of_step (step := fun acc a b => fl (acc + fl (a * b)))); [easy | easy |].
intros ea eb Ba Bb B0 acc a b He Hp Hacc Ha Hb.
assert (HB0 := on_grid_nonneg Hacc); assert (Hab := on_grid_mul Ha Hb).
assert (P1 : (Ba * Bb < 2 ^ p)%Z) by lia.
now rewrite (on_grid_round He P1 Hab), (on_grid_round He Hp (on_grid_add Hacc Hab)).
Qed.

Theorem dot_fma_exact : dot_exact_on_grid dot_fma.
Proof.
apply (dot_exact_of_step (step := fun acc a b => fl (acc + a * b))); [easy | easy |].
intros ea eb Ba Bb B0 acc a b He Hp Hacc Ha Hb.
exact (on_grid_round He Hp (on_grid_add Hacc (on_grid_mul Ha Hb))).
Qed.

Theorem dot_once_exact : dot_exact_on_grid dot_once.
Proof.
intros ea eb Ba Bb B0 acc s He Hp Hacc Hs; unfold dot_once.
assert (HB0 := on_grid_nonneg Hacc).
destruct s as [| [a b] t].
- simpl in *; rewrite Rplus_0_r; apply (on_grid_round He (B := B0)); [lia | exact Hacc].
- inversion Hs as [| x l [Ha Hb] Ht]; subst; simpl in Ha, Hb.
  assert (HBa := on_grid_nonneg Ha); assert (HBb := on_grid_nonneg Hb).
  exact (on_grid_round He Hp (on_grid_add Hacc (sum_prod_on_grid HBa HBb Hs))).
Qed.

(* ------------------------------------------------------------------------------------------ *)
(* Matrices as functions read inside their dimensions. *)

Definition mat := nat -> nat -> R.

Definition row_col (n : nat) (A B : mat) (i j : nat) : list (R * R) :=
  map (fun k => (A i k, B k j)) (seq 0 n).

(* The floating-point product (each entry one kernel call from 0, product_loops) and the exact
   one. *)
Definition fmul (dot : R -> list (R * R) -> R) (n : nat) (A B : mat) : mat :=
  fun i j => dot 0 (row_col n A B i j).
Definition emul (n : nat) (A B : mat) : mat := fun i j => sum_prod (row_col n A B i j).
Definition tr (A : mat) : mat := fun i j => A j i.
Arguments emul n%nat_scope A B i j%nat_scope.
Arguments fmul dot n%nat_scope A B i j%nat_scope.

(* F (the floating-point matrix) equals X (the exact one) inside r x c, and X is on the grid. *)
Definition agrees (r c : nat) (e B : Z) (F X : mat) : Prop :=
  forall i j, (i < r)%nat -> (j < c)%nat -> F i j = X i j /\ on_grid e B (X i j).

Lemma agrees_weaken r c r' c' e B B' F X :
  (r' <= r)%nat -> (c' <= c)%nat -> (B <= B')%Z -> agrees r c e B F X -> agrees r' c' e B' F X.
Proof.
intros Hr Hc HB H i j Hi Hj; destruct (H i j) as [H1 H2]; try lia.
split; [exact H1 | exact (on_grid_weaken HB H2)].
Qed.

Lemma agrees_exp r c e e' B F X : e = e' -> agrees r c e B F X -> agrees r c e' B F X.
Proof. now intros <-. Qed.

Lemma agrees_shift r c e t B F X :
  (0 <= t)%Z -> agrees r c e B F X -> agrees r c (e - t) (B * 2 ^ t) F X.
Proof.
intros Ht H i j Hi Hj; destruct (H i j Hi Hj) as [H1 H2].
split; [exact H1 | exact (on_grid_shift Ht H2)].
Qed.

Lemma agrees_tr r c e B F X : agrees r c e B F X -> agrees c r e B (tr F) (tr X).
Proof. intros H i j Hi Hj; exact (H j i Hj Hi). Qed.

(* Rows d .. d + o - 1 (the y-rows of a token matrix). *)
Definition rows_from (d : nat) (A : mat) : mat := fun i j => A (d + i)%nat j.

Lemma agrees_rows_from d o c e B F X :
  agrees (d + o) c e B F X -> agrees o c e B (rows_from d F) (rows_from d X).
Proof. intros H i j Hi Hj; apply H; lia. Qed.

Lemma agrees_exact r c e B X :
  (forall i j, (i < r)%nat -> (j < c)%nat -> on_grid e B (X i j)) -> agrees r c e B X X.
Proof. intros H i j Hi Hj; split; [reflexivity | exact (H i j Hi Hj)]. Qed.

Lemma row_col_agree r n c e B e' B' Af Ae Bf Be i j :
  agrees r n e B Af Ae -> agrees n c e' B' Bf Be -> (i < r)%nat -> (j < c)%nat ->
  row_col n Af Bf i j = row_col n Ae Be i j /\ terms_on_grid e e' B B' (row_col n Ae Be i j).
Proof.
intros HA HB Hi Hj; split.
- apply map_ext_in; intros k Hk; apply in_seq in Hk.
  now rewrite (proj1 (HA i k Hi ltac:(lia))), (proj1 (HB k j ltac:(lia) Hj)).
- apply Forall_forall; intros [a b] Hab; apply in_map_iff in Hab.
  destruct Hab as [k [Hk Hin]]; apply in_seq in Hin; injection Hk as <- <-; simpl.
  split; [exact (proj2 (HA i k Hi ltac:(lia))) | exact (proj2 (HB k j ltac:(lia) Hj))].
Qed.

Theorem fmul_agrees dot r n c ea eb Ba Bb Af Ae Bf Be :
  dot_exact_on_grid dot -> (emin <= ea + eb)%Z -> (Z.of_nat n * Ba * Bb < 2 ^ p)%Z ->
  (0 <= Ba)%Z -> (0 <= Bb)%Z ->
  agrees r n ea Ba Af Ae -> agrees n c eb Bb Bf Be ->
  agrees r c (ea + eb) (Z.of_nat n * Ba * Bb) (fmul dot n Af Bf) (emul n Ae Be).
Proof.
intros Hdot He Hp HBa HBb HA HB i j Hi Hj.
destruct (row_col_agree HA HB Hi Hj) as [Heq Hs].
assert (Hlen : length (row_col n Ae Be i j) = n)
  by (unfold row_col; now rewrite map_length, seq_length).
unfold fmul, emul; rewrite Heq; split.
- rewrite (Hdot ea eb Ba Bb 0%Z); [ring | exact He | rewrite Hlen; lia | | exact Hs].
  apply on_grid_0; lia.
- rewrite <- Hlen at 1; exact (sum_prod_on_grid HBa HBb Hs).
Qed.

(* Elementwise operations, each rounded once. *)
Definition fadd (F G : mat) : mat := fun i j => fl (F i j + G i j).
Definition fsub (F G : mat) : mat := fun i j => fl (F i j - G i j).
Definition fscale (c : R) (F : mat) : mat := fun i j => fl (c * F i j).
Definition fdiv (F : mat) (c : R) : mat := fun i j => fl (F i j / c).

(* An elementwise operation whose exact result is on a grid of the format is not rounded.
   Shared by the four elementwise operations below. *)
Lemma agrees_fl r c e B F X :
  (emin <= e)%Z -> (B < 2 ^ p)%Z ->
  (forall i j, (i < r)%nat -> (j < c)%nat -> F i j = fl (X i j) /\ on_grid e B (X i j)) ->
  agrees r c e B F X.
Proof.
intros He Hp H i j Hi Hj; destruct (H i j Hi Hj) as [-> G].
split; [exact (on_grid_round He Hp G) | exact G].
Qed.

Lemma fadd_agrees r c e B1 B2 F1 X1 F2 X2 :
  (emin <= e)%Z -> (B1 + B2 < 2 ^ p)%Z ->
  agrees r c e B1 F1 X1 -> agrees r c e B2 F2 X2 ->
  agrees r c e (B1 + B2) (fadd F1 F2) (fun i j => X1 i j + X2 i j).
Proof.
intros He Hp H1 H2; apply (agrees_fl He Hp); intros i j Hi Hj.
destruct (H1 i j Hi Hj) as [E1 G1], (H2 i j Hi Hj) as [E2 G2].
unfold fadd; rewrite E1, E2; split; [reflexivity | exact (on_grid_add G1 G2)].
Qed.

Lemma fsub_agrees r c e B1 B2 F1 X1 F2 X2 :
  (emin <= e)%Z -> (B1 + B2 < 2 ^ p)%Z ->
  agrees r c e B1 F1 X1 -> agrees r c e B2 F2 X2 ->
  agrees r c e (B1 + B2) (fsub F1 F2) (fun i j => X1 i j - X2 i j).
Proof.
intros He Hp H1 H2; apply (agrees_fl He Hp); intros i j Hi Hj.
destruct (H1 i j Hi Hj) as [E1 G1], (H2 i j Hi Hj) as [E2 G2].
unfold fsub; rewrite E1, E2; split; [reflexivity | exact (on_grid_sub G1 G2)].
Qed.

Lemma fscale_agrees r c e ec B Bc x F X :
  (emin <= ec + e)%Z -> (Bc * B < 2 ^ p)%Z -> on_grid ec Bc x ->
  agrees r c e B F X -> agrees r c (ec + e) (Bc * B) (fscale x F) (fun i j => x * X i j).
Proof.
intros He Hp Hx H; apply (agrees_fl He Hp); intros i j Hi Hj.
destruct (H i j Hi Hj) as [E1 G1].
unfold fscale; rewrite E1; split; [reflexivity | exact (on_grid_mul Hx G1)].
Qed.

Lemma fdiv_pow_agrees r c e t B F X :
  (emin <= e - t)%Z -> (B < 2 ^ p)%Z -> agrees r c e B F X ->
  agrees r c (e - t) B (fdiv F (bpow radix2 t)) (fun i j => X i j / bpow radix2 t).
Proof.
intros He Hp H; apply (agrees_fl He Hp); intros i j Hi Hj.
destruct (H i j Hi Hj) as [E1 G1].
unfold fdiv; rewrite E1; split; [reflexivity | exact (on_grid_div_pow t G1)].
Qed.

(* ------------------------------------------------------------------------------------------ *)
(* The Prop. 1 weights (src/lsa/vonoswald_weights_impl.hpp, prop1_weights), D = d + o. *)

Definition delta (i j : nat) : R := if Nat.eqb i j then 1 else 0.
Arguments delta (i j)%nat_scope.

(* W_K = W_Q = [[I_d, 0], [0, 0]]. *)
Definition prop1_wkq (d : nat) : mat := fun i j => if Nat.ltb i d then delta i j else 0.

(* W_V = [[0, 0], [W0, -I_o]]. *)
Definition prop1_wv (d : nat) (W0 : mat) : mat :=
  fun i j => if Nat.leb d i then (if Nat.ltb j d then W0 (i - d)%nat j else - delta i j) else 0.

(* P = Identity * (eta / N): floating point rounds eta / N and each product. *)
Definition prop1_p_float (eta : R) (N : nat) : mat :=
  fun i j => fl (delta i j * fl (eta / INR N)).
Definition prop1_p_exact (eta : R) (N : nat) : mat := fun i j => delta i j * (eta / INR N).

(* lsa_head_update + lsa_layer_forward for the masked Prop. 1 layer on the token matrix E
   (D x (N + Q)), context = its first N columns. *)
Definition layer_float (dot : R -> list (R * R) -> R) (d o N : nat) (eta : R) (W0 E : mat) : mat :=
  let D := (d + o)%nat in
  let V := fmul dot D (prop1_wv d W0) E in
  let K := fmul dot D (prop1_wkq d) E in
  let A := fmul dot N V (tr K) in
  let PA := fmul dot D (prop1_p_float eta N) A in
  let Qm := fmul dot D (prop1_wkq d) E in
  let U := fmul dot D PA Qm in
  fadd U E.

Definition layer_exact (d o N : nat) (eta : R) (W0 E : mat) : mat :=
  let D := (d + o)%nat in
  let V := emul D (prop1_wv d W0) E in
  let K := emul D (prop1_wkq d) E in
  let A := emul N V (tr K) in
  let PA := emul D (prop1_p_exact eta N) A in
  let Qm := emul D (prop1_wkq d) E in
  let U := emul D PA Qm in
  fun i j => U i j + E i j.

(* The GD reference's y-rows: E_y - ((-eta) ((W0 X - Y) X^T / N)) E_x, X = E's first N columns'
   x-rows, Y their y-rows. *)
Definition gd_step_float (dot : R -> list (R * R) -> R) (d N : nat) (eta : R) (W0 E : mat)
  : mat :=
  let Y := rows_from d E in
  let R1 := fmul dot d W0 E in
  let Res := fsub R1 Y in
  let G1 := fmul dot N Res (tr E) in
  let G := fdiv G1 (INR N) in
  let dW := fscale (- eta) G in
  let MX := fmul dot d dW E in
  fsub Y MX.

Definition gd_step_exact (d N : nat) (eta : R) (W0 E : mat) : mat :=
  let Y := rows_from d E in
  let R1 := emul d W0 E in
  let Res := fun i j => R1 i j - Y i j in
  let G1 := emul N Res (tr E) in
  let G := fun i j => G1 i j / INR N in
  let dW := fun i j => - eta * G i j in
  let MX := emul d dW E in
  fun i j => Y i j - MX i j.

(* ------------------------------------------------------------------------------------------ *)
(* The data hypotheses and the precision condition. *)

Definition dyadic_bound (d o N : nat) (b j k : Z) : Z :=
  (Z.of_nat N * Z.of_nat (d + o) ^ 5 * b ^ 6 + b * 2 ^ (j + k))%Z.

Lemma delta_grid i j : on_grid 0 1 (delta i j).
Proof.
unfold delta; destruct (Nat.eqb i j).
- exists 1%Z; split; [simpl; ring | simpl; lia].
- apply on_grid_0; lia.
Qed.

Lemma weights_grid d o b W0 :
  (1 <= b)%Z ->
  (forall i j, (i < o)%nat -> (j < d)%nat -> on_grid 0 b (W0 i j)) ->
  agrees (d + o) (d + o) 0 b (prop1_wv d W0) (prop1_wv d W0) /\
  agrees (d + o) (d + o) 0 b (prop1_wkq d) (prop1_wkq d).
Proof.
intros Hb HW; split; apply agrees_exact; intros i j Hi Hj.
- unfold prop1_wv; destruct (Nat.leb d i) eqn:Hdi; [destruct (Nat.ltb j d) eqn:Hjd |].
  + apply Nat.leb_le in Hdi; apply Nat.ltb_lt in Hjd; apply HW; lia.
  + apply on_grid_opp, (on_grid_weaken Hb), delta_grid.
  + apply on_grid_0; lia.
- unfold prop1_wkq; destruct (Nat.ltb i d).
  + apply (on_grid_weaken Hb), delta_grid.
  + apply on_grid_0; lia.
Qed.

Lemma pow2_bpow t : (0 <= t)%Z -> IZR (2 ^ t) = bpow radix2 t.
Proof. intros Ht; change (2 ^ t)%Z with (Zpower radix2 t); now apply IZR_Zpower. Qed.

Lemma INR_pow2 N j : (0 <= j)%Z -> Z.of_nat N = (2 ^ j)%Z -> INR N = bpow radix2 j.
Proof. intros Hj HN; now rewrite INR_IZR_INZ, HN, pow2_bpow. Qed.

Section Prop1.
Variables (dot : R -> list (R * R) -> R) (d o N Q : nat) (b j k : Z) (eta : R) (W0 E : mat).
Hypothesis dot_exact : dot_exact_on_grid dot.
Hypothesis b_ge1 : (1 <= b)%Z.
Hypothesis o_ge1 : (1 <= o)%nat.
Hypothesis N_pow : Z.of_nat N = (2 ^ j)%Z.
Hypothesis eta_pow : eta = bpow radix2 (- k).
Hypothesis j_ge0 : (0 <= j)%Z.
Hypothesis k_ge0 : (0 <= k)%Z.
Hypothesis E_int : forall i c, (i < d + o)%nat -> (c < N + Q)%nat -> on_grid 0 b (E i c).
Hypothesis W0_int : forall i c, (i < o)%nat -> (c < d)%nat -> on_grid 0 b (W0 i c).
Hypothesis emin_ok : (emin <= - (j + k))%Z.
Hypothesis prec_ok : (dyadic_bound d o N b j k < 2 ^ p)%Z.

Let n := Z.of_nat N.
Let DD := Z.of_nat (d + o).
Let dd := Z.of_nat d.
Let q := (DD * b * b)%Z.

Lemma n_ge1 : (1 <= n)%Z.
Proof. unfold n; rewrite N_pow; assert (H := Z.pow_pos_nonneg 2 j); lia. Qed.

Lemma DD_ge : (dd + 1 <= DD)%Z.
Proof. unfold dd, DD; lia. Qed.

Lemma pow_js_ge1 : (1 <= 2 ^ (j + k))%Z.
Proof. assert (H := Z.pow_pos_nonneg 2 (j + k)); lia. Qed.

(* Every intermediate's integer is at most the layer's final bound. *)
Lemma bound_chain :
  (1 <= q)%Z /\ (q <= n * q * q)%Z /\ (n * q * q <= DD * 1 * (n * q * q))%Z /\
  (DD * 1 * (n * q * q) <= DD * (DD * 1 * (n * q * q)) * q)%Z /\
  (DD * (DD * 1 * (n * q * q)) * q <= n * DD ^ 5 * b ^ 6)%Z /\
  (n * DD ^ 5 * b ^ 6 + b * 2 ^ (j + k) = dyadic_bound d o N b j k)%Z.
Proof.
assert (Hn := n_ge1); assert (HD := DD_ge); assert (Hdd : (0 <= dd)%Z) by (unfold dd; lia).
assert (Hq : (1 <= q)%Z) by (unfold q; nia).
assert (HD1 : (1 <= DD)%Z) by lia.
assert (Hnqq : (q <= n * q * q)%Z).
{ assert (1 <= n * q)%Z by nia. nia. }
assert (HA : (0 <= n * q * q)%Z) by lia.
set (A := (n * q * q)%Z) in *.
assert (HPA : (A <= DD * 1 * A)%Z) by nia.
set (PA := (DD * 1 * A)%Z) in *.
assert (1 <= DD * q)%Z by nia.
assert (HU : (PA <= DD * PA * q)%Z) by nia.
split; [exact Hq |]; split; [exact Hnqq |]; split; [exact HPA |]; split; [exact HU |]; split.
- unfold PA, A, q; apply Z.eq_le_incl; ring.
- reflexivity.
Qed.

Theorem layer_no_rounding :
  forall i c, (i < d + o)%nat -> (c < N + Q)%nat ->
  layer_float dot d o N eta W0 E i c = layer_exact d o N eta W0 E i c.
Proof.
destruct bound_chain as (Hq & H1 & H2 & H2b & H3 & H4).
assert (Hn := n_ge1); assert (Hjs := pow_js_ge1).
assert (Hb2 : (0 <= b * 2 ^ (j + k))%Z) by nia.
assert (Hprec : (n * DD ^ 5 * b ^ 6 + b * 2 ^ (j + k) < 2 ^ p)%Z) by (rewrite H4; exact prec_ok).
assert (Hbq : (0 <= n * DD ^ 5 * b ^ 6)%Z) by nia.
assert (Hb0 : (0 <= b)%Z) by lia.
assert (He0 : (emin <= 0 + 0)%Z) by lia.
assert (C1 : (DD * b * b < 2 ^ p)%Z) by (fold q; lia).
assert (C2 : (n * q * q < 2 ^ p)%Z) by lia.
assert (C3 : (DD * 1 * (n * q * q) < 2 ^ p)%Z) by lia.
assert (C4 : (DD * (DD * 1 * (n * q * q)) * q < 2 ^ p)%Z) by lia.
assert (Hq0 : (0 <= q)%Z) by lia.
assert (HA0 : (0 <= n * q * q)%Z) by lia.
assert (HPA0 : (0 <= DD * 1 * (n * q * q))%Z) by lia.
destruct (weights_grid b_ge1 W0_int) as [HWV HWK].
assert (HE : agrees (d + o) (N + Q) 0 b E E) by (apply agrees_exact; exact E_int).
(* V = W_V E and K = W_K E, D x (N + Q) *)
pose proof (fmul_agrees dot_exact He0 C1 Hb0 Hb0 HWV HE) as HV.
pose proof (fmul_agrees dot_exact He0 C1 Hb0 Hb0 HWK HE) as HK.
(* A = V K^T over the N context columns, D x D *)
assert (HNQ : (N <= N + Q)%nat) by lia.
pose proof (agrees_weaken (le_n (d + o)) HNQ (Z.le_refl _) HV) as HV'.
pose proof (agrees_tr (agrees_weaken (le_n (d + o)) HNQ (Z.le_refl _) HK)) as HKt.
assert (He00 : (emin <= (0 + 0) + (0 + 0))%Z) by lia.
pose proof (fmul_agrees dot_exact He00 C2 Hq0 Hq0 HV' HKt) as HA.
(* P = Identity * (eta / N) on the grid 2^-(j+k) *)
assert (Hc : fl (eta / INR N) = eta / INR N /\ on_grid (- (j + k)) 1 (eta / INR N)).
{ rewrite eta_pow, (INR_pow2 j_ge0 N_pow).
  assert (G : on_grid (- k - j) 1 (bpow radix2 (- k) / bpow radix2 j)).
  { apply on_grid_div_pow; exists 1%Z; split; [simpl; ring | simpl; lia]. }
  apply (on_grid_exp (e' := (- (j + k))%Z)) in G; [| ring].
  split; [apply (on_grid_round emin_ok (B := 1%Z)); [lia | exact G] | exact G]. }
assert (HP : agrees (d + o) (d + o) (- (j + k)) 1 (prop1_p_float eta N) (prop1_p_exact eta N)).
{ intros i c _ _; unfold prop1_p_float, prop1_p_exact; rewrite (proj1 Hc).
  assert (G := on_grid_mul (delta_grid i c) (proj2 Hc)); simpl Z.add in G.
  split; [apply (on_grid_round emin_ok (B := 1%Z)); [lia | exact G] | exact G]. }
(* PA = P A, D x D *)
assert (Hes : (emin <= - (j + k) + ((0 + 0) + (0 + 0)))%Z) by lia.
assert (H01 : (0 <= 1)%Z) by lia.
pose proof (fmul_agrees dot_exact Hes C3 H01 HA0 HP HA) as HPA.
(* Qm = W_Q E, D x (N + Q) *)
pose proof (fmul_agrees dot_exact He0 C1 Hb0 Hb0 HWK HE) as HQm.
(* U = PA Qm, D x (N + Q) *)
assert (Hes2 : (emin <= (- (j + k) + ((0 + 0) + (0 + 0))) + (0 + 0))%Z) by lia.
pose proof (fmul_agrees dot_exact Hes2 C4 HPA0 Hq0 HPA HQm) as HU.
(* out = U + E *)
pose proof (agrees_weaken (le_n (d + o)) (le_n (N + Q)) H3 HU) as HU'.
assert (Hjk : (0 <= j + k)%Z) by lia.
pose proof (agrees_shift Hjk HE) as HE'.
assert (Hx : ((- (j + k) + ((0 + 0) + (0 + 0))) + (0 + 0) = 0 - (j + k))%Z) by ring.
pose proof (agrees_exp Hx HU') as HU''.
assert (Hes3 : (emin <= 0 - (j + k))%Z) by lia.
pose proof (fadd_agrees Hes3 Hprec HU'' HE') as Hout.
intros i c Hi Hc'; exact (proj1 (Hout i c Hi Hc')).
Qed.

Theorem gd_step_no_rounding :
  forall i c, (i < o)%nat -> (c < N + Q)%nat ->
  gd_step_float dot d N eta W0 E i c = gd_step_exact d N eta W0 E i c.
Proof.
destruct bound_chain as (Hq & H1 & H2 & H2b & H3 & H4).
assert (Hn := n_ge1); assert (Hjs := pow_js_ge1); assert (HDd := DD_ge).
assert (Hdd : (0 <= dd)%Z) by (unfold dd; lia).
assert (Hb2 : (0 <= b * 2 ^ (j + k))%Z) by nia.
assert (Hprec : (n * DD ^ 5 * b ^ 6 + b * 2 ^ (j + k) < 2 ^ p)%Z) by (rewrite H4; exact prec_ok).
assert (Hb0 : (0 <= b)%Z) by lia.
assert (Hbq : (b <= q)%Z) by (unfold q; nia).
(* the reference's integers against the layer's *)
assert (B1 : (dd * b * b + b <= q)%Z) by (unfold q; nia).
assert (B2 : (n * (dd * b * b + b) * b <= n * q * q)%Z).
{ apply Z.mul_le_mono_nonneg; [nia | nia | lia | exact Hbq]. }
assert (B3 : (dd * (1 * (n * (dd * b * b + b) * b)) * b
              <= DD * (DD * 1 * (n * q * q)) * q)%Z).
{ apply Z.mul_le_mono_nonneg; [nia | | lia | exact Hbq].
  apply Z.mul_le_mono_nonneg; [lia | lia | nia | nia]. }
assert (He0 : (emin <= 0 + 0)%Z) by lia.
destruct (weights_grid b_ge1 W0_int) as [_ _].
assert (HE : agrees (d + o) (N + Q) 0 b E E) by (apply agrees_exact; exact E_int).
assert (HW : agrees o d 0 b W0 W0) by (apply agrees_exact; exact W0_int).
pose proof (agrees_weaken (Nat.le_add_r d o) (le_n (N + Q)) (Z.le_refl b) HE) as HX.
pose proof (agrees_rows_from HE) as HY.
(* R1 = W0 X, Res = R1 - Y *)
assert (C1 : (dd * b * b < 2 ^ p)%Z) by lia.
pose proof (fmul_agrees dot_exact He0 C1 Hb0 Hb0 HW HX) as HR1.
pose proof (agrees_exp (e' := 0%Z) eq_refl HR1) as HR1'.
assert (C2 : (dd * b * b + b < 2 ^ p)%Z) by lia.
assert (He00 : (emin <= 0)%Z) by lia.
pose proof (fsub_agrees He00 C2 HR1' HY) as HRes.
(* G1 = Res X^T over the N context columns, G = G1 / N *)
assert (HNQ : (N <= N + Q)%nat) by lia.
pose proof (agrees_weaken (le_n o) HNQ (Z.le_refl _) HRes) as HRes'.
pose proof (agrees_tr (agrees_weaken (le_n d) HNQ (Z.le_refl _) HX)) as HXt.
assert (C3 : (n * (dd * b * b + b) * b < 2 ^ p)%Z) by lia.
assert (HRb : (0 <= dd * b * b + b)%Z) by nia.
pose proof (fmul_agrees dot_exact He0 C3 HRb Hb0 HRes' HXt) as HG1.
assert (Hej : (emin <= 0 + 0 - j)%Z) by lia.
pose proof (fdiv_pow_agrees Hej C3 HG1) as HG.
(* dW = (-eta) G *)
assert (Heta : on_grid (- k) 1 (- eta)).
{ rewrite eta_pow; apply on_grid_opp; exists 1%Z; split; [simpl; ring | simpl; lia]. }
assert (Hek : (emin <= - k + (0 + 0 - j))%Z) by lia.
assert (C4 : (1 * (n * (dd * b * b + b) * b) < 2 ^ p)%Z) by lia.
pose proof (fscale_agrees Hek C4 Heta HG) as HdW.
(* MX = dW E_x, ref_y = Y - MX *)
assert (Hek0 : (emin <= - k + (0 + 0 - j) + 0)%Z) by lia.
assert (C5 : (dd * (1 * (n * (dd * b * b + b) * b)) * b < 2 ^ p)%Z) by lia.
assert (HdW0 : (0 <= 1 * (n * (dd * b * b + b) * b))%Z) by nia.
pose proof (fmul_agrees dot_exact Hek0 C5 HdW0 Hb0 HdW HX) as HMX.
assert (Hx : (- k + (0 + 0 - j) + 0 = 0 - (j + k))%Z) by ring.
pose proof (agrees_exp Hx HMX) as HMX'.
assert (Hjk : (0 <= j + k)%Z) by lia.
pose proof (agrees_shift Hjk HY) as HY'.
assert (C6 : (b * 2 ^ (j + k) + dd * (1 * (n * (dd * b * b + b) * b)) * b < 2 ^ p)%Z) by lia.
assert (Hes : (emin <= 0 - (j + k))%Z) by lia.
pose proof (fsub_agrees Hes C6 HY' HMX') as Href.
intros i c Hi Hc; unfold gd_step_float, gd_step_exact.
rewrite (INR_pow2 j_ge0 N_pow).
exact (proj1 (Href i c Hi Hc)).
Qed.

End Prop1.

(* ------------------------------------------------------------------------------------------ *)
(* The exact identity in this representation (Prop. 1, as VonOswald.v:prop1_lsa_gd_step states it
   for mathcomp matrices), and with the two no-rounding theorems the bit-for-bit claim. *)

Fixpoint sum_f (n : nat) (f : nat -> R) : R :=
  match n with
  | O => 0
  | S n' => sum_f n' f + f n'
  end.

Lemma sum_prod_app s t : sum_prod (s ++ t) = sum_prod s + sum_prod t.
Proof. induction s as [| [a b0] s IH]; simpl; [ring | rewrite IH; ring]. Qed.

Lemma emul_sum n A B i c : emul n A B i c = sum_f n (fun t => A i t * B t c).
Proof.
unfold emul, row_col; induction n as [| n IH]; [reflexivity |].
rewrite seq_S, map_app, sum_prod_app, IH; simpl; ring.
Qed.

Lemma sum_f_ext n f g : (forall t, (t < n)%nat -> f t = g t) -> sum_f n f = sum_f n g.
Proof.
induction n as [| n IH]; intros H; [reflexivity |]; simpl.
rewrite IH; [rewrite H; [reflexivity | lia] | intros t Ht; apply H; lia].
Qed.

Lemma sum_f_zero n f : (forall t, (t < n)%nat -> f t = 0) -> sum_f n f = 0.
Proof.
intros H; rewrite (sum_f_ext (g := fun _ => 0) H); clear H.
induction n as [| n IH]; simpl; [reflexivity | rewrite IH; ring].
Qed.

Lemma sum_f_split a n f : sum_f (a + n) f = sum_f a f + sum_f n (fun t => f (a + t)%nat).
Proof.
induction n as [| n IH]; simpl; [rewrite Nat.add_0_r; ring |].
rewrite Nat.add_succ_r; simpl; rewrite IH; ring.
Qed.

Lemma sum_f_scal n x f : sum_f n (fun t => x * f t) = x * sum_f n f.
Proof. induction n as [| n IH]; simpl; [ring | rewrite IH; ring]. Qed.

Lemma sum_f_delta n i f : (i < n)%nat -> sum_f n (fun t => delta i t * f t) = f i.
Proof.
induction n as [| n IH]; intros Hi; [lia |]; simpl.
destruct (Nat.eq_dec i n) as [-> | Hne].
- rewrite sum_f_zero.
  + unfold delta; rewrite Nat.eqb_refl; ring.
  + intros t Ht; unfold delta; destruct (Nat.eqb_spec n t); [lia | ring].
- rewrite IH by lia; unfold delta; destruct (Nat.eqb_spec i n); [lia | ring].
Qed.

Section Prop1Exact.
Variables (d o N : nat) (eta : R) (W0 E : mat).

Lemma keys_exact t l : (t < d + o)%nat ->
  emul (d + o)%nat (prop1_wkq d) E t l = if Nat.ltb t d then E t l else 0.
Proof.
intros Ht; rewrite emul_sum; unfold prop1_wkq; destruct (Nat.ltb t d).
- exact (sum_f_delta (fun u => E u l) Ht).
- apply sum_f_zero; intros; ring.
Qed.

Lemma values_top i l : (i < d)%nat -> emul (d + o)%nat (prop1_wv d W0) E i l = 0.
Proof.
intros Hi; rewrite emul_sum; apply sum_f_zero; intros t _; unfold prop1_wv.
destruct (Nat.leb_spec d i); [lia | ring].
Qed.

Lemma values_bottom i l : (i < o)%nat ->
  emul (d + o)%nat (prop1_wv d W0) E (d + i)%nat l = emul d W0 E i l - E (d + i)%nat l.
Proof.
intros Hi; rewrite !emul_sum, sum_f_split; unfold prop1_wv.
destruct (Nat.leb_spec d (d + i)%nat); [| lia].
rewrite (sum_f_ext (f := fun t => (if Nat.ltb t d then W0 (d + i - d)%nat t
  else - delta (d + i)%nat t) * E t l) (g := fun t => W0 i t * E t l)).
2: { intros t Ht; destruct (Nat.ltb_spec t d); [| lia].
     now replace (d + i - d)%nat with i by lia. }
rewrite (sum_f_ext (f := fun t => (if Nat.ltb (d + t)%nat d then W0 (d + i - d)%nat (d + t)%nat
  else - delta (d + i)%nat (d + t)%nat) * E (d + t)%nat l)
  (g := fun t => - (delta i t * E (d + t)%nat l))).
2: { intros t Ht; destruct (Nat.ltb_spec (d + t)%nat d); [lia |].
     unfold delta; destruct (Nat.eqb_spec (d + i)%nat (d + t)%nat), (Nat.eqb_spec i t); try lia; ring. }
rewrite (sum_f_ext (f := fun t => - (delta i t * E (d + t)%nat l))
  (g := fun t => -1 * (delta i t * E (d + t)%nat l))) by (intros; ring).
rewrite sum_f_scal, (sum_f_delta (fun t => E (d + t)%nat l) Hi); ring.
Qed.

Lemma projection_exact A i t : (i < d + o)%nat ->
  emul (d + o)%nat (prop1_p_exact eta N) A i t = eta / INR N * A i t.
Proof.
intros Hi; rewrite emul_sum; unfold prop1_p_exact.
rewrite (sum_f_ext (g := fun u => delta i u * (eta / INR N * A u t))) by (intros; ring).
exact (sum_f_delta (fun u => eta / INR N * A u t) Hi).
Qed.

(* Prop. 1 entrywise: x-rows unchanged, y-rows y - DeltaW x (context and queries alike). *)
Theorem layer_exact_is_gd_step i c : (i < d + o)%nat ->
  layer_exact d o N eta W0 E i c
  = if Nat.ltb i d then E i c else gd_step_exact d N eta W0 E (i - d)%nat c.
Proof.
intros Hi; unfold layer_exact, gd_step_exact, rows_from; cbv zeta beta.
set (A := emul N (emul (d + o) (prop1_wv d W0) E) (tr (emul (d + o) (prop1_wkq d) E))).
set (G1 := emul N (fun i0 j0 => emul d W0 E i0 j0 - E (d + i0)%nat j0) (tr E)).
(* the update: only the x-rows of the queries' keys count, through P = (eta/N) I *)
assert (HU : emul (d + o) (emul (d + o) (prop1_p_exact eta N) A) (emul (d + o) (prop1_wkq d) E) i c
             = sum_f d (fun t => eta / INR N * A i t * E t c)).
{ rewrite emul_sum, sum_f_split, Rplus_comm, sum_f_zero, Rplus_0_l.
  - apply sum_f_ext; intros t Ht; rewrite projection_exact, keys_exact by lia.
    destruct (Nat.ltb_spec t d); [ring | lia].
  - intros t Ht; rewrite projection_exact, keys_exact by lia.
    destruct (Nat.ltb_spec (d + t) d); [lia | ring]. }
rewrite HU; clear HU.
destruct (Nat.ltb_spec i d) as [Hid | Hid].
- rewrite sum_f_zero; [ring |]; intros t Ht.
  unfold A; rewrite emul_sum, sum_f_zero; [ring |]; intros l _.
  rewrite values_top by exact Hid; ring.
- set (i' := (i - d)%nat); replace i with (d + i')%nat by (unfold i'; lia).
  assert (Hi' : (i' < o)%nat) by (unfold i'; lia).
  assert (HL : sum_f d (fun t => eta / INR N * A (d + i')%nat t * E t c)
               = sum_f d (fun t => eta / INR N * G1 i' t * E t c)).
  { apply sum_f_ext; intros t Ht; unfold A, G1; rewrite !emul_sum.
    do 2 f_equal; apply sum_f_ext; intros l _; unfold tr.
    rewrite values_bottom, keys_exact by lia.
    destruct (Nat.ltb_spec t d); [reflexivity | lia]. }
  assert (HR : emul d (fun i0 j0 => - eta * (G1 i0 j0 / INR N)) E i' c
               = -1 * sum_f d (fun t => eta / INR N * G1 i' t * E t c)).
  { rewrite emul_sum, <- sum_f_scal; apply sum_f_ext; intros; unfold Rdiv; ring. }
  rewrite HL, HR; ring.
Qed.

End Prop1Exact.

(* The bit-for-bit claim of vonoswald.prop1_layer_is_exact_on_dyadic_data: on the dyadic data the
   floating-point layer equals, entry by entry, the floating-point GD-updated token matrix
   (x-rows: E's own entries; y-rows: E_y - DeltaW E_x as the reference computes it). *)
Theorem prop1_dyadic_bit_for_bit (dot : R -> list (R * R) -> R) (d o N Q : nat) (b j k : Z)
    (eta : R) (W0 E : mat) :
  dot_exact_on_grid dot -> (1 <= b)%Z -> (1 <= o)%nat -> Z.of_nat N = (2 ^ j)%Z ->
  eta = bpow radix2 (- k) -> (0 <= j)%Z -> (0 <= k)%Z ->
  (forall i c, (i < d + o)%nat -> (c < N + Q)%nat -> on_grid 0 b (E i c)) ->
  (forall i c, (i < o)%nat -> (c < d)%nat -> on_grid 0 b (W0 i c)) ->
  (emin <= - (j + k))%Z -> (dyadic_bound d o N b j k < 2 ^ p)%Z ->
  forall i c, (i < d + o)%nat -> (c < N + Q)%nat ->
  layer_float dot d o N eta W0 E i c
  = if Nat.ltb i d then E i c else gd_step_float dot d N eta W0 E (i - d)%nat c.
Proof.
intros Hdot Hb Ho HN Heta Hj Hk HE HW He Hp i c Hi Hc.
rewrite (layer_no_rounding Hdot Hb Ho HN Heta Hj Hk HE HW He Hp Hi Hc).
rewrite layer_exact_is_gd_step by exact Hi.
destruct (Nat.ltb_spec i d); [reflexivity |].
symmetry; apply (gd_step_no_rounding Hdot Hb Ho HN Heta Hj Hk HE HW He Hp); lia.
Qed.

(* The headline instance: the C++ kernels (the generic loop, its contraction to fused
   multiply-adds, MPFR's once-rounded dot product). *)
Definition cpp_dot_kernel (dot : R -> list (R * R) -> R) : Prop :=
  dot = dot_seq \/ dot = dot_fma \/ dot = dot_once.

Theorem prop1_dyadic_exact_in_floating_point (dot : R -> list (R * R) -> R) (d o N Q : nat)
    (b j k : Z) (eta : R) (W0 E : mat) :
  cpp_dot_kernel dot -> (1 <= b)%Z -> (1 <= o)%nat -> Z.of_nat N = (2 ^ j)%Z ->
  eta = bpow radix2 (- k) -> (0 <= j)%Z -> (0 <= k)%Z ->
  (forall i c, (i < d + o)%nat -> (c < N + Q)%nat -> on_grid 0 b (E i c)) ->
  (forall i c, (i < o)%nat -> (c < d)%nat -> on_grid 0 b (W0 i c)) ->
  (emin <= - (j + k))%Z -> (dyadic_bound d o N b j k < 2 ^ p)%Z ->
  forall i c, (i < d + o)%nat -> (c < N + Q)%nat ->
  layer_float dot d o N eta W0 E i c
  = if Nat.ltb i d then E i c else gd_step_float dot d N eta W0 E (i - d)%nat c.
Proof.
intros Hk; apply prop1_dyadic_bit_for_bit.
destruct Hk as [-> | [-> | ->]]; [exact dot_seq_exact | exact dot_fma_exact | exact dot_once_exact].
Qed.

End Grid.
