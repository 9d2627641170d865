// The report's figures (report_figures.cpp): the precision sweep of a family, panels, and the
// trained models' figures.
#pragma once

#include "compare/trajectory.hpp"
#include "report/report_model.hpp"

#include <string>
#include <utility>
#include <vector>

namespace iclproof {

// A figure with more than max_series_per_panel series as several panels (small multiples).
std::vector<plot_figure> split_into_panels(const plot_figure& fig);

// Error vs working precision of a family's swept properties (absolute, and in units of eps),
// split into panels; `excluded`: the family's properties not swept, and why.
std::vector<plot_figure> sweep_figures(
    const std::string& family, const run_report& r, const std::vector<std::string>& swept,
    const std::vector<std::pair<std::string, std::string>>& excluded);

// Each gated metric of a trajectory vs training step, one line per seed (at most 5), with the
// gate's threshold; and the learned step's distance to eta* when the model has one.
std::vector<plot_figure> trajectory_figures(const compare_trajectory_result& t,
                                            const std::string& id_prefix);

// The loss curve of a weights file (loss vs step, log scale), figure id `<id_prefix>.loss_curve`.
plot_figure training_curve_figure(const weights_file& w, const std::string& id_prefix);
// Figures from a comparison's per-layer tables (ids `<id_prefix>.<what>`): distances to the
// construction per layer (with the gating threshold), loss per layer against GD / GD++ / CG,
// learned coefficients per layer. None when the model has fewer than two layers' rows.
std::vector<plot_figure> comparison_figures(const compare_result& c, const std::string& id_prefix);

// Heatmaps of a comparison's matrix pairs (ids `<id_prefix>.weights_<k>`): the learned matrix
// beside the construction's, one shared colour scale per pair.
std::vector<plot_figure> weight_heatmap_figures(const compare_result& c,
                                                const std::string& id_prefix);

}  // namespace iclproof
