// Error bounds of the realised RAW / div layers against their exact semantics, and their
// propagation through a chain. All in the max norm over the data rows [0, D) and all tokens.
//
// One layer, realised f^ against exact f on the SAME input h (raw_layer_bound, div_layer_bound):
// the sum of
//   hard attention   2 (T-1) e^-Natt max|read| (approximation_bounds.hpp: hard_attention_bound)
//   LayerNorm bypass x^ = x / sqrt(1 + delta'), |delta'| <= delta = (|x|^2 + eps_ln L) /
//                    (2 Nln^2) + 2p/Nln + p^2/Nln^2 with p the pads' deviation from +-Nln
//                    (AkyurekLayerAssembly.v:raw_pad_radicand), and p per unit coefficient;
//                    |1 - (1+delta')^(-1/2)| <= d / (2 (1-d)^(3/2)) for |delta'| <= d < 1
//                    (approximation_bounds.hpp: inv_sqrt_deviation)
//   GeLU bypass      gelu_bypass_bound at t = Nb - max|z|
//                    (AkyurekBounds.v:gelu_tanh_bypass_exponential for the tanh form;
//                    GeluErfTail.v:gelu_erf_bypass_bound_below for erf)
//   GeLU product     gelu_product_bound_abs (AkyurekBounds.v:gelu_tanh_product_quartic for tanh;
//                    the Leibniz bound for erf), at the perturbed factors
//   input residue    what earlier layers left in the op scratch (counts fully)
//   rounding         first-order model: every term is computed by at most n = 2H + 32 rounded
//                    operations (LayerNorm sums over H, one W_in row, GeLU, W_out row, residual)
//                    on quantities whose moduli are listed; gamma_n of their sum (Higham (3.8)).
// A chain (chain_error_bound): E_0 = 0, E_{l+1} = B_l(h^_l) + Lip_l(h^_l, E_l), where B_l is the
// one-layer bound at the realised input h^_l and Lip_l bounds |f_l(h) - f_l(h')| over the data
// rows for |h - h'| <= E_l there (RAW +: row sums of |Wo| (|Wa| + |W|); RAW (.): the product
// rule with the quadratic term; div: |y/c - y'/c'| <= (|dy| + |y/c| |dc|)/(|c| - |dc|)).
// Lip_l is proved, with the formula of layer_lipschitz below:
// proofs/AkyurekChainLipschitz.v:layer_lipschitz_bound (raw_layer_lipschitz, div_layer_lipschitz).
// That the recursion then bounds |h^_l - h_l| on the data rows, given every realised layer within
// its one-layer bound B_l at its realised input, is
// proofs/AkyurekChainLipschitz.v:realised_chain_propagated_bound (E_L = the
// propagated_bound of run_chain_with_bounds, exact arithmetic).
// B_l: how one unit's error adds up from its components (the LayerNorm contrast the unit reads,
// the pads' mean, the scratch reads, the GeLU bypass and products) is proved, in exact real
// arithmetic and with the same expressions as below, by proofs/AkyurekLayerAssembly.v:
// raw_add_unit_assembly, raw_hadamard_unit_assembly, div_unit_assembly (the LayerNorm division
// with the rest of the hidden state: layernorm_division_closed_form_rest), with the erf GeLU
// bypass bound discharged (gelu_erf_bypass_at_floor_proved). For RAW their hypotheses that
// raw_layer_bound evaluates from the state (the attention deviation e_att, the LayerNorm input's
// squared norm xn2 behind |delta'| <= delta, the pads' mean, the current-token factors) are proved
// by proofs/AkyurekRawLayerState.v (raw_layer_bound_terms says which theorem gives which). For
// div they are proved by proofs/AkyurekDivLayerState.v, with the expressions of
// div_layer_state_terms: div_layer_exact_bound is the statement of div_layer_state_unit_tanh /
// _erf. The rounding terms (gamma_bound, 0 on intervals) are the first-order model above, not
// proved: raw_layer_bound_split returns the exact-real bound and that tolerance separately, and
// div_layer_bound is div_layer_exact_bound plus that tolerance.
#pragma once

#include "core/rounding_error_bounds.hpp"
#include "raw/raw_operator.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace iclproof::raw {

