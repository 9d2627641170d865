(* statements/akyurek.v -- the claims of the `akyurek` family (Akyurek et al. 2023, "What
   learning algorithm is in-context learning?"), stated on plain objects for a reader.
   Coq's standard Reals (exp, sqrt, tanh, PI, RiemannInt) for the real-analysis claims, mathcomp
   for the algebraic ones; no project theory.  akyurek_check.v proves each claim_<p> from the
   theorems the property cites.  Conventions: entries are indexed from 0; sum_first f n is
   f 0 + ... + f (n - 1); (i < k)%N is mathcomp's boolean order on nat. *)
From Coq Require Import Reals Lra.
From mathcomp Require Import all_ssreflect all_algebra.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.
Import GRing.Theory Num.Theory.

Local Open Scope R_scope.

(* ============================================================ objects over Coq's reals *)

(* sum_first f n = f 0 + ... + f (n - 1). *)
Fixpoint sum_first (f : nat -> R) (n : nat) : R :=
  match n with O => 0 | S m => sum_first f m + f m end.

(* LayerNorm of the vector v of length L (no gain, no bias, epsilon e), entry j. *)
Definition ln_mean (v : nat -> R) (L : nat) : R := sum_first v L / INR L.
Definition ln_centred (v : nat -> R) (L : nat) (j : nat) : R := v j - ln_mean v L.
Definition ln_var (v : nat -> R) (L : nat) : R :=
  sum_first (fun j => ln_centred v L j ^ 2) L / INR L.
Definition layer_norm (v : nat -> R) (L : nat) (e : R) (j : nat) : R :=
  ln_centred v L j / sqrt (ln_var v L + e).
(* Its square, as the exact-rational check computes it (no square root). *)
Definition layer_norm_squared (v : nat -> R) (L : nat) (e : R) (j : nat) : R :=
  ln_centred v L j ^ 2 / (ln_var v L + e).

(* Lemma 8's division input of length k + 2 + p: [N c, y_0/M, ..., y_(k-1)/M, -N c - S/M,
   0, ..., 0] (p zero pads), S = y_0 + ... + y_(k-1). *)
Definition ln_division_input (k : nat) (N c M : R) (y : nat -> R) (j : nat) : R :=
  match j with
  | O => N * c
  | S i => if (i < k)%N then y i / M
           else if i == k then - (N * c) - sum_first y k / M else 0
  end.

(* The radicand of Lemma 8's closed form: 1 + S/(N c M) + (S^2 + |y|^2)/(2 N^2 c^2 M^2)
   + e L/(2 N^2 c^2), L = k + 2 + p. *)
Definition ln_division_den2 (k p : nat) (N c M e : R) (y : nat -> R) : R :=
  1 + sum_first y k / (N * c * M)
    + (sum_first y k ^ 2 + sum_first (fun i => y i ^ 2) k) / (2 * (N * c) ^ 2 * M ^ 2)
    + e * INR (k + 2 + p) / (2 * (N * c) ^ 2).

(* Its first-order part delta = den2 - 1 and the nonnegative part q = delta - S/(N c M). *)
Definition ln_division_q (k p : nat) (N c M e : R) (y : nat -> R) : R :=
  (sum_first y k ^ 2 + sum_first (fun i => y i ^ 2) k) / (2 * (N * c) ^ 2 * M ^ 2)
    + e * INR (k + 2 + p) / (2 * (N * c) ^ 2).
Definition ln_division_delta (k p : nat) (N c M e : R) (y : nat -> R) : R :=
  sum_first y k / (N * c * M) + ln_division_q k p N c M e y.

(* Lemma 6's bypass input as iclproof builds it: [N, x_0, ..., x_(k-1), -N - S, 0, ..., 0]
   (the paper's entries [x, N, -N - sum x, 0] with N placed first), S = x_0 + ... + x_(k-1). *)
Definition ln_bypass_input (k : nat) (N : R) (x : nat -> R) (j : nat) : R :=
  match j with
  | O => N
  | S i => if (i < k)%N then x i else if i == k then - N - sum_first x k else 0
  end.

(* The bypass radicand 1 + S/N + (S^2 + |x|^2)/(2 N^2) + e L/(2 N^2), L = k + 2 + p. *)
Definition ln_bypass_den2 (k p : nat) (N e : R) (x : nat -> R) : R :=
  1 + sum_first x k / N + (sum_first x k ^ 2 + sum_first (fun i => x i ^ 2) k) / (2 * N ^ 2)
    + e * INR (k + 2 + p) / (2 * N ^ 2).

(* The tanh GeLU of the paper (eq. 36): z/2 (1 + tanh (sqrt(2/pi) (z + 0.044715 z^3))),
   tanh the standard library's sinh/cosh. *)
Definition gelu_tanh (z : R) : R :=
  z / 2 * (1 + tanh (sqrt (2 / PI) * (z + 44715 / 1000000 * z ^ 3))).

(* The Gaussian density exp(-t^2), continuous everywhere. *)
Definition gauss_density (t : R) : R := exp (- (t * t)).

Lemma gauss_density_continuous (t : R) : continuity_pt gauss_density t.
Proof.
apply: (continuity_pt_comp (fun u => - (u * u)) exp).
  by apply: continuity_pt_opp; apply: continuity_pt_mult; apply: derivable_continuous_pt;
    apply: derivable_pt_id.
by apply: derivable_continuous_pt; apply: derivable_pt_exp.
Qed.

(* int_0^x exp(-t^2) dt, the standard library's Riemann integral (its value does not depend
   on the integrability proof, RiemannInt_P5), oriented: minus int_x^0 for x < 0. *)
Definition gauss_integral (x : R) : R :=
  match Rle_lt_dec 0 x with
  | left h =>
      RiemannInt (continuity_implies_RiemannInt h (fun t _ => gauss_density_continuous t))
  | right h =>
      - RiemannInt (continuity_implies_RiemannInt (Rlt_le x 0 h)
                                                  (fun t _ => gauss_density_continuous t))
  end.

(* erf x = 2/sqrt(pi) int_0^x exp(-t^2) dt, and the erf GeLU z Phi(z) = z/2 (1 + erf(z/sqrt 2)). *)
Definition erf (x : R) : R := 2 / sqrt PI * gauss_integral x.
Definition gelu_erf (z : R) : R := z / 2 * (1 + erf (z / sqrt 2)).

(* The GeLU multiplication of Lemma 4: s^2 sqrt(pi/2) (g((x+y)/s) - g(x/s) - g(y/s)). *)
Definition gelu_product (g : R -> R) (x y s : R) : R :=
  s ^ 2 * sqrt (PI / 2) * (g ((x + y) / s) - g (x / s) - g (y / s)).

(* The softmax attention output at one query over n keys: logits l_j, values u_j. *)
Definition softmax_average (l u : nat -> R) (n : nat) : R :=
  sum_first (fun j => exp (l j) * u j) n / sum_first (fun j => exp (l j)) n.

(* ============================================================ claims over Coq's reals *)

(* akyurek.layernorm_bypass_closed_form_returns_n_not_2n: "sqrt(2/L) N lambda([N, x, -N - sum x,
   0, ..., 0]) (the paper's entries [x, N, -N - sum x, 0], N placed first, 0-5 zero pads) equals
   x / sqrt(1 + S/N + (S^2+|x|^2)/(2N^2) + eps L/(2N^2)) in the x entries and N / sqrt(...) in
   the N entry: N, not the paper's 2N."  Covers: every k, every number p of pads (the property
   draws 0-5), every N > 0, e >= 0, every data entry i < k and the N entry. *)
Definition premises_akyurek__layernorm_bypass_closed_form_returns_n_not_2n
    (k : nat) (N e : R) (i : nat) : Prop :=
  (i < k)%N /\ 0 < N /\ 0 <= e.

Definition claim_akyurek__layernorm_bypass_closed_form_returns_n_not_2n : Prop :=
  forall (k p : nat) (N e : R) (x : nat -> R) (i : nat),
    premises_akyurek__layernorm_bypass_closed_form_returns_n_not_2n k N e i ->
    sqrt (2 / INR (k + 2 + p)) * N * layer_norm (ln_bypass_input k N x) (k + 2 + p) e (S i)
      = x i / sqrt (ln_bypass_den2 k p N e x)
    /\ sqrt (2 / INR (k + 2 + p)) * N * layer_norm (ln_bypass_input k N x) (k + 2 + p) e O
      = N / sqrt (ln_bypass_den2 k p N e x).

Lemma witness_akyurek__layernorm_bypass_closed_form_returns_n_not_2n :
  premises_akyurek__layernorm_bypass_closed_form_returns_n_not_2n 2 2 (1 / 100000) 0.
Proof. by split => //; split; lra. Qed.

(* akyurek.layernorm_bypass_closed_form_squared_is_exact: "(2/L) N^2 lambda([N, x, -N - sum x, 0,
   ..., 0])^2 (the paper's entries, N placed first) equals x^2 / den2 in the x entries and
   N^2 / den2 in the N entry, den2 = 1 + S/N + (S^2+|x|^2)/(2N^2) + eps L/(2N^2), signs those of
   x: the squared bypass closed form, exactly (N, not 2N)."  Covers the squared forms of every
   data entry and of the N entry, and the sign: the centred data entry (of which the LayerNorm
   output is a positive multiple, 1/sqrt(var + e)) is x_i itself. *)
Definition premises_akyurek__layernorm_bypass_closed_form_squared_is_exact
    (k : nat) (N e : R) (i : nat) : Prop :=
  (i < k)%N /\ N <> 0 /\ 0 <= e.

Definition claim_akyurek__layernorm_bypass_closed_form_squared_is_exact : Prop :=
  forall (k p : nat) (N e : R) (x : nat -> R) (i : nat),
    premises_akyurek__layernorm_bypass_closed_form_squared_is_exact k N e i ->
    2 / INR (k + 2 + p) * N ^ 2
      * layer_norm_squared (ln_bypass_input k N x) (k + 2 + p) e (S i)
      = x i ^ 2 / ln_bypass_den2 k p N e x
    /\ 2 / INR (k + 2 + p) * N ^ 2 * layer_norm_squared (ln_bypass_input k N x) (k + 2 + p) e O
      = N ^ 2 / ln_bypass_den2 k p N e x
    /\ ln_centred (ln_bypass_input k N x) (k + 2 + p) (S i) = x i.

Lemma witness_akyurek__layernorm_bypass_closed_form_squared_is_exact :
  premises_akyurek__layernorm_bypass_closed_form_squared_is_exact 2 2 (1 / 100000) 0.
Proof. by split => //; split; lra. Qed.

(* akyurek.layernorm_division_closed_form: "sqrt(2/L) M N lambda([N c, y/M, -N c - S/M, 0])
   equals (y/|c|) / sqrt(1 + S/(NcM) + (S^2+|y|^2)/(2N^2c^2M^2) + eps L/(2N^2c^2)) to rounding
   (Lemma 8, exact form)."  Covers every k, pad count p, N > 0, c <> 0, M > 0, e >= 0, data
   entry i < k; the "to rounding" of floating point is not part of the claim (exact reals). *)
Definition premises_akyurek__layernorm_division_closed_form
    (k : nat) (N c M e : R) (i : nat) : Prop :=
  (i < k)%N /\ 0 < N /\ c <> 0 /\ 0 < M /\ 0 <= e.

Definition claim_akyurek__layernorm_division_closed_form : Prop :=
  forall (k p : nat) (N c M e : R) (y : nat -> R) (i : nat),
    premises_akyurek__layernorm_division_closed_form k N c M e i ->
    sqrt (2 / INR (k + 2 + p)) * M * N
      * layer_norm (ln_division_input k N c M y) (k + 2 + p) e (S i)
    = (y i / Rabs c) / sqrt (ln_division_den2 k p N c M e y).

Lemma witness_akyurek__layernorm_division_closed_form :
  premises_akyurek__layernorm_division_closed_form 2 2 (-3) (1 / 2) (1 / 100000) 0.
Proof. by split => //; repeat split; lra. Qed.

(* akyurek.layernorm_division_closed_form_squared_is_exact: "(2/L) M^2 N^2 lambda([N c, y/M,
   -N c - S/M, 0])^2 equals (y/c)^2 / (1 + S/(NcM) + (S^2+|y|^2)/(2N^2c^2M^2) + eps L/(2N^2c^2)),
   signs those of y: Lemma 8's closed form squared, exactly."  Covers every data entry i < k;
   the sign part is stated on the centred entry (y_i / M, of which the LayerNorm output is a
   positive multiple) and needs M > 0. *)
