// The RAW operator of Akyurek et al. 2023 (Appendix C.2, eq. (26)) and the div primitive
// (C.6): exact semantics as pure operations on the hidden-state matrix, and weight builders
// that realise one layer of them as a real decoder layer (decoder_layer.hpp).
//
// RAW(h; op, s, r, w, Wo, Wa, W, K, b0), for every timestep i (all columns in parallel):
//   h'_{i, w} = Wo ( (Wa / |K(i)|) sum_{k in K(i)} h_k[r]  op  W h_i[s] ) + b0,   op in {+, (.)}
//   h'_{i, j} = h_{i, j} for j not in w.
// Several RAW ops in one layer (Lemma 7) are applied simultaneously to the same input; they
// must be independent: (r_i u s_i u w_i) n w_j = {} for i != j.
// div(h; y_rows, c_row, w): h'_{i, w} = h_{i, y_rows} / |h_{i, c_row}|.
//
// Hidden layout of the realisation (raw_layout), rows top to bottom:
//   [0, D)               the algorithm's variables (the paper's indices, 0-based)
//   T rows               one-hot position e_i (position embedding)
//   2 rows               LayerNorm pads +Nln, -Nln (position embedding, constant)
//   op scratch           where the attention writes what RAW reads (kept ~0 between layers)
//   div scratch          where the div layer assembles [N c, y/M, -N c - S/M]
// Deviations from the paper's C.4.3 construction, each for a stated reason:
//   * Timestep maps K are encoded once: k_i = e_i (one-hot rows), W^Q maps e_i to Natt * 1_K(i).
//     One embedding serves every layer, the logit gap Natt is a weight, not a stored value.
//   * LayerNorm bypass by two constant pads +Nln, -Nln instead of Lemma 6's [N, -N - sum x]:
//     the mean is recovered linearly (u_j - (u_+ + u_-)/2 = x_j / sqrt(var + eps)), so the
//     bypass needs no attention to the current token and its relative error is
//     (|x|^2 - S^2/L + eps L) / (4 Nln^2): second order, where Lemma 6 is first order in S/N.
//   * The elementwise product uses MLP hidden units (3 per product) rather than hidden-state
//     rows t_a, t_b, t_c; the hidden state only needs |t| scratch rows per op.
//   * The paper cancels the residual with a second head; here the read lands in zero scratch
//     rows, and the MLP resets them (GeLU bypass of -x_t).
//   * div (C.6) needs the LayerNorm input to be [N c, y/M, -N c - S/M, 0] but the LayerNorm sees
//     the whole hidden vector: the rest of the state adds (|x_rest|^2 - L m^2)/(2 N^2 c^2) under
//     the root (documented finding). The pads are cancelled by a self-attention head and
//     restored by the MLP bias; the div scratch is cancelled by the next layers' self head.
#pragma once

#include "raw/approximation_bounds.hpp"
#include "raw/decoder_layer.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace iclproof::raw {

using Index = Eigen::Index;
using index_list = std::vector<Index>;
using timestep_map = std::vector<index_list>;  // K[i] = the timesteps token i reads

inline index_list rows(Index from, Index to) {  // [from, to)
  index_list r;
  for (Index i = from; i < to; ++i) r.push_back(i);
  return r;
}
inline timestep_map attend_self(Index T) {
  timestep_map K(static_cast<size_t>(T));
  for (Index i = 0; i < T; ++i) K[static_cast<size_t>(i)] = {i};
  return K;
}
// Token `target` reads token `source` (source <= target); every other token reads itself.
inline timestep_map attend_from(Index T, Index target, Index source) {
  timestep_map K = attend_self(T);
  K.at(static_cast<size_t>(target)) = {source};
  return K;
}

enum class raw_kind { add, hadamard };

template <class T>
struct raw_op {
  raw_kind kind = raw_kind::add;
  index_list s, r, w;
  Mat<T> W;   // |t| x |s|
  Mat<T> Wa;  // |t| x |r|
  Mat<T> Wo;  // |w| x |t|
  Vec<T> b0;  // |w|
  timestep_map K;
  Index t_size() const { return Wo.cols(); }
};

struct div_op {
  index_list y_rows;
  Index c_row = 0;
  index_list w;
};

