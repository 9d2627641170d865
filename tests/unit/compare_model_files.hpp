// weights_file values for the compare tests (compare_gated_lsa_test, compare_gated_memformer_test,
// compare_sweep_test): the header fields every file has, and Prop 1's one-layer construction.
#pragma once

#include "compare/weights_file.hpp"
#include "core/linalg.hpp"

#include <string>

namespace iclproof {

inline weights_file base_file(const std::string& experiment, learned_model_kind kind, int d, int N,
                              int layers, bool tied, const std::string& inputs) {
  weights_file w;
  w.source = experiment + " (test)";
  w.schema_version = 1;
  w.experiment = experiment;
  w.preset = "test";
  w.kind = kind;
  w.d = d;
  w.N = N;
  w.layers = layers;
  w.tied = tied;
  w.inputs = inputs;
  return w;
}

// Prop 1's construction: W_K = W_Q = [[I,0],[0,0]], W_V = [[0,0],[0,-1]], P = (eta/N) I.
inline weights_file prop1(int d, int N, double eta) {
  weights_file w =
      base_file("vonoswald_single_lsa", learned_model_kind::lsa, d, N, 1, false, "uniform");
  const int D = d + 1;
  Mat<double> WK = Mat<double>::Zero(D, D), WV = Mat<double>::Zero(D, D);
  WK.topLeftCorner(d, d) = Mat<double>::Identity(d, d);
  WV(d, d) = -1.0;
  w.parameter_sets = {{{"W_K", WK},
                       {"W_Q", WK},
                       {"W_V", WV},
                       {"P", Mat<double>(Mat<double>::Identity(D, D) * (eta / N))}}};
  return w;
}

}  // namespace iclproof
