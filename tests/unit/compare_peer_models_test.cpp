// Peers' models read as they are (compare/peer_models.hpp, docs/weights.md): the safetensors
// reader's contract (one weights_file_error per defect), the ahn_allparam layout's mapping
// A_l = -sum_h Q_(l,h)^T checked against the PEER'S OWN prediction (each fixture in tests/peers/
// records a prompt and the prediction their Transformer_F made on it, in float32), and the
// refusals: a non-orthogonal U, an unknown layout, models no construction covers.
#include "compare/learned_models.hpp"
#include "compare/model_files.hpp"
#include "compare/peer_models.hpp"
#include "compare/weights_file.hpp"
#include "core/eigen_scalar.hpp"
#include "weights_error_message.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

using namespace iclproof;
using nlohmann::json;

namespace {

const std::string peers_dir = ICLPROOF_TEST_PEERS_DIR;

std::string safetensors_bytes(const std::vector<std::int64_t>& shape, const std::vector<float>& v,
                              const std::string& name = "allparam") {
  json h = {{name, {{"dtype", "F32"}, {"shape", shape}, {"data_offsets", {0, 4 * v.size()}}}}};
  std::string header = h.dump();
  while (header.size() % 8) header += ' ';
  std::string out(8, '\0');
  std::uint64_t n = header.size();
  for (int i = 0; i < 8; ++i) out[std::size_t(i)] = char((n >> (8 * i)) & 0xff);
  out += header;
  out.append(reinterpret_cast<const char*>(v.data()), 4 * v.size());
  return out;
}

// Writes a sidecar and its safetensors file to a temporary folder; returns the sidecar's path.
std::string write_model(const std::string& stem, const std::vector<std::int64_t>& shape,
                        const std::vector<float>& v, json data) {
  const auto dir = std::filesystem::temp_directory_path() / "iclproof_peer_models_test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / (stem + ".safetensors"), std::ios::binary) << safetensors_bytes(shape, v);
  const json sidecar = {{"schema", "iclproof-peer-model"},
                        {"schema_version", 1},
                        {"layout", "ahn_allparam"},
                        {"weights", stem + ".safetensors"},
                        {"data", std::move(data)}};
  std::ofstream(dir / (stem + ".json")) << sidecar.dump();
  return (dir / (stem + ".json")).string();
}

}  // namespace

TEST_CASE("compare.peers.safetensors: each defect is one error") {
  const std::string good = safetensors_bytes({2}, {1.5f, -2.0f});
  const auto t = parse_safetensors(good, "t");
  REQUIRE(t.at("allparam").data == std::vector<double>{1.5, -2.0});
  CHECK(weights_error_message([&] { parse_safetensors(good.substr(0, 5), "t"); }).find("8-byte") !=
        std::string::npos);
  CHECK(weights_error_message([&] {
          parse_safetensors(good.substr(0, good.size() - 1), "t");
        }).find("data_offsets") != std::string::npos);
  std::string huge_len = good;
  huge_len[7] = '\x7f';
  CHECK(weights_error_message([&] { parse_safetensors(huge_len, "t"); }).find("exceeds") !=
        std::string::npos);
  const std::string f16 = [&] {
    std::string s = good;
    const auto p = s.find("F32");
    s.replace(p, 3, "F16");
    return s;
  }();
  CHECK(weights_error_message([&] { parse_safetensors(f16, "t"); }).find("F16") !=
        std::string::npos);
  std::string nan = good;
  const float q = std::nanf("");
  std::memcpy(nan.data() + nan.size() - 4, &q, 4);
  CHECK(weights_error_message([&] { parse_safetensors(nan, "t"); }).find("not finite") !=
        std::string::npos);
}