template <class T>
struct layer_spec {
  std::string label;
  std::vector<raw_op<T>> ops;  // RAW ops applied in parallel (Lemma 7), or
  std::optional<div_op> div;   // one div (C.6)
};

template <class T>
layer_spec<T> named_layer(std::string label) {
  layer_spec<T> l;
  l.label = std::move(label);
  return l;
}

struct raw_layout {
  Index data_rows = 0, tokens = 0, op_scratch = 0, div_scratch = 0;
  Index pos(Index i) const { return data_rows + i; }
  Index pad_plus() const { return data_rows + tokens; }
  Index pad_minus() const { return data_rows + tokens + 1; }
  Index op_scratch0() const { return data_rows + tokens + 2; }
  Index div_scratch0() const { return op_scratch0() + op_scratch; }
  Index H() const { return div_scratch0() + div_scratch; }
};

template <class T>
struct raw_knobs {
  T attention_scale;  // Natt: logit gap of hard attention
  T gelu_bypass;      // Nb: offset that makes GeLU linear
  T mul_downscale;    // s: GeLU multiplication down-scale
  T ln_pad;           // Nln: LayerNorm bypass pads
  T div_N, div_M;     // N, M of the LayerNorm division
  T ln_eps = T(0);    // the LayerNorm's eps
  gelu_form form = gelu_form::erf;
};

// Knobs as a function of the working precision, for hidden values of modulus <= X on a hidden
// state of height H and T tokens. The errors to balance (raw_layer_bound):
//   GeLU product X^4 / s^2, LayerNorm bypass X^3 H / Nln^2, and the rounding of the bypass's
//   mean recovery amplified by the product, eps s Nln X: all meet at s ~ X eps^(-1/4),
//   Nln ~ sqrt(H) X eps^(-1/4), giving ~ eps^(1/2) X^2 (512 bits: ~1e-77; double: ~1e-8).
//   Division: S/(N c M) and |x_rest|^2/(N c)^2 against eps M N: N = sqrt(H) X eps^(-1/4),
//   M = eps^(-1/4).
//   GeLU bypass: exp(-(Nb - Z)^2 / 2) <= eps for arguments |z| <= Z = 8 X.
//   Hard attention: 2 T e^-Natt times the largest value a head reads (up to Nln, N c) <= eps.
template <class T>
raw_knobs<T> balanced_knobs(const T& X, Index H, Index T_tokens, gelu_form form = gelu_form::erf) {
  using boost::multiprecision::log;
  using std::log;
  raw_knobs<T> k;
  const T log_inv_eps = -log(eps<T>());
  // Interval mode has no rounding terms but an enclosure width ~ eps s Nln X: knobs at
  // eps^(-1/8) keep the approximation bounds (~ eps^(1/4) X^2) far above that width (~ eps^(3/4)).
  const T quarter = eps_power<T>(is_interval_scalar<T> ? -0.125 : -0.25);
  k.mul_downscale = X * quarter < T(10) * X ? T(10) * X : T(X * quarter);
  k.ln_pad = sqrt_of(T(H)) * X * quarter;
  k.div_N = sqrt_of(T(H)) * X * quarter;
  k.div_M = quarter;
  k.gelu_bypass = T(8) * X + sqrt_of(T(T(2) * log_inv_eps)) + T(4);
  k.attention_scale = log_inv_eps + log(T(T(2) * T(T_tokens))) +
                      log(T(k.ln_pad + k.div_N * T(8) * X + X + T(1))) + T(4);
  k.form = form;
  return k;
}

// ------------------------------------------------------------------ exact semantics

template <class T>
Vec<T> gather(const Vec<T>& h, const index_list& idx) {
  Vec<T> v(static_cast<Index>(idx.size()));
  for (size_t j = 0; j < idx.size(); ++j) v(static_cast<Index>(j)) = h(idx[j]);
  return v;
}

