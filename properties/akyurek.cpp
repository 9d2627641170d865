// Properties of Akyurek et al. 2023 (CONSTRUCTIONS.md section 5).
#include "akyurek.hpp"

using namespace iclproof;
using namespace iclproof::akyurek_checks;

ICLPROOF_PROPERTY(gelu_product_bound, "akyurek.gelu_multiplication_within_proven_bound",
                  "s^2 sqrt(pi/2) (g((x+y)/s) - g(x/s) - g(y/s)) is x y within the proven fourth-order "
                  "bound plus rounding, for the erf and the tanh GeLU.",
                  "proofs/AkyurekBounds.v:gelu_tanh_product_quartic") {
  gelu_product_within_bound<T>(ctx, [](raw::gelu_form f, const T& x, const T& y, const T& s) {
    return raw::gelu_product(f, x, y, s);
  });
}

ICLPROOF_PROPERTY(gelu_product_order, "akyurek.gelu_multiplication_error_is_second_order_in_downscale",
                  "The GeLU-multiplication error falls like s^-2 (log-log slope -2 within 0.05): fourth "
                  "order in the inputs, not the third order of the paper's Lemma 4.",
                  "paper: Akyurek et al. 2023 Lemma 4 eq. (35), corrected in CONSTRUCTIONS.md section 5") {
  gelu_product_second_order<T>(ctx, [](raw::gelu_form f, const T& x, const T& y, const T& s) {
    return raw::gelu_product(f, x, y, s);
  });
}
