#include "report/report_builder.hpp"

#include "core/precision.hpp"
#include "report/json_schema.hpp"
#include "trust/property_trust.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <set>
#include <stdexcept>

namespace iclproof {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::string scalar_option_name(scalar_kind k) { return scalar_kind_name(k); }

std::string utc_now_iso() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

property_entry make_entry(property_result res, const proof_audit& audit) {
  property_entry e;
  const property_trust t = assess_property_run(res, audit);
  e.citations = t.citations;
  e.mode = t.mode;
  e.trust = t.assessment;
  // Same rule as `iclproof check --ci`: numerics hold and, when an audit was given, every
  // cited theorem checked.
  bool cited_checked = true;
  for (const auto& c : e.citations) cited_checked = cited_checked && c.checked;
  e.gate_pass = res.outcome == verdict::pass && (audit.path.empty() || cited_checked);
  e.result = std::move(res);
  return e;
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += ", ";
    out += item;
  }
  return out;
}

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

}  // namespace

// ---- trained models -------------------------------------------------------------------------

plot_figure training_curve_figure(const weights_file& w, const std::string& id_prefix) {
  plot_figure fig;
  fig.id = id_prefix + ".loss_curve";
  fig.family = "trained";
  fig.title = fmt::format("Training loss: {} ({} preset, seed {})", w.experiment, w.preset, w.seed);
  fig.x_label = "training step (optimiser updates)";
  fig.y_label = "loss (squared error / 2, log scale)";
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
    plot_figure fig;
    fig.id = id_prefix + "." + safe(m.name);
    fig.family = "trained";
    fig.title = fmt::format("{} along training: {}{}", t.experiment, flip ? "1 - " : "", m.name);
    fig.x_label = "training step (log scale)";
    fig.y_label = fmt::format("{}{} (log scale)", flip ? "1 - " : "", m.name);
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
    plot_figure fig;
    fig.id = id_prefix + ".eta_relative_difference";
    fig.family = "trained";
    fig.title = t.experiment + " along training: |eta_learned - eta*| / eta*";
    fig.x_label = "training step (log scale)";
    fig.y_label = "|eta_learned - eta*| / eta* (log scale)";
    fig.log_x = true;
    fig.log_y = true;
    fig.caption =
        "Relative distance of the step size read off the learned weights to the exact population "
        "optimum eta* (src/references/population_optima.hpp), one line per seed. Not a gate of "
        "compare; the dotted line is issue 17's target for the paper preset (1e-3)." +
        seeds_note;
    for (std::size_t k = 0; k < shown; ++k) {
      plot_line line{fmt::format("seed {}", seeds[k]), line_style::measured, {}};
      for (const auto& p : t.points)
        if (p.seed == seeds[k] && p.eta_relative_difference &&
            std::isfinite(*p.eta_relative_difference) && *p.eta_relative_difference > 0)
          line.points.push_back({static_cast<double>(p.step), *p.eta_relative_difference});
      fig.lines.push_back(std::move(line));
    }
    fig.lines.push_back({"target 1e-3 (paper preset, issue 17; not a gate)",
                         line_style::reference,
                         {{first_step, 1e-3}, {last_step, 1e-3}}});
    out.push_back(std::move(fig));
  }
  return out;
}

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
}  // namespace

std::vector<plot_figure> comparison_figures(const compare_result& c, const std::string& id_prefix) {
  std::vector<plot_figure> figs;
  const std::string what = fmt::format("{} ({} preset)", c.experiment, c.preset);
  const std::string x_label = "layer l (index, 1 = first)";
  if (const json* rows = layer_rows(c.tables, "layers")) {
    // Distances of the learned weights to the construction, per layer.
    auto dist = column_lines(*rows, is_distance_key);
    if (!dist.empty()) {
      plot_figure fig;
      fig.id = id_prefix + ".distance_per_layer";
      fig.family = "trained";
      fig.title = "Learned vs construction, per layer: " + what;
      fig.x_label = x_label;
      fig.y_label = "relative distance (dimensionless, log scale)";
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
      fig.lines = std::move(dist);
      fig.integer_x = true;
      for (auto& panel : split_into_panels(fig)) figs.push_back(std::move(panel));
    }
    // Learned coefficients (step sizes, momenta, scale) per layer.
    auto coeff = column_lines(*rows, [](const std::string& k) { return !is_distance_key(k); });
    if (!coeff.empty()) {
      plot_figure fig;
      fig.id = id_prefix + ".coefficients_per_layer";
      fig.family = "trained";
      fig.title = "Learned coefficients per layer: " + what;
      fig.x_label = x_label;
      fig.y_label = "coefficient value (dimensionless)";
      fig.caption =
          "Coefficients read off each layer's learned weights (and, for the Memformer CGD model, "
          "conjugate gradient's per-task mean coefficients next to them).";
      fig.lines = std::move(coeff);
      fig.integer_x = true;
      for (auto& panel : split_into_panels(fig)) figs.push_back(std::move(panel));
    }
  }
  if (const json* rows = layer_rows(c.tables, "loss_per_layer")) {
    auto loss = column_lines(*rows, [](const std::string&) { return true; });
    if (!loss.empty()) {
      plot_figure fig;
      fig.id = id_prefix + ".loss_per_layer";
      fig.family = "trained";
      fig.title = "Loss after each layer: " + what;
      fig.x_label = x_label;
      fig.y_label = "loss (squared error / 2, log scale)";
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
      fig.lines = std::move(loss);
      fig.integer_x = true;
      for (auto& panel : split_into_panels(fig)) figs.push_back(std::move(panel));
    }
  }
  return figs;
}