template <class T>
void check_op_shapes(const raw_op<T>& op, Index T_tokens) {
  auto need = [](bool ok, const std::string& what) {
    if (!ok) throw std::invalid_argument("RAW op: " + what);
  };
  const Index t = op.t_size();
  need(op.Wo.rows() == static_cast<Index>(op.w.size()),
       "Wo must be |w| x |t| (Wo is " + std::to_string(op.Wo.rows()) + " x " +
           std::to_string(op.Wo.cols()) + ", |w| = " + std::to_string(op.w.size()) + ")");
  need(op.W.rows() == t && op.W.cols() == static_cast<Index>(op.s.size()), "W must be |t| x |s|");
  need(op.Wa.rows() == t && op.Wa.cols() == static_cast<Index>(op.r.size()),
       "Wa must be |t| x |r|");
  need(op.b0.size() == static_cast<Index>(op.w.size()), "b0 must have |w| entries");
  need(static_cast<Index>(op.K.size()) == T_tokens, "K must list every timestep");
  for (Index i = 0; i < T_tokens; ++i) {
    need(!op.K[static_cast<size_t>(i)].empty(), "K(i) must not be empty");
    for (Index k : op.K[static_cast<size_t>(i)]) need(k >= 0 && k <= i, "K(i) must be causal");
    // K(i) is a set (C.2): the pattern head attends to each listed token once, so a repeated
    // token would weigh differently in raw_exact's average than in the realised layer.
    index_list sorted = op.K[static_cast<size_t>(i)];
    std::sort(sorted.begin(), sorted.end());
    need(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end(),
         "K(i) must list distinct tokens");
  }
}

// Lemma 7's independence: (r_i u s_i u w_i) n w_j = {} for i != j.
template <class T>
void check_independent(const std::vector<raw_op<T>>& ops) {
  for (size_t i = 0; i < ops.size(); ++i)
    for (size_t j = 0; j < ops.size(); ++j) {
      if (i == j) continue;
      std::set<Index> used(ops[i].r.begin(), ops[i].r.end());
      used.insert(ops[i].s.begin(), ops[i].s.end());
      used.insert(ops[i].w.begin(), ops[i].w.end());
      for (Index x : ops[j].w)
        if (used.count(x)) throw std::invalid_argument("RAW ops in one layer are not independent");
    }
}

template <class T>
Mat<T> raw_exact(const Mat<T>& h, const std::vector<raw_op<T>>& ops) {
  check_independent(ops);
  Mat<T> out = h;
  for (const auto& op : ops) {
    check_op_shapes(op, h.cols());
    for (Index i = 0; i < h.cols(); ++i) {
      const auto& K = op.K[static_cast<size_t>(i)];
      Vec<T> read = Vec<T>::Zero(op.t_size());
      if (!op.r.empty()) {
        Vec<T> acc = Vec<T>::Zero(static_cast<Index>(op.r.size()));
        for (Index k : K) acc += gather<T>(h.col(k), op.r);
        read = op.Wa * acc / T(static_cast<Index>(K.size()));
      }
      const Vec<T> cur = op.s.empty() ? Vec<T>(Vec<T>::Zero(op.t_size()))
                                      : Vec<T>(op.W * gather<T>(h.col(i), op.s));
      const Vec<T> inner =
          op.kind == raw_kind::add ? Vec<T>(read + cur) : Vec<T>(read.cwiseProduct(cur));
      const Vec<T> res = op.Wo * inner + op.b0;
      for (size_t m = 0; m < op.w.size(); ++m) out(op.w[m], i) = res(static_cast<Index>(m));
    }
  }
  return out;
}

inline void check_div(const div_op& dv) {
  if (dv.y_rows.size() != dv.w.size() || dv.y_rows.empty())
    throw std::invalid_argument("div: y rows and w rows must have the same non-zero size");
}

template <class T>
Mat<T> div_exact(const Mat<T>& h, const div_op& dv) {
  check_div(dv);
  Mat<T> out = h;
  for (Index i = 0; i < h.cols(); ++i) {
    const T c = abs_of(T(h(dv.c_row, i)));
    for (size_t q = 0; q < dv.w.size(); ++q) out(dv.w[q], i) = h(dv.y_rows[q], i) / c;
  }
  return out;
}

template <class T>
Mat<T> layer_exact(const Mat<T>& h, const layer_spec<T>& L) {
  return L.div ? div_exact(h, *L.div) : raw_exact(h, L.ops);
}

