// Findings: places where a paper and the verified mathematics disagree (errata), with the
// paper's number next to the corrected one and the evidence that decides between them.
//
// A family registers its findings the way it registers properties, from properties/<family>.cpp
// (an OBJECT library, so static registrars are never dropped by the linker):
//
//   static const iclproof::finding_registrar lemma6_finding{{
//       .id = "akyurek.lemma6_bypass_returns_n",
//       .family = "akyurek",
//       .title = "LayerNorm bypass returns N, not 2N",
//       .source = "Akyurek et al. 2023, Lemma 6",
//       .paper_claim = "sqrt(2/L) N lambda([x, N, -N - sum x, 0]) has 2N in its second entry",
//       .corrected_claim = "the second entry is N (x is returned up to O(sum x / N))",
//       .paper_value = "2N",
//       .corrected_value = "N",
//       .evidence = {"akyurek.layernorm_bypass_returns_x_and_n"},
//       .measure = [] { ...compute both sides at the run's MPFR precision...;
//                        return finding_measurement{...}; },
//   }};
//
// The report shows every finding in its errata table, with this run's verdict of each evidence
// property and the two sides its `measure` computed in this run. The errata listed in
// CONSTRUCTIONS.md are a catalogue next to the errata, properties/errata_catalogue.hpp;
// properties/errata.cpp registers every catalogue erratum with its measurement and evidence (a
// unit test requires one for each).
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace iclproof {

// What a finding's measurement computed in this run: the paper's statement and the corrected
// one, each evaluated on the same data at the run's precision.
struct finding_measurement {
  std::string quantity;        // what was measured, e.g. "second entry of the bypass, N = 2^40"
  std::string paper_side;      // the paper's statement evaluated in this run ("2N: ... = 0.5")
  std::string corrected_side;  // the corrected statement evaluated in this run ("N: ... = 1")
  std::string criterion;       // what decides, e.g. "corrected side <= sqrt(eps), paper >= 1e-3"
  bool supports_correction;    // the criterion held: the paper's side is off, the corrected holds
  std::string details;         // precision, inputs
};

struct finding {
  std::string id;               // "family.short_name"; unique
  std::string family;           // "memformer", "akyurek", ...
  std::string title;            // one line
  std::string source;           // where in the paper: "Memformer paper, eqs 26-27"
  std::string paper_claim;      // what the paper says
  std::string corrected_claim;  // what holds (verified)
  std::string paper_value;      // the paper's number or formula, short
  std::string corrected_value;  // the corrected number or formula, short
  // Property names (or unit tests, "tests/unit/x_test.cpp: name") that demonstrate the finding.
  std::vector<std::string> evidence;
  // Optional: computes the deciding number now. Called by `iclproof report` with the MPFR
  // precision already set to the run's precision; must be deterministic (seeded) and quick.
  std::function<finding_measurement()> measure;
};

// Registers a finding. Throws std::logic_error if the same id is registered twice.
void register_finding(finding f);

struct finding_registrar {
  explicit finding_registrar(finding f) { register_finding(std::move(f)); }
};

// Every registered finding, sorted by family then id.
std::vector<finding> all_findings();

}  // namespace iclproof
