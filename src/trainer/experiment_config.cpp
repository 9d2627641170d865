#include "trainer/experiment_config.hpp"

#include "trained_experiments.hpp"  // generated from families.cmake

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

namespace iclproof::trainer {

std::string to_string(model_kind k) {
  switch (k) {
    case model_kind::lsa:
      return "lsa";
    case model_kind::ahn_linear:
      return "ahn_linear";
    case model_kind::memformer_cgd:
      return "memformer_cgd";
    case model_kind::memformer_lfom:
      return "memformer_lfom";
    case model_kind::gdpp_stack:
      return "gdpp_stack";
  }
  return "?";
}

std::string to_string(input_kind k) {
  switch (k) {
    case input_kind::uniform:
      return "uniform";
    case input_kind::gaussian:
      return "gaussian";
    case input_kind::anisotropic:
      return "anisotropic";
  }
  return "?";
}

model_kind model_for_experiment(const std::string& e) {
  // The experiments of families.cmake (EXPERIMENTS name=model_kind).
  std::string known;
  for (const auto& t : trained_experiments) {
    if (t.name == e)
      for (const auto k : {model_kind::lsa, model_kind::ahn_linear, model_kind::memformer_cgd,
                           model_kind::memformer_lfom, model_kind::gdpp_stack})
        if (to_string(k) == t.model_kind) return k;
    known += (known.empty() ? "" : ", ") + std::string(t.name);
  }
  throw config_error(fmt::format("unknown experiment '{}' (known: {})", e, known));
}

std::vector<std::string> parameter_names(model_kind k) {
  switch (k) {
    case model_kind::lsa:
      return {"W_K", "W_Q", "W_V", "P"};
    case model_kind::ahn_linear:
      return {"A"};
    case model_kind::memformer_cgd:
      return {"alpha", "gamma"};
    case model_kind::memformer_lfom:
      return {"A", "Gamma"};
    case model_kind::gdpp_stack:
      return {"gamma", "eta"};
  }
  return {};
}

std::vector<training_stage> effective_stages(const experiment_settings& s) {
  if (!s.stages.empty()) return s.stages;
  return {training_stage{s.steps, parameter_names(s.model), s.learning_rate, s.lr_schedule}};
}

namespace {

template <class V>
V get_number(const nlohmann::json& j, const char* key, V lo, V hi, V fallback) {
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
  static const std::set<std::string> known{"d",
                                           "N",
                                           "layers",
                                           "tied",
                                           "inputs",
                                           "sigma_diag",
                                           "batch_size",
                                           "steps",
                                           "learning_rate",
                                           "init_std",
                                           "alpha_init",
                                           "gamma_init",
                                           "lr_schedule",
                                           "lfom_gamma_init",
                                           "resample_every",
                                           "grad_clip",
                                           "dtype",
                                           "log_every",
                                           "checkpoint_every",
                                           "seed",
                                           "stages",
                                           "comment"};
  if (!j.is_object()) throw config_error(fmt::format("preset '{}' must be a JSON object", preset));
  for (const auto& [key, value] : j.items())
    if (!known.count(key))
      throw config_error(fmt::format("preset '{}': unknown setting '{}'", preset, key));

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
    if (in == "uniform")
      s.inputs = input_kind::uniform;
    else if (in == "gaussian")
      s.inputs = input_kind::gaussian;
    else if (in == "anisotropic")
      s.inputs = input_kind::anisotropic;
    else
      throw config_error(
          fmt::format("setting 'inputs' = '{}' (want uniform, gaussian, anisotropic)", in));
  }
  if (s.inputs == input_kind::anisotropic) {
    if (!j.contains("sigma_diag") || !j["sigma_diag"].is_array())
      throw config_error(
          "anisotropic inputs need 'sigma_diag' (the diagonal D of Sigma = U^T D U)");
    for (const auto& v : j["sigma_diag"]) {
      if (!v.is_number() || !(v.get<double>() > 0) || !std::isfinite(v.get<double>()))
        throw config_error("'sigma_diag' entries must be finite numbers > 0");
      s.sigma_diag.push_back(v.get<double>());
    }
    if (static_cast<int>(s.sigma_diag.size()) != s.d)
      throw config_error(
          fmt::format("'sigma_diag' has {} entries, d = {}", s.sigma_diag.size(), s.d));
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
      throw config_error(
          fmt::format("setting 'lr_schedule' = '{}' (want constant or cosine)", s.lr_schedule));
  }
  if (j.contains("stages")) {
    const auto& st = j["stages"];
    if (!st.is_array() || st.empty())
      throw config_error("setting 'stages' must be a non-empty list of stage objects");
    if (st.size() > 64) throw config_error("setting 'stages' has more than 64 stages");
    const std::vector<std::string> names = parameter_names(s.model);
    std::string known_names;
    for (const auto& n : names) known_names += (known_names.empty() ? "" : ", ") + n;
    std::int64_t total = 0;
    for (std::size_t k = 0; k < st.size(); ++k) {
      const auto& e = st[k];
      const std::string where = fmt::format("stage {}", k + 1);
      if (!e.is_object()) throw config_error(fmt::format("{} must be a JSON object", where));
      for (const auto& [key, value] : e.items())
        if (key != "steps" && key != "train" && key != "learning_rate" && key != "lr_schedule" &&
            key != "comment")
          throw config_error(fmt::format(
              "{}: unknown key '{}' (want steps, train, learning_rate, lr_schedule)", where, key));
      if (!e.contains("steps")) throw config_error(fmt::format("{} has no 'steps'", where));
      training_stage stage;
      try {
        stage.steps = get_number<std::int64_t>(e, "steps", 1, std::int64_t{1} << 40, 0);
        stage.learning_rate = get_number<double>(e, "learning_rate", 1e-12, 10.0, s.learning_rate);
      } catch (const config_error& err) {
        throw config_error(fmt::format("{}: {}", where, err.what()));
      }
      stage.lr_schedule = s.lr_schedule;
      if (e.contains("lr_schedule")) {
        if (!e["lr_schedule"].is_string() ||
            (e["lr_schedule"] != "constant" && e["lr_schedule"] != "cosine"))
          throw config_error(
              fmt::format("{}: 'lr_schedule' must be \"constant\" or \"cosine\"", where));
        stage.lr_schedule = e["lr_schedule"];
      }
      if (!e.contains("train") || !e["train"].is_array() || e["train"].empty())
        throw config_error(fmt::format(
            "{}: 'train' must be a non-empty list of parameter names ({})", where, known_names));
      for (const auto& n : e["train"]) {
        if (!n.is_string() ||
            std::find(names.begin(), names.end(), n.get<std::string>()) == names.end())
          throw config_error(fmt::format("{}: 'train' entry {} is not a parameter of {} ({})",
                                         where, n.dump(), experiment, known_names));
        if (std::find(stage.train.begin(), stage.train.end(), n.get<std::string>()) !=
            stage.train.end())
          throw config_error(fmt::format("{}: 'train' names {} twice", where, n.dump()));
        stage.train.push_back(n.get<std::string>());
      }
      total += stage.steps;
      s.stages.push_back(std::move(stage));
    }
    if (total > (std::int64_t{1} << 40))
      throw config_error("the stages' steps add up to more than 2^40");
    s.steps = get_number<std::int64_t>(j, "steps", 0, total, total);
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
  s.checkpoint_every =
      get_number<std::int64_t>(j, "checkpoint_every", 1, std::int64_t{1} << 40, s.checkpoint_every);
  s.seed = get_number<std::uint64_t>(j, "seed", 0, std::uint64_t{1} << 53, s.seed);

  if (s.tied && s.model != model_kind::lsa)
    throw config_error("'tied' (recurrent weights) is available for the LSA experiments only");
  if (experiment == "vonoswald_single_lsa" && s.layers != 1)
    throw config_error("vonoswald_single_lsa has exactly one layer");
  return s;
}

nlohmann::json to_json(const experiment_settings& s) {
  nlohmann::json j = {
      {"d", s.d},
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
  if (s.model == model_kind::memformer_cgd || s.model == model_kind::gdpp_stack) {
    j["alpha_init"] = s.alpha_init;
    j["gamma_init"] = s.gamma_init;
  }
  if (s.model == model_kind::memformer_lfom) j["lfom_gamma_init"] = s.lfom_gamma_init;
  // Written only when present, so that a config without stages (and its checkpoints) reads the
  // same as before stages existed.
  if (!s.stages.empty()) {
    nlohmann::json st = nlohmann::json::array();
    for (const auto& stage : s.stages)
      st.push_back({{"steps", stage.steps},
                    {"train", stage.train},
                    {"learning_rate", stage.learning_rate},
                    {"lr_schedule", stage.lr_schedule}});
    j["stages"] = st;
  }
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
    throw config_error(
        fmt::format("config file {} has no preset '{}' (it has: {})", path, preset, names));
  }
  try {
    return parse_preset(j["experiment"].get<std::string>(), preset, j["presets"][preset]);
  } catch (const config_error& e) {
    throw config_error(fmt::format("{}: {}", path, e.what()));
  }
}

}  // namespace iclproof::trainer
