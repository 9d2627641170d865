#include "compare/weights_file.hpp"

#include "trained_experiments.hpp"  // generated from families.cmake

#include <fmt/format.h>
#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <sstream>

namespace iclproof {

std::map<std::string, Eigen::MatrixXd> gdpp_layer_as_lsa(double gamma, double eta, int d, int N) {
  const Eigen::MatrixXd I = Eigen::MatrixXd::Identity(d + 1, d + 1);
  Eigen::MatrixXd KQ = I, V = Eigen::MatrixXd::Zero(d + 1, d + 1);
  KQ(d, d) = 0;
  V.topLeftCorner(d, d) = -(gamma / N) * Eigen::MatrixXd::Identity(d, d);
  V(d, d) = -eta / N;
  return {{"W_K", KQ}, {"W_Q", KQ}, {"W_V", V}, {"P", I}};
}

std::string to_string(learned_model_kind k) {
  switch (k) {
    case learned_model_kind::lsa:
      return "lsa";
    case learned_model_kind::ahn_linear:
      return "ahn_linear";
    case learned_model_kind::memformer_cgd:
      return "memformer_cgd";
    case learned_model_kind::memformer_lfom:
      return "memformer_lfom";
    case learned_model_kind::ahn_full_linear:
      return "ahn_full_linear";
  }
  return "?";
}

namespace {

// Collects the context ("parameter_sets[1].W_K.data[3]") of the value being checked so that
// each error names exactly where the defect is.
class reader {
 public:
  reader(std::string source, const weights_limits& limits)
      : source_(std::move(source)), limits_(limits) {}

  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw weights_file_error(
        fmt::format("weights file {}: {}{}", source_, where.empty() ? "" : where + ": ", what));
  }

  const nlohmann::json& field(const nlohmann::json& obj, const std::string& where,
                              const char* key) const {
    if (!obj.is_object()) fail(where, "expected a JSON object");
    const auto it = obj.find(key);
    if (it == obj.end()) fail(where, fmt::format("missing field '{}'", key));
    return *it;
  }

  std::string string_field(const nlohmann::json& obj, const std::string& where,
                           const char* key) const {
    const auto& v = field(obj, where, key);
    if (!v.is_string()) fail(join(where, key), "expected a string");
    const std::string s = v.get<std::string>();
    if (s.size() > 256) fail(join(where, key), "string longer than 256 characters");
    return s;
  }

  std::int64_t int_field(const nlohmann::json& obj, const std::string& where, const char* key,
                         std::int64_t lo, std::int64_t hi) const {
    const auto& v = field(obj, where, key);
    if (!v.is_number_integer())
      fail(join(where, key), fmt::format("expected an integer, got {}", type_of(v)));
    // Unsigned values above int64 max are out of every range we accept.
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(hi))
      fail(join(where, key), fmt::format("{} is outside [{}, {}]", v.dump(), lo, hi));
    const std::int64_t x = v.get<std::int64_t>();
    if (x < lo || x > hi) fail(join(where, key), fmt::format("{} is outside [{}, {}]", x, lo, hi));
    return x;
  }

  bool bool_field(const nlohmann::json& obj, const std::string& where, const char* key) const {
    const auto& v = field(obj, where, key);
    if (!v.is_boolean()) fail(join(where, key), "expected true or false");
    return v.get<bool>();
  }

  double number(const nlohmann::json& v, const std::string& where) const {
    if (!v.is_number()) fail(where, fmt::format("expected a number, got {}", type_of(v)));
    const double x = v.get<double>();
    if (!std::isfinite(x)) fail(where, "not a finite number (NaN, Inf or overflow)");
    return x;
  }