// The rounding factor of the layer bounds: higham_gamma (core/rounding_error_bounds.hpp; n u <
// 1/2), and exactly 0 on interval_real: the enclosures already contain the exact value of what the
// realised layer computes, so only the approximation bounds remain.
template <class T>
T gamma_bound(double n) {
  if constexpr (is_interval_scalar<T>)
    return T(0);
  else
    return higham_gamma<T>(n);
}

// Monotone form of the GeLU-product bounds for |x| <= X, |y| <= Y.
template <class T>
T gelu_product_bound_abs(gelu_form form, const T& X, const T& Y, const T& s) {
  if (form == gelu_form::tanh) {
    if (!gelu_product_box_ok(X, Y, s))
      throw std::domain_error("GeLU product outside the proved box");
    return gelu_tanh_product_bound(X, Y, s);
  }
  if (!(X + Y <= T(2) * s)) throw std::domain_error("GeLU product outside the Leibniz range");
  const T Z = X + Y, s2 = s * s;
  const T q = (Z * Z * Z * Z - X * X * X * X - Y * Y * Y * Y) / (T(12) * s2);
  const T r =
      (Z * Z * Z * Z * Z * Z + X * X * X * X * X * X + Y * Y * Y * Y * Y * Y) / (T(80) * s2 * s2);
  return q + r;
}

template <class T>
T max_abs_rows(const Mat<T>& h, Index from, Index to) {
  T m(0);
  for (Index i = 0; i < h.cols(); ++i)
    for (Index r = from; r < to; ++r) m = max_of(m, abs_of(T(h(r, i))));
  return m;
}

// Largest deviation of the pads from +-Nln.
template <class T>
T pad_deviation(const raw_layout& lay, const Mat<T>& h, const T& Nln) {
  T p(0);
  for (Index i = 0; i < h.cols(); ++i) {
    p = max_of(p, abs_of(T(h(lay.pad_plus(), i) - Nln)));
    p = max_of(p, abs_of(T(h(lay.pad_minus(), i) + Nln)));
  }
  return p;
}

// The squared norm of a RAW layer's LayerNorm input at token i off the pads (the xn2 of
// AkyurekLayerAssembly.v:raw_pad_radicand), as the sum of squared entry bounds X_r
// (AkyurekRawLayerState.v:raw_ln_input_sq_le, raw_state_unit_scale). No head writes the data,
// position or unused scratch rows: X_r = |h_i[r]|. An op's scratch row t_n (assigned in op order
// from op_scratch0, as build_raw_layer does) holds the residue h_i[t_n] plus the head's output,
// within e_att of the exact read: X = |h_i[t_n]| + |read_n| + e_att (op_scratch_entry). A div
// scratch row r holds h_i[r] plus the cleaning head's output, within 2 (T-1) e^-Natt vrow of 0,
// vrow = max_k |h_k[r]| (cleaning_head_entry). att_round: the rounding model's relative error of
// a realised head (0 for the exact-real bound).
template <class T>
T raw_ln_input_sq_bound(const raw_layout& lay, const std::vector<raw_op<T>>& ops, const Mat<T>& h,
                        Index i, const std::vector<Vec<T>>& reads, const std::vector<T>& e_att,
                        const T& Natt, const T& att_round) {
  std::vector<T> X(static_cast<size_t>(h.rows()));
  for (Index r = 0; r < h.rows(); ++r) {
    X[size_t(r)] = abs_of(T(h(r, i)));
    if (r >= lay.div_scratch0()) {
      const T vrow = max_abs_rows(h, r, r + 1);
      X[size_t(r)] = hard_attention_bound(Natt, long(lay.tokens - 1), vrow) + att_round * vrow;
    }
  }
  Index t0 = lay.op_scratch0();
  for (size_t o = 0; o < ops.size(); ++o) {
    const Index nt = ops[o].t_size();
    if (t0 + nt > lay.div_scratch0())
      throw std::domain_error("RAW layer bound: op scratch too small");
    for (Index n = 0; n < nt; ++n)
      X[size_t(t0 + n)] = abs_of(T(h(t0 + n, i))) + abs_of(T(reads[o](n))) + e_att[o];
    t0 += nt;
  }
  T s2(0);
  for (Index r = 0; r < h.rows(); ++r)
    if (r != lay.pad_plus() && r != lay.pad_minus()) s2 += X[size_t(r)] * X[size_t(r)];
  return s2;
}

