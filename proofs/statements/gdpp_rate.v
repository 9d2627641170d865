(* Statements of the family gdpp_rate (GD++ preconditioning layers, von Oswald et al. A.10, and
   the eigenvalue map of Vladymyrov et al. 2024, Lemma A.3), read by people: plain mathcomp, no
   project theory.  Checked against the project's theorems in gdpp_rate_check.v.

   Conventions: tokens are the columns of a (d + o) x (N + Q) matrix [[X, Xq], [Y, Yq]]; the first
   N columns are the context (the keys and values), the last Q the queries. *)

From mathcomp Require Import all_ssreflect all_algebra.

Import GRing.Theory Num.Theory.
Local Open Scope ring_scope.

(* One masked linear self-attention head: T + P ((W_V C) (W_K C)^T) (W_Q T), C the first N
   columns of T. *)
Definition lsa_masked_layer {R : ringType} {D N Q : nat} (P WV WK WQ : 'M[R]_D)
    (T : 'M[R]_(D, N + Q)) : 'M[R]_(D, N + Q) :=
  T + P *m ((WV *m lsubmx T) *m (WK *m lsubmx T)^T) *m (WQ *m T).

(* The GD++ layer with W0 = 0 (src/lsa/vonoswald_weights_impl.hpp, gdpp_weights):
   W_K = W_Q = [[I_d, 0], [0, 0]], W_V = [[-gamma I_d, 0], [0, -I_o]],
   P = [[I_d, 0], [0, (eta/N) I_o]]. *)
Definition gdpp_layer {R : fieldType} {d o N Q : nat} (gamma eta : R)
    (T : 'M[R]_(d + o, N + Q)) : 'M[R]_(d + o, N + Q) :=
  lsa_masked_layer (block_mx (1%:M : 'M[R]_d) 0 0 (eta / N%:R)%:M)
                   (block_mx (- gamma%:M : 'M[R]_d) 0 0 (- 1%:M : 'M[R]_o))
                   (block_mx (1%:M : 'M[R]_d) 0 0 (0 : 'M[R]_o))
                   (block_mx (1%:M : 'M[R]_d) 0 0 (0 : 'M[R]_o)) T.

(* L GD++ layers, layer l with (gamma l, eta l). *)
Fixpoint gdpp_stack {R : fieldType} {d o N Q : nat} (gamma eta : nat -> R) (L : nat)
    (T : 'M[R]_(d + o, N + Q)) : 'M[R]_(d + o, N + Q) :=
  if L is l.+1 then gdpp_layer (gamma l) (eta l) (gdpp_stack gamma eta l T) else T.

(* The eigenvalue map of the layers: lambda_(l+1) = lambda_l (1 - gamma_l lambda_l)^2, entrywise. *)
Fixpoint gdpp_eigenvalues {R : ringType} {d : nat} (gamma : nat -> R) (lam0 : 'rV[R]_d) (L : nat)
    : 'rV[R]_d :=
  if L is l.+1 then
    \row_i (gdpp_eigenvalues gamma lam0 l 0 i * (1 - gamma l * gdpp_eigenvalues gamma lam0 l 0 i) ^+ 2)
  else lam0.

(* gdpp_rate.preconditioning_layer_maps_each_eigenvalue_to_lambda_one_minus_gamma_lambda_squared:
   "On data with orthogonal rows (X = diag(s) H_d, Sigma = X X^T diagonal) each of 1-3 GD++
   layers of the schedule gamma_l = 1/(3 nu_l), run through the LSA layer, leaves
   X_l X_l^T = diag(lambda (1 - gamma_l lambda)^2) of the previous layer's eigenvalues."
   Covers: any numeric field, d, o, N, Q, any number L of GD++ layers with ANY gamma_l, eta_l (the
   schedule gamma_l = 1/(3 nu_l), the property's eta_l = 0 and its 1-3 layers are cases), any
   labels Y, Yq and queries Xq, any context X with X X^T = diag(lam0) (the property's
   X = diag(s) H_d is one such): the context x-part X_L after L layers has X_L X_L^T =
   diag(lambda_L), lambda_L the map above applied L times. *)
Definition premises_gdpp_rate__preconditioning_layer_maps_each_eigenvalue_to_lambda_one_minus_gamma_lambda_squared
    {R : numFieldType} {d N : nat} (X : 'M[R]_(d, N)) (lam0 : 'rV[R]_d) : Prop :=
  (1 <= d)%N /\ (1 <= N)%N /\ X *m X^T = diag_mx lam0.

Definition claim_gdpp_rate__preconditioning_layer_maps_each_eigenvalue_to_lambda_one_minus_gamma_lambda_squared
    : Prop :=
  forall (R : numFieldType) (d o N Q : nat) (gamma eta : nat -> R) (X : 'M[R]_(d, N))
    (Xq : 'M[R]_(d, Q)) (Y : 'M[R]_(o, N)) (Yq : 'M[R]_(o, Q)) (lam0 : 'rV[R]_d) (L : nat),
  premises_gdpp_rate__preconditioning_layer_maps_each_eigenvalue_to_lambda_one_minus_gamma_lambda_squared
    X lam0 ->
  ulsubmx (gdpp_stack gamma eta L (block_mx X Xq Y Yq))
    *m (ulsubmx (gdpp_stack gamma eta L (block_mx X Xq Y Yq)))^T
  = diag_mx (gdpp_eigenvalues gamma lam0 L).

Lemma witness_gdpp_rate__preconditioning_layer_maps_each_eigenvalue_to_lambda_one_minus_gamma_lambda_squared :
  premises_gdpp_rate__preconditioning_layer_maps_each_eigenvalue_to_lambda_one_minus_gamma_lambda_squared
    (1%:M : 'M[rat]_2) (const_mx 1).
Proof. by split; [|split; [|rewrite mul1mx trmx1 diag_const_mx]]. Qed.
