// Plots through gnuplot: one script per figure (data inline as datablocks, kept next to the SVG
// so a reader can restyle or re-run it), rendered to SVG.
#include "report/report_model.hpp"

#include <fmt/format.h>

#include <sys/stat.h>
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <regex>
#include <sstream>

namespace iclproof {

namespace {

std::string gp_quote(const std::string& s) {  // gnuplot single-quoted string: ' doubles
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "''";
    else if (c == '\n')
      out += ' ';
    else
      out += c;
  }
  return out + "'";
}

std::string sh_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

// Run a shell command, collecting stdout+stderr; returns the exit status.
int run_collect(const std::string& command, std::string& output) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen((command + " 2>&1").c_str(), "r"), ::pclose);
  if (!pipe) return -1;
  std::array<char, 512> buf{};
  while (std::fgets(buf.data(), buf.size(), pipe.get())) output += buf.data();
  const int status = ::pclose(pipe.release());
  return status;
}

// Colour-blind-safe palette (Okabe-Ito) for data lines.
constexpr std::array<const char*, 8> palette = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                                "#E69F00", "#56B4E9", "#000000", "#F0E442"};

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// gnuplot's SVG uses fixed ids (gnuplot_canvas, gpPt0, ...); several SVGs inlined in one HTML
// page would collide, so every id and reference gets the figure's own prefix. The XML prolog and
// DOCTYPE (which names an external DTD) are dropped: the HTML parser does not need them.
std::string inline_ready_svg(const std::string& svg, const std::string& prefix) {
  std::string s = svg;
  const auto start = s.find("<svg");
  if (start != std::string::npos) s = s.substr(start);
  s = std::regex_replace(s, std::regex(R"re(id=['"]([^'"]+)['"])re"), "id=\"" + prefix + "_$1\"");
  s = std::regex_replace(s, std::regex(R"re(url\(#([^)]+)\))re"), "url(#" + prefix + "_$1)");
  s = std::regex_replace(s, std::regex(R"re(href=['"]#([^'"]+)['"])re"),
                         "href=\"#" + prefix + "_$1\"");
  return s;
}

}  // namespace

std::string plot_file_stem(const std::string& id) {
  std::string s;
  for (char c : id) s += (std::isalnum(static_cast<unsigned char>(c)) || c == '-') ? c : '_';
  return s;
}

bool gnuplot_available() {
  std::string out;
  return run_collect("gnuplot --version", out) == 0;
}

namespace {
// Heatmaps side by side (gnuplot multiplot), one symmetric colour scale [-m, m] shared by all
// panels (m = the largest |entry|), row 0 at the top, each panel titled by its matrix's label
// (the figure's title is the HTML caption's). The data area is the sum of the panels'.
std::string heatmap_script(const plot_figure& fig, const std::string& stem) {
  std::ostringstream gp;
  double m = 0;
  for (const auto& mat : fig.matrices)
    for (const auto& row : mat.values)
      for (double v : row)
        if (std::isfinite(v)) m = std::max(m, std::abs(v));
  if (!(m > 0)) m = 1;
  gp << "# " << fig.title << "\n# Written by iclproof report; run: gnuplot " << stem << ".gp\n";
  // 880 x 420 and tight multiplot margins: two square panels keep over half of the figure.
  gp << "set terminal svg size 880,420 dynamic noenhanced font 'Helvetica,14' "
        "background '#ffffff'\n";
  gp << "set output " << gp_quote(stem + ".svg") << "\n";
  gp << "set palette defined (-1 '#2166ac', 0 '#f7f7f7', 1 '#b2182b')\n";
  gp << fmt::format("set cbrange [{:.17g}:{:.17g}]\n", -m, m);
  gp << "set size ratio -1\nset xtics 1 format '%.0f'\n"
        "set ytics 1 format '%.0f'\nset xlabel 'column (index)'\nset ylabel 'row (index)'\n"
        "set tics scale 0\nunset key\n";
  gp << fmt::format("set multiplot layout 1,{} margins 0.07,0.9,0.15,0.9 spacing 0.1\narea = 0\n",
                    fig.matrices.size());
  for (std::size_t k = 0; k < fig.matrices.size(); ++k) {
    const auto& mat = fig.matrices[k];
    gp << "$m" << k << " << EOD\n";
    for (const auto& row : mat.values) {
      for (std::size_t j = 0; j < row.size(); ++j)
        gp << (j ? " " : "") << fmt::format("{:.17g}", std::isfinite(row[j]) ? row[j] : 0.0);
      gp << "\n";
    }
    gp << "EOD\n";
    const std::size_t rows = mat.values.size(), cols = rows ? mat.values.front().size() : 0;
    gp << fmt::format("set xrange [-0.5:{}]\nset yrange [{}:-0.5]\n", cols - 0.5, rows - 0.5);
    gp << "set title " << gp_quote(mat.label) << "\n";
    gp << (k + 1 == fig.matrices.size() ? "set colorbox\n" : "unset colorbox\n");
    gp << "plot $m" << k << " matrix with image pixels\n";
    gp << "area = area + (GPVAL_TERM_XMAX - GPVAL_TERM_XMIN) * (GPVAL_TERM_YMAX - "
          "GPVAL_TERM_YMIN)\n";
  }
  gp << "unset multiplot\n";
  gp << "set print " << gp_quote(stem + ".area") << "\n"
     << "print area / (GPVAL_TERM_XSIZE / GPVAL_TERM_SCALE * GPVAL_TERM_YSIZE / "
        "GPVAL_TERM_SCALE)\nunset print\n";
  return gp.str();
}
}  // namespace

