(* Audit fixture (not in _CoqProject): a theorem that depends on a home-made axiom. *)
Axiom fixture_excluded_middle : forall P : Prop, P \/ ~ P.

Theorem fixture_axiom_claim (P : Prop) : ~ ~ P -> P.
Proof.
intros nnp; destruct (fixture_excluded_middle P) as [p | np]; [exact p | destruct (nnp np)].
Qed.
