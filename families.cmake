# families.cmake -- every built-in construction family of iclproof, declared ONCE.
# The order is the report's order. What derives from these calls (cmake/iclproof_families.cmake
# has the function and the generators):
#   - the ctest entries properties.<id>.<run> (tests/CMakeLists.txt; CI_RUNS);
#   - the report's family sections: title, paper reference, sheet section (builtin_families.cpp,
#     generated into the build tree);
#   - the trained experiments and their model kinds, read by `iclproof compare` and iclproof-train
#     (trained_experiments.hpp, generated; src/trainer/configs/<name>.json);
#   - proofs/_CoqProject and proofs/real_analysis_files.txt, which the Coq build and the proof
#     audit read (checked in for coqc and editors; `cmake --build build --target
#     update_family_lists` rewrites them, the ctest families.lists_agree fails while they differ).
# families.lists_agree also fails when a property prefix of `iclproof list` is not a family here,
# a family here has no property or no properties/<id>.cpp, a proofs/*.v belongs to no family, or
# an experiment has no src/trainer/configs/<name>.json.
# Adding a family: src/<folder> (its SOURCES; src/CMakeLists.txt adds every registered folder),
# properties/<id>.cpp (+ .hpp), proofs/<Theory>.v, tests/unit/<id>_test.cpp, and one
# iclproof_family() call below.

iclproof_family(references
  TITLE "Closed-form references"
  REFERENCE "GD, preconditioned GD, GD++, conjugate gradient, momentum, Nesterov, LFOM, ridge, OLS / min-norm least squares, Sherman-Morrison, Bayes posterior mean, cross-checked against each other."
  SECTION "section 6"
  SOURCES references
  # MatrixFacts.v: the matrix lemmas every theory shares.
  PROOFS MatrixFacts.v ShermanMorrison.v GradientDescent.v LeastSquares.v ConjugateGradient.v
         SingularValueCertificate.v
  CI_RUNS mpfr256 mpfr512 double53 long-double64 rational ball256)

iclproof_family(vonoswald
  TITLE "von Oswald et al. 2023: one LSA layer = one GD step"
  REFERENCE "J. von Oswald, E. Niklasson, E. Randazzo, J. Sacramento, A. Mordvintsev, A. Zhmoginov, M. Vladymyrov. Transformers Learn In-Context by Gradient Descent. ICML 2023. Proposition 1 and GD++ (Appendix A.10)."
  SECTION "sections 1 and 2"
  SOURCES lsa
  PROOFS VonOswald.v
  REAL_ANALYSIS_PROOFS DyadicExact.v
  EXPERIMENTS vonoswald_single_lsa=lsa vonoswald_gdpp=lsa vonoswald_stack=lsa
  CI_RUNS mpfr256 mpfr512 double53 long-double64 rational ball256)

iclproof_family(ahn
  TITLE "Ahn et al.: linear transformers run preconditioned GD"
  REFERENCE "K. Ahn, X. Cheng, H. Daneshmand, S. Sra. Transformers learn to implement preconditioned gradient descent for in-context learning. NeurIPS 2023. Lemma 1, as restated in the Memformer paper (eqs 2-12)."
  SECTION "section 3"
  SOURCES memformer
  # AttentionForms.v: von Oswald's masked LSA head and Ahn's Z-form attention are one layer.
  PROOFS AhnLemma1.v AttentionForms.v
  EXPERIMENTS ahn_linear_transformer=ahn_linear
  CI_RUNS mpfr256 mpfr512 double53 long-double64 rational ball256)

iclproof_family(memformer
  TITLE "Memformers: CG and linear first-order methods"
  REFERENCE "Memory-augmented Transformers can implement Linear First-Order Optimization Methods (anonymous submission). CGD Memformer (eqs 17-18), LFOM Memformer (eqs 19-20)."
  SECTION "section 4"
  SOURCES memformer
  PROOFS Memformer.v
  EXPERIMENTS memformer_cgd=memformer_cgd memformer_lfom=memformer_lfom
  CI_RUNS mpfr256 mpfr512 double53 long-double64 rational ball256)

iclproof_family(akyurek
  TITLE "Akyurek et al. 2023: RAW operator, GD and Sherman-Morrison chains"
  REFERENCE "E. Akyurek, D. Schuurmans, J. Andreas, T. Ma, D. Zhou. What learning algorithm is in-context learning? Investigations with linear models. ICLR 2023. Primitives mov, aff, mul, div (Appendix C), Theorems 1 and 2 (Appendices A, B)."
  SECTION "section 5"
  SOURCES raw
  PROOFS AkyurekAlgebra.v AkyurekRawOps.v AkyurekChains.v
  REAL_ANALYSIS_PROOFS AkyurekBounds.v AkyurekLayerBounds.v LayerNorm.v GeluErf.v
                       GaussianIntegral.v GeluErfTail.v AkyurekLayerAssembly.v
                       AkyurekChainLipschitz.v AkyurekRawLayerState.v
                       AkyurekDivLayerState.v
  CI_RUNS mpfr256 mpfr512 double53 long-double64 rational interval256 ball256)

