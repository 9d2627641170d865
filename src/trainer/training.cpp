#include "trainer/training.hpp"

#include "harness/progress.hpp"
#include "trainer/models.hpp"

#include <fmt/format.h>
#include <torch/version.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>

namespace iclproof::trainer {

namespace {

using clock_type = std::chrono::steady_clock;

// A tensor as {"shape": [...], "data": nested arrays} in double (float32 values convert exactly).
nlohmann::json tensor_to_json(const torch::Tensor& t) {
  const torch::Tensor c = t.detach().to(torch::kCPU, torch::kFloat64).contiguous();
  nlohmann::json shape = nlohmann::json::array();
  for (auto s : c.sizes()) shape.push_back(s);
  if (c.dim() == 0) return {{"shape", shape}, {"data", c.item<double>()}};
  if (c.dim() == 1) {
    nlohmann::json data = nlohmann::json::array();
    for (int64_t i = 0; i < c.size(0); ++i) data.push_back(c[i].item<double>());
    return {{"shape", shape}, {"data", data}};
  }
  if (c.dim() != 2)
    throw std::runtime_error("weights file: only tensors of rank 0, 1, 2 are written");
  const double* p = c.data_ptr<double>();
  nlohmann::json data = nlohmann::json::array();
  for (int64_t i = 0; i < c.size(0); ++i) {
    nlohmann::json row = nlohmann::json::array();
    for (int64_t j = 0; j < c.size(1); ++j) row.push_back(p[i * c.size(1) + j]);
    data.push_back(std::move(row));
  }
  return {{"shape", shape}, {"data", data}};
}

std::string readout_description(model_kind k) {
  switch (k) {
    case model_kind::lsa:
      return "tokens (x_j, y_j), query (x_q, 0); E <- E + (P W_V) C (W_K^T W_Q) E, C = sum over "
             "the N "
             "context tokens of e_i e_i^T; y_hat = -(y-part of the query token)";
    case model_kind::ahn_linear:
      return "Z_{l+1} = Z_l + (1/N) P Z M Z^T Q Z, P = [[0,0],[0,1]], Q = -[[A_l,0],[0,0]]; "
             "y_hat = -Z_L[d+1, N+1]";
    case model_kind::memformer_cgd:
      return "R_l = Attn_{A=I}(Z_l) + gamma_l R_{l-1}, Z_{l+1} = Z_l + (alpha_l/N) R_l; y_hat = "
             "-Z_L[d+1, N+1]";
    case model_kind::memformer_lfom:
      return "R_l = Attn_{A_l}(Z_l), Z_{l+1} = Z_l + (1/N) sum_{j<=l} Gamma_j R_j; y_hat = "
             "-Z_L[d+1, N+1]";
    case model_kind::gdpp_stack:
      return "GD++ layer l: x_j <- x_j - (gamma_l/N) (sum_i x_i x_i^T) x_j, y_j <- y_j - (eta_l/N) "
             "sum_i y_i x_i^T x_j over the N context tokens (query y starts at 0); y_hat = -(query "
             "y)";
  }
  return "";
}

struct loss_curve {
  std::vector<std::int64_t> steps;  // the step count at the end of each window
  std::vector<double> loss;         // mean training loss over the window
};

void write_text_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error(fmt::format("cannot write {}", tmp));
    out << text;
    out.flush();
    if (!out) throw std::runtime_error(fmt::format("write to {} failed", tmp));
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec)
    throw std::runtime_error(fmt::format("cannot rename {} to {}: {}", tmp, path, ec.message()));
}

nlohmann::json checkpoint_identity(const experiment_settings& s) {
  nlohmann::json j = to_json(s);
  j.erase("steps");             // a run may be resumed with a larger step budget
  j.erase("checkpoint_every");  // and a different checkpoint interval
  j["experiment"] = s.experiment;
  return j;
}

torch::Tensor string_tensor(const std::string& s) {
  return torch::from_blob(const_cast<char*>(s.data()), {static_cast<int64_t>(s.size())},
                          torch::kUInt8)
      .clone();
}

std::string tensor_string(const torch::Tensor& t) {
  const torch::Tensor c = t.to(torch::kCPU).contiguous();
  return std::string(reinterpret_cast<const char*>(c.data_ptr<uint8_t>()),
                     static_cast<std::size_t>(c.numel()));
}

