// Readers of the tensor files peers save their models in (docs/weights.md), without their
// frameworks: each takes the file's bytes and returns its tensors by name, or throws ONE
// weights_file_error naming the file and the defect (never a crash: truncated, damaged,
// wrong-dtype and hostile files are refused; tests/unit/compare_unusual_files_test.cpp).
//
//  safetensors  8-byte little-endian header length, a JSON header, raw little-endian data.
//  PyTorch .pt  what torch.save writes since PyTorch 1.6: a zip archive (entries stored, not
//               compressed) holding <archive>/data.pkl, a pickle (protocol 2) of the
//               state_dict, and one entry <archive>/data/<key> per storage. The pickle is
//               read by a restricted interpreter that knows the opcodes a state_dict uses and
//               only these callables: collections.OrderedDict, torch._utils._rebuild_tensor_v2,
//               torch._utils._rebuild_parameter and the torch.*Storage types; any other
//               callable is refused, nothing is ever executed. LibTorch 1.13's own
//               torch::jit::pickle_load was measured on such files and does not read them (a
//               one-entry dict of tensors: "Unknown opcode 0x73" (SETITEM); a module's two-entry
//               state_dict: None), so this reader does not use it and the verifier does not
//               link LibTorch.
//  npz          what numpy.savez writes: a zip archive of NAME.npy entries (stored; the
//               deflated entries of numpy.savez_compressed are refused with that advice).
//
// Every reader takes float32 and float64 tensors (converted exactly to double) and refuses
// any other dtype by name.
#pragma once

#include "compare/weights_file.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace iclproof {

struct peer_tensor {
  std::vector<std::int64_t> shape;
  std::vector<double> data;  // row-major (C order), converted exactly from float32 or float64
};

// `source` names the file in messages.
std::map<std::string, peer_tensor> parse_safetensors(std::string_view bytes,
                                                     const std::string& source,
                                                     const weights_limits& limits = {});
std::map<std::string, peer_tensor> parse_pytorch_checkpoint(std::string_view bytes,
                                                            const std::string& source,
                                                            const weights_limits& limits = {});
std::map<std::string, peer_tensor> parse_npz(std::string_view bytes, const std::string& source,
                                             const weights_limits& limits = {});

// The tensors of a file in any of the three formats, told apart by their first bytes (a zip
// archive is a .pt checkpoint if it holds a data.pkl, an npz file if it holds .npy entries).
std::map<std::string, peer_tensor> parse_tensor_file(std::string_view bytes,
                                                     const std::string& source,
                                                     const weights_limits& limits = {});

}  // namespace iclproof