// The primitives of Lemma 2 as RAW ops (Appendix C.3), 0-based half-open row ranges.
// mov: copy rows `from` of token `source` into rows `to` of token `target`.
template <class T>
raw_op<T> mov_op(const index_list& from, const index_list& to, Index T_tokens, Index target,
                 Index source) {
  raw_op<T> op;
  op.kind = raw_kind::add;
  const Index n = static_cast<Index>(from.size());
  op.r = from;
  op.w = to;
  op.Wa = Mat<T>::Identity(n, n);
  op.W = Mat<T>::Zero(n, 0);
  op.Wo = Mat<T>::Identity(n, n);
  op.b0 = Vec<T>::Zero(n);
  // Appendix A writes mov(; 1, 0, ...) for "token 1 reads token 0" while Section 3.1 defines
  // mov(H; s, t, ...) with t >= s: the target is the second argument there, the first here.
  // Every other token reads itself, so its rows `to` become its own rows `from`: with
  // from == to (all uses in Appendices A and B) they are unchanged.
  op.K = attend_from(T_tokens, target, source);
  return op;
}

// aff: w <- W1 h[a] + W2 h[b] + bias (current token).
template <class T>
raw_op<T> aff_op(const index_list& a, const Mat<T>& W1, const index_list& b, const Mat<T>& W2,
                 const Vec<T>& bias, const index_list& w, Index T_tokens) {
  raw_op<T> op;
  op.kind = raw_kind::add;
  const Index n = static_cast<Index>(w.size());
  op.s = a;
  op.r = b;
  op.w = w;
  op.W = a.empty() ? Mat<T>(Mat<T>::Zero(n, 0)) : W1;
  op.Wa = b.empty() ? Mat<T>(Mat<T>::Zero(n, 0)) : W2;
  op.Wo = Mat<T>::Identity(n, n);
  op.b0 = bias;
  op.K = attend_self(T_tokens);
  return op;
}

// dot: w (one row) <- h[a]^T h[b] (current token): RAW((.), W = I, Wa = I, Wo = 1^T).
template <class T>
raw_op<T> dot_op(const index_list& a, const index_list& b, Index w_row, Index T_tokens) {
  raw_op<T> op;
  op.kind = raw_kind::hadamard;
  const Index n = static_cast<Index>(a.size());
  op.s = a;
  op.r = b;
  op.W = Mat<T>::Identity(n, n);
  op.Wa = Mat<T>::Identity(n, n);
  op.Wo = Mat<T>::Ones(1, n);
  op.b0 = Vec<T>::Zero(1);
  op.w = {w_row};
  op.K = attend_self(T_tokens);
  return op;
}

// mul (C.5): rows A (p x q, row-major) times rows B (q x r, row-major) into rows C (p x r,
// row-major), as p r parallel dots in one layer. A dot whose output row is also an input
// row would break Lemma 7's independence: C must be disjoint from A and B.
template <class T>
std::vector<raw_op<T>> mul_ops(Index p, Index q, Index r, Index A0, Index B0, Index C0,
                               Index T_tokens) {
  std::vector<raw_op<T>> ops;
  for (Index i = 0; i < p; ++i)
    for (Index j = 0; j < r; ++j) {
      index_list a, b;
      for (Index k = 0; k < q; ++k) {
        a.push_back(A0 + i * q + k);
        b.push_back(B0 + k * r + j);
      }
      ops.push_back(dot_op<T>(a, b, C0 + i * r + j, T_tokens));
    }
  return ops;
}

// --------------------------------------------------------------------- realisation

template <class T>
class mlp_builder {
 public:
  mlp_builder(const raw_layout& lay, const T& Kl) : lay_(lay), Kl_(Kl) {}
  // A unit with pre-activation scale * sum_j coef_j x^_j + bias, x^ recovered from the
  // LayerNorm output with the pads: x^_j = Kl (u_j - (u_+ + u_-)/2).
  Index unit(const std::map<Index, T>& coef, const T& scale, const T& bias) {
    Vec<T> row = Vec<T>::Zero(lay_.H());
    T total(0);
    for (const auto& [j, c] : coef) {
      row(j) += scale * Kl_ * c;
      total += c;
    }
    row(lay_.pad_plus()) -= scale * Kl_ * total / T(2);
    row(lay_.pad_minus()) -= scale * Kl_ * total / T(2);
    rows_.push_back(row);
    bias_.push_back(bias);
    return static_cast<Index>(rows_.size()) - 1;
  }
  // A unit reading the raw LayerNorm outputs u with the given weights.
  Index raw_unit(const Vec<T>& row, const T& bias) {
    rows_.push_back(row);
    bias_.push_back(bias);
    return static_cast<Index>(rows_.size()) - 1;
  }
  void out(Index row, Index unit, const T& weight) { outs_.push_back({row, unit, weight}); }
  void finish(decoder_layer_weights<T>& w) const {
    const Index F = static_cast<Index>(rows_.size());
    w.W_in = Mat<T>::Zero(F, lay_.H());
    w.b_in = Vec<T>::Zero(F);
    for (Index f = 0; f < F; ++f) {
      w.W_in.row(f) = rows_[static_cast<size_t>(f)].transpose();
      w.b_in(f) = bias_[static_cast<size_t>(f)];
    }
    w.W_out = Mat<T>::Zero(lay_.H(), F);
    for (const auto& o : outs_) w.W_out(o.row, o.unit) += o.weight;
  }