TEST_CASE("compare.peers.ahn_allparam: A_l = -sum_h Q^T and P before the last layer kept") {
  const int d = 2;
  // (n_layer, n_head, 2, d, d) = (2, 2, 2, 2, 2): P = 0 everywhere, Q non-symmetric per head.
  std::vector<float> v(2 * 2 * 2 * d * d, 0.0f);
  auto at = [&](int l, int h, int k, int r, int c) -> float& {
    return v[std::size_t((((l * 2 + h) * 2 + k) * d + r) * d + c)];
  };
  at(0, 0, 1, 0, 1) = 1.0f;  // layer 1 head 1: Q = [[0, 1], [0, 0]]
  at(0, 1, 1, 0, 0) = 2.0f;  // layer 1 head 2: Q = [[2, 0], [0, 0]]
  at(1, 0, 1, 1, 1) = -3.0f;
  const json gaussian = {{"N", 7}, {"inputs", "gaussian"}};
  const weights_file w = read_weights_file(write_model("two_heads", {2, 2, 2, d, d}, v, gaussian));
  CHECK(w.kind == learned_model_kind::ahn_linear);
  CHECK(w.layers == 2);
  CHECK(w.N == 7);
  Mat<double> A0(2, 2), A1(2, 2);
  A0 << -2, 0, -1, 0;  // -(Q_1^T + Q_2^T)
  A1 << 0, 0, 0, 3;
  CHECK(w.parameter(0, "A") == A0);
  CHECK(w.parameter(1, "A") == A1);

  at(1, 0, 0, 0, 0) = 0.5f;  // P != 0 in the LAST layer: accepted, with a note
  const weights_file last = read_weights_file(write_model("p_last", {2, 2, 2, d, d}, v, gaussian));
  bool noted = false;
  for (const auto& n : last.provenance)
    noted = noted || n.find("does not act") != std::string::npos;
  CHECK(noted);
  at(0, 1, 0, 1, 0) = 0.25f;  // P != 0 in layer 1: the full model, every P and Q kept
  const weights_file full = read_weights_file(write_model("p_first", {2, 2, 2, d, d}, v, gaussian));
  CHECK(full.kind == learned_model_kind::ahn_full_linear);
  CHECK(full.experiment == "ahn_full_linear_transformer");
  REQUIRE(full.parameter_sets.size() == 2);
  Mat<double> P12 = Mat<double>::Zero(d, d), Q11(2, 2), Q12(2, 2), P21 = Mat<double>::Zero(d, d);
  P12(1, 0) = 0.25;  // P_h = allparam[l, h, 0]
  P21(0, 0) = 0.5;
  Q11 << 0, 0, 1, 0;  // Q_h = allparam[l, h, 1]^T (the peer's rows to the paper's columns)
  Q12 << 2, 0, 0, 0;
  CHECK(full.parameter(0, "P_1") == Mat<double>::Zero(d, d));
  CHECK(full.parameter(0, "P_2") == P12);
  CHECK(full.parameter(0, "Q_1") == Q11);
  CHECK(full.parameter(0, "Q_2") == Q12);
  CHECK(full.parameter(1, "P_1") == P21);
  CHECK(full.parameter(1, "Q_2") == Mat<double>::Zero(d, d));

  const json rotated = {{"N", 7},
                        {"inputs", "anisotropic"},
                        {"U", {{1.0, 0.1}, {0.0, 1.0}}},
                        {"D", {{1.0, 0.0}, {0.0, 0.5}}}};
  std::fill(v.begin(), v.end(), 0.0f);
  at(0, 0, 1, 0, 0) = -1.0f;
  CHECK(weights_error_message([&] {
          read_weights_file(write_model("bad_u", {2, 2, 2, d, d}, v, rotated));
        }).find("not orthogonal") != std::string::npos);
}

