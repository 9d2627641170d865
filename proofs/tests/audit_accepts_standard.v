(* Audit fixture (not in _CoqProject): uses Classical_Prop.classic, which allowed_axioms.txt
   lists; the audit must accept it as "standard-axioms". *)
From Coq Require Import Classical.

Theorem fixture_standard_claim (P : Prop) : P \/ ~ P.
Proof. exact (classic P). Qed.
