// The family "diagpgd" and its property, registered into iclproof's runner, gate and report.
#include "diagonal_preconditioned_lsa.hpp"

ICLPROOF_FAMILY(diagpgd,
                "Diagonally preconditioned LSA: one layer = one diagonally preconditioned GD step",
                "von Oswald et al. 2023, Proposition 1, with W_K's x-block I replaced by "
                "diag(p) (examples/external_family/README.md); the step is Ahn et al. 2023, "
                "Lemma 1's W - grad L(W) A with A = eta diag(p).");

ICLPROOF_PROPERTY(diagpgd_step, "diagpgd.lsa_layer_is_diagonal_preconditioned_gd_step",
                  "One masked LSA layer with W_K = [[diag(p), 0], [0, 0]] maps the query to the "
                  "prediction of W0 - grad L(W0) eta diag(p), exactly.",
                  ::iclproof::cite::exact_identity(
                      ::iclproof::cite::paper(
                          "von Oswald et al. 2023 Prop. 1 with W_K x-block diag(p) (derivation in "
                          "examples/external_family/diagonal_preconditioned_lsa.hpp)"))
                      .missing("no Coq theorem: the derivation is in the header's comment")) {
  diagpgd::check_layer_is_preconditioned_gd_step<T>(ctx,
                                                    &diagpgd::diagonal_preconditioned_weights<T>);
}
ICLPROOF_SIZES(diagpgd_step,
               "fixed: d <= 3, N a power of two <= 4, small-integer data and eta in {1, 1/2} keep "
               "every intermediate a short dyadic rational, so the check is an exact equality "
               "in every scalar; larger sums would round and the equality would no longer hold");