// The fixtures made with Ahn et al.'s own Transformer_F: iclproof's ahn_linear forward pass on
// the weights read through the layout reproduces the peer's prediction on the recorded prompt.
// Tolerance: the peer computes in float32; each of the L layers sums N products of (d+1)-term
// inner products, so its rounding error is within 8 (d+1) N L 2^-24 relative to the sizes of
// the prediction and the labels (|y_hat| + |y_q|), a loose form of the standard dot-product
// bound gamma_n = n u / (1 - n u).
// Memformer layouts: the memory adds up to L attention outputs per layer, so the same bound
// carries one more factor L (8 (d+1) N L^2 2^-24).
TEST_CASE("compare.peers.fixtures: the layout reproduces the peer's own prediction") {
  for (const std::string name :
       {"ahn_L1_gaussian", "ahn_L3_rotated", "ahn_L1_gaussian_pt", "ahn_L3_rotated_pt",
        "ahn_L2_with_P", "ahn_L2_with_P_pt", "ahn_L2_with_P_trained", "memformer_cgd_L3",
        "memformer_lfom_L3", "vonoswald_gd_L1_pt", "vonoswald_gd_L1_npz"}) {
    INFO(name);
    const std::string path = peers_dir + "/" + name + ".json";
    const weights_file w = read_weights_file(path);
    std::ifstream in(path);
    const json probe = json::parse(in)["probe"];
    const int d = w.d, N = w.N;
    Mat<double> X(d, N), Y(1, N), xq(d, 1);
    for (int i = 0; i < d; ++i)
      for (int n = 0; n < N; ++n) X(i, n) = probe["X"][std::size_t(i)][std::size_t(n)];
    for (int n = 0; n < N; ++n) Y(0, n) = probe["y"][std::size_t(n)];
    for (int i = 0; i < d; ++i) xq(i, 0) = probe["x_q"][std::size_t(i)];
    const auto pred = learned_predictions(to_scalar<double>(w), X, Y, xq);
    const double ours = pred.back()(0), peer = probe["y_hat_peer"], yq = probe["y_q"];
    const int memory =
        w.kind == learned_model_kind::memformer_cgd || w.kind == learned_model_kind::memformer_lfom
            ? w.layers
            : 1;
    const double tol = 8.0 * (d + 1) * N * w.layers * memory * std::ldexp(1.0, -24) *
                       (std::abs(peer) + std::abs(yq));
    INFO("ours " << ours << " peer " << peer << " tolerance " << tol);
    CHECK(std::abs(ours - peer) <= tol);
    // And not by accident: the prediction is far from 0, so the sign-flipped reading
    // (A_l = +Q^T, predicting about -ours) could not pass the same check.
    CHECK(std::abs(ours) > 100 * tol);
  }
}

// The .pt files torch.save wrote for the ahn fixtures (their Transformer_F's state_dict, an
// OrderedDict with _metadata) hold the very float32 values of the safetensors files.
TEST_CASE("compare.peers.pytorch: a .pt state_dict reads as the same tensors as its safetensors") {
  for (const std::string name :
       {"ahn_L1_gaussian", "ahn_L1_gaussian_sign_flipped", "ahn_L2_with_P", "ahn_L3_rotated"}) {
    INFO(name);
    const auto pt = parse_tensor_file(read_model_file_bytes(peers_dir + "/" + name + ".pt"), name);
    const auto st =
        parse_tensor_file(read_model_file_bytes(peers_dir + "/" + name + ".safetensors"), name);
    REQUIRE(pt.size() == 1);
    REQUIRE(st.size() == 1);
    CHECK(pt.at("allparam").shape == st.at("allparam").shape);
    CHECK(pt.at("allparam").data == st.at("allparam").data);
  }
}

namespace {
// A sidecar of `layout` for a safetensors file of several named float32 tensors.
std::string write_layout(
    const std::string& stem, const std::string& layout,
    const std::vector<
        std::pair<std::string, std::pair<std::vector<std::int64_t>, std::vector<float>>>>& ts,
    json extra) {
  json h = json::object();
  std::string data;
  for (const auto& [name, t] : ts) {
    h[name] = {{"dtype", "F32"},
               {"shape", t.first},
               {"data_offsets", {data.size(), data.size() + 4 * t.second.size()}}};
    data.append(reinterpret_cast<const char*>(t.second.data()), 4 * t.second.size());
  }
  std::string header = h.dump();
  while (header.size() % 8) header += ' ';
  std::string bytes(8, '\0');
  for (int i = 0; i < 8; ++i) bytes[std::size_t(i)] = char((header.size() >> (8 * i)) & 0xff);
  const auto dir = std::filesystem::temp_directory_path() / "iclproof_peer_models_test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / (stem + ".safetensors"), std::ios::binary) << bytes + header + data;
  json sidecar = {{"schema", "iclproof-peer-model"},
                  {"schema_version", 1},
                  {"layout", layout},
                  {"weights", stem + ".safetensors"}};
  sidecar.update(extra);
  std::ofstream(dir / (stem + ".json")) << sidecar.dump();
  return (dir / (stem + ".json")).string();
}
}  // namespace

