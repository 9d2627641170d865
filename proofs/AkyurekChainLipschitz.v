(* AkyurekChainLipschitz.v -- the per-layer Lipschitz bounds layer_lipschitz of iclproof
   (src/raw/layer_bounds.hpp) for the exact RAW and div layers, and the realised-chain bound
   E_(l+1) = B_l + Lip_l(E_l) of run_chain_with_bounds that composes them, over Coq's R.

   Main results:
   - raw_layer_lipschitz: for a RAW layer (a list of ops, applied to the same input as in
     raw_exact; any ops, independent or not) whose reads (rows r and s) are data rows < D and
     whose timestep maps K(i) are non-empty lists of tokens < T: if h' is within E >= 0 of h on
     the data rows and tokens [0, T), then on every data row and token the exact layer outputs
     differ by at most raw_lip T ops h E, the C++'s RAW branch of layer_lipschitz:
     max(E, over ops, tokens i < T, written rows m of sum_n |Wo_mn| term_n), with
       term_n = (|Wa_n.| + |W_n.|) E                                    (op +),
       term_n = |read_n(h, i)| |W_n.| E + |(W h_i[s])_n| |Wa_n.| E + |Wa_n.| E |W_n.| E  (op .),
     |M_n.| the absolute row sum, read and W h_i[s] at h (the realised input).
   - div_layer_lipschitz: for a div layer (y rows, c row data rows, |y| = |w|), if E < |h_c(i)|
     at every token i < T (the C++ throws otherwise), the same conclusion with div_lip T dv h E
     = max(E, over i < T and q, (E + z E) / (|c| - E)), z = |h_yq(i)| / |c|, |c| = |h_c(i)|:
     the C++'s div branch.
   - layer_lipschitz_bound: the two as one statement over a layer (layer_lip = layer_lipschitz).
   - chain_error_propagation_upto: chain_error_propagation (AkyurekLayerBounds.v, same
     exact_chain, realised_chain and chain_bound) with its hypotheses needed only for the
     layers l < n of the chain and only at e = chain_bound l.  The all-e form cannot be met by
     a div layer: y / |c| has no finite Lipschitz bound once e >= |c|.
   - realised_chain_propagated_bound: for a chain of well-formed RAW/div layers (a list,
     as the C++ std::vector), any realised layers g_l and any start state, if every realised
     layer is within B_l of its exact layer at its realised input (the one-layer bounds
     raw_layer_bound / div_layer_bound, taken as HYPOTHESES here) and every div layer has
     E_l < |c| at its realised input, then the realised chain's data rows are within
     E_L = propagated_bound of the exact chain's, E_0 = 0, E_(l+1) = B_l + layer_lip(E_l) at
     the realised input: the value run_chain_with_bounds returns as propagated_bound.
   The Theorem 1 and Theorem 2 chains (AkyurekChains.v, src/raw/chains.hpp) are such chains:
   every op reads data rows and K(i) is a non-empty list of earlier tokens, which the C++
   checks on every run (layer_lipschitz calls check_op_shapes, check_div and
   check_reads_data_rows and throws otherwise).

   What is modelled: src/raw/raw_operator.hpp's raw_exact, div_exact, layer_exact, over Coq's
   R, transcribed as AkyurekChains.v does it over a realFieldType (same fields, same formula,
   a write list with a repeated row first-wins where the C++ loop is last-wins: the bound is a
   maximum over every written entry, so the same proof covers both; the chains write distinct
   rows), and the max-norm distance over the data rows
   [0, D) and tokens [0, T) that run_chain_with_bounds measures with max_abs on topRows(D).
   The maxima are taken in another order than the C++ loops take them (max is associative and
   commutative; op_lip starts from 0 where the C++ starts from E >= 0: the same value).  The
   tie to the C++ is a transcription checked by reading.  The C++ evaluates these formulas in
   its working precision; this theorem is about their exact values.

   Dependencies: Coq Reals, AkyurekLayerBounds.v (rsum, rsum_le, rsum_abs, exact_chain,
   realised_chain, chain_bound), AkyurekRawOps.v (hstate, fmx, raw_op, div_op, layer: the same
   data AkyurekChains.v reads).  Assumptions: the standard set of allowed_axioms.txt. *)