Definition premises_akyurek__layernorm_division_closed_form_squared_is_exact
    (k : nat) (N c M e : R) (i : nat) : Prop :=
  (i < k)%N /\ N <> 0 /\ c <> 0 /\ 0 < M /\ 0 <= e.

Definition claim_akyurek__layernorm_division_closed_form_squared_is_exact : Prop :=
  forall (k p : nat) (N c M e : R) (y : nat -> R) (i : nat),
    premises_akyurek__layernorm_division_closed_form_squared_is_exact k N c M e i ->
    2 / INR (k + 2 + p) * M ^ 2 * N ^ 2
      * layer_norm_squared (ln_division_input k N c M y) (k + 2 + p) e (S i)
      = (y i / c) ^ 2 / ln_division_den2 k p N c M e y
    /\ ln_centred (ln_division_input k N c M y) (k + 2 + p) (S i) = y i / M
    /\ (0 < ln_centred (ln_division_input k N c M y) (k + 2 + p) (S i) <-> 0 < y i)
    /\ (ln_centred (ln_division_input k N c M y) (k + 2 + p) (S i) < 0 <-> y i < 0).

Lemma witness_akyurek__layernorm_division_closed_form_squared_is_exact :
  premises_akyurek__layernorm_division_closed_form_squared_is_exact 2 2 (-3) (1 / 2) 1 0.