// A checkpoint holds the optimizer of the stage that made the last step ("iclproof_stage"; absent
// in checkpoints written before stages existed, which were single-stage: 0).
void save_checkpoint(const std::string& path, const experiment_settings& s, const icl_model& model,
                     const torch::optim::Optimizer& optimizer, std::size_t stage, std::int64_t step,
                     const loss_curve& curve) {
  torch::serialize::OutputArchive ar;
  ar.write("iclproof_identity", string_tensor(checkpoint_identity(s).dump()));
  ar.write("iclproof_step", torch::tensor(step, torch::kInt64));
  ar.write("iclproof_stage", torch::tensor(static_cast<std::int64_t>(stage), torch::kInt64));
  ar.write("iclproof_curve_steps", torch::tensor(curve.steps, torch::kInt64));
  ar.write("iclproof_curve_loss", torch::tensor(curve.loss, torch::kFloat64));
  const auto& sets = model.parameter_sets();
  for (std::size_t l = 0; l < sets.size(); ++l)
    for (const auto& [name, t] : sets[l])
      ar.write(fmt::format("iclproof_param_{}_{}", l, name), t.detach());
  torch::serialize::OutputArchive opt_ar;
  optimizer.save(opt_ar);
  ar.write("iclproof_optimizer", opt_ar);
  const std::string tmp = path + ".tmp";
  ar.save_to(tmp);
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec)
    throw std::runtime_error(fmt::format("cannot rename {} to {}: {}", tmp, path, ec.message()));
}

// Restores parameters, loss curve and step; then `optimizer_for(step, stored_stage)` makes the
// optimizer of the stage that continues from `step` and returns it if the stored optimizer state
// belongs to that stage (resume inside a stage), or nullptr (resume at a stage boundary: the new
// stage starts with a fresh Adam, exactly as an uninterrupted run does).
std::int64_t load_checkpoint(
    const std::string& path, const experiment_settings& s, icl_model& model, loss_curve& curve,
    torch::Device device,
    const std::function<torch::optim::Optimizer*(std::int64_t, std::int64_t)>& optimizer_for) {
  if (!std::filesystem::exists(path))
    throw std::runtime_error(fmt::format("--resume: no checkpoint {}", path));
  torch::serialize::InputArchive ar;
  try {
    ar.load_from(path, device);
  } catch (const std::exception&) {
    throw std::runtime_error(fmt::format("--resume: {} is not a readable checkpoint", path));
  }
  try {
    torch::Tensor t;
    ar.read("iclproof_identity", t);
    const std::string stored = tensor_string(t);
    if (stored != checkpoint_identity(s).dump())
      throw std::runtime_error(
          fmt::format("--resume: checkpoint {} was made with different settings ({}); only steps "
                      "and checkpoint_every "
                      "may change",
                      path, stored));
    ar.read("iclproof_step", t);
    const std::int64_t step = t.item<std::int64_t>();
    torch::Tensor cs, cl;
    ar.read("iclproof_curve_steps", cs);
    ar.read("iclproof_curve_loss", cl);
    curve.steps.assign(cs.data_ptr<int64_t>(), cs.data_ptr<int64_t>() + cs.numel());
    const torch::Tensor cl64 = cl.to(torch::kCPU, torch::kFloat64).contiguous();
    curve.loss.assign(cl64.data_ptr<double>(), cl64.data_ptr<double>() + cl64.numel());
    std::vector<named_tensors> values = model.parameter_sets();
    for (std::size_t l = 0; l < values.size(); ++l)
      for (auto& [name, v] : values[l]) {
        torch::Tensor loaded;
        ar.read(fmt::format("iclproof_param_{}_{}", l, name), loaded);
        v = loaded;
      }
    model.assign(values);
    std::int64_t stored_stage = 0;
    if (ar.try_read("iclproof_stage", t)) stored_stage = t.item<std::int64_t>();
    if (torch::optim::Optimizer* optimizer = optimizer_for(step, stored_stage)) {
      torch::serialize::InputArchive opt_ar;
      ar.read("iclproof_optimizer", opt_ar);
      optimizer->load(opt_ar);
    }
    return step;
  } catch (const c10::Error& e) {
    throw std::runtime_error(fmt::format("--resume: checkpoint {} is incomplete or damaged: {}",
                                         path, e.what_without_backtrace()));
  }
}

