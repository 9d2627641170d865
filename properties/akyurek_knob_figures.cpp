// Error-vs-knob figures of Akyurek et al.'s approximate constructions, fed to `iclproof report` as
// plot sources of the akyurek family (report/plot_series.hpp). Each figure shows, against its knob,
// the measured error in double (53 bits) and in MPFR at the run's precision, the bound the
// properties use (labelled with its Coq theorem, or "hand-derived"), and the rounding floor at each
// precision: the approximation error falls with the knob until it meets rounding, and the bound
// (approximation + rounding) sits above both. Inputs are fixed; axes are log2 values (errors at
// 256+ bits do not fit a double).
#include "akyurek.hpp"
#include "report/plot_series.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace iclproof;
using raw::gelu_form;

std::string mpfr_label(const plot_request& req) {
  return fmt::format("MPFR {} bits", req.precision_bits);
}

plot_figure knob_figure(const std::string& id, const std::string& title, const std::string& x,
                        const std::string& caption) {
  plot_figure f;
  f.id = id;
  f.family = "akyurek";
  f.title = title;
  f.x_label = x;
  f.y_label = "log2 |error| (absolute)";
  f.caption = caption +
              " Measured points with zero error (exact in that precision) are not drawn. The "
              "dotted rounding floors are the properties' worst-case rounding bounds, in the "
              "colour of the measured series of the same precision.";
  return f;
}

// ---- GeLU multiplication vs the down-scale s (Lemma 4) ---------------------------------------
template <class T>
double gelu_product_log2_error(gelu_form form, double s) {
  const T x(0.6), y(-0.4);
  return log2_abs(T(raw::gelu_product(form, x, y, T(s)) - x * y));
}
template <class T>
double gelu_product_log2_rounding(double s) {
  return log2_abs(raw::gelu_product_rounding(T(0.6), T(-0.4), T(s)));
}

plot_figure gelu_product_figure(gelu_form form, const plot_request& req) {
  const bool tanh = form == gelu_form::tanh;
  plot_figure f = knob_figure(
      fmt::format("akyurek.gelu_multiplication_{}_error_vs_downscale", raw::to_string(form)),
      fmt::format("GeLU multiplication ({} GeLU): error vs down-scale s", raw::to_string(form)),
      "log2 s (down-scale, dimensionless)",
      fmt::format(
          "|s^2 sqrt(pi/2) (g((x+y)/s) - g(x/s) - g(y/s)) - x y| at x = 0.6, y = -0.4. The "
          "approximation error falls like 1/s^2 (slope -2 on these axes; Lemma 4's O(x^3 + y^3) "
          "would give -1) until it meets the rounding floor, which grows like eps s. Bound: {}.",
          tanh ? "C (x^4 + y^4) / s^2 with C = 1, proofs/AkyurekBounds.v:gelu_tanh_product_quartic "
                 "(valid for |x|, |y| <= s/10)"
               : "|(x+y)^4 - x^4 - y^4| / (12 s^2) + ((x+y)^6 + x^6 + y^6) / (80 s^4), "
                 "proofs/GeluErf.v:gelu_erf_product_bound"));
  plot_line m53{"measured, double (53 bits)", line_style::measured, {}};
  plot_line mp{"measured, " + mpfr_label(req), line_style::measured, {}};
  plot_line bound{tanh ? "bound (AkyurekBounds.v:gelu_tanh_product_quartic)"
                       : "bound (GeluErf.v:gelu_erf_product_bound)",
                  line_style::bound,
                  {}};
  plot_line r53{"rounding floor (bound), 53 bits", line_style::reference, {}, 0};
  plot_line rp{"rounding floor (bound), " + mpfr_label(req), line_style::reference, {}, 1};
  for (int k = 3; k <= 120; k += 3) {
    const double s = std::ldexp(1.0, k);
    m53.points.push_back({double(k), gelu_product_log2_error<double>(form, s)});
    mp.points.push_back({double(k), gelu_product_log2_error<mpfr_real>(form, s)});
    bound.points.push_back({double(k), log2_abs(raw::gelu_product_bound(
                                           form, mpfr_real(0.6), mpfr_real(-0.4), mpfr_real(s)))});
    r53.points.push_back({double(k), gelu_product_log2_rounding<double>(s)});
    rp.points.push_back({double(k), gelu_product_log2_rounding<mpfr_real>(s)});
  }
  f.lines = {m53, mp, bound, r53, rp};
  return f;
}