template <class T>
T row_abs_sum(const Mat<T>& A, Index r) {
  T s(0);
  for (Index j = 0; j < A.cols(); ++j) s += abs_of(T(A(r, j)));
  return s;
}

// The exact uniform read of an op at token i: Wa mean_{k in K(i)} h_k[r].
template <class T>
Vec<T> exact_read(const raw_op<T>& op, const Mat<T>& h, Index i) {
  if (op.r.empty()) return Vec<T>::Zero(op.t_size());
  Vec<T> acc = Vec<T>::Zero(static_cast<Index>(op.r.size()));
  for (Index k : op.K[static_cast<size_t>(i)]) acc += gather<T>(h.col(k), op.r);
  return op.Wa * acc / T(static_cast<Index>(op.K[static_cast<size_t>(i)].size()));
}

// Per op, the error e_att of every scratch read its pattern head realises, at every token:
// 2 (T-1) e^-Natt mv (AkyurekRawLayerState.v:pattern_head_deviation), mv the largest value
// |(Wa h_k[r])_n| over every token k and component n, so that it bounds every value any token's
// softmax averages; plus att_round mv (the rounding model; 0 for the exact-real bound).
template <class T>
std::vector<T> raw_attention_errors(const std::vector<raw_op<T>>& ops, const Mat<T>& h,
                                    const T& Natt, const T& att_round) {
  const Index Tn = h.cols();
  std::vector<T> e_att(ops.size());
  for (size_t o = 0; o < ops.size(); ++o) {
    T mv(0);
    for (Index k = 0; k < Tn; ++k) {
      if (ops[o].r.empty()) break;
      const Vec<T> v = ops[o].Wa * gather<T>(h.col(k), ops[o].r);
      for (Index j = 0; j < v.size(); ++j) mv = max_of(mv, abs_of(T(v(j))));
    }
    e_att[o] = hard_attention_bound(Natt, long(Tn - 1), mv) + att_round * mv;
  }
  return e_att;
}

