// The exact scalar's instantiations, in their own translation unit (build cost: one TU per
// new scalar).
#include "core/rational.hpp"
#include "memformer/z_form_transformer_impl.hpp"

namespace iclproof {
ICLPROOF_INSTANTIATE_Z_FORM(rational_real)
}  // namespace iclproof
