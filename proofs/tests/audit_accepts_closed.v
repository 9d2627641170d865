(* Audit fixture (not in _CoqProject): a clean theorem; the audit must accept it as "closed". *)
Theorem fixture_closed_claim : forall n : nat, 0 + n = n.
Proof. reflexivity. Qed.