// raw_layer_bound with the rounding model's terms (rounding) or without them (the exact-real
// bound: every gamma below is then 0). Without them each unit's term is, with the same
// expressions, the bound of AkyurekLayerAssembly.v:raw_add_unit_assembly /
// raw_hadamard_unit_assembly, whose hypotheses are proved from the state by
// AkyurekRawLayerState.v: e_att (pattern_head_deviation, with mv a max over every token and
// component; reads by pattern_mean_linear), rx (raw_state_unit_scale at xn2 =
// raw_ln_input_sq_bound), p (pad_deviation, a max; pad_mean_le), rho_t (a max over the op
// scratch), Xs and Ws (weighted_sum_abs_le, AkyurekLayerBounds.v:rsum_abs), the GeLU
// bypass and product bounds at zmax and at the box (AkyurekLayerAssembly.v:*_at_floor, *_at_box;
// their ranges are checked: gelu_bypass_bound and gelu_product_bound_abs throw outside them),
// delta < 1/2 (inv_sqrt_deviation throws otherwise).
template <class T>
T raw_layer_bound_terms(const raw_layout& lay, const std::vector<raw_op<T>>& ops,
                        const raw_knobs<T>& kn, const Mat<T>& h, bool rounding) {
  const Index H = lay.H(), Tn = lay.tokens;
  const auto gamma = [rounding](double n) { return rounding ? gamma_bound<T>(n) : T(0); };
  // Rounding (first order, Higham (3.8) counting): the LayerNorm's mean of H entries is off by
  // <= gamma_H (2 Nln + H xmax)/H, its 1/sqrt(var) is relatively off by gamma_(H+8); a unit's
  // W_in row has <= nc + 2 terms of modulus <= |coef| (xmax + 2 Nln). So a recovered linear
  // combination sum coef x^ is off by <= gH csum xmax + gu csum (xmax + 3 Nln); GeLU, W_out and
  // the residual add gu relative to Nb + |z| (bypass) or to the product units' values.
  const T gH = gamma(double(H) + 8);
  const T p = pad_deviation(lay, h, kn.ln_pad);
  const T rho_t = max_abs_rows(h, lay.op_scratch0(), lay.div_scratch0());
  const T s = kn.mul_downscale, Nb = kn.gelu_bypass, Nln = kn.ln_pad;
  const T prod_scale = s * s * sqrt_of(T(pi_value<T>() / T(2)));
  const std::vector<T> e_att =
      raw_attention_errors(ops, h, kn.attention_scale, gamma(2.0 * double(Tn) + 8));
  T worst(0);
  for (Index i = 0; i < Tn; ++i) {
    std::vector<Vec<T>> reads(ops.size());
    for (size_t o = 0; o < ops.size(); ++o) reads[o] = exact_read(ops[o], h, i);
    const T xn2 = raw_ln_input_sq_bound(lay, ops, h, i, reads, e_att, kn.attention_scale,
                                        gamma(2.0 * double(Tn) + 8));
    T xmax = max_abs_rows(Mat<T>(h.col(i)), 0, lay.data_rows);
    for (size_t o = 0; o < ops.size(); ++o)
      for (Index j = 0; j < reads[o].size(); ++j)
        xmax = max_of(xmax, T(abs_of(T(reads[o](j))) + e_att[o] + rho_t));
    // The pads contribute (Nln + p1)^2 + (Nln - p2)^2 <= 2 Nln^2 + 4 Nln p + 2 p^2 to the sum of
    // squares: the p^2 / Nln^2 term.
    const T delta =
        (xn2 + kn.ln_eps * T(H)) / (T(2) * Nln * Nln) + T(2) * p / Nln + p * p / (Nln * Nln);
    const T rx = inv_sqrt_deviation(delta);
    for (size_t o = 0; o < ops.size(); ++o) {
      const raw_op<T>& op = ops[o];
      const Index nt = op.t_size();
      // |x_t| and |W x_s| per component.
      Vec<T> At(nt), Bs(nt), Ws(nt), Xs(nt);
      for (Index n = 0; n < nt; ++n) {
        At(n) = abs_of(T(reads[o](n))) + e_att[o] + rho_t;
        T b(0), ws(0), xs(0);
        for (size_t q = 0; q < op.s.size(); ++q) {
          b += op.W(n, Index(q)) * h(op.s[q], i);
          ws += abs_of(T(op.W(n, Index(q))));
          xs += abs_of(T(op.W(n, Index(q)))) * abs_of(T(h(op.s[q], i)));
        }
        Bs(n) = abs_of(b);
        Ws(n) = ws;
        Xs(n) = xs;
      }
      for (size_t m = 0; m < op.w.size(); ++m) {
        const T xw = abs_of(T(h(op.w[m], i)));
        T err(0);
        const Index nc = op.t_size() * (1 + static_cast<Index>(op.s.size())) + 3;
        const T g = gamma(double(nc) + 16);
        if (op.kind == raw_kind::add) {
          T cx = xw, csum(1);  // sum |coef| |x| and sum |coef| (the -1 on w)
          T wo_sum(0);
          for (Index n = 0; n < nt; ++n) {
            const T wo = abs_of(T(op.Wo(Index(m), n)));
            cx += wo * (At(n) + Xs(n));
            csum += wo * (T(1) + Ws(n));
            wo_sum += wo;
          }
          // AkyurekLayerAssembly.v:raw_add_unit_assembly (zmax and the first four terms).
          const T zmax = (T(1) + rx) * (cx + p * csum) + abs_of(T(op.b0(Index(m))));
          err = gelu_bypass_bound(kn.form, T(Nb - zmax)) + wo_sum * (rho_t + e_att[o]) +
                rx * (cx + p * csum) + p * csum + gH * csum * xmax +
                g * (csum * (xmax + T(3) * Nln) + T(3) * (Nb + zmax) + xw);
        } else {
          // AkyurekLayerAssembly.v:raw_hadamard_unit_assembly (zmax, dA, dB and the terms
          // without gH, g and round).
          const T zmax = (T(1) + rx) * (xw + p) + abs_of(T(op.b0(Index(m))));
          err = gelu_bypass_bound(kn.form, T(Nb - zmax)) + rx * (xw + p) + p + gH * xw +
                g * ((xw + T(3) * Nln) + T(3) * (Nb + zmax) + xw);
          for (Index n = 0; n < nt; ++n) {
            const T wo = abs_of(T(op.Wo(Index(m), n)));
            if (is_exact_zero(wo)) continue;
            const T Astar = abs_of(T(reads[o](n))), Bstar = Bs(n);
            const T dA = rx * (At(n) + p) + rho_t + e_att[o] + p;
            const T dB = rx * (Xs(n) + p * Ws(n)) + p * Ws(n);
            const T prod_err = Astar * dB + Bstar * dA + dA * dB;
            const T approx = gelu_product_bound_abs(kn.form, T(Astar + dA), T(Bstar + dB), s);
            const T coefsum = T(1) + Ws(n);
            const T round = prod_scale / s *
                            (T(3) * coefsum * (gH * xmax + g * (xmax + T(3) * Nln)) +
                             g * T(6) * (At(n) + Xs(n)));
            err += wo * (prod_err + approx + round);
          }
        }
        worst = max_of(worst, err);
      }
    }
  }
  return worst;
}

