// The one dispatcher that reads model files from disk for `iclproof compare` (and `report
// --weights`): above the two readers it calls, which never call each other,
//   compare/weights_file.hpp    text of an iclproof weights file -> weights_file
//   compare/tensor_archives.hpp bytes of a .pt / .npz / safetensors file -> tensors
//   compare/peer_models.hpp     a sidecar and its tensors -> weights_file
// (cmake/check_include_layers.cmake checks the include directions).
#pragma once

#include "compare/weights_file.hpp"

#include <string>

namespace iclproof {

// Reads and parses a file: an iclproof weights file, or a sidecar naming a peer's model
// (compare/peer_models.hpp, schema "iclproof-peer-model"), whose tensor file is read here; a
// defect of that file is one weights_file_error naming the sidecar too.
weights_file read_weights_file(const std::string& path, const weights_limits& limits = {});

// The bytes of a regular file of at most limits.max_bytes, or one weights_file_error (missing,
// not a regular file, too large, unreadable).
std::string read_model_file_bytes(const std::string& path, const weights_limits& limits = {});

}  // namespace iclproof
