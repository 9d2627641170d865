(* AttentionForms.v -- the two linear-attention layers of the theories are one layer.

   VonOswald.v's masked head   lsa_masked P WV WK WQ Z = Z + P (WV C) (WK C)^T (WQ Z),
   C = the N context columns of Z, and AhnLemma1.v's Z-form attention
   ahn_attn P Q Z = P Z M (Z^T Q Z), M = diag(I_N, 0), are related by

   Main results
   - lsa_masked_ahn_attn : lsa_masked P WV WK WQ Z = Z + ahn_attn (P WV) (WK^T WQ) Z
       (any key/query width p, any d, N, Q): a masked von Oswald head IS a Z-form attention with
       value-side matrix P WV and bilinear form WK^T WQ;
   - ahn_layer_lsa_masked : conversely the Z-form layer Z + (1/N) ahn_attn P Q Z is the masked
       von Oswald head with P' = P / N, WV = WK = I, WQ = Q.
   So prop1_lsa_gd_step (VonOswald.v) and ahn_lemma1 (AhnLemma1.v) are statements about the same
   layer family (C++: src/lsa/lsa_layer.hpp and src/memformer/z_form_transformer.hpp).

   Dependencies: mathcomp ssreflect/algebra, MatrixFacts (mask_gram), VonOswald (lsa,
   lsa_masked), AhnLemma1 (ahn_attn, ahn_layer, ahn_mask).  No axioms. *)

From mathcomp Require Import all_ssreflect all_algebra.
From ICLProof Require Import MatrixFacts VonOswald AhnLemma1.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Import GRing.Theory.
Local Open Scope ring_scope.

Section AttentionForms.
Variable R : fieldType.
Variables d N Q : nat.

Theorem lsa_masked_ahn_attn p (P WV : 'M[R]_(d + 1)) (WK WQ : 'M[R]_(p, d + 1))
    (Z : 'M[R]_(d + 1, N + Q)) :
  lsa_masked P WV WK WQ Z = Z + ahn_attn (P *m WV) (WK^T *m WQ) Z.
Proof.
rewrite /lsa_masked /lsa /ahn_attn; congr (_ + _).
have -> : P *m WV *m Z *m (ahn_mask R N Q) *m (Z^T *m (WK^T *m WQ) *m Z)
    = P *m WV *m (Z *m (ahn_mask R N Q) *m Z^T) *m WK^T *m (WQ *m Z) by rewrite !mulmxA.
by rewrite /ahn_mask mask_gram trmx_mul !mulmxA.
Qed.

Theorem ahn_layer_lsa_masked (P Qm : 'M[R]_(d + 1)) (Z : 'M[R]_(d + 1, N + Q)) :
  ahn_layer P Qm Z = lsa_masked ((N%:R)^-1 *: P) 1%:M 1%:M Qm Z.
Proof.
by rewrite lsa_masked_ahn_attn /ahn_layer trmx1 mulmx1 mul1mx /ahn_attn -!scalemxAl.
Qed.

End AttentionForms.
