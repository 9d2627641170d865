// Strict reader of iclproof-train's weights files (src/trainer/WEIGHTS_FORMAT.md, schema 1).
//
// Every defect of a file — missing, unreadable, oversized, truncated or invalid JSON, nested too
// deeply, wrong schema or version, unknown experiment, a tensor of the wrong shape, a
// non-number, NaN/Inf or overflowing entry, a size outside the limits — is reported as ONE
// weights_file_error whose what() is a single line naming the file and the defect. The reader
// never clamps, never guesses, never crashes (it is fuzzed: tests/fuzz/weights_reader_fuzz.cpp).
// Entries are doubles (Eigen::MatrixXd, the same type as Mat<double>): of Eigen this header needs
// <Eigen/Core> only, and it includes nothing of MPFR or Boost.Multiprecision.
#pragma once

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace iclproof {

inline constexpr int supported_weights_schema_version = 1;

struct weights_file_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct weights_limits {
  std::size_t max_bytes = std::size_t{64} << 20;  // 64 MiB: the paper presets write < 1 MiB
  int max_nesting = 16;                           // the schema nests at most 6 levels
  int max_d = 256;                                // as the trainer's config validation
  int max_N = 4096;
  int max_layers = 64;
  std::size_t max_curve_points = std::size_t{1} << 22;
};

// ahn_full_linear: Ahn et al.'s linear transformer with P and Q per layer and head
// (compare/ahn_full_model.hpp); read from peers' checkpoints only, no iclproof-train experiment.
enum class learned_model_kind { lsa, ahn_linear, memformer_cgd, memformer_lfom, ahn_full_linear };

std::string to_string(learned_model_kind k);

// A GD++ stack's file (model kind "gdpp_stack": one (gamma_l, eta_l) per layer, Vladymyrov et al.
// 2024 App. B; the layer x_j <- x_j - (gamma/N) S x_j, y_j <- y_j - (eta/N) sum_i y_i x_i^T x_j)
// is read as the LSA stack computing the same map: von Oswald's GD++ layer (CONSTRUCTIONS.md
// section 2), W_K = W_Q = diag(I_d, 0), W_V = diag(-(gamma / N) I_d, -eta / N), P = I.
// The returned map holds W_K, W_Q, W_V, P ((d+1) x (d+1)).
std::map<std::string, Eigen::MatrixXd> gdpp_layer_as_lsa(double gamma, double eta, int d, int N);

struct weights_file {
  std::string source;  // path or label, for messages
  int schema_version = 0;
  std::string experiment;  // vonoswald_single_lsa | vonoswald_gdpp | vonoswald_stack |
                           // ahn_linear_transformer | memformer_cgd | memformer_lfom |
                           // vladymyrov_gdpp_stack (read as kind lsa: gdpp_layer_as_lsa)
                           // ahn_full_linear_transformer (peers' models only)
  std::string preset;
  std::uint64_t seed = 0;
  learned_model_kind kind = learned_model_kind::lsa;
  int d = 0, N = 0, layers = 0;
  bool tied = false;
  std::string inputs;     // uniform | gaussian | anisotropic
  Eigen::MatrixXd Sigma;  // anisotropic only: d x d, exactly symmetric
  // One map per parameter set (one per layer, or one if tied); scalars are 1 x 1 matrices.
  std::vector<std::map<std::string, Eigen::MatrixXd>> parameter_sets;
  std::vector<std::int64_t> curve_steps;
  std::vector<double> curve_loss;
  std::vector<std::string> provenance;  // how the file was read (peer models); compare's notes
  nlohmann::json config;                // as recorded (informational)
  nlohmann::json training;              // as recorded (informational)

  // Parameter `name` of layer l (resolves tying).
  const Eigen::MatrixXd& parameter(int layer, const std::string& name) const {
    return parameter_sets.at(tied ? 0 : layer).at(name);
  }
};

// The deepest nesting of JSON arrays/objects in `text`, skipping string contents; stops counting
// once it exceeds `cap` (a bound checked before parsing: nlohmann::json destroys a deeply nested
// value recursively). The weights reader and the safetensors header reader both use it.
int nesting_depth(std::string_view text, int cap);

// Empty if Sigma is a valid input covariance (square, exactly symmetric, positive diagonal,
// positive definite to d eps lambda_max), else the defect in one line.
std::string sigma_defect(const Eigen::MatrixXd& Sigma);

// Parses text; `source` names it in messages.
weights_file parse_weights_file(std::string_view text, const std::string& source,
                                const weights_limits& limits = {});

// Reading a file from disk (an iclproof weights file or a peer's sidecar and its tensor file) is
// compare/model_files.hpp: the one dispatcher above this parser and the peers' layouts.

}  // namespace iclproof
