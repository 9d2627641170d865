#include "report/report_builder.hpp"

#include "compare/model_files.hpp"
#include "core/precision.hpp"
#include "report/json_schema.hpp"
#include "trust/property_trust.hpp"
#include "trust/verdict.hpp"

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

// The widest enclosure of an interval-mode (MPFI or ball) run, log2 in eps; NaN otherwise.
double enclosure_width(const property_result& r, check_mode mode) {
  return mode == check_mode::interval ? r.max_log2_width_in_eps
                                      : std::numeric_limits<double>::quiet_NaN();
}

property_entry make_entry(property_result res, const proof_audit& audit) {
  property_entry e;
  apply_statement_audit(res, audit);  // the statement-file claim as this run's audit has it
  const property_trust t = assess_property_run(res, audit);
  e.citations = t.citations;
  e.mode = t.mode;
  e.trust = t.assessment;
  // The report judges as `check --ci` does (trust/verdict.hpp): numerics, cited proofs when an
  // audit was given, sharpness.
  e.gate = judge_property_run(res, t, audit, gate_policy{true, nullptr, false});
  e.result = std::move(res);
  return e;
}

}  // namespace

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
    if (cs == scalar_kind::mpfr || cs == scalar_kind::interval || cs == scalar_kind::ball)
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
        e.certified = certified_run{
            e.result.scalar, e.result.cases,   e.result.outcome, e.mode,
            e.trust,         e.result.failure, e.result.drawn,   enclosure_width(e.result, e.mode)};
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
      it->gate = combine_with_certified(
          it->gate, judge_property_run(res, t, audit, gate_policy{true, nullptr, false}),
          res.scalar, res.outcome != verdict::pass);
      it->certified =
          certified_run{res.scalar,   res.cases,   res.outcome, t.mode,
                        t.assessment, res.failure, res.drawn,   enclosure_width(res, t.mode)};
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

}  // namespace iclproof