// ---- GeLU bypass vs the offset Nb (Lemma 5) --------------------------------------------------
template <class T>
double gelu_bypass_log2_error(gelu_form form, double Nb) {
  const T z(0.5), N(Nb);
  return log2_abs(T(raw::gelu(form, T(N + z)) - N - z));
}

plot_figure gelu_bypass_figure(gelu_form form, const plot_request& req) {
  const bool tanh = form == gelu_form::tanh;
  plot_figure f = knob_figure(
      fmt::format("akyurek.gelu_bypass_{}_error_vs_offset", raw::to_string(form)),
      fmt::format("GeLU bypass ({} GeLU): error vs offset Nb", raw::to_string(form)),
      "Nb (bypass offset, dimensionless)",
      fmt::format("|g(Nb + z) - Nb - z| at z = 0.5: exponentially small in Nb until it meets the "
                  "rounding of the cancellation, about eps (Nb + |z|) (drawn: gamma_8 (Nb + |z|), "
                  "the properties' first-order count). Bound: {}.",
                  tanh ? "t e^(-2u), u = sqrt(2/pi)(t + 0.044715 t^3), t = Nb + z, "
                         "proofs/AkyurekBounds.v:gelu_tanh_bypass_exponential"
                       : "phi(t) = exp(-t^2/2) / sqrt(2 pi), t = Nb + z (Mills ratio, Gordon "
                         "1941), proofs/GeluErfTail.v:gelu_erf_bypass_bound"));
  plot_line m53{"measured, double (53 bits)", line_style::measured, {}};
  plot_line mp{"measured, " + mpfr_label(req), line_style::measured, {}};
  plot_line bound{tanh ? "bound (AkyurekBounds.v:gelu_tanh_bypass_exponential)"
                       : "bound (GeluErfTail.v:gelu_erf_bypass_bound)",
                  line_style::bound,
                  {}};
  plot_line r53{"rounding floor (bound), 53 bits", line_style::reference, {}, 0};
  plot_line rp{"rounding floor (bound), " + mpfr_label(req), line_style::reference, {}, 1};
  for (int nb = 1; nb <= 40; ++nb) {
    const double x = nb;
    m53.points.push_back({x, gelu_bypass_log2_error<double>(form, nb)});
    mp.points.push_back({x, gelu_bypass_log2_error<mpfr_real>(form, nb)});
    bound.points.push_back({x, log2_abs(raw::gelu_bypass_bound(form, mpfr_real(nb + 0.5)))});
    r53.points.push_back({x, log2_abs(raw::gamma_bound<double>(8) * (nb + 0.5))});
    rp.points.push_back({x, log2_abs(mpfr_real(raw::gamma_bound<mpfr_real>(8) * (nb + 0.5)))});
  }
  f.lines = {m53, mp, bound, r53, rp};
  return f;
}

// ---- LayerNorm division vs N M (Lemma 8) -----------------------------------------------------
// v = [N c, y_1/M, y_2/M, -N c - S/M, 0, 0] (L = 6), c = 1.3, y = (0.3, -0.7), N = M = 2^k:
// relative error of sqrt(2/L) M N lambda(v)_{y_1} against y_1 / |c|.
struct division_point {
  double log2_error;     // measured relative error
  double log2_rounding;  // the properties' rounding term, relative
};
template <class T>
division_point layernorm_division_error(int k) {
  const T N = T(std::ldexp(1.0, k)), M = N, c = T(13) / T(10), y1 = T(3) / T(10),
          y2 = T(-7) / T(10), S = y1 + y2;
  const int L = 6;
  Vec<T> v = Vec<T>::Zero(L);
  v << N * c, y1 / M, y2 / M, T(-N * c - S / M), T(0), T(0);
  const Vec<T> u = akyurek_checks::plain_layer_norm<T>(v, T(0));
  const T exact = y1 / abs_of(c);
  const T got = sqrt_of(T(T(2) / T(L))) * M * N * u(1);
  const T g = raw::gamma_bound<T>(2.0 * L + 16);
  const T round =
      g *
      (T(4) * M * N / T(L) + T(4) * (abs_of(y1) + abs_of(y2)) / abs_of(c) + T(8) * abs_of(exact)) /
      abs_of(exact);
  return {log2_abs(T((got - exact) / exact)), log2_abs(round)};
}

