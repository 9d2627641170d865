// The RAW family's explicit instantiations for mpfr_real, in their own translation unit.
#include "raw/chains.hpp"
#include "raw/layer_bounds.hpp"

namespace iclproof::raw {
ICLPROOF_RAW_DECODER_LAYER(, mpfr_real);
ICLPROOF_RAW_OPERATOR(, mpfr_real);
ICLPROOF_RAW_CHAINS(, mpfr_real);
ICLPROOF_RAW_LAYER_BOUNDS(, mpfr_real);
}  // namespace iclproof::raw