// The exact-real one-layer bound (the statement of the theorems above, for every unit of the
// layer) and the first-order rounding-model tolerance of the floating-point modes, separately:
// rounding = (the bound with the rounding terms) - exact, >= 0 since every term grows with the
// gammas; 0 on intervals, whose enclosures contain the exact value of what the layer computes.
template <class T>
struct layer_bound_parts {
  T exact, rounding;
};
template <class T>
layer_bound_parts<T> raw_layer_bound_split(const raw_layout& lay, const std::vector<raw_op<T>>& ops,
                                           const raw_knobs<T>& kn, const Mat<T>& h) {
  const T exact = raw_layer_bound_terms(lay, ops, kn, h, false);
  if constexpr (is_interval_scalar<T>) {
    return {exact, T(0)};
  } else {
    const T with_rounding = raw_layer_bound_terms(lay, ops, kn, h, true);
    return {exact, max_of(T(0), T(with_rounding - exact))};
  }
}

// The one-layer bound B_l of a RAW layer: exact-real bound plus, in floating point, the rounding
// model's terms (on intervals the exact-real bound alone).
template <class T>
T raw_layer_bound(const raw_layout& lay, const std::vector<raw_op<T>>& ops, const raw_knobs<T>& kn,
                  const Mat<T>& h) {
  return raw_layer_bound_terms(lay, ops, kn, h, true);
}

template <class T>
void check_div_rows(const raw_layout& lay, const div_op& dv, const raw_knobs<T>& kn,
                    const Mat<T>& h) {
  // The div layer's hypotheses that the realised construction needs and div_layer_state_terms
  // relies on (proofs/AkyurekDivLayerState.v: its model of build_div_layer): N, M > 0, LayerNorm
  // eps >= 0, the div scratch holds the k + 2 assembled entries, every w row a data row written by
  // one unit (distinct; neither a pad nor the scratch), and the position rows one-hot (the head's
  // logit is then Natt on the token itself and 0 on the earlier ones).
  check_div(dv);
  if (!(kn.div_N > T(0)) || !(kn.div_M > T(0)) || kn.ln_eps < T(0))
    throw std::domain_error("div bound: needs N > 0, M > 0 and LayerNorm eps >= 0");
  if (Index(dv.y_rows.size()) + 2 > lay.div_scratch)
    throw std::domain_error("div bound: the div scratch holds fewer than k + 2 rows");
  for (size_t q = 0; q < dv.w.size(); ++q) {
    if (dv.w[q] < 0 || dv.w[q] >= lay.data_rows)
      throw std::domain_error("div bound: w row " + std::to_string(dv.w[q]) + " is not a data row");
    if (std::find(dv.w.begin(), dv.w.begin() + long(q), dv.w[q]) != dv.w.begin() + long(q))
      throw std::domain_error("div bound: w row " + std::to_string(dv.w[q]) + " written twice");
  }
  for (Index m = 0; m < lay.tokens; ++m)
    for (Index i = 0; i < h.cols(); ++i)
      if (!is_exact_zero(T(h(lay.pos(m), i) - T(m == i ? 1 : 0))))
        throw std::domain_error("div bound: the position rows are not one-hot");
}

// The terms of the div layer's bound, evaluated from the hidden state h the layer reads.
// Exact-real part (rounding = false): the expressions of proofs/AkyurekDivLayerState.v
// (dl_vmax, dl_e_att, dl_rest2, dl_E, dl_delta, dl_rel, dl_zmax, dl_err; same names below), so
// div_layer_state_unit_tanh / div_layer_state_unit_erf state that every written row of the
// realised layer is within `bound` of y / |c| (and div_state_untouched that the other data rows
// are exact). rounding = true adds the first-order rounding model of the floating-point modes
// (gamma_bound; 0 on intervals, whose enclosures contain the exact computation): the attention
// average's gamma_(2T+8) on e_att and on the w rows' residue, and gamma_(2H+32) (8 M N + 4 zmax
// + 2 Nb) per unit. That model is not proved.
template <class T>
struct div_layer_terms {
  T vmax, wmax, e_att, w_residue;
  std::vector<T> rest2, delta;  // per token
  T bound;                      // the largest err over tokens and written rows
};

