#include "memformer/z_form_transformer_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_Z_FORM(double)
ICLPROOF_INSTANTIATE_Z_FORM(long double)
ICLPROOF_INSTANTIATE_Z_FORM(mpfr_real)
}  // namespace iclproof
