// `iclproof compare` on valid-but-unusual weights files: every experiment and every `inputs`
// kind, d = 1, L = 1..8, a zero layer, huge and tiny scales, and singular or indefinite Sigma.
// Each file goes through the strict reader (parse_weights_file) and then compare_weights; each
// must end in a verdict (PASS or FAIL) or in ONE one-line exception of the kinds the CLI turns
// into "iclproof: error:" and exit 2 (weights_file_error, std::invalid_argument,
// std::domain_error). A crash kills this test binary, so a signal fails the test. The file with
// isotropic inputs and a Z-form model ("gaussian", no Sigma in the file) crashed `compare` with
// SIGSEGV (spd_sqrt of an empty Sigma) before the Z-form comparison took its geometry from
// input_covariance.
#include "compare/compare.hpp"
#include "compare/weights_file.hpp"
#include "core/eigen_scalar.hpp"

#include <catch2/catch.hpp>
#include "weights_json_builders.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace iclproof;
using nlohmann::json;

namespace {

using weights_json_builders::matrix_tensor;
json scalar(double v) { return {{"shape", json::array()}, {"data", v}}; }

struct experiment_shape {
  std::string experiment, kind;
  bool tied;
};
const std::vector<experiment_shape> experiment_shapes = {
    {"vonoswald_single_lsa", "lsa", false},    {"vonoswald_gdpp", "lsa", true},
    {"vonoswald_stack", "lsa", false},         {"ahn_linear_transformer", "ahn_linear", false},
    {"memformer_cgd", "memformer_cgd", false}, {"memformer_lfom", "memformer_lfom", false}};

// A weights file in the format of src/trainer/WEIGHTS_FORMAT.md with random weights of the given
// scale (layer `zero_layer`, if >= 0, is all zeros).
json weights_text(const experiment_shape& e, const std::string& inputs, int d, int N, int L,
                  double scale, int zero_layer, const Mat<double>& Sigma, std::mt19937_64& rng) {
  std::normal_distribution<double> g(0.0, 1.0);
  auto random = [&](int r, int c, int layer) {
    Mat<double> m(r, c);
    for (Eigen::Index i = 0; i < m.size(); ++i)
      m.data()[i] = layer == zero_layer ? 0.0 : scale * g(rng);
    return m;
  };
  const int sets = e.tied ? 1 : L, D = d + 1;
  json ps = json::array();
  for (int l = 0; l < sets; ++l) {
    json s;
    if (e.kind == "lsa") {
      for (const char* name : {"W_K", "W_Q", "W_V", "P"}) s[name] = matrix_tensor(random(D, D, l));
    } else if (e.kind == "ahn_linear") {
      s["A"] = matrix_tensor(random(d, d, l));
    } else if (e.kind == "memformer_cgd") {
      s["alpha"] = scalar(random(1, 1, l)(0, 0));
      s["gamma"] = scalar(l == 0 ? 0.0 : random(1, 1, l)(0, 0));
    } else {
      s["A"] = matrix_tensor(random(d, d, l));
      s["Gamma"] = scalar(random(1, 1, l)(0, 0));
    }
    ps.push_back(s);
  }
  json task = {{"inputs", inputs}, {"d", d}, {"N", N}};
  if (inputs == "anisotropic") task["Sigma"] = matrix_tensor(Sigma);
  return {{"schema", "iclproof-weights"},
          {"schema_version", 1},
          {"experiment", e.experiment},
          {"preset", "unusual"},
          {"seed", 7},
          {"model", {{"kind", e.kind}, {"d", d}, {"N", N}, {"layers", L}, {"tied", e.tied}}},
          {"task", task},
          {"parameter_sets", ps},
          {"loss_curve", {{"steps", json::array()}, {"loss", json::array()}}}};
}

// PASS, FAIL or one one-line error of the kinds the CLI reports with exit 2.
enum class outcome { verdict, error };
outcome run_compare(const std::string& text, const std::string& label) {
  compare_options o;
  o.precision_bits = 64;
  o.tasks = 6;
  o.calibration_tasks = 40;
  INFO(label);
  try {
    const weights_file w = parse_weights_file(text, label);
    const compare_result r = compare_weights(w, o);
    CHECK(!r.metrics.empty());
    (void)to_json(r).dump();  // NaN and Inf values serialise too
    return outcome::verdict;
  } catch (const weights_file_error& e) {
    CHECK(std::string(e.what()).find('\n') == std::string::npos);
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find('\n') == std::string::npos);
  } catch (const std::domain_error& e) {
    CHECK(std::string(e.what()).find('\n') == std::string::npos);
  }
  return outcome::error;
}