template <class T>
div_layer_terms<T> div_layer_state_terms(const raw_layout& lay, const div_op& dv,
                                         const raw_knobs<T>& kn, const Mat<T>& h, bool rounding) {
  check_div_rows(lay, dv, kn, h);
  const Index H = lay.H(), Tn = lay.tokens;
  const Index k = static_cast<Index>(dv.y_rows.size());
  const auto gamma = [&](double n) { return rounding ? gamma_bound<T>(n) : T(0); };
  const T g = gamma(2.0 * double(H) + 32);
  const T N = kn.div_N, M = kn.div_M, Nb = kn.gelu_bypass;
  const Index P = lay.div_scratch0();
  div_layer_terms<T> out;
  // Largest value the self head averages in a row it touches (self_head_deviation's V): the
  // pads' -h, on the div scratch an assembled entry minus the old content there
  // (div_state_value_bound), the w rows' -h.
  const T scratch_max = max_abs_rows(h, P, P + lay.div_scratch);
  T vmax = max_abs_rows(h, lay.pad_plus(), lay.pad_minus() + 1);
  for (Index i = 0; i < Tn; ++i) {
    const T c = abs_of(T(h(dv.c_row, i)));
    T S(0), ymax(0);
    for (Index q = 0; q < k; ++q) {
      const T y = h(dv.y_rows[size_t(q)], i);
      S += y;
      ymax = max_of(ymax, abs_of(y));
    }
    vmax = max_of(vmax, T(N * c + abs_of(S) / M + ymax / M));
  }
  vmax += scratch_max;
  T wmax(0);
  for (Index q : dv.w) wmax = max_of(wmax, max_abs_rows(h, q, q + 1));
  out.vmax = max_of(vmax, wmax);
  out.wmax = wmax;
  const T ga = gamma(2.0 * double(Tn) + 8);
  out.e_att = hard_attention_bound(kn.attention_scale, long(Tn - 1), out.vmax) + ga * out.vmax;
  out.w_residue = hard_attention_bound(kn.attention_scale, long(Tn - 1), wmax) + ga * wmax;
  const T e_att = out.e_att;
  T worst(0);
  for (Index i = 0; i < Tn; ++i) {
    const T c = abs_of(T(h(dv.c_row, i)));
    if (!(c > T(0))) throw std::domain_error("div bound: |c| = 0");
    T S(0), y2(0);
    for (Index q = 0; q < k; ++q) {
      const T y = h(dv.y_rows[size_t(q)], i);
      S += y;
      y2 += y * y;
    }
    // div_state_rest2: the rest of the LayerNorm input (data, positions, op scratch; the pads,
    // the w rows and the unassembled div scratch cancelled by the head up to e_att).
    T rest2(0);
    for (Index r = 0; r < P; ++r) {
      const bool cancelled = r == lay.pad_plus() || r == lay.pad_minus() ||
                             std::find(dv.w.begin(), dv.w.end(), r) != dv.w.end();
      const T v = cancelled ? e_att : T(abs_of(T(h(r, i))));
      rest2 += v * v;
    }
    rest2 += T(lay.div_scratch - k - 2) * e_att * e_att;
    // AkyurekLayerAssembly.v:div_radicand: the assembled entries within e_att of
    // [N c, y/M, -N c - S/M] move the radicand by at most E / (2 N^2 c^2),
    // E = 4 e_att (N |c| + |y|_1 / M) + (k + 2) e_att^2.
    T y1(0);
    for (Index q = 0; q < k; ++q) y1 += abs_of(T(h(dv.y_rows[size_t(q)], i)));
    const T Nc = N * c;
    const T E = T(4) * e_att * (Nc + y1 / M) + T(k + 2) * e_att * e_att;
    const T delta = abs_of(S) / (Nc * M) + (S * S + y2) / (T(2) * Nc * Nc * M * M) +
                    (rest2 + kn.ln_eps * T(H) + E) / (T(2) * Nc * Nc);
    out.rest2.push_back(rest2);
    out.delta.push_back(delta);
    const T rel = inv_sqrt_deviation(delta);
    for (Index q = 0; q < k; ++q) {
      const T z = abs_of(T(h(dv.y_rows[size_t(q)], i))) / c;
      // AkyurekLayerAssembly.v:div_unit_assembly (zmax and the terms before the rounding); the
      // w row's old content, cancelled by the head up to w_residue.
      const T zmax = (T(1) + rel) * (z + T(2) * M * e_att / c);
      const T err = rel * z + (T(1) + rel) * T(2) * M * e_att / c +
                    gelu_bypass_bound(kn.form, T(Nb - zmax)) + out.w_residue +
                    g * (T(8) * M * N + T(4) * zmax + T(2) * Nb);
      worst = max_of(worst, err);
    }
  }
  out.bound = worst;
  return out;
}