Proof. by split => //; repeat split; lra. Qed.

(* akyurek.layernorm_division_relative_error_is_minus_s_over_2ncm: "The relative error of
   LayerNorm division (and of Lemma 6's bypass, c = M = 1) is -S/(2NcM) up to the proven
   second-order remainder: first order in 1/(N M)."  Covers: z = sqrt(2/L) M N lambda(...)_(1+i)
   against x = y_i/|c|, |(z - x)/x - (-S/(2NcM))| <= q/2 + (3/8) delta^2 / ((1 - |delta|)^2
   sqrt(1 - |delta|)) whenever |delta| < 1 and y_i <> 0.  The bypass is the case c = M = 1 (its
   input is then the division input entry by entry). *)
Definition premises_akyurek__layernorm_division_relative_error_is_minus_s_over_2ncm
    (k p : nat) (N c M e : R) (y : nat -> R) (i : nat) : Prop :=
  (i < k)%N /\ 0 < N /\ c <> 0 /\ 0 < M /\ 0 <= e /\ y i <> 0
  /\ Rabs (ln_division_delta k p N c M e y) < 1.

Definition claim_akyurek__layernorm_division_relative_error_is_minus_s_over_2ncm : Prop :=
  forall (k p : nat) (N c M e : R) (y : nat -> R) (i : nat),
    premises_akyurek__layernorm_division_relative_error_is_minus_s_over_2ncm k p N c M e y i ->
    let z := sqrt (2 / INR (k + 2 + p)) * M * N
               * layer_norm (ln_division_input k N c M y) (k + 2 + p) e (S i) in
    let x := y i / Rabs c in
    let delta := ln_division_delta k p N c M e y in
    Rabs ((z - x) / x - - (sum_first y k / (2 * N * c * M)))
      <= ln_division_q k p N c M e y / 2
         + 3 / 8 * delta ^ 2 / ((1 - Rabs delta) ^ 2 * sqrt (1 - Rabs delta)).

Lemma witness_akyurek__layernorm_division_relative_error_is_minus_s_over_2ncm :
  premises_akyurek__layernorm_division_relative_error_is_minus_s_over_2ncm
    2 2 10 1 1 (1 / 100000) (fun _ => 1) 0.
Proof.
rewrite /premises_akyurek__layernorm_division_relative_error_is_minus_s_over_2ncm.
rewrite /ln_division_delta /ln_division_q /=.
split => //; split; [lra | split; [lra | split; [lra | split; [lra | split; [lra |]]]]].
rewrite Rabs_pos_eq; first by lra.
by lra.
Qed.

(* akyurek.gelu_bypass_error_is_exponentially_small: "g(Nb + z) - Nb - z lies between the proven
   lower and upper bounds: exp(-t^2/2)-small for the erf GeLU (Mills ratio), t exp(-2u)-small for
   the tanh GeLU (Lemma 5 made explicit)."  Covers every t = Nb + z > 0: for the tanh GeLU
   t exp(-2u)/2 <= |g(t) - t| <= t exp(-2u), u = sqrt(2/pi)(t + 0.044715 t^3); for the erf GeLU
   exp(-t^2/2)/sqrt(2 pi) t^2/(1 + t^2) <= |g(t) - t| <= exp(-t^2/2)/sqrt(2 pi).  (The tanh half
   also holds at t = 0; the claim asks t > 0 for both.) *)
Definition premises_akyurek__gelu_bypass_error_is_exponentially_small (t : R) : Prop := 0 < t.

Definition claim_akyurek__gelu_bypass_error_is_exponentially_small : Prop :=
  forall t : R, premises_akyurek__gelu_bypass_error_is_exponentially_small t ->
    let u := sqrt (2 / PI) * (t + 44715 / 1000000 * t ^ 3) in
    (t * exp (-2 * u) / 2 <= Rabs (gelu_tanh t - t) <= t * exp (-2 * u))
    /\ (exp (- (t * t) / 2) / sqrt (2 * PI) * t * t / (1 + t * t) <= Rabs (gelu_erf t - t)
        <= exp (- (t * t) / 2) / sqrt (2 * PI)).

Lemma witness_akyurek__gelu_bypass_error_is_exponentially_small :
  premises_akyurek__gelu_bypass_error_is_exponentially_small 3.
Proof. by rewrite /premises_akyurek__gelu_bypass_error_is_exponentially_small; lra. Qed.

(* akyurek.gelu_multiplication_within_proven_bound: "s^2 sqrt(pi/2) (g((x+y)/s) - g(x/s) -
   g(y/s)) is x y within the proven fourth-order bound plus rounding, for the erf and the tanh
   GeLU."  Covers, in exact reals (rounding is not part of the claim), for |x| <= X, |y| <= Y,
   10 X <= s, 10 Y <= s: the tanh GeLU within (X^4 + Y^4)/s^2 and the erf GeLU within
   |(x+y)^4 - x^4 - y^4|/(12 s^2) + ((x+y)^6 + x^6 + y^6)/(80 s^4).  (The erf half holds for any
   s > 0; the claim states it under the tanh half's box premises.) *)
Definition premises_akyurek__gelu_multiplication_within_proven_bound (x y s X Y : R) : Prop :=
  0 < s /\ Rabs x <= X /\ Rabs y <= Y /\ 10 * X <= s /\ 10 * Y <= s.

Definition claim_akyurek__gelu_multiplication_within_proven_bound : Prop :=
  forall x y s X Y : R, premises_akyurek__gelu_multiplication_within_proven_bound x y s X Y ->
    Rabs (gelu_product gelu_tanh x y s - x * y) <= (X ^ 4 + Y ^ 4) / (s * s)
    /\ Rabs (gelu_product gelu_erf x y s - x * y)
         <= Rabs ((x + y) ^ 4 - x ^ 4 - y ^ 4) / (12 * s ^ 2)
            + ((x + y) ^ 6 + x ^ 6 + y ^ 6) / (80 * s ^ 4).

Lemma witness_akyurek__gelu_multiplication_within_proven_bound :
  premises_akyurek__gelu_multiplication_within_proven_bound (-1) 2 100 1 2.
Proof.
rewrite /premises_akyurek__gelu_multiplication_within_proven_bound Rabs_Ropp Rabs_R1.
by rewrite Rabs_pos_eq; repeat split; lra.
Qed.

(* akyurek.softmax_hard_attention_deviation_is_exact_and_bounded: "With logit gap Natt the
   causal softmax output is the K(i)-average plus exactly sum e^-Natt (v_j - mean)/(a + b
   e^-Natt), at most 2 b e^-Natt max|v|."  Covers: a >= 1 keys of K(i) (logit Natt, values v)
   and b other keys (logit 0, values w), any Natt, V bounding every value; the keys of K(i)
   are listed first (a sum does not depend on the order of its terms). *)
Definition premises_akyurek__softmax_hard_attention_deviation_is_exact_and_bounded
    (a b : nat) (v w : nat -> R) (V : R) : Prop :=
  (1 <= a)%N /\ (forall i, (i < a)%N -> Rabs (v i) <= V)
  /\ (forall j, (j < b)%N -> Rabs (w j) <= V).

Definition claim_akyurek__softmax_hard_attention_deviation_is_exact_and_bounded : Prop :=
  forall (Natt : R) (a b : nat) (v w : nat -> R) (V : R),
    premises_akyurek__softmax_hard_attention_deviation_is_exact_and_bounded a b v w V ->
    let logit := fun j => if (j < a)%N then Natt else 0 in
    let value := fun j => if (j < a)%N then v j else w (j - a)%N in
    let o := softmax_average logit value (a + b)%N in
    let mean := sum_first v a / INR a in
    o - mean = exp (- Natt) * sum_first (fun j => w j - mean) b / (INR a + INR b * exp (- Natt))
    /\ Rabs (o - mean) <= 2 * INR b * exp (- Natt) * V.

Lemma witness_akyurek__softmax_hard_attention_deviation_is_exact_and_bounded :
  premises_akyurek__softmax_hard_attention_deviation_is_exact_and_bounded
    2 3 (fun i => INR i) (fun _ => -1) 2.
Proof.
split => //; split => [i | j _]; last by rewrite Rabs_Ropp Rabs_R1; lra.
case: i => [|[|i]] //= _; rewrite ?Rabs_R0 ?Rabs_R1; lra.
Qed.