 private:
  struct out_entry {
    Index row, unit;
    T weight;
  };
  raw_layout lay_;
  T Kl_;
  std::vector<Vec<T>> rows_;
  std::vector<T> bias_;
  std::vector<out_entry> outs_;
};

template <class T>
attention_head<T> pattern_head(const raw_layout& lay, const timestep_map& K, const T& Natt) {
  const Index H = lay.H(), Tn = lay.tokens;
  attention_head<T> hd;
  hd.Wq = Mat<T>::Zero(Tn, H);
  hd.Wk = Mat<T>::Zero(Tn, H);
  for (Index i = 0; i < Tn; ++i) {
    hd.Wk(i, lay.pos(i)) = T(1);
    for (Index k : K.at(static_cast<size_t>(i))) hd.Wq(k, lay.pos(i)) = Natt;
  }
  hd.Wv = Mat<T>::Zero(H, H);
  return hd;
}

template <class T>
decoder_layer_weights<T> empty_layer(const raw_layout& lay, const raw_knobs<T>& kn) {
  const Index H = lay.H();
  decoder_layer_weights<T> w;
  w.ln_gain = Vec<T>::Ones(H);
  w.ln_bias = Vec<T>::Zero(H);
  w.ln_eps = kn.ln_eps;
  w.activation = kn.form;
  w.b_out = Vec<T>::Zero(H);
  return w;
}

template <class T>
void finish_heads(decoder_layer_weights<T>& w, Index H) {
  const Index m = static_cast<Index>(w.heads.size());
  w.WF = Mat<T>::Zero(H, m * H);
  for (Index j = 0; j < m; ++j) w.WF.middleCols(j * H, H) = Mat<T>::Identity(H, H);
}

// Self-attention head cancelling the div scratch (left dirty by an earlier div layer).
template <class T>
attention_head<T> cleaning_head(const raw_layout& lay, const T& Natt) {
  attention_head<T> hd = pattern_head<T>(lay, attend_self(lay.tokens), Natt);
  for (Index j = 0; j < lay.div_scratch; ++j)
    hd.Wv(lay.div_scratch0() + j, lay.div_scratch0() + j) = T(-1);
  return hd;
}

