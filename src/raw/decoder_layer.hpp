// A generic transformer decoder layer in the scalar T (Akyurek et al. 2023, eqs. (1)-(7) and
// (48)-(52)). It knows nothing of RAW: it is the architecture the RAW weights are run through.
//
// The hidden state is H x T (columns are timesteps, as everywhere in iclproof). For token i:
//   head j:  alpha = softmax over k <= i of (W_j^Q h_i)^T (W_j^K h_k)      (causal; optional
//            "null slot": an extra key with logit 0 and value 0, the paper's C.4.1 device for
//            attending to nothing, Chen et al. 2021)
//            b_j = sum_k alpha_k W_j^V h_k
//   a_i = W^F [b_1; ...; b_m]
//   x_i = a_i + h_i
//   h_i' = W_out sigma(W_in lambda(x_i) + b_in) + b_out + x_i
// with lambda = LayerNorm over the H entries, (x - mean) / sqrt(var + ln_eps) * gain + bias
// (var the biased variance, ln_eps a parameter: 0 allowed), sigma = GeLU (erf or tanh form).
// Naming: the paper's eq. (52) writes W_1 sigma(W_2 ...) (W_2 inner) while C.4.3 calls W_1
// "the first layer of the MLP"; here the inner map is W_in and the outer W_out, unambiguous.
//
// Softmax is computed stably: the largest logit is subtracted before exp (all in T; on
// intervals the midpoint of the enclosure of the largest logit).
// Weights are dense matrices; products skip exact zeros (the RAW weights are very sparse and
// an MPFR multiply by zero still costs a full multiply otherwise).
#pragma once

#include "core/eigen_scalar.hpp"
#include "raw/gelu.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace iclproof::raw {

template <class T>
struct attention_head {
  Mat<T> Wq;  // p x H
  Mat<T> Wk;  // p x H
  Mat<T> Wv;  // H x H (the value output has the hidden width; W^F mixes the heads)
};

template <class T>
struct decoder_layer_weights {
  std::vector<attention_head<T>> heads;
  Mat<T> WF;               // H x (m H)
  bool null_slot = false;  // prepend an imaginary key (logit 0, value 0)
  Vec<T> ln_gain;          // H
  Vec<T> ln_bias;          // H
  T ln_eps = T(0);
  Mat<T> W_in;   // F x H
  Vec<T> b_in;   // F
  Mat<T> W_out;  // H x F
  Vec<T> b_out;  // H
  gelu_form activation = gelu_form::erf;
};

// The non-zeros of a dense weight matrix, listed once per layer application, so that a
// product costs one multiply-add per non-zero (an MPFR multiply by zero costs a full multiply).
template <class T>
struct sparse_weights {
  Eigen::Index rows = 0, cols = 0;
  std::vector<Eigen::Index> r, c;
  std::vector<const T*> v;
  explicit sparse_weights(const Mat<T>& A) : rows(A.rows()), cols(A.cols()) {
    for (Eigen::Index j = 0; j < A.cols(); ++j)
      for (Eigen::Index i = 0; i < A.rows(); ++i)
        if (!is_exact_zero(A(i, j))) {
          r.push_back(i);
          c.push_back(j);
          v.push_back(&A(i, j));
        }
  }
  Vec<T> apply(const Vec<T>& x) const {
    Vec<T> y = Vec<T>::Zero(rows);
    for (size_t k = 0; k < r.size(); ++k) y(r[k]) += *v[k] * x(c[k]);
    return y;
  }
};

// y = A x, skipping exact zeros of A.
template <class T>
Vec<T> sparse_matvec(const Mat<T>& A, const Vec<T>& x) {
  return sparse_weights<T>(A).apply(x);
}

