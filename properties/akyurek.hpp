// Checks of Akyurek et al. 2023 (CONSTRUCTIONS.md section 5): the approximations of C.4.2 /
// C.6, the RAW layer realised as a decoder layer, and the Theorem 1 / 2 chains. Each check is
// a template on the scalar and on the implementation under test, so the mutation tests in
// tests/unit/akyurek_test.cpp can feed it a broken variant.
// The checks are in one file per lemma group, included here.
#pragma once

#include "akyurek_attention_checks.hpp"
#include "akyurek_chain_checks.hpp"
#include "akyurek_gelu_checks.hpp"
#include "akyurek_layernorm_checks.hpp"
#include "akyurek_raw_layer_checks.hpp"