From Coq Require Import Reals Lra Lia List ssreflect.
From Coquelicot Require Import Rcomplements.
From ICLProof Require Import AkyurekLayerBounds.
From ICLProof Require Export AkyurekRawOps.
Open Scope R_scope.

(* ------------------------------------------------------------------ exact semantics *)

(* The hidden state, weights, ops and layers of AkyurekRawOps.v, over Coq's R. *)
Notation hstate := (hstate R).
Notation fmx := (fmx R).
Notation raw_op := (raw_op R).
Notation layer := (layer R).

(* the sum over a list of tokens *)
Definition lsum (f : nat -> R) (l : list nat) : R := fold_right (fun k acc => f k + acc) 0 l.

(* exact_read: Wa (sum_(k in K(i)) h_k[r]) / |K(i)|;  W h_i[s]. *)
Definition raw_read (o : raw_op) (h : hstate) i a :=
  rsum (fun j => op_Wa o a j * lsum (fun k => h (nth j (op_r o) 0%nat) k) (op_K o i))
       (length (op_r o)) / INR (length (op_K o i)).
Definition raw_cur (o : raw_op) (h : hstate) i a :=
  rsum (fun j => op_W o a j * h (nth j (op_s o) 0%nat) i) (length (op_s o)).
Definition raw_eval (o : raw_op) (h : hstate) m i :=
  rsum (fun a => op_Wo o m a *
    (if op_had o then raw_read o h i a * raw_cur o h i a else raw_read o h i a + raw_cur o h i a))
    (op_t o) + op_b0 o m.

(* write_at w m0 v row dflt: v (m0 + index of row in w) if row is in w, else dflt. *)
Fixpoint write_at (w : list nat) (m0 : nat) (v : nat -> R) (row : nat) (dflt : R) : R :=
  match w with
  | nil => dflt
  | x :: w' => if Nat.eqb row x then v m0 else write_at w' (S m0) v row dflt
  end.

(* Every op reads the layer input h and writes into the output. *)
Definition raw_write (h : hstate) (out : hstate) (o : raw_op) : hstate :=
  fun row i => write_at (op_w o) 0 (fun m => raw_eval o h m i) row (out row i).
Definition raw_exact (h : hstate) (ops : list raw_op) : hstate := fold_left (raw_write h) ops h.

Definition div_exact (h : hstate) (dv : div_op) : hstate :=
  fun row i => write_at (div_w dv) 0
    (fun q => h (nth q (div_y dv) 0%nat) i / Rabs (h (div_c dv) i)) row (h row i).

Definition layer_exact (h : hstate) (l : layer) : hstate :=
  match l with LRaw ops => raw_exact h ops | LDiv dv => div_exact h dv end.

(* --------------------------------------------------------- the C++ layer_lipschitz *)

(* max(acc, f 0, ..., f (n - 1)) *)
Fixpoint rmax_upto (acc : R) (f : nat -> R) (n : nat) : R :=
  match n with O => acc | S k => Rmax (rmax_upto acc f k) (f k) end.

(* row_abs_sum(M, a) over n columns *)
Definition row_abs (M : fmx) (a n : nat) : R := rsum (fun q => Rabs (M a q)) n.

Definition raw_term (o : raw_op) (h : hstate) i (E : R) n : R :=
  let wa := row_abs (op_Wa o) n (length (op_r o)) in
  let ws := row_abs (op_W o) n (length (op_s o)) in
  if op_had o
  then Rabs (raw_read o h i n) * (ws * E) + Rabs (raw_cur o h i n) * (wa * E) + (wa * E) * (ws * E)
  else (wa + ws) * E.
Definition raw_op_lip (o : raw_op) (h : hstate) i m (E : R) : R :=
  rsum (fun n => Rabs (op_Wo o m n) * raw_term o h i E n) (op_t o).
Definition op_lip (T : nat) (o : raw_op) (h : hstate) (E : R) : R :=
  rmax_upto 0 (fun i => rmax_upto 0 (fun m => raw_op_lip o h i m E) (length (op_w o))) T.
Definition raw_lip (T : nat) (ops : list raw_op) (h : hstate) (E : R) : R :=
  fold_left (fun acc o => Rmax acc (op_lip T o h E)) ops E.

Definition div_lip (T : nat) (dv : div_op) (h : hstate) (E : R) : R :=
  Rmax E (rmax_upto 0 (fun i =>
    let c := Rabs (h (div_c dv) i) in
    rmax_upto 0 (fun q => (E + Rabs (h (nth q (div_y dv) 0%nat) i) / c * E) / (c - E))
      (length (div_y dv))) T).

Definition layer_lip (T : nat) (l : layer) (h : hstate) (E : R) : R :=
  match l with LRaw ops => raw_lip T ops h E | LDiv dv => div_lip T dv h E end.

(* --------------------------------------------------- hypotheses the C++ checks at run time *)

Definition op_wf (D T : nat) (o : raw_op) : Prop :=
  (forall j, (j < length (op_r o))%nat -> (nth j (op_r o) 0 < D)%nat) /\
  (forall j, (j < length (op_s o))%nat -> (nth j (op_s o) 0 < D)%nat) /\
  (forall i, (i < T)%nat -> op_K o i <> nil /\ forall k, In k (op_K o i) -> (k < T)%nat).

Definition div_wf (D : nat) (dv : div_op) : Prop :=
  (div_c dv < D)%nat /\ length (div_y dv) = length (div_w dv) /\
  (forall q, (q < length (div_y dv))%nat -> (nth q (div_y dv) 0 < D)%nat).

Definition layer_wf (D T : nat) (l : layer) : Prop :=
  match l with LRaw ops => forall o, In o ops -> op_wf D T o | LDiv dv => div_wf D dv end.

(* div's margin: E < |c| at every token (the C++ throws "div propagation: |c| <= E"). *)
Definition layer_margin (T : nat) (l : layer) (h : hstate) (E : R) : Prop :=
  match l with
  | LRaw _ => True
  | LDiv dv => forall i, (i < T)%nat -> E < Rabs (h (div_c dv) i)
  end.

(* h and h' within E on the data rows [0, D) and tokens [0, T) *)
Definition close_on (D T : nat) (h h' : hstate) (E : R) : Prop :=
  forall r i, (r < D)%nat -> (i < T)%nat -> Rabs (h r i - h' r i) <= E.

(* ----------------------------------------------------------------------- sums, maxima *)

Lemma rsum_minus (f g : nat -> R) n : rsum f n - rsum g n = rsum (fun j => f j - g j) n.
Proof. by elim: n => [|n IH] /=; lra. Qed.

Lemma rsum_ge0 (f : nat -> R) n : (forall j, (j < n)%nat -> 0 <= f j) -> 0 <= rsum f n.
Proof.
move=> f0; have := rsum_le (fun _ => 0) f n f0.
suff -> : rsum (fun _ => 0) n = 0 by [].
by elim: n {f0} => [|n IH] //=; rewrite IH; lra.
Qed.

Lemma rsum_scal_r (f : nat -> R) c n : rsum f n * c = rsum (fun j => f j * c) n.
Proof. by elim: n => [|n IH] /=; [ring | rewrite -IH; ring]. Qed.

Lemma lsum_minus (f g : nat -> R) l : lsum f l - lsum g l = lsum (fun k => f k - g k) l.
Proof. by elim: l => [|k l IH] /=; lra. Qed.

Lemma lsum_abs_le (f : nat -> R) l E :
  (forall k, In k l -> Rabs (f k) <= E) -> Rabs (lsum f l) <= INR (length l) * E.
Proof.
elim: l => [|k l IH] fE; first by rewrite /= Rabs_R0; lra.
have IH' := IH (fun x xl => fE x (or_intror xl)).
have := fE k (or_introl eq_refl).
change (lsum f (k :: l)) with (f k + lsum f l); change (length (k :: l)) with (S (length l)).
rewrite S_INR; have := Rabs_triang (f k) (lsum f l); lra.
Qed.

Lemma rmax_upto_acc acc f n : acc <= rmax_upto acc f n.
Proof. by elim: n => [|n IH] /=; [lra | have := Rmax_l (rmax_upto acc f n) (f n); lra]. Qed.

Lemma rmax_upto_ge acc f n k : (k < n)%nat -> f k <= rmax_upto acc f n.
Proof.
elim: n => [|n IH] kn; first by lia.
rewrite /=; case: (Nat.eq_dec k n) => [-> | kn']; first by apply: Rmax_r.
have := IH ltac:(lia); have := Rmax_l (rmax_upto acc f n) (f n); lra.
Qed.

Lemma rmax_upto_le acc f n e :
  acc <= e -> (forall k, (k < n)%nat -> f k <= e) -> rmax_upto acc f n <= e.
Proof.
move=> acc_e; elim: n => [|n IH] fe /=; first by [].
apply: Rmax_lub; first by apply: IH => k kn; apply: fe; lia.
by apply: fe; lia.
Qed.

(* ------------------------------------------------------------------------- writes *)

Lemma write_at_pair w m0 v v' row d d' (P : R -> R -> Prop) :
  P d d' -> (forall m, (m0 <= m < m0 + length w)%nat -> P (v m) (v' m)) ->
  P (write_at w m0 v row d) (write_at w m0 v' row d').
Proof.
elim: w m0 => [|x w IH] m0 Pd Pv /=; first by [].
case: (Nat.eqb row x); first by apply: Pv => /=; lia.
by apply: IH => // m mm; apply: Pv => /=; lia.
Qed.

(* ------------------------------------------------------------------- one RAW op *)

Section OneOp.
Variables (D T : nat) (o : raw_op) (h h' : hstate) (E : R).
Hypotheses (wf : op_wf D T o) (E_ge0 : 0 <= E) (close : close_on D T h h' E).

Lemma raw_read_lip i a : (i < T)%nat ->
  Rabs (raw_read o h i a - raw_read o h' i a) <= row_abs (op_Wa o) a (length (op_r o)) * E.
Proof.
move=> iT; case: wf => r_wf [_ K_wf].
have [K_ne K_lt] := K_wf i iT.
have K_pos : 0 < INR (length (op_K o i)).
  by apply: lt_0_INR; case: (op_K o i) K_ne => [//|k l _] /=; lia.
rewrite /raw_read /Rdiv -Rmult_minus_distr_r rsum_minus Rabs_mult Rabs_inv.
rewrite (Rabs_pos_eq (INR _)); last by lra.
apply/Rle_div_l; first by lra.
apply: Rle_trans; first by apply: rsum_abs.
rewrite /row_abs rsum_scal_r rsum_scal_r; apply: rsum_le => j jr.
rewrite -Rmult_minus_distr_l lsum_minus Rabs_mult.
have : Rabs (lsum (fun k => h (nth j (op_r o) 0%nat) k - h' (nth j (op_r o) 0%nat) k)
          (op_K o i)) <= INR (length (op_K o i)) * E.
  apply: lsum_abs_le => k kK; apply: close; first by apply: r_wf.
  by apply: K_lt.
have := Rabs_pos (op_Wa o a j) => wa_ge0 sE.
have -> : Rabs (op_Wa o a j) * E * INR (length (op_K o i)) =
          Rabs (op_Wa o a j) * (INR (length (op_K o i)) * E) by ring.
by apply: Rmult_le_compat_l.
Qed.

Lemma raw_cur_lip i a : (i < T)%nat ->
  Rabs (raw_cur o h i a - raw_cur o h' i a) <= row_abs (op_W o) a (length (op_s o)) * E.
Proof.
move=> iT; case: wf => _ [s_wf _].
rewrite /raw_cur rsum_minus; apply: Rle_trans; first by apply: rsum_abs.
rewrite /row_abs rsum_scal_r; apply: rsum_le => j js.
rewrite -Rmult_minus_distr_l Rabs_mult; apply: Rmult_le_compat_l; first by apply: Rabs_pos.
by apply: close => //; apply: s_wf.
Qed.

(* |A B - A' B'| <= |A| dB + |B| dA + dA dB for |A - A'| <= dA, |B - B'| <= dB *)
Lemma product_perturbation A A' B B' dA dB :
  Rabs (A - A') <= dA -> Rabs (B - B') <= dB ->
  Rabs (A * B - A' * B') <= Rabs A * dB + Rabs B * dA + dA * dB.
Proof.
move=> hA hB.
have -> : A * B - A' * B' = A * (B - B') + B * (A - A') - (A - A') * (B - B') by ring.
have hAB := Rabs_triang (A * (B - B') + B * (A - A')) (- ((A - A') * (B - B'))).
have h1 := Rabs_triang (A * (B - B')) (B * (A - A')).
rewrite Rabs_Ropp !Rabs_mult in hAB h1.
have := Rabs_pos A; have := Rabs_pos B; have := Rabs_pos (A - A'); have := Rabs_pos (B - B').
move=> p1 p2 p3 p4.
have : Rabs A * Rabs (B - B') <= Rabs A * dB by apply: Rmult_le_compat_l.
have : Rabs B * Rabs (A - A') <= Rabs B * dA by apply: Rmult_le_compat_l.
have : Rabs (A - A') * Rabs (B - B') <= dA * dB by apply: Rmult_le_compat.
by rewrite /Rminus in hAB h1 *; lra.
Qed.

Lemma raw_eval_lip i m : (i < T)%nat ->
  Rabs (raw_eval o h m i - raw_eval o h' m i) <= raw_op_lip o h i m E.
Proof.
move=> iT; rewrite /raw_eval.
have -> : forall a b c, a + c - (b + c) = a - b by move=> *; ring.
rewrite rsum_minus; apply: Rle_trans; first by apply: rsum_abs.
apply: rsum_le => n _; rewrite -Rmult_minus_distr_l Rabs_mult.
apply: Rmult_le_compat_l; first by apply: Rabs_pos.
have hR := raw_read_lip i n iT; have hC := raw_cur_lip i n iT.
rewrite /raw_term; case: (op_had o).
- by apply: product_perturbation.
- have -> : forall a b c d, a + c - (b + d) = (a - b) + (c - d) by move=> *; ring.
  apply: Rle_trans; first by apply: Rabs_triang.
  by rewrite Rmult_plus_distr_r; lra.
Qed.

End OneOp.

(* ------------------------------------------------------------------ RAW, div, layers *)

Lemma op_lip_ge (T : nat) o h E i m :
  (i < T)%nat -> (m < length (op_w o))%nat -> raw_op_lip o h i m E <= op_lip T o h E.
Proof.
move=> iT mw; rewrite /op_lip.
apply: Rle_trans; last by apply: (rmax_upto_ge 0 _ T i).
by apply: (rmax_upto_ge 0 (fun m => raw_op_lip o h i m E)).
Qed.

Lemma raw_apply_lip (D T : nat) (h h' : hstate) (E : R) r i ops :
  (forall o, In o ops -> op_wf D T o) -> 0 <= E -> close_on D T h h' E ->
  (r < D)%nat -> (i < T)%nat ->
  forall out out' acc, Rabs (out r i - out' r i) <= acc ->
  Rabs (fold_left (raw_write h) ops out r i - fold_left (raw_write h') ops out' r i)
    <= fold_left (fun acc o => Rmax acc (op_lip T o h E)) ops acc.
Proof.
move=> wf E_ge0 close rD iT; elim: ops wf => [|o ops IH] wf out out' acc hacc /=; first by [].
apply: IH; first by move=> o' o'in; apply: wf; right.
rewrite /raw_write.
apply: (write_at_pair (op_w o) 0 _ _ r _ _ (fun a b => Rabs (a - b) <= Rmax acc (op_lip T o h E))).
- by apply: Rle_trans; [apply: hacc | apply: Rmax_l].
- move=> m [_ mw]; apply: Rle_trans; last by apply: Rmax_r.
  apply: Rle_trans; first by apply: (raw_eval_lip D T o h h' E (wf o (or_introl eq_refl))).
  by apply: op_lip_ge => //; lia.
Qed.

Theorem raw_layer_lipschitz (D T : nat) (ops : list raw_op) (h h' : hstate) (E : R) :
  (forall o, In o ops -> op_wf D T o) -> 0 <= E -> close_on D T h h' E ->
  close_on D T (raw_exact h ops) (raw_exact h' ops) (raw_lip T ops h E).
Proof.
move=> wf E_ge0 close r i rD iT; rewrite /raw_exact /raw_lip.
by apply: (raw_apply_lip D T) => //; apply: close.
Qed.

(* |y / |c| - y' / |c'|| <= (E + |y|/|c| E) / (|c| - E) for |y - y'|, |c - c'| <= E < |c| *)
Lemma div_perturbation y y' c c' E :
  0 <= E -> Rabs (y - y') <= E -> Rabs (c - c') <= E -> E < Rabs c ->
  Rabs (y / Rabs c - y' / Rabs c') <= (E + Rabs y / Rabs c * E) / (Rabs c - E).
Proof.
move=> E_ge0 hy hc cE.
set a := Rabs c in cE *; set a' := Rabs c'.
have aa : Rabs (a - a') <= E.
  by apply: Rle_trans; [apply: Rabs_triang_inv2 | apply: hc].
have a'_ge : a - E <= a' by have := Rle_abs (a - a'); lra.
have a_gt0 : 0 < a by lra.
have a'_gt0 : 0 < a' by lra.
have -> : y / a - y' / a' = (y - y') / a' + y / a * ((a' - a) / a') by field; lra.
have z_ge0 : 0 <= Rabs y / a by apply: Rdiv_le_0_compat; [apply: Rabs_pos | lra].
apply: Rle_trans; first by apply: Rabs_triang.
rewrite Rabs_mult !Rabs_div; try lra.
rewrite (Rabs_pos_eq a'); last by lra.
rewrite (Rabs_pos_eq a); last by lra.
have -> : Rabs (a' - a) = Rabs (a - a') by rewrite -Rabs_Ropp; congr Rabs; ring.
have num : Rabs (y - y') + Rabs y / a * Rabs (a - a') <= E + Rabs y / a * E.
  by have := Rmult_le_compat_l _ _ _ z_ge0 aa; lra.
have -> : Rabs (y - y') / a' + Rabs y / a * (Rabs (a - a') / a') =
          (Rabs (y - y') + Rabs y / a * Rabs (a - a')) / a' by field; lra.
apply: Rle_trans; first by apply: (Rmult_le_compat_r (/ a')); [left; apply: Rinv_0_lt_compat | apply: num].
apply: Rmult_le_compat_l; first by have := Rmult_le_pos _ _ z_ge0 E_ge0; lra.
by apply: Rinv_le_contravar; lra.
Qed.

Theorem div_layer_lipschitz (D T : nat) (dv : div_op) (h h' : hstate) (E : R) :
  div_wf D dv -> 0 <= E -> close_on D T h h' E ->
  (forall i, (i < T)%nat -> E < Rabs (h (div_c dv) i)) ->
  close_on D T (div_exact h dv) (div_exact h' dv) (div_lip T dv h E).
Proof.
move=> [c_lt [yw y_lt]] E_ge0 close margin r i rD iT; rewrite /div_exact /div_lip.
apply: (write_at_pair (div_w dv) 0 _ _ r _ _
          (fun a b => Rabs (a - b) <= Rmax E (rmax_upto 0 (fun i =>
             let c := Rabs (h (div_c dv) i) in
             rmax_upto 0 (fun q => (E + Rabs (h (nth q (div_y dv) 0%nat) i) / c * E) / (c - E))
               (length (div_y dv))) T))).
- by apply: Rle_trans; [apply: close | apply: Rmax_l].
- move=> m [_ mw]; apply: Rle_trans; last by apply: Rmax_r.
  apply: Rle_trans; last by apply: (rmax_upto_ge 0 _ T i).
  apply: Rle_trans; last by apply: (rmax_upto_ge 0 _ (length (div_y dv)) m); lia.
  apply: div_perturbation => //; [apply: close => //; apply: y_lt; lia | apply: close | apply: margin] => //.
Qed.

Theorem layer_lipschitz_bound (D T : nat) (l : layer) (h h' : hstate) (E : R) :
  layer_wf D T l -> layer_margin T l h E -> 0 <= E -> close_on D T h h' E ->
  close_on D T (layer_exact h l) (layer_exact h' l) (layer_lip T l h E).
Proof.
case: l => [ops | dv] /= wf margin E_ge0 close.
- by apply: raw_layer_lipschitz.
- by apply: div_layer_lipschitz.
Qed.

Lemma raw_lip_ge (T : nat) ops h E acc :
  acc <= fold_left (fun acc o => Rmax acc (op_lip T o h E)) ops acc.
Proof.
elim: ops acc => [|o ops IH] acc /=; first by lra.
by apply: Rle_trans; [apply: Rmax_l | apply: IH].
Qed.

Lemma layer_lip_ge (T : nat) l h E : E <= layer_lip T l h E.
Proof. by case: l => [ops | dv] /=; [apply: raw_lip_ge | apply: Rmax_l]. Qed.

(* ------------------------------------------------------------------ the chain *)

(* the max-norm distance over data rows [0, D) and tokens [0, T) (max_abs of topRows(D)) *)
Definition maxdist (D T : nat) (h h' : hstate) : R :=
  rmax_upto 0 (fun r => rmax_upto 0 (fun i => Rabs (h r i - h' r i)) T) D.

Lemma maxdist_ge0 D T h h' : 0 <= maxdist D T h h'.
Proof. by apply: rmax_upto_acc. Qed.

Lemma maxdist_close D T h h' : close_on D T h h' (maxdist D T h h').
Proof.
move=> r i rD iT; rewrite /maxdist.
apply: Rle_trans; last by apply: (rmax_upto_ge 0 _ D r).
by apply: (rmax_upto_ge 0 (fun i => Rabs (h r i - h' r i))).
Qed.

Lemma maxdist_le D T h h' e : 0 <= e -> close_on D T h h' e -> maxdist D T h h' <= e.
Proof.
move=> e_ge0 close; apply: rmax_upto_le => // r rD.
by apply: rmax_upto_le => // i iT; apply: close.
Qed.

Lemma maxdist_triangle D T : forall x y z, maxdist D T x z <= maxdist D T x y + maxdist D T y z.
Proof.
move=> x y z; apply: maxdist_le.
  by have := maxdist_ge0 D T x y; have := maxdist_ge0 D T y z; lra.
move=> r i rD iT.
have := maxdist_close D T x y r i rD iT; have := maxdist_close D T y z r i rD iT.
have := Rabs_triang (x r i - y r i) (y r i - z r i).
have -> : x r i - y r i + (y r i - z r i) = x r i - z r i by ring.
by lra.
Qed.

Lemma maxdist_refl D T x : maxdist D T x x = 0.
Proof.
apply: Rle_antisym; last by apply: maxdist_ge0.
apply: maxdist_le; first by lra.
by move=> r i _ _; rewrite Rminus_diag_eq // Rabs_R0; lra.
Qed.

Section Propagation.
Variable X : Type.
Variable d : X -> X -> R.
Hypothesis d_triangle : forall x y z, d x z <= d x y + d y z.
Variables (f g : nat -> X -> X) (x0 : X) (B : nat -> R) (Lip : nat -> R -> R) (n : nat).

Theorem chain_error_propagation_upto :
  (forall x, d x x = 0) ->
  (forall l, (l < n)%nat -> d (g l (realised_chain X g x0 l)) (f l (realised_chain X g x0 l)) <= B l) ->
  (forall l y, (l < n)%nat -> d (realised_chain X g x0 l) y <= chain_bound B Lip l ->
     d (f l (realised_chain X g x0 l)) (f l y) <= Lip l (chain_bound B Lip l)) ->
  forall l, (l <= n)%nat ->
    d (realised_chain X g x0 l) (exact_chain X f x0 l) <= chain_bound B Lip l.
Proof.
move=> d_refl one_layer lip; elim=> [|l IH] ln /=; first by rewrite d_refl; lra.
have := d_triangle (g l (realised_chain X g x0 l)) (f l (realised_chain X g x0 l))
                   (f l (exact_chain X f x0 l)).
have := one_layer l ltac:(lia); have := lip l (exact_chain X f x0 l) ltac:(lia) (IH ltac:(lia)).
by lra.
Qed.

End Propagation.

(* The chain of the C++ std::vector<layer_spec> Ls: layer l is nth l Ls; the exact layers, and
   run_chain_with_bounds's E: B l the one-layer bound at the realised input, Lip the
   layer_lipschitz of layer l at the realised input. *)
Definition chain_layer (Ls : list layer) (l : nat) : layer := nth l Ls (LRaw nil).
Definition exact_layers (Ls : list layer) : nat -> hstate -> hstate :=
  fun l h => layer_exact h (chain_layer Ls l).
Definition realised_lip (T : nat) (Ls : list layer) (g : nat -> hstate -> hstate) (x0 : hstate)
    : nat -> R -> R :=
  fun l e => layer_lip T (chain_layer Ls l) (realised_chain hstate g x0 l) e.
Definition propagated_bound (T : nat) (Ls : list layer) (g : nat -> hstate -> hstate)
    (x0 : hstate) (B : nat -> R) (l : nat) : R :=
  chain_bound B (realised_lip T Ls g x0) l.

Lemma propagated_bound_ge0 T Ls g x0 B l :
  (forall k, (k < l)%nat -> 0 <= B k) -> 0 <= propagated_bound T Ls g x0 B l.
Proof.
elim: l => [|l IH] B_ge0 /=; first by lra.
have := IH (fun k kl => B_ge0 k ltac:(lia)).
have := B_ge0 l ltac:(lia).
have := layer_lip_ge T (chain_layer Ls l) (realised_chain hstate g x0 l)
          (chain_bound B (realised_lip T Ls g x0) l).
by rewrite /propagated_bound /realised_lip; lra.
Qed.

Theorem realised_chain_propagated_bound (D T : nat) (Ls : list layer)
    (g : nat -> hstate -> hstate) (x0 : hstate) (B : nat -> R) :
  let xr := realised_chain hstate g x0 in
  let E := propagated_bound T Ls g x0 B in
  (0 < D)%nat -> (0 < T)%nat ->
  (forall l, In l Ls -> layer_wf D T l) ->
  (forall l, (l < length Ls)%nat ->
     close_on D T (g l (xr l)) (layer_exact (xr l) (chain_layer Ls l)) (B l)) ->
  (forall l, (l < length Ls)%nat -> layer_margin T (chain_layer Ls l) (xr l) (E l)) ->
  close_on D T (xr (length Ls)) (exact_chain hstate (exact_layers Ls) x0 (length Ls))
    (E (length Ls)).
Proof.
move=> xr E D_gt0 T_gt0 wf one_layer margin.
have B_ge0 : forall l, (l < length Ls)%nat -> 0 <= B l.
  move=> l lL; have := one_layer l lL 0%nat 0%nat D_gt0 T_gt0.
  by have := Rabs_pos (g l (xr l) 0%nat 0%nat - layer_exact (xr l) (chain_layer Ls l) 0%nat 0%nat); lra.
have wf_l : forall l, (l < length Ls)%nat -> layer_wf D T (chain_layer Ls l).
  by move=> l lL; apply: wf; apply: nth_In.
have one : forall l, (l < length Ls)%nat ->
    maxdist D T (g l (xr l)) (exact_layers Ls l (xr l)) <= B l.
  move=> l lL; apply: maxdist_le; first by apply: B_ge0.
  by apply: one_layer.
have lip : forall l y, (l < length Ls)%nat ->
    maxdist D T (xr l) y <= chain_bound B (realised_lip T Ls g x0) l ->
    maxdist D T (exact_layers Ls l (xr l)) (exact_layers Ls l y)
      <= realised_lip T Ls g x0 l (chain_bound B (realised_lip T Ls g x0) l).
  move=> l y lL dy.
  have E_ge0 : 0 <= chain_bound B (realised_lip T Ls g x0) l.
    by apply: (propagated_bound_ge0 T Ls g x0 B l) => k kl; apply: B_ge0; lia.
  apply: maxdist_le.
    by apply: Rle_trans (layer_lip_ge _ _ _ _).
  apply: layer_lipschitz_bound => //; first by apply: wf_l.
  + by apply: margin.
  + by move=> r i rD iT; apply: Rle_trans dy; apply: maxdist_close.
have dist := chain_error_propagation_upto hstate (maxdist D T) (maxdist_triangle D T)
  (exact_layers Ls) g x0 B (realised_lip T Ls g x0) (length Ls) (maxdist_refl D T)
  one lip (length Ls) (le_n _).
move=> r i rD iT; apply: Rle_trans dist; exact: maxdist_close.
Qed.