// The exact-real bound: the statement of AkyurekDivLayerState.v:div_layer_state_unit_tanh /
// div_layer_state_unit_erf (the interval mode checks against it).
template <class T>
T div_layer_exact_bound(const raw_layout& lay, const div_op& dv, const raw_knobs<T>& kn,
                        const Mat<T>& h) {
  return div_layer_state_terms(lay, dv, kn, h, false).bound;
}

// The exact-real bound with the first-order rounding model of the floating-point modes (equal to
// div_layer_exact_bound on intervals): what the floating-point checks and the chains use.
template <class T>
T div_layer_bound(const raw_layout& lay, const div_op& dv, const raw_knobs<T>& kn,
                  const Mat<T>& h) {
  return div_layer_state_terms(lay, dv, kn, h, true).bound;
}

template <class T>
T layer_bound(const raw_layout& lay, const layer_spec<T>& L, const raw_knobs<T>& kn,
              const Mat<T>& h) {
  return L.div ? div_layer_bound(lay, *L.div, kn, h) : raw_layer_bound(lay, L.ops, kn, h);
}

// The hypotheses of AkyurekChainLipschitz.v:layer_lipschitz_bound (layer_wf) that the exact
// layer's own checks do not enforce: every row the layer reads (RAW: r and s; div: the y rows and
// c) is a data row of h. A read of another row would make the data-row distance E say nothing
// about the values read.
template <class T>
void check_reads_data_rows(const layer_spec<T>& L, Index D) {
  auto need = [&](Index row) {
    if (row < 0 || row >= D)
      throw std::domain_error("layer_lipschitz: layer '" + L.label + "' reads row " +
                              std::to_string(row) + ", not a data row [0, " + std::to_string(D) +
                              ")");
  };
  if (L.div) {
    need(L.div->c_row);
    for (Index y : L.div->y_rows) need(y);
    return;
  }
  for (const auto& op : L.ops) {
    for (Index r : op.r) need(r);
    for (Index s : op.s) need(s);
  }
}

// Propagation of a data-row error E >= 0 through the exact layer at h (the realised input's data
// rows): max |f(h') - f(h)| over the data rows and tokens for every h' within E of h there.
// proofs/AkyurekChainLipschitz.v:layer_lipschitz_bound, whose layer_lip is this formula
// (raw_lip: max(E, sum_n |Wo_mn| term_n over ops, tokens, written rows m); div_lip:
// max(E, (E + z E) / (|c| - E))), under layer_wf (check_op_shapes / check_div and
// check_reads_data_rows, all checked here) and, for div, E < |c| at every token.
template <class T>
T layer_lipschitz(const layer_spec<T>& L, const Mat<T>& h, const T& E) {
  check_reads_data_rows(L, h.rows());
  if (L.div)
    check_div(*L.div);
  else
    for (const auto& op : L.ops) check_op_shapes(op, h.cols());
  T out = E;
  if (L.div) {
    for (Index i = 0; i < h.cols(); ++i) {
      const T c = abs_of(T(h(L.div->c_row, i)));
      if (!(c > E)) throw std::domain_error("div propagation: |c| <= E");
      for (Index y : L.div->y_rows) {
        const T z = abs_of(T(h(y, i))) / c;
        out = max_of(out, T((E + z * E) / (c - E)));
      }
    }
    return out;
  }
  for (const auto& op : L.ops) {
    for (Index i = 0; i < h.cols(); ++i) {
      const Vec<T> read = exact_read(op, h, i);
      for (size_t m = 0; m < op.w.size(); ++m) {
        T e(0);
        for (Index n = 0; n < op.t_size(); ++n) {
          const T wo = abs_of(T(op.Wo(Index(m), n)));
          if (is_exact_zero(wo)) continue;
          const T wa = op.r.empty() ? T(0) : row_abs_sum(op.Wa, n);
          const T ws = op.s.empty() ? T(0) : row_abs_sum(op.W, n);
          if (op.kind == raw_kind::add) {
            e += wo * (wa + ws) * E;
          } else {
            T b(0);
            for (size_t q = 0; q < op.s.size(); ++q) b += op.W(n, Index(q)) * h(op.s[q], i);
            const T dA = wa * E, dB = ws * E;
            e += wo * (abs_of(T(read(n))) * dB + abs_of(b) * dA + dA * dB);
          }
        }
        out = max_of(out, e);
      }
    }
  }
  return out;
}

