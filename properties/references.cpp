// Properties of the closed-form references (CONSTRUCTIONS.md section 6).
#include "references.hpp"

using namespace iclproof;
using namespace iclproof::reference_checks;

ICLPROOF_PROPERTY(sm_equals_ridge, "references.iterated_sherman_morrison_equals_ridge",
                  "N Sherman-Morrison rank-one updates from A0^-1 = I/lambda give the ridge solution "
                  "Y X^T (lambda I + X X^T)^-1.",
                  "proofs/ShermanMorrison.v:iterated_sherman_morrison_ridge") {
  sherman_morrison_equals_ridge<T>(ctx, [](const Mat<T>& X, const Mat<T>& Y, const T& lambda) {
    return iterated_sherman_morrison_ridge(X, Y, lambda);
  });
}
