(* statements/akyurek.v -- the claims of the `akyurek` family (Akyurek et al. 2023, "What
   learning algorithm is in-context learning?"), stated on plain objects for a reader.
   Coq's standard Reals (exp, sqrt, tanh, PI, RiemannInt) for the real-analysis claims, mathcomp
   for the algebraic ones; no project theory.  akyurek_check.v proves each claim_<p> from the
   theorems the property cites.  Conventions: entries are indexed from 0; sum_first f n is
   f 0 + ... + f (n - 1); (i < k)%N is mathcomp's boolean order on nat.
   Stated here: 11 of the family's 14 fully proved properties.  Not stated (no checked statement
   yet, so partially proved): akyurek.raw_layer_realises_exact_raw_within_bound (no Coq theorem
   composes the whole RAW layer: the unit assemblies of AkyurekLayerAssembly.v and the state
   lemmas of AkyurekRawLayerState.v are combined by the C++ raw_layer_bound, so there is no
   theorem to check a whole-layer statement against); akyurek.theorem1_realised_chain_within_
   propagated_bound and akyurek.theorem2_realised_chain_within_propagated_bound (the Coq theorem,
   AkyurekChainLipschitz.v:realised_chain_propagated_bound, is the generic propagation over any
   list of layers with each layer's one-layer bound B_l and the chain's well-formedness as
   HYPOTHESES; the one-layer bounds of the RAW layers are not a theorem (above) and the chains'
   well-formedness is checked by the C++ at run time, not proved). *)
From Coq Require Import Reals Lra.
From mathcomp Require Import all_ssreflect all_algebra.

Unset Printing Implicit Defensive.

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

(* ================================================ the realised div layer (Lemma 8) *)
(* One decoder layer with build_div_layer's weights (src/raw/raw_operator.hpp), run as
   src/raw/decoder_layer.hpp runs it, in exact reals: the computation those weights produce,
   written out (head output, residual, LayerNorm, GeLU units), as AkyurekDivLayerState.v
   models it.  The state h r t (row r, token t < Tn); the div scratch at rows P .. P + k + 1
   + nr (L = P + (k + 2) + nr rows in all); pads jp, jm; read rows cr (c) and yr q (y_q);
   written rows wr q (q < k). *)

(* max(0, f 0, ..., f (n - 1)), the C++ max loops. *)
Fixpoint max_first (f : nat -> R) (n : nat) : R :=
  match n with O => 0 | S m => Rmax (max_first f m) (f m) end.

(* r is one of the rows w 0, ..., w (n - 1). *)
Fixpoint in_rows (w : nat -> nat) (n r : nat) : bool :=
  match n with O => false | S m => in_rows w m r || Nat.eqb (w m) r end.

(* The rows whose content the head cancels: the pads and the written rows. *)
Definition div_cancelled (k jp jm : nat) (wr : nat -> nat) (r : nat) : bool :=
  Nat.eqb r jp || Nat.eqb r jm || in_rows wr k r.

(* The head's value in row r at token t: -h on the cancelled rows, 0 on the other rows below
   P, -h + Lemma 8's input [N c, y/M, -N c - S/M, 0, ...] on the div scratch. *)
Definition div_value (P k : nat) (h : nat -> nat -> R) (jp jm cr : nat) (yr wr : nat -> nat)
    (N M : R) (r t : nat) : R :=
  if (r < P)%N then (if div_cancelled k jp jm wr r then - h r t else 0)
  else - h r t + ln_division_input k N (h cr t) M (fun q => h (yr q) t) (r - P).

(* The LayerNorm input of token t, row r: h plus the head's causal softmax output (logit Natt
   on token t itself, 0 on the t earlier tokens). *)
Definition div_ln_input (P k : nat) (h : nat -> nat -> R) (jp jm cr : nat) (yr wr : nat -> nat)
    (N M Natt : R) (t r : nat) : R :=
  h r t + softmax_average (fun j => if j == t then Natt else 0)
                          (fun j => div_value P k h jp jm cr yr wr N M r j) (t + 1).

(* Unit q reads sqrt(2/L) M N (lambda_(P+1+q) - the mean of lambda over rows P .. P + k + 1),
   lambda the LayerNorm output; it writes x_(w_q) + g(Nb + read) - Nb to row w_q. *)
