// LayerNorm of Akyurek et al. 2023 (CONSTRUCTIONS.md section 5): the LayerNorm division
// (Lemmas 6 and 8) in closed form and its first-order convergence.
// Each check is a template on the scalar and on the implementation under test, so the mutation
// tests in tests/unit/akyurek_test.cpp can feed it a broken variant.
#pragma once

#include "akyurek_gelu_checks.hpp"

namespace iclproof::akyurek_checks {

// ------------------------------------------------------------------- LayerNorm (Lemmas 6, 8)
template <class T>
using layernorm_fn = std::function<Vec<T>(const Vec<T>&, const T&)>;

template <class T>
Vec<T> plain_layer_norm(const Vec<T>& v, const T& ln_eps) {
  return raw::layer_norm<T>(v, Vec<T>::Ones(v.size()), Vec<T>::Zero(v.size()), ln_eps);
}

struct division_case {
  int k, L;
  double c;
  std::vector<double> y;
  double N, M, ln_eps;
};

inline division_case gen_division_case(bool bypass) {
  division_case dc;
  dc.k = *rc::gen::inRange(1, 6);
  dc.L = dc.k + 2 + *rc::gen::inRange(0, 6);
  dc.c = bypass ? 1.0 : *rc::gen::element(-1.0, 1.0) * (*rc::gen::inRange(64, 1024) / 128.0);
  for (int q = 0; q < dc.k; ++q) dc.y.push_back(gen_unit_value() * 4);
  dc.N = std::ldexp(1.0, *rc::gen::inRange(8, 40));
  dc.M = bypass ? 1.0 : std::ldexp(1.0, *rc::gen::inRange(0, 20));
  dc.ln_eps = *rc::gen::element(0.0, 1e-5);
  return dc;
}

// A division case in T, noted on the context (its every input), with the LayerNorm input of
// Lemma 8: v = (N c, y_1 / M, ..., y_k / M, -N c - S / M, 0, ...), whose entries sum to 0, and
// the sums S = sum y, y2 = sum y^2, y1 = sum |y|.
template <class T>
struct division_input {
  T c, N, M, ln_eps;
  Vec<T> v;
  T S{0}, y2{0}, y1{0};
};

template <class T>
division_input<T> make_division_input(case_context& ctx, const division_case& dc) {
  division_input<T> in{T(dc.c), T(dc.N), T(dc.M), T(dc.ln_eps), Vec<T>::Zero(dc.L)};
  ctx.note("c", full_digits(in.c));
  ctx.note("N", full_digits(in.N));
  ctx.note("M", full_digits(in.M));
  ctx.note("L", std::to_string(dc.L));
  ctx.note("ln_eps", full_digits(in.ln_eps));
  in.v(0) = in.N * in.c;
  for (int q = 0; q < dc.k; ++q) {
    const T y = dc.y[size_t(q)];
    in.v(1 + q) = y / in.M;
    in.S += y;
    in.y2 += y * y;
    in.y1 += abs_of(y);
    ctx.note("y", full_digits(y));
  }
  in.v(1 + dc.k) = -in.N * in.c - in.S / in.M;
  return in;
}

// Lemma 8 (and Lemma 6 = the case c = 1, M = 1, y = x): the exact closed form
//   sqrt(2/L) M N lambda(v)_y = (y/|c|) / sqrt(1 + S/(NcM) + (S^2+|y|^2)/(2N^2c^2M^2) + eps
//   L/(2N^2c^2))
// (proofs/LayerNorm.v:layernorm_division_closed_form / layernorm_bypass_closed_form, from the
// sum of squares of v, whose entries sum to 0). For the bypass also the N entry:
// sqrt(2/L) N lambda(v)_N = N / sqrt(...), i.e. N, not the 2N of the paper's eq. (44).
// Tolerance (floating point; interval mode checks the identity): the rounding of the LayerNorm,
// whose mean cancels entries of modulus N|c|: gamma_(2L+16) (4 M N / L + 4 sum|y|/|c| + 4 |z|)
// for the y entries (derivation in the comment of layernorm_division_denominator's use below).
template <class T>
void layernorm_division_closed_form(case_context& ctx, const layernorm_fn<T>& ln, bool bypass) {
  const division_case dc = gen_division_case(bypass);
  const division_input<T> in = make_division_input<T>(ctx, dc);
  const T &c = in.c, &N = in.N, &M = in.M, &ln_eps = in.ln_eps, &S = in.S, &y2 = in.y2, &y1 = in.y1;
  const Vec<T> u = ln(in.v, ln_eps);
  const T scale = sqrt_of(T(T(2) / T(dc.L))) * M * N;
  const T den = raw::layernorm_division_denominator(S, y2, c, N, M, T(dc.L), ln_eps);
  const T g = raw::gamma_bound<T>(2.0 * dc.L + 16);
  for (int q = 0; q < dc.k; ++q) {
    const T y = dc.y[size_t(q)];
    const T z = y / abs_of(c) / den;
    const T got = scale * u(1 + q);
    if constexpr (is_interval_scalar<T>) {
      // An exact identity: the enclosure of the difference must contain 0.
      ctx.check_identity("sqrt(2/L) M N lambda(v)_y - closed form", got, z);
    } else {
      const T tol = g * (T(4) * M * N / T(dc.L) + T(4) * y1 / abs_of(c) + T(4) * abs_of(z));
      ctx.check_le<T>("|sqrt(2/L) M N lambda(v)_y - closed form|", abs_of(T(got - z)), tol);
    }
  }
  if (bypass) {
    const T got = scale * u(0);  // c = 1, M = 1: the N entry
    const T want = N / den;
    if constexpr (is_interval_scalar<T>)
      ctx.check_identity("sqrt(2/L) N lambda(v)_N - N / sqrt(...)", got, want);
    else
      ctx.check_le<T>("|sqrt(2/L) N lambda(v)_N - N / sqrt(...)|", abs_of(T(got - want)),
                      T(g * T(8) * N));
  }
}

// The same closed form squared, square-root free, as the exact rational mode checks it
// (proofs/AkyurekAlgebra.v:layernorm_division_sum_squares):
//   (2/L) M^2 N^2 lambda(v)_y^2 = (y/c)^2 / den2,  den2 = 1 + S/(NcM) + (S^2+|y|^2)/(2N^2c^2M^2)
//                                                        + eps L/(2N^2c^2),
// with lambda(v)_y^2 = (v_y - mean)^2 / (var + eps) (raw::layer_norm_squared: LayerNorm's own
// moments, without the square root) and sign(lambda(v)_y) = sign(v_y - mean) = sign(y); for the
// bypass also (2/L) N^2 lambda(v)_N^2 = N^2 / den2. Equalities: tolerance 0 (tolerance<T>).
template <class T>
using layernorm_squared_fn = std::function<Vec<T>(const Vec<T>&, const T&)>;

template <class T>
void layernorm_division_closed_form_squared(case_context& ctx,
                                            const layernorm_squared_fn<T>& ln_squared,
                                            bool bypass) {
  const division_case dc = gen_division_case(bypass);
  const division_input<T> in = make_division_input<T>(ctx, dc);
  const T &c = in.c, &N = in.N, &M = in.M, &ln_eps = in.ln_eps, &S = in.S, &y2 = in.y2;
  const Vec<T>& v = in.v;
  const Vec<T> u2 = ln_squared(v, ln_eps);
  const T scale2 = T(2) / T(dc.L) * M * M * N * N;
  const T den2 = raw::layernorm_division_denominator_squared(S, y2, c, N, M, T(dc.L), ln_eps);
  const T tol(0);  // rational: equality (ICLPROOF_EXACT_PROPERTY); balls: identities below
  const raw::layer_norm_moments<T> m = raw::layer_norm_centre(v);
  for (int q = 0; q < dc.k; ++q) {
    const T y = dc.y[size_t(q)];
    if constexpr (is_ball_scalar<T>) {
      // Balls: the closed form as an identity of enclosures (the enclosure of the difference
      // contains 0); the sign is decided on the enclosure of v_y - mean, except for y = 0 (an
      // exact point), where v_y - mean = 0 exactly and its enclosure must contain 0.
      ctx.check_identity("(2/L) M^2 N^2 lambda(v)_y^2 = (y/c)^2 / den2 (enclosures)",
                         T(scale2 * u2(1 + q)), T(y * y / (c * c) / den2));
      if (is_exact_zero(y))
        ctx.check_identity("y = 0: v_y - mean = 0 (enclosures)", T(m.centred(1 + q)), T(0));
      else
        ctx.require(
            "sign(lambda(v)_y) = sign(y) (decided on the enclosure)",
            (m.centred(1 + q) > T(0)) == (y > T(0)) && (m.centred(1 + q) < T(0)) == (y < T(0)),
            "v_y - mean = " + full_digits(T(m.centred(1 + q))) + ", y = " + full_digits(y));
    } else {
      ctx.check_le<T>("|(2/L) M^2 N^2 lambda(v)_y^2 - (y/c)^2 / den2|",
                      abs_of(T(scale2 * u2(1 + q) - y * y / (c * c) / den2)), tol);
      ctx.require(
          "sign(lambda(v)_y) = sign(y)",
          (m.centred(1 + q) > T(0)) == (y > T(0)) && (m.centred(1 + q) < T(0)) == (y < T(0)),
          "v_y - mean = " + full_digits(T(m.centred(1 + q))) + ", y = " + full_digits(y));
    }
  }
  if (bypass) {
    if constexpr (is_ball_scalar<T>)
      ctx.check_identity("(2/L) N^2 lambda(v)_N^2 = N^2 / den2 (enclosures)", T(scale2 * u2(0)),
                         T(N * N / den2));
    else
      ctx.check_le<T>("|(2/L) N^2 lambda(v)_N^2 - N^2 / den2|",
                      abs_of(T(scale2 * u2(0) - N * N / den2)), tol);
  }
}

// The exact relative error of the division, (y/|c|)^-1 sqrt(2/L) M N lambda(v)_y - 1 =
// 1/sqrt(den2) - 1 (proofs/LayerNorm.v:layernorm_division_closed_form: the same for every data
// entry y), enclosed at the given bits from the case's doubles (taken exactly).
// S = sum y and y2 = sum y^2 of a division case, exactly (enclosed at `bits`).
struct wide_division_sums {
  wide_enclosure::enclosure S, y2;
};
inline wide_division_sums wide_sums_of(const division_case& dc, mpfr_prec_t bits) {
  using wide_enclosure::enclosure;
  using wide_enclosure::exactly;
  wide_division_sums s{enclosure::ratio(0, 1, bits), enclosure::ratio(0, 1, bits)};
  for (const double y : dc.y) {
    s.S = s.S + exactly(y, bits);
    s.y2 = s.y2 + exactly(y, bits) * exactly(y, bits);
  }
  return s;
}

inline wide_enclosure::enclosure wide_exact_relative_error(const division_case& dc,
                                                           mpfr_prec_t bits) {
  using wide_enclosure::enclosure;
  using wide_enclosure::exactly;
  const auto [S, y2] = wide_sums_of(dc, bits);
  const enclosure Nc = exactly(dc.N, bits) * exactly(dc.c, bits), M = exactly(dc.M, bits);
  const enclosure den2 = S / (Nc * M) + (S * S + y2) / (Nc * Nc * M * M * 2) +
                         exactly(dc.ln_eps, bits) * long(dc.L) / (Nc * Nc * 2) + 1;
  return enclosure::ratio(1, 1, bits) / sqrt(den2) - 1;
}

// Lemma 8's convergence: the relative error of the division is -S/(2NcM) up to the proven
// second-order remainder (approximation_bounds.hpp: layernorm_division_first_order_remainder,
// the bound of proofs/LayerNorm.v:layernorm_division_relative_error, built on
// proofs/AkyurekBounds.v:layernorm_division_remainder), plus rounding relative to |z| in
// floating point (none in interval mode). The measured ratio rel_err / (-S/(2NcM)) is noted.
template <class T>
void layernorm_division_first_order(case_context& ctx, const layernorm_fn<T>& ln) {
  // Half the cases are Lemma 6's bypass (c = 1, M = 1): relative error -S/(2N), first order.
  const bool bypass = *rc::gen::arbitrary<bool>();
  const division_case dc = gen_division_case(bypass);
  ctx.note("bypass (Lemma 6)", bypass ? "yes" : "no");
  const division_input<T> in = make_division_input<T>(ctx, dc);
  const T &c = in.c, &N = in.N, &M = in.M, &ln_eps = in.ln_eps, &S = in.S, &y2 = in.y2, &y1 = in.y1;
  const Vec<T> u = ln(in.v, ln_eps);
  const T scale = sqrt_of(T(T(2) / T(dc.L))) * M * N;
  const T rem = raw::layernorm_division_first_order_remainder(S, y2, c, N, M, T(dc.L), ln_eps);
  const T g = raw::gamma_bound<T>(2.0 * dc.L + 16);
  for (int q = 0; q < dc.k; ++q) {
    const T y = dc.y[size_t(q)];
    if (y == 0) continue;
    const T exact = y / abs_of(c);
    const T rel = (scale * u(1 + q) - exact) / exact;
    const T first = -S / (T(2) * N * c * M);
    if constexpr (is_interval_scalar<T>) {
      // Interval mode: the bound is the Qed statement, evaluated in interval arithmetic, with no
      // rounding term (the enclosures contain the exact values). Its hypotheses hold here:
      // N, M > 0, c != 0, eps >= 0, y != 0, and |delta| < 1 (certified by
      // inv_sqrt_second_order_remainder, which throws otherwise).
      ctx.check_le_proved<T>("|relative error + S/(2NcM)|", abs_of(T(rel - first)), rem,
                             "proofs/LayerNorm.v:layernorm_division_relative_error");
    } else {
      const T rounding = g *
                         (T(4) * M * N / T(dc.L) + T(4) * y1 / abs_of(c) + T(8) * abs_of(exact)) /
                         abs_of(exact);
      const T tol = rem + rounding;
      ctx.check_le_hand_derived<T>(
          "|relative error + S/(2NcM)|", abs_of(T(rel - first)), tol,
          "the bound of proofs/LayerNorm.v:layernorm_division_relative_error plus the rounding "
          "model gamma_(2L+16) (4 M N / L + 4 sum|y|/|c| + 8 |y/c|) / |y/c|, hand-derived");
      if constexpr (!is_exact_scalar<T>) {
        // Each term on its own. In the sum above the rounding term dominates the remainder on
        // most draws (it is relative to |y/c|, the remainder O(1/(N M)^2)), so a 10^6-loosened
        // remainder left the check's margin unchanged (mutation 81 survived the per-check gate
        // so). The exact relative error, 1/sqrt(den2) - 1 with den2 the closed form's radicand
        // (proofs/LayerNorm.v:layernorm_division_closed_form), enclosed at 2p + 512 bits
        // (wide_enclosure.hpp), judges each bound against the error it alone bounds. The
        // enclosure's width is ~2^-(2p+512) (den2 <= 2), while the remainder bound is >= q/2 >=
        // |y|^2 / (4 (N |c| M)^2) >= 2^-160 on every draw (|y| >= 2^-18 where y != 0,
        // N |c| M <= 2^61): the width is below it by > 2^(2p + 350).
        const mpfr_prec_t bits = wide_enclosure::wide_enclosure_bits<T>();
        const auto rel_exact = wide_exact_relative_error(dc, bits);
        // The first-order term and the remainder bound from the exact sums, the remainder
        // evaluated on the enclosures (raw::ratio_like) and rounded up into T once: where the
        // remainder is attained to within the rounding of its own evaluation in T (q/2 with S
        // near 0 and delta^2 below eps q: a margin of +0.0), an evaluation in T could fall below
        // the exact error (as the GeLU product's erf bound did, below).
        const auto sums = wide_sums_of(dc, bits);
        const auto Nw = wide_enclosure::exactly(N, bits), cw = wide_enclosure::exactly(c, bits),
                   Mw = wide_enclosure::exactly(M, bits);
        const auto first_w = -sums.S / (Nw * cw * Mw * 2);
        const T approx_err = wide_enclosure::upper_in<T>(abs(rel_exact - first_w));
        const T rem_up = wide_enclosure::upper_in<T>(raw::layernorm_division_first_order_remainder(
            sums.S, sums.y2, cw, Nw, Mw, wide_enclosure::enclosure::ratio(dc.L, 1, bits),
            wide_enclosure::exactly(ln_eps, bits)));
        const T rounding_err =
            wide_enclosure::upper_in<T>(abs(wide_enclosure::exactly(rel, bits) - rel_exact));
        const auto values = [&] {
          return "exact relative error in " + wide_enclosure::text(rel_exact) + "\n";
        };
        ctx.check_le_proved<T>("approximation term alone: |exact relative error + S/(2NcM)|",
                               approx_err, rem_up,
                               "proofs/LayerNorm.v:layernorm_division_relative_error", values);
        ctx.check_le<T>("rounding term alone: |relative error - exact relative error|",
                        rounding_err, rounding, values);
      }
    }
  }
}

}  // namespace iclproof::akyurek_checks
