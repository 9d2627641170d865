#include "tasks/regression_task.hpp"

#include <fmt/format.h>
#include <Eigen/QR>

#include <boost/multiprecision/gmp.hpp>

#include <cmath>
#include <ostream>
#include <stdexcept>
#include <vector>

namespace iclproof {

std::string to_string(input_distribution d) {
  switch (d) {
    case input_distribution::gaussian:
      return "gaussian";
    case input_distribution::uniform:
      return "uniform";
    case input_distribution::anisotropic:
      return "anisotropic";
    case input_distribution::rank_deficient:
      return "rank-deficient";
  }
  return "?";
}

std::ostream& operator<<(std::ostream& os, const task_spec& s) {
  os << fmt::format("{{d={}, o={}, N={}, queries={}, x~{}", s.d, s.o, s.N, s.queries,
                    to_string(s.distribution));
  if (s.distribution == input_distribution::anisotropic)
    os << fmt::format(", cond={:g}", s.condition);
  if (s.distribution == input_distribution::rank_deficient) os << fmt::format(", rank={}", s.rank);
  os << fmt::format(", noise={:g}, data_seed={}}}", s.noise, s.seed);
  return os;
}

std::uint64_t data_rng::next_u64() {
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
double data_rng::uniform01() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }
double data_rng::uniform(double a, double b) { return a + (b - a) * uniform01(); }
double data_rng::normal() {
  double u1 = uniform01();
  while (u1 == 0.0) u1 = uniform01();
  const double u2 = uniform01();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}
Mat<double> data_rng::normal_matrix(Eigen::Index r, Eigen::Index c) {
  Mat<double> m(r, c);
  for (Eigen::Index j = 0; j < c; ++j)
    for (Eigen::Index i = 0; i < r; ++i) m(i, j) = normal();
  return m;
}
Mat<double> data_rng::uniform_matrix(Eigen::Index r, Eigen::Index c, double a, double b) {
  Mat<double> m(r, c);
  for (Eigen::Index j = 0; j < c; ++j)
    for (Eigen::Index i = 0; i < r; ++i) m(i, j) = uniform(a, b);
  return m;
}
Mat<double> data_rng::orthogonal_matrix(Eigen::Index n) {
  Eigen::HouseholderQR<Mat<double>> qr(normal_matrix(n, n));
  return qr.householderQ() * Mat<double>::Identity(n, n);
}

regression_task<double> make_task_double(const task_spec& s) {
  if (s.d < 1 || s.o < 1 || s.N < 1 || s.queries < 1)
    throw std::invalid_argument(fmt::format(
        "task dimensions must be positive: d={} o={} N={} queries={}", s.d, s.o, s.N, s.queries));
  if (!(s.condition >= 1.0) || !std::isfinite(s.condition))
    throw std::invalid_argument(
        fmt::format("task condition number must be >= 1, got {}", s.condition));
  if (!(s.noise >= 0.0) || !std::isfinite(s.noise))
    throw std::invalid_argument(fmt::format("task noise must be >= 0, got {}", s.noise));
  data_rng rng(s.seed);
  const Eigen::Index n_all = s.N + s.queries;
  Mat<double> Xall;
  switch (s.distribution) {
    case input_distribution::gaussian:
      Xall = rng.normal_matrix(s.d, n_all);
      break;
    case input_distribution::uniform:
      Xall = rng.uniform_matrix(s.d, n_all, -1.0, 1.0);
      break;
    case input_distribution::anisotropic: {
      // Sigma = U^T D U with D log-spaced from 1 down to 1/condition; x = U^T D^(1/2) z.
      const Mat<double> U = rng.orthogonal_matrix(s.d);
      Vec<double> sqrt_d(s.d);
      for (int i = 0; i < s.d; ++i) {
        const double t = s.d == 1 ? 0.0 : static_cast<double>(i) / (s.d - 1);
        sqrt_d(i) = std::sqrt(std::pow(s.condition, -t));
      }
      Xall = U.transpose() * sqrt_d.asDiagonal() * rng.normal_matrix(s.d, n_all);
      break;
    }
    case input_distribution::rank_deficient: {
      if (s.rank < 1 || s.rank >= s.d)
        throw std::invalid_argument(
            fmt::format("rank-deficient task needs 1 <= rank < d, got rank={} d={}", s.rank, s.d));
      // X = B Z computed EXACTLY in double, so rank(X) <= rank holds at every precision (a
      // rounded product of orthonormal B would be full rank with ~1e-16 singular values):
      // B has integer entries in [-2, 2], Z entries are k/256 with |k| <= 512, and every sum
      // of rank <= 16 such products is a multiple of 2^-8 below 2^13: exact in 53 bits.
      // B is redrawn until it has full column rank (exactly, over the rationals) and Z until the
      // context part of X = B Z is nonzero, so 1 <= rank(X) <= rank: a zero B (probability
      // 5^-d, 4% at d = 2) once gave X = 0, rank 0, and an out-of-range singular value.
      Mat<double> B(s.d, s.rank), Z(s.rank, n_all);
      do {
        for (Eigen::Index j = 0; j < B.cols(); ++j)
          for (Eigen::Index i = 0; i < B.rows(); ++i)
            B(i, j) = static_cast<double>(static_cast<int>(rng.next_u64() % 5) - 2);
      } while (exact_rank(B) < s.rank);
      do {
        for (Eigen::Index j = 0; j < Z.cols(); ++j)
          for (Eigen::Index i = 0; i < Z.rows(); ++i)
            Z(i, j) = static_cast<double>(static_cast<int>(rng.next_u64() % 1025) - 512) / 256.0;
        Xall = B * Z;
      } while (s.N > 0 && Xall.leftCols(s.N).isZero(0.0));
      break;
    }
  }
  regression_task<double> t;
  t.spec = s;
  t.X = Xall.leftCols(s.N);
  t.Xq = Xall.rightCols(s.queries);
  t.W_star = rng.normal_matrix(s.o, s.d);
  t.Y = t.W_star * t.X;
  if (s.noise > 0.0) t.Y += s.noise * rng.normal_matrix(s.o, s.N);
  return t;
}

Eigen::Index exact_rank(const Mat<double>& A) {
  using rational = boost::multiprecision::mpq_rational;
  const Eigen::Index m = A.rows(), n = A.cols();
  std::vector<std::vector<rational>> a(m, std::vector<rational>(n));
  for (Eigen::Index i = 0; i < m; ++i)
    for (Eigen::Index j = 0; j < n; ++j)
      a[i][j] = rational(A(i, j));  // doubles are exact rationals
  Eigen::Index rank = 0;
  for (Eigen::Index col = 0; col < n && rank < m; ++col) {
    Eigen::Index pivot = rank;
    while (pivot < m && a[pivot][col] == 0) ++pivot;
    if (pivot == m) continue;
    std::swap(a[pivot], a[rank]);
    for (Eigen::Index i = rank + 1; i < m; ++i) {
      if (a[i][col] == 0) continue;
      const rational f = a[i][col] / a[rank][col];
      for (Eigen::Index j = col; j < n; ++j) a[i][j] -= f * a[rank][j];
    }
    ++rank;
  }
  return rank;
}
}  // namespace iclproof
