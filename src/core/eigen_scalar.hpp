// Eigen on the three scalar types. Include this, not <Eigen/...> directly, wherever a matrix
// of mpfr_real appears: Boost 1.74's eigen.hpp lacks hypot_impl (needed by BDCSVD,
// hypotNorm, Givens rotations), which TOOLCHAIN.md measured; it is supplied here.
// Do not use blueNorm() on mpfr_real (does not compile), and do not rely on
// NumTraits<mpfr_real>::lowest() (Boost returns min()).
#pragma once

#include "core/scalar.hpp"

#include <Eigen/Dense>
#include <boost/multiprecision/eigen.hpp>

namespace Eigen::internal {
template <class Backend, boost::multiprecision::expression_template_option ET>
struct hypot_impl<boost::multiprecision::number<Backend, ET>> {
  using Scalar = boost::multiprecision::number<Backend, ET>;
  static Scalar run(const Scalar& x, const Scalar& y) { return boost::multiprecision::hypot(x, y); }
};
}  // namespace Eigen::internal

namespace iclproof {

template <class T>
using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
template <class T>
using Vec = Eigen::Matrix<T, Eigen::Dynamic, 1>;
template <class T>
using RowVec = Eigen::Matrix<T, 1, Eigen::Dynamic>;

// Exact conversion of double data (all generated inputs are doubles, so every scalar type
// and every precision sees the same inputs).
template <class T>
Mat<T> from_double(const Mat<double>& m) {
  return m.template cast<T>();
}

// Rounded conversion to double (for display and plots only, never for verdicts).
template <class T>
double to_double(const T& x) {
  return static_cast<double>(x);
}
template <class T>
Mat<double> to_double(const Mat<T>& m) {
  return m.template cast<double>();
}

// max_ij |a_ij| — the norm all entrywise comparisons use. On intervals: the enclosure of the
// max over every point of the entries' enclosures (hull_max, never an ambiguous comparison).
template <class T>
T max_abs(const Mat<T>& m) {
  T r(0);
  for (Eigen::Index j = 0; j < m.cols(); ++j)
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
      using boost::multiprecision::abs;
      using std::abs;
      const T a = abs(m(i, j));
      if constexpr (is_interval_scalar<T>) {
        r = hull_max(r, a);
      } else {
        if (!(a <= r)) r = a;  // NaN propagates: once r is NaN it stays NaN
      }
    }
  return r;
}

// Entrywise |a_ij| (shadow computations of rounding bounds run on |X|, |y|, |coefficients|).
template <class T>
Mat<T> abs_of(const Mat<T>& m) {
  Mat<T> r(m.rows(), m.cols());
  for (Eigen::Index j = 0; j < m.cols(); ++j)
    for (Eigen::Index i = 0; i < m.rows(); ++i) r(i, j) = abs_of(m(i, j));
  return r;
}

}  // namespace iclproof
