#include "trainer/experiment_config.hpp"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

namespace iclproof::trainer {

std::string to_string(model_kind k) {
  switch (k) {
    case model_kind::lsa: return "lsa";
    case model_kind::ahn_linear: return "ahn_linear";
    case model_kind::memformer_cgd: return "memformer_cgd";
    case model_kind::memformer_lfom: return "memformer_lfom";
  }
  return "?";
}

std::string to_string(input_kind k) {
  switch (k) {
    case input_kind::uniform: return "uniform";
    case input_kind::gaussian: return "gaussian";
    case input_kind::anisotropic: return "anisotropic";
  }
  return "?";
}

model_kind model_for_experiment(const std::string& e) {
  if (e == "vonoswald_single_lsa" || e == "vonoswald_gdpp" || e == "vonoswald_stack")
    return model_kind::lsa;
  if (e == "ahn_linear_transformer") return model_kind::ahn_linear;
  if (e == "memformer_cgd") return model_kind::memformer_cgd;
  if (e == "memformer_lfom") return model_kind::memformer_lfom;
  throw config_error(fmt::format(
      "unknown experiment '{}' (known: vonoswald_single_lsa, vonoswald_gdpp, vonoswald_stack, "
      "ahn_linear_transformer, memformer_cgd, memformer_lfom)",
      e));
}

namespace {

template <class V> V get_number(const nlohmann::json& j, const char* key, V lo, V hi, V fallback) {
  if (!j.contains(key)) return fallback;
  const auto& v = j.at(key);
  if (!v.is_number()) throw config_error(fmt::format("setting '{}' must be a number", key));
  if constexpr (std::is_integral_v<V>) {
    if (!v.is_number_integer())
      throw config_error(fmt::format("setting '{}' must be an integer", key));
  }
  const double x = v.get<double>();
  if (!std::isfinite(x) || x < static_cast<double>(lo) || x > static_cast<double>(hi))
    throw config_error(fmt::format("setting '{}' = {} is outside [{}, {}]", key, v.dump(), lo, hi));
  return v.get<V>();
}

}  // namespace

experiment_settings parse_preset(const std::string& experiment, const std::string& preset,
                                 const nlohmann::json& j) {
  static const std::set<std::string> known{
      "d",          "N",          "layers",         "tied",          "inputs",
      "sigma_diag", "batch_size", "steps",          "learning_rate", "init_std",
      "alpha_init", "gamma_init", "lr_schedule", "lfom_gamma_init", "resample_every", "grad_clip",
      "dtype",      "log_every",  "checkpoint_every", "seed",          "comment"};
  if (!j.is_object()) throw config_error(fmt::format("preset '{}' must be a JSON object", preset));
  for (const auto& [key, value] : j.items())
    if (!known.count(key)) throw config_error(fmt::format("preset '{}': unknown setting '{}'", preset, key));

  experiment_settings s;
  s.experiment = experiment;
  s.preset = preset;
  s.model = model_for_experiment(experiment);
  s.d = get_number<int>(j, "d", 1, 256, s.d);
  s.N = get_number<int>(j, "N", 1, 4096, s.N);
  s.layers = get_number<int>(j, "layers", 1, 64, s.layers);
  if (j.contains("tied")) {
    if (!j["tied"].is_boolean()) throw config_error("setting 'tied' must be true or false");
    s.tied = j["tied"].get<bool>();
  }
  if (j.contains("inputs")) {
    if (!j["inputs"].is_string()) throw config_error("setting 'inputs' must be a string");
    const std::string in = j["inputs"];
    if (in == "uniform") s.inputs = input_kind::uniform;
    else if (in == "gaussian") s.inputs = input_kind::gaussian;
    else if (in == "anisotropic") s.inputs = input_kind::anisotropic;
    else throw config_error(fmt::format("setting 'inputs' = '{}' (want uniform, gaussian, anisotropic)", in));
  }
  if (s.inputs == input_kind::anisotropic) {
    if (!j.contains("sigma_diag") || !j["sigma_diag"].is_array())
      throw config_error("anisotropic inputs need 'sigma_diag' (the diagonal D of Sigma = U^T D U)");
    for (const auto& v : j["sigma_diag"]) {
      if (!v.is_number() || !(v.get<double>() > 0) || !std::isfinite(v.get<double>()))
        throw config_error("'sigma_diag' entries must be finite numbers > 0");
      s.sigma_diag.push_back(v.get<double>());
    }
    if (static_cast<int>(s.sigma_diag.size()) != s.d)
      throw config_error(fmt::format("'sigma_diag' has {} entries, d = {}", s.sigma_diag.size(), s.d));
  } else if (j.contains("sigma_diag")) {
    throw config_error("'sigma_diag' applies only to inputs = anisotropic");
  }
  s.batch_size = get_number<int>(j, "batch_size", 1, 1 << 22, s.batch_size);
  s.steps = get_number<std::int64_t>(j, "steps", 0, std::int64_t{1} << 40, s.steps);
  s.learning_rate = get_number<double>(j, "learning_rate", 1e-12, 10.0, s.learning_rate);
  if (j.contains("lr_schedule")) {
    if (!j["lr_schedule"].is_string()) throw config_error("setting 'lr_schedule' must be a string");
    s.lr_schedule = j["lr_schedule"];
    if (s.lr_schedule != "constant" && s.lr_schedule != "cosine")
      throw config_error(fmt::format("setting 'lr_schedule' = '{}' (want constant or cosine)", s.lr_schedule));
  }
  s.init_std = get_number<double>(j, "init_std", 0.0, 100.0, s.init_std);
  s.alpha_init = get_number<double>(j, "alpha_init", -100.0, 100.0, s.alpha_init);
  s.gamma_init = get_number<double>(j, "gamma_init", -100.0, 100.0, s.gamma_init);
  s.lfom_gamma_init = get_number<double>(j, "lfom_gamma_init", -100.0, 100.0, s.lfom_gamma_init);
  s.resample_every = get_number<int>(j, "resample_every", 1, 1 << 30, s.resample_every);
  if (j.contains("grad_clip") && !j["grad_clip"].is_null())
    s.grad_clip = get_number<double>(j, "grad_clip", 1e-12, 1e12, 1.0);
  if (j.contains("dtype")) {
    if (!j["dtype"].is_string()) throw config_error("setting 'dtype' must be a string");
    s.dtype = j["dtype"];
    if (s.dtype != "float32" && s.dtype != "float64")
      throw config_error(fmt::format("setting 'dtype' = '{}' (want float32 or float64)", s.dtype));
  }
  s.log_every = get_number<int>(j, "log_every", 1, 1 << 30, s.log_every);
  s.checkpoint_every = get_number<std::int64_t>(j, "checkpoint_every", 1, std::int64_t{1} << 40, s.checkpoint_every);
  s.seed = get_number<std::uint64_t>(j, "seed", 0, std::uint64_t{1} << 53, s.seed);

  if (s.tied && s.model != model_kind::lsa)
    throw config_error("'tied' (recurrent weights) is available for the LSA experiments only");
  if (experiment == "vonoswald_single_lsa" && s.layers != 1)
    throw config_error("vonoswald_single_lsa has exactly one layer");
  return s;
}

nlohmann::json to_json(const experiment_settings& s) {
  nlohmann::json j = {{"d", s.d},
                      {"N", s.N},
                      {"layers", s.layers},
                      {"tied", s.tied},
                      {"inputs", to_string(s.inputs)},
                      {"batch_size", s.batch_size},
                      {"steps", s.steps},
                      {"learning_rate", s.learning_rate},
                      {"lr_schedule", s.lr_schedule},
                      {"init_std", s.init_std},
                      {"resample_every", s.resample_every},
                      {"grad_clip", s.grad_clip ? nlohmann::json(*s.grad_clip) : nlohmann::json(nullptr)},
                      {"dtype", s.dtype},
                      {"log_every", s.log_every},
                      {"checkpoint_every", s.checkpoint_every},
                      {"seed", s.seed}};
  if (s.inputs == input_kind::anisotropic) j["sigma_diag"] = s.sigma_diag;
  if (s.model == model_kind::memformer_cgd) {
    j["alpha_init"] = s.alpha_init;
    j["gamma_init"] = s.gamma_init;
  }
  if (s.model == model_kind::memformer_lfom) j["lfom_gamma_init"] = s.lfom_gamma_init;
  return j;
}

experiment_settings load_experiment(const std::string& path, const std::string& preset) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw config_error(fmt::format("cannot read config file {}", path));
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::exception& e) {
    throw config_error(fmt::format("config file {} is not valid JSON: {}", path, e.what()));
  }
  if (!j.is_object() || !j.contains("experiment") || !j["experiment"].is_string())
    throw config_error(fmt::format("config file {} has no string field 'experiment'", path));
  if (!j.contains("presets") || !j["presets"].is_object())
    throw config_error(fmt::format("config file {} has no object field 'presets'", path));
  if (!j["presets"].contains(preset)) {
    std::string names;
    for (const auto& [k, v] : j["presets"].items()) names += (names.empty() ? "" : ", ") + k;
    throw config_error(fmt::format("config file {} has no preset '{}' (it has: {})", path, preset, names));
  }
  try {
    return parse_preset(j["experiment"].get<std::string>(), preset, j["presets"][preset]);
  } catch (const config_error& e) {
    throw config_error(fmt::format("{}: {}", path, e.what()));
  }
}

}  // namespace iclproof::trainer