// Throws std::invalid_argument (one line) on inconsistent shapes.
template <class T>
void validate(const decoder_layer_weights<T>& w, Eigen::Index H) {
  auto need = [](bool ok, const std::string& what) {
    if (!ok) throw std::invalid_argument("decoder layer: " + what);
  };
  const Eigen::Index m = static_cast<Eigen::Index>(w.heads.size());
  for (const auto& h : w.heads) {
    need(h.Wq.cols() == H && h.Wk.cols() == H && h.Wq.rows() == h.Wk.rows(),
         "W^Q and W^K must be p x H with the same p");
    need(h.Wv.rows() == H && h.Wv.cols() == H, "W^V must be H x H");
  }
  need(w.WF.rows() == H && w.WF.cols() == m * H, "W^F must be H x (m H)");
  need(w.ln_gain.size() == H && w.ln_bias.size() == H,
       "LayerNorm gain and bias must have H entries");
  need(w.W_in.cols() == H && w.b_in.size() == w.W_in.rows(),
       "W_in must be F x H with b_in of size F");
  need(w.W_out.rows() == H && w.W_out.cols() == w.W_in.rows() && w.b_out.size() == H,
       "W_out must be H x F with b_out of size H");
  need(!(w.ln_eps < T(0)), "LayerNorm eps must be >= 0");
}

// Causal softmax attention of one head for every token; returns H x T.
template <class T>
Mat<T> attention_head_forward(const attention_head<T>& head, const Mat<T>& Hs, bool null_slot) {
  const Eigen::Index Tn = Hs.cols();
  Mat<T> Q(head.Wq.rows(), Tn), K(head.Wk.rows(), Tn), V(Hs.rows(), Tn);
  const sparse_weights<T> sq(head.Wq), sk(head.Wk), sv(head.Wv);
  for (Eigen::Index k = 0; k < Tn; ++k) {
    const Vec<T> h = Hs.col(k);
    Q.col(k) = sq.apply(h);
    K.col(k) = sk.apply(h);
    V.col(k) = sv.apply(h);
  }
  Mat<T> out = Mat<T>::Zero(Hs.rows(), Tn);
  for (Eigen::Index i = 0; i < Tn; ++i) {
    std::vector<T> logit(static_cast<size_t>(i + 1));
    for (Eigen::Index k = 0; k <= i; ++k) logit[static_cast<size_t>(k)] = Q.col(i).dot(K.col(k));
    T mx = null_slot ? T(0) : logit[0];
    for (const T& l : logit) mx = max_of(mx, l);
    // Any shift gives the same softmax; on intervals a point (the midpoint of the max's
    // enclosure) so the shift adds no width.
    if constexpr (is_interval_scalar<T>) mx = midpoint_point(mx);
    T denom = null_slot ? exp_value(T(-mx)) : T(0);
    std::vector<T> wgt(logit.size());
    for (size_t k = 0; k < logit.size(); ++k) {
      wgt[k] = exp_value(T(logit[k] - mx));
      denom += wgt[k];
    }
    for (Eigen::Index k = 0; k <= i; ++k) {
      const T a = wgt[static_cast<size_t>(k)] / denom;
      if (is_exact_zero(a)) continue;
      for (Eigen::Index r = 0; r < Hs.rows(); ++r)
        if (!is_exact_zero(V(r, k))) out(r, i) += a * V(r, k);
    }
  }
  return out;
}

// The moments LayerNorm normalises with: the centred vector x - mean and the (biased,
// two-pass) variance.
template <class T>
struct layer_norm_moments {
  Vec<T> centred;
  T var;
};
template <class T>
layer_norm_moments<T> layer_norm_centre(const Vec<T>& x) {
  const T L = T(x.size());
  T mean(0);
  for (Eigen::Index j = 0; j < x.size(); ++j) mean += x(j);
  mean /= L;
  layer_norm_moments<T> m{Vec<T>(x.size()), T(0)};
  for (Eigen::Index j = 0; j < x.size(); ++j) {
    m.centred(j) = x(j) - mean;
    m.var += m.centred(j) * m.centred(j);
  }
  m.var /= L;
  return m;
}

// LayerNorm of one vector: (x - mean) / sqrt(var + eps) * gain + bias, two-pass variance.
template <class T>
Vec<T> layer_norm(const Vec<T>& x, const Vec<T>& gain, const Vec<T>& bias, const T& eps) {
  const layer_norm_moments<T> m = layer_norm_centre(x);
  const T inv = T(1) / sqrt_of(T(m.var + eps));
  Vec<T> y(x.size());
  for (Eigen::Index j = 0; j < x.size(); ++j) y(j) = m.centred(j) * inv * gain(j) + bias(j);
  return y;
}

