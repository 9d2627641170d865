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
#include "compare/tensor_archives.hpp"
#include "compare/weights_file.hpp"
#include "core/eigen_scalar.hpp"

#include <catch2/catch.hpp>
#include "tensor_archive_builders.hpp"
#include "weights_error_message.hpp"
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

// Peers' tensor files (compare/tensor_archives.hpp): a PyTorch .pt state_dict and an .npz file
// are read exactly (strides included); every truncation and every single-byte corruption of a
// valid file, a non-zip, a legacy pickle, a wrong dtype, a callable other than the ones a
// state_dict names, deep nesting and compressed entries each end in ONE one-line
// weights_file_error (or, for a corruption the formats cannot see, in tensors), never a signal.
namespace {
namespace tab = tensor_archive_builders;

}  // namespace

TEST_CASE("compare.unusual_files: PyTorch .pt state_dicts, good and damaged") {
  // A 2 x 3 float32 tensor stored transposed (a view with strides (1, 2) of 6 elements).
  const std::vector<float> storage = {1, 2, 3, 4, 5, 6};
  const std::string good = tab::pytorch_file(
      tab::state_dict_pickle("w", "FloatStorage", 6, {2, 3}, {1, 2}), tab::raw_bytes(storage));
  const auto t = parse_pytorch_checkpoint(good, "good.pt");
  REQUIRE(t.size() == 1);
  CHECK(t.at("w").shape == std::vector<std::int64_t>{2, 3});
  CHECK(t.at("w").data == std::vector<double>{1, 3, 5, 2, 4, 6});  // row-major of the view
  CHECK(parse_tensor_file(good, "good.pt").at("w").data == t.at("w").data);
  const std::vector<double> storage64 = {0.1, -2.5};
  CHECK(parse_pytorch_checkpoint(
            tab::pytorch_file(tab::state_dict_pickle("v", "DoubleStorage", 2, {2}, {1}),
                              tab::raw_bytes(storage64)),
            "f64.pt")
            .at("v")
            .data == storage64);

  auto err = [](const std::string& bytes) {
    return weights_error_message([&] { parse_tensor_file(bytes, "bad.pt"); });
  };
  CHECK(err(tab::pytorch_file(tab::state_dict_pickle("w", "LongStorage", 6, {6}, {1}),
                              tab::raw_bytes(std::vector<std::int64_t>(6, 1))))
            .find("dtype LongStorage") != std::string::npos);
  CHECK(err(tab::pytorch_file(tab::state_dict_pickle("w", "FloatStorage", 6, {2, 3}, {3, 2}),
                              tab::raw_bytes(storage)))
            .find("past the end of its storage") != std::string::npos);
  CHECK(err(tab::pytorch_file(tab::state_dict_pickle("w", "FloatStorage", 7, {7}, {1}),
                              tab::raw_bytes(storage)))
            .find("not 7 elements") != std::string::npos);
  CHECK(err(std::string("\x80\x02}q\x00.", 6)).find("legacy") != std::string::npos);
  CHECK(err(tab::zip({{"a/data.pkl",
                       "\x80\x02"
                       "cos\nsystem\n"
                       "(X\x02\x00\x00\x00lstR."}}))
            .find("os.system, which this reader does not call") != std::string::npos);
  CHECK(err(tab::zip({{"a/data.pkl", "\x80\x02]."}})).find("holds a list") != std::string::npos);
  std::string deep = "\x80\x02N";
  for (int i = 0; i < 100; ++i) deep += "\x85";  // TUPLE1, 100 times
  CHECK(err(tab::zip({{"a/data.pkl", deep + "."}})).find("nested deeper") != std::string::npos);
  CHECK(err(tab::zip({{"a/data.pkl", "\x80\x02}."}, {"a/data/0", ""}}, 8)).find("compressed") !=
        std::string::npos);

  // Every prefix is refused (a truncated download); every byte flipped ends in tensors or in one
  // error. A crash would kill this test binary.
  for (std::size_t n = 0; n < good.size(); ++n) {
    INFO("prefix of " << n << " bytes");
    CHECK(err(good.substr(0, n)) != "accepted");
  }
  for (std::size_t i = 0; i < good.size(); ++i)
    for (const unsigned char x : {0x01, 0x80, 0xff}) {
      std::string bad = good;
      bad[i] = char(static_cast<unsigned char>(bad[i]) ^ x);
      err(bad);
    }
}

