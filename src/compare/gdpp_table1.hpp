// Vladymyrov et al. 2024, App. B Table 1 (sigma_max = 0) with error bars: GD++ with per-layer
// coefficients tuned on a sample (compare/gdpp_tuning.hpp) from several starts, every local
// minimum reached evaluated on many fresh sequences, with the standard error of the mean loss
// (docs/constructions/gdpp_rate.md, scripts/gdpp-table1.sh). The setting is Table 1's: d = 10,
// N = 20, x_i, x_q ~ N(0, I), w ~ N(0, I), no noise; the loss is (1/2)(y_hat - y_q)^2 per
// sequence (Table 1's convention, docs/constructions/gdpp_rate.md).
#pragma once

#include "compare/gdpp_tuning.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace iclproof {

// The mean of the per-sequence losses and its standard error s / sqrt(n) (s the sample standard
// deviation, n - 1 in its denominator); n >= 2.
struct sampled_loss {
  double mean = 0, standard_error = 0;
  long sequences = 0;
};
sampled_loss mean_with_standard_error(const std::vector<double>& losses);

// `n` sequences of Table 1's setting from `seed` (deterministic: data_rng).
std::vector<gdpp_tuning_task> table1_sequences(int n, std::uint64_t seed);

// The loss of GD++ (eta, gamma) on `n` fresh sequences from `seed`, drawn and evaluated one at a
// time (no sample held in memory).
sampled_loss gdpp_fresh_loss(long n, std::uint64_t seed, const std::vector<double>& eta,
                             const std::vector<double>& gamma);

// Table 1's GD++ column (sigma_max = 0), layers 1..7.
double table1_paper_gdpp(int layers);

struct table1_minimum {
  std::pair<double, double> start;  // (eta, gamma) for every layer
  std::vector<double> eta, gamma;   // the local minimum reached
  double tuning_loss = 0;           // on the tuning sample
  sampled_loss fresh;               // on the fresh sequences
};

// For `layers`: tune from each start on `tune` (tune_gdpp with that start alone, so each local
// minimum is kept) and evaluate each minimum on `fresh_n` fresh sequences from `fresh_seed`.
std::vector<table1_minimum> table1_minima(const std::vector<gdpp_tuning_task>& tune, int layers,
                                          const std::vector<std::pair<double, double>>& starts,
                                          long fresh_n, std::uint64_t fresh_seed);

}  // namespace iclproof
