// Models trained with the papers' authors' own code, read as they are (docs/weights.md).
//
// A peer's checkpoint carries its tensors but not the data model it was trained on, so it is
// named by a small sidecar JSON file, which `iclproof compare` accepts wherever it accepts a
// weights file:
//   {"schema": "iclproof-peer-model", "schema_version": 1,
//    "layout": "ahn_allparam",                 // the tensor layout, named after its source
//    "weights": "model.safetensors",           // relative to the sidecar's folder
//    "tensor": "allparam",                     // optional; the layout's default name
//    "data": {"N": 20, "inputs": "anisotropic", "U": [[...]], "D": [[...]]}}
// `data.inputs` is "gaussian" (x ~ N(0, I), w ~ N(0, I)) or "anisotropic", with either "Sigma"
// (d x d) or the peer's own "U" and "D" (d x d each; x = U D xi, so Sigma = U D D^T U^T; U must
// be orthogonal, so that the peer's w = xi_w D^-1 U^T has covariance Sigma^-1).
//
// Layouts (conventions and the files they mirror: docs/weights.md):
//   ahn_allparam     Ahn et al.'s Transformer_F (github chengxiang/LinearTransformer,
//                    linear_transformer.py): one tensor allparam of shape (n_layer, n_head, 2, d,
//                    d), [l, h, 0] = P, [l, h, 1] = Q. With every P that acts on the prediction
//                    equal to 0 it is iclproof's ahn_linear with A_l = -sum_h Q_{l,h}^T. A P != 0
//                    in a layer before the last is the full linear transformer, read with every P
//                    and Q (kind ahn_full_linear, compare/ahn_full_model.hpp), never dropped; the
//                    last layer's P updates only x-parts no later layer reads (reported in a note).
//   memformer_cgd    the Memformer paper's CGD notebook (github SanchayanDutta/LinearTransformer,
//                    "ICLR_2025 Dynamic Memory CGD Implementation.ipynb"): allparam, alpha (L),
//                    gamma (L), and the sidecar's run_mode; iclproof's memformer_cgd.
//   memformer_lfom   the paper's LFOM notebook ("ICLR_2025 Memformer LFOM on Isotropic
//                    Data.ipynb"): allparam, alpha and gamma of shape (L, 1, N+1, d+1);
//                    iclproof's memformer_lfom (run_mode 1) or ahn_linear (run_mode 0).
//   vonoswald_haiku  von Oswald et al.'s Haiku parameter tree (google-research/self-organising-
//                    systems, transformers_learn_icl_by_gd), flattened to "<module>/<param>"
//                    names; iclproof's lsa (one layer, a stack, or shared weights).
// A model no construction of this suite covers (per-token memory weights, several heads in an
// LSA layer, nonzero biases, ...) is refused with one error saying so; no weights are dropped.
//
// Tensor files: safetensors, PyTorch .pt (torch.save's zip format) and numpy .npz, told apart
// by their contents (compare/tensor_archives.hpp: bytes to tensors). This file maps tensors to
// models; compare/model_files.cpp reads the files and calls both. Every defect is one
// weights_file_error.
#pragma once

#include "compare/tensor_archives.hpp"
#include "compare/weights_file.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace iclproof {

inline constexpr std::string_view peer_model_schema = "iclproof-peer-model";

// The tensor file a sidecar (already parsed) names: its `weights`, relative to the sidecar's
// folder. One weights_file_error naming the sidecar for a wrong schema_version, an unknown
// layout, a missing `weights`, or a `weights` that names the sidecar itself.
std::string peer_tensor_file_path(const nlohmann::json& sidecar, const std::string& sidecar_path);

// A peer model from its sidecar and the tensors of the file it names (read by the dispatcher,
// compare/model_files.hpp: this file turns tensors into models and reads no file). The result
// is an ordinary weights_file (experiment, kind, data model, parameter sets) whose `provenance`
// says where it came from.
weights_file read_peer_model(const nlohmann::json& sidecar, const std::string& sidecar_path,
                             const std::string& tensor_file,
                             std::map<std::string, peer_tensor> tensors,
                             const weights_limits& limits = {});

}  // namespace iclproof
