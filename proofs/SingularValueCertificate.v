(* SingularValueCertificate.v -- a checkable certificate that mu is a lower bound on the squared
   nonzero singular values of X (LeastSquares.v's sv_lower_bound X mu), with no spectral theorem:
   an exact factorisation H^3 - mu H^2 = L diag(D) L^T, H = X X^T, with every D_i >= 0.

   Conventions are those of LeastSquares.v: X is d x N (columns are examples), H = gram X =
   X X^T, rows w of size d; the quadratic form of a d x d matrix M at w is (w M w^T) 0 0.

   Why it suffices: v lies in the range of X^T iff v = w H for some w (LeastSquares.v:eqmx_gram),
   and then ||v X||_F^2 - mu ||v||_F^2 = w (H^3 - mu H^2) w^T, so a positive semidefinite
   H^3 - mu H^2 gives sv_lower_bound X mu.  The largest such mu is sigma_min(X)^2, the least
   NONZERO singular value squared; the certificate never needs to know that: the C++ picks a
   candidate mu just below a floating-point sigma_min^2 and checks the factorisation exactly in
   rationals.

   Main results
   - ldl_psd : L diag(D) L^T is positive semidefinite when every D_i >= 0 (L any d x k matrix,
       no triangularity needed).
   - sv_lower_bound_of_psd : if H^3 - mu H^2 is positive semidefinite, then
       sv_lower_bound X mu (mu ||v||^2 <= ||v X||^2 for every v in the range of X^T).
   - sv_lower_bound_of_ldl : the same from a factorisation H^3 - mu H^2 = L diag(D) L^T with
       every D_i >= 0 (the certificate the C++ checks exactly: certifies_sv_lower_bound in
       src/references/singular_value_certificate.hpp, factors from psd_ldl_factorisation, checked
       by is_psd_certificate).
   - ridge_tends_to_min_norm_certified : the bound of references.ridge_tends_to_min_norm_least_squares
       in its floating-point form, ||W_ridge(lambda) - W+||_F <= (lambda / mu) ||W+||_F for
       lambda > 0 and mu > 0 with such a certificate: LeastSquares.v's
       ridge_tends_to_min_norm_least_squares with sv_lower_bound_of_ldl for its hypothesis.
       lambda / mu is the formula of the C++ ridge_min_norm_rate
       (src/references/regression_solutions.hpp), mu the value certified_sv_lower_bound returns.

   Auxiliary: fnorm2_rV (the squared norm of a row is v v^T), certificate_matrix (H^3 - mu H^2).

   Dependencies: LeastSquares.v, mathcomp ssreflect/algebra.  No axioms. *)

From mathcomp Require Import all_ssreflect all_algebra.
From ICLProof Require Import LeastSquares.
Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.
Import Order.TTheory GRing.Theory Num.Theory.
Local Open Scope ring_scope.

Section Certificate.
Variables (R : realFieldType) (d N : nat).
Variable X : 'M[R]_(d, N).

Local Notation H := (gram X).

(* M is positive semidefinite: its quadratic form is non-negative at every row w. *)
Definition psd n (M : 'M[R]_n) := forall w : 'rV[R]_n, 0 <= (w *m M *m w^T) 0 0.

(* H^3 - mu H^2, the matrix the C++ factorises: sv_certificate_matrix in
   src/references/singular_value_certificate.hpp, same formula. *)
Definition certificate_matrix (mu : R) : 'M[R]_d := H *m H *m H - mu *: (H *m H).

Lemma fnorm2_rV n (v : 'rV[R]_n) : fnorm2 v = (v *m v^T) 0 0.
Proof. by rewrite /fnorm2 /fdot trace_mx11. Qed.

Lemma ldl_psd n k (L : 'M[R]_(n, k)) (D : 'rV[R]_k) :
  (forall i, 0 <= D 0 i) -> psd (L *m diag_mx D *m L^T).
Proof.
move=> D0 w; set u := w *m L.
have -> : w *m (L *m diag_mx D *m L^T) *m w^T = u *m diag_mx D *m u^T.
  by rewrite /u trmx_mul !mulmxA.
rewrite mxE; apply: sumr_ge0 => i _; rewrite mul_mx_diag !mxE.
by rewrite mulrAC -expr2 mulr_ge0 ?sqr_ge0.
Qed.

Theorem sv_lower_bound_of_psd mu : psd (certificate_matrix mu) -> sv_lower_bound X mu.
Proof.
move=> hpsd v; rewrite -(eqmx_gram X) => /submxP[w ->].
have e1 : fnorm2 (w *m H) = (w *m (H *m H) *m w^T) 0 0.
  by rewrite fnorm2_rV trmx_mul gram_tr /gram !mulmxA.
have e2 : fnorm2 (w *m H *m X) = (w *m (H *m H *m H) *m w^T) 0 0.
  by rewrite fnorm2_rV trmx_mul [(w *m _)^T]trmx_mul gram_tr /gram !mulmxA.
rewrite e1 e2 -subr_ge0; move: (hpsd w); rewrite /certificate_matrix.
set H3 := H *m H *m H; set H2 := H *m H.
by rewrite mulmxBr mulmxBl -scalemxAr -scalemxAl !mxE.
Qed.

Theorem sv_lower_bound_of_ldl k (L : 'M[R]_(d, k)) (D : 'rV[R]_k) mu :
  (forall i, 0 <= D 0 i) -> certificate_matrix mu = L *m diag_mx D *m L^T ->
  sv_lower_bound X mu.
Proof. by move=> D0 cert; apply: sv_lower_bound_of_psd; rewrite cert; apply: ldl_psd. Qed.

End Certificate.

Section CertifiedRate.
Variables (R : rcfType) (d N o : nat).
Variables (X : 'M[R]_(d, N)) (Y : 'M[R]_(o, N)).

(* references.ridge_tends_to_min_norm_least_squares, floating-point form: the rate lambda / mu
   with mu certified by an exact factorisation H^3 - mu H^2 = L diag(D) L^T, D >= 0. *)
Theorem ridge_tends_to_min_norm_certified k (L : 'M[R]_(d, k)) (D : 'rV[R]_k) lambda mu :
  0 < lambda -> 0 < mu -> (forall i, 0 <= D 0 i) ->
  certificate_matrix X mu = L *m diag_mx D *m L^T ->
  frobenius (ridge X Y lambda - min_norm_ls X Y) <= lambda / mu * frobenius (min_norm_ls X Y).
Proof.
move=> lpos mupos D0 cert.
exact: ridge_tends_to_min_norm_least_squares lpos mupos (sv_lower_bound_of_ldl D0 cert).
Qed.

End CertifiedRate.