TEST_CASE("compare.unusual_files: .npz archives, good and damaged") {
  const std::vector<double> v = {1, 2, 3, 4, 5, 6};
  const std::string c_order = tab::npy("<f8", "(2, 3)", false, tab::raw_bytes(v));
  const std::string f_order = tab::npy("<f8", "(2, 3)", true, tab::raw_bytes(v));
  const auto t = parse_tensor_file(tab::zip({{"a/w.npy", c_order}, {"b.npy", f_order}}), "x.npz");
  CHECK(t.at("a/w").data == v);
  CHECK(t.at("a/w").shape == std::vector<std::int64_t>{2, 3});
  CHECK(t.at("b").data == std::vector<double>{1, 3, 5, 2, 4, 6});
  auto err = [](const std::string& bytes) {
    return weights_error_message([&] { parse_npz(bytes, "bad.npz"); });
  };
  CHECK(err(tab::zip({{"w.npy", tab::npy("<i8", "(6,)", false, tab::raw_bytes(v))}}))
            .find("dtype '<i8'") != std::string::npos);
  CHECK(err(tab::zip({{"w.npy", tab::npy("<f8", "(7,)", false, tab::raw_bytes(v))}}))
            .find("past the end") != std::string::npos);
  CHECK(err(tab::zip({{"w.npy", c_order}}, 8)).find("savez_compressed") != std::string::npos);
  CHECK(err(tab::zip({{"w.txt", "hello"}})).find("not an .npy array") != std::string::npos);
  CHECK(err("plain text").find("not a zip archive") != std::string::npos);
  const std::string good = tab::zip({{"w.npy", c_order}});
  for (std::size_t n = 0; n < good.size(); ++n) {
    INFO("prefix of " << n << " bytes");
    CHECK(err(good.substr(0, n)) != "accepted");
  }
  for (std::size_t i = 0; i < good.size(); ++i) {
    std::string bad = good;
    bad[i] = char(static_cast<unsigned char>(bad[i]) ^ 0xff);
    err(bad);
  }
}

// The readers at their edges (issue 39: each refusal was tested on its common case only): a
// tensor at a nonzero storage offset reading the last element of its storage (and one past it),
// the other dtype width of .npy and the other byte order, the other callable of a state_dict
// (_rebuild_parameter) and torch.* globals that are not the known ones.
TEST_CASE("compare.unusual_files: the .pt and .npz readers at their edges") {
  const std::vector<float> storage = {1, 2, 3, 4, 5, 6};
  auto pt = [&](int offset, std::vector<int> shape, std::vector<int> stride) {
    return tab::pytorch_file(tab::state_dict_pickle("w", "FloatStorage", 6, shape, stride, offset),
                             tab::raw_bytes(storage));
  };
  // Offset 2, a 2 x 2 view with strides (2, 1): elements 2..5, the last one the storage's last.
  CHECK(parse_tensor_file(pt(2, {2, 2}, {2, 1}), "offset.pt").at("w").data ==
        std::vector<double>{3, 4, 5, 6});
  // Offset 3: its last element would be element 6 of 6.
  CHECK(weights_error_message([&] {
          parse_tensor_file(pt(3, {2, 2}, {2, 1}), "past.pt");
        }).find("reads past the end of its storage of 6 elements") != std::string::npos);
  // One element at the last offset.
  CHECK(parse_tensor_file(pt(5, {1}, {1}), "last.pt").at("w").data == std::vector<double>{6});

  // _rebuild_parameter around the tensor (an nn.Parameter in the state_dict).
  std::string p = tab::state_dict_pickle("w", "FloatStorage", 6, {6}, {1});
  const std::string call = "ctorch._utils\n_rebuild_tensor_v2\n(";
  const std::size_t begin = p.find(call), end = p.find("tR", begin) + 2;
  const std::string tensor = p.substr(begin, end - begin);
  p.replace(begin, end - begin,
            "ctorch._utils\n_rebuild_parameter\n(" + tensor + "\x89" +
                "ccollections\nOrderedDict\n)R" + "tR");
  CHECK(parse_tensor_file(tab::pytorch_file(p, tab::raw_bytes(storage)), "param.pt").at("w").data ==
        std::vector<double>{1, 2, 3, 4, 5, 6});

  // torch.* names that are not the known callables are refused by name, before any call.
  const std::string good = tab::state_dict_pickle("w", "FloatStorage", 6, {6}, {1});
  for (const std::string& global :
       {std::string("torch._utils\n_rebuild_tensor_v3"), std::string("torch\nload"),
        std::string("torch.cuda\nFloatStorage"), std::string("torch\nFloatStorageX")}) {
    std::string bad = good;
    const std::string from = global.find("Storage") != std::string::npos
                                 ? "ctorch\nFloatStorage\n"
                                 : "ctorch._utils\n_rebuild_tensor_v2\n";
    bad.replace(bad.find(from), from.size(), "c" + global + "\n");
    std::string dotted = global;
    dotted[dotted.find('\n')] = '.';
    const std::string m = weights_error_message(
        [&] { parse_tensor_file(tab::pytorch_file(bad, tab::raw_bytes(storage)), "g.pt"); });
    INFO(m);
    CHECK(m.find("names the callable " + dotted + ", which this reader does not call") !=
          std::string::npos);
  }

  // .npy: float32 (the other width) read; big-endian (the other byte order) refused by name.
  const std::vector<float> f = {1.5f, -2.0f};
  CHECK(
      parse_npz(tab::zip({{"w.npy", tab::npy("<f4", "(2,)", false, tab::raw_bytes(f))}}), "f4.npz")
          .at("w")
          .data == std::vector<double>{1.5, -2.0});
  const std::vector<double> v = {1, 2};
  for (const char* descr : {">f8", ">f4", "|f8"}) {
    INFO(descr);
    CHECK(weights_error_message([&] {
            parse_npz(tab::zip({{"w.npy", tab::npy(descr, "(2,)", false, tab::raw_bytes(v))}}),
                      "be.npz");
          }).find(std::string("dtype '") + descr + "'") != std::string::npos);
  }
}