// A live bar on a terminal; elsewhere (a log, a pipe) a line every few seconds
// (harness/progress.hpp); nothing with --quiet.
class progress_bar {
 public:
  progress_bar(bool enabled, bool lines, std::int64_t total) : enabled_(enabled), total_(total) {
    if (lines) lines_.emplace("iclproof-train");
  }
  void update(std::int64_t step, double loss, double steps_per_second, bool force = false) {
    if (lines_)
      lines_->update(0, 1, fmt::format("training (loss {:.4e})", loss), static_cast<long>(step),
                     static_cast<long>(total_), "steps");
    if (!enabled_) return;
    const auto now = clock_type::now();
    if (!force && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    const int width = 30;
    const int filled = total_ > 0 ? static_cast<int>(width * step / total_) : width;
    const double eta = steps_per_second > 0 ? (total_ - step) / steps_per_second : 0.0;
    std::fprintf(stderr, "\r[%s%s] %lld/%lld  loss %.4e  %.0f steps/s  ETA %.0fs  ",
                 std::string(filled, '=').c_str(), std::string(width - filled, ' ').c_str(),
                 static_cast<long long>(step), static_cast<long long>(total_), loss,
                 steps_per_second, eta);
    std::fflush(stderr);
  }
  void finish() {
    if (enabled_) std::fprintf(stderr, "\n");
  }

 private:
  bool enabled_;
  std::int64_t total_;
  clock_type::time_point last_{};
  std::optional<progress_reporter> lines_;
};

}  // namespace

std::vector<std::int64_t> trajectory_steps(std::int64_t steps, int points) {
  std::vector<std::int64_t> out;
  if (points <= 0 || steps <= 0) return out;
  for (int i = 0; i < points; ++i) {
    const double e = points == 1 ? 1.0 : static_cast<double>(i) / (points - 1);
    const auto k = static_cast<std::int64_t>(std::llround(std::pow(static_cast<double>(steps), e)));
    const std::int64_t clamped = std::min(std::max<std::int64_t>(k, 1), steps);
    if (out.empty() || out.back() != clamped) out.push_back(clamped);
  }
  return out;
}

std::string trajectory_path(const std::string& out_path, std::int64_t step) {
  std::string stem = out_path;
  if (stem.size() > 5 && stem.compare(stem.size() - 5, 5, ".json") == 0)
    stem.resize(stem.size() - 5);
  return fmt::format("{}.step-{}.json", stem, step);
}

experiment_settings settings_for(const train_options& opt) {
  experiment_settings s = load_experiment(opt.config_path, opt.preset);
  if (opt.steps || opt.seed || opt.dtype || opt.batch_size) {
    nlohmann::json j = to_json(s);
    if (opt.steps) j["steps"] = *opt.steps;
    if (opt.seed) j["seed"] = *opt.seed;
    if (opt.dtype) j["dtype"] = *opt.dtype;
    if (opt.batch_size) j["batch_size"] = *opt.batch_size;
    try {
      s = parse_preset(s.experiment, s.preset, j);
    } catch (const config_error& e) {
      throw config_error(fmt::format("command-line override: {}", e.what()));
    }
  }
  return s;
}