// One decoder layer realising the parallel RAW ops.
template <class T>
decoder_layer_weights<T> build_raw_layer(const raw_layout& lay, const std::vector<raw_op<T>>& ops,
                                         const raw_knobs<T>& kn) {
  check_independent(ops);
  decoder_layer_weights<T> w = empty_layer(lay, kn);
  const Index H = lay.H();
  const T Kl = sqrt_of(T(T(2) / T(H))) * kn.ln_pad;
  mlp_builder<T> mlp(lay, Kl);
  const T Nb = kn.gelu_bypass, s = kn.mul_downscale;
  const T prod_scale = s * s * sqrt_of(T(pi_value<T>() / T(2)));
  Index t_next = lay.op_scratch0();
  std::map<timestep_map, size_t> head_of;
  for (const auto& op : ops) {
    check_op_shapes(op, lay.tokens);
    const Index nt = op.t_size();
    if (t_next + nt > lay.div_scratch0())
      throw std::invalid_argument("RAW layer: op scratch too small");
    index_list t = rows(t_next, t_next + nt);
    t_next += nt;
    if (!op.r.empty()) {
      // Ops with the same timestep map share one head (Lemma 7: K constant per head); their
      // scratch rows are disjoint, so their value maps add.
      auto it = head_of.find(op.K);
      if (it == head_of.end()) {
        w.heads.push_back(pattern_head<T>(lay, op.K, kn.attention_scale));
        it = head_of.emplace(op.K, w.heads.size() - 1).first;
      }
      attention_head<T>& hd = w.heads[it->second];
      for (Index n = 0; n < nt; ++n)
        for (size_t q = 0; q < op.r.size(); ++q)
          hd.Wv(t[static_cast<size_t>(n)], op.r[q]) = op.Wa(n, static_cast<Index>(q));
    }
    // Reset the scratch: x_t + (g(Nb - x^_t) - Nb) ~ 0.
    for (Index n = 0; n < nt; ++n) {
      const Index u = mlp.unit({{t[static_cast<size_t>(n)], T(-1)}}, T(1), Nb);
      mlp.out(t[static_cast<size_t>(n)], u, T(1));
      w.b_out(t[static_cast<size_t>(n)]) -= Nb;
    }
    for (size_t m = 0; m < op.w.size(); ++m) {
      const Index wm = op.w[m];
      std::map<Index, T> coef;
      coef[wm] -= T(1);
      if (op.kind == raw_kind::add) {
        for (Index n = 0; n < nt; ++n) {
          const T wo = op.Wo(static_cast<Index>(m), n);
          if (is_exact_zero(wo)) continue;
          coef[t[static_cast<size_t>(n)]] += wo;
          for (size_t q = 0; q < op.s.size(); ++q)
            coef[op.s[q]] += wo * op.W(n, static_cast<Index>(q));
        }
      }
      const Index u = mlp.unit(coef, T(1), T(Nb + op.b0(static_cast<Index>(m))));
      mlp.out(wm, u, T(1));
      w.b_out(wm) -= Nb;
    }
    if (op.kind == raw_kind::hadamard) {
      for (Index n = 0; n < nt; ++n) {
        std::map<Index, T> A{{t[static_cast<size_t>(n)], T(1)}}, B,
            AB{{t[static_cast<size_t>(n)], T(1)}};
        for (size_t q = 0; q < op.s.size(); ++q) {
          B[op.s[q]] += op.W(n, static_cast<Index>(q));
          AB[op.s[q]] += op.W(n, static_cast<Index>(q));
        }
        const Index uab = mlp.unit(AB, T(1) / s, T(0));
        const Index ua = mlp.unit(A, T(1) / s, T(0));
        const Index ub = mlp.unit(B, T(1) / s, T(0));
        for (size_t m = 0; m < op.w.size(); ++m) {
          const T wo = op.Wo(static_cast<Index>(m), n);
          if (is_exact_zero(wo)) continue;
          mlp.out(op.w[m], uab, T(wo * prod_scale));
          mlp.out(op.w[m], ua, T(-wo * prod_scale));
          mlp.out(op.w[m], ub, T(-wo * prod_scale));
        }
      }
    }
  }
  if (lay.div_scratch > 0) w.heads.push_back(cleaning_head<T>(lay, kn.attention_scale));
  mlp.finish(w);
  finish_heads(w, H);
  return w;
}

