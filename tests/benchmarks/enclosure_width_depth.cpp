// Enclosure widths at depth: the same deep stacks run on Arb balls (ball_real) and MPFI
// intervals (interval_real) at 257 bits, from the same exact point inputs, and the widest
// enclosure of the tokens after each layer l = 1..12 printed as log2(width / eps), eps = 2^-256,
// next to the actual rounding error of the 257-bit MPFR run (its distance to the same stack at
// 513 bits, which stands in for the exact value: its own error is about 2^-256 times smaller).
// Every enclosure is also checked to contain the 513-bit value (exit 1 if one does not: a ball
// or interval that dropped its radius).
//
// Stacks (von Oswald et al., src/lsa/vonoswald_weights.hpp), d = 10, o = 1, N = 40 context
// tokens and one query, X, Y, x_q entries N(0, 1) doubles (data_rng seed 7, exact in every
// scalar):
//   gd    K masked Proposition 1 layers with eta_l = 3/10 (gd_stack_weights, W0 = 0);
//   gdpp  K GD++ layers with gamma_l = 1/200, eta_l = 3/10 (gdpp_stack_weights).
// The 3/10 and 1/200 are rounded once to 257 (513) bits, the same point in every 257-bit scalar.
//
// Usage: enclosure_width_depth [--markdown]   (prints a table; --markdown: a docs table)
#include "core/ball_linalg.hpp"
#include "core/precision.hpp"
#include "lsa/vonoswald_weights.hpp"
#include "tasks/regression_task.hpp"

#include <mpfr.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace {
using namespace iclproof;
constexpr int d = 10, o = 1, N = 40, depth = 12;

struct stack_data {
  Mat<double> X, Y, Xq;
};
stack_data make_data() {
  data_rng rng(7);
  stack_data s{rng.normal_matrix(d, N), rng.normal_matrix(o, N), rng.normal_matrix(d, 1)};
  return s;
}

enum class stack_kind { gd, gdpp };

// The tokens E_0 (the input) and after each of the `depth` layers, in the scalar T at the current
// precision (lsa_stack_forward: depth + 1 matrices).
template <class T>
std::vector<Mat<T>> run_stack(stack_kind kind, const stack_data& s) {
  const Mat<T> X = from_double<T>(s.X), Y = from_double<T>(s.Y), Xq = from_double<T>(s.Xq);
  const Mat<T> W0 = Mat<T>::Zero(o, d);
  const Mat<T> E = regression_tokens<T>(X, Y, Xq, prop1_query_init<T>(W0, Xq));
  const T eta = T(3) / T(10), gamma = T(1) / T(200);
  const lsa_stack<T> stack = kind == stack_kind::gd
                                 ? gd_stack_weights<T>(d, o, N, std::vector<T>(depth, eta))
                                 : gdpp_stack_weights<T>(d, o, N, std::vector<T>(depth, gamma),
                                                         std::vector<T>(depth, eta));
  return lsa_stack_forward<T>(stack, E, N);
}

// log2 |a - b| computed exactly (4096-bit difference of a 257- and a 513-bit number).
double log2_abs_diff(const mpfr_real& a, const mpfr_real& b) {
  mpfr_t t;
  mpfr_init2(t, 4096);
  mpfr_sub(t, a.backend().data(), b.backend().data(), MPFR_RNDA);
  mpfr_abs(t, t, MPFR_RNDA);
  double r = -std::numeric_limits<double>::infinity();
  if (!mpfr_zero_p(t)) {
    long e = 0;
    const double m = mpfr_get_d_2exp(&e, t, MPFR_RNDA);
    r = std::log2(m) + static_cast<double>(e);
  }
  mpfr_clear(t);
  return r;
}
bool le(const mpfr_real& a, const mpfr_real& b) {
  return mpfr_lessequal_p(a.backend().data(), b.backend().data()) != 0;
}

struct layer_widths {
  double ball = -std::numeric_limits<double>::infinity();
  double interval = -std::numeric_limits<double>::infinity();
  double mpfr_error = -std::numeric_limits<double>::infinity();
  double magnitude = -std::numeric_limits<double>::infinity();
};