template <class T>
struct chain_run {
  Mat<T> realised;             // final hidden state of the realised chain
  Mat<T> exact;                // final data rows of the exact chain
  T propagated_bound = T(0);   // E_L
  T worst_local_ratio = T(0);  // max over layers of local error / local bound
  std::vector<T> local_errors, local_bounds;
};

// Runs the realised chain and the exact chain from the same data; checks nothing, returns the
// numbers (the properties compare). local error of layer l = |f^_l(h^_l) - f_l(h^_l)| on the
// data rows.
template <class T>
chain_run<T> run_chain_with_bounds(const raw_layout& lay, const std::vector<layer_spec<T>>& L,
                                   const std::vector<decoder_layer_weights<T>>& W,
                                   const raw_knobs<T>& kn, const Mat<T>& data) {
  chain_run<T> cr;
  Mat<T> h = embed_state(lay, data, kn);
  Mat<T> ex = data;
  T E(0);
  for (size_t l = 0; l < L.size(); ++l) {
    const T B = layer_bound(lay, L[l], kn, h);
    const Mat<T> next = decoder_layer_forward(W[l], h);
    const Mat<T> local = layer_exact(Mat<T>(h.topRows(lay.data_rows)), L[l]);
    const T le = max_abs(Mat<T>(next.topRows(lay.data_rows) - local));
    cr.local_errors.push_back(le);
    cr.local_bounds.push_back(B);
    E = B + layer_lipschitz(L[l], Mat<T>(h.topRows(lay.data_rows)), E);
    ex = layer_exact(ex, L[l]);
    h = next;
  }
  cr.realised = h;
  cr.exact = ex;
  cr.propagated_bound = E;
  return cr;
}

// Explicit instantiations for double, long double and mpfr_real: compiled once, in
// src/raw/raw_instantiations*.cpp, not in every translation unit that uses them (the extern
// declarations below); other scalars instantiate them where they are used.
// clang-format off
#define ICLPROOF_RAW_LAYER_BOUNDS(PREFIX, T) \
  PREFIX template T raw_layer_bound<T>(const raw_layout&, const std::vector<raw_op<T>>&, const raw_knobs<T>&, const Mat<T>&); \
  PREFIX template layer_bound_parts<T> raw_layer_bound_split<T>(const raw_layout&, const std::vector<raw_op<T>>&, const raw_knobs<T>&, const Mat<T>&); \
  PREFIX template T div_layer_bound<T>(const raw_layout&, const div_op&, const raw_knobs<T>&, const Mat<T>&); \
  PREFIX template T layer_bound<T>(const raw_layout&, const layer_spec<T>&, const raw_knobs<T>&, const Mat<T>&); \
  PREFIX template T layer_lipschitz<T>(const layer_spec<T>&, const Mat<T>&, const T&); \
  PREFIX template chain_run<T> run_chain_with_bounds<T>(const raw_layout&, const std::vector<layer_spec<T>>&, const std::vector<decoder_layer_weights<T>>&, const raw_knobs<T>&, const Mat<T>&)
// clang-format on
ICLPROOF_RAW_LAYER_BOUNDS(extern, double);
ICLPROOF_RAW_LAYER_BOUNDS(extern, long double);
ICLPROOF_RAW_LAYER_BOUNDS(extern, mpfr_real);

}  // namespace iclproof::raw