Definition div_read (P k nr : nat) (h : nat -> nat -> R) (jp jm cr : nat) (yr wr : nat -> nat)
    (N M e Natt : R) (t q : nat) : R :=
  let x := div_ln_input P k h jp jm cr yr wr N M Natt t in
  let L := (P + (k + 2) + nr)%N in
  sqrt (2 / INR L) * M * N
    * (layer_norm x L e (P + S q)
       - sum_first (fun j => layer_norm x L e (P + j)) (k + 2) / INR (k + 2)).
Definition div_out (g : R -> R) (P k nr : nat) (h : nat -> nat -> R) (jp jm cr : nat)
    (yr wr : nat -> nat) (N M e Natt Nb : R) (t q : nat) : R :=
  div_ln_input P k h jp jm cr yr wr N M Natt t (wr q)
  + g (Nb + div_read P k nr h jp jm cr yr wr N M e Natt t q) - Nb.

(* The bound, expression for expression the C++ div_layer_exact_bound (src/raw/layer_bounds.hpp):
   e_att = hard_attention_bound(Natt, Tn - 1, vmax), the maxima over all tokens t < Tn. *)
Definition div_hard (Tn : nat) (Natt V : R) : R := 2 * INR (Tn - 1) * exp (- Natt) * V.
Definition div_wmax (k Tn : nat) (h : nat -> nat -> R) (wr : nat -> nat) : R :=
  max_first (fun q => max_first (fun t => Rabs (h (wr q) t)) Tn) k.
Definition div_e_att (P k nr Tn : nat) (h : nat -> nat -> R) (jp jm cr : nat)
    (yr wr : nat -> nat) (N M Natt : R) : R :=
  let pad_max := max_first (fun t => Rmax (Rabs (h jp t)) (Rabs (h jm t))) Tn in
  let ymax t := max_first (fun q => Rabs (h (yr q) t)) k in
  let assembled_max :=
    max_first (fun t => N * Rabs (h cr t) + Rabs (sum_first (fun q => h (yr q) t) k) / M
                        + ymax t / M) Tn in
  let scratch_max :=
    max_first (fun t => max_first (fun j => Rabs (h (P + j)%N t)) (k + 2 + nr)) Tn in
  div_hard Tn Natt (Rmax (Rmax pad_max assembled_max + scratch_max) (div_wmax k Tn h wr)).
