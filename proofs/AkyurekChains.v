(* AkyurekChains.v -- the exact semantics of the RAW/div layers of Akyurek et al. 2023 and the
   Theorem 1 (SGD pass) and Theorem 2 (Sherman-Morrison pass = ridge) chains in it.

   Main results
   - theorem1_chain_sgd_pass : for any d, n, w_0, alpha, lambda and 1 <= k <= n, after the first
       8 k layers of theorem1_chain d n w_0 alpha lambda on chain_input X y, token 2k holds in its
       w rows the SGD iterate w_k of sgd_pass (w_j = w_(j-1) - 2 alpha (x_j (w_(j-1)^T x_j - y_j)
       + lambda w_(j-1)), the corrected ridge step) and in its pred row w_k^T x_(k+1).
   - theorem1_chain_inv : the same as an invariant over the stages, plus: the data rows (x rows at
       even tokens, the y row everywhere) are never overwritten.
   - theorem2_chain_ridge : for lambda > 0, any d, n and 1 <= k <= n, after the first 10 k layers
       of theorem2_chain d n lambda on chain_input X y, token 2k holds in its A^-1 rows (row-major,
       row sm_ainv0 + r d + c) (lambda I + sum_(j<k) x_j x_j^T)^-1, in its b rows
       sum_(j<k) y_j x_j, in its q rows the ridge solution on the first k examples
       w_k = (lambda I + sum_(j<k) x_j x_j^T)^-1 sum_(j<k) y_j x_j, and in its pred row
       w_k^T x_(k+1).  The chain's A^-1 is the iterated Sherman-Morrison inverse (sm_A, composed
       with ShermanMorrison.sm_iter_gram); its div divides by |1 + x^T A^-1 x|, shown positive
       (sm_iter_denom_gt0), so the absolute value is harmless.
   - theorem2_chain_inv, sm_stage_spec, sgd_stage_spec : the per-stage and invariant forms.
   (x_j = column j of X, y_j = entry j of y, 0-based as in the C++.)

   What is modelled.  src/raw/raw_operator.hpp's exact semantics (raw_exact, div_exact,
   layer_exact, run_exact) and the op builders mov_op, aff_op, dot_op, mul_ops, and
   src/raw/chains.hpp's sgd_rows / sm_rows layouts, sgd_ridge_step, sgd_pass, theorem1_chain,
   theorem2_chain and chain_input, transcribed line by line: same row indices, same token
   indices, same op lists in the same order, same RAW formula
   (Wa/|K(i)| sum_(k in K(i)) h_k[r] (+ or .) W h_i[s], then Wo, then b0), same div (y / |c|).
   The hidden state is a function row -> token -> value (an Eigen matrix is its restriction to
   [0, D) x [0, T)); an Eigen matrix weight is a function (row, col) -> value with its sizes
   carried by the index lists.
   What is not modelled: the C++ shape and causality checks (check_op_shapes, check_independent,
   check_div; they throw, here the chains are simply shown to compute the right values); the
   token count T in attend_self / attend_from (here K is defined at every token); and a write
   list w with a repeated row is first-wins here, last-wins in the C++ loop (every op of the
   chains writes distinct rows, so the two agree on them).  The tie between this model and
   the C++ is a transcription checked by reading, not a proof about the C++ code.
   The sums over d in the model are \sum_(q < d) in the order of the Eigen loops; the theorem is
   an equality in any realFieldType (the C++ instantiates it in floating point, where it holds
   up to rounding only).

   Dependencies: mathcomp ssreflect/algebra, mczify (lia on nat), algebra-tactics (ring),
   ShermanMorrison (sm_update, sm_iter, sm_iter_gram, ridge_gram), AkyurekRawOps (hstate, fmx,
   raw_op, div_op, layer: the data of a layer, shared with AkyurekChainLipschitz.v).  No axioms. *)

From mathcomp Require Import all_ssreflect all_algebra zify ring.
From ICLProof Require Import ShermanMorrison.
From ICLProof Require Export AkyurekRawOps.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import Order.TTheory GRing.Theory Num.Theory.
Local Open Scope ring_scope.

Section RawSemantics.
Variable R : realFieldType.

(* The hidden state h(row, token), an Eigen weight matrix M(row, col), the ops and layers:
   AkyurekRawOps.v, here over R. *)
Local Notation hstate := (hstate R).
Local Notation fmx := (fmx R).
Local Notation raw_op := (raw_op R).
Local Notation layer := (layer R).

(* raw_exact: read = Wa (sum_(k in K(i)) h_k[r]) / |K(i)|, cur = W h_i[s],
   res = Wo (read + cur or read .* cur) + b0, written to rows w of token i. *)
Definition raw_read (o : raw_op) (h : hstate) i a :=
  (\sum_(j < size (op_r o)) op_Wa o a j * \sum_(k <- op_K o i) h (nth 0%N (op_r o) j) k)
    / (size (op_K o i))%:R.
Definition raw_cur (o : raw_op) (h : hstate) i a :=
  \sum_(j < size (op_s o)) op_W o a j * h (nth 0%N (op_s o) j) i.
Definition raw_eval (o : raw_op) (h : hstate) m i :=
  \sum_(a < op_t o) op_Wo o m a *
    (if op_had o then raw_read o h i a * raw_cur o h i a else raw_read o h i a + raw_cur o h i a)
  + op_b0 o m.

(* Every op reads the layer input h and writes into the output. *)
Definition raw_write (h : hstate) (out : hstate) (o : raw_op) : hstate :=
  fun row i => if row \in op_w o then raw_eval o h (index row (op_w o)) i else out row i.
Definition raw_apply h (out : hstate) ops := foldl (raw_write h) out ops.
Definition raw_exact h ops := raw_apply h h ops.

