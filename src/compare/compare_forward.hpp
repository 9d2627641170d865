// `compare_weights` with the forward pass as a parameter. A missing attention mask is a wrong
// MODEL, not wrong weights: it cannot be written in a weights file. So that a test can show the
// gated metrics failing on it, the function that maps weights and prompt to predictions is a
// parameter here; compare_weights(w, options) (compare.hpp) passes the
// verifier's masked learned_predictions. The forward pass must keep learned_predictions'
// contract (each query column independent of the others).
#pragma once

#include "compare/compare.hpp"
#include "compare/learned_models.hpp"
#include "core/scalar.hpp"

namespace iclproof {

using compare_forward_pass = learned_forward_pass<mpfr_real>;

// Throws as compare_weights(w, options), and std::invalid_argument for an empty forward pass.
compare_result compare_weights(const weights_file& w, const compare_options& options,
                               const compare_forward_pass& forward);

}  // namespace iclproof