// memformer_cgd: alpha_l = alpha[l] k_l, gamma_l = gamma[l] k_(l-1) / k_l, k_l = -sum_h
// mean(diag Q); identity_q and zero_p applied as the notebook's forward does.
TEST_CASE("compare.peers.memformer: the notebooks' parameters map to iclproof's memformer models") {
  const int d = 2, L = 2;
  std::vector<float> allparam(L * 1 * 2 * d * d, 0.0f);
  auto at = [&](int l, int k, int r, int c) -> float& {
    return allparam[std::size_t(((l * 2 + k) * d + r) * d + c)];
  };
  at(0, 1, 0, 0) = -1.0f;  // Q_0 = diag(-1, -3): mean -2, k_0 = 2
  at(0, 1, 1, 1) = -3.0f;
  at(0, 1, 0, 1) = 7.0f;   // off-diagonal: identity_q drops it
  at(1, 1, 0, 0) = -0.5f;  // Q_1 = diag(-0.5, -0.5): k_1 = 0.5
  at(1, 1, 1, 1) = -0.5f;
  at(0, 0, 1, 0) = 9.0f;  // P: zero_p drops it
  const json data = {{"data", {{"N", 6}, {"inputs", "gaussian"}}}, {"run_mode", 1}};
  const std::vector<float> alpha = {0.25f, 3.0f}, gamma = {5.0f, 0.5f};
  const weights_file w = read_weights_file(write_layout(
      "cgd", "memformer_cgd",
      {{"allparam", {{L, 1, 2, d, d}, allparam}}, {"alpha", {{L}, alpha}}, {"gamma", {{L}, gamma}}},
      data));
  CHECK(w.kind == learned_model_kind::memformer_cgd);
  CHECK(w.parameter(0, "alpha")(0, 0) == 0.25 * 2);
  CHECK(w.parameter(1, "alpha")(0, 0) == 3.0 * 0.5);
  CHECK(w.parameter(0, "gamma")(0, 0) == 0);
  CHECK(w.parameter(1, "gamma")(0, 0) == 0.5 * 2 / 0.5);
  json mode0 = data;
  mode0["run_mode"] = 0;
  CHECK(read_weights_file(write_layout("cgd0", "memformer_cgd",
                                       {{"allparam", {{L, 1, 2, d, d}, allparam}},
                                        {"alpha", {{L}, alpha}},
                                        {"gamma", {{L}, gamma}}},
                                       mode0))
            .parameter(1, "gamma")(0, 0) == 0);
  CHECK(weights_error_message([&] {
          read_weights_file(write_layout("cgd_no_mode", "memformer_cgd",
                                         {{"allparam", {{L, 1, 2, d, d}, allparam}},
                                          {"alpha", {{L}, alpha}},
                                          {"gamma", {{L}, gamma}}},
                                         {{"data", {{"N", 6}, {"inputs", "gaussian"}}}}));
        }).find("run_mode") != std::string::npos);
  CHECK(weights_error_message([&] {
          read_weights_file(write_layout("cgd_extra", "memformer_cgd",
                                         {{"allparam", {{L, 1, 2, d, d}, allparam}},
                                          {"alpha", {{L}, alpha}},
                                          {"gamma", {{L}, gamma}},
                                          {"beta", {{L}, gamma}}},
                                         data));
        }).find("tensor 'beta', which layout memformer_cgd") != std::string::npos);

  // memformer_lfom: Gamma_l = alpha[l, 0, n, d], the same at every token n.
  const int N = 3;
  std::vector<float> lfom_alpha(L * (N + 1) * (d + 1), 0.0f);
  for (int l = 0; l < L; ++l)
    for (int n = 0; n <= N; ++n)
      lfom_alpha[std::size_t((l * (N + 1) + n) * (d + 1) + d)] = 1.5f + l;
  const json lfom_data = {{"data", {{"N", N}, {"inputs", "gaussian"}}}, {"run_mode", 1}};
  const auto lfom = [&](const std::string& stem, const std::vector<float>& a) {
    return read_weights_file(write_layout("lfom_" + stem, "memformer_lfom",
                                          {{"allparam", {{L, 1, 2, d, d}, allparam}},
                                           {"alpha", {{L, 1, N + 1, d + 1}, a}},
                                           {"gamma", {{L, 1, N + 1, d + 1}, a}}},
                                          lfom_data));
  };
  const weights_file wl = lfom("good", lfom_alpha);
  CHECK(wl.kind == learned_model_kind::memformer_lfom);
  CHECK(wl.parameter(1, "Gamma")(0, 0) == 2.5);
  Mat<double> A0(2, 2);
  A0 << 1, 0, -7, 3;  // -Q_0^T, Q_0 as stored (identity_q is the CGD notebook's, not LFOM's)
  CHECK(wl.parameter(0, "A") == A0);
  // Per token in a layer before the last (layer 0 of L = 2): refused, at a context token and at
  // the LAST context token (n = N - 1, the edge next to the query).
  for (const int n : {0, N - 1}) {
    std::vector<float> per_token = lfom_alpha;
    per_token[std::size_t((0 * (N + 1) + n) * (d + 1) + d)] = 9.0f;
    CHECK(weights_error_message([&] { lfom("per_token", per_token); }).find("per token") !=
          std::string::npos);
  }
  // The query token of a layer before the last differs from its context tokens: refused too.
  std::vector<float> query_differs = lfom_alpha;
  query_differs[std::size_t((0 * (N + 1) + N) * (d + 1) + d)] = 9.0f;
  CHECK(weights_error_message([&] { lfom("query_differs", query_differs); }).find("per token") !=
        std::string::npos);
  // In the LAST layer a context token's alpha cannot reach the prediction: ignored and named;
  // Gamma is the query token's. The first context token (n = 0) and the last (n = N - 1).
  std::vector<float> last_layer = lfom_alpha;
  last_layer[std::size_t((1 * (N + 1) + 0) * (d + 1) + d)] = 9.0f;
  last_layer[std::size_t((1 * (N + 1) + N - 1) * (d + 1) + d)] = -4.0f;
  const weights_file ignored = lfom("last_layer_context", last_layer);
  CHECK(ignored.parameter(1, "Gamma")(0, 0) == 2.5);
  bool named = false;
  for (const auto& note : ignored.provenance)
    named = named || note.starts_with(
                         "ignored: alpha[1, 0, n, 2] for the context tokens n = 0, "
                         "2 of the last layer (values 9, -4 where the query token's "
                         "is 2.5)");
  CHECK(named);
  // The last layer's QUERY token is the one entry of it that acts: its value is Gamma.
  std::vector<float> last_query = lfom_alpha;
  last_query[std::size_t((1 * (N + 1) + N) * (d + 1) + d)] = 7.0f;
  CHECK(lfom("last_query", last_query).parameter(1, "Gamma")(0, 0) == 7.0);
}