Definition div_exact (h : hstate) (dv : div_op) : hstate :=
  fun row i => if row \in div_w dv
    then h (nth 0%N (div_y dv) (index row (div_w dv))) i / `|h (div_c dv) i|
    else h row i.

Definition layer_exact (h : hstate) (l : layer) :=
  match l with LRaw ops => raw_exact h ops | LDiv dv => div_exact h dv end.
Definition run_exact (ls : seq layer) (h : hstate) := foldl layer_exact h ls.

(* Eigen's Identity, Ones, Zero as functions; rows(from, to) = [from, to). *)
Definition fid : fmx := fun p q => (p == q)%:R.
Definition fones : fmx := fun _ _ => 1.
Definition fzero : fmx := fun _ _ => 0.
Definition fscale (c : R) (M : fmx) : fmx := fun p q => c * M p q.
Definition rows (from to : nat) := iota from (to - from).
Definition attend_self : nat -> seq nat := fun i => [:: i].
Definition attend_from (target source : nat) : nat -> seq nat :=
  fun i => if i == target then [:: source] else [:: i].

Definition mov_op (from to : seq nat) (target source : nat) :=
  RawOp false [::] from to fzero fid fid (fun _ => 0) (attend_from target source) (size from).
Definition aff_op (a : seq nat) (W1 : fmx) (b : seq nat) (W2 : fmx) (bias : nat -> R)
    (w : seq nat) :=
  RawOp false a b w W1 W2 fid bias attend_self (size w).
Definition dot_op (a b : seq nat) (w_row : nat) :=
  RawOp true a b [:: w_row] fid fid fones (fun _ => 0) attend_self (size a).
Definition mul_ops (p q r A0 B0 C0 : nat) : seq raw_op :=
  flatten [seq [seq dot_op [seq (A0 + i * q + k)%N | k <- iota 0 q]
                           [seq (B0 + k * r + j)%N | k <- iota 0 q] (C0 + i * r + j)
               | j <- iota 0 r] | i <- iota 0 p].

(* ------------------------------------------------------------------ evaluation lemmas *)

Lemma sum_fid_l n (a : nat) (lt_an : (a < n)%N) (F : 'I_n -> R) :
  \sum_(j < n) fid a j * F j = F (Ordinal lt_an).
Proof.
rewrite (bigD1 (Ordinal lt_an)) //= /fid eqxx mul1r big1 ?addr0 // => j.
by rewrite -val_eqE /= eq_sym => /negPf ->; rewrite mul0r.
Qed.

Lemma rowsE a n : rows a (a + n) = iota a n.
Proof. by rewrite /rows addKn. Qed.

Lemma mem_rows a n row : (row \in iota a n) = (a <= row < a + n)%N.
Proof. exact: mem_iota. Qed.

Lemma index_iota_add a n j : (j < n)%N -> index (a + j)%N (iota a n) = j.
Proof.
move=> lt_jn; have := @index_uniq _ 0%N j (iota a n); rewrite size_iota nth_iota //.
by apply; rewrite ?iota_uniq.
Qed.

Lemma raw_read_self o h i a :
  op_K o = attend_self -> raw_read o h i a = \sum_(j < size (op_r o)) op_Wa o a j * h (nth 0%N
    (op_r o) j) i.
Proof.
move=> Ko; rewrite /raw_read Ko /attend_self /= divr1.
by apply: eq_bigr => j _; rewrite big_seq1.
Qed.

Lemma mov_eval from to tg src h m i :
  (m < size from)%N -> raw_eval (mov_op from to tg src) h m i = h (nth 0%N from m) (if i == tg then
    src else i).
Proof.
move=> lt_m; rewrite /raw_eval /= addr0 (sum_fid_l lt_m) /=.
rewrite /raw_cur /= big_ord0 addr0 /raw_read /= (sum_fid_l lt_m) /= /attend_from.
by case: (i == tg); rewrite /= big_seq1 divr1.
Qed.

Lemma aff_eval a W1 b W2 bias w h m i :
  (m < size w)%N ->
  raw_eval (aff_op a W1 b W2 bias w) h m i =
    \sum_(j < size b) W2 m j * h (nth 0%N b j) i + \sum_(j < size a) W1 m j * h (nth 0%N a j) i
    + bias m.
Proof. by move=> lt_m; rewrite /raw_eval /= (sum_fid_l lt_m) /= raw_read_self. Qed.

Lemma dot_eval a b wr h m i :
  size b = size a ->
  raw_eval (dot_op a b wr) h m i = \sum_(j < size a) h (nth 0%N b j) i * h (nth 0%N a j) i.
Proof.
move=> sz; rewrite /raw_eval /= addr0; apply: eq_bigr => j _.
have ltj := ltn_ord j; have ltj' : (j < size b)%N by rewrite sz.
by rewrite mul1r raw_read_self // /raw_cur /= (sum_fid_l ltj) (sum_fid_l ltj').
Qed.

(* Layers given as a concrete op list: the last op writing a row wins, others keep it. *)
Lemma raw_apply_cat h out ops1 ops2 :
  raw_apply h out (ops1 ++ ops2) = raw_apply h (raw_apply h out ops1) ops2.
Proof. exact: foldl_cat. Qed.

Lemma raw_apply_keep h out ops row i :
  (forall o, List.In o ops -> row \notin op_w o) -> raw_apply h out ops row i = out row i.
Proof.
elim: ops out => [|o ops IH] out //= notin.
rewrite IH => [|o' o'_in]; last by apply: notin; right.
by rewrite /raw_write (negPf (notin o _)) //; left.
Qed.

Lemma has_In (T : Type) (a : pred T) (s : seq T) :
  reflect (exists2 x, List.In x s & a x) (has a s).
Proof.
elim: s => [|x s IH] /=; first by right => -[].
case ax: (a x); first by left; exists x => //; left.
apply: (iffP IH) => [[y y_in ay] | [y [<- | y_in] ay]]; first by exists y => //; right.
  by rewrite ax in ay.
by exists y.
Qed.

(* If some op of the layer writes `row` and every op writing it gives v, the layer gives v. *)
Lemma raw_apply_val h out ops row i v :
  (exists2 o, List.In o ops & row \in op_w o) ->
  (forall o, List.In o ops -> row \in op_w o -> raw_eval o h (index row (op_w o)) i = v) ->
  raw_apply h out ops row i = v.
Proof.
elim: ops out => [|o1 ops IH] out [o //= o_in row_in] vals /=.
have vals' : forall o, List.In o ops -> row \in op_w o -> raw_eval o h (index row (op_w o)) i = v.
  by move=> o' o'_in; apply: vals; right.
case: (has_In (fun o' => row \in op_w o') ops) => [wit | none]; first exact: IH.
rewrite raw_apply_keep => [|o' o'_in]; last by apply/negP => row_in'; apply: none; exists o'.
case: o_in => [o1o | o_in]; first by rewrite /raw_write o1o row_in vals //; left.
by case: none; exists o.
Qed.

Lemma In_iota x a n : List.In x (iota a n) <-> (a <= x < a + n)%N.
Proof.
elim: n a => [|n IH] a /=; first by split => //; lia.
rewrite IH; split => [[<- | ] | ]; [lia | lia | ].
by case: (eqVneq a x) => [-> | ax] lt; [left | right; lia].
Qed.

Lemma In_flatten_map (A B : Type) (f : A -> seq B) s y :
  List.In y (flatten (map f s)) <-> exists2 x, List.In x s & List.In y (f x).
Proof.
elim: s => [|x s IH] /=; first by split => // -[].
rewrite List.in_app_iff IH; split => [[y_in | [x' x'_in y_in]] | [x' [<- | x'_in] y_in]].
- by exists x => //; left.
- by exists x' => //; right.
- by left.
- by right; exists x'.
Qed.

Lemma mul_ops_mem p q r A0 B0 C0 o :
  List.In o (mul_ops p q r A0 B0 C0) <->
  exists i, exists2 j, ((i < p) && (j < r))%N &
    o = dot_op [seq (A0 + i * q + k)%N | k <- iota 0 q]
               [seq (B0 + k * r + j)%N | k <- iota 0 q] (C0 + i * r + j).
Proof.
rewrite /mul_ops In_flatten_map; split.
  move=> [i /In_iota lt_i /List.in_map_iff [j [<- /In_iota lt_j]]].
  by exists i, j => //; lia.
move=> [i [j /andP [lt_i lt_j] ->]]; exists i; first by apply/In_iota; lia.
by apply/List.in_map_iff; exists j; split => //; apply/In_iota; lia.
Qed.

Lemma mul_ops_keep p q r A0 B0 C0 o row :
  List.In o (mul_ops p q r A0 B0 C0) -> ((row < C0) || (C0 + p * r <= row))%N ->
  row \notin op_w o.
Proof.
move=> /mul_ops_mem [i [j /andP [lt_ip lt_jr] ->]] out; rewrite /= inE.
apply/negP => /eqP row_eq; move: out; rewrite row_eq.
have : (i * r + j < p * r)%N.
  by apply: (leq_trans (n := i * r + r)); rewrite ?ltn_add2l // -mulSnr leq_mul2r lt_ip orbT.
lia.
Qed.

Lemma mul_ops_eval h out p q r A0 B0 C0 i j t :
  (i < p)%N -> (j < r)%N ->
  raw_apply h out (mul_ops p q r A0 B0 C0) (C0 + i * r + j)%N t =
    \sum_(k < q) h (A0 + i * q + k)%N t * h (B0 + k * r + j)%N t.
Proof.
move=> lt_ip lt_jr; apply: raw_apply_val.
  by exists (dot_op [seq (A0 + i * q + k)%N | k <- iota 0 q]
                    [seq (B0 + k * r + j)%N | k <- iota 0 q] (C0 + i * r + j));
     rewrite ?inE //; apply/mul_ops_mem; exists i, j => //; rewrite lt_ip.
move=> o' /mul_ops_mem [i' [j' /andP [lt_i'p lt_j'r] ->]]; rewrite inE => /eqP eq_row.
have eq_ij : (i' * r + j' = i * r + j)%N by lia.
have ej : j' = j by move: (congr1 (modn^~ r) eq_ij); rewrite /= !modnMDl !modn_small.
have rpos : (0 < r)%N by lia.
have ei : i' = i by move: (congr1 (divn^~ r) eq_ij); rewrite /= !divnMDl // !divn_small ?addn0.
rewrite ei ej dot_eval ?size_map // size_iota; apply: eq_bigr => k _.
by rewrite mulrC !(nth_map 0%N) ?size_iota // nth_iota.
Qed.

Lemma mul_ops_apply_keep h out p q r A0 B0 C0 row t :
  ((row < C0) || (C0 + p * r <= row))%N ->
  raw_apply h out (mul_ops p q r A0 B0 C0) row t = out row t.
Proof. by move=> out'; apply: raw_apply_keep => o o_in; apply: mul_ops_keep o_in out'. Qed.

End RawSemantics.

Arguments fid {R}.
Arguments fones {R}.
Arguments fzero {R}.
Arguments mov_op {R}.
Arguments dot_op {R}.
Arguments mul_ops {R}.
Arguments LRaw {R}.
Arguments LDiv {R}.

Section ChainCommon.
Variable R : realFieldType.
Local Notation hstate := (hstate R).

Lemma layer1E h (o : raw_op R) row i :
  raw_exact h [:: o] row i =
    if row \in op_w o then raw_eval o h (index row (op_w o)) i else h row i.
Proof. by []. Qed.

Lemma layer2E h (o1 o2 : raw_op R) row i :
  raw_exact h [:: o1; o2] row i =
    if row \in op_w o2 then raw_eval o2 h (index row (op_w o2)) i
    else if row \in op_w o1 then raw_eval o1 h (index row (op_w o1)) i else h row i.
Proof. by []. Qed.

Lemma in_iota_add a n j : (j < n)%N -> ((a + j)%N \in iota a n) = true.
Proof. by move=> lt; rewrite mem_iota; lia. Qed.

Lemma notin_iota a n row : ((row < a) || (a + n <= row))%N -> (row \in iota a n) = false.
Proof. by move=> out; rewrite mem_iota; lia. Qed.

Lemma sum_fscale_fid n c m (lt_m : (m < n)%N) (F : 'I_n -> R) :
  \sum_(j < n) fscale c fid m j * F j = c * F (Ordinal lt_m).
Proof.
rewrite -(sum_fid_l lt_m (fun j => c * F j)); apply: eq_bigr => j _.
by rewrite /fscale -mulrA [in RHS]mulrCA.
Qed.

(* One affine layer of the Theorem 1 chain, rows w.. <- c rows b.. + rows a.. (its steps h5, h6). *)
Lemma aff_fid_fscale_entry (h : hstate) (c : R) a b w n (r : 'I_n) t :
  raw_exact h [:: aff_op (rows a (a + n)) fid (rows b (b + n)) (fscale c fid) (fun _ => 0)
                    (rows w (w + n))] (w + r)%N t
  = c * h (b + r)%N t + h (a + r)%N t.
Proof.
rewrite layer1E !rowsE (in_iota_add _ (ltn_ord r)) aff_eval; last by rewrite /=
  (index_iota_add _ (ltn_ord r)) size_iota.
rewrite /= !size_iota index_iota_add // (sum_fscale_fid _ (ltn_ord r)) (sum_fid_l (ltn_ord r)) /=.
by rewrite !nth_iota // addr0.
Qed.

(* An entry of a matrix by natural indices, 0 outside: how chain_input reads X and y. *)
Definition mx_at m n (M : 'M[R]_(m, n)) (r c : nat) : R :=
  match insub r, insub c with Some i, Some j => M i j | _, _ => 0 end.

Lemma mx_atE m n (M : 'M[R]_(m, n)) (i : 'I_m) (j : 'I_n) : mx_at M i j = M i j.
Proof. by rewrite /mx_at !valK. Qed.

Lemma mx_at_cV m (M : 'cV[R]_m) (i : 'I_m) : mx_at M i 0%N = M i 0.
Proof. exact: (mx_atE M i 0). Qed.

(* chains.hpp chain_input: D x (2n + 1) zeros, h(1 + r, 2i) = X(r, i) (i <= n),
   h(0, 2i + 1) = y(0, i) (i < n). *)
Definition chain_input (D d n N : nat) (X : 'M[R]_(d, N)) (y : 'M[R]_(1, n)) : hstate :=
  fun row t =>
    if ((row < D) && (t < 2 * n + 1))%N then
      if odd t then (if row == 0%N then mx_at y 0 t./2 else 0)
      else (if (0 < row <= d)%N then mx_at X row.-1 t./2 else 0)
    else 0.
Arguments chain_input D d n {N} X y.

(* Column j of X and entry j of y by natural index (x_(j+1), y_(j+1) in the paper). *)
Definition xcol d N (X : 'M[R]_(d, N)) j : 'cV[R]_d := \col_(r < d) mx_at X r j.
Definition yat n (y : 'M[R]_(1, n)) j := mx_at y 0 j.

Lemma chain_input_x D d n N (X : 'M[R]_(d, N)) y (r : 'I_d) j :
  (d < D)%N -> (j <= n)%N -> chain_input D d n X y (1 + r)%N (2 * j)%N = xcol X j r 0.
Proof.
move=> dD jn; have rd := ltn_ord r; rewrite /chain_input mxE ifT; last by lia.
by rewrite oddM /= ifT ?mul2n ?doubleK //; lia.
Qed.

Lemma chain_input_y D d n N (X : 'M[R]_(d, N)) y j :
  (0 < D)%N -> (j < n)%N -> chain_input D d n X y 0%N (2 * j + 1)%N = yat y j.
Proof.
move=> D0 jn; rewrite /chain_input ifT; last by lia.
by rewrite oddD oddM /= mul2n addn1 /= uphalf_double.
Qed.

Lemma run_exact_cat (ls1 ls2 : seq (layer R)) h :
  run_exact (ls1 ++ ls2) h = run_exact ls2 (run_exact ls1 h).
Proof. exact: foldl_cat. Qed.

End ChainCommon.

Arguments chain_input {R} D d n {N} X y.

(* ------------------------------------------------------------ Theorem 1 (SGD pass) *)
Section Theorem1.
Variable R : realFieldType.
Variable d : nat.

(* chains.hpp sgd_rows. *)
Definition sgd_y := 0%N.
Definition sgd_x0 := 1%N.
Definition sgd_p := (1 + d)%N.
Definition sgd_r := (2 + d)%N.
Definition sgd_g0 := (3 + d)%N.
Definition sgd_w0 := (3 + 2 * d)%N.
Definition sgd_h0 := (3 + 3 * d)%N.
Definition sgd_pred := (3 + 4 * d)%N.
Definition sgd_D := (4 + 4 * d)%N.

(* chains.hpp theorem1_chain, the eight layers of stage k (yt = 2k - 1, xt = 2k - 2). *)
Definition sgd_stage (w_init : 'cV[R]_d) (alpha lambda : R) (k : nat) : seq (layer R) :=
  let yt := (2 * k - 1)%N in let xt := (2 * k - 2)%N in
  let wr := rows sgd_w0 (sgd_w0 + d) in let xr := rows sgd_x0 (sgd_x0 + d) in
  [:: LRaw [:: mov_op xr xr yt xt;
               if k == 1%N then aff_op [::] fzero [::] fzero (fun m => mx_at w_init m 0) wr
               else mov_op wr wr yt xt];
      LRaw [:: dot_op wr xr sgd_p];
      LRaw [:: aff_op [:: sgd_p] fones [:: sgd_y] (fscale (-1) fones) (fun _ => 0) [:: sgd_r]];
      LRaw (mul_ops d 1 1 sgd_x0 sgd_r sgd_g0);
      LRaw [:: aff_op (rows sgd_g0 (sgd_g0 + d)) fid wr (fscale lambda fid) (fun _ => 0)
                      (rows sgd_h0 (sgd_h0 + d))];
      LRaw [:: aff_op wr fid (rows sgd_h0 (sgd_h0 + d)) (fscale (-2 * alpha) fid) (fun _ => 0) wr];
      LRaw [:: mov_op wr wr (2 * k)%N yt];
      LRaw [:: dot_op wr xr sgd_pred]].

Definition theorem1_chain (w_init : 'cV[R]_d) (alpha lambda : R) (n : nat) : seq (layer R) :=
  flatten [seq sgd_stage w_init alpha lambda k | k <- iota 1 n].

(* chains.hpp sgd_ridge_step (corrected Appendix A) and sgd_pass. *)
Definition sgd_ridge_step (w x : 'cV[R]_d) (yv alpha lambda : R) : 'cV[R]_d :=
  w - (2 * alpha) *: (((w^T *m x) 0 0 - yv) *: x + lambda *: w).

Fixpoint sgd_pass n N (X : 'M[R]_(d, N)) (y : 'M[R]_(1, n)) (w_init : 'cV[R]_d) (alpha lambda : R)
    k : 'cV[R]_d :=
  if k is k'.+1 then
    sgd_ridge_step (sgd_pass X y w_init alpha lambda k') (xcol X k') (yat y k') alpha lambda
  else w_init.

Lemma size_sgd_stages w_init alpha lambda s :
  size (flatten [seq sgd_stage w_init alpha lambda k | k <- s]) = (8 * size s)%N.
Proof. by elim: s => [|k s IH] //=; rewrite IH mulnS. Qed.

Lemma take_theorem1_chain w_init alpha lambda n k :
  (k <= n)%N ->
  take (8 * k) (theorem1_chain w_init alpha lambda n) = theorem1_chain w_init alpha lambda k.
Proof.
move=> kn; rewrite /theorem1_chain -(subnKC kn) iotaD map_cat flatten_cat take_size_cat //.
by rewrite size_sgd_stages size_iota.
Qed.

Ltac sgd_lia := unfold sgd_y, sgd_x0, sgd_p, sgd_r, sgd_g0, sgd_w0, sgd_h0, sgd_pred, sgd_D in *;
  lia.
Ltac nt := rewrite /rows ?mem_iota ?inE; sgd_lia.

Lemma sgd_stage_spec w_init alpha lambda n N (X : 'M[R]_(d, N)) (y : 'M[R]_(1, n)) h j
    (w : 'cV[R]_d) :
  (j < n)%N ->
  (forall r t, (r < d)%N -> h (1 + r)%N (2 * t)%N = chain_input sgd_D d n X y (1 + r)%N (2 * t)%N)
    ->
  (forall t, h 0%N t = chain_input sgd_D d n X y 0%N t) ->
  (if j is 0 then w = w_init else forall r : 'I_d, h (sgd_w0 + r)%N (2 * j)%N = w r 0) ->
  let h' := run_exact (sgd_stage w_init alpha lambda j.+1) h in
  [/\ forall r t, (r < d)%N ->
        h' (1 + r)%N (2 * t)%N = chain_input sgd_D d n X y (1 + r)%N (2 * t)%N,
      forall t, h' 0%N t = chain_input sgd_D d n X y 0%N t,
      forall r : 'I_d,
        h' (sgd_w0 + r)%N (2 * j.+1)%N = sgd_ridge_step w (xcol X j) (yat y j) alpha lambda r 0 &
      h' sgd_pred (2 * j.+1)%N
        = ((sgd_ridge_step w (xcol X j) (yat y j) alpha lambda)^T *m xcol X j.+1) 0 0].
Proof.
move=> jn hx hy hw; rewrite /sgd_stage.
have -> : (2 * j.+1 - 1 = 2 * j + 1)%N by lia.
have -> : (2 * j.+1 - 2 = 2 * j)%N by lia.
rewrite /run_exact /=.
set o2 := (if j.+1 == 1%N then _ else _).
have o2v (r : 'I_d) :
    raw_eval o2 h (index (sgd_w0 + r)%N (rows sgd_w0 (sgd_w0 + d))) (2 * j + 1)%N = w r 0.
  rewrite /o2 rowsE index_iota_add //; clear o2.
  case: j jn hx hy hw => [|j] jn hx hy hw /=.
    by rewrite aff_eval ?size_iota // !big_ord0 !add0r mx_at_cV hw.
  by rewrite mov_eval ?size_iota // eqxx nth_iota // -hw.
set h1 := raw_exact h _; set h2 := raw_exact h1 _; set h3 := raw_exact h2 _.
set h4 := raw_exact h3 _; set h5 := raw_exact h4 _; set h6 := raw_exact h5 _.
set h7 := raw_exact h6 _; set h8 := raw_exact h7 _.
have wo2 : op_w o2 = rows sgd_w0 (sgd_w0 + d) by rewrite /o2; case: ifP.
have xin (r : 'I_d) : xcol X j r 0 = h (sgd_x0 + r)%N (2 * j)%N.
  by rewrite (hx r j (ltn_ord r)) chain_input_x //; sgd_lia.
have xin' (r : 'I_d) : xcol X j.+1 r 0 = h (sgd_x0 + r)%N (2 * j.+1)%N.
  by rewrite (hx r j.+1 (ltn_ord r)) chain_input_x //; sgd_lia.
have h1x r t : (r < d)%N ->
    h1 (sgd_x0 + r)%N t = h (sgd_x0 + r)%N (if t == (2 * j + 1)%N then (2 * j)%N else t).
  move=> rd; rewrite /h1 layer2E wo2 ifF; last by nt.
  by rewrite rowsE (in_iota_add _ rd) mov_eval ?index_iota_add ?size_iota // nth_iota.
have h1y t : h1 sgd_y t = h sgd_y t.
  by rewrite /h1 layer2E wo2 !ifF //; nt.
have h1w (r : 'I_d) : h1 (sgd_w0 + r)%N (2 * j + 1)%N = w r 0.
  by rewrite /h1 layer2E wo2 -o2v rowsE (in_iota_add _ (ltn_ord r)).
have h2k row t : row != sgd_p -> h2 row t = h1 row t.
  by move=> ne; rewrite /h2 layer1E inE (negPf ne).
have h2p : h2 sgd_p (2 * j + 1)%N = \sum_(q < d) xcol X j q 0 * w q 0.
  rewrite /h2 layer1E inE eqxx dot_eval; last by rewrite !rowsE !size_iota.
  rewrite !rowsE size_iota.
  apply: eq_bigr => q _; rewrite !nth_iota // h1x // h1w eqxx xin //.
have h3k row t : row != sgd_r -> h3 row t = h2 row t.
  by move=> ne; rewrite /h3 layer1E inE (negPf ne).
have h3r : h3 sgd_r (2 * j + 1)%N = \sum_(q < d) xcol X j q 0 * w q 0 - yat y j.
  rewrite /h3 layer1E inE eqxx aff_eval; last by rewrite /= eqxx.
  rewrite !big_ord1 /= /fscale /fones h2p h2k; last by sgd_lia.
  rewrite h1y hy /sgd_y chain_input_y; try by sgd_lia.
  by rewrite addr0 mulr1 mulN1r addrC mul1r.
have h4k row t : ((row < sgd_g0) || (sgd_g0 + d * 1 <= row))%N -> h4 row t = h3 row t.
  by move=> out; rewrite /h4 /raw_exact raw_apply_keep // => o o_in; apply: mul_ops_keep o_in _.
have h4g (r : 'I_d) : h4 (sgd_g0 + r)%N (2 * j + 1)%N = xcol X j r 0 * h3 sgd_r (2 * j + 1)%N.
  have -> : (sgd_g0 + r = sgd_g0 + r * 1 + 0)%N by lia.
  have rd := ltn_ord r.
  rewrite /h4 /raw_exact mul_ops_eval // big_ord1 muln1 mul0n !addn0 h3k; last by sgd_lia.
  by rewrite h2k; [rewrite h1x // eqxx -xin | sgd_lia].
have h5k row t : ((row < sgd_h0) || (sgd_h0 + d <= row))%N -> h5 row t = h4 row t.
  by move=> out; rewrite /h5 layer1E notin_iota //; sgd_lia.
have h5h (r : 'I_d) : h5 (sgd_h0 + r)%N (2 * j + 1)%N
    = lambda * h4 (sgd_w0 + r)%N (2 * j + 1)%N + h4 (sgd_g0 + r)%N (2 * j + 1)%N.
  exact: aff_fid_fscale_entry.
have h6k row t : ((row < sgd_w0) || (sgd_w0 + d <= row))%N -> h6 row t = h5 row t.
  by move=> out; rewrite /h6 layer1E notin_iota //; sgd_lia.
have h6w (r : 'I_d) : h6 (sgd_w0 + r)%N (2 * j + 1)%N
    = - 2 * alpha * h5 (sgd_h0 + r)%N (2 * j + 1)%N + h5 (sgd_w0 + r)%N (2 * j + 1)%N.
  exact: aff_fid_fscale_entry.
have h7k row t : ((row < sgd_w0) || (sgd_w0 + d <= row))%N -> h7 row t = h6 row t.
  by move=> out; rewrite /h7 layer1E notin_iota //; sgd_lia.
have h7w (r : 'I_d) : h7 (sgd_w0 + r)%N (2 * j.+1)%N = h6 (sgd_w0 + r)%N (2 * j + 1)%N.
  rewrite /h7 layer1E rowsE (in_iota_add _ (ltn_ord r)) mov_eval; last first.
    by rewrite /= (index_iota_add _ (ltn_ord r)) size_iota.
  by rewrite /= (index_iota_add _ (ltn_ord r)) eqxx nth_iota.
have h8k row t : row != sgd_pred -> h8 row t = h7 row t.
  by move=> ne; rewrite /h8 layer1E inE (negPf ne).
have hxs r t : (r < d)%N -> h8 (sgd_x0 + r)%N (2 * t)%N = h (sgd_x0 + r)%N (2 * t)%N.
  move=> rd; rewrite h8k ?h7k ?h6k ?h5k ?h4k ?h3k ?h2k ?h1x //; try by sgd_lia.
  by rewrite ifF //; lia.
have wk (r : 'I_d) :
    h8 (sgd_w0 + r)%N (2 * j.+1)%N = sgd_ridge_step w (xcol X j) (yat y j) alpha lambda r 0.
  have rd := ltn_ord r.
  rewrite h8k ?h7w ?h6w ?h5h ?h5k ?h4g ?h3r ?h4k ?h3k ?h2k ?h1w; try by sgd_lia.
  rewrite /sgd_ridge_step !mxE /=.
  have -> : \sum_(q < d) xcol X j q 0 * w q 0 = \sum_(q < d) w^T 0 q * xcol X j q 0.
    by apply: eq_bigr => q _; rewrite [w^T _ _]mxE mulrC.
  by move: (\sum_(q < d) _) => S; ring.
split => //.
- by move=> r t rd; rewrite (hxs r t rd) hx.
- by move=> t; rewrite h8k ?h7k ?h6k ?h5k ?h4k ?h3k ?h2k ?h1y ?hy //; sgd_lia.
have wk7 (r : 'I_d) :
    h7 (sgd_w0 + r)%N (2 * j.+1)%N = sgd_ridge_step w (xcol X j) (yat y j) alpha lambda r 0.
  by have rd := ltn_ord r; rewrite -wk h8k //; sgd_lia.
rewrite /h8 layer1E inE eqxx dot_eval; last by rewrite !rowsE !size_iota.
rewrite !rowsE size_iota mxE; apply: eq_bigr => q _.
rewrite !nth_iota // wk7 mulrC; congr (_ * _); first by rewrite [RHS]mxE.
have qd := ltn_ord q; rewrite -h8k; last by sgd_lia.
by rewrite (hxs _ _ (ltn_ord q)) xin'.
Qed.

Lemma theorem1_chainS w_init alpha lambda k :
  theorem1_chain w_init alpha lambda k.+1
    = theorem1_chain w_init alpha lambda k ++ sgd_stage w_init alpha lambda k.+1.
Proof.
rewrite /theorem1_chain.
have -> : iota 1 k.+1 = iota 1 k ++ [:: k.+1] by rewrite -[k.+1]addn1 iotaD add1n addn1.
by rewrite map_cat flatten_cat /= ?cats0.
Qed.

Lemma theorem1_chain_inv n N (X : 'M[R]_(d, N)) (y : 'M[R]_(1, n)) w_init alpha lambda k :
  (k <= n)%N ->
  let h := run_exact (theorem1_chain w_init alpha lambda k) (chain_input sgd_D d n X y) in
  [/\ forall r t, (r < d)%N ->
        h (1 + r)%N (2 * t)%N = chain_input sgd_D d n X y (1 + r)%N (2 * t)%N,
      forall t, h 0%N t = chain_input sgd_D d n X y 0%N t &
      (0 < k)%N ->
      (forall r : 'I_d, h (sgd_w0 + r)%N (2 * k)%N = sgd_pass X y w_init alpha lambda k r 0) /\
      h sgd_pred (2 * k)%N = ((sgd_pass X y w_init alpha lambda k)^T *m xcol X k) 0 0].
Proof.
elim: k => [|k IH] kn; first by split.
have [hx hy hw] := IH (ltnW kn).
rewrite theorem1_chainS run_exact_cat.
have H := @sgd_stage_spec w_init alpha lambda n N X y _ k (sgd_pass X y w_init alpha lambda k)
  kn hx hy.
have [|hx' hy' hw'' hp''] := H; first by case: k {IH kn hx hy H} hw => [|k] hw //; case: (hw isT).
by split => // _; split.
Qed.

Theorem theorem1_chain_sgd_pass n N (X : 'M[R]_(d, N)) (y : 'M[R]_(1, n)) (w_init : 'cV[R]_d)
    (alpha lambda : R) k :
  (0 < k <= n)%N ->
  let h := run_exact (take (8 * k) (theorem1_chain w_init alpha lambda n))
             (chain_input sgd_D d n X y) in
  (forall r : 'I_d, h (sgd_w0 + r)%N (2 * k)%N = sgd_pass X y w_init alpha lambda k r 0) /\
  h sgd_pred (2 * k)%N = ((sgd_pass X y w_init alpha lambda k)^T *m xcol X k) 0 0.
Proof.
move=> /andP [k0 kn]; rewrite take_theorem1_chain //.
by have [_ _ /(_ k0)] := theorem1_chain_inv X y w_init alpha lambda kn.
Qed.

End Theorem1.

(* ------------------------------------------------ Theorem 2 (Sherman-Morrison pass) *)
Section RidgeGramQuad.
Variable R : realFieldType.

Lemma ridge_gram_tr d (lambda : R) (us : seq 'cV[R]_d) :
  (ridge_gram lambda us)^T = ridge_gram lambda us.
Proof.
rewrite /ridge_gram linearD /= tr_scalar_mx linear_sum /=; congr (_ + _).
by apply: eq_bigr => u _; rewrite trmx_mul trmxK.
Qed.

Lemma ridge_gram_quad_ge0 d (lambda : R) (us : seq 'cV[R]_d) (z : 'cV[R]_d) :
  0 <= lambda -> 0 <= (z^T *m ridge_gram lambda us *m z) 0 0.
Proof.
move=> lambda_ge0.
have -> : z^T *m ridge_gram lambda us *m z
    = lambda *: (z^T *m z) + \sum_(u <- us) (z^T *m u) *m (z^T *m u)^T.
  rewrite /ridge_gram mulmxDr mul_mx_scalar mulmx_sumr mulmxDl mulmx_suml -scalemxAl.
  by congr (_ + _); apply: eq_bigr => u _; rewrite trmx_mul trmxK !mulmxA.
rewrite mxE summxE; apply: addr_ge0.
  rewrite mxE; apply: mulr_ge0 => //; rewrite mxE; apply: sumr_ge0 => i _.
  by rewrite mxE -expr2 sqr_ge0.
by apply: sumr_ge0 => u _; rewrite mxE big_ord1 [_^T _ _]mxE -expr2 sqr_ge0.
Qed.

(* The denominator of every Sherman-Morrison update of the ridge iteration is positive:
   1 + x^T A^-1 x > 0, so the chain's |1 + x^T A^-1 x| is 1 + x^T A^-1 x. *)
Lemma sm_iter_denom_gt0 d (lambda : R) (us : seq 'cV[R]_d) (x : 'cV[R]_d) :
  0 < lambda -> 0 < 1 + (x^T *m sm_iter lambda us *m x) 0 0.
Proof.
move=> lambda_gt0; rewrite sm_iter_gram //.
have Gu := ridge_gram_unitmx us lambda_gt0; set G := ridge_gram lambda us in Gu *.
have -> : x^T *m invmx G *m x = (invmx G *m x)^T *m G *m (invmx G *m x).
  by rewrite trmx_mul trmx_inv ridge_gram_tr -!mulmxA mulKVmx.
by apply: ltr_paddr; [apply: ridge_gram_quad_ge0; apply: ltW | apply: ltr01].
Qed.

End RidgeGramQuad.

Section Theorem2.
Variable R : realFieldType.
Variable d : nat.

(* chains.hpp sm_rows: A^-1 is d x d row-major, entry (r, c) in row sm_ainv0 + r d + c. *)
Definition sm_y := 0%N.
Definition sm_x0 := 1%N.
Definition sm_ainv0 := (1 + d)%N.
Definition sm_b0 := (1 + d + d * d)%N.
Definition sm_u0 := (sm_b0 + d)%N.
Definition sm_v0 := (sm_u0 + d)%N.
Definition sm_xy0 := (sm_v0 + d)%N.
Definition sm_m0 := (sm_xy0 + d)%N.
Definition sm_den := (sm_m0 + d * d)%N.
Definition sm_m20 := (sm_den + 1)%N.
Definition sm_q0 := (sm_m20 + d * d)%N.
Definition sm_pred := (sm_q0 + d)%N.
Definition sm_D := (sm_pred + 1)%N.

(* The stage-1 bias of the A^-1 rows: a0(i d + i) = 1 / lambda, 0 elsewhere. *)
Definition sm_a0 (lambda : R) : nat -> R :=
  fun m => if (m %/ d == m %% d)%N then 1 / lambda else 0.

(* chains.hpp theorem2_chain, the ten layers of stage k (yt = 2k - 1, xt = 2k - 2). *)
Definition sm_stage (lambda : R) (k : nat) : seq (layer R) :=
  let yt := (2 * k - 1)%N in let xt := (2 * k - 2)%N in let d2 := (d * d)%N in
  let xr := rows sm_x0 (sm_x0 + d) in let ar := rows sm_ainv0 (sm_ainv0 + d2) in
  let br := rows sm_b0 (sm_b0 + d) in
  [:: LRaw (mov_op xr xr yt xt ::
            if k == 1%N then [:: aff_op [::] fzero [::] fzero (sm_a0 lambda) ar;
                                 aff_op [::] fzero [::] fzero (fun _ => 0) br]
            else [:: mov_op (rows sm_ainv0 (sm_b0 + d)) (rows sm_ainv0 (sm_b0 + d)) yt xt]);
      LRaw (mul_ops d d 1 sm_ainv0 sm_x0 sm_u0 ++ mul_ops d 1 1 sm_x0 sm_y sm_xy0);
      LRaw (mul_ops 1 d d sm_x0 sm_ainv0 sm_v0 ++
            [:: aff_op br fid (rows sm_xy0 (sm_xy0 + d)) fid (fun _ => 0) br]);
      LRaw (mul_ops d 1 d sm_u0 sm_v0 sm_m0 ++ mul_ops 1 d 1 sm_v0 sm_x0 sm_den);
      LRaw [:: aff_op [:: sm_den] fones [::] fzero (fun _ => 1) [:: sm_den]];
      LDiv (DivOp (rows sm_m0 (sm_m0 + d2)) sm_den (rows sm_m20 (sm_m20 + d2)));
      LRaw [:: aff_op ar fid (rows sm_m20 (sm_m20 + d2)) (fscale (-1) fid) (fun _ => 0) ar];
      LRaw (mul_ops d d 1 sm_ainv0 sm_b0 sm_q0);
      LRaw [:: mov_op (rows sm_ainv0 (sm_b0 + d)) (rows sm_ainv0 (sm_b0 + d)) (2 * k)%N yt;
               mov_op (rows sm_q0 (sm_q0 + d)) (rows sm_q0 (sm_q0 + d)) (2 * k)%N yt];
      LRaw [:: dot_op (rows sm_q0 (sm_q0 + d)) xr sm_pred]].

Definition theorem2_chain (lambda : R) (n : nat) : seq (layer R) :=
  flatten [seq sm_stage lambda k | k <- iota 1 n].

Lemma size_sm_stages lambda s :
  size (flatten [seq sm_stage lambda k | k <- s]) = (10 * size s)%N.
Proof. by elim: s => [|k s IH] //=; rewrite IH mulnS. Qed.

Lemma take_theorem2_chain lambda n k :
  (k <= n)%N -> take (10 * k) (theorem2_chain lambda n) = theorem2_chain lambda k.
Proof.
move=> kn; rewrite /theorem2_chain -(subnKC kn) iotaD map_cat flatten_cat take_size_cat //.
by rewrite size_sm_stages size_iota.
Qed.

Lemma theorem2_chainS lambda k :
  theorem2_chain lambda k.+1 = theorem2_chain lambda k ++ sm_stage lambda k.+1.
Proof.
rewrite /theorem2_chain.
have -> : iota 1 k.+1 = iota 1 k ++ [:: k.+1] by rewrite -[k.+1]addn1 iotaD add1n addn1.
by rewrite map_cat flatten_cat /= ?cats0.
Qed.

Lemma lt_rc (r c : 'I_d) : (r * d + c < d * d)%N.
Proof.
apply: (leq_trans (n := r * d + d)); first by rewrite ltn_add2l.
by rewrite -mulSnr leq_mul2r ltn_ord orbT.
Qed.

Lemma rc_div (r c : 'I_d) : ((r * d + c) %/ d = r)%N.
Proof.
have d0 : (0 < d)%N by case: d r => // -[].
by rewrite divnMDl // divn_small ?addn0.
Qed.

Lemma rc_mod (r c : 'I_d) : ((r * d + c) %% d = c)%N.
Proof. by rewrite modnMDl modn_small. Qed.

Ltac sm_lia := unfold sm_D, sm_pred, sm_q0, sm_m20, sm_den, sm_m0, sm_xy0, sm_v0, sm_u0, sm_b0,
  sm_ainv0, sm_x0, sm_y in *; lia.
Ltac smt := rewrite /= /rows ?mem_iota ?inE; sm_lia.

Lemma sm_stage_spec lambda n N (X : 'M[R]_(d, N)) (y : 'M[R]_(1, n)) h j (A : 'M[R]_d)
    (b : 'cV[R]_d) :
  (j < n)%N ->
  (forall r t, (r < d)%N -> h (1 + r)%N (2 * t)%N = chain_input sm_D d n X y (1 + r)%N (2 * t)%N) ->
  (forall t, h 0%N t = chain_input sm_D d n X y 0%N t) ->
  (if j is 0 then A = lambda^-1 *: 1%:M /\ b = 0
   else (forall r c : 'I_d, h (sm_ainv0 + r * d + c)%N (2 * j)%N = A r c) /\
        (forall r : 'I_d, h (sm_b0 + r)%N (2 * j)%N = b r 0)) ->
  0 < 1 + ((xcol X j)^T *m A *m xcol X j) 0 0 ->
  let h' := run_exact (sm_stage lambda j.+1) h in
  let A' := sm_update A (xcol X j) (xcol X j) in
  let b' := b + yat y j *: xcol X j in
  [/\ forall r t, (r < d)%N ->
        h' (1 + r)%N (2 * t)%N = chain_input sm_D d n X y (1 + r)%N (2 * t)%N,
      forall t, h' 0%N t = chain_input sm_D d n X y 0%N t,
      (forall r c : 'I_d, h' (sm_ainv0 + r * d + c)%N (2 * j.+1)%N = A' r c) /\
        (forall r : 'I_d, h' (sm_b0 + r)%N (2 * j.+1)%N = b' r 0),
      forall r : 'I_d, h' (sm_q0 + r)%N (2 * j.+1)%N = (A' *m b') r 0 &
      h' sm_pred (2 * j.+1)%N = ((A' *m b')^T *m xcol X j.+1) 0 0].
Proof.
move=> jn hx hy hAb hpos; rewrite /sm_stage.
have -> : (2 * j.+1 - 1 = 2 * j + 1)%N by lia.
have -> : (2 * j.+1 - 2 = 2 * j)%N by lia.
rewrite /run_exact /=.
set x := xcol X j in hpos *; set yv := yat y j.
have xE : x = xcol X j by []; have yE : yv = yat y j by []; clearbody x yv.
set ot := (if j.+1 == 1%N then _ else _).
have otk (out : hstate R) row t : (row < sm_ainv0)%N -> raw_apply h out ot row t = out row t.
  move=> lt; rewrite /ot; case: ifP => _ /=; rewrite /raw_write !ifF //; rewrite /= /rows mem_iota;
  sm_lia.
have otA (out : hstate R) (r c : 'I_d) :
    raw_apply h out ot (sm_ainv0 + r * d + c)%N (2 * j + 1)%N = A r c.
  have := lt_rc r c; rewrite /ot -addnA; case: j jn hAb {x yv xE yE ot otk hpos} => [|j] jn hAb rc
    /=.
    case: hAb => -> _; rewrite /raw_write ifF; last by smt.
    rewrite rowsE in_iota_add // aff_eval; last by rewrite /= index_iota_add // size_iota.
    rewrite !big_ord0 !add0r /= index_iota_add // /sm_a0 rc_div rc_mod !mxE.
    by rewrite -[in RHS]val_eqE /=; case: (_ == _); rewrite ?mulr1 ?mulr0 ?div1r.
  have rc' : (r * d + c < d * d + d)%N by lia.
  rewrite /raw_write /sm_b0 -addnA rowsE -/sm_b0 in_iota_add //.
  rewrite mov_eval; last by rewrite /= index_iota_add // size_iota.
  by rewrite /= index_iota_add // nth_iota // eqxx addnA (hAb.1 r c).
have otb (out : hstate R) (r : 'I_d) : raw_apply h out ot (sm_b0 + r)%N (2 * j + 1)%N = b r 0.
  have rd := ltn_ord r.
  rewrite /ot; case: j jn hAb {x yv xE yE ot otk otA hpos} => [|j] jn hAb /=.
    case: hAb => _ ->; rewrite /raw_write rowsE in_iota_add // aff_eval; last first.
      by rewrite /= index_iota_add // size_iota.
    by rewrite !big_ord0 !add0r mxE.
  have rb : (d * d + r < d * d + d)%N by lia.
  have -> : (sm_b0 + r = sm_ainv0 + (d * d + r))%N by rewrite /sm_b0 /sm_ainv0; lia.
  rewrite /raw_write /sm_b0 -addnA rowsE -/sm_ainv0 in_iota_add //.
  rewrite mov_eval; last by rewrite /= index_iota_add // size_iota.
  rewrite /= index_iota_add // nth_iota // eqxx -(hAb.2 r); congr h; rewrite /sm_b0 /sm_ainv0; lia.
set h1 := raw_exact h _; set h2 := raw_exact h1 _; set h3 := raw_exact h2 _.
set h4 := raw_exact h3 _; set h5 := raw_exact h4 _; set h6 := div_exact h5 _.
set h7 := raw_exact h6 _; set h8 := raw_exact h7 _; set h9 := raw_exact h8 _.
set h10 := raw_exact h9 _.
have xin (r : 'I_d) : x r 0 = h (sm_x0 + r)%N (2 * j)%N.
  by rewrite xE (hx r j (ltn_ord r)) chain_input_x //; sm_lia.
have xin' (r : 'I_d) : xcol X j.+1 r 0 = h (sm_x0 + r)%N (2 * j.+1)%N.
  by rewrite (hx r j.+1 (ltn_ord r)) chain_input_x //; sm_lia.
have h1x r t : (r < d)%N ->
    h1 (sm_x0 + r)%N t = h (sm_x0 + r)%N (if t == (2 * j + 1)%N then (2 * j)%N else t).
  move=> rd; rewrite /h1 /raw_exact /= otk; last by sm_lia.
  rewrite /raw_write rowsE (in_iota_add _ rd) mov_eval; last by rewrite /= index_iota_add //
    size_iota.
  by rewrite /= index_iota_add // nth_iota.
have h1y t : h1 sm_y t = h sm_y t.
  by rewrite /h1 /raw_exact /= otk /raw_write ?ifF //; smt.
have h1A (r c : 'I_d) : h1 (sm_ainv0 + r * d + c)%N (2 * j + 1)%N = A r c by exact: otA.
have h1b (r : 'I_d) : h1 (sm_b0 + r)%N (2 * j + 1)%N = b r 0 by exact: otb.
(* layer 2: u = A^-1 x, x y *)
have h2k row t : ((row < sm_u0) || (sm_u0 + d <= row < sm_xy0) || (sm_xy0 + d <= row))%N ->
    h2 row t = h1 row t.
  move=> out; rewrite /h2 /raw_exact raw_apply_cat !mul_ops_apply_keep //; sm_lia.
have h2u (r : 'I_d) : h2 (sm_u0 + r)%N (2 * j + 1)%N = (A *m x) r 0.
  have rd := ltn_ord r; have -> : (sm_u0 + r = sm_u0 + r * 1 + 0)%N by lia.
  rewrite /h2 /raw_exact raw_apply_cat mul_ops_apply_keep; last by sm_lia.
  rewrite mul_ops_eval // mxE; apply: eq_bigr => k _; have kd := ltn_ord k.
  by rewrite h1A muln1 addn0 h1x // eqxx -xin.
have h2xy (r : 'I_d) : h2 (sm_xy0 + r)%N (2 * j + 1)%N = x r 0 * yv.
  have rd := ltn_ord r; have -> : (sm_xy0 + r = sm_xy0 + r * 1 + 0)%N by lia.
  rewrite /h2 /raw_exact raw_apply_cat mul_ops_eval // big_ord1 (_ : (sm_y + _ * 1 + 0)%N = sm_y)
    //.
  rewrite muln1 addn0.
  rewrite h1x // eqxx -xin h1y hy /sm_y chain_input_y -?yE //; sm_lia.
(* layer 3: v = x^T A^-1, b += x y *)
have h3k row t : ((row < sm_b0) || (sm_b0 + d <= row < sm_v0) || (sm_v0 + d <= row))%N ->
    h3 row t = h2 row t.
  move=> out; rewrite /h3 /raw_exact raw_apply_cat /= /raw_write ifF; last by smt.
  by rewrite mul_ops_apply_keep //; sm_lia.
have h3v (c : 'I_d) : h3 (sm_v0 + c)%N (2 * j + 1)%N = (x^T *m A) 0 c.
  have cd := ltn_ord c; have -> : (sm_v0 + c = sm_v0 + 0 * d + c)%N by lia.
  rewrite /h3 /raw_exact raw_apply_cat /= /raw_write ifF; last by smt.
  rewrite mul_ops_eval // mxE; apply: eq_bigr => k _; have kd := ltn_ord k.
  rewrite h2k; last by sm_lia.
  rewrite h2k; last by have := lt_rc k c; sm_lia.
  by rewrite mul0n addn0 h1x // eqxx -xin h1A mxE.
have h3b (r : 'I_d) : h3 (sm_b0 + r)%N (2 * j + 1)%N = (b + yv *: x) r 0.
  have rd := ltn_ord r.
  rewrite /h3 /raw_exact raw_apply_cat /= /raw_write rowsE in_iota_add // aff_eval; last first.
    by rewrite /= index_iota_add // size_iota.
  rewrite /= !rowsE !size_iota index_iota_add // (sum_fid_l rd) (sum_fid_l rd) /= !nth_iota //
    addr0.
  rewrite h2xy h2k; last by sm_lia.
  by rewrite h1b !mxE addrC mulrC.
(* layer 4: u v^T, v x *)
have h4k row t : ((row < sm_m0) || (sm_den < row))%N -> h4 row t = h3 row t.
  move=> out; rewrite /h4 /raw_exact raw_apply_cat !mul_ops_apply_keep //; sm_lia.
have h4m (r c : 'I_d) :
    h4 (sm_m0 + r * d + c)%N (2 * j + 1)%N = (A *m x) r 0 * (x^T *m A) 0 c.
  have rc := lt_rc r c; have := ltn_ord r; have := ltn_ord c => cd rd.
  rewrite /h4 /raw_exact raw_apply_cat mul_ops_apply_keep; last by sm_lia.
  rewrite mul_ops_eval // big_ord1 muln1 addn0 mul0n addn0 -h2u -h3v h3k //; sm_lia.
have h4den : h4 sm_den (2 * j + 1)%N = (x^T *m A *m x) 0 0.
  have -> : sm_den = (sm_den + 0 * 1 + 0)%N by lia.
  rewrite /h4 /raw_exact raw_apply_cat mul_ops_eval // mxE; apply: eq_bigr => k _; have kd :=
    ltn_ord k.
  rewrite mul0n addn0 h3v muln1 addn0 h3k; last by sm_lia.
  by rewrite h2k; [rewrite h1x // eqxx -xin | sm_lia].
(* layer 5: 1 + x^T A^-1 x *)
have h5k row t : row != sm_den -> h5 row t = h4 row t.
  by move=> ne; rewrite /h5 layer1E inE (negPf ne).
have h5den : h5 sm_den (2 * j + 1)%N = 1 + (x^T *m A *m x) 0 0.
  rewrite /h5 layer1E inE eqxx aff_eval; last by rewrite /= eqxx.
  by rewrite big_ord0 big_ord1 /= /fones h4den add0r mul1r addrC.
(* layer 6: div *)
have h6k row t : ((row < sm_m20) || (sm_m20 + d * d <= row))%N -> h6 row t = h5 row t.
  by move=> out; rewrite /h6 /div_exact /= ifF //; rewrite /rows mem_iota; sm_lia.
have h6m (r c : 'I_d) : h6 (sm_m20 + r * d + c)%N (2 * j + 1)%N
    = (A *m x) r 0 * (x^T *m A) 0 c / (1 + (x^T *m A *m x) 0 0).
  have rc := lt_rc r c.
  rewrite /h6 /div_exact /= -addnA rowsE in_iota_add // index_iota_add // rowsE nth_iota // addnA.
  rewrite h5den gtr0_norm // h5k; last by sm_lia.
  by rewrite h4m.
(* layer 7: A^-1 -= u v^T / den *)
have h7k row t : ((row < sm_ainv0) || (sm_ainv0 + d * d <= row))%N -> h7 row t = h6 row t.
  by move=> out; rewrite /h7 layer1E ifF //; rewrite /= /rows mem_iota; sm_lia.
have h7A (r c : 'I_d) : h7 (sm_ainv0 + r * d + c)%N (2 * j + 1)%N = sm_update A x x r c.
  have rc := lt_rc r c.
  rewrite /h7 layer1E -addnA rowsE in_iota_add // aff_eval; last first.
    by rewrite /= index_iota_add // size_iota.
  rewrite /= !rowsE !size_iota index_iota_add // (sum_fscale_fid _ rc) (sum_fid_l rc) /= !nth_iota
    // !addnA addr0.
  rewrite h6m !h6k; try by sm_lia.
  rewrite !h5k; try by sm_lia.
  rewrite !h4k; try by sm_lia.
  rewrite h3k; last by sm_lia.
  rewrite h2k; last by sm_lia.
  rewrite h1A /sm_update /sm_denom -(mulmxA (A *m x) x^T A) !mxE big_ord1.
  by rewrite mulN1r [_^-1 * _]mulrC addrC [(A *m x) r 0]mxE [(x^T *m A) 0 c]mxE.
set A' := sm_update A x x; set b' := b + yv *: x.
(* layer 8: w = A^-1 b *)
have h8k row t : ((row < sm_q0) || (sm_q0 + d * 1 <= row))%N -> h8 row t = h7 row t.
  by move=> out; rewrite /h8 /raw_exact mul_ops_apply_keep.
have h8q (r : 'I_d) : h8 (sm_q0 + r)%N (2 * j + 1)%N = (A' *m b') r 0.
  have rd := ltn_ord r; have -> : (sm_q0 + r = sm_q0 + r * 1 + 0)%N by lia.
  rewrite /h8 /raw_exact mul_ops_eval // mxE; apply: eq_bigr => k _; have kd := ltn_ord k.
  rewrite h7A muln1 addn0 h7k; last by sm_lia.
  rewrite h6k; last by sm_lia.
  rewrite h5k; last by sm_lia.
  by rewrite h4k ?h3b //; sm_lia.
(* layer 9: move A^-1, b and w to token 2k *)
have rowsAb : rows sm_ainv0 (sm_b0 + d) = iota sm_ainv0 (d * d + d).
  by rewrite /rows; congr iota; sm_lia.
have h9k row t : ((row < sm_ainv0) || (sm_b0 + d <= row < sm_q0) || (sm_q0 + d <= row))%N ->
    h9 row t = h8 row t.
  by move=> out; rewrite /h9 layer2E !ifF //; smt.
have h9A (r c : 'I_d) :
    h9 (sm_ainv0 + r * d + c)%N (2 * j.+1)%N = h8 (sm_ainv0 + r * d + c)%N (2 * j + 1)%N.
  have rc := lt_rc r c; have rc' : (r * d + c < d * d + d)%N by lia.
  rewrite /h9 layer2E ifF; last by smt.
  rewrite /= rowsAb -addnA in_iota_add // mov_eval; last by rewrite index_iota_add // size_iota.
  by rewrite index_iota_add // nth_iota // eqxx.
have h9b (r : 'I_d) : h9 (sm_b0 + r)%N (2 * j.+1)%N = h8 (sm_b0 + r)%N (2 * j + 1)%N.
  have rd := ltn_ord r; have rb : (d * d + r < d * d + d)%N by rewrite ltn_add2l.
  have -> : (sm_b0 + r = sm_ainv0 + (d * d + r))%N by rewrite /sm_b0 /sm_ainv0; lia.
  rewrite /h9 layer2E ifF; last by smt.
  rewrite /= rowsAb in_iota_add // mov_eval; last by rewrite index_iota_add // size_iota.
  by rewrite index_iota_add // nth_iota // eqxx.
have h9q (r : 'I_d) : h9 (sm_q0 + r)%N (2 * j.+1)%N = h8 (sm_q0 + r)%N (2 * j + 1)%N.
  have rd := ltn_ord r.
  rewrite /h9 layer2E /= rowsE in_iota_add // mov_eval; last by rewrite index_iota_add // size_iota.
  by rewrite index_iota_add // nth_iota // eqxx.
(* layer 10: w^T x_next *)
have h10k row t : row != sm_pred -> h10 row t = h9 row t.
  by move=> ne; rewrite /h10 layer1E inE (negPf ne).
have hxs r t : (r < d)%N -> h10 (sm_x0 + r)%N t = h1 (sm_x0 + r)%N t.
  move=> rd; rewrite h10k ?h9k ?h8k ?h7k ?h6k ?h5k ?h4k ?h3k ?h2k //; sm_lia.
have hys t : h10 sm_y t = h1 sm_y t.
  by rewrite h10k ?h9k ?h8k ?h7k ?h6k ?h5k ?h4k ?h3k ?h2k //; sm_lia.
split.
- move=> r t rd; rewrite (hxs r _ rd) h1x // ifF ?hx //; lia.
- by move=> t; rewrite hys h1y hy.
- split => [r c | r].
    have rc := lt_rc r c.
    by rewrite h10k ?h9A ?h8k ?h7A //; sm_lia.
  have rd := ltn_ord r.
  rewrite h10k ?h9b ?h8k ?h7k ?h6k ?h5k ?h4k ?h3b //; sm_lia.
- by move=> r; have rd := ltn_ord r; rewrite h10k ?h9q ?h8q //; sm_lia.
rewrite /h10 layer1E inE eqxx dot_eval; last by rewrite !rowsE !size_iota.
rewrite !rowsE size_iota mxE; apply: eq_bigr => q _; have qd := ltn_ord q.
rewrite !nth_iota // -h10k; last by sm_lia.
rewrite hxs // h1x // ifF; last by lia.
by rewrite -xin' h9q h8q [_^T _ _]mxE mulrC.
Qed.

(* The iterated Sherman-Morrison inverse and the right-hand side after k examples. *)
Definition sm_xs N (X : 'M[R]_(d, N)) k := [seq xcol X j | j <- iota 0 k].
Definition sm_A N (X : 'M[R]_(d, N)) (lambda : R) k := sm_iter lambda (sm_xs X k).
Definition sm_b n N (X : 'M[R]_(d, N)) (y : 'M[R]_(1, n)) k : 'cV[R]_d :=
  \sum_(j < k) yat y j *: xcol X j.

Lemma sm_xsS N (X : 'M[R]_(d, N)) k : sm_xs X k.+1 = rcons (sm_xs X k) (xcol X k).
Proof. by rewrite /sm_xs -[k.+1]addn1 iotaD map_cat /= cats1. Qed.

Lemma sm_AS N (X : 'M[R]_(d, N)) lambda k :
  sm_A X lambda k.+1 = sm_update (sm_A X lambda k) (xcol X k) (xcol X k).
Proof. by rewrite /sm_A /sm_iter sm_xsS foldl_rcons. Qed.

Lemma sum_iota_ord (F : nat -> 'M[R]_d) k : \sum_(j <- iota 0 k) F j = \sum_(j < k) F j.
Proof.
rewrite (big_nth 0%N) size_iota big_mkord; apply: eq_bigr => i _.
by rewrite nth_iota // add0n.
Qed.

Lemma sm_A_ridge N (X : 'M[R]_(d, N)) lambda k :
  0 < lambda ->
  sm_A X lambda k = invmx (lambda%:M + \sum_(j < k) xcol X j *m (xcol X j)^T).
Proof.
by move=> lambda_gt0; rewrite /sm_A sm_iter_gram // /ridge_gram /sm_xs big_map sum_iota_ord.
Qed.

Lemma theorem2_chain_inv n N (X : 'M[R]_(d, N)) (y : 'M[R]_(1, n)) lambda k :
  0 < lambda -> (k <= n)%N ->
  let h := run_exact (theorem2_chain lambda k) (chain_input sm_D d n X y) in
  [/\ forall r t, (r < d)%N ->
        h (1 + r)%N (2 * t)%N = chain_input sm_D d n X y (1 + r)%N (2 * t)%N,
      forall t, h 0%N t = chain_input sm_D d n X y 0%N t &
      (0 < k)%N ->
      [/\ forall r c : 'I_d, h (sm_ainv0 + r * d + c)%N (2 * k)%N = sm_A X lambda k r c,
          forall r : 'I_d, h (sm_b0 + r)%N (2 * k)%N = sm_b X y k r 0,
          forall r : 'I_d, h (sm_q0 + r)%N (2 * k)%N = (sm_A X lambda k *m sm_b X y k) r 0 &
          h sm_pred (2 * k)%N = ((sm_A X lambda k *m sm_b X y k)^T *m xcol X k) 0 0]].
Proof.
move=> lambda_gt0; elim: k => [|k IH] kn; first by split.
have [hx hy hAb] := IH (ltnW kn).
rewrite theorem2_chainS run_exact_cat.
have H := @sm_stage_spec lambda n N X y _ k (sm_A X lambda k) (sm_b X y k) kn hx hy.
have [||hx' hy' [hA' hb'] hq' hp'] := H.
- case: k {IH kn hx hy H} hAb => [|k] hAb; first by rewrite /sm_b big_ord0.
  by have [hA hb _ _] := hAb isT.
- exact: sm_iter_denom_gt0.
have bS : sm_b X y k + yat y k *: xcol X k = sm_b X y k.+1 by rewrite /sm_b big_ord_recr.
split => // _; rewrite sm_AS -bS; split => //.
Qed.

Theorem theorem2_chain_ridge n N (X : 'M[R]_(d, N)) (y : 'M[R]_(1, n)) (lambda : R) k :
  0 < lambda -> (0 < k <= n)%N ->
  let h := run_exact (take (10 * k) (theorem2_chain lambda n)) (chain_input sm_D d n X y) in
  let Ainv := invmx (lambda%:M + \sum_(j < k) xcol X j *m (xcol X j)^T) in
  let w := Ainv *m \sum_(j < k) yat y j *: xcol X j in
  [/\ forall r c : 'I_d, h (sm_ainv0 + r * d + c)%N (2 * k)%N = Ainv r c,
      forall r : 'I_d, h (sm_b0 + r)%N (2 * k)%N = (\sum_(j < k) yat y j *: xcol X j) r 0,
      forall r : 'I_d, h (sm_q0 + r)%N (2 * k)%N = w r 0 &
      h sm_pred (2 * k)%N = (w^T *m xcol X k) 0 0].
Proof.
move=> lambda_gt0 /andP [k0 kn]; rewrite take_theorem2_chain //.
have [_ _ /(_ k0)] := theorem2_chain_inv X y lambda_gt0 kn.
by rewrite sm_A_ridge.
Qed.

End Theorem2.
