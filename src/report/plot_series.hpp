// Plot series that construction families feed into the report.
//
// The report draws three kinds of plot by itself (error vs precision for every property it ran,
// training curves from --weights). Anything else — typically "error vs scale knob with the proven
// bound drawn over it, at 53 bits and at 256+ bits" for an approximate construction — comes from
// a plot source a family registers, from properties/<family>.cpp (OBJECT library, so the
// registrar is kept):
//
//   static const iclproof::plot_source_registrar gelu_mul_plot{{
//       .id = "akyurek.gelu_multiplication_error_vs_scale",
//       .family = "akyurek",
//       .produce = [](const iclproof::plot_request& req) {
//         iclproof::plot_figure fig;
//         fig.id = "akyurek.gelu_multiplication_error_vs_scale";
//         fig.title = "GeLU multiplication: error vs scale s";
//         fig.x_label = "log10 s";
//         fig.y_label = "log10 |error|";
//         fig.lines.push_back({"measured, double (53 bits)", iclproof::line_style::measured,
//         pts53}); fig.lines.push_back({"measured, mpfr (" + std::to_string(req.precision_bits) + "
//         bits)",
//                              iclproof::line_style::measured, pts_hi});
//         fig.lines.push_back({"proven bound", iclproof::line_style::bound, bound_pts});
//         return std::vector<iclproof::plot_figure>{fig};
//       }}};
//
// Values: points are doubles. Errors of 256+ bit runs underflow double's range only below
// 2^-1074, but knobs like 1e300 and errors far below that do not fit: give such axes as log2 or
// log10 values (say so in the axis label) rather than setting log_y. Points with a non-finite
// coordinate are dropped from the drawing (and from report.json); say in the caption what that
// means (e.g. "exact: zero error").
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace iclproof {

struct plot_point {
  double x = 0;
  double y = 0;
};

enum class line_style {
  measured,   // points joined by lines (the data)
  bound,      // a proven bound or tolerance: thick dashed line drawn over the data
  reference,  // a guide line, e.g. eps = 2^(1-p): thin dotted
};

struct plot_line {
  std::string label;
  line_style style = line_style::measured;
  std::vector<plot_point> points;
  // Palette index of the colour (-1: automatic). A reference line that belongs to a measured
  // series (its rounding floor) takes that series' colour: measured series k gets colour k.
  int colour = -1;
};

// A matrix drawn as a heatmap (row 0 at the top), row-major.
struct plot_matrix {
  std::string label;
  std::vector<std::vector<double>> values;
};

struct plot_figure {
  std::string id;      // unique, file-name safe after '.' -> '_' ("family.what")
  std::string family;  // the report section it appears in
  std::string title;
  std::string x_label;
  std::string y_label;
  bool log_x = false;  // gnuplot logscale (only for strictly positive values)
  bool log_y = false;
  bool integer_x = false;  // x is an index (a layer): integer ticks only
  std::string caption;     // one or two sentences under the plot: what to look for
  std::vector<plot_line> lines;
  // Heatmaps side by side with ONE shared, symmetric colour scale (then `lines` is empty).
  std::vector<plot_matrix> matrices;
};

// Series a panel may hold: more lines than this are not told apart by colour and dash in one
// panel. More data goes into several panels.
inline constexpr std::size_t max_series_per_panel = 6;

struct plot_request {
  int precision_bits = 256;  // the run's MPFR precision (already set when produce() is called)
  std::uint64_t seed = 1;    // the run seed; derive any randomness from it
};

struct plot_source {
  std::string id;
  std::string family;  // the source runs only if the report selected a property of this family
  std::function<std::vector<plot_figure>(const plot_request&)> produce;
};

// Throws std::logic_error on a duplicate id.
void register_plot_source(plot_source s);
struct plot_source_registrar {
  explicit plot_source_registrar(plot_source s) { register_plot_source(std::move(s)); }
};
// Registered sources, sorted by id.
std::vector<plot_source> all_plot_sources();

// Properties left out of the "error vs precision" sweep of the exact identities (an approximate
// construction's error does not follow 2^-p; plot it against its knob instead). Glob over names.
void exclude_from_precision_sweep(std::string property_glob, std::string reason);
struct precision_sweep_exclusion {
  precision_sweep_exclusion(std::string glob, std::string reason) {
    exclude_from_precision_sweep(std::move(glob), std::move(reason));
  }
};
// The reason a property is excluded, or "" if it is swept.
std::string precision_sweep_exclusion_reason(const std::string& property_name);

}  // namespace iclproof