rendered_plot render_plot(const plot_figure& fig, const std::string& run_dir) {
  rendered_plot r;
  r.figure = fig;
  const std::string stem = plot_file_stem(fig.id);
  const std::string plots_dir = run_dir + "/plots";
  ::mkdir(plots_dir.c_str(), 0777);

  std::ostringstream gp;
  if (!fig.matrices.empty()) {
    gp << heatmap_script(fig, stem);
  } else {
    gp << "# " << fig.title << "\n# Written by iclproof report; run: gnuplot " << stem << ".gp\n";
    // 880 x 640 with the key below the data in up to 3 rows (font 12): with the 6 series a panel
    // may hold (max_series_per_panel) the data area keeps more than half of the figure, which
    // tests/report/render_html.sh checks from the area gnuplot reports (written below).
    gp << "set terminal svg size 880,640 dynamic noenhanced font 'Helvetica,14' "
          "background '#ffffff'\n";
    gp << "set output " << gp_quote(stem + ".svg") << "\n";
    gp << "set title " << gp_quote(fig.title) << "\n";
    gp << "set xlabel " << gp_quote(fig.x_label) << "\nset ylabel " << gp_quote(fig.y_label)
       << "\n";
    gp << "set grid lc rgb '#dddddd'\nset border lc rgb '#555555'\n";
    gp << "set key below left Left reverse samplen 2 spacing 1 maxrows 3 font ',12'\n";
    if (fig.log_x) gp << "set logscale x\n";
    if (fig.log_y) gp << "set logscale y\n";
    std::size_t most_points = 0;
    for (const auto& line : fig.lines) most_points = std::max(most_points, line.points.size());
    const bool dense = most_points > 40;  // curves (training), not a handful of measurements
    gp << "set format y '%g'\n";
    if (fig.integer_x) {
      // Layer indices: integer ticks only, at most ~12 of them.
      double lo = 0, hi = 0;
      bool any = false;
      for (const auto& line : fig.lines)
        for (const auto& pt : line.points)
          if (std::isfinite(pt.x)) {
            lo = any ? std::min(lo, pt.x) : pt.x;
            hi = any ? std::max(hi, pt.x) : pt.x;
            any = true;
          }
      const int step = std::max(1, static_cast<int>(std::ceil((hi - lo) / 12.0)));
      gp << fmt::format("set xtics {}\nset mxtics 1\nset format x '%.0f'\n", step);
    }
    // A little room around sparse points so markers are not cut by the border; dense curves and
    // log axes use the data range itself (offsets would push the axis to odd values like -500).
    if (dense) gp << "set autoscale xfix\n";
    gp << fmt::format("set offsets {}, {}, {}, {}\n", dense || fig.log_x ? "0" : "graph 0.03",
                      dense || fig.log_x ? "0" : "graph 0.03", fig.log_y ? "0" : "graph 0.05",
                      fig.log_y ? "0" : "graph 0.05");

    std::vector<std::string> plot_items;
    int colour = 0;
    for (std::size_t i = 0; i < fig.lines.size(); ++i) {
      const auto& line = fig.lines[i];
      std::ostringstream block;
      int n = 0;
      for (const auto& pt : line.points) {
        if (!std::isfinite(pt.x) || !std::isfinite(pt.y)) continue;
        if ((fig.log_x && pt.x <= 0) || (fig.log_y && pt.y <= 0)) continue;
        block << fmt::format("{:.17g} {:.17g}\n", pt.x, pt.y);
        ++n;
      }
      if (n == 0) continue;
      gp << "$line" << i << " << EOD\n" << block.str() << "EOD\n";
      std::string style;
      switch (line.style) {
        case line_style::measured: {
          // Point types and sizes alternate, so that coinciding series stay visible.
          static constexpr std::array<int, 6> point_types = {7, 6, 5, 4, 9, 8};
          const int k = line.colour >= 0 ? line.colour : colour;
          style = fmt::format("{} lw 2 lc rgb '{}'",
                              n > 40 ? "with lines"
                                     : fmt::format("with linespoints pt {} ps {}",
                                                   point_types[std::size_t(colour) % 6],
                                                   colour % 2 == 0 ? "1.3" : "0.8"),
                              palette[std::size_t(k) % palette.size()]);
          ++colour;
          break;
        }
        case line_style::bound:
          style = "with lines lw 3 dt 2 lc rgb '#b00000'";
          break;
        case line_style::reference:
          style = fmt::format(
              "with lines lw 1.5 dt 3 lc rgb '{}'",
              line.colour >= 0 ? palette[std::size_t(line.colour) % palette.size()] : "#555555");
          break;
      }
      plot_items.push_back(
          fmt::format("$line{} using 1:2 {} title {}", i, style, gp_quote(line.label)));
    }
    if (plot_items.empty()) {
      r.error = "no finite data points to draw";
      return r;
    }
    gp << "plot ";
    for (std::size_t i = 0; i < plot_items.size(); ++i)
      gp << (i ? ", \\\n     " : "") << plot_items[i];
    gp << "\n";
    // The data area's share of the figure (gnuplot's own layout, in pixels).
    gp << "set print " << gp_quote(stem + ".area") << "\n"
       << "print (GPVAL_TERM_XMAX - GPVAL_TERM_XMIN) * (GPVAL_TERM_YMAX - GPVAL_TERM_YMIN) / "
          "(GPVAL_TERM_XSIZE / GPVAL_TERM_SCALE * GPVAL_TERM_YSIZE / GPVAL_TERM_SCALE)\n"
       << "unset print\n";
  }

  const std::string script = plots_dir + "/" + stem + ".gp";
  {
    std::ofstream out(script);
    out << gp.str();
    if (!out) {
      r.error = "cannot write " + script;
      return r;
    }
  }
  std::string output;
  const int status =
      run_collect("cd " + sh_quote(plots_dir) + " && gnuplot " + sh_quote(stem + ".gp"), output);
  const std::string svg_path = plots_dir + "/" + stem + ".svg";
  std::string svg = read_file(svg_path);
  if (status != 0 || svg.find("</svg>") == std::string::npos) {
    std::string first = output.substr(0, output.find('\n', output.find_first_not_of("\n ")));
    r.error = "gnuplot failed on plots/" + stem + ".gp";
    if (!first.empty()) r.error += ": " + first;
    return r;
  }
  r.svg_file = "plots/" + stem + ".svg";
  r.svg = inline_ready_svg(svg, "p_" + stem);
  // Recorded on the inline <svg> as data-plot-area-fraction for the render test.
  std::string area = read_file(plots_dir + "/" + stem + ".area");
  std::remove((plots_dir + "/" + stem + ".area").c_str());
  area.erase(std::remove_if(area.begin(), area.end(), [](char c) { return std::isspace(c); }),
             area.end());
  if (const auto at = r.svg.find("<svg");
      at != std::string::npos && !area.empty() &&
      area.find_first_not_of("0123456789.eE+-") == std::string::npos)
    r.svg.insert(at + 4, " data-plot-area-fraction=\"" + area + "\"");
  return r;
}

}  // namespace iclproof