std::vector<plot_figure> weight_heatmap_figures(const compare_result& c,
                                                const std::string& id_prefix) {
  std::vector<plot_figure> figs;
  for (std::size_t k = 0; k < c.matrix_pairs.size(); ++k) {
    const auto& m = c.matrix_pairs[k];
    plot_figure fig;
    fig.id = fmt::format("{}.weights_{}", id_prefix, k + 1);
    fig.family = "trained";
    fig.title = m.title + ": " + m.learned_label + " vs " + m.construction_label;
    fig.x_label = "column (index)";
    fig.y_label = "row (index)";
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

// ---- generate -------------------------------------------------------------------------------

namespace {
// The validated selection of a report: properties with a body in the run's scalar (the exact-only
// ones, e.g. the squared LayerNorm forms, have none in floating point); the sweep is MPFR, a
// subset of those.
struct report_selection {
  std::vector<const property*> selected, swept;
  std::vector<std::pair<std::string, std::string>> excluded;  // not swept, and why
  int requested_bits = 0;  // the run's precision (mpfr), or the fixed one of double/long double
};

report_selection select_for_report(const report_options& opt) {
  if (opt.cases < 1) throw std::invalid_argument("--cases must be at least 1");
  if (!opt.weights_paths.empty() && (opt.compare_tasks < 1 || opt.compare_tasks > 1000000))
    throw std::invalid_argument("--compare-tasks must be in [1, 1000000]");
  if (!opt.sweep_bits.empty() && opt.sweep_cases < 1)
    throw std::invalid_argument("--sweep-cases must be at least 1");
  if (opt.jobs < 1) throw std::invalid_argument("--jobs must be at least 1");
  for (int b : opt.sweep_bits)
    if (b < min_precision_bits || b > max_precision_bits)
      throw std::invalid_argument(fmt::format("--sweep-bits: {} is outside [{}, {}] bits", b,
                                              min_precision_bits, max_precision_bits));
  report_selection s;
  for (const property* p : select_properties(opt.property_glob))
    if (p->applies_in(opt.scalar) && p->applies_in(scalar_kind::mpfr)) s.selected.push_back(p);
  if (s.selected.empty())
    throw std::invalid_argument(fmt::format("no property matching '{}' applies in scalar {}",
                                            opt.property_glob, scalar_option_name(opt.scalar)));
  if (opt.scalar == scalar_kind::mpfr) {
    s.requested_bits = opt.precision_bits.value_or(default_precision_bits);
    if (s.requested_bits < min_precision_bits || s.requested_bits > max_precision_bits)
      set_mpfr_precision(s.requested_bits);  // throws the one-line range error
  } else {
    s.requested_bits = opt.scalar == scalar_kind::double_precision
                           ? scalar_traits<double>::bits()
                           : scalar_traits<long double>::bits();
    if (opt.precision_bits && *opt.precision_bits != s.requested_bits)
      throw std::invalid_argument(fmt::format(
          "--precision {} does not apply to --scalar {} (fixed at {} bits); use --scalar mpfr",
          *opt.precision_bits, scalar_option_name(opt.scalar), s.requested_bits));
  }
  for (const property* prop : s.selected) {
    const std::string why = precision_sweep_exclusion_reason(prop->info.name);
    if (why.empty())
      s.swept.push_back(prop);
    else
      s.excluded.emplace_back(prop->info.name, why);
  }
  return s;
}

std::vector<run_request> requests_of(const report_options& opt, const report_selection& s) {
  std::vector<run_request> requests;
  for (const property* prop : s.selected) {
    run_request q;
    q.prop = prop;
    q.cfg.scalar = opt.scalar;
    q.cfg.cases = opt.cases;
    q.cfg.seed = opt.seed;
    q.cfg.size = opt.size;
    q.cfg.precision_bits = opt.scalar == scalar_kind::mpfr ? s.requested_bits : 0;
    q.id = "run " + prop->info.name;
    requests.push_back(std::move(q));
  }
  if (!s.swept.empty())
    for (int bits : opt.sweep_bits)
      for (const property* prop : s.swept) {
        run_request q;
        q.prop = prop;
        q.cfg.scalar = scalar_kind::mpfr;
        q.cfg.cases = opt.sweep_cases;
        q.cfg.seed = opt.seed;
        q.cfg.size = opt.size;
        q.cfg.shrink = false;  // a failure here is reported, not minimised (the main run does)
        q.cfg.precision_bits = bits;
        q.id = fmt::format("sweep {} bits {}", bits, prop->info.name);
        requests.push_back(std::move(q));
      }
  // 3. Each property as `check --certified` runs it (its strongest mode, same cases and seed),
  //    where that mode is not the report's scalar: the trust level it reaches is shown beside the
  //    main run's.
  for (const property* prop : s.selected) {
    const scalar_kind cs = certified_scalar(*prop);
    if (cs == opt.scalar) continue;
    run_request q;
    q.prop = prop;
    q.cfg.scalar = cs;
    q.cfg.cases = opt.cases;
    q.cfg.seed = opt.seed;
    q.cfg.size = opt.size;
    if (cs == scalar_kind::mpfr || cs == scalar_kind::interval)
      q.cfg.precision_bits = s.requested_bits;
    q.id = fmt::format("certified {} {}", scalar_kind_name(cs), prop->info.name);
    requests.push_back(std::move(q));
  }
  return requests;
}
}  // namespace

std::vector<run_request> report_run_requests(const report_options& opt) {
  return requests_of(opt, select_for_report(opt));
}

run_report generate_report(const report_options& opt, const report_progress& progress,
                           const std::vector<run_part>* merged) {
  run_report r;
  auto& p = r.params;
  p.scalar = scalar_option_name(opt.scalar);
  p.cases = opt.cases;
  p.seed = opt.seed;
  p.property_glob = opt.property_glob;
  p.proof_audit_path = opt.proof_audit_path;
  p.weights_paths = opt.weights_paths;
  p.compare_tasks = opt.compare_tasks;
  p.seed_sweep_paths = opt.seed_sweep_paths;
  p.trajectory_paths = opt.trajectory_paths;
  p.trajectory_tasks = opt.trajectory_tasks;
  p.trajectory_calibration_tasks = opt.trajectory_calibration_tasks;
  p.sweep_bits = opt.sweep_bits;
  p.sweep_cases = opt.sweep_cases;
  p.size = size_profile_name(opt.size);

  // Inputs first, so bad input fails before any long computation.
  const report_selection sel = select_for_report(opt);
  const std::vector<const property*>& selected = sel.selected;
  const std::vector<const property*>& swept = sel.swept;
  const auto& excluded = sel.excluded;
  const proof_audit audit =
      opt.proof_audit_path.empty() ? proof_audit{} : proof_audit::load(opt.proof_audit_path);
  std::vector<weights_file> weights;  // strict reader: a malformed file is one error line
  for (const auto& path : opt.weights_paths) weights.push_back(read_weights_file(path));
  // Seed sweeps and trajectories, grouped by experiment in the order first seen.
  using weights_group = std::pair<std::string, std::vector<weights_file>>;
  auto group_by_experiment = [](const std::vector<std::string>& paths) {
    std::vector<weights_group> groups;
    for (const auto& path : paths) {
      weights_file w = read_weights_file(path);
      auto it = std::find_if(groups.begin(), groups.end(),
                             [&](const weights_group& g) { return g.first == w.experiment; });
      if (it == groups.end()) {
        groups.emplace_back(w.experiment, std::vector<weights_file>{});
        it = std::prev(groups.end());
      }
      it->second.push_back(std::move(w));
    }
    return groups;
  };
  const std::vector<weights_group> sweep_groups = group_by_experiment(opt.seed_sweep_paths);
  const std::vector<weights_group> trajectory_groups = group_by_experiment(opt.trajectory_paths);
  if (!opt.trajectory_paths.empty() && (opt.trajectory_tasks < 1 || opt.trajectory_tasks > 1000000))
    throw std::invalid_argument("--trajectory-tasks must be in [1, 1000000]");
  if (!opt.trajectory_paths.empty() &&
      (opt.trajectory_calibration_tasks < 1 || opt.trajectory_calibration_tasks > 10000000))
    throw std::invalid_argument("--trajectory-calibration-tasks must be in [1, 10000000]");

  p.requested_precision_bits = sel.requested_bits;
  p.precision_bits = opt.scalar == scalar_kind::mpfr
                         ? set_mpfr_precision(sel.requested_bits).actual_bits
                         : sel.requested_bits;
  // MPFR precision for the findings' measurements and the plot sources: the run's, or the
  // default one when the run itself is in double / long double.
  const int mpfr_request =
      opt.scalar == scalar_kind::mpfr ? p.requested_precision_bits : default_precision_bits;
  const int mpfr_bits = set_mpfr_precision(mpfr_request).actual_bits;

  // 1. and 2. Every selected property at the run's precision, then error vs precision for the
  //    exact identities (MPFR at each sweep precision): one batch of runs, on opt.jobs
  //    processes, or the parts the shards ran.
  const std::vector<run_request> requests = requests_of(opt, sel);
  // Requests: the main runs, the sweep, then the certified runs (requests_of).
  const std::size_t first_certified =
      selected.size() + (swept.empty() ? 0 : opt.sweep_bits.size() * swept.size());
  std::vector<run_part> parts;
  if (merged) {
    if (merged->size() != requests.size())
      throw std::invalid_argument(
          fmt::format("the shards hold {} runs where these parameters make {}", merged->size(),
                      requests.size()));
    parts = *merged;
  } else {
    run_progress run_prog;
    if (progress)
      run_prog = [&](std::size_t i, int done, int cases) {
        const char* phase = i < selected.size()   ? "run"
                            : i < first_certified ? "sweep"
                                                  : "certified";
        progress(phase, static_cast<int>(i + 1), static_cast<int>(requests.size()),
                 requests[i].prop->info.name, done, cases);
      };
    parts = run_requests(requests, opt.jobs, shard_spec{}, run_prog);
  }
  set_mpfr_precision(mpfr_request);
  for (std::size_t i = 0; i < requests.size(); ++i) {
    property_result res = result_of(requests[i], parts[i]);
    r.timings.emplace_back(requests[i].id, res.seconds);
    if (i < selected.size()) {
      const bool same_mode = certified_scalar(*requests[i].prop) == opt.scalar;
      r.properties.push_back(make_entry(std::move(res), audit));
      if (same_mode) {
        property_entry& e = r.properties.back();
        e.certified = certified_run{e.result.scalar, e.result.cases,   e.result.outcome, e.mode,
                                    e.trust,         e.result.failure, e.result.drawn};
      }
      continue;
    }
    if (i >= first_certified) {
      // The property's certified run (requests_of, part 3): a certified failure (a certificate
      // that the construction is wrong) fails the property's gate.
      const auto it = std::find_if(
          r.properties.begin(), r.properties.end(),
          [&](const property_entry& e) { return e.result.info.name == res.info.name; });
      if (it == r.properties.end())
        throw std::logic_error("certified run without its main run: " + res.info.name);
      const property_trust t = assess_property_run(res, audit);
      if (res.outcome != verdict::pass) it->gate_pass = false;
      it->certified = certified_run{res.scalar,   res.cases,   res.outcome, t.mode,
                                    t.assessment, res.failure, res.drawn};
      continue;
    }
    sweep_point s;
    s.property = res.info.name;
    s.requested_bits = requests[i].cfg.precision_bits;
    s.bits = res.precision_bits;
    s.log2_max_error = res.checks > 0 ? res.max_log2_err_in_eps + res.log2_eps
                                      : std::numeric_limits<double>::quiet_NaN();
    s.log2_tolerance = res.worst_log2_bound;
    s.verdict = to_string(res.outcome);
    r.sweep.push_back(s);
  }

  std::vector<std::string> families;
  for (const property* prop : selected) families.push_back(prop->info.family());
  families = families_in_order(families);
  const auto family_selected = [&](const std::string& f) {
    return std::find(families.begin(), families.end(), f) != families.end();
  };

  // 3. Findings: evidence verdicts from this run, measurements for the selected families
  //    (computed at the run's MPFR precision, or the default one for a double run).
  const auto findings = all_findings();
  int fi = 0;
  for (const auto& f : findings) {
    ++fi;
    finding_entry fe;
    fe.info = f;
    bool any_failed = false;
    for (const auto& ev : f.evidence) {
      std::string v = "not run";
      for (const auto& e : r.properties)
        if (e.result.info.name == ev) {
          v = to_string(e.result.outcome);
          any_failed = any_failed || e.result.outcome != verdict::pass;
        }
      if (v == "not run") {
        const auto& all = all_properties();
        if (std::none_of(all.begin(), all.end(),
                         [&](const property& q) { return q.info.name == ev; }))
          v = "not a property (unit test; not run by the report)";
      }
      fe.evidence_verdicts.emplace_back(ev, v);
    }
    if (f.measure && family_selected(f.family)) {
      if (progress) progress("finding", fi, static_cast<int>(findings.size()), f.id, 0, 0);
      try {
        fe.measurement = f.measure();
      } catch (const std::exception& e) {
        fe.measurement_error = e.what();
      }
    }
    const bool measured = fe.measurement.has_value();
    if (any_failed || !fe.measurement_error.empty() ||
        (measured && !fe.measurement->supports_correction))
      fe.status = "not reproduced";
    else if (measured)
      fe.status = "confirmed erratum";
    else
      fe.status = "not measured";
    r.findings.push_back(std::move(fe));
  }

  // 4. Trained models: `iclproof compare` on each weights file, at the MPFR precision of the
  //    run (the default one for a double run), fresh tasks from the run seed.
  std::vector<plot_figure> trained_figures;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    const weights_file& w = weights[i];
    if (progress)
      progress("compare", static_cast<int>(i + 1), static_cast<int>(weights.size()), w.experiment,
               0, 0);
    trained_model_entry t;
    t.path = opt.weights_paths[i];
    t.experiment = w.experiment;
    t.preset = w.preset;
    t.training_seed = w.seed;
    t.training_steps = w.curve_steps.empty() ? 0 : w.curve_steps.back();
    t.final_loss =
        w.curve_loss.empty() ? std::numeric_limits<double>::quiet_NaN() : w.curve_loss.back();
    compare_options co;
    co.precision_bits = mpfr_request;
    co.tasks = opt.compare_tasks;
    co.seed = opt.seed;
    const auto start = std::chrono::steady_clock::now();
    t.comparison = compare_weights(w, co);
    r.timings.emplace_back(
        "compare " + t.path,
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    const std::string prefix = fmt::format("trained.{}_{}", i + 1, w.experiment);
    std::vector<plot_figure> figs;
    if (!w.curve_steps.empty()) figs.push_back(training_curve_figure(w, prefix));
    for (auto& f : comparison_figures(t.comparison, prefix)) figs.push_back(std::move(f));
    for (auto& f : weight_heatmap_figures(t.comparison, prefix)) figs.push_back(std::move(f));
    for (auto& f : figs) {
      t.plot_ids.push_back(f.id);
      trained_figures.push_back(std::move(f));
    }
    r.trained.push_back(std::move(t));
  }
  // 4b. Seed sweeps and trajectories: measurements shown beside the models; they do not gate.
  for (const auto& [experiment, files] : sweep_groups) {
    report_seed_sweep sw;
    compare_options co;
    co.precision_bits = mpfr_request;
    co.tasks = opt.compare_tasks;
    co.seed = opt.seed;
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < files.size(); ++i) {
      if (progress)
        progress("seed sweep", static_cast<int>(i + 1), static_cast<int>(files.size()), experiment,
                 0, 0);
      sw.paths.push_back(files[i].source);
      sw.training_seeds.push_back(files[i].seed);
      sw.comparisons.push_back(compare_weights(files[i], co));
    }
    sw.summary = summarise_sweep(sw.comparisons);
    r.timings.emplace_back(
        "seed sweep " + experiment,
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    r.seed_sweeps.push_back(std::move(sw));
  }
  int trajectory_index = 0;
  for (const auto& [experiment, files] : trajectory_groups) {
    if (progress)
      progress("trajectory", ++trajectory_index, static_cast<int>(trajectory_groups.size()),
               fmt::format("{} ({} snapshots)", experiment, files.size()), 0, 0);
    report_trajectory tr;
    compare_options co;
    co.precision_bits = mpfr_request;
    co.tasks = opt.trajectory_tasks;
    co.calibration_tasks = opt.trajectory_calibration_tasks;
    co.seed = opt.seed;
    const auto start = std::chrono::steady_clock::now();
    tr.result = compare_trajectory(files, co);
    tr.calibration_tasks = co.calibration_tasks;
    r.timings.emplace_back(
        "trajectory " + experiment,
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    for (auto& f : trajectory_figures(tr.result, "trained.trajectory_" + experiment)) {
      tr.plot_ids.push_back(f.id);
      trained_figures.push_back(std::move(f));
    }
    r.trajectories.push_back(std::move(tr));
  }
  set_mpfr_precision(mpfr_request);

  // 5. Figures: the precision sweep per family, the families' own plot sources, training.
  for (const auto& fam : families) {
    std::vector<std::string> names;
    std::vector<std::pair<std::string, std::string>> fam_excluded;
    for (const property* prop : swept)
      if (prop->info.family() == fam) names.push_back(prop->info.name);
    for (const auto& ex : excluded)
      if (ex.first.substr(0, ex.first.find('.')) == fam) fam_excluded.push_back(ex);
    if (!r.sweep.empty() && !names.empty())
      for (auto& fig : sweep_figures(fam, r, names, fam_excluded))
        r.plots.push_back({std::move(fig), "", "", ""});
  }
  const auto sources = all_plot_sources();
  int si = 0;
  for (const auto& src : sources) {
    ++si;
    if (!family_selected(src.family)) continue;
    if (progress) progress("plot", si, static_cast<int>(sources.size()), src.id, 0, 0);
    try {
      for (auto& fig : src.produce(plot_request{mpfr_bits, opt.seed})) {
        if (fig.family.empty()) fig.family = src.family;
        for (auto& panel : split_into_panels(fig))
          r.plots.push_back({std::move(panel), "", "", ""});
      }
    } catch (const std::exception& e) {
      r.notes.push_back("plot source " + src.id + " failed: " + e.what());
    }
  }
  for (auto& fig : trained_figures) r.plots.push_back({std::move(fig), "", "", ""});

  r.draw_plots = opt.draw_plots;
  r.tools = collect_tool_versions(audit);
  r.generated_at = utc_now_iso();
  return r;
}

// ---- write ----------------------------------------------------------------------------------

namespace {
void write_text(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path.string());
}
}  // namespace

void write_report_folder(run_report& report, const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    throw std::runtime_error("cannot create report folder " + dir +
                             (ec ? " (" + ec.message() + ")" : ""));
  bool have_gnuplot = false;
  if (!report.plots.empty() && report.draw_plots) {
    have_gnuplot = gnuplot_available();
    if (!have_gnuplot)
      report.notes.push_back(
          "gnuplot was not found on PATH, so no plot was drawn (their data is in report.json); "
          "install it with: apt-get install gnuplot-nox");
  }
  for (auto& p : report.plots) {
    if (have_gnuplot) {
      rendered_plot drawn = render_plot(p.figure, dir);
      p.svg_file = drawn.svg_file;
      p.svg = drawn.svg;
      p.error = drawn.error;
    } else {
      p.error = report.draw_plots ? "gnuplot not available" : "not drawn (--no-plots)";
    }
  }
  const nlohmann::ordered_json j = report_to_json(report);
  const auto problems = validate_json(json::parse(j.dump()), report_schema());
  if (!problems.empty())
    throw std::logic_error("report.json does not match reports/report.schema.json: " +
                           problems.front());
  write_text(fs::path(dir) / "report.json", j.dump(2) + "\n");
  write_text(fs::path(dir) / "report.md", report_to_markdown(report));
  write_text(fs::path(dir) / "report.html", report_to_html(report));
  json t = {{"note", "wall-clock seconds; kept out of report.json so that it is deterministic"},
            {"generated_at", report.generated_at}};
  double total = 0;
  json items = json::array();
  for (const auto& [what, s] : report.timings) {
    items.push_back({{"what", what}, {"seconds", s}});
    total += s;
  }
  t["total_seconds"] = total;
  t["items"] = items;
  write_text(fs::path(dir) / "timings.json", t.dump(2) + "\n");
}

std::string default_run_folder(std::uint64_t seed) {
  const std::string date = utc_now_iso().substr(0, 10);
  const std::string base = fmt::format("reports/runs/{}_seed{}", date, seed);
  std::string dir = base;
  for (int k = 2; fs::exists(dir); ++k) dir = fmt::format("{}_{}", base, k);
  return dir;
}

}  // namespace iclproof
