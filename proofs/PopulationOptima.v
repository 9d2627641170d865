(* PopulationOptima.v -- the algebraic half of the exact population optima of one-step
   in-context learners (src/references/population_optima.hpp).

   The expected loss of one GD step with step size eta from W0 = 0 is the quadratic
     q(eta) = a eta^2 - 2 b eta + c,
   whose coefficients are moments of the data (derived in population_optima.hpp). This theory
   proves, over any real field, what follows from the moments alone:

   Main results
   - quadratic_excess    : a != 0 -> q(x) - q(b/a) = a (x - b/a)^2.
   - quadratic_minimum   : a != 0 -> q(b/a) = c - b^2/a.
   - quadratic_minimiser : 0 < a -> q(b/a) <= q(x) for every x, and q(x) = q(b/a) -> x = b/a
       (the minimiser is unique).
   - isotropic_step_optimum : with a = (d s2 / N)(m4 + (N + d - 2) s2^2), b = d s2^2 (the
       isotropic moments), b/a = N s2 / (m4 + (N + d - 2) s2^2).
   - uniform_step_optimum : s2 = 1/3, m4 = 1/5 (x ~ U(-1, 1)) gives b/a = 15 N / (5 N + 5 d - 1).
   - gaussian_step_optimum : s2 = 1, m4 = 3 (x ~ N(0, 1)) gives b/a = N / (N + d + 1).
   The moments themselves (E tr C^2, the Wishart identity) are derived by hand in the header
   and checked against an exact cubature integral of the GD reference's loss
   (properties/population_optima.cpp); they are not proved here.

   Dependencies: mathcomp ssreflect/algebra (ssrnum), algebra-tactics' field.
   No axioms: every theorem is closed under the global context. *)

From mathcomp Require Import all_ssreflect all_algebra.
From mathcomp Require Import ring.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import Order.TTheory GRing.Theory Num.Theory.
Local Open Scope ring_scope.

Section Quadratic.
Variable R : realFieldType.

Definition quad (a b c x : R) := a * x ^+ 2 - 2 * b * x + c.

Theorem quadratic_excess (a b c x : R) :
  a != 0 -> quad a b c x - quad a b c (b / a) = a * (x - b / a) ^+ 2.
Proof. by move=> a0; rewrite /quad; field. Qed.

Theorem quadratic_minimum (a b c : R) :
  a != 0 -> quad a b c (b / a) = c - b ^+ 2 / a.
Proof. by move=> a0; rewrite /quad; field. Qed.

Theorem quadratic_minimiser (a b c x : R) :
  0 < a -> quad a b c (b / a) <= quad a b c x /\ (quad a b c x = quad a b c (b / a) -> x = b / a).
Proof.
move=> a_gt0; have a0 : a != 0 by rewrite gt_eqF.
have ex := quadratic_excess b c x a0.
split; first by rewrite -subr_ge0 ex; apply: mulr_ge0; [exact: ltW | exact: sqr_ge0].
move=> e; have : a * (x - b / a) ^+ 2 == 0 by rewrite -ex e subrr.
by rewrite mulf_eq0 (negbTE a0) /= sqrf_eq0 subr_eq0 => /eqP.
Qed.

Theorem isotropic_step_optimum (d N s2 m4 : R) :
  d != 0 -> N != 0 -> s2 != 0 -> m4 + (N + d - 2) * s2 ^+ 2 != 0 ->
  (d * s2 ^+ 2) / (d * s2 / N * (m4 + (N + d - 2) * s2 ^+ 2)) =
  N * s2 / (m4 + (N + d - 2) * s2 ^+ 2).
Proof. by move=> d0 N0 s0 m0; field; rewrite d0 N0 s0 m0. Qed.

Theorem uniform_step_optimum (d N : R) :
  5 * N + 5 * d - 1 != 0 ->
  N * (1 / 3) / (1 / 5 + (N + d - 2) * (1 / 3) ^+ 2) = 15 * N / (5 * N + 5 * d - 1).
Proof. by move=> h; field. Qed.

Theorem gaussian_step_optimum (d N : R) :
  N * 1 / (3 + (N + d - 2) * 1 ^+ 2) = N / (N + d + 1).
Proof.
have -> : 3 + (N + d - 2) * 1 ^+ 2 = N + d + 1 :> R by ring.
by rewrite mulr1.
Qed.

End Quadratic.
