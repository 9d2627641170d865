// libFuzzer harness for the weights-file reader and the tensor-file readers (safetensors, PyTorch
// .pt, .npz: compare/tensor_archives.hpp): any input must either
// parse or throw exactly weights_file_error with a one-line message; anything else (another
// exception, a crash, a sanitizer report, a multi-line message) is a finding.
#include "compare/peer_models.hpp"
#include "compare/tensor_archives.hpp"
#include "compare/weights_file.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  iclproof::weights_limits limits;
  limits.max_bytes = 1 << 20;
  try {
    const iclproof::weights_file w = iclproof::parse_weights_file(text, "fuzz", limits);
    (void)w;
  } catch (const iclproof::weights_file_error& e) {
    if (std::string_view(e.what()).find('\n') != std::string_view::npos) std::abort();
  }
  // The same bytes as a peer's tensor file (compare/tensor_archives.hpp): the same contract,
  // for each reader (parse_tensor_file picks one by the first bytes; the others are called too
  // so that each sees every input).
  for (auto* read : {&iclproof::parse_tensor_file, &iclproof::parse_safetensors,
                     &iclproof::parse_pytorch_checkpoint, &iclproof::parse_npz}) {
    try {
      (void)read(text, "fuzz", limits);
    } catch (const iclproof::weights_file_error& e) {
      if (std::string_view(e.what()).find('\n') != std::string_view::npos) std::abort();
    }
  }
  return 0;
}