  // {"shape": [...], "data": ...} with the expected shape; rank 0 -> 1x1, rank 1 -> n x 1.
  Eigen::MatrixXd tensor(const nlohmann::json& t, const std::string& where,
                         const std::vector<int>& expect) const {
    const auto& shape = field(t, where, "shape");
    if (!shape.is_array()) fail(join(where, "shape"), "expected an array");
    std::vector<std::int64_t> got;
    for (const auto& s : shape) {
      if (!s.is_number_integer() || s.get<std::int64_t>() < 0 || s.get<std::int64_t>() > (1 << 20))
        fail(join(where, "shape"), "entries must be integers in [0, 2^20]");
      got.push_back(s.get<std::int64_t>());
    }
    const std::vector<std::int64_t> want(expect.begin(), expect.end());
    if (got != want)
      fail(where,
           fmt::format("shape [{}], expected [{}]", fmt::join(got, ", "), fmt::join(want, ", ")));
    const auto& data = field(t, where, "data");
    const std::string dw = join(where, "data");
    if (expect.empty()) {
      Eigen::MatrixXd m(1, 1);
      m(0, 0) = number(data, dw);
      return m;
    }
    if (!data.is_array() || data.size() != static_cast<std::size_t>(expect[0]))
      fail(dw, fmt::format("expected an array of {} entries", expect[0]));
    if (expect.size() == 1) {
      Eigen::MatrixXd m(expect[0], 1);
      for (int i = 0; i < expect[0]; ++i) m(i, 0) = number(data[i], fmt::format("{}[{}]", dw, i));
      return m;
    }
    Eigen::MatrixXd m(expect[0], expect[1]);
    for (int i = 0; i < expect[0]; ++i) {
      const auto& row = data[i];
      const std::string rw = fmt::format("{}[{}]", dw, i);
      if (!row.is_array() || row.size() != static_cast<std::size_t>(expect[1]))
        fail(rw, fmt::format("expected an array of {} entries", expect[1]));
      for (int j = 0; j < expect[1]; ++j) m(i, j) = number(row[j], fmt::format("{}[{}]", rw, j));
    }
    return m;
  }

  static std::string join(const std::string& where, const std::string& key) {
    return where.empty() ? key : where + "." + key;
  }
  static std::string type_of(const nlohmann::json& v) { return v.type_name(); }

  const weights_limits& limits() const { return limits_; }

 private:
  std::string source_;
  const weights_limits& limits_;
};

}  // namespace

int nesting_depth(std::string_view text, int cap) {
  int depth = 0, max_depth = 0;
  bool in_string = false, escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"')
      in_string = true;
    else if (c == '[' || c == '{') {
      max_depth = std::max(max_depth, ++depth);
      if (max_depth > cap) return max_depth;
    } else if (c == ']' || c == '}')
      --depth;
  }
  return max_depth;
}

std::string sigma_defect(const Eigen::MatrixXd& Sigma) {
  const Eigen::Index d = Sigma.rows();
  if (Sigma.cols() != d) return "not square";
  for (Eigen::Index i = 0; i < d; ++i)
    for (Eigen::Index k = 0; k < i; ++k)
      if (Sigma(i, k) != Sigma(k, i))
        return fmt::format("not symmetric: entry ({}, {}) differs from ({}, {})", i, k, k, i);
  for (Eigen::Index i = 0; i < d; ++i)
    if (!(Sigma(i, i) > 0)) return fmt::format("diagonal entry {} is not positive", i);
  // The targets w ~ N(0, Sigma^-1) and the inputs N(0, Sigma) need Sigma positive definite.
  // Tolerance: the eigenvalues of a symmetric matrix are computed with an absolute error of a
  // small multiple of eps * lambda_max (backward stable), so an eigenvalue within d eps
  // lambda_max of 0 cannot be told from a singular Sigma.
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(Sigma, Eigen::EigenvaluesOnly);
  if (eigen.info() != Eigen::Success) return "its eigenvalues could not be computed";
  const double lambda_min = eigen.eigenvalues().minCoeff(),
               lambda_max = eigen.eigenvalues().maxCoeff();
  const double floor = static_cast<double>(d) * std::numeric_limits<double>::epsilon() * lambda_max;
  if (!std::isfinite(lambda_max) || !(lambda_min > floor))
    return fmt::format(
        "not positive definite: smallest eigenvalue {:.17g}, not above d eps lambda_max = {:.17g} "
        "(x ~ N(0, Sigma) and w ~ N(0, Sigma^-1) need an invertible Sigma)",
        lambda_min, floor);
  return "";
}

