// What the error-vs-layers figures of the gdpp_rate, iterative_newton and newton_schulz families
// (properties/*_figures.cpp) share: their fixed inputs (rows scaled by 1, 0.8, 0.6, 0.45, 0.3),
// log10 of a value of any scalar, and the figure's layout: the construction's error in double and
// in MPFR and gradient descent's in MPFR (measured lines), then the two rates (bound lines),
// against the number of layers.
#pragma once

#include "core/linalg.hpp"
#include "core/precision.hpp"
#include "report/plot_series.hpp"
#include "tasks/regression_task.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace iclproof::layers_vs_gd {

inline constexpr int rows = 5;  // the fixed inputs' d

// diag(1, 0.8, 0.6, 0.45, 0.3) G, G a rows x cols standard Gaussian matrix drawn from rng.
inline Mat<double> row_scaled_gaussian(data_rng& rng, int cols) {
  const double scale[rows] = {1.0, 0.8, 0.6, 0.45, 0.3};
  Mat<double> X = rng.normal_matrix(rows, cols);
  for (int i = 0; i < rows; ++i) X.row(i) *= scale[i];
  return X;
}

// One prompt from `seed`: X = row_scaled_gaussian (N columns), y = w X + 0.1 noise with w and the
// noise Gaussian, then a Gaussian query x_q, drawn in this order.
struct prompt {
  Mat<double> X, y, xq;
};
inline prompt fixed_prompt(std::uint64_t seed, int N) {
  data_rng rng(seed);
  Mat<double> X = row_scaled_gaussian(rng, N);
  const Mat<double> w = rng.normal_matrix(1, rows);
  Mat<double> y = w * X + 0.1 * rng.normal_matrix(1, N);
  Mat<double> xq = rng.normal_matrix(rows, 1);
  return {X, y, xq};
}

// log10 |v| through log2_abs (an MPFR value below double's range keeps its exponent).
template <class T>
double log10_abs(const T& v) {
  return log2_abs(v) * std::log10(2.0);
}

// A figure's text: its id and family, title, axis labels (x: layers), the name of the
// construction in its measured lines' labels, and the labels of the two rate lines.
struct figure_text {
  std::string id, family, title, x_label, y_label;
  std::string construction, construction_rate, gd_rate;
};

// The figure's lines, in this order: "<construction>, double (53 bits)", "<construction>, MPFR
// <bits> bits" and "GD iterates, MPFR <bits> bits" (measured), then construction_rate and gd_rate
// (bounds). The caller fills their points (and the caption); add_construction_rate leaves out a
// point below the floor: 5 decades under the run's MPFR unit roundoff (log10 2 = 0.30103), further
// down the rate would only stretch the axis. done() returns the figure with its lines.
struct figure_lines {
  plot_figure figure;
  double floor;  // log10
  plot_line construction_double, construction_mpfr, gd, construction_rate, gd_rate;

  figure_lines(const figure_text& text, const plot_request& req)
      : figure(),
        floor(-0.30103 * req.precision_bits - 5.0),
        construction_double{text.construction + ", double (53 bits)", line_style::measured, {}},
        construction_mpfr{fmt::format("{}, MPFR {} bits", text.construction, req.precision_bits),
                          line_style::measured,
                          {}},
        gd{fmt::format("GD iterates, MPFR {} bits", req.precision_bits), line_style::measured, {}},
        construction_rate{text.construction_rate, line_style::bound, {}},
        gd_rate{text.gd_rate, line_style::bound, {}} {
    figure.id = text.id;
    figure.family = text.family;
    figure.title = text.title;
    figure.x_label = text.x_label;
    figure.y_label = text.y_label;
    figure.integer_x = true;
  }

  void add_construction_rate(double x, double log10_rate) {
    if (log10_rate >= floor) construction_rate.points.push_back({x, log10_rate});
  }

  plot_figure done() const {
    plot_figure f = figure;
    f.lines = {construction_double, construction_mpfr, gd, construction_rate, gd_rate};
    return f;
  }
};

// The plot source of one such figure: `draw` makes it; the source has the figure's id and family.
inline plot_source figure_source(const figure_text& text,
                                 plot_figure (*draw)(const plot_request&)) {
  return {text.id, text.family,
          [draw](const plot_request& req) { return std::vector<plot_figure>{draw(req)}; }};
}

}  // namespace iclproof::layers_vs_gd
