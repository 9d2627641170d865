// Mutation test: the same check fed a broken construction must fail. The mutant puts diag(p)
// into W_Q as well as W_K, so the layer steps with eta diag(p)^2; p_k is never 1, so every case
// whose gradient is nonzero tells the two apart. The ctest requires `check` to exit 1.
#include "diagonal_preconditioned_lsa.hpp"

namespace {
template <class T>
iclproof::lsa_layer<T> preconditioner_in_query_too(Eigen::Index d, Eigen::Index o, Eigen::Index N,
                                                   const T& eta, const iclproof::Mat<T>& p,
                                                   const iclproof::Mat<T>& W0) {
  iclproof::lsa_layer<T> layer = diagpgd::diagonal_preconditioned_weights<T>(d, o, N, eta, p, W0);
  layer.heads[0].W_Q.leftCols(d) = p.col(0).asDiagonal();
  return layer;
}
}  // namespace

ICLPROOF_FAMILY(diagpgd, "Diagonally preconditioned LSA: mutation test", "test-only");

ICLPROOF_PROPERTY(diagpgd_mutant, "diagpgd.mutant_preconditioner_squared_must_fail",
                  "Mutation test: diag(p) in W_Q and W_K; the check must fail.",
                  ::iclproof::cite::exact_identity(
                      ::iclproof::cite::paper("test-only (examples/external_family/mutant.cpp)"))
                      .missing("a mutation test: no theorem backs it")) {
  diagpgd::check_layer_is_preconditioned_gd_step<T>(ctx, &preconditioner_in_query_too<T>);
}