weights_file parse_weights_file(std::string_view text, const std::string& source,
                                const weights_limits& limits) {
  reader r(source, limits);
  if (text.size() > limits.max_bytes)
    r.fail("",
           fmt::format("{} bytes, more than the limit of {} bytes", text.size(), limits.max_bytes));
  if (text.empty()) r.fail("", "empty file");
  // Binary model files passed where the JSON weights file belongs: named, not "invalid JSON".
  const auto starts_with = [&](std::string_view magic) {
    return text.substr(0, magic.size()) == magic;
  };
  const std::string not_json =
      "; iclproof compare reads the JSON weights file of src/trainer/WEIGHTS_FORMAT.md, or a "
      "peer-model sidecar naming a .pt, .npz or safetensors file with the data model it was "
      "trained on (docs/weights.md)";
  if (starts_with(std::string_view("PK\x03\x04", 4)))
    r.fail("",
           "a zip archive (a PyTorch .pt checkpoint, torch.save's format since 1.6?), not "
           "JSON" +
               not_json);
  if (static_cast<unsigned char>(text[0]) == 0x80)
    r.fail("", "a Python pickle (a legacy PyTorch .pt checkpoint?), not JSON" + not_json);
  if (text.size() >= 9 && text[8] == '{' && std::any_of(text.begin(), text.begin() + 8, [](char c) {
        return c != ' ' && c != '\t' && c != '\n' && c != '\r';
      }))
    r.fail("", "an 8-byte length and then '{' (a safetensors file?), not JSON" + not_json);
  if (const int depth = nesting_depth(text, limits.max_nesting); depth > limits.max_nesting)
    r.fail("", fmt::format("JSON nested deeper than {} levels", limits.max_nesting));
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::out_of_range& e) {
    r.fail("", fmt::format("a number is outside the double range (overflow): {}", e.what()));
  } catch (const nlohmann::json::exception& e) {
    std::string msg = e.what();
    for (char& c : msg)
      if (c == '\n' || c == '\r') c = ' ';
    r.fail("", "not valid JSON (truncated or damaged): " + msg);
  }
  if (!j.is_object()) r.fail("", "top level is not a JSON object");

  weights_file w;
  w.source = source;
  const std::string schema = r.string_field(j, "", "schema");
  if (schema != "iclproof-weights")
    r.fail("schema", fmt::format("'{}' is not 'iclproof-weights'", schema));
  w.schema_version = static_cast<int>(r.int_field(j, "", "schema_version", 0, 1 << 30));
  if (w.schema_version != supported_weights_schema_version)
    r.fail("schema_version",
           fmt::format("version {} is not supported (this iclproof reads version {})",
                       w.schema_version, supported_weights_schema_version));
  w.experiment = r.string_field(j, "", "experiment");
  // The experiments of families.cmake (EXPERIMENTS name=model_kind).
  const auto e = std::find_if(trained_experiments.begin(), trained_experiments.end(),
                              [&](const trained_experiment& t) { return t.name == w.experiment; });
  if (e == trained_experiments.end())
    r.fail("experiment", fmt::format("unknown experiment '{}'", w.experiment));
  w.kind = learned_model_kind::lsa;
  for (const auto k : {learned_model_kind::lsa, learned_model_kind::ahn_linear,
                       learned_model_kind::memformer_cgd, learned_model_kind::memformer_lfom})
    if (to_string(k) == e->model_kind) w.kind = k;
  // A GD++ stack is stored as its (gamma_l, eta_l) and read as the LSA stack of the same map.
  const bool gdpp_stack = std::string(e->model_kind) == "gdpp_stack";
  const std::string file_kind = gdpp_stack ? std::string("gdpp_stack") : to_string(w.kind);
  w.preset = r.string_field(j, "", "preset");
  w.seed = static_cast<std::uint64_t>(r.int_field(j, "", "seed", 0, std::int64_t{1} << 53));

  const auto& model = r.field(j, "", "model");
  const std::string kind = r.string_field(model, "model", "kind");
  if (kind != file_kind)
    r.fail("model.kind", fmt::format("'{}' does not match experiment {} (expected '{}')", kind,
                                     w.experiment, file_kind));
  w.d = static_cast<int>(r.int_field(model, "model", "d", 1, limits.max_d));
  w.N = static_cast<int>(r.int_field(model, "model", "N", 1, limits.max_N));
  w.layers = static_cast<int>(r.int_field(model, "model", "layers", 1, limits.max_layers));
  w.tied = r.bool_field(model, "model", "tied");
  if (w.tied && w.kind != learned_model_kind::lsa)
    r.fail("model.tied", "only LSA models may be tied");
  if (w.experiment == "vonoswald_single_lsa" && w.layers != 1)
    r.fail("model.layers", "a single-layer experiment with layers != 1");
  if (w.experiment == "vonoswald_gdpp" && !w.tied)
    r.fail("model.tied", "vonoswald_gdpp is recurrent: tied must be true");

  const auto& task = r.field(j, "", "task");
  w.inputs = r.string_field(task, "task", "inputs");
  if (w.inputs != "uniform" && w.inputs != "gaussian" && w.inputs != "anisotropic")
    r.fail("task.inputs", fmt::format("'{}' (want uniform, gaussian or anisotropic)", w.inputs));
  if (r.int_field(task, "task", "d", 1, limits.max_d) != w.d)
    r.fail("task.d", "differs from model.d");
  if (r.int_field(task, "task", "N", 1, limits.max_N) != w.N)
    r.fail("task.N", "differs from model.N");
  if (w.inputs == "anisotropic") {
    w.Sigma = r.tensor(r.field(task, "task", "Sigma"), "task.Sigma", {w.d, w.d});
    if (const std::string defect = sigma_defect(w.Sigma); !defect.empty())
      r.fail("task.Sigma", defect);
  }

  const auto& sets = r.field(j, "", "parameter_sets");
  const int expected_sets = w.tied ? 1 : w.layers;
  if (!sets.is_array() || sets.size() != static_cast<std::size_t>(expected_sets))
    r.fail("parameter_sets", fmt::format("expected an array of {} parameter sets", expected_sets));
  const int D = w.d + 1;
  std::vector<std::pair<std::string, std::vector<int>>> expected;
  switch (w.kind) {
    case learned_model_kind::lsa:
      if (gdpp_stack)
        expected = {{"gamma", {}}, {"eta", {}}};
      else
        expected = {{"W_K", {D, D}}, {"W_Q", {D, D}}, {"W_V", {D, D}}, {"P", {D, D}}};
      break;
    case learned_model_kind::ahn_linear:
      expected = {{"A", {w.d, w.d}}};
      break;
    case learned_model_kind::memformer_cgd:
      expected = {{"alpha", {}}, {"gamma", {}}};
      break;
    case learned_model_kind::memformer_lfom:
      expected = {{"A", {w.d, w.d}}, {"Gamma", {}}};
      break;
    case learned_model_kind::ahn_full_linear:  // no experiment of families.cmake has this kind
      r.fail("model.kind", "ahn_full_linear models are read from peers' checkpoints only");
  }
  for (int l = 0; l < expected_sets; ++l) {
    const std::string where = fmt::format("parameter_sets[{}]", l);
    const auto& set = sets[l];
    if (!set.is_object()) r.fail(where, "expected a JSON object");
    if (set.size() != expected.size()) {
      std::vector<std::string> names;
      for (const auto& [n, s] : expected) names.push_back(n);
      r.fail(where, fmt::format("expected exactly the parameters {}", fmt::join(names, ", ")));
    }
    std::map<std::string, Eigen::MatrixXd> values;
    for (const auto& [name, shape] : expected)
      values[name] = r.tensor(r.field(set, where, name.c_str()), reader::join(where, name), shape);
    if (w.kind == learned_model_kind::memformer_cgd && l == 0 && values["gamma"](0, 0) != 0.0)
      r.fail(where + ".gamma", "gamma_0 multiplies R_{-1} = 0 and must be exactly 0");
    if (gdpp_stack)
      values = gdpp_layer_as_lsa(values["gamma"](0, 0), values["eta"](0, 0), w.d, w.N);
    w.parameter_sets.push_back(std::move(values));
  }

  const auto& curve = r.field(j, "", "loss_curve");
  const auto& steps = r.field(curve, "loss_curve", "steps");
  const auto& loss = r.field(curve, "loss_curve", "loss");
  if (!steps.is_array() || !loss.is_array() || steps.size() != loss.size())
    r.fail("loss_curve", "steps and loss must be arrays of equal length");
  if (steps.size() > limits.max_curve_points)
    r.fail("loss_curve", fmt::format("{} points, more than the limit of {}", steps.size(),
                                     limits.max_curve_points));
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (!steps[i].is_number_integer() || steps[i].get<std::int64_t>() < 0)
      r.fail(fmt::format("loss_curve.steps[{}]", i), "expected a non-negative integer");
    const std::int64_t s = steps[i].get<std::int64_t>();
    if (!w.curve_steps.empty() && s <= w.curve_steps.back())
      r.fail(fmt::format("loss_curve.steps[{}]", i), "steps must increase");
    w.curve_steps.push_back(s);
    w.curve_loss.push_back(r.number(loss[i], fmt::format("loss_curve.loss[{}]", i)));
  }
  if (gdpp_stack)
    w.provenance.push_back(
        "GD++ stack: each layer's (gamma_l, eta_l) read as the LSA layer W_K = W_Q = diag(I_d, 0), "
        "W_V = diag(-(gamma_l / N) I_d, -eta_l / N), P = I (von Oswald's GD++ layer, the same "
        "map)");
  if (j.contains("config")) w.config = j["config"];
  if (j.contains("training")) w.training = j["training"];
  return w;
}

}  // namespace iclproof
