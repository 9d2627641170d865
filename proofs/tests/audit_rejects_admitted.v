(* Audit fixture (not in _CoqProject): an Admitted theorem.  The audit must reject it, both by
   the text scan and, with --no-text-scan, through Print Assumptions. *)
Theorem fixture_admitted_claim : forall n : nat, n + 0 = n.
Proof.
Admitted.
