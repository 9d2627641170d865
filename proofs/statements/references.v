(* statements/references.v -- the claims of the references family (the closed-form and iterative
   reference solutions: GD, ridge, Sherman-Morrison, the Bayes posterior mean, minimum-norm least
   squares, conjugate gradient, momentum and Nesterov as linear first-order methods), stated on
   plain mathcomp objects defined below.  Checked against the project's theorems in
   references_check.v.

   Conventions: columns are examples.  X is d x N, Y is o x N (y is 1 x N), a linear model W is
   o x d (w is 1 x d) and predicts W x. *)

From mathcomp Require Import all_ssreflect all_algebra.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import GRing.Theory Num.Theory.
Local Open Scope ring_scope.

(* The squared Frobenius norm ||A||_F^2 = tr (A A^T) = sum_ij A_ij^2. *)
Definition frob2 (R : ringType) (m n : nat) (A : 'M[R]_(m, n)) : R := \tr (A *m A^T).

(* Ridge regression W = Y X^T (X X^T + lambda I)^-1. *)
Definition ridge (R : fieldType) (d N o : nat) (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N))
    (lambda : R) : 'M[R]_(o, d) :=
  Y *m X^T *m invmx (X *m X^T + lambda%:M).

(* W is a minimum-norm least-squares solution of W X ~ Y: it minimises ||W X - Y||_F^2, and its
   ||W||_F^2 is least among all minimisers. *)