(* delta: the radicand's deviation from 1 with the rest of the state (rest2) in the LayerNorm. *)
Definition div_delta (P k nr Tn : nat) (h : nat -> nat -> R) (jp jm cr : nat)
    (yr wr : nat -> nat) (N M e Natt : R) (t : nat) : R :=
  let ea := div_e_att P k nr Tn h jp jm cr yr wr N M Natt in
  let y q := h (yr q) t in
  let S := sum_first y k in
  let Nc := N * Rabs (h cr t) in
  let rest2 := sum_first (fun r => (if div_cancelled k jp jm wr r then ea else Rabs (h r t)) ^ 2) P
               + INR nr * ea ^ 2 in
  let E := 4 * ea * (Nc + sum_first (fun q => Rabs (y q)) k / M) + INR (k + 2) * ea * ea in
  Rabs S / (Nc * M) + (S * S + sum_first (fun q => y q ^ 2) k) / (2 * Nc * Nc * M * M)
  + (rest2 + e * INR (P + (k + 2) + nr) + E) / (2 * Nc * Nc).
Definition div_rel (P k nr Tn : nat) (h : nat -> nat -> R) (jp jm cr : nat)
    (yr wr : nat -> nat) (N M e Natt : R) (t : nat) : R :=
  let delta := div_delta P k nr Tn h jp jm cr yr wr N M e Natt t in
  delta / (2 * (1 - delta) * sqrt (1 - delta)).
(* zmax: how far the unit's GeLU input can be from Nb; err: the bound, byp the GeLU bypass. *)
Definition div_zmax (P k nr Tn : nat) (h : nat -> nat -> R) (jp jm cr : nat)
    (yr wr : nat -> nat) (N M e Natt : R) (t q : nat) : R :=
  (1 + div_rel P k nr Tn h jp jm cr yr wr N M e Natt t)
  * (Rabs (h (yr q) t) / Rabs (h cr t)
     + 2 * M * div_e_att P k nr Tn h jp jm cr yr wr N M Natt / Rabs (h cr t)).
Definition div_err (P k nr Tn : nat) (h : nat -> nat -> R) (jp jm cr : nat)
    (yr wr : nat -> nat) (N M e Natt byp : R) (t q : nat) : R :=
  let rel := div_rel P k nr Tn h jp jm cr yr wr N M e Natt t in
  rel * (Rabs (h (yr q) t) / Rabs (h cr t))
  + (1 + rel) * 2 * M * div_e_att P k nr Tn h jp jm cr yr wr N M Natt / Rabs (h cr t) + byp
  + div_hard Tn Natt (div_wmax k Tn h wr).

(* akyurek.div_layer_realises_exact_div_within_bound: "One decoder layer with LayerNorm-division
   weights computes y / |c| within the proven bound evaluated from the hidden state it reads
   (Lemma 8, with the rest of the hidden state in the LayerNorm); floating point adds a
   first-order rounding model to that bound."  Covers, in exact reals, every state h, sizes,
   rows, token t < Tn and unit q < k: the written row w_q is within div_err of y_q / |c| for the
   tanh GeLU (when Nb - zmax >= 1) and the erf GeLU (when Nb - zmax > 0), byp the bypass bound
   at Nb - zmax; and every row below P that is neither a pad nor a written row passes unchanged
   (no head or unit writes it).  Not covered: the floating-point rounding model (not proved);
   the layer is the computation the construction's weights produce, written out as above (the
   tie to the C++ weight matrices is a transcription, not part of the claim). *)
Definition premises_akyurek__div_layer_realises_exact_div_within_bound
    (P k nr Tn : nat) (h : nat -> nat -> R) (jp jm cr : nat) (yr wr : nat -> nat)
    (N M e Natt : R) (t q : nat) : Prop :=
  0 < N /\ 0 < M /\ 0 <= e /\ (t < Tn)%N /\ (q < k)%N
  /\ (forall q', (q' < k)%N -> (wr q' < P)%N) /\ h cr t <> 0
  /\ div_delta P k nr Tn h jp jm cr yr wr N M e Natt t < 1.

Definition claim_akyurek__div_layer_realises_exact_div_within_bound : Prop :=
  forall (P k nr Tn : nat) (h : nat -> nat -> R) (jp jm cr : nat) (yr wr : nat -> nat)
         (N M e Natt Nb : R) (t q : nat),
    premises_akyurek__div_layer_realises_exact_div_within_bound
      P k nr Tn h jp jm cr yr wr N M e Natt t q ->
    let s := Nb - div_zmax P k nr Tn h jp jm cr yr wr N M e Natt t q in
    (1 <= s ->
       Rabs (div_out gelu_tanh P k nr h jp jm cr yr wr N M e Natt Nb t q
             - h (yr q) t / Rabs (h cr t))
       <= div_err P k nr Tn h jp jm cr yr wr N M e Natt
            (s * exp (-2 * (sqrt (2 / PI) * (s + 44715 / 1000000 * s ^ 3)))) t q)
    /\ (0 < s ->
       Rabs (div_out gelu_erf P k nr h jp jm cr yr wr N M e Natt Nb t q
             - h (yr q) t / Rabs (h cr t))
       <= div_err P k nr Tn h jp jm cr yr wr N M e Natt
            (exp (- (s * s) / 2) / sqrt (2 * PI)) t q)
    /\ (forall r, (r < P)%N -> div_cancelled k jp jm wr r = false ->
          div_ln_input P k h jp jm cr yr wr N M Natt t r = h r t).

(* Bounds on max_first, for the witness below. *)
Lemma max_first_ge0 (f : nat -> R) (n : nat) : 0 <= max_first f n.
Proof. elim: n => [|n IH] /=; [lra | apply: Rle_trans IH (Rmax_l _ _)]. Qed.

Lemma max_first_le (f : nat -> R) (n : nat) (B : R) :
  0 <= B -> (forall j, (j < n)%N -> f j <= B) -> max_first f n <= B.
Proof.
move=> B0; elim: n => [|n IH] fB //=.
apply: Rmax_lub; last by apply: fB.
by apply: IH => j j_lt; apply: fB; apply: ltnW.
Qed.

(* The witness state: c = 1 in row 0 at every token, every other entry 0. *)
Definition div_witness_state (r t : nat) : R := if r == 0%N then 1 else 0.

(* P = 7, k = 2, one extra scratch row, Tn = 2 tokens; c in row 0, y in rows 1, 2, w in rows 3,
   4, pads 5, 6; N = 10, M = 1, e = 1e-5, Natt = 100; token 1, unit 1. *)
Lemma witness_akyurek__div_layer_realises_exact_div_within_bound :
  premises_akyurek__div_layer_realises_exact_div_within_bound
    7 2 1 2 div_witness_state 5 6 0 (fun q => 1 + q)%N (fun q => 3 + q)%N 10 1 (1 / 100000) 100 1 1.
Proof.
rewrite /premises_akyurek__div_layer_realises_exact_div_within_bound.
do 3 (split; first lra).
do 2 (split; first by []).
split; first by move=> q' q_lt; rewrite ltn_add2l (leq_trans q_lt).
split; first by rewrite /div_witness_state /=; lra.
rewrite /div_delta; cbv zeta.
set ea := div_e_att _ _ _ _ _ _ _ _ _ _ _ _ _.
have vmax_bound (V : R) : 0 <= V -> V <= 10 -> 0 <= div_hard 2 100 V <= 1 / 5.
  move=> V0 V10; rewrite /div_hard /=.
  have e100 : exp (Ropp 100) <= 1 / 101.
    rewrite exp_Ropp; have := exp_ineq1 100 ltac:(lra) => e.
    rewrite /Rdiv Rmult_1_l; apply: Rinv_le_contravar; lra.
  have := exp_pos (Ropp 100) => ep.
  by split; nra.
have ea_bound : 0 <= ea <= 1 / 5.
  rewrite /ea /div_e_att; cbv zeta; apply: vmax_bound.
    by apply: Rle_trans (Rmax_r _ _); apply: max_first_ge0.
  apply: Rmax_lub; last first.
    apply: max_first_le => [|q _]; first lra.
    apply: max_first_le => [|t' _]; first lra.
    by rewrite /div_witness_state /= Rabs_R0; lra.
  have -> : max_first (fun t => max_first (fun j => Rabs (div_witness_state (7 + j) t)) (2 + 2 + 1)) 2 = 0.
    apply: Rle_antisym; last by apply: max_first_ge0.
    apply: max_first_le => [|t' _]; first lra.
    apply: max_first_le => [|j _]; first lra.
    by rewrite /div_witness_state addn_eq0 /= Rabs_R0; lra.
  rewrite Rplus_0_r; apply: Rmax_lub.
    apply: max_first_le => [|t' _]; first lra.
    by rewrite /div_witness_state /= Rabs_R0 Rmax_left; lra.
  apply: max_first_le => [|t' _]; first lra.
  rewrite /div_witness_state /= Rabs_R0 Rabs_R1.
  have := Rmax_lub (Rmax 0 0) 0 0 (Rmax_lub 0 0 0 (Rle_refl 0) (Rle_refl 0)) (Rle_refl 0).
  by rewrite !Rplus_0_l Rabs_R0; lra.
rewrite /div_witness_state /= ?Rabs_R0 ?Rabs_R1.
have -> : (0 + 0 + 0 : R) = 0 by ring.
rewrite Rabs_R0.
by nra.
Qed.

(* ============================================= the RAW/div layers and the exact chains *)
(* Over any real field F (mathcomp realFieldType).  A hidden state h row token; a weight matrix
   W row col; both as functions on nat (an Eigen matrix is their restriction to its sizes).
   Transcribed from src/raw/raw_operator.hpp and src/raw/chains.hpp (Akyurek et al. 2023,
   Appendix C): same rows, tokens and op lists in the same order. *)

Local Open Scope ring_scope.

Definition hstate (F : realFieldType) : Type := nat -> nat -> F.

(* One RAW op writing into `out` what it computes from the layer input h: at token i,
   read_a = (sum_j Wa(a, j) sum_(k in K(i)) h(r_j, k)) / |K(i)|, cur_a = sum_j W(a, j) h(s_j, i),
   and row w_m gets sum_(a < t) Wo(m, a) (read_a + cur_a) (read_a * cur_a if had) + b0(m). *)
Definition raw_op_write {F : realFieldType} (had : bool) (s r w : seq nat)
    (W Wa Wo : nat -> nat -> F) (b0 : nat -> F) (K : nat -> seq nat) (t : nat)
    (h out : hstate F) : hstate F :=
  fun row i =>
    if row \in w then
      let m := index row w in
      let read a := (\sum_(j < size r) Wa a j * \sum_(k <- K i) h (nth 0%N r j) k)
                      / (size (K i))%:R in
      let cur a := \sum_(j < size s) W a j * h (nth 0%N s j) i in
      \sum_(a < t) Wo m a * (if had then read a * cur a else read a + cur a) + b0 m
    else out row i.

(* A RAW layer: its ops, applied in order, all read the layer input h. *)
Definition raw_layer {F : realFieldType} (ops : seq (hstate F -> hstate F -> hstate F))
    (h : hstate F) : hstate F :=
  foldl (fun out o => o h out) h ops.

(* A div layer: rows w_m become h(y_m, i) / |h(c, i)|; the other rows are kept. *)
Definition div_layer {F : realFieldType} (y : seq nat) (c : nat) (w : seq nat) (h : hstate F) :
    hstate F :=
  fun row i => if row \in w then h (nth 0%N y (index row w)) i / `|h c i| else h row i.

(* Running a list of layers, first to last. *)
Definition run_layers {F : realFieldType} (ls : seq (hstate F -> hstate F)) (h : hstate F) :
    hstate F :=
  foldl (fun h l => l h) h ls.

(* Eigen's Identity, Ones, Zero and a scaled matrix; rows from to = [from, to). *)
Definition fid (F : realFieldType) : nat -> nat -> F := fun p q => (p == q)%:R.
Definition fones (F : realFieldType) : nat -> nat -> F := fun _ _ => 1.
Definition fzero (F : realFieldType) : nat -> nat -> F := fun _ _ => 0.
Definition fscale {F : realFieldType} (c : F) (M : nat -> nat -> F) : nat -> nat -> F :=
  fun p q => c * M p q.
Definition rows (from to : nat) : seq nat := iota from (to - from).
(* The timestep maps: attend to oneself; token `target` attends to `source`, the others to
   themselves. *)
Definition attend_self : nat -> seq nat := fun i => [:: i].
Definition attend_from (target source : nat) : nat -> seq nat :=
  fun i => if i == target then [:: source] else [:: i].

(* mov (copy rows from of token source into rows to of token target), aff (W1 h[a] + W2 h[b]
   + bias into rows w), dot (h[a] . h[b] into row w_row), mul (the p x q by q x r matrix
   product of row-major blocks at A0, B0 into C0, one dot per entry). *)
Definition mov_op (F : realFieldType) (from to : seq nat) (target source : nat) :=
  raw_op_write false [::] from to (fzero F) (fid F) (fid F) (fun _ => 0)
               (attend_from target source) (size from).
Definition aff_op {F : realFieldType} (a : seq nat) (W1 : nat -> nat -> F) (b : seq nat)
    (W2 : nat -> nat -> F) (bias : nat -> F) (w : seq nat) :=
  raw_op_write false a b w W1 W2 (fid F) bias attend_self (size w).
Definition dot_op (F : realFieldType) (a b : seq nat) (w_row : nat) :=
  raw_op_write true a b [:: w_row] (fid F) (fid F) (fones F) (fun _ => 0) attend_self (size a).
Definition mul_ops (F : realFieldType) (p q r A0 B0 C0 : nat) :=
  flatten [seq [seq dot_op F [seq (A0 + i * q + k)%N | k <- iota 0 q]
                             [seq (B0 + k * r + j)%N | k <- iota 0 q] (C0 + i * r + j)
               | j <- iota 0 r] | i <- iota 0 p].

(* Entry (r, c) of a matrix by natural indices, 0 outside it. *)
Definition mx_at {F : realFieldType} {m n : nat} (M : 'M[F]_(m, n)) (r c : nat) : F :=
  match insub r, insub c with Some i, Some j => M i j | _, _ => 0 end.

(* The chains' input (chains.hpp chain_input), D rows, 2n + 1 tokens: token 2i holds x_i
   (column i of X) in rows 1..d, token 2i + 1 holds y_i in row 0, all else 0. *)
Definition chain_input {F : realFieldType} (D d n : nat) {N : nat} (X : 'M[F]_(d, N))
    (y : 'M[F]_(1, n)) : hstate F :=
  fun row t =>
    if ((row < D) && (t < 2 * n + 1))%N then
      if odd t then (if row == 0%N then mx_at y 0 t./2 else 0)
      else (if (0 < row <= d)%N then mx_at X row.-1 t./2 else 0)
    else 0.

(* Column j of X and entry j of y (x_(j+1), y_(j+1) of the paper). *)
Definition xcol {F : realFieldType} {d N : nat} (X : 'M[F]_(d, N)) (j : nat) : 'cV[F]_d :=
  \col_(r < d) mx_at X r j.
Definition yat {F : realFieldType} {n : nat} (y : 'M[F]_(1, n)) (j : nat) : F := mx_at y 0 j.

(* Theorem 1: the rows of the SGD chain (chains.hpp sgd_rows). *)
Definition sgd_y : nat := 0.
Definition sgd_x0 : nat := 1.
Definition sgd_p (d : nat) : nat := 1 + d.
Definition sgd_r (d : nat) : nat := 2 + d.
Definition sgd_g0 (d : nat) : nat := 3 + d.
Definition sgd_w0 (d : nat) : nat := 3 + 2 * d.
Definition sgd_h0 (d : nat) : nat := 3 + 3 * d.
Definition sgd_pred (d : nat) : nat := 3 + 4 * d.
Definition sgd_D (d : nat) : nat := 4 + 4 * d.

(* The eight layers of stage k (yt = 2k - 1, xt = 2k - 2): move x and w to token yt (or write
   w_init at k = 1), p = w.x, r = p - y, g = x r, h = g + lambda w, w = w - 2 alpha h, move w
   to token 2k, pred = w.x. *)
Definition sgd_stage {F : realFieldType} {d : nat} (w_init : 'cV[F]_d) (alpha lambda : F)
    (k : nat) : seq (hstate F -> hstate F) :=
  let yt := (2 * k - 1)%N in let xt := (2 * k - 2)%N in
  let wr := rows (sgd_w0 d) (sgd_w0 d + d) in let xr := rows sgd_x0 (sgd_x0 + d) in
  [:: raw_layer [:: mov_op F xr xr yt xt;
                    if k == 1%N then aff_op [::] (fzero F) [::] (fzero F)
                                            (fun m => mx_at w_init m 0) wr
                    else mov_op F wr wr yt xt];
      raw_layer [:: dot_op F wr xr (sgd_p d)];
      raw_layer [:: aff_op [:: sgd_p d] (fones F) [:: sgd_y] (fscale (-1) (fones F))
                           (fun _ => 0) [:: sgd_r d]];
      raw_layer (mul_ops F d 1 1 sgd_x0 (sgd_r d) (sgd_g0 d));
      raw_layer [:: aff_op (rows (sgd_g0 d) (sgd_g0 d + d)) (fid F) wr (fscale lambda (fid F))
                           (fun _ => 0) (rows (sgd_h0 d) (sgd_h0 d + d))];
      raw_layer [:: aff_op wr (fid F) (rows (sgd_h0 d) (sgd_h0 d + d))
                           (fscale (-2 * alpha) (fid F)) (fun _ => 0) wr];
      raw_layer [:: mov_op F wr wr (2 * k)%N yt];
      raw_layer [:: dot_op F wr xr (sgd_pred d)]].

(* The Theorem 1 chain over n examples: stages 1..n. *)
Definition theorem1_chain {F : realFieldType} {d : nat} (w_init : 'cV[F]_d) (alpha lambda : F)
    (n : nat) : seq (hstate F -> hstate F) :=
  flatten [seq sgd_stage w_init alpha lambda k | k <- iota 1 n].

(* One SGD step on the ridge loss (w^T x - y)^2 + lambda |w|^2 (Appendix A, corrected:
   w - 2 alpha (x (w^T x - y) + lambda w)), and the pass over the first k examples. *)
Definition sgd_ridge_step {F : realFieldType} {d : nat} (w x : 'cV[F]_d) (yv alpha lambda : F) :
    'cV[F]_d :=
  w - (2 * alpha) *: (((w^T *m x) 0 0 - yv) *: x + lambda *: w).

Fixpoint sgd_pass {F : realFieldType} {d n N : nat} (X : 'M[F]_(d, N)) (y : 'M[F]_(1, n))
    (w_init : 'cV[F]_d) (alpha lambda : F) (k : nat) : 'cV[F]_d :=
  if k is k'.+1 then
    sgd_ridge_step (sgd_pass X y w_init alpha lambda k') (xcol X k') (yat y k') alpha lambda
  else w_init.

(* Theorem 2: the rows of the Sherman-Morrison chain (chains.hpp sm_rows); A^-1 is d x d
   row-major, entry (r, c) in row sm_ainv0 + r d + c. *)
Definition sm_y : nat := 0.
Definition sm_x0 : nat := 1.
Definition sm_ainv0 (d : nat) : nat := 1 + d.
Definition sm_b0 (d : nat) : nat := 1 + d + d * d.
Definition sm_u0 (d : nat) : nat := sm_b0 d + d.
Definition sm_v0 (d : nat) : nat := sm_u0 d + d.
Definition sm_xy0 (d : nat) : nat := sm_v0 d + d.
Definition sm_m0 (d : nat) : nat := sm_xy0 d + d.
Definition sm_den (d : nat) : nat := sm_m0 d + d * d.
Definition sm_m20 (d : nat) : nat := sm_den d + 1.
Definition sm_q0 (d : nat) : nat := sm_m20 d + d * d.
Definition sm_pred (d : nat) : nat := sm_q0 d + d.
Definition sm_D (d : nat) : nat := sm_pred d + 1.

(* The stage-1 bias of the A^-1 rows: 1/lambda on the diagonal entries (row-major), else 0. *)
Definition sm_a0 {F : realFieldType} (d : nat) (lambda : F) : nat -> F :=
  fun m => if (m %/ d == m %% d)%N then 1 / lambda else 0.

(* The ten layers of stage k (yt = 2k - 1, xt = 2k - 2): move x, A^-1, b to token yt (or
   write A^-1 = I/lambda, b = 0 at k = 1); u = A^-1 x, xy = x y; v = x^T A^-1, b = b + xy;
   M = u v, den = v x; den = 1 + den; M2 = M / |den|; A^-1 = A^-1 - M2; q = A^-1 b; move
   A^-1, b, q to token 2k; pred = q.x. *)
Definition sm_stage {F : realFieldType} (d : nat) (lambda : F) (k : nat) :
    seq (hstate F -> hstate F) :=
  let yt := (2 * k - 1)%N in let xt := (2 * k - 2)%N in let d2 := (d * d)%N in
  let xr := rows sm_x0 (sm_x0 + d) in let ar := rows (sm_ainv0 d) (sm_ainv0 d + d2) in
  let br := rows (sm_b0 d) (sm_b0 d + d) in
  [:: raw_layer (mov_op F xr xr yt xt ::
                 if k == 1%N then [:: aff_op [::] (fzero F) [::] (fzero F) (sm_a0 d lambda) ar;
                                      aff_op [::] (fzero F) [::] (fzero F) (fun _ => 0) br]
                 else [:: mov_op F (rows (sm_ainv0 d) (sm_b0 d + d))
                                   (rows (sm_ainv0 d) (sm_b0 d + d)) yt xt]);
      raw_layer (mul_ops F d d 1 (sm_ainv0 d) sm_x0 (sm_u0 d)
                 ++ mul_ops F d 1 1 sm_x0 sm_y (sm_xy0 d));
      raw_layer (mul_ops F 1 d d sm_x0 (sm_ainv0 d) (sm_v0 d) ++
                 [:: aff_op br (fid F) (rows (sm_xy0 d) (sm_xy0 d + d)) (fid F) (fun _ => 0) br]);
      raw_layer (mul_ops F d 1 d (sm_u0 d) (sm_v0 d) (sm_m0 d)
                 ++ mul_ops F 1 d 1 (sm_v0 d) sm_x0 (sm_den d));
      raw_layer [:: aff_op [:: sm_den d] (fones F) [::] (fzero F) (fun _ => 1) [:: sm_den d]];
      div_layer (rows (sm_m0 d) (sm_m0 d + d2)) (sm_den d) (rows (sm_m20 d) (sm_m20 d + d2));
      raw_layer [:: aff_op ar (fid F) (rows (sm_m20 d) (sm_m20 d + d2)) (fscale (-1) (fid F))
                           (fun _ => 0) ar];
      raw_layer (mul_ops F d d 1 (sm_ainv0 d) (sm_b0 d) (sm_q0 d));
      raw_layer [:: mov_op F (rows (sm_ainv0 d) (sm_b0 d + d)) (rows (sm_ainv0 d) (sm_b0 d + d))
                           (2 * k)%N yt;
                    mov_op F (rows (sm_q0 d) (sm_q0 d + d)) (rows (sm_q0 d) (sm_q0 d + d))
                           (2 * k)%N yt];
      raw_layer [:: dot_op F (rows (sm_q0 d) (sm_q0 d + d)) xr (sm_pred d)]].

(* The Theorem 2 chain over n examples: stages 1..n. *)
Definition theorem2_chain {F : realFieldType} (d : nat) (lambda : F) (n : nat) :
    seq (hstate F -> hstate F) :=
  flatten [seq sm_stage d lambda k | k <- iota 1 n].

(* ==================================================== claims over a real field *)

(* akyurek.theorem1_exact_chain_is_one_sgd_pass: "The Theorem 1 chain of mov/aff/mul in exact
   semantics holds the SGD iterate w_k (corrected ridge step w - 2 alpha (x (w^T x - y) +
   lambda w)) and predicts w_k^T x_(k+1)."  Covers every field F, d, n, X, y, w_init, alpha,
   lambda and 1 <= k <= n: after the first 8k layers of the n-stage chain, token 2k holds w_k
   in its w rows and w_k^T x_(k+1) in its pred row. *)
Definition premises_akyurek__theorem1_exact_chain_is_one_sgd_pass (n k : nat) : Prop :=
  (0 < k <= n)%N.

Definition claim_akyurek__theorem1_exact_chain_is_one_sgd_pass : Prop :=
  forall (F : realFieldType) (d n N : nat) (X : 'M[F]_(d, N)) (y : 'M[F]_(1, n))
         (w_init : 'cV[F]_d) (alpha lambda : F) (k : nat),
    premises_akyurek__theorem1_exact_chain_is_one_sgd_pass n k ->
    let h := run_layers (take (8 * k) (theorem1_chain w_init alpha lambda n))
                        (chain_input (sgd_D d) d n X y) in
    (forall r : 'I_d, h (sgd_w0 d + r)%N (2 * k)%N = sgd_pass X y w_init alpha lambda k r 0)
    /\ h (sgd_pred d) (2 * k)%N = ((sgd_pass X y w_init alpha lambda k)^T *m xcol X k) 0 0.

Lemma witness_akyurek__theorem1_exact_chain_is_one_sgd_pass :
  premises_akyurek__theorem1_exact_chain_is_one_sgd_pass 2 1.
Proof. by []. Qed.

(* akyurek.theorem2_exact_chain_is_ridge: "The Theorem 2 chain (Sherman-Morrison with div) in
   exact semantics holds the ridge solution on the first k examples and predicts with it."
   Covers every field F, lambda > 0, d, n, X, y and 1 <= k <= n: after the first 10k layers of
   the n-stage chain, token 2k holds A^-1 = (lambda I + sum_(j<k) x_j x_j^T)^-1 (row-major),
   b = sum_(j<k) y_j x_j, the ridge solution w = A^-1 b, and w^T x_(k+1) in its pred row. *)
Definition premises_akyurek__theorem2_exact_chain_is_ridge
    {F : realFieldType} (lambda : F) (n k : nat) : Prop :=
  0 < lambda /\ (0 < k <= n)%N.

Definition claim_akyurek__theorem2_exact_chain_is_ridge : Prop :=
  forall (F : realFieldType) (d n N : nat) (X : 'M[F]_(d, N)) (y : 'M[F]_(1, n))
         (lambda : F) (k : nat),
    premises_akyurek__theorem2_exact_chain_is_ridge lambda n k ->
    let h := run_layers (take (10 * k) (theorem2_chain d lambda n))
                        (chain_input (sm_D d) d n X y) in
    let Ainv := invmx (lambda%:M + \sum_(j < k) xcol X j *m (xcol X j)^T) in
    let b := \sum_(j < k) yat y j *: xcol X j in
    let w := Ainv *m b in
    (forall r c : 'I_d, h (sm_ainv0 d + r * d + c)%N (2 * k)%N = Ainv r c)
    /\ (forall r : 'I_d, h (sm_b0 d + r)%N (2 * k)%N = b r 0)
    /\ (forall r : 'I_d, h (sm_q0 d + r)%N (2 * k)%N = w r 0)
    /\ h (sm_pred d) (2 * k)%N = (w^T *m xcol X k) 0 0.

Lemma witness_akyurek__theorem2_exact_chain_is_ridge :
  premises_akyurek__theorem2_exact_chain_is_ridge (1 : rat) 2 1.
Proof. by split. Qed.