// The square of LayerNorm without gain and bias, square-root free: (x_j - mean)^2 / (var + eps)
// = layer_norm(x, 1, 0, eps)_j^2 (same moments); its sign is that of x_j - mean. What the exact
// rational mode evaluates.
template <class T>
Vec<T> layer_norm_squared(const Vec<T>& x, const T& eps) {
  const layer_norm_moments<T> m = layer_norm_centre(x);
  Vec<T> y(x.size());
  for (Eigen::Index j = 0; j < x.size(); ++j) y(j) = m.centred(j) * m.centred(j) / T(m.var + eps);
  return y;
}

// The MLP term W_out g(W_in u + b_in) of one token on enclosures, in the centred (mean-value)
// form: with c the midpoint of the enclosure U of u (a point), for every u in U and every output
// row r there is a t on the segment [c, u], inside U, with
//   (W_out g(W_in u + b_in))_r = (W_out g(W_in c + b_in))_r + (M(t) (u - c))_r,
//   M(t) = W_out diag(g'(W_in t + b_in)) W_in,
// so the result lies in W_out g(W_in c + b_in) + M(U) (U - c), M(U) formed as a matrix first
// (mean value theorem, componentwise). Why: the RAW product units compute
// s^2 sqrt(pi/2) (g((x+y)/s) - g(x/s) - g(y/s)), whose first-order terms cancel in exact
// arithmetic but not in the naive enclosure (the dependency problem): each unit's enclosure has
// the width of its own argument, and s^2 (...) multiplies the input width by about s
// (measured on the Theorem 1 chain at 257 bits: +35 to +45 bits of width per product layer,
// docs/ball-arithmetic.md). In M(U) the three units' g' nearly cancel inside each entry, so the
// layer multiplies the width by about its Lipschitz constant instead. Encloses the same set as
// the naive form (both contain the exact value for every u in U); it is only narrower.
template <class T>
Vec<T> mlp_centred(const decoder_layer_weights<T>& w, const Vec<T>& U) {
  const Eigen::Index Hn = U.size(), F = w.W_in.rows();
  Vec<T> c(Hn), dU(Hn);
  for (Eigen::Index j = 0; j < Hn; ++j) {
    c(j) = midpoint_point(U(j));
    dU(j) = U(j) - c(j);
  }
  const sparse_weights<T> s_in(w.W_in), s_out(w.W_out);
  Vec<T> zc = s_in.apply(c), Z = s_in.apply(U);
  Vec<T> gc(F), dg(F);
  for (Eigen::Index f = 0; f < F; ++f) {
    gc(f) = gelu(w.activation, T(zc(f) + w.b_in(f)));
    dg(f) = gelu_derivative(w.activation, T(Z(f) + w.b_in(f)));
  }
  // M = W_out diag(g') W_in, from the nonzeros of each (rows of W_in by unit).
  std::vector<std::vector<std::pair<Eigen::Index, const T*>>> in_row(static_cast<size_t>(F));
  for (size_t k = 0; k < s_in.r.size(); ++k)
    in_row[static_cast<size_t>(s_in.r[k])].push_back({s_in.c[k], s_in.v[k]});
  Mat<T> M = Mat<T>::Zero(w.W_out.rows(), Hn);
  for (size_t k = 0; k < s_out.r.size(); ++k) {
    const Eigen::Index r = s_out.r[k], f = s_out.c[k];
    const T a = *s_out.v[k] * dg(f);
    for (const auto& [j, v] : in_row[static_cast<size_t>(f)]) M(r, j) += a * *v;
  }
  Vec<T> y = s_out.apply(gc);
  for (Eigen::Index r = 0; r < M.rows(); ++r)
    for (Eigen::Index j = 0; j < Hn; ++j)
      if (!is_exact_zero(M(r, j))) y(r) += M(r, j) * dU(j);
  return y;
}

