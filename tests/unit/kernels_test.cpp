// The MPFR kernels of core/kernels.hpp: the exact-accumulator dot product must
// equal mpfr_dot (MPFR's own correctly rounded dot product) bit for bit, on its fast path and on
// every fallback (wide exponent spread, large precision, NaN/infinity), with an addend, aliased
// output, zeros of both signs and exact cancellation; matmul's MPFR entries are these dot
// products; the in-place entrywise updates equal the Eigen expressions they replace bit for bit.
#include "core/kernels.hpp"
#include "core/linalg.hpp"
#include "core/precision.hpp"

#include <catch2/catch.hpp>

#include <mpfr.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

using namespace iclproof;

namespace {

// A value at `bits` bits: a random full significand (two doubles' worth, then divided by 3 so
// every limb is used), sign and binary exponent in [-spread, spread]; zero with probability
// p_zero (either sign).
mpfr_real random_value(std::mt19937_64& g, mpfr_prec_t bits, int spread, double p_zero) {
  mpfr_real x;
  mpfr_set_prec(x.backend().data(), bits);
  std::uniform_real_distribution<double> u(-1, 1), z(0, 1);
  if (z(g) < p_zero) {
    mpfr_set_zero(x.backend().data(), z(g) < 0.5 ? 1 : -1);
    return x;
  }
  mpfr_set_d(x.backend().data(), u(g), MPFR_RNDN);
  mpfr_add_d(x.backend().data(), x.backend().data(), u(g) * 1e-17, MPFR_RNDN);
  mpfr_div_ui(x.backend().data(), x.backend().data(), 3, MPFR_RNDN);
  if (spread > 0) {
    std::uniform_int_distribution<int> e(-spread, spread);
    mpfr_mul_2si(x.backend().data(), x.backend().data(), e(g), MPFR_RNDN);
  }
  return x;
}

std::string text(const mpfr_real& x) {
  std::vector<char> buf(16 + 2 * static_cast<std::size_t>(mpfr_get_prec(x.backend().data())));
  mpfr_snprintf(buf.data(), buf.size(), "%Ra", x.backend().data());
  return buf.data();
}

// res at `bits` bits = mpfr_dot(a, b) (+ addend), the reference.
mpfr_real reference_dot(const std::vector<mpfr_real>& a, const std::vector<mpfr_real>& b,
                        const mpfr_real* addend, mpfr_prec_t bits) {
  std::vector<mpfr_ptr> x, y;
  for (std::size_t k = 0; k < a.size(); ++k) {
    x.push_back(const_cast<mpfr_ptr>(a[k].backend().data()));
    y.push_back(const_cast<mpfr_ptr>(b[k].backend().data()));
  }
  mpfr_real one(1);
  if (addend != nullptr) {
    x.push_back(const_cast<mpfr_ptr>(addend->backend().data()));
    y.push_back(one.backend().data());
  }
  mpfr_real r;
  mpfr_set_prec(r.backend().data(), bits);
  mpfr_dot(r.backend().data(), x.data(), y.data(), x.size(), MPFR_RNDN);
  return r;
}

bool identical(const mpfr_real& x, const mpfr_real& y) {
  const mpfr_srcptr a = x.backend().data(), b = y.backend().data();
  if (mpfr_nan_p(a) || mpfr_nan_p(b)) return mpfr_nan_p(a) && mpfr_nan_p(b);
  return mpfr_get_prec(a) == mpfr_get_prec(b) && mpfr_equal_p(a, b) &&
         (mpfr_signbit(a) != 0) == (mpfr_signbit(b) != 0);
}

struct dot_case {
  mpfr_prec_t bits_a, bits_b, bits_res;
  int spread;
  double p_zero;
  bool cancel, with_addend;
  bool short_significands = false;  // each operand rounded to a random 1..bits significant bits
};

// x rounded to a random number of significant bits in [1, its precision], kept at its
// precision (exact): trailing zero limbs, as exact doubles and short sums have at 257 bits.
void shorten(std::mt19937_64& g, mpfr_real& x) {
  const mpfr_ptr p = x.backend().data();
  const mpfr_prec_t bits = mpfr_get_prec(p);
  // Lengths around one and two limbs (doubles, their exact products) and anywhere up to bits.
  const mpfr_prec_t pick[] = {1, 2, 53, 63, 64, 65, 106, 127, 128, 129};
  std::uniform_int_distribution<int> which(0, 10);
  const int w = which(g);
  mpfr_prec_t keep = w < 10 ? pick[w] : std::uniform_int_distribution<mpfr_prec_t>(1, bits)(g);
  keep = std::min(keep, bits);
  mpfr_prec_round(p, keep, MPFR_RNDN);
  mpfr_prec_round(p, bits, MPFR_RNDN);  // exact: more bits
}

void check_against_mpfr_dot(const dot_case& c, std::uint64_t seed, int n) {
  std::mt19937_64 g(seed);
  std::vector<mpfr_real> a, b;
  for (int k = 0; k < n; ++k) {
    a.push_back(random_value(g, c.bits_a, c.spread, c.p_zero));
    b.push_back(random_value(g, c.bits_b, c.spread, c.p_zero));
    if (c.short_significands) shorten(g, a.back()), shorten(g, b.back());
  }
  if (c.cancel && n >= 2)  // the second half cancels the first exactly, up to one term
    for (int k = 0; k + n / 2 < n && k < n / 2; ++k) {
      const auto src = static_cast<std::size_t>(k), dst = static_cast<std::size_t>(k + n / 2);
      mpfr_set_prec(a[dst].backend().data(), c.bits_a);
      mpfr_neg(a[dst].backend().data(), a[src].backend().data(), MPFR_RNDN);  // exact
      mpfr_set_prec(b[dst].backend().data(), c.bits_b);
      mpfr_set(b[dst].backend().data(), b[src].backend().data(), MPFR_RNDN);
    }
  mpfr_real addend = random_value(g, c.bits_res, c.spread, c.p_zero);
  if (c.short_significands) shorten(g, addend);
  const mpfr_real* add = c.with_addend ? &addend : nullptr;
  const mpfr_real ref = reference_dot(a, b, add, c.bits_res);
  mpfr_real got;
  mpfr_set_prec(got.backend().data(), c.bits_res);
  mpfr_dot_into(got.backend().data(), a.data(), 1, b.data(), 1, n,
                add != nullptr ? add->backend().data() : nullptr);
  INFO("seed " << seed << ", n " << n << ", bits " << c.bits_a << "/" << c.bits_b << "/"
               << c.bits_res << ", spread " << c.spread << ", p_zero " << c.p_zero << ", cancel "
               << c.cancel << ", addend " << c.with_addend << ", short significands "
               << c.short_significands << "\nmpfr_dot:      " << text(ref) << "\nmpfr_dot_into: "
               << text(got) << "\nreproduce: build/bin/iclproof_unit_tests '[kernels]'");
  REQUIRE(identical(got, ref));
  if (c.with_addend && c.bits_res == c.bits_a) {  // aliased: the result overwrites the addend
    mpfr_real acc = addend;
    mpfr_dot_into(acc.backend().data(), a.data(), 1, b.data(), 1, n, acc.backend().data());
    REQUIRE(identical(acc, ref));
  }
}

}  // namespace