plot_figure layernorm_division_figure(const plot_request& req) {
  plot_figure f = knob_figure(
      "akyurek.layernorm_division_error_vs_nm", "LayerNorm division: relative error vs N M",
      "log2 (N M) (N = M; scale knobs, dimensionless)",
      "Relative error of sqrt(2/L) M N lambda(v)_y against y/|c| for v = [N c, y/M, -N c - S/M, "
      "0, 0], c = 1.3, y = (0.3, -0.7) (not dyadic: the entries round), N = M. It falls like "
      "|S|/(2 N |c| M) until the "
      "rounding of the LayerNorm's mean, which cancels entries of size N |c| (relative "
      "eps M N / L), takes over. Bound: |S|/(2 N |c| M) + the second-order remainder of "
      "proofs/AkyurekBounds.v:layernorm_division_remainder (the first-order term is exact: "
      "proofs/AkyurekAlgebra.v:layernorm_division_sum_squares); drawn without its rounding term, "
      "which is the floor.");
  plot_line m53{"measured, double (53 bits)", line_style::measured, {}};
  plot_line mp{"measured, " + mpfr_label(req), line_style::measured, {}};
  plot_line bound{"bound (AkyurekBounds.v:layernorm_division_remainder)", line_style::bound, {}};
  plot_line r53{"rounding floor (bound), 53 bits", line_style::reference, {}, 0};
  plot_line rp{"rounding floor (bound), " + mpfr_label(req), line_style::reference, {}, 1};
  for (int k = 2; k <= 100; k += 2) {
    const double x = 2.0 * k;
    const auto d = layernorm_division_error<double>(k);
    const auto m = layernorm_division_error<mpfr_real>(k);
    m53.points.push_back({x, d.log2_error});
    mp.points.push_back({x, m.log2_error});
    r53.points.push_back({x, d.log2_rounding});
    rp.points.push_back({x, m.log2_rounding});
    using T = mpfr_real;
    const T N = T(std::ldexp(1.0, k)), c = T(13) / T(10), y1 = T(3) / T(10), y2 = T(-7) / T(10);
    const T S = y1 + y2;
    const T first = abs_of(S) / (T(2) * N * c * N);
    const T rem =
        raw::layernorm_division_first_order_remainder(S, T(y1 * y1 + y2 * y2), c, N, N, T(6), T(0));
    bound.points.push_back({x, log2_abs(T(first + rem))});
  }
  f.lines = {m53, mp, bound, r53, rp};
  return f;
}

// ---- soft vs hard attention vs the logit gap Natt (C.4.1) ------------------------------------
// Token 3 of 4 attends to K = {0, 2} (a = 2 targets, b = 2 others); values v = (0.75, -0.5,
// 0.25, 1): |softmax output - mean_K v|.
template <class T>
double attention_log2_deviation(int natt) {
  raw::raw_layout lay;
  lay.data_rows = 1;
  lay.tokens = 4;
  raw::timestep_map K(4);
  for (int i = 0; i < 4; ++i) K[size_t(i)] = {0};
  K[3] = {0, 2};
  const T Natt(natt);
  raw::raw_knobs<T> kn{Natt, T(0), T(1), T(1), T(1), T(1)};
  Mat<T> data(1, 4);
  data << T(0.75), T(-0.5), T(0.25), T(1);
  const Mat<T> h = raw::embed_state(lay, data, kn);
  raw::attention_head<T> hd = raw::pattern_head<T>(lay, K, Natt);
  hd.Wv(0, 0) = T(1);
  const Mat<T> out = raw::attention_head_forward(hd, h, false);
  const T mean = (data(0, 0) + data(0, 2)) / T(2);
  return log2_abs(T(out(0, 3) - mean));
}

