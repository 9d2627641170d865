#include "core/ball.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <ostream>

namespace iclproof {

long ball_precision() {
  const long p = ball_detail::precision_bits.load(std::memory_order_relaxed);
  return p > 0 ? p : scalar_traits<mpfr_real>::bits();
}

void set_ball_precision(long bits) {
  ball_detail::precision_bits.store(bits, std::memory_order_relaxed);
}

namespace {
// An MPFR number holding an arf exactly (its precision is the arf's bit count).
mpfr_real exact_mpfr(const arf_t a) {
  mpfr_real r;
  const slong bits = arf_bits(a);
  mpfr_set_prec(r.backend().data(), bits < MPFR_PREC_MIN ? MPFR_PREC_MIN : bits);
  arf_get_mpfr(r.backend().data(), a, MPFR_RNDN);  // exact at arf_bits
  return r;
}
}  // namespace

ball_real::ball_real(const mpfr_real& x) {
  arb_init(v_);
  arf_set_mpfr(arb_midref(v_), x.backend().data());  // exact
}

void ball_real::set_long_double(long double a) {
  mpfr_t t;
  mpfr_init2(t, 64);
  mpfr_set_ld(t, a, MPFR_RNDN);  // exact: 64 bits hold every long double
  arf_set_mpfr(arb_midref(v_), t);
  mpfr_clear(t);
}

ball_real::operator long double() const {
  return mpfr_get_ld(exact_mpfr(arb_midref(v_)).backend().data(), MPFR_RNDN);
}

namespace {
// The exact ends m - r and m + r of a ball (arf arithmetic without rounding; a NaN midpoint
// gives NaN ends). Arb's own arb_lt / arb_ge round the difference of the two balls, so at
// touching ends (lo(a) = hi(b)) they answer "not certain" where the interval scalar answers.
class exact_ends {
 public:
  explicit exact_ends(const ball_real& x) {
    arf_init(lo);
    arf_init(hi);
    arf_set_mag(hi, arb_radref(x.data()));  // exact
    arf_sub(lo, arb_midref(x.data()), hi, ARF_PREC_EXACT, ARF_RND_DOWN);
    arf_add(hi, arb_midref(x.data()), hi, ARF_PREC_EXACT, ARF_RND_UP);
  }
  ~exact_ends() {
    arf_clear(lo);
    arf_clear(hi);
  }
  exact_ends(const exact_ends&) = delete;
  exact_ends& operator=(const exact_ends&) = delete;
  bool nan() const { return arf_is_nan(lo) || arf_is_nan(hi); }
  arf_t lo, hi;
};
}  // namespace

bool ball_real::certainly_less(const ball_real& a, const ball_real& b) {
  const exact_ends x(a), y(b);
  if (!x.nan() && !y.nan()) {
    if (arf_cmp(x.hi, y.lo) < 0) return true;    // every point of a below every point of b
    if (arf_cmp(x.lo, y.hi) >= 0) return false;  // lo(a) >= hi(b): `<` is certainly false
  }
  throw ambiguous_interval_comparison(
      fmt::format("ambiguous ball comparison: {} < {}", full_digits(a), full_digits(b)));
}

bool ball_real::certainly_equal(const ball_real& a, const ball_real& b) {
  const exact_ends x(a), y(b);
  if (!x.nan() && !y.nan()) {
    if (arb_is_exact(a.v_) && arb_is_exact(b.v_) && arf_equal(arb_midref(a.v_), arb_midref(b.v_)))
      return true;                                                         // two equal exact points
    if (arf_cmp(x.hi, y.lo) < 0 || arf_cmp(y.hi, x.lo) < 0) return false;  // disjoint
  }
  throw ambiguous_interval_comparison(
      fmt::format("ambiguous ball comparison: {} == {}", full_digits(a), full_digits(b)));
}

ball_real abs(const ball_real& x) {
  ball_real r;
  if (!arb_is_finite(x.data()) || !arb_contains_zero(x.data())) {
    arb_abs(r.data(), x.data());  // |m| +/- r: exact, and >= 0 throughout when 0 is outside
    return r;
  }
  // 0 inside: Arb's arb_abs gives |m| +/- r, whose lower end is below 0 (MPFI's abs gives
  // [0, max]). Here [m' - m', m' + m'] = [0, 2 m'] with m' >= half the upper bound of |x|, both
  // exactly the same 30-bit number, so the lower end is exactly 0 and the ball contains |x|.
  arf_t u;
  arf_init(u);
  arb_get_abs_ubound_arf(u, x.data(), 64);  // >= |p| for every point p
  arf_mul_2exp_si(u, u, -1);
  arf_get_mag(arb_radref(r.data()), u);                     // m' >= u / 2
  arf_set_mag(arb_midref(r.data()), arb_radref(r.data()));  // exact
  arf_clear(u);
  return r;
}
ball_real sqrt(const ball_real& x) {
  ball_real r;
  arb_sqrt(r.data(), x.data(), ball_precision());
  return r;
}
ball_real exp(const ball_real& x) {
  ball_real r;
  arb_exp(r.data(), x.data(), ball_precision());
  return r;
}
ball_real log(const ball_real& x) {
  ball_real r;
  arb_log(r.data(), x.data(), ball_precision());
  return r;
}
ball_real tanh(const ball_real& x) {
  ball_real r;
  arb_tanh(r.data(), x.data(), ball_precision());
  return r;
}
ball_real erf(const ball_real& x) {
  ball_real r;
  arb_hypgeom_erf(r.data(), x.data(), ball_precision());
  return r;
}
ball_real erfc(const ball_real& x) {
  ball_real r;
  arb_hypgeom_erfc(r.data(), x.data(), ball_precision());
  return r;
}
ball_real pow(const ball_real& x, const ball_real& y) {
  ball_real r;
  arb_pow(r.data(), x.data(), y.data(), ball_precision());
  return r;
}
ball_real ldexp(const ball_real& x, int e) {
  ball_real r;
  arb_mul_2exp_si(r.data(), x.data(), e);  // exact
  return r;
}
bool isfinite(const ball_real& x) { return arb_is_finite(x.data()) != 0; }
bool isnan(const ball_real& x) { return arf_is_nan(arb_midref(x.data())) != 0; }

ball_real ball_from_endpoints(const mpfr_real& lo, const mpfr_real& hi) {
  ball_real r;
  arb_set_interval_mpfr(r.data(), lo.backend().data(), hi.backend().data(), ball_precision());
  return r;
}

mpfr_real lower(const ball_real& x) {
  mpfr_real lo, hi;
  mpfr_set_prec(lo.backend().data(), ball_precision());
  mpfr_set_prec(hi.backend().data(), ball_precision());
  arb_get_interval_mpfr(lo.backend().data(), hi.backend().data(), x.data());
  return lo;
}
mpfr_real upper(const ball_real& x) {
  mpfr_real lo, hi;
  mpfr_set_prec(lo.backend().data(), ball_precision());
  mpfr_set_prec(hi.backend().data(), ball_precision());
  arb_get_interval_mpfr(lo.backend().data(), hi.backend().data(), x.data());
  return hi;
}

bool contains_zero(const ball_real& x) { return arb_contains_zero(x.data()) != 0; }
bool is_point(const ball_real& x) { return arb_is_exact(x.data()) != 0; }

bool contains(const ball_real& x, const rational_real& q) {
  fmpq_t f;
  fmpq_init(f);
  fmpq_set_mpq(f, q.backend().data());
  const bool in = arb_contains_fmpq(x.data(), f) != 0;
  fmpq_clear(f);
  return in;
}

double radius_upper(const ball_real& x) { return mag_get_d(arb_radref(x.data())); }

mpfr_real width(const ball_real& x) {
  arf_t w;
  arf_init(w);
  arf_set_mag(w, arb_radref(x.data()));  // exact
  arf_mul_2exp_si(w, w, 1);
  mpfr_real r = exact_mpfr(w);
  arf_clear(w);
  return r;
}

ball_real midpoint_point(const ball_real& x) {
  ball_real r;
  arf_set(arb_midref(r.data()), arb_midref(x.data()));
  return r;
}

ball_real hull_max(const ball_real& a, const ball_real& b) {
  ball_real r;
  arb_max(r.data(), a.data(), b.data(), ball_precision());
  return r;
}

ball_real hull(const ball_real& a, const ball_real& b) {
  ball_real r;
  arb_union(r.data(), a.data(), b.data(), ball_precision());
  return r;
}

interval_real to_interval_enclosure(const ball_real& x) {
  interval_real r;  // the interval precision (the run's MPFR setting)
  const mpfr_prec_t p = mpfi_get_prec(r.backend().data());
  mpfr_t lo, hi;
  mpfr_init2(lo, p);
  mpfr_init2(hi, p);
  arb_get_interval_mpfr(lo, hi, x.data());  // rounded outward at p bits
  mpfi_interv_fr(r.backend().data(), lo, hi);
  mpfr_clear(lo);
  mpfr_clear(hi);
  return r;
}

ball_real ball_of(const interval_real& x) {
  ball_real r;
  arb_set_interval_mpfr(r.data(), &x.backend().data()->left, &x.backend().data()->right,
                        ball_precision());
  return r;
}

double log2_abs(const ball_real& x) {
  if (isnan(x)) return std::numeric_limits<double>::quiet_NaN();
  arf_t u;
  arf_init(u);
  arb_get_abs_ubound_arf(u, x.data(), 64);  // |x| <= u (rounded up)
  double r;
  if (arf_is_zero(u)) {
    r = -std::numeric_limits<double>::infinity();
  } else if (arf_is_inf(u)) {
    r = std::numeric_limits<double>::infinity();
  } else {
    r = log2_abs(exact_mpfr(u));
  }
  arf_clear(u);
  return r;
}

std::string full_digits(const ball_real& x) {
  // One fmt::format, not a chain of string operator+: GCC 12 with the precompiled headers
  // reports a false -Wstringop-overflow on the inlined memcpy of `const char* + string&&`
  // (seen in a clean-clone CI build of f1aec7e).
  return fmt::format("[{} +/- {:.3e}]", full_digits(exact_mpfr(arb_midref(x.data()))),
                     radius_upper(x));
}

double log2_width_in_eps(const ball_real& x) {
  if (arb_is_exact(x.data())) return -std::numeric_limits<double>::infinity();
  if (!arb_is_finite(x.data())) return std::numeric_limits<double>::infinity();
  // log2(2 r) - (1 - p); Arb's log2 of a mag is approximate to ~1e-9 (display only).
  return 1.0 + mag_get_d_log2_approx(arb_radref(x.data())) - (1.0 - ball_precision());
}

std::ostream& operator<<(std::ostream& os, const ball_real& x) {
  char* s = arb_get_str(x.data(), static_cast<slong>(os.precision() > 0 ? os.precision() : 6), 0);
  os << s;
  flint_free(s);
  return os;
}

template <>
ball_real pi_value<ball_real>() {
  ball_real r;
  arb_const_pi(r.data(), ball_precision());
  return r;
}

}  // namespace iclproof