Mat<double> rotated_sigma(int d) {
  Mat<double> S = Mat<double>::Identity(d, d);
  for (int i = 0; i < d; ++i) S(i, i) = 1.0 / (1 + i);
  if (d > 1) S(0, 1) = S(1, 0) = 0.1;
  return S;
}

}  // namespace

TEST_CASE("compare.unusual_files: isotropic inputs with a Z-form model give a verdict") {
  // The reported crash: ahn_linear with "inputs": "gaussian" (no Sigma in the file).
  std::mt19937_64 rng(1);
  for (const std::string inputs : {"gaussian", "uniform"})
    for (const int L : {1, 3}) {
      const json j = weights_text(experiment_shapes[3], inputs, 5, 20, L, 0.1, -1, {}, rng);
      CHECK(run_compare(j.dump(), "ahn " + inputs + " L=" + std::to_string(L)) == outcome::verdict);
    }
}

TEST_CASE("compare.unusual_files: every experiment, inputs kind, d = 1 and 3, L = 1..8") {
  std::mt19937_64 rng(2);
  int verdicts = 0, runs = 0;
  for (const auto& e : experiment_shapes)
    for (const std::string inputs : {"uniform", "gaussian", "anisotropic"})
      for (const int d : {1, 3})
        for (int L = 1; L <= 8; ++L) {
          if (e.experiment == "vonoswald_single_lsa" && L != 1) continue;
          if (L != 1 && L != 2 && L != 8 && e.kind == "lsa") continue;  // GD++ tuning is slow
          const json j = weights_text(e, inputs, d, 4, L, 0.5, -1, rotated_sigma(d), rng);
          const std::string label =
              e.experiment + " " + inputs + " d=" + std::to_string(d) + " L=" + std::to_string(L);
          verdicts += run_compare(j.dump(), label) == outcome::verdict;
          ++runs;
        }
  // Valid files: every one of them gets a verdict (an error would need a reason).
  CHECK(verdicts == runs);
}

TEST_CASE(
    "compare.unusual_files: zero layers, huge and tiny scales end in a verdict or one error") {
  std::mt19937_64 rng(3);
  for (const auto& e : experiment_shapes)
    for (const double scale : {0.0, 1e-150, 1e-300, 1e150, 1e300})
      for (const int zero_layer : {-1, 0}) {
        const int L = e.experiment == "vonoswald_single_lsa" ? 1 : 2;
        const json j =
            weights_text(e, "anisotropic", 2, 3, L, scale, zero_layer, rotated_sigma(2), rng);
        run_compare(j.dump(), e.experiment + " scale " + std::to_string(scale) + " zero layer " +
                                  std::to_string(zero_layer));
      }
}

TEST_CASE("compare.unusual_files: a singular or indefinite Sigma is one reader error") {
  std::mt19937_64 rng(4);
  Mat<double> singular(2, 2), indefinite(2, 2), tiny(2, 2), huge(2, 2);
  singular << 1, 1, 1, 1;
  indefinite << 1, 2, 2, 1;
  tiny << 1e-300, 0, 0, 1e-300;
  huge << 1e300, 0, 0, 1e300;
  for (const auto& e : experiment_shapes) {
    const int L = e.experiment == "vonoswald_single_lsa" ? 1 : 2;
    for (const Mat<double>& S : {singular, indefinite}) {
      const std::string text = weights_text(e, "anisotropic", 2, 3, L, 0.5, -1, S, rng).dump();
      CHECK(run_compare(text, e.experiment + " bad Sigma") == outcome::error);
      try {
        parse_weights_file(text, "s.json");
      } catch (const weights_file_error& err) {
        CHECK(std::string(err.what()).find("not positive definite") != std::string::npos);
      }
    }
    // Scaled identities are valid (positive definite): a verdict or one error, never a signal.
    for (const Mat<double>& S : {tiny, huge})
      run_compare(weights_text(e, "anisotropic", 2, 3, L, 0.5, -1, S, rng).dump(),
                  e.experiment + " extreme Sigma");
  }
}

TEST_CASE("compare.unusual_files: binary model files are named, not called damaged JSON") {
  auto message = [](const std::string& text) {
    try {
      parse_weights_file(text, "model.pt");
    } catch (const weights_file_error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK(message(std::string("PK\x03\x04rest of a zip", 17)).find("PyTorch .pt") !=
        std::string::npos);
  CHECK(message(std::string("\x80\x02}q\x00", 5)).find("pickle") != std::string::npos);
  CHECK(message(std::string("\x10\x00\x00\x00\x00\x00\x00\x00{\"a\":1}", 15)).find("safetensors") !=
        std::string::npos);
  // A JSON file indented by whitespace is still read as JSON.
  CHECK(message("        {}").find("not valid JSON") == std::string::npos);
}