// One decoder layer realising div (C.6, Lemma 8) with the LayerNorm.
template <class T>
decoder_layer_weights<T> build_div_layer(const raw_layout& lay, const div_op& dv,
                                         const raw_knobs<T>& kn) {
  check_div(dv);
  const Index k = static_cast<Index>(dv.y_rows.size());
  if (k + 2 > lay.div_scratch) throw std::invalid_argument("div layer: div scratch too small");
  decoder_layer_weights<T> w = empty_layer(lay, kn);
  const Index H = lay.H();
  const Index P = lay.div_scratch0(), Q = P + k + 1;
  const T N = kn.div_N, M = kn.div_M;
  attention_head<T> hd = pattern_head<T>(lay, attend_self(lay.tokens), kn.attention_scale);
  // Cancel the pads and any old div scratch; assemble [N c, y/M, -N c - S/M].
  hd.Wv(lay.pad_plus(), lay.pad_plus()) = T(-1);
  hd.Wv(lay.pad_minus(), lay.pad_minus()) = T(-1);
  for (Index j = 0; j < lay.div_scratch; ++j) hd.Wv(P + j, P + j) = T(-1);
  // div overwrites w: cancel the old content there too (the paper's second head, C.4.3).
  for (Index q : dv.w) hd.Wv(q, q) = T(-1);
  hd.Wv(P, dv.c_row) += N;
  hd.Wv(Q, dv.c_row) += -N;
  for (Index q = 0; q < k; ++q) {
    hd.Wv(P + 1 + q, dv.y_rows[static_cast<size_t>(q)]) += T(1) / M;
    hd.Wv(Q, dv.y_rows[static_cast<size_t>(q)]) += T(-1) / M;
  }
  w.heads.push_back(hd);
  // MLP: y_q/|c| ~ sqrt(2/L) M N (u_{P+1+q} - (1/(k+2)) sum_{div rows} u)  (mean recovery).
  mlp_builder<T> mlp(lay, T(1));
  const T Kd = sqrt_of(T(T(2) / T(H))) * M * N;
  const T Nb = kn.gelu_bypass;
  for (Index q = 0; q < k; ++q) {
    Vec<T> row = Vec<T>::Zero(H);
    for (Index j = 0; j < k + 2; ++j) row(P + j) -= Kd / T(k + 2);
    row(P + 1 + q) += Kd;
    const Index u = mlp.raw_unit(row, Nb);
    mlp.out(dv.w[static_cast<size_t>(q)], u, T(1));
    w.b_out(dv.w[static_cast<size_t>(q)]) -= Nb;
  }
  w.b_out(lay.pad_plus()) += kn.ln_pad;
  w.b_out(lay.pad_minus()) -= kn.ln_pad;
  mlp.finish(w);
  finish_heads(w, H);
  return w;
}

template <class T>
decoder_layer_weights<T> build_layer(const raw_layout& lay, const layer_spec<T>& L,
                                     const raw_knobs<T>& kn) {
  return L.div ? build_div_layer(lay, *L.div, kn) : build_raw_layer(lay, L.ops, kn);
}

// The embedded hidden state for data rows D (D x T): one-hot positions and the pads.
template <class T>
Mat<T> embed_state(const raw_layout& lay, const Mat<T>& data, const raw_knobs<T>& kn) {
  if (data.rows() != lay.data_rows || data.cols() != lay.tokens)
    throw std::invalid_argument("RAW embedding: data must be D x T");
  Mat<T> h = Mat<T>::Zero(lay.H(), lay.tokens);
  h.topRows(lay.data_rows) = data;
  for (Index i = 0; i < lay.tokens; ++i) {
    h(lay.pos(i), i) = T(1);
    h(lay.pad_plus(), i) = kn.ln_pad;
    h(lay.pad_minus(), i) = -kn.ln_pad;
  }
  return h;
}

// Explicit instantiations for double, long double and mpfr_real: compiled once, in
// src/raw/raw_instantiations*.cpp, not in every translation unit that uses them (the extern
// declarations below); other scalars instantiate them where they are used.
// clang-format off
#define ICLPROOF_RAW_OPERATOR(PREFIX, T) \
  PREFIX template Mat<T> raw_exact<T>(const Mat<T>&, const std::vector<raw_op<T>>&); \
  PREFIX template Mat<T> div_exact<T>(const Mat<T>&, const div_op&); \
  PREFIX template Mat<T> layer_exact<T>(const Mat<T>&, const layer_spec<T>&); \
  PREFIX template decoder_layer_weights<T> build_raw_layer<T>(const raw_layout&, const std::vector<raw_op<T>>&, const raw_knobs<T>&); \
  PREFIX template decoder_layer_weights<T> build_div_layer<T>(const raw_layout&, const div_op&, const raw_knobs<T>&); \
  PREFIX template decoder_layer_weights<T> build_layer<T>(const raw_layout&, const layer_spec<T>&, const raw_knobs<T>&); \
  PREFIX template Mat<T> embed_state<T>(const raw_layout&, const Mat<T>&, const raw_knobs<T>&)
// clang-format on
ICLPROOF_RAW_OPERATOR(extern, double);
ICLPROOF_RAW_OPERATOR(extern, long double);
ICLPROOF_RAW_OPERATOR(extern, mpfr_real);

}  // namespace iclproof::raw