// vonoswald_haiku: W = w^T (Haiku's x @ w), zero-padded to (d+1) x (d+1); refusals by name.
TEST_CASE("compare.peers.vonoswald: the Haiku tree maps to iclproof's lsa") {
  const int D = 3, K = 2;
  std::vector<float> q(D * K), v(D * D, 0.0f), o(D * D, 0.0f);
  for (int i = 0; i < D * K; ++i) q[std::size_t(i)] = float(i + 1);
  v[8] = -1.0f;
  o[8] = 0.5f;
  const std::string root = "Transformer_gd/~trans_block/layer_0/";
  const json data = {{"data", {{"N", 5}, {"inputs", "uniform"}}}};
  auto tree = [&](std::vector<
                  std::pair<std::string, std::pair<std::vector<std::int64_t>, std::vector<float>>>>
                      extra) {
    std::vector<std::pair<std::string, std::pair<std::vector<std::int64_t>, std::vector<float>>>>
        t = {{root + "query/w", {{D, K}, q}},
             {root + "key/w", {{D, K}, q}},
             {root + "value/w", {{D, D}, v}},
             {root + "linear/w", {{D, D}, o}}};
    for (auto& e : extra) t.push_back(e);
    return t;
  };
  const weights_file w = read_weights_file(write_layout("vo", "vonoswald_haiku", tree({}), data));
  CHECK(w.experiment == "vonoswald_single_lsa");
  CHECK(w.d == 2);
  Mat<double> WQ = Mat<double>::Zero(3, 3);
  WQ << 1, 3, 5, 2, 4, 6, 0, 0, 0;  // query.w^T padded with a zero row
  CHECK(w.parameter(0, "W_Q") == WQ);
  CHECK(w.parameter(0, "P")(2, 2) == 0.5);
  CHECK(weights_error_message([&] {
          read_weights_file(write_layout("vo_bias", "vonoswald_haiku",
                                         tree({{root + "query/b", {{K}, {0.0f, 1.0f}}}}), data));
        }).find("nonzero bias") != std::string::npos);
  CHECK(read_weights_file(write_layout("vo_zero_bias", "vonoswald_haiku",
                                       tree({{root + "query/b", {{K}, {0.0f, 0.0f}}}}), data))
            .d == 2);
  CHECK(weights_error_message([&] {
          read_weights_file(write_layout(
              "vo_ln", "vonoswald_haiku",
              tree({{"Transformer_gd/layer_norm/scale", {{D}, std::vector<float>(D, 1.0f)}}}),
              data));
        }).find("layer_norm/scale") != std::string::npos);
  json heads = data;
  heads["model"] = {{"num_heads", 2}};
  CHECK(weights_error_message([&] {
          read_weights_file(write_layout("vo_heads", "vonoswald_haiku", tree({}), heads));
        }).find("num_heads") != std::string::npos);
  json gaussian = {{"data", {{"N", 5}, {"inputs", "gaussian"}}}};
  CHECK(weights_error_message([&] {
          read_weights_file(write_layout("vo_gauss", "vonoswald_haiku", tree({}), gaussian));
        }).find("create_reg_data") != std::string::npos);

  // Every optional model field set: dampening scales P; y_update keeps only P's label row (their
  // y_update: the layer changes the labels only), which a nonzero x-row of linear.w shows.
  std::vector<float> o_x = o;
  o_x[1] = 0.7f;  // linear.w[0, 1]: P = linear.w^T has it at (1, 0), an x-row
  const auto with_model = [&](const std::string& stem, const json& model) {
    json extra = data;
    extra["model"] = model;
    std::vector<std::pair<std::string, std::pair<std::vector<std::int64_t>, std::vector<float>>>>
        t = {{root + "query/w", {{D, K}, q}},
             {root + "key/w", {{D, K}, q}},
             {root + "value/w", {{D, D}, v}},
             {root + "linear/w", {{D, D}, o_x}}};
    return read_weights_file(write_layout(stem, "vonoswald_haiku", t, extra));
  };
  const weights_file plain = with_model("vo_plain", json::object());
  CHECK(plain.parameter(0, "P")(1, 0) == double(0.7f));
  const weights_file damped = with_model("vo_damped", {{"dampening", 2}, {"y_update", false}});
  CHECK(damped.parameter(0, "P")(2, 2) == 1.0);
  CHECK(damped.parameter(0, "P")(1, 0) == 2 * double(0.7f));
  const weights_file y_only = with_model("vo_y_update", {{"y_update", true}});
  CHECK(y_only.parameter(0, "P")(1, 0) == 0.0);
  CHECK(y_only.parameter(0, "P")(0, 1) == 0.0);
  CHECK(y_only.parameter(0, "P")(2, 2) == 0.5);  // the label row is kept
  CHECK(y_only.parameter(0, "P").topRows(2).isZero(0));
  CHECK(weights_error_message([&] {
          with_model("vo_y_update_text", {{"y_update", "true"}});
        }).find("model.y_update must be true or false") != std::string::npos);
  CHECK(weights_error_message([&] {
          with_model("vo_dampening_text", {{"dampening", "1"}});
        }).find("model.dampening must be a number") != std::string::npos);
}
