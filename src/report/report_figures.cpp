// The report's figures: the precision sweep per family, panels of at most max_series_per_panel
// series, and the trained models' figures (loss curve, metrics along training, per-layer
// distances and coefficients, weight heatmaps).
#include "report/report_figures.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <set>
#include <utility>

namespace iclproof {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {
std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += ", ";
    out += item;
  }
  return out;
}
}  // namespace

// A figure with more than max_series_per_panel series becomes several panels (small multiples):
// the measured series are shared out in order, every bound / reference line is repeated in each
// panel. The first panel keeps the id; the others get "_2", "_3", ... and "(k of n)" titles.
std::vector<plot_figure> split_into_panels(const plot_figure& fig) {
  if (fig.lines.size() <= max_series_per_panel) return {fig};
  std::vector<plot_line> data, guides;
  for (const auto& l : fig.lines) (l.style == line_style::measured ? data : guides).push_back(l);
  const std::size_t room =
      guides.size() < max_series_per_panel ? max_series_per_panel - guides.size() : 1;
  const std::size_t panels = (data.size() + room - 1) / room;
  const std::size_t per_panel = (data.size() + panels - 1) / panels;  // balanced: 5 + 5, not 6 + 4
  std::vector<plot_figure> out;
  for (std::size_t k = 0; k < panels; ++k) {
    plot_figure p = fig;
    if (k > 0) p.id = fmt::format("{}_{}", fig.id, k + 1);
    p.title = fmt::format("{} ({} of {})", fig.title, k + 1, panels);
    p.lines.assign(
        data.begin() + static_cast<std::ptrdiff_t>(std::min(data.size(), k * per_panel)),
        data.begin() + static_cast<std::ptrdiff_t>(std::min(data.size(), (k + 1) * per_panel)));
    for (const auto& g : guides) p.lines.push_back(g);
    if (k + 1 < panels) p.caption = "";  // the caption once, under the last panel
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<plot_figure> sweep_figures(
    const std::string& family, const run_report& r, const std::vector<std::string>& swept,
    const std::vector<std::pair<std::string, std::string>>& excluded) {
  const std::string short_title =
      describe_family(family).title.substr(0, describe_family(family).title.find(':'));
  plot_figure abs_fig, eps_fig;
  abs_fig.id = family + ".error_vs_precision";
  abs_fig.title = short_title + ": max error vs working precision";
  abs_fig.y_label = "log2(max error)";
  eps_fig.id = family + ".error_in_eps_vs_precision";
  eps_fig.title = short_title + ": max error in units of eps";
  eps_fig.y_label = "log2(max error / eps)";
  for (auto* f : {&abs_fig, &eps_fig}) {
    f->family = family;
    f->x_label = "working precision p (bits)";
  }
  std::vector<std::string> exact, failing;
  for (const auto& name : swept) {
    plot_line line;
    line.label = name.substr(name.find('.') + 1);
    plot_line in_eps = line;
    bool all_zero = true;
    for (const auto& s : r.sweep) {
      if (s.property != name) continue;
      if (s.verdict != "PASS") failing.push_back(fmt::format("{} at {} bits", line.label, s.bits));
      if (std::isfinite(s.log2_max_error)) {
        line.points.push_back({static_cast<double>(s.bits), s.log2_max_error});
        in_eps.points.push_back({static_cast<double>(s.bits), s.log2_max_error - (1.0 - s.bits)});
        all_zero = false;
      } else if (!(std::isinf(s.log2_max_error) && s.log2_max_error < 0)) {
        all_zero = false;
      }
    }
    if (all_zero) exact.push_back(line.label);
    abs_fig.lines.push_back(std::move(line));
    eps_fig.lines.push_back(std::move(in_eps));
  }
  plot_line eps_line{"eps = 2^(1-p)", line_style::reference, {}};
  plot_line unit_line{"one eps", line_style::reference, {}};
  std::set<int> bits;
  for (const auto& s : r.sweep) bits.insert(s.bits);
  for (int b : bits) {
    eps_line.points.push_back({static_cast<double>(b), 1.0 - b});
    unit_line.points.push_back({static_cast<double>(b), 0.0});
  }
  abs_fig.lines.push_back(std::move(eps_line));
  eps_fig.lines.push_back(std::move(unit_line));
  abs_fig.caption = fmt::format(
      "Largest error of each exact identity over {} cases at each precision (MPFR). The dotted "
      "line is eps = 2^(1-p): a line parallel to it is an error that is a fixed multiple of eps, "
      "as rounding-error analysis predicts; a flat line would be an approximation error, not "
      "rounding.",
      r.params.sweep_cases);
  eps_fig.caption =
      "The same errors divided by eps: a flat line means the error is the same number of eps at "
      "every precision (a backward-stable computation); a line rising with p would be an error "
      "that does not shrink with the precision.";
  std::string extra;
  if (!exact.empty()) {
    extra += " Exact at every precision (zero error, nothing to draw): " + join(exact) + ".";
  }
  if (!failing.empty()) {
    extra += " FAILED in the sweep: " + join(failing) + ".";
  }
  for (const auto& [name, reason] : excluded) extra += " Not swept: " + name + " (" + reason + ").";
  abs_fig.caption += extra;
  eps_fig.caption += extra;
  std::vector<plot_figure> out = split_into_panels(abs_fig);
  for (auto& f : split_into_panels(eps_fig)) out.push_back(std::move(f));
  return out;
}

// ---- trained models -------------------------------------------------------------------------

namespace {
// A figure of the trained models' section: its id, title and axis labels.
plot_figure trained_figure(std::string id, std::string title, std::string x_label,
                           std::string y_label) {
  plot_figure fig;
  fig.id = std::move(id);
  fig.family = "trained";
  fig.title = std::move(title);
  fig.x_label = std::move(x_label);
  fig.y_label = std::move(y_label);
  return fig;
}
}  // namespace

plot_figure training_curve_figure(const weights_file& w, const std::string& id_prefix) {
  plot_figure fig = trained_figure(
      id_prefix + ".loss_curve",
      fmt::format("Training loss: {} ({} preset, seed {})", w.experiment, w.preset, w.seed),
      "training step (optimiser updates)", "loss (squared error / 2, log scale)");
  fig.log_y = true;
  fig.caption = "Loss curve recorded by iclproof-train in " +
                fs::path(w.source).filename().string() +
                ": mean training loss over each logging window ending at the step "
                "(loss = (1/2) mean (y_hat - y_q)^2 on the trainer's own task stream).";
  plot_line line{"training loss", line_style::measured, {}};
  for (std::size_t i = 0; i < w.curve_steps.size(); ++i)
    line.points.push_back({static_cast<double>(w.curve_steps[i]), w.curve_loss[i]});
  fig.lines.push_back(std::move(line));
  return fig;
}

namespace {
std::string number_or_text(double x) { return fmt::format("{:.4g}", x); }
}  // namespace

// Metric vs training step, one line per seed (at most 5, so that a figure has <= 6 series), the
// gate's threshold drawn over them; a ">=" metric (a cosine) is drawn as 1 - value.
std::vector<plot_figure> trajectory_figures(const compare_trajectory_result& t,
                                            const std::string& id_prefix) {
  std::vector<plot_figure> out;
  if (t.points.empty()) return out;
  std::vector<std::uint64_t> seeds;
  for (const auto& p : t.points)
    if (std::find(seeds.begin(), seeds.end(), p.seed) == seeds.end()) seeds.push_back(p.seed);
  const std::size_t shown = std::min<std::size_t>(seeds.size(), 5);
  const std::string seeds_note =
      shown < seeds.size()
          ? fmt::format(" The first {} of {} seeds are drawn.", shown, seeds.size())
          : "";
  double first_step = 0, last_step = 0;
  for (const auto& p : t.points) {
    if (first_step == 0 || p.step < first_step) first_step = static_cast<double>(p.step);
    last_step = std::max(last_step, static_cast<double>(p.step));
  }
  auto safe = [](std::string id) {
    for (char& c : id)
      if (c == '.') c = '_';
    return id;
  };
  for (const auto& m : t.points.front().comparison.metrics) {
    if (!m.gated) continue;
    const bool flip = m.relation == ">=";
    plot_figure fig = trained_figure(
        id_prefix + "." + safe(m.name),
        fmt::format("{} along training: {}{}", t.experiment, flip ? "1 - " : "", m.name),
        "training step (log scale)", fmt::format("{}{} (log scale)", flip ? "1 - " : "", m.name));
    fig.log_x = true;
    fig.log_y = true;
    fig.caption = fmt::format(
        "{}{} of the snapshots written by iclproof-train --trajectory ({} preset), each compared "
        "on {} fresh tasks; one line per training seed; dashed: the gate ({} {} {}). A point "
        "below the dashed line passes.{}",
        flip ? "1 - " : "", m.name, t.preset, t.points.front().comparison.tasks, m.name, m.relation,
        number_or_text(m.threshold), seeds_note);
    for (std::size_t k = 0; k < shown; ++k) {
      plot_line line{fmt::format("seed {}", seeds[k]), line_style::measured, {}};
      for (const auto& p : t.points) {
        if (p.seed != seeds[k]) continue;
        for (const auto& q : p.comparison.metrics)
          if (q.name == m.name) {
            const double y = flip ? 1.0 - q.value : q.value;
            if (std::isfinite(y) && y > 0) line.points.push_back({static_cast<double>(p.step), y});
          }
      }
      fig.lines.push_back(std::move(line));
    }
    const double thr = flip ? 1.0 - m.threshold : m.threshold;
    fig.lines.push_back(
        {fmt::format("gate: {} {} {}", m.name, m.relation, number_or_text(m.threshold)),
         line_style::bound,
         {{first_step, thr}, {last_step, thr}}});
    out.push_back(std::move(fig));
  }
  // Distance of the learned GD step to the exact population optimum eta* (single layer).
  if (t.points.front().eta_relative_difference) {
    plot_figure fig =
        trained_figure(id_prefix + ".eta_relative_difference",
                       t.experiment + " along training: |eta_learned - eta*| / eta*",
                       "training step (log scale)", "|eta_learned - eta*| / eta* (log scale)");
    fig.log_x = true;
    fig.log_y = true;
    fig.caption =
        "Relative distance of the step size read off the learned weights to the exact population "
        "optimum eta* (src/references/population_optima.hpp), one line per seed. Not a gate of "
        "compare; the dotted line is the target set for the paper preset, a relative distance "
        "below "
        "1e-3." +
        seeds_note;
    for (std::size_t k = 0; k < shown; ++k) {
      plot_line line{fmt::format("seed {}", seeds[k]), line_style::measured, {}};
      for (const auto& p : t.points)
        if (p.seed == seeds[k] && p.eta_relative_difference &&
            std::isfinite(*p.eta_relative_difference) && *p.eta_relative_difference > 0)
          line.points.push_back({static_cast<double>(p.step), *p.eta_relative_difference});
      fig.lines.push_back(std::move(line));
    }
    fig.lines.push_back({"target 1e-3 (paper preset; not a gate)",
                         line_style::reference,
                         {{first_step, 1e-3}, {last_step, 1e-3}}});
    out.push_back(std::move(fig));
  }
  return out;
}

namespace {
// Rows of a per-layer table (an array of objects), or nullptr.
const json* layer_rows(const json& tables, const std::string& key) {
  if (!tables.contains(key)) return nullptr;
  const json& t = tables[key];
  if (!t.is_array() || t.size() < 2) return nullptr;
  for (const auto& row : t)
    if (!row.is_object()) return nullptr;
  return &t;
}
// 1-based layer (or parameter set) number of a row.
double layer_number(const json& row, std::size_t index) {
  if (row.contains("layer") && row["layer"].is_number()) return row["layer"].get<double>();
  if (row.contains("parameter_set") && row["parameter_set"].is_number())
    return row["parameter_set"].get<double>() + 1;
  return static_cast<double>(index + 1);
}
bool is_layer_key(const std::string& k) { return k == "layer" || k == "parameter_set"; }
bool is_distance_key(const std::string& k) { return k.find("dist") != std::string::npos; }
std::vector<plot_line> column_lines(const json& rows,
                                    const std::function<bool(const std::string&)>& want) {
  std::vector<plot_line> lines;
  for (const auto& [key, value] : rows.front().items()) {
    if (is_layer_key(key) || !value.is_number() || !want(key)) continue;
    plot_line line{key, line_style::measured, {}};
    for (std::size_t i = 0; i < rows.size(); ++i)
      if (rows[i].contains(key) && rows[i][key].is_number())
        line.points.push_back({layer_number(rows[i], i), rows[i][key].get<double>()});
    lines.push_back(std::move(line));
  }
  return lines;
}
bool all_positive(const std::vector<plot_line>& lines) {
  for (const auto& l : lines)
    for (const auto& p : l.points)
      if (!(p.y > 0)) return false;
  return true;
}
// A per-layer figure (x = the layer's index) with its lines, as panels appended to figs.
void add_per_layer_panels(std::vector<plot_figure>& figs, plot_figure fig,
                          std::vector<plot_line> lines) {
  fig.lines = std::move(lines);
  fig.integer_x = true;
  for (auto& panel : split_into_panels(fig)) figs.push_back(std::move(panel));
}
}  // namespace

std::vector<plot_figure> comparison_figures(const compare_result& c, const std::string& id_prefix) {
  std::vector<plot_figure> figs;
  const std::string what = fmt::format("{} ({} preset)", c.experiment, c.preset);
  const std::string x_label = "layer l (index, 1 = first)";
  if (const json* rows = layer_rows(c.tables, "layers")) {
    // Distances of the learned weights to the construction, per layer.
    auto dist = column_lines(*rows, is_distance_key);
    if (!dist.empty()) {
      plot_figure fig = trained_figure(id_prefix + ".distance_per_layer",
                                       "Learned vs construction, per layer: " + what, x_label,
                                       "relative distance (dimensionless, log scale)");
      fig.log_y = all_positive(dist);
      fig.caption =
          "Relative distance of each layer's learned weights to the construction (columns of the "
          "per-layer table above; for the Ahn / Memformer models Dist(Sigma^1/2 A_l Sigma^1/2, I) "
          "= ||M - (tr M / d) I||_F / ||M||_F, Memformer paper App. D).";
      // The threshold of the weight-distance metric, drawn over the data.
      for (const auto& m : c.metrics)
        if (m.name.rfind("weights.", 0) == 0 && m.relation == "<=" && is_distance_key(m.name)) {
          plot_line bound{fmt::format("threshold {} ({}{})", m.threshold, m.name,
                                      m.gated ? ", gated" : ", reported only"),
                          line_style::bound,
                          {}};
          for (const auto& p : dist.front().points) bound.points.push_back({p.x, m.threshold});
          if (fig.log_y && !(m.threshold > 0)) continue;
          dist.push_back(std::move(bound));
          fig.caption += " The dashed line is the verdict's threshold.";
          break;
        }
      add_per_layer_panels(figs, std::move(fig), std::move(dist));
    }
    // Learned coefficients (step sizes, momenta, scale) per layer.
    auto coeff = column_lines(*rows, [](const std::string& k) { return !is_distance_key(k); });
    if (!coeff.empty()) {
      plot_figure fig = trained_figure(id_prefix + ".coefficients_per_layer",
                                       "Learned coefficients per layer: " + what, x_label,
                                       "coefficient value (dimensionless)");
      fig.caption =
          "Coefficients read off each layer's learned weights (and, for the Memformer CGD model, "
          "conjugate gradient's per-task mean coefficients next to them).";
      add_per_layer_panels(figs, std::move(fig), std::move(coeff));
    }
  }
  if (const json* rows = layer_rows(c.tables, "loss_per_layer")) {
    auto loss = column_lines(*rows, [](const std::string&) { return true; });
    if (!loss.empty()) {
      plot_figure fig =
          trained_figure(id_prefix + ".loss_per_layer", "Loss after each layer: " + what, x_label,
                         "loss (squared error / 2, log scale)");
      fig.log_y = all_positive(loss);
      fig.caption = fmt::format(
          "(1/2) mean squared error of the prediction read after each layer on {} fresh tasks "
          "(seed {}, MPFR {} bits): the trained model against the same number of steps of the "
          "reference algorithms, where present: gd (line-searched step), cg (conjugate gradient "
          "with "
          "per-task coefficients), gdpp_fitted (GD++ with the coefficients read off the weights), "
          "gdpp_tuned (GD++ with per-layer coefficients tuned on a sample of its own, the gated "
          "reference of von Oswald Sec. 3).",
          c.tasks, c.seed, c.precision_bits);
      add_per_layer_panels(figs, std::move(fig), std::move(loss));
    }
  }
  return figs;
}

std::vector<plot_figure> weight_heatmap_figures(const compare_result& c,
                                                const std::string& id_prefix) {
  std::vector<plot_figure> figs;
  for (std::size_t k = 0; k < c.matrix_pairs.size(); ++k) {
    const auto& m = c.matrix_pairs[k];
    plot_figure fig =
        trained_figure(fmt::format("{}.weights_{}", id_prefix, k + 1),
                       m.title + ": " + m.learned_label + " vs " + m.construction_label,
                       "column (index)", "row (index)");
    fig.caption =
        "Left: the trained model's matrix (" + m.title +
        "); right: the construction's. One colour scale for both (blue negative, white 0, red "
        "positive, symmetric about 0), so equal colours are equal entries. Scale correction as "
        "in the metrics above (von Oswald A.3 for the LSA models; division by a_l = tr M / d for "
        "the Z-form models, whose distance to I is scale-free).";
    fig.matrices = {{m.learned_label + ": " + m.title, m.learned},
                    {m.construction_label, m.construction}};
    figs.push_back(std::move(fig));
  }
  return figs;
}

}  // namespace iclproof
