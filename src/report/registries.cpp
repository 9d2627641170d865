// Registries of findings, plot sources and precision-sweep exclusions (see findings.hpp and
// plot_series.hpp), and the catalogue of errata from CONSTRUCTIONS.md.
#include "harness/glob_match.hpp"
#include "report/findings.hpp"
#include "report/plot_series.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace iclproof {

namespace {
std::vector<finding>& finding_registry() {
  static std::vector<finding> r;
  return r;
}
std::vector<plot_source>& plot_registry() {
  static std::vector<plot_source> r;
  return r;
}
std::vector<std::pair<std::string, std::string>>& sweep_exclusions() {
  static std::vector<std::pair<std::string, std::string>> r;
  return r;
}
}  // namespace

void register_finding(finding f) {
  if (f.id.empty() || f.family.empty())
    throw std::logic_error("finding registered without id or family: '" + f.title + "'");
  for (const auto& g : finding_registry())
    if (g.id == f.id) throw std::logic_error("finding registered twice: " + f.id);
  finding_registry().push_back(std::move(f));
}

const std::vector<finding>& builtin_errata_catalogue() {
  // CONSTRUCTIONS.md, "Errata found while writing this sheet" (each checked there at 60 digits).
  static const std::vector<finding> catalogue = {
      {"memformer.eq26_27_extra_one_over_n",
       "memformer",
       "Extra factor 1/n in the LFOM update",
       "Memformer paper, eqs 26-27 (against eq 11)",
       "the Memformer update carries a factor 1/n in eqs 26-27",
       "eq 11 (no extra 1/n) is right; with the extra factor the iterates are scaled by 1/n",
       "(1/n) sum_j Gamma_j (.) R_j",
       "sum_j Gamma_j (.) R_j (eq 11)",
       {},
       {}},
      {"memformer.a2_unit_first_step",
       "memformer",
       "CG's first step is line-searched, not a unit step",
       "Memformer paper, Appendix A.2",
       "w_1 = w_0 + r_0 (unit first step)",
       "w_1 = w_0 + alpha_0 r_0 with alpha_0 = r_0^T r_0 / r_0^T H r_0 (line-searched CG)",
       "alpha_0 = 1",
       "alpha_0 = r_0^T r_0 / r_0^T H r_0",
       {},
       {}},
      {"memformer.prop2_hadamard_not_arbitrary_diagonal",
       "memformer",
       "Hadamard memory does not give an arbitrary per-coordinate diagonal",
       "Memformer paper, Proposition 2 / eq 21",
       "Hadamard rows Gamma_j^l realise any diagonal preconditioner Lambda_j^l",
       "with diagonal A_j the per-coordinate scaling is lambda_j^l A_j^T (rank-restricted); a "
       "per-token row of Gamma breaks the single-linear-model reading",
       "arbitrary diagonal Lambda_j^l",
       "lambda_j^l A_j^T only",
       {},
       {}},
      {"akyurek.lemma4_gelu_mul_error_fourth_order",
       "akyurek",
       "GeLU multiplication error is fourth order, O(1/s^2)",
       "Akyurek et al. 2023, Lemma 4",
       "s^2 sqrt(pi/2) (g((x+y)/s) - g(x/s) - g(y/s)) = xy + O(x^3 + y^3)",
       "the error is -xy(2x^2 + 3xy + 2y^2)/(6 s^2) + O(s^-4) (erf GeLU): fourth order in the "
       "inputs, O(1/s^2)",
       "O(x^3 + y^3)",
       "-xy(2x^2+3xy+2y^2)/(6 s^2)",
       {},
       {}},
      {"akyurek.lemma6_bypass_returns_n",
       "akyurek",
       "LayerNorm bypass returns N, not 2N",
       "Akyurek et al. 2023, Lemma 6",
       "sqrt(2/L) N lambda([x, N, -N - sum x, 0]) returns x and 2N",
       "it returns x(1 + O(sum x / N)) and N in the second entry",
       "2N",
       "N",
       {},
       {}},
      {"akyurek.appendix_a_ridge_step",
       "akyurek",
       "Ridge-penalised SGD step",
       "Akyurek et al. 2023, Appendix A",
       "w' = w - 2 alpha (x (w^T x - y)) - lambda w, mixing lambda and 2 lambda",
       "w' = w - 2 alpha (x (w^T x - y) + lambda w)",
       "- lambda w",
       "- 2 alpha lambda w",
       {},
       {}},
      {"akyurek.lemma5_proof_drops_x",
       "akyurek",
       "GeLU bypass: the proof drops x",
       "Akyurek et al. 2023, Lemma 5 (proof)",
       "the proof's expansion of g(N + x) loses the x term",
       "the claim holds: g(N + x) - N - x = -(N + x)(1 - Phi(N + x)), exponentially small in N",
       "error term without x",
       "-(N + x)(1 - Phi(N + x))",
       {},
       {}},
  };
  return catalogue;
}

std::vector<finding> all_findings() {
  std::vector<finding> out;
  for (const auto& f : builtin_errata_catalogue()) {
    const auto& reg = finding_registry();
    auto it = std::find_if(reg.begin(), reg.end(), [&](const finding& g) { return g.id == f.id; });
    out.push_back(it == reg.end() ? f : *it);
  }
  for (const auto& g : finding_registry()) {
    const auto& cat = builtin_errata_catalogue();
    if (std::none_of(cat.begin(), cat.end(), [&](const finding& f) { return f.id == g.id; }))
      out.push_back(g);
  }
  std::stable_sort(out.begin(), out.end(), [](const finding& a, const finding& b) {
    return a.family != b.family ? a.family < b.family : a.id < b.id;
  });
  return out;
}

void register_plot_source(plot_source s) {
  if (s.id.empty() || !s.produce) throw std::logic_error("plot source without id or producer");
  for (const auto& t : plot_registry())
    if (t.id == s.id) throw std::logic_error("plot source registered twice: " + s.id);
  plot_registry().push_back(std::move(s));
}

std::vector<plot_source> all_plot_sources() {
  std::vector<plot_source> out = plot_registry();
  std::sort(out.begin(), out.end(),
            [](const plot_source& a, const plot_source& b) { return a.id < b.id; });
  return out;
}

void exclude_from_precision_sweep(std::string property_glob, std::string reason) {
  sweep_exclusions().emplace_back(std::move(property_glob), std::move(reason));
}

std::string precision_sweep_exclusion_reason(const std::string& property_name) {
  for (const auto& [glob, reason] : sweep_exclusions())
    if (glob_match(glob, property_name)) return reason.empty() ? "excluded" : reason;
  return "";
}

}  // namespace iclproof
