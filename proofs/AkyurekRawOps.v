(* AkyurekRawOps.v -- the data of a RAW or div layer of src/raw/raw_operator.hpp (Akyurek et al.
   2023), over any carrier R: written once, read by AkyurekChains.v (exact chains, R a mathcomp
   realFieldType) and AkyurekChainLipschitz.v (per-layer Lipschitz bounds, R Coq's reals).

   Main results (definitions only)
   - hstate R : the hidden state h(row, token); fmx R : an Eigen weight matrix M(row, col).
   - raw_op R : one RAW op (raw_kind, read rows s and r, write rows w, the weights W, Wa, Wo, the
       bias b0, the timestep map K, t_size() = Wo.cols()).
   - div_op : one div op (rows y divided by row c, written to rows w).
   - layer R : a RAW layer (a list of ops) or a div layer.

   Dependencies: Coq's ssreflect (for the `of` constructor syntax).  No axioms. *)

From Coq Require Import ssreflect.

Set Implicit Arguments.
Unset Strict Implicit.

Section RawOps.
Variable R : Type.

Definition hstate := nat -> nat -> R.
Definition fmx := nat -> nat -> R.

Record raw_op := RawOp {
  op_had : bool;              (* raw_kind::hadamard *)
  op_s : list nat; op_r : list nat; op_w : list nat;
  op_W : fmx; op_Wa : fmx; op_Wo : fmx; op_b0 : nat -> R;
  op_K : nat -> list nat;     (* timestep map *)
  op_t : nat                  (* t_size() = Wo.cols() *)
}.

Record div_op := DivOp { div_y : list nat; div_c : nat; div_w : list nat }.

Inductive layer := LRaw of list raw_op | LDiv of div_op.

End RawOps.
