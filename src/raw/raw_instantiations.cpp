// The RAW family's explicit instantiations for double and long double (declared extern at the
// end of each src/raw header), one translation unit per group of scalar types.
#include "raw/chains.hpp"
#include "raw/layer_bounds.hpp"

namespace iclproof::raw {
ICLPROOF_RAW_DECODER_LAYER(, double);
ICLPROOF_RAW_DECODER_LAYER(, long double);
ICLPROOF_RAW_OPERATOR(, double);
ICLPROOF_RAW_OPERATOR(, long double);
ICLPROOF_RAW_CHAINS(, double);
ICLPROOF_RAW_CHAINS(, long double);
ICLPROOF_RAW_LAYER_BOUNDS(, double);
ICLPROOF_RAW_LAYER_BOUNDS(, long double);
}  // namespace iclproof::raw
