(* Audit fixture (not in _CoqProject): a clean file whose second Theorem is not listed in the
   fixture's Audit.v (run_audit_fixture.sh leaves out the theorems whose name starts with
   "unlisted_"). *)
Theorem fixture_listed_claim : forall n : nat, 0 + n = n.
Proof. reflexivity. Qed.

Theorem unlisted_fixture_claim : forall n : nat, n = n.
Proof. reflexivity. Qed.