template <class T>
Mat<T> decoder_layer_forward(const decoder_layer_weights<T>& w, const Mat<T>& Hs) {
  const Eigen::Index H = Hs.rows(), Tn = Hs.cols();
  validate(w, H);
  Mat<T> X = Hs;  // x = a + h
  for (size_t j = 0; j < w.heads.size(); ++j) {
    const Mat<T> b = attention_head_forward(w.heads[j], Hs, w.null_slot);
    const Mat<T> WFj = w.WF.middleCols(static_cast<Eigen::Index>(j) * H, H);
    const sparse_weights<T> sf(WFj);
    for (Eigen::Index i = 0; i < Tn; ++i) X.col(i) += sf.apply(Vec<T>(b.col(i)));
  }
  Mat<T> out = X;
  const sparse_weights<T> s_in(w.W_in), s_out(w.W_out);
  for (Eigen::Index i = 0; i < Tn; ++i) {
    const Vec<T> ln = layer_norm<T>(X.col(i), w.ln_gain, w.ln_bias, w.ln_eps);
    if constexpr (is_interval_scalar<T>) {
      // Enclosures: the centred form (mlp_centred), not the naive one below.
      out.col(i) += mlp_centred(w, ln) + w.b_out;
      continue;
    }
    Vec<T> pre = s_in.apply(ln);
    for (Eigen::Index f = 0; f < pre.size(); ++f)
      pre(f) = gelu(w.activation, T(pre(f) + w.b_in(f)));
    out.col(i) += s_out.apply(pre) + w.b_out;
  }
  return out;
}

template <class T>
Mat<T> decoder_stack_forward(const std::vector<decoder_layer_weights<T>>& layers, Mat<T> Hs) {
  for (const auto& l : layers) Hs = decoder_layer_forward(l, Hs);
  return Hs;
}

// The input embedding of the paper (Section 2.3 and C.4.1): x~_i = [0, x_i], y~_i = [y_i, 0_d]
// interleaved as x_1, y_1, x_2, y_2, ..., x_n (X is d x n, y is 1 x (n - 1): the last x is the
// query), padded by W_e = [[I_{d+1}, 0], [0, 0]] to H rows, plus the position embedding P (H x T).
template <class T>
Mat<T> interleaved_input(const Mat<T>& X, const Mat<T>& y, Eigen::Index H, const Mat<T>& P) {
  const Eigen::Index d = X.rows(), n = X.cols();
  if (y.rows() != 1 || y.cols() != n - 1)
    throw std::invalid_argument("interleaved input: y must be 1 x (n - 1) for n inputs x");
  const Eigen::Index Tn = 2 * n - 1;
  if (H < d + 1) throw std::invalid_argument("interleaved input: H must be at least d + 1");
  if (P.rows() != H || P.cols() != Tn)
    throw std::invalid_argument("interleaved input: position embedding must be H x (2n - 1)");
  Mat<T> Hs = P;
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index r = 0; r < d; ++r) Hs(1 + r, 2 * i) += X(r, i);
    if (i + 1 < n) Hs(0, 2 * i + 1) += y(0, i);
  }
  return Hs;
}

// Explicit instantiations for double, long double and mpfr_real: compiled once, in
// src/raw/raw_instantiations*.cpp, not in every translation unit that uses them (the extern
// declarations below); other scalars instantiate them where they are used.
// clang-format off
#define ICLPROOF_RAW_DECODER_LAYER(PREFIX, T) \
  PREFIX template Mat<T> attention_head_forward<T>(const attention_head<T>&, const Mat<T>&, bool); \
  PREFIX template Vec<T> layer_norm<T>(const Vec<T>&, const Vec<T>&, const Vec<T>&, const T&); \
  PREFIX template Mat<T> decoder_layer_forward<T>(const decoder_layer_weights<T>&, const Mat<T>&); \
  PREFIX template Mat<T> decoder_stack_forward<T>(const std::vector<decoder_layer_weights<T>>&, Mat<T>)
// clang-format on
ICLPROOF_RAW_DECODER_LAYER(extern, double);
ICLPROOF_RAW_DECODER_LAYER(extern, long double);
ICLPROOF_RAW_DECODER_LAYER(extern, mpfr_real);

}  // namespace iclproof::raw