int measure(stack_kind kind, const stack_data& s, std::vector<layer_widths>& out) {
  std::vector<Mat<mpfr_real>> ref;
  {
    scoped_mpfr_precision twice(512);
    ref = run_stack<mpfr_real>(kind, s);
  }
  const std::vector<Mat<mpfr_real>> fp = run_stack<mpfr_real>(kind, s);
  const std::vector<Mat<ball_real>> balls = run_stack<ball_real>(kind, s);
  const std::vector<Mat<interval_real>> ivs = run_stack<interval_real>(kind, s);
  const mpfr_real zero(0);
  int bad = 0;
  out.assign(depth + 1, {});
  for (int l = 0; l <= depth; ++l) {
    layer_widths& w = out[static_cast<std::size_t>(l)];
    for (Eigen::Index j = 0; j < ref[l].cols(); ++j)
      for (Eigen::Index i = 0; i < ref[l].rows(); ++i) {
        const mpfr_real& r = ref[l](i, j);
        const mpfr_real bl = lower(balls[l](i, j)), bu = upper(balls[l](i, j));
        const mpfr_real il = lower(ivs[l](i, j)), iu = upper(ivs[l](i, j));
        if (!le(bl, r) || !le(r, bu) || !le(il, r) || !le(r, iu)) {
          std::fprintf(stderr, "layer %d entry (%ld, %ld): an enclosure misses the 513-bit value\n",
                       l, static_cast<long>(i), static_cast<long>(j));
          ++bad;
        }
        w.ball = std::max(w.ball, log2_abs_diff(bu, bl));
        w.interval = std::max(w.interval, log2_abs_diff(iu, il));
        w.mpfr_error = std::max(w.mpfr_error, log2_abs_diff(fp[l](i, j), r));
        w.magnitude = std::max(w.magnitude, log2_abs_diff(r, zero));
      }
  }
  return bad;
}

}  // namespace

int main(int argc, char** argv) {
  const bool markdown = argc > 1 && std::strcmp(argv[1], "--markdown") == 0;
  if (argc > 2 || (argc == 2 && !markdown)) {
    std::fprintf(stderr, "usage: enclosure_width_depth [--markdown]\n");
    return 2;
  }
  const int bits = set_mpfr_precision(256).actual_bits;
  const double log2_eps = 1.0 - bits;
  const stack_data s = make_data();
  int bad = 0;
  for (const stack_kind kind : {stack_kind::gd, stack_kind::gdpp}) {
    std::vector<layer_widths> w;
    bad += measure(kind, s, w);
    const char* name = kind == stack_kind::gd ? "GD stack (Prop. 1 layers, eta = 3/10)"
                                              : "GD++ stack (gamma = 1/200, eta = 3/10)";
    std::printf(
        "%s%s, d = %d, N = %d, %d bits, eps = 2^%g: the widest enclosure (hi - lo) after "
        "each layer, the largest |entry|, the 257-bit MPFR error\n",
        markdown ? "\n" : "", name, d, N, bits, log2_eps);
    if (markdown) {
      std::printf(
          "\n| layer | ball width | MPFI width | MPFI / ball | MPFR error | max abs entry |\n"
          "|---|---|---|---|---|---|\n");
    } else {
      std::printf("layer  ball-width  MPFI-width  MPFI/ball  MPFR-error  max|entry|\n");
    }
    for (int l = 1; l <= depth; ++l) {
      const layer_widths& x = w[static_cast<std::size_t>(l)];
      const double b = x.ball - log2_eps, i = x.interval - log2_eps, e = x.mpfr_error - log2_eps;
      if (markdown)
        std::printf("| %d | 2^%.1f eps | 2^%.1f eps | %.1f | 2^%.1f eps | 2^%.1f |\n", l, b, i,
                    std::exp2(i - b), e, x.magnitude);
      else
        std::printf("%5d  %10.1f  %10.1f  %9.1f  %10.1f  %10.1f\n", l, b, i, std::exp2(i - b), e,
                    x.magnitude);
    }
  }
  if (bad) {
    std::fprintf(stderr, "%d enclosures miss the 513-bit value\n", bad);
    return 1;
  }
  return 0;
}
