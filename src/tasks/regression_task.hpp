// In-context linear-regression tasks: the inputs every construction is checked on.
//
// Conventions (CONSTRUCTIONS.md): columns are examples. X is d x N, Y is o x N, the queries
// Xq are d x Q. Labels y_i = W* x_i + noise, W* is o x d.
//
// All data are generated in double by a portable generator (SplitMix64 + Box-Muller, no
// std:: distributions whose output is implementation-defined) and then converted exactly to
// the working scalar: every scalar type and every precision sees bit-identical inputs, so
// results at precision p and 2p are comparable and an exact answer is well defined.
#pragma once

#include "core/eigen_scalar.hpp"

#include <cstdint>
#include <iosfwd>
#include <string>

namespace iclproof {

enum class input_distribution {
  gaussian,        // x ~ N(0, I_d)
  uniform,         // x ~ U(-1, 1)^d
  anisotropic,     // x ~ N(0, Sigma), Sigma = U^T D U, cond(Sigma) = condition
  rank_deficient,  // x = B z, B d x rank with small integer entries, computed exactly: rank(X) <=
                   // rank
};

std::string to_string(input_distribution d);

struct task_spec {
  int d = 3;        // input dimension
  int o = 1;        // output dimension
  int N = 8;        // context examples
  int queries = 1;  // query columns
  input_distribution distribution = input_distribution::gaussian;
  double condition = 1.0;  // cond(Sigma) for anisotropic
  int rank = 0;            // for rank_deficient: 1 <= rank < d
  double noise = 0.0;      // label noise standard deviation
  std::uint64_t seed = 1;  // data seed (independent of RapidCheck's seed)
};

std::ostream& operator<<(std::ostream& os, const task_spec& s);

template <class T>
struct regression_task {
  task_spec spec;
  Mat<T> X;       // d x N
  Mat<T> Y;       // o x N
  Mat<T> Xq;      // d x queries
  Mat<T> W_star;  // o x d, the ground-truth weights
};

// The data, generated once in double.
regression_task<double> make_task_double(const task_spec& s);

// The same data in T (exact conversion).
template <class T>
regression_task<T> make_task(const task_spec& s) {
  const regression_task<double> t = make_task_double(s);
  return {s, from_double<T>(t.X), from_double<T>(t.Y), from_double<T>(t.Xq),
          from_double<T>(t.W_star)};
}

// The exact rank of a double matrix (Gaussian elimination over the rationals, GMP): a
// tolerance-free rank for the CG and min-norm properties.
Eigen::Index exact_rank(const Mat<double>& A);

// A portable deterministic generator (SplitMix64), for data and for random weights.
class data_rng {
 public:
  explicit data_rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next_u64();
  double uniform01();  // in [0, 1), 53 random bits
  double uniform(double a, double b);
  double normal();  // Box-Muller
  Mat<double> normal_matrix(Eigen::Index r, Eigen::Index c);
  Mat<double> uniform_matrix(Eigen::Index r, Eigen::Index c, double a, double b);
  Mat<double> orthogonal_matrix(Eigen::Index n);  // Householder QR of a Gaussian matrix

 private:
  std::uint64_t state_;
};

}  // namespace iclproof
