#include "core/interval.hpp"

#include <fmt/format.h>
#include <boost/math/constants/constants.hpp>

#include <cmath>
#include <limits>

namespace iclproof {

namespace interval_detail {

namespace {
std::string endpoints_text(mpfi_srcptr x) {
  interval_real v;
  mpfi_set(v.backend().data(), x);
  return full_digits(v);
}
}  // namespace

void throw_ambiguous(const char* op, mpfi_srcptr a, mpfi_srcptr b) {
  throw ambiguous_interval_comparison(fmt::format("ambiguous interval comparison: {} {} {}",
                                                  endpoints_text(a), op, endpoints_text(b)));
}

int certain_compare(const char* op, mpfi_srcptr a, mpfi_srcptr b) {
  if (mpfr_cmp(&a->right, &b->left) < 0) return -1;
  if (mpfr_cmp(&a->left, &b->right) > 0) return 1;
  const bool a_point = mpfr_equal_p(&a->left, &a->right) != 0;
  const bool b_point = mpfr_equal_p(&b->left, &b->right) != 0;
  if (a_point && b_point && mpfr_equal_p(&a->left, &b->left)) return 0;
  // lo(a) >= hi(b) (touching at one point) decides `<` (false) and `>=` but not `>`/`==`:
  // Boost asks `<` as eval_lt and `<=` as !eval_gt, `>` as eval_gt, `>=` as !eval_lt.
  const std::string o(op);
  if (o == "<" && mpfr_cmp(&a->left, &b->right) >= 0) return 1;   // a >= b: `<` is false
  if (o == ">" && mpfr_cmp(&a->right, &b->left) <= 0) return -1;  // a <= b: `>` is false
  throw_ambiguous(op, a, b);
}

}  // namespace interval_detail

mpfr_real lower(const interval_real& x) {
  mpfr_real r;
  mpfr_set_prec(r.backend().data(), mpfi_get_prec(x.backend().data()));
  mpfi_get_left(r.backend().data(), x.backend().data());
  return r;
}
mpfr_real upper(const interval_real& x) {
  mpfr_real r;
  mpfr_set_prec(r.backend().data(), mpfi_get_prec(x.backend().data()));
  mpfi_get_right(r.backend().data(), x.backend().data());
  return r;
}

interval_real interval_from_endpoints(const mpfr_real& lo, const mpfr_real& hi) {
  interval_real r;
  mpfi_interv_fr(r.backend().data(), lo.backend().data(), hi.backend().data());
  return r;
}

interval_real interval_point(const mpfr_real& x) {
  interval_real r;
  mpfi_set_fr(r.backend().data(), x.backend().data());
  if (!is_point(r))
    throw std::domain_error("interval_point: value not representable at the interval precision");
  return r;
}

bool contains_zero(const interval_real& x) { return mpfi_has_zero(x.backend().data()) != 0; }

bool is_point(const interval_real& x) {
  return mpfr_equal_p(&x.backend().data()->left, &x.backend().data()->right) != 0;
}

mpfr_real width(const interval_real& x) {
  mpfr_real r;
  mpfr_set_prec(r.backend().data(), mpfi_get_prec(x.backend().data()));
  mpfi_diam_abs(r.backend().data(), x.backend().data());  // rounded up
  return r;
}

interval_real midpoint_point(const interval_real& x) {
  mpfr_real m;
  mpfr_set_prec(m.backend().data(), mpfi_get_prec(x.backend().data()));
  mpfi_mid(m.backend().data(), x.backend().data());
  interval_real r;
  mpfi_set_fr(r.backend().data(), m.backend().data());
  return r;
}

interval_real hull_max(const interval_real& a, const interval_real& b) {
  const mpfr_real lo = lower(a) < lower(b) ? lower(b) : lower(a);
  const mpfr_real hi = upper(a) < upper(b) ? upper(b) : upper(a);
  return interval_from_endpoints(lo, hi);
}

interval_real hull(const interval_real& a, const interval_real& b) {
  interval_real r;
  mpfi_union(r.backend().data(), a.backend().data(), b.backend().data());
  return r;
}

namespace {
// f monotone increasing (or decreasing: swap) with correctly rounded MPFR evaluation.
template <class F>
interval_real monotone_enclosure(const interval_real& x, F f, bool increasing) {
  const mpfr_prec_t p = mpfi_get_prec(x.backend().data());
  const mpfr_real lo = lower(x), hi = upper(x);
  mpfr_real a, b;
  mpfr_set_prec(a.backend().data(), p);
  mpfr_set_prec(b.backend().data(), p);
  if (increasing) {
    f(a.backend().data(), lo.backend().data(), MPFR_RNDD);
    f(b.backend().data(), hi.backend().data(), MPFR_RNDU);
  } else {
    f(a.backend().data(), hi.backend().data(), MPFR_RNDD);
    f(b.backend().data(), lo.backend().data(), MPFR_RNDU);
  }
  return interval_from_endpoints(a, b);
}
}  // namespace

interval_real erf_enclosure(const interval_real& x) {
  return monotone_enclosure(
      x, [](mpfr_ptr r, mpfr_srcptr a, mpfr_rnd_t m) { mpfr_erf(r, a, m); }, true);
}
interval_real erfc_enclosure(const interval_real& x) {
  return monotone_enclosure(
      x, [](mpfr_ptr r, mpfr_srcptr a, mpfr_rnd_t m) { mpfr_erfc(r, a, m); }, false);
}
interval_real exp_enclosure(const interval_real& x) {
  interval_real r;
  mpfi_exp(r.backend().data(), x.backend().data());
  return r;
}
interval_real tanh_enclosure(const interval_real& x) {
  interval_real r;
  mpfi_tanh(r.backend().data(), x.backend().data());
  return r;
}

double log2_abs(const interval_real& x) {
  const mpfr_real lo = lower(x), hi = upper(x);
  if (mpfr_nan_p(lo.backend().data()) || mpfr_nan_p(hi.backend().data()))
    return std::numeric_limits<double>::quiet_NaN();
  const mpfr_real m = abs_of(lo) < abs_of(hi) ? abs_of(hi) : abs_of(lo);
  if (mpfr_zero_p(m.backend().data())) return -std::numeric_limits<double>::infinity();
  if (mpfr_inf_p(m.backend().data())) return std::numeric_limits<double>::infinity();
  mpfr_t a;
  mpfr_init2(a, 64);
  mpfr_log2(a, m.backend().data(), MPFR_RNDU);
  const double r = mpfr_get_d(a, MPFR_RNDU);
  mpfr_clear(a);
  return r;
}

std::string full_digits(const interval_real& x) {
  return "[" + full_digits(lower(x)) + ", " + full_digits(upper(x)) + "]";
}

double log2_width_in_eps(const interval_real& x) {
  const mpfr_real w = width(x);
  if (mpfr_zero_p(w.backend().data())) return -std::numeric_limits<double>::infinity();
  return log2_abs(w) - (1.0 - precision_of(x));
}

template <>
interval_real pi_value<interval_real>() {
  interval_real r;
  mpfi_const_pi(r.backend().data());
  return r;
}

}  // namespace iclproof