train_summary run_training(const train_options& opt) {
  const experiment_settings s = settings_for(opt);
  if (opt.out_path.empty()) throw std::runtime_error("--out is required");
  const torch::Device device = resolve_device(opt.device);
  const torch::Dtype dtype = resolve_dtype(s.dtype);
  const std::string ckpt_path =
      opt.checkpoint_path.empty() ? opt.out_path + ".ckpt" : opt.checkpoint_path;
  const std::string curve_path =
      opt.loss_curve_path.empty() ? opt.out_path + ".loss.csv" : opt.loss_curve_path;

  const task_sampler sampler(s, device, dtype);
  icl_model model(s, device, dtype);

  // The schedule: stage k trains its parameter groups with a fresh Adam over the steps
  // [stage_begin[k], stage_begin[k + 1]). Everything is a function of the step, so a resumed run
  // replays an uninterrupted one.
  const std::vector<training_stage> stages = effective_stages(s);
  std::vector<std::int64_t> stage_begin{0};
  for (const auto& stage : stages) stage_begin.push_back(stage_begin.back() + stage.steps);
  auto stage_of = [&](std::int64_t step) {
    std::size_t k = 0;
    while (k + 1 < stages.size() && step >= stage_begin[k + 1]) ++k;
    return k;
  };
  std::unique_ptr<torch::optim::Adam> optimizer;
  std::vector<torch::Tensor> stage_params;
  std::size_t current_stage = 0;
  auto begin_stage = [&](std::size_t k) {
    stage_params = model.parameters_named(stages[k].train);
    if (stage_params.empty())
      throw std::runtime_error(fmt::format("stage {} trains no parameter", k + 1));
    optimizer = std::make_unique<torch::optim::Adam>(
        stage_params, torch::optim::AdamOptions(stages[k].learning_rate));
    current_stage = k;
  };

  loss_curve curve;
  std::int64_t start = 0;
  if (opt.resume)
    start = load_checkpoint(
        ckpt_path, s, model, curve, device,
        [&](std::int64_t step, std::int64_t stored_stage) -> torch::optim::Optimizer* {
          const std::size_t k = stage_of(step);
          begin_stage(k);
          return stored_stage == static_cast<std::int64_t>(k) ? optimizer.get() : nullptr;
        });
  if (start > s.steps)
    throw std::runtime_error(
        fmt::format("--resume: checkpoint is at step {}, beyond steps = {}", start, s.steps));
  if (!optimizer) begin_stage(stage_of(start));

  // The loss curve as it goes: rewritten from the checkpoint's history, then appended and flushed
  // at every window.
  std::ofstream csv(curve_path, std::ios::trunc);
  if (!csv) throw std::runtime_error(fmt::format("cannot write loss curve {}", curve_path));
  csv << "step,loss\n";
  for (std::size_t i = 0; i < curve.steps.size(); ++i)
    csv << fmt::format("{},{:.17g}\n", curve.steps[i], curve.loss[i]);
  csv.flush();

  // The weights file (WEIGHTS_FORMAT.md) of the model as it is after steps_done steps: the final
  // file and the trajectory snapshots (same format; training.steps says which step).
  auto weights_json = [&](std::int64_t steps_done, double final_loss, double wall,
                          double steps_per_second) {
    nlohmann::json sets = nlohmann::json::array();
    std::vector<std::string> names;
    for (const auto& set : model.parameter_sets()) {
      nlohmann::json js = nlohmann::json::object();
      names.clear();
      for (const auto& [name, t] : set) {
        js[name] = tensor_to_json(t);
        names.push_back(name);
      }
      sets.push_back(std::move(js));
    }
    nlohmann::json task = {
        {"inputs", to_string(s.inputs)},
        {"d", s.d},
        {"N", s.N},
        {"targets", s.inputs == input_kind::anisotropic ? "y = w^T x, w ~ N(0, Sigma^-1)"
                                                        : "y = w^T x, w ~ N(0, I)"}};
    if (s.inputs == input_kind::anisotropic) {
      task["sigma_diag"] = s.sigma_diag;
      task["U"] = tensor_to_json(sampler.rotation());
      task["Sigma"] = tensor_to_json(sampler.sigma());
    }
    // The schedule that was run (also in "config" when the preset lists stages).
    nlohmann::json schedule = nlohmann::json::array();
    for (std::size_t k = 0; k < stages.size(); ++k)
      schedule.push_back({{"stage", k + 1},
                          {"first_step", stage_begin[k]},
                          {"end_step", stage_begin[k + 1]},
                          {"train", stages[k].train},
                          {"learning_rate", stages[k].learning_rate},
                          {"lr_schedule", stages[k].lr_schedule}});
    nlohmann::json w = {{"schema", weights_schema_name},
                        {"schema_version", weights_schema_version},
                        {"experiment", s.experiment},
                        {"preset", s.preset},
                        {"seed", s.seed},
                        {"config", to_json(s)},
                        {"model",
                         {{"kind", to_string(s.model)},
                          {"d", s.d},
                          {"N", s.N},
                          {"layers", s.layers},
                          {"tied", s.tied},
                          {"parameters", names},
                          {"readout", readout_description(s.model)},
                          {"loss", "(1/2) mean over tasks of (y_hat - y_q)^2"}}},
                        {"task", task},
                        {"parameter_sets", sets},
                        {"loss_curve", {{"steps", curve.steps}, {"loss", curve.loss}}},
                        {"training",
                         {{"steps", steps_done},
                          {"resumed_from_step", start},
                          {"schedule", schedule},
                          {"final_loss", final_loss},
                          {"wall_seconds", wall},
                          {"steps_per_second", steps_per_second},
                          {"device", device.is_cuda() ? "cuda" : "cpu"},
                          {"dtype", s.dtype},
                          {"torch_version", TORCH_VERSION},
                          {"torch_threads", torch::get_num_threads()}}}};
    return w;
  };

  const std::vector<std::int64_t> snapshot_steps = trajectory_steps(s.steps, opt.trajectory_points);
  const bool tty = !opt.quiet && ::isatty(::fileno(stderr));
  progress_bar bar(tty, !opt.quiet && !tty, s.steps);
  const auto all_params = model.parameters();
  task_batch batch;
  torch::Tensor window_sum =
      torch::zeros({}, torch::TensorOptions().dtype(torch::kFloat64).device(device));
  int window_count = 0;
  double last_window_loss = curve.loss.empty() ? std::nan("") : curve.loss.back();
  const auto t0 = clock_type::now();
  for (std::int64_t step = start; step < s.steps; ++step) {
    if (stage_of(step) != current_stage) begin_stage(stage_of(step));
    const training_stage& stage = stages[current_stage];
    if (!batch.X.defined() || step % s.resample_every == 0)
      batch = sampler.sample(mix_seed(s.seed, static_cast<std::uint64_t>(step / s.resample_every)),
                             s.batch_size);
    if (stage.lr_schedule == "cosine") {
      // lr(t) = lr0 (1 + cos(pi t / T)) / 2 with t, T the step within and the length of the stage:
      // a function of the step only, so resume is exact.
      const double t = static_cast<double>(step - stage_begin[current_stage]);
      const double lr =
          stage.learning_rate * 0.5 * (1.0 + std::cos(M_PI * t / static_cast<double>(stage.steps)));
      for (auto& group : optimizer->param_groups())
        static_cast<torch::optim::AdamOptions&>(group.options()).lr(lr);
    }
    // Every parameter's gradient is cleared (frozen ones too, which Adam of this stage does not
    // own), so nothing accumulates across steps or stages.
    for (auto& p : all_params)
      if (p.grad().defined()) p.mutable_grad().zero_();
    const torch::Tensor loss = regression_loss(model.predict(batch), batch.yq);
    loss.backward();
    if (s.grad_clip)
      for (const auto& p : stage_params) torch::nn::utils::clip_grad_norm_(p, *s.grad_clip);
    optimizer->step();
    window_sum += loss.detach().to(torch::kFloat64);
    ++window_count;
    const std::int64_t done = step + 1;
    if (done % s.log_every == 0 || done == s.steps) {
      last_window_loss = window_sum.item<double>() / window_count;
      window_sum.zero_();
      window_count = 0;
      if (!std::isfinite(last_window_loss)) {
        bar.finish();
        throw std::runtime_error(
            fmt::format("training diverged: mean loss {} over steps ending at {}; lower "
                        "learning_rate or init_std",
                        last_window_loss, done));
      }
      curve.steps.push_back(done);
      curve.loss.push_back(last_window_loss);
      csv << fmt::format("{},{:.17g}\n", done, last_window_loss);
      csv.flush();
      const double secs = std::chrono::duration<double>(clock_type::now() - t0).count();
      bar.update(done, last_window_loss, secs > 0 ? (done - start) / secs : 0.0, done == s.steps);
    }
    if (done % s.checkpoint_every == 0 && done != s.steps)
      save_checkpoint(ckpt_path, s, model, *optimizer, current_stage, done, curve);
    if (std::binary_search(snapshot_steps.begin(), snapshot_steps.end(), done)) {
      const double secs = std::chrono::duration<double>(clock_type::now() - t0).count();
      write_text_atomically(
          trajectory_path(opt.out_path, done),
          weights_json(done, last_window_loss, secs, secs > 0 ? (done - start) / secs : 0.0)
                  .dump(1) +
              "\n");
    }
  }
  const double wall = std::chrono::duration<double>(clock_type::now() - t0).count();
  bar.finish();
  save_checkpoint(ckpt_path, s, model, *optimizer, current_stage, s.steps, curve);

  train_summary summary;
  summary.steps = s.steps;
  summary.final_loss = last_window_loss;
  summary.wall_seconds = wall;
  summary.steps_per_second = wall > 0 ? (s.steps - start) / wall : 0.0;

  const nlohmann::json w = weights_json(s.steps, last_window_loss, wall, summary.steps_per_second);
  write_text_atomically(opt.out_path, w.dump(1) + "\n");
  return summary;
}

}  // namespace iclproof::trainer
