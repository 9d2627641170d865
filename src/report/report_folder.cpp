// The run folder: report.json (validated against its schema first), report.md, report.html,
// timings.json and the plots; and the default folder name.
#include "report/report_folder.hpp"

#include "report/json_schema.hpp"

#include <fmt/format.h>

#include <ctime>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace iclproof {

using nlohmann::json;
namespace fs = std::filesystem;

std::string utc_now_iso() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
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