TEST_CASE("mpfr_dot_into equals mpfr_dot bit for bit (fast path and every fallback)", "[kernels]") {
  scoped_mpfr_precision p(256);
  const std::vector<dot_case> cases = {
      {257, 257, 257, 0, 0.0, false, false},     // the benchmarks' case
      {257, 257, 257, 8, 0.2, false, true},      // zeros, spread exponents, addend
      {257, 257, 257, 4, 0.0, true, true},       // exact cancellation down to the addend
      {257, 257, 257, 0, 0.0, true, false},      // cancellation to one term or to zero
      {53, 257, 113, 30, 0.1, false, true},      // mixed precisions
      {1027, 1027, 1027, 16, 0.1, false, true},  // 17 limbs, still the fast path
      {2000, 2000, 2000, 2, 0.0, false, true},   // beyond max_term_limbs: mpfr_dot
      {257, 257, 257, 20000, 0.0, false, true},  // beyond the accumulator: mpfr_dot
      {257, 257, 64, 60, 0.0, true, false},      // result narrower than the operands
      {257, 257, 257, 0, 1.0, false, true},      // only zeros (sign rule)
      {257, 257, 257, 0, 1.0, false, false},     // only zeros, no addend
      // Short significands (trailing zero limbs, dropped by the fast path): one-limb factors
      // (mpn_mul_1), equal lengths (mpn_mul_n), unequal lengths (mpn_mul), with zeros,
      // cancellation, spread exponents, mixed and narrow results.
      {257, 257, 257, 0, 0.0, false, false, true},
      {257, 257, 257, 8, 0.2, false, true, true},
      {257, 257, 257, 4, 0.0, true, true, true},
      {257, 257, 257, 0, 0.0, true, false, true},
      {53, 257, 113, 30, 0.1, false, true, true},
      {1027, 1027, 1027, 16, 0.1, false, true, true},
      {257, 257, 64, 60, 0.0, true, false, true},
      {1027, 257, 513, 200, 0.0, false, true, true},
  };
  for (std::size_t i = 0; i < cases.size(); ++i)
    for (int n : {0, 1, 2, 3, 11, 40})
      for (std::uint64_t s = 0; s < 20; ++s) check_against_mpfr_dot(cases[i], 1000 * i + s, n);
}

