// The RAW layer of Akyurek et al. 2023 realised as a decoder layer (CONSTRUCTIONS.md section 5,
// C.4.3): within its layer bound, and the division layer within its bound.
// Each check is a template on the scalar and on the implementation under test, so the mutation
// tests in tests/unit/akyurek_test.cpp can feed it a broken variant.
#pragma once

#include "akyurek_gelu_checks.hpp"

namespace iclproof::akyurek_checks {

// -------------------------------------------------------------- RAW layer realised (C.4.3)
// A random RAW op (or two independent parallel ops, Lemma 7) on random data; knobs balanced for
// the precision; the realised decoder layer against raw_exact on the data rows, within
// raw_layer_bound (layer_bounds.hpp: hard attention + LayerNorm bypass + GeLU bypass + GeLU
// product (AkyurekBounds.v:gelu_tanh_product_quartic / Leibniz), proved with the state-evaluated
// hypotheses, + the rounding model's tolerance in floating point).
template <class T>
using layer_fn = std::function<raw::decoder_layer_weights<T>(
    const raw::raw_layout&, const raw::layer_spec<T>&, const raw::raw_knobs<T>&)>;

inline raw::index_list gen_distinct_rows(int count, std::vector<int>& pool) {
  raw::index_list out;
  for (int j = 0; j < count; ++j) {
    const int pick = *rc::gen::inRange(0, int(pool.size()));
    out.push_back(pool[size_t(pick)]);
    pool.erase(pool.begin() + pick);
  }
  return out;
}

template <class T>
raw::raw_op<T> gen_raw_op(std::vector<int>& pool, raw::Index Tn) {
  raw::raw_op<T> op;
  op.kind = *rc::gen::element(raw::raw_kind::add, raw::raw_kind::hadamard);
  const int nt = *rc::gen::inRange(1, 3),
            ns = *rc::gen::inRange(op.kind == raw::raw_kind::add ? 0 : 1, 3),
            nr = *rc::gen::inRange(1, 3), nw = *rc::gen::inRange(1, 3);
  op.s = gen_distinct_rows(ns, pool);
  op.r = gen_distinct_rows(nr, pool);
  op.w = gen_distinct_rows(nw, pool);
  auto rand_mat = [](int r, int c) {
    Mat<T> m(r, c);
    for (int i = 0; i < r; ++i)
      for (int j = 0; j < c; ++j) m(i, j) = std::ldexp(double(*rc::gen::inRange(-4, 5)), -2);
    return m;
  };
  op.W = rand_mat(nt, ns);
  op.Wa = rand_mat(nt, nr);
  op.Wo = rand_mat(nw, nt);
  op.b0 = Vec<T>(rand_mat(nw, 1).col(0));
  op.K.resize(size_t(Tn));
  for (raw::Index i = 0; i < Tn; ++i) {
    const int a = *rc::gen::inRange(1, int(i) + 2);
    std::vector<raw::Index> all;
    for (raw::Index k = 0; k <= i; ++k) all.push_back(k);
    for (int j = 0; j < a; ++j) {
      const int pick = *rc::gen::inRange(0, int(all.size()));
      op.K[size_t(i)].push_back(all[size_t(pick)]);
      all.erase(all.begin() + pick);
    }
  }
  return op;
}

// The Qed statement a div layer's exact-real bound (div_layer_exact_bound) is, by GeLU form.
inline std::string div_unit_lemma(gelu_form form) {
  return form == gelu_form::tanh ? "proofs/AkyurekDivLayerState.v:div_layer_state_unit_tanh"
                                 : "proofs/AkyurekDivLayerState.v:div_layer_state_unit_erf";
}
// The Qed statement a RAW layer's exact-real bound is: one unit's bound, by kind (a layer with
// both kinds has both; the property cites both, with the state theorems of
// AkyurekRawLayerState.v that discharge their hypotheses).
template <class T>
std::string raw_unit_assembly_lemma(const std::vector<raw::raw_op<T>>& ops) {
  for (const auto& op : ops)
    if (op.kind == raw::raw_kind::hadamard)
      return "proofs/AkyurekLayerAssembly.v:raw_hadamard_unit_assembly";
  return "proofs/AkyurekLayerAssembly.v:raw_add_unit_assembly";
}

template <class T>
void raw_layer_within_bound(case_context& ctx, const layer_fn<T>& build) {
  const int D = *rc::gen::inRange(8, 14);
  const raw::Index Tn = *rc::gen::inRange(1, 6);
  const int nops = *rc::gen::inRange(1, 3);
  std::vector<int> pool;
  for (int r = 0; r < D; ++r) pool.push_back(r);
  raw::layer_spec<T> spec;
  spec.label = "random RAW";
  for (int o = 0; o < nops; ++o) spec.ops.push_back(gen_raw_op<T>(pool, Tn));
  const gelu_form form = gen_form();
  Mat<T> data(D, Tn);
  for (int i = 0; i < Tn; ++i)
    for (int r = 0; r < D; ++r) data(r, i) = gen_unit_value();
  raw::raw_layout lay = raw::layout_for<T>(D, Tn, std::vector<raw::layer_spec<T>>{spec});
  const auto kn = raw::balanced_knobs<T>(T(4), lay.H(), Tn, form);
  ctx.note("D", std::to_string(D));
  ctx.note("T", std::to_string(Tn));
  ctx.note("ops", std::to_string(nops));
  ctx.note("form", raw::to_string(form));
  for (const auto& op : spec.ops)
    ctx.note("op", std::string(op.kind == raw::raw_kind::add ? "+" : "(.)") + " |s|=" +
                       std::to_string(op.s.size()) + " |r|=" + std::to_string(op.r.size()) +
                       " |w|=" + std::to_string(op.w.size()));
  const Mat<T> h = raw::embed_state(lay, data, kn);
  const Mat<T> realised = raw::decoder_layer_forward(build(lay, spec, kn), h);
  const Mat<T> exact = raw::raw_exact(data, spec.ops);
  const T err = max_abs(Mat<T>(realised.topRows(D) - exact));
  // The exact-real bound is the theorems' statement; floating point adds the rounding model's
  // tolerance (named apart: raw_layer_bound_split), intervals compare with the exact-real bound
  // alone (their enclosures contain the exact value of what the layer computes).
  const raw::layer_bound_parts<T> bound = raw::raw_layer_bound_split(lay, spec.ops, kn, h);
  ctx.check_le_proved<T>(
      "|realised RAW layer - exact RAW| (data rows) within the exact-real "
      "bound + the rounding model's tolerance",
      err, T(bound.exact + bound.rounding), raw_unit_assembly_lemma(spec.ops), [&] {
        return "exact-real bound = " + full_digits(bound.exact) +
               "\nrounding-model tolerance = " + full_digits(bound.rounding) + "\n";
      });
}

// div realised (C.6 with the corrections of raw_operator.hpp) against div_exact. The exact-real
// bound div_layer_exact_bound is the statement of AkyurekDivLayerState.v:
// div_layer_state_unit_erf / div_layer_state_unit_tanh (with div_state_untouched for the data
// rows div does not write); the interval mode checks against it alone (its enclosures contain the
// exact computation), the floating-point modes against div_layer_bound, the same expressions
// with the first-order rounding model (not proved) added. One check label per GeLU form, each
// citing its form's theorem.
template <class T>
void div_layer_within_bound(case_context& ctx, const layer_fn<T>& build) {
  const int k = *rc::gen::inRange(1, 5);
  const int D = 2 * k + 1 + *rc::gen::inRange(0, 4);
  const raw::Index Tn = *rc::gen::inRange(1, 5);
  const gelu_form form = gen_form();
  raw::layer_spec<T> spec;
  spec.label = "div";
  spec.div = raw::div_op{raw::rows(0, k), k, raw::rows(k + 1, 2 * k + 1)};
  Mat<T> data(D, Tn);
  for (int i = 0; i < Tn; ++i) {
    for (int r = 0; r < D; ++r) data(r, i) = gen_unit_value();
    data(k, i) =
        *rc::gen::element(-1.0, 1.0) * (*rc::gen::inRange(64, 512) / 64.0);  // |c| in [1, 8]
  }
  raw::raw_layout lay = raw::layout_for<T>(D, Tn, std::vector<raw::layer_spec<T>>{spec});
  const auto kn = raw::balanced_knobs<T>(T(4), lay.H(), Tn, form);
  ctx.note("k", std::to_string(k));
  ctx.note("T", std::to_string(Tn));
  ctx.note("form", raw::to_string(form));
  const Mat<T> h = raw::embed_state(lay, data, kn);
  const Mat<T> realised = raw::decoder_layer_forward(build(lay, spec, kn), h);
  const Mat<T> exact = raw::div_exact(data, *spec.div);
  const T err = max_abs(Mat<T>(realised.topRows(D) - exact));
  const T exact_bound = raw::div_layer_exact_bound(lay, *spec.div, kn, h);
  const T bound = is_interval_scalar<T> ? exact_bound : raw::div_layer_bound(lay, *spec.div, kn, h);
  ctx.note("exact-real bound", full_digits(exact_bound));
  ctx.note("bound with the rounding model", full_digits(bound));
  ctx.check_le_proved<T>(
      "|realised div layer - exact div| (data rows, " + raw::to_string(form) + " form)", err, bound,
      div_unit_lemma(form));
}

}  // namespace iclproof::akyurek_checks
