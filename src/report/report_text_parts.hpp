// The parts report.md and report.html share (report_markdown.cpp, report_html.cpp): the verdict,
// citation, coverage and level texts of a property, the headline, the trained-model, seed-sweep
// and trajectory tables, and the fixed explanatory paragraphs.
#pragma once

#include "report/report_model.hpp"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace iclproof::report_text {

struct text_table {
  std::vector<std::string> head;
  std::vector<bool> numeric;  // right-aligned columns
  std::vector<std::vector<std::string>> rows;
};

std::string verdict_text(const property_entry& e);
std::string gate_reasons_text(const property_entry& e);
std::string citations_text(const property_entry& e);
std::string coverage_text(const property_entry& e);
std::string statement_text(const property_entry& e);
std::string proof_text(const property_entry& e);
std::string level_text(const property_entry& e);
std::string worst_error_text(const property_result& r);
std::string err_in_eps_text(const property_result& r);
std::string headline(const run_report& r);
std::string number_text(double x);
std::string json_value_text(const nlohmann::json& v);
std::string metric_verdict(const compare_metric& m);
text_table metrics_table(const compare_result& c);
std::vector<std::pair<std::string, text_table>> comparison_tables(const compare_result& c);
std::string trained_heading(std::size_t index, const trained_model_entry& t);
std::string trained_provenance(const trained_model_entry& t);
std::string sweep_heading(const report_seed_sweep& sw);
std::string sweep_provenance(const report_seed_sweep& sw);
text_table sweep_table(const report_seed_sweep& sw);
text_table sweep_seed_table(const report_seed_sweep& sw);
std::string trajectory_heading(const report_trajectory& tr);
std::string trajectory_provenance(const report_trajectory& tr);
text_table crossing_table(const report_trajectory& tr);
std::string run_line(const run_report& r);
std::map<std::string, std::vector<const property_entry*>> by_family(const run_report& r);
std::vector<std::string> section_families(const run_report& r);

extern const char* trained_intro;
extern const char* errata_intro;
extern const char* how_to_read;

}  // namespace iclproof::report_text