plot_figure attention_figure(const plot_request& req) {
  plot_figure f = knob_figure(
      "akyurek.hard_attention_deviation_vs_logit_gap",
      "Soft vs hard attention: deviation vs logit gap Natt", "Natt (logit gap, nats)",
      "|softmax output - mean over K(i)| for a token with a = 2 targets and b = 2 others, values "
      "(0.75, -0.5, 0.25, 1): it falls like e^-Natt (slope -1/ln 2 on these axes) until rounding, "
      "about eps max|v| (drawn: gamma_(2T+8) 4 max|v|, the properties' count). Bound: 2 b "
      "e^-Natt max|v| (proofs/AkyurekLayerBounds.v:hard_attention_deviation, "
      "src/raw/approximation_bounds.hpp: hard_attention_bound; "
      "the exact deviation is checked as an identity by "
      "akyurek.softmax_hard_attention_deviation_is_exact_and_bounded).");
  plot_line m53{"measured, double (53 bits)", line_style::measured, {}};
  plot_line mp{"measured, " + mpfr_label(req), line_style::measured, {}};
  plot_line bound{"bound (AkyurekLayerBounds.v:hard_attention_deviation)", line_style::bound, {}};
  plot_line r53{"rounding floor (bound), 53 bits", line_style::reference, {}, 0};
  plot_line rp{"rounding floor (bound), " + mpfr_label(req), line_style::reference, {}, 1};
  for (int natt = 2; natt <= 200; natt += 6) {
    const double x = natt;
    m53.points.push_back({x, attention_log2_deviation<double>(natt)});
    mp.points.push_back({x, attention_log2_deviation<mpfr_real>(natt)});
    bound.points.push_back(
        {x, log2_abs(raw::hard_attention_bound(mpfr_real(natt), 2, mpfr_real(1)))});
    r53.points.push_back({x, log2_abs(raw::gamma_bound<double>(2.0 * 4 + 8) * 4.0)});
    rp.points.push_back(
        {x, log2_abs(mpfr_real(raw::gamma_bound<mpfr_real>(2.0 * 4 + 8) * mpfr_real(4)))});
  }
  f.lines = {m53, mp, bound, r53, rp};
  return f;
}

// ---- the realised RAW layer and the chains vs the knob scale q ---------------------------------
// The balanced knobs (raw::balanced_knobs) set s = X q, Nln = N = sqrt(H) X q, M = q with
// q = eps^(-1/4); here q is swept (Nb and Natt stay balanced for the precision). Measured: the
// largest data-row error of the realised chain against the exact chain; bound: the propagated
// bound of run_chain_with_bounds at each precision (approximation + rounding, layer by layer).
struct chain_point {
  double log2_error = std::numeric_limits<double>::quiet_NaN();
  double log2_bound = std::numeric_limits<double>::quiet_NaN();  // NaN: the bound is void there
};

template <class T>
chain_point realised_chain_point(const std::vector<raw::layer_spec<T>>& L, raw::Index D,
                                 const Mat<T>& data, double log2_q) {
  chain_point pt;
  const raw::Index Tn = data.cols();
  const T X = raw::exact_chain_max_abs(L, data) + T(1);
  const raw::raw_layout lay = raw::layout_for<T>(D, Tn, L);
  raw::raw_knobs<T> kn = raw::balanced_knobs<T>(X, lay.H(), Tn, gelu_form::tanh);
  const T q = T(std::exp2(log2_q));
  kn.mul_downscale = std::max(T(X * q), T(T(10) * X));
  kn.ln_pad = sqrt_of(T(lay.H())) * X * q;
  kn.div_N = kn.ln_pad;
  kn.div_M = q;
  std::vector<raw::decoder_layer_weights<T>> W;
  for (const auto& l : L) W.push_back(raw::build_layer(lay, l, kn));
  try {
    const auto cr = raw::run_chain_with_bounds(lay, L, W, kn, data);
    pt.log2_error = log2_abs(max_abs(Mat<T>(cr.realised.topRows(D) - cr.exact)));
    pt.log2_bound = log2_abs(cr.propagated_bound);
  } catch (const std::domain_error&) {
    // A one-layer bound is void at this q (e.g. LayerNorm deviation >= 1/2): measure only.
    const Mat<T> out = raw::decoder_stack_forward(W, raw::embed_state(lay, data, kn));
    pt.log2_error = log2_abs(max_abs(Mat<T>(out.topRows(D) - raw::run_exact(L, data))));
  }
  return pt;
}

template <class T>
struct chain_setup {
  std::vector<raw::layer_spec<T>> L;
  raw::Index D = 0;
  Mat<T> data;
};