Definition is_min_norm_ls (R : realFieldType) (d N o : nat) (X : 'M[R]_(d, N))
    (Y : 'M[R]_(o, N)) (W : 'M[R]_(o, d)) : Prop :=
  (forall V : 'M[R]_(o, d), frob2 (W *m X - Y) <= frob2 (V *m X - Y))
  /\ (forall V : 'M[R]_(o, d),
        (forall U : 'M[R]_(o, d), frob2 (V *m X - Y) <= frob2 (U *m X - Y)) ->
        frob2 W <= frob2 V).

(* The gradient of L(W) = 1/(2N) ||W X - Y||_F^2 at W: (1/N) (W X - Y) X^T. *)
Definition grad_loss (R : fieldType) (d o N : nat) (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N))
    (W : 'M[R]_(o, d)) : 'M[R]_(o, d) :=
  (N%:R)^-1 *: ((W *m X - Y) *m X^T).

(* K gradient-descent steps W <- W - eta grad L(W) from W = 0. *)
Definition gd_iterate (R : fieldType) (d o N : nat) (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N))
    (eta : R) (K : nat) : 'M[R]_(o, d) :=
  iter K (fun W => W - eta *: grad_loss X Y W) 0.

(* The square matrix A to the power k, A^0 = I, A^(k+1) = A^k A. *)
Definition mx_power (R : ringType) (n : nat) (A : 'M[R]_n) (k : nat) : 'M[R]_n :=
  iter k (fun M => M *m A) 1%:M.

(* One Sherman-Morrison update of Ainv = A^-1 for A + u u^T:
   Ainv - (1 + u^T Ainv u)^-1 Ainv u u^T Ainv. *)
Definition sm_update (R : fieldType) (d : nat) (Ainv : 'M[R]_d) (u : 'cV[R]_d) : 'M[R]_d :=
  Ainv - (1 + (u^T *m Ainv *m u) 0 0)^-1 *: (Ainv *m u *m u^T *m Ainv).

(* Starting from A_0^-1 = I / lambda, one update per column x_1, .., x_N of X, in order. *)
Definition sm_updates (R : fieldType) (d N : nat) (X : 'M[R]_(d, N)) (lambda : R) : 'M[R]_d :=
  foldl (fun Ainv u => sm_update Ainv u) (lambda^-1 *: 1%:M) [seq col i X | i <- enum 'I_N].

(* The dot product u v^T of two row vectors. *)
Definition dot_rv (R : ringType) (d : nat) (u v : 'rV[R]_d) : R := (u *m v^T) 0 0.

(* Conjugate gradient for w H = b (row vectors) from w_0 = 0, as the C++ runs it: the state
   (w_l, r_l, s_(l-1), rr_(l-1)) starts at (0, b, 0, 0); a step takes rr = r.r,
   s = r + (rr / rr_(l-1)) s_(l-1), alpha = rr / (s.(s H)), then w <- w + alpha s and
   r <- r - alpha s H (mathcomp's x / 0 = 0 is the C++'s guard for a zero denominator). *)
Fixpoint cg_state (R : fieldType) (d : nat) (H : 'M[R]_d) (b : 'rV[R]_d) (n : nat)
    : 'rV[R]_d * 'rV[R]_d * 'rV[R]_d * R :=
  if n is n'.+1 then
    let: (w, r, s_prev, rr_prev) := cg_state H b n' in
    let rr := dot_rv r r in
    let s := r + (rr / rr_prev) *: s_prev in
    let alpha := rr / dot_rv s (s *m H) in
    (w + alpha *: s, r - alpha *: (s *m H), s, rr)
  else (0, b, 0, 0).

(* The CG iterate w_n. *)
Definition cg_weights (R : fieldType) (d : nat) (H : 'M[R]_d) (b : 'rV[R]_d) (n : nat)
    : 'rV[R]_d :=
  (cg_state H b n).1.1.1.

(* A linear first-order method (LFOM) with coefficients c j l and gradient map g:
   w_(l+1) = w_l - sum_(j <= l) c j l g(w_j); lfom_iterates l is [:: w_0; ..; w_l]. *)
Fixpoint lfom_iterates (R : ringType) (V : lmodType R) (c : nat -> nat -> R) (g : V -> V)
    (w0 : V) (l : nat) : seq V :=
  if l is l'.+1 then
    let ws := lfom_iterates c g w0 l' in
    rcons ws (last w0 ws - \sum_(j < l'.+1) c j l' *: g (nth 0 ws j))
  else [:: w0].

(* The LFOM iterate w_l. *)
Definition lfom (R : ringType) (V : lmodType R) (c : nat -> nat -> R) (g : V -> V) (w0 : V)
    (l : nat) : V :=
  last w0 (lfom_iterates c g w0 l).

(* Heavy-ball momentum: the pair (w_l, w_(l-1)), w_(-1) = w_0,
   w_(l+1) = w_l - eta g(w_l) + beta (w_l - w_(l-1)). *)
Fixpoint heavy_ball (R : ringType) (V : lmodType R) (eta beta : R) (g : V -> V) (w0 : V)
    (l : nat) : V * V :=
  if l is l'.+1 then
    let: (w, w_prev) := heavy_ball eta beta g w0 l' in
    (w - eta *: g w + beta *: (w - w_prev), w)
  else (w0, w0).

(* Nesterov: the pair (v_l, w_l) of look-ahead point and iterate, v_0 = w_0,
   w_(l+1) = v_l - eta g(v_l), v_(l+1) = w_(l+1) + beta (w_(l+1) - w_l). *)
Fixpoint nesterov (R : ringType) (V : lmodType R) (eta beta : R) (g : V -> V) (w0 : V)
    (l : nat) : V * V :=
  if l is l'.+1 then
    let: (v, w) := nesterov eta beta g w0 l' in
    let w_next := v - eta *: g v in
    (w_next + beta *: (w_next - w), w_next)
  else (w0, w0).

(* ------------------------------------------------------------------------------------------ *)
(* references.k_step_gd_equals_neumann_closed_form: "K gradient-descent steps from W = 0 equal
   eta (Y X^T / N) sum_{k<K} (I - eta X X^T / N)^k."
   Covers: every K, d, o, N >= 1, eta != 0, over any ordered field; exact arithmetic. *)
Definition premises_references__k_step_gd_equals_neumann_closed_form
    (R : numFieldType) (d o N : nat) (eta : R) : Prop :=
  (0 < d)%N /\ (0 < o)%N /\ (0 < N)%N /\ eta != 0.

Definition claim_references__k_step_gd_equals_neumann_closed_form : Prop :=
  forall (R : numFieldType) (d o N : nat) (eta : R) (K : nat)
    (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)),
  premises_references__k_step_gd_equals_neumann_closed_form d o N eta ->
  gd_iterate X Y eta K
  = (eta *: ((N%:R)^-1 *: (Y *m X^T)))
      *m \sum_(k < K) mx_power (1%:M - eta *: ((N%:R)^-1 *: (X *m X^T))) k.

Lemma witness_references__k_step_gd_equals_neumann_closed_form :
  @premises_references__k_step_gd_equals_neumann_closed_form rat_numFieldType 3 1 4 (1 / 2).
Proof. by []. Qed.

(* references.iterated_sherman_morrison_equals_ridge: "N Sherman-Morrison rank-one updates from
   A0^-1 = I/lambda give the ridge solution Y X^T (lambda I + X X^T)^-1."
   Covers: for lambda > 0, lambda I + X X^T is invertible, the N updates give its inverse, and
   Y X^T times them is ridge; any d, N >= 1, over any real field; exact arithmetic. *)
Definition premises_references__iterated_sherman_morrison_equals_ridge
    (R : realFieldType) (d N : nat) (lambda : R) : Prop :=
  (0 < d)%N /\ (0 < N)%N /\ 0 < lambda.

Definition claim_references__iterated_sherman_morrison_equals_ridge : Prop :=
  forall (R : realFieldType) (d N o : nat) (lambda : R) (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)),
  premises_references__iterated_sherman_morrison_equals_ridge d N lambda ->
  lambda%:M + X *m X^T \in unitmx
  /\ sm_updates X lambda = invmx (lambda%:M + X *m X^T)
  /\ Y *m X^T *m sm_updates X lambda = ridge X Y lambda.

Lemma witness_references__iterated_sherman_morrison_equals_ridge :
  @premises_references__iterated_sherman_morrison_equals_ridge rat_realFieldType 2 3 (1 / 10).
Proof. by []. Qed.

(* references.bayes_posterior_mean_equals_ridge: "The Gaussian posterior mean in its conjugate
   closed form (Y X^T / sigma^2) (X X^T / sigma^2 + I / tau^2)^-1 (prior N(0, tau^2 I), noise
   variance sigma^2; that this form is the posterior mean is the textbook conjugate-Gaussian step,
   not formalised) equals ridge regression Y X^T (X X^T + lambda I)^-1 with
   lambda = sigma^2 / tau^2."
   Covers: the identity of the two closed forms, with X X^T + lambda I invertible, for
   sigma2 = sigma^2 > 0 and tau2 = tau^2 > 0; not the conjugate-Gaussian step (as the sentence
   says). *)
Definition premises_references__bayes_posterior_mean_equals_ridge
    (R : realFieldType) (d N o : nat) (sigma2 tau2 : R) : Prop :=
  (0 < d)%N /\ (0 < N)%N /\ (0 < o)%N /\ 0 < sigma2 /\ 0 < tau2.

Definition claim_references__bayes_posterior_mean_equals_ridge : Prop :=
  forall (R : realFieldType) (d N o : nat) (sigma2 tau2 : R)
    (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)),
  premises_references__bayes_posterior_mean_equals_ridge d N o sigma2 tau2 ->
  X *m X^T + (sigma2 / tau2)%:M \in unitmx
  /\ (sigma2^-1 *: (Y *m X^T)) *m invmx (sigma2^-1 *: (X *m X^T) + tau2^-1%:M)
     = ridge X Y (sigma2 / tau2).

Lemma witness_references__bayes_posterior_mean_equals_ridge :
  @premises_references__bayes_posterior_mean_equals_ridge rat_realFieldType 2 3 1 (1 / 4) 2.
Proof. by []. Qed.

(* references.cg_after_rank_steps_equals_min_norm: "Conjugate gradient on R(w) from w = 0,
   stopped after rank(H) steps (exact rank), predicts x_q^T w+, w+ the minimum-norm
   least-squares solution (identity proved in exact arithmetic; rounding tolerance: first-order
   model)."
   Covers: CG on H = c X X^T, b = c y X^T (R(w) = (c/2) ||w X - y||^2; the C++ has c = 1/N), any
   c > 0, after any n >= rank(H) steps: the iterate is a minimum-norm least-squares solution and
   equals every such solution w+, so its prediction w_n x_q is w+ x_q for every query; exact
   arithmetic only (not the rounding tolerance). *)
Definition premises_references__cg_after_rank_steps_equals_min_norm
    (R : realFieldType) (d N : nat) (X : 'M[R]_(d, N)) (c : R) (n : nat) : Prop :=
  (0 < d)%N /\ (0 < N)%N /\ 0 < c /\ (\rank (c *: (X *m X^T)) <= n)%N.

Definition claim_references__cg_after_rank_steps_equals_min_norm : Prop :=
  forall (R : realFieldType) (d N : nat) (X : 'M[R]_(d, N)) (y : 'rV[R]_N) (c : R) (n : nat),
  premises_references__cg_after_rank_steps_equals_min_norm X c n ->
  is_min_norm_ls X y (cg_weights (c *: (X *m X^T)) (c *: (y *m X^T)) n)
  /\ (forall wp : 'rV[R]_d, is_min_norm_ls X y wp ->
        cg_weights (c *: (X *m X^T)) (c *: (y *m X^T)) n = wp).

(* d = N = 2, X = I, c = 1/2, n = 2. *)
Lemma witness_references__cg_after_rank_steps_equals_min_norm :
  @premises_references__cg_after_rank_steps_equals_min_norm rat_realFieldType 2 2 1%:M (1 / 2) 2.
Proof. by do 3 (split; first by []); apply: rank_leq_row. Qed.

(* references.momentum_equals_lfom_with_momentum_coefficients: "Heavy-ball momentum equals the
   LFOM with lambda(l, j) = eta beta^(l-j)."
   Covers: every iterate l, any gradient map g on any module, any eta != 0, beta, w_0 (the
   property runs g = the least-squares gradient); exact arithmetic. *)
Definition premises_references__momentum_equals_lfom_with_momentum_coefficients
    (R : comRingType) (eta beta : R) : Prop :=
  eta != 0 /\ beta != 0.

Definition claim_references__momentum_equals_lfom_with_momentum_coefficients : Prop :=
  forall (R : comRingType) (V : lmodType R) (eta beta : R) (g : V -> V) (w0 : V) (l : nat),
  premises_references__momentum_equals_lfom_with_momentum_coefficients eta beta ->
  (heavy_ball eta beta g w0 l).1 = lfom (fun j l' => eta * beta ^+ (l' - j)) g w0 l.

Lemma witness_references__momentum_equals_lfom_with_momentum_coefficients :
  @premises_references__momentum_equals_lfom_with_momentum_coefficients rat_comRing
    (1 / 10) (9 / 10).
Proof. by []. Qed.

(* references.nesterov_equals_lfom_with_nesterov_coefficients: "Nesterov's look-ahead sequence
   v_l equals the LFOM with lambda(l, l) = eta (1 + beta), lambda(l, j) = eta beta^(l-j+1) for
   j < l."
   Covers: every iterate l, any gradient map g on any module, any eta != 0, beta, w_0 (the
   property runs g = the least-squares gradient); exact arithmetic. *)
Definition premises_references__nesterov_equals_lfom_with_nesterov_coefficients
    (R : comRingType) (eta beta : R) : Prop :=
  eta != 0 /\ beta != 0.

Definition claim_references__nesterov_equals_lfom_with_nesterov_coefficients : Prop :=
  forall (R : comRingType) (V : lmodType R) (eta beta : R) (g : V -> V) (w0 : V) (l : nat),
  premises_references__nesterov_equals_lfom_with_nesterov_coefficients eta beta ->
  (nesterov eta beta g w0 l).1
  = lfom (fun j l' => if (j < l')%N then eta * beta ^+ (l' - j).+1 else eta * (1 + beta))
      g w0 l.

Lemma witness_references__nesterov_equals_lfom_with_nesterov_coefficients :
  @premises_references__nesterov_equals_lfom_with_nesterov_coefficients rat_comRing
    (1 / 10) (9 / 10).
Proof. by []. Qed.

(* references.ridge_tends_to_min_norm_least_squares: "Ridge tends to the minimum-norm
   least-squares solution W+ as lambda -> 0 (rank-deficient X included):
   ||W_ridge(lambda) - W+||_F^2 <= (lambda ||G X||_F^2)^2 ||W+||_F^2 for a generalised inverse G
   of X X^T, checked exactly in rationals with W_ridge, W+ and G tied to the theorem's terms by
   exact identities. Floating-point runs check instead the sharper rate
   ||W_ridge - W+||_F <= (lambda / mu) ||W+||_F, mu just below sigma_min(X)^2 and certified
   exactly per case by a factorisation (X X^T)^3 - mu (X X^T)^2 = L diag(D) L^T with D >= 0,
   under a rounding-model tolerance."
   Covers: both bounds in exact arithmetic over any real field, for any X (rank-deficient
   included), lambda > 0 and every minimum-norm least-squares solution W+; the rate is stated
   squared, ||W_ridge - W+||_F^2 <= (lambda / mu)^2 ||W+||_F^2 (the same inequality, both sides
   are >= 0; no square root needed).  Narrower in form: the two bounds are claimed together, under
   both premise sets (G with H G H = H, and a certified mu > 0); each bound needs only its own.
   Not covered: the rounding-model tolerance of the floating-point runs. *)
Definition premises_references__ridge_tends_to_min_norm_least_squares
    (R : realFieldType) (d N k : nat) (X : 'M[R]_(d, N)) (lambda : R) (G : 'M[R]_d) (mu : R)
    (L : 'M[R]_(d, k)) (D : 'rV[R]_k) : Prop :=
  (0 < d)%N /\ (0 < N)%N /\ 0 < lambda
  /\ X *m X^T *m G *m (X *m X^T) = X *m X^T
  /\ 0 < mu /\ (forall i, 0 <= D 0 i)
  /\ (X *m X^T) *m (X *m X^T) *m (X *m X^T) - mu *: ((X *m X^T) *m (X *m X^T))
     = L *m diag_mx D *m L^T.

Definition claim_references__ridge_tends_to_min_norm_least_squares : Prop :=
  forall (R : realFieldType) (d N o k : nat) (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)) (lambda : R)
    (G : 'M[R]_d) (mu : R) (L : 'M[R]_(d, k)) (D : 'rV[R]_k) (Wp : 'M[R]_(o, d)),
  premises_references__ridge_tends_to_min_norm_least_squares X lambda G mu L D ->
  is_min_norm_ls X Y Wp ->
  frob2 (ridge X Y lambda - Wp) <= (lambda * frob2 (G *m X)) ^+ 2 * frob2 Wp
  /\ frob2 (ridge X Y lambda - Wp) <= (lambda / mu) ^+ 2 * frob2 Wp.

(* d = N = k = 2, X = I, G = I, lambda = 1/10, mu = 1/2, L = I, D = (1/2, 1/2):
   H = I, H^3 - mu H^2 = (1/2) I = L diag(D) L^T. *)
Lemma witness_references__ridge_tends_to_min_norm_least_squares :
  @premises_references__ridge_tends_to_min_norm_least_squares rat_realFieldType 2 2 2
    1%:M (1 / 10) 1%:M (1 / 2) 1%:M (const_mx (1 / 2)).
Proof.
rewrite /premises_references__ridge_tends_to_min_norm_least_squares trmx1 !mulmx1.
do 3 (split; first by []); split; first by [].
split; first by []; split; first by move=> i; rewrite mxE.
rewrite mul1mx; apply/matrixP => i j; rewrite !mxE.
by case: (i == j); apply/eqP.
Qed.