TEST_CASE("mpfr_dot_into: NaN and infinities go to mpfr_dot", "[kernels]") {
  scoped_mpfr_precision p(256);
  std::vector<mpfr_real> a{mpfr_real(1), mpfr_real(2)}, b{mpfr_real(3), mpfr_real(4)};
  mpfr_set_inf(b[1].backend().data(), 1);
  mpfr_real r;
  mpfr_dot_into(r.backend().data(), a.data(), 1, b.data(), 1, 2);
  CHECK(mpfr_inf_p(r.backend().data()));
  CHECK(mpfr_sgn(r.backend().data()) > 0);
  mpfr_set_zero(a[1].backend().data(), 1);  // 0 * inf
  mpfr_dot_into(r.backend().data(), a.data(), 1, b.data(), 1, 2);
  CHECK(mpfr_nan_p(r.backend().data()));
  a[1] = mpfr_real(1);
  mpfr_set_nan(a[0].backend().data());
  mpfr_dot_into(r.backend().data(), a.data(), 1, b.data(), 1, 2);
  CHECK(mpfr_nan_p(r.backend().data()));
}

TEST_CASE("MPFR matmul entries are correctly rounded dot products, strides of N, TN, NT",
          "[kernels]") {
  scoped_mpfr_precision p(256);
  std::mt19937_64 g(7);
  const auto random_matrix = [&](Eigen::Index r, Eigen::Index c) {
    Mat<mpfr_real> M(r, c);
    for (Eigen::Index j = 0; j < c; ++j)
      for (Eigen::Index i = 0; i < r; ++i) M(i, j) = random_value(g, 257, 3, 0.1);
    return M;
  };
  const Mat<mpfr_real> A = random_matrix(5, 7), B = random_matrix(7, 4), Bt = random_matrix(4, 7),
                       At = random_matrix(7, 5);
  const auto expect = [&](const Mat<mpfr_real>& C, const Mat<mpfr_real>& L, const Mat<mpfr_real>& R,
                          const char* what) {
    for (Eigen::Index i = 0; i < C.rows(); ++i)
      for (Eigen::Index j = 0; j < C.cols(); ++j) {
        std::vector<mpfr_real> x, y;
        for (Eigen::Index k = 0; k < L.cols(); ++k) {
          x.push_back(L(i, k));
          y.push_back(R(k, j));
        }
        const mpfr_real ref = reference_dot(x, y, nullptr, 257);
        INFO(what << " entry (" << i << ", " << j << "): " << text(C(i, j)) << " vs mpfr_dot "
                  << text(ref));
        REQUIRE(identical(C(i, j), ref));
      }
  };
  expect(matmul(A, B), A, B, "A B");
  expect(matmul_tn(At, B), Mat<mpfr_real>(At.transpose()), B, "A^T B");
  expect(matmul_nt(A, Bt), A, Mat<mpfr_real>(Bt.transpose()), "A B^T");
}

TEST_CASE("in-place entrywise updates equal the Eigen expressions bit for bit", "[kernels]") {
  scoped_mpfr_precision p(256);
  std::mt19937_64 g(11);
  Mat<mpfr_real> Y(3, 4), X(3, 4), G(3, 4);
  for (Eigen::Index k = 0; k < Y.size(); ++k) {
    Y(k) = random_value(g, 257, 4, 0.0);
    X(k) = random_value(g, 257, 4, 0.0);
    G(k) = random_value(g, 257, 4, 0.0);
  }
  const mpfr_real alpha = random_value(g, 257, 2, 0.0);
  const auto same = [](const Mat<mpfr_real>& P, const Mat<mpfr_real>& Q) {
    for (Eigen::Index k = 0; k < P.size(); ++k)
      if (!identical(P(k), Q(k))) return false;
    return true;
  };
  Mat<mpfr_real> Z = Y;
  scaled_add(Z.data(), alpha, X.data(), Z.size());
  CHECK(same(Z, Mat<mpfr_real>(Y + alpha * X)));
  Z = Y;
  hadamard_add(Z.data(), G.data(), X.data(), Z.size());
  CHECK(same(Z, Mat<mpfr_real>(Y + G.cwiseProduct(X))));
  Z = Y;
  divide_in_place(Z.data(), alpha, Z.size());
  add_in_place(Z.data(), X.data(), Z.size());
  CHECK(same(Z, Mat<mpfr_real>(X + Y / alpha)));
  Z = Y;
  scale_in_place(Z.data(), alpha, Z.size());
  CHECK(same(Z, Mat<mpfr_real>(alpha * Y)));
}