// which: 0 = one RAW layer (the first layer of the Theorem 1 chain), 1 = Theorem 1 chain
// (d = 1, n = 2), 2 = Theorem 2 chain (d = 1, n = 1).
template <class T>
chain_setup<T> make_chain(int which) {
  chain_setup<T> c;
  Mat<T> X(1, 3), y(1, 2);
  X << T(0.75), T(-0.5), T(0.25);
  y << T(0.5), T(-0.25);
  if (which <= 1) {
    Vec<T> w0(1);
    w0 << T(0.125);
    c.L = raw::theorem1_chain<T>(1, 2, w0, T(0.25), T(0.5));
    if (which == 0) c.L.resize(1);
    c.D = raw::sgd_rows{1}.D();
    c.data = raw::chain_input<T>(c.D, X, y);
  } else {
    const Mat<T> X1 = X.leftCols(2), y1 = y.leftCols(1);
    c.L = raw::theorem2_chain<T>(1, 1, T(1));
    c.D = raw::sm_rows{1}.D();
    c.data = raw::chain_input<T>(c.D, X1, y1);
  }
  return c;
}

plot_figure chain_figure(int which, const plot_request& req) {
  static const char* names[] = {"one RAW layer (Theorem 1 chain, first layer)",
                                "Theorem 1 chain (d = 1, n = 2: SGD with ridge step)",
                                "Theorem 2 chain (d = 1, n = 1: Sherman-Morrison ridge)"};
  static const char* ids[] = {"raw_layer", "theorem1_chain", "theorem2_chain"};
  plot_figure f = knob_figure(
      fmt::format("akyurek.{}_error_vs_knob_scale", ids[which]),
      fmt::format("Realised {}: error vs knob scale q", names[which]),
      "log2 q (knob scale: s = X q, Nln = N = sqrt(H) X q, M = q; dimensionless)",
      "Largest data-row error of the realised decoder layers (tanh GeLU) against the exact RAW "
      "semantics, on fixed data. The approximation terms fall with q (GeLU product 1/s^2, "
      "LayerNorm bypass 1/Nln^2, division 1/(N M)) while the rounding of the recovered inputs "
      "grows like eps s Nln, so the error is smallest near the balanced q = eps^(-1/4). Bound: "
      "the propagated bound of src/raw/layer_bounds.hpp (one-layer bounds, each including its "
      "rounding, composed with the exact layers' Lipschitz factors; hand-derived, the GeLU "
      "product term from proofs/AkyurekBounds.v:gelu_tanh_product_quartic), at each precision; "
      "where a one-layer bound is void (knobs too small) it is not drawn.");
  plot_line m53{"measured, double (53 bits)", line_style::measured, {}};
  plot_line mp{"measured, " + mpfr_label(req), line_style::measured, {}};
  plot_line b53{"propagated bound, 53 bits (hand-derived)", line_style::reference, {}, 0};
  plot_line bp{"propagated bound, " + mpfr_label(req) + " (hand-derived)", line_style::bound, {}};
  const auto cd = make_chain<double>(which);
  const auto cm = make_chain<mpfr_real>(which);
  const int top = req.precision_bits / 4 + 24;
  for (int k = 4; k <= top; k += std::max(4, top / 12)) {
    const auto d = realised_chain_point<double>(cd.L, cd.D, cd.data, k);
    const auto m = realised_chain_point<mpfr_real>(cm.L, cm.D, cm.data, k);
    m53.points.push_back({double(k), d.log2_error});
    mp.points.push_back({double(k), m.log2_error});
    b53.points.push_back({double(k), d.log2_bound});
    bp.points.push_back({double(k), m.log2_bound});
  }
  f.lines = {m53, mp, bp, b53};
  return f;
}

const plot_source_registrar approximation_figures{{
    .id = "akyurek.approximations_error_vs_knob",
    .family = "akyurek",
    .produce =
        [](const plot_request& req) {
          return std::vector<plot_figure>{gelu_product_figure(gelu_form::tanh, req),
                                          gelu_product_figure(gelu_form::erf, req),
                                          gelu_bypass_figure(gelu_form::tanh, req),
                                          gelu_bypass_figure(gelu_form::erf, req),
                                          layernorm_division_figure(req),
                                          attention_figure(req),
                                          chain_figure(0, req),
                                          chain_figure(1, req),
                                          chain_figure(2, req)};
        },
}};

}  // namespace