iclproof_family(population_optima
  TITLE "Population optima: the exact best step size and preconditioner of one GD step"
  REFERENCE "Closed forms in the moments of the data for eta* and A* of one step from W0 = 0 (src/references/population_optima.hpp), against an exact cubature of the expected loss; the optima that `iclproof compare` measures trained models against."
  SECTION "not a construction of the sheet (the references of section 6 on random data)"
  SOURCES references
  PROOFS PopulationOptima.v
  CI_RUNS mpfr256 double53 ball256)

iclproof_family(newton_schulz
  TITLE "Giannou et al. 2025: Newton's iteration for matrix inversion in linear-attention layers"
  REFERENCE "A. Giannou, L. Yang, T. Wang, D. Papailiopoulos, J. D. Lee. How Well Can Transformers Emulate In-context Newton's Method? AISTATS 2025 (arXiv 2403.03183 v1). Lemma 4.1 (2 layers of 2 heads, width 4d, one step X_1 = X_0 (2I - A X_0) for any square A; 1 layer for symmetric A) and Theorem 4.2 (3 + T layers, prediction a_test^T X_T A^T y) with the paper's layer, head and width counts; the token layouts are ours (the transcription read lost the display equations). Also our variant with 1 head per layer at width 3d (tokens [S^T; M; I]). docs/constructions/newton_schulz.md."
  SECTION "docs/constructions/newton_schulz.md"
  SOURCES newton_schulz
  PROOFS NewtonSchulz.v GiannouNewton.v
  CI_RUNS mpfr256 mpfr512 double53 long-double64 rational ball256)

iclproof_family(iterative_newton
  TITLE "Fu et al. 2024: iterative Newton in ReLU-attention + MLP blocks with fixed weights (Thm 5.1, App. B.2)"
  REFERENCE "D. Fu, T.-Q. Chen, R. Jia, V. Sharan. Transformers Learn to Achieve Second-Order Convergence Rates for In-Context Linear Regression. NeurIPS 2024. Theorem 5.1 as App. B.2 builds it: ReLU attention (two heads) and one doubling MLP per Newton step, M_0 = alpha S, M_j = 2 M_{j-1} - M_{j-1} S M_{j-1}, prediction x_q^T M_k X y, with alpha fixed by a data-class bound (k + 4 blocks: the paper's 3 set-up and k Newton layers, one exact read-out block for its 5; V_2 = -V_1 where the paper prints V_1 = V_2). Also a per-prompt-alpha variant on linear attention (k + 2 layers, register tokens). docs/constructions/iterative_newton.md."
  SECTION "docs/constructions/iterative_newton.md"
  SOURCES newton_schulz iterative_newton
  PROOFS IterativeNewton.v FuReluNewton.v
  CI_RUNS mpfr256 mpfr512 double53 long-double64 rational ball256)

iclproof_family(implicit_weights
  TITLE "Vladymyrov et al. 2024: the implicit weights of any linear transformer"
  REFERENCE "M. Vladymyrov, J. von Oswald, M. Sandler, R. Ge. Linear Transformers are Versatile In-Context Learners. NeurIPS 2024. Theorem 4.1, Lemma 4.3, Lemma 4.4 / A.1 (re-derived: the extraction we read lost the display equations; docs/constructions/implicit_weights.md)."
  SECTION "docs/constructions/implicit_weights.md"
  SOURCES implicit_weights
  PROOFS ImplicitWeights.v ImplicitWeightsHeads.v
  CI_RUNS mpfr256 double53 long-double64 rational ball256)

iclproof_family(gdpp_rate
  TITLE "Vladymyrov et al. 2024: GD++ reaches eps in O(log kappa + log log 1/eps) layers"
  REFERENCE "M. Vladymyrov, J. von Oswald, M. Sandler, R. Ge. Linear Transformers are Versatile In-Context Learners. NeurIPS 2024. Theorem 5.1, App. A.4, Lemmas A.2-A.3 (docs/constructions/gdpp_rate.md)."
  SECTION "docs/constructions/gdpp_rate.md"
  SOURCES gdpp_rate
  PROOFS GdppRate.v
  # A GD++ stack with one learned (gamma_l, eta_l) per layer, Table 1's trained GD++ (App. B).
  EXPERIMENTS vladymyrov_gdpp_stack=gdpp_stack
  CI_RUNS mpfr256 double53 long-double64 rational ball256)

iclproof_family(bai
  TITLE "Bai et al. 2023: ridge GD, Lasso proximal GD and post-ICL validation by ReLU attention and MLP layers"
  REFERENCE "Y. Bai, F. Chen, H. Wang, C. Xiong, S. Mei. Transformers as Statisticians: Provable In-Context Learning with In-Context Algorithm Selection. NeurIPS 2023 (arXiv 2306.04637). Definitions 1-2 (ReLU attention, MLP), Theorem 13 / Proposition C.2 / Corollary C.1 (ridge GD), Theorem 4 (its layer count and error), Proposition C.1 / Theorem C.1 / F.1 (Lasso proximal GD), Theorems H.2 / H.3 with Propositions H.2 / H.3 (post-ICL validation: K ridge-GD runs on a training split, square validation losses, selection); the matrices realising the paper's inner products are ours (docs/constructions/bai.md)."
  SECTION "docs/constructions/bai.md"
  SOURCES bai
  PROOFS BaiRelu.v
  CI_RUNS mpfr256 double53 long-double64 rational interval256 ball256)
