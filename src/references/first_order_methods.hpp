// Conjugate gradient, momentum, Nesterov and the general linear first-order method (LFOM) on
//   R(w) = 1/(2N) ||X^T w - y^T||^2,   grad R(w) = H w - b,   H = X X^T / N,   b = X y^T / N,
// for one output (y is 1 x N, w is d x 1), all started at w_0 = 0 (CONSTRUCTIONS.md 4, 6).
#pragma once

#include "core/linalg.hpp"

#include <stdexcept>
#include <vector>

namespace iclproof {

template <class T>
struct quadratic_problem {
  Mat<T> H;  // X X^T / N   (d x d)
  Vec<T> b;  // X y^T / N   (d)
  Vec<T> gradient(const Vec<T>& w) const { return Vec<T>(matmul(H, Mat<T>(w))) - b; }
};

template <class T>
quadratic_problem<T> make_quadratic_problem(const Mat<T>& X, const Mat<T>& y) {
  if (y.rows() != 1 || y.cols() != X.cols())
    throw std::invalid_argument("first-order methods take one output: y must be 1 x N");
  const T n = T(X.cols());
  return {Mat<T>(matmul_nt(X, X) / n), Vec<T>(matmul_nt(X, y) / n)};
}

// Conjugate gradient (Hestenes-Stiefel form, exact line search):
//   r_0 = -grad R(w_0) = b, s_0 = r_0;  alpha_l = r_l^T r_l / s_l^T H s_l;  w_{l+1} = w_l + alpha_l
//   s_l; r_{l+1} = r_l - alpha_l H s_l;  gamma_{l+1} = r_{l+1}^T r_{l+1} / r_l^T r_l;  s_{l+1} =
//   r_{l+1} + gamma_{l+1} s_l.
// gamma_0 = 0. If r_l = 0 exactly (converged), the remaining steps are zero (alpha = gamma = 0).
template <class T>
struct cg_trace {
  std::vector<Vec<T>> w;  // w_0..w_L
  std::vector<T> alpha;   // alpha_0..alpha_{L-1}
  std::vector<T> gamma;   // gamma_0..gamma_{L-1} (gamma_0 = 0)
};

template <class T>
cg_trace<T> conjugate_gradient(const quadratic_problem<T>& q, int L) {
  const Eigen::Index d = q.b.size();
  cg_trace<T> t;
  Vec<T> w = Vec<T>::Zero(d), r = q.b, s = Vec<T>::Zero(d);
  T rr_prev(0);
  t.w.push_back(w);
  for (int l = 0; l < L; ++l) {
    const T rr = r.squaredNorm();
    const T gamma = l == 0 || rr_prev == T(0) ? T(0) : T(rr / rr_prev);
    s = r + gamma * s;
    const Vec<T> Hs = matmul(q.H, Mat<T>(s));
    const T sHs = s.dot(Hs);
    const T alpha = sHs == T(0) ? T(0) : T(rr / sHs);
    w += alpha * s;
    r -= alpha * Hs;
    rr_prev = rr;
    t.w.push_back(w);
    t.alpha.push_back(alpha);
    t.gamma.push_back(gamma);
  }
  return t;
}

// K GD steps from w_0 = 0 with step eta, as a polynomial in eta: w_k(eta) = sum_{j=1..k} c_j eta^j.
// From w_{k+1} = (I - eta H) w_k + eta b, one step maps c_1 -> c_1 + b and c_j -> c_j - H c_{j-1}
// (j = 2..k+1, with the old c_{j-1}). Returns c_1..c_K (index 0 holds c_1). One O(K^2 d^2) pass
// gives the iterate for every eta, so a loss over many tasks is one polynomial in eta (compare's
// line search for the GD reference step).
template <class T>
std::vector<Vec<T>> gd_iterate_polynomial(const quadratic_problem<T>& q, int K) {
  if (K < 1) throw std::invalid_argument("gd_iterate_polynomial: K must be >= 1");
  const Eigen::Index d = q.b.size();
  std::vector<Vec<T>> c;  // c[j - 1] = c_j of the current iterate
  for (int k = 0; k < K; ++k) {
    c.push_back(Vec<T>::Zero(d));
    for (std::size_t j = c.size() - 1; j >= 1; --j) c[j] -= Vec<T>(matmul(q.H, Mat<T>(c[j - 1])));
    c[0] += q.b;
  }
  return c;
}

// Heavy-ball momentum: w_{l+1} = w_l - eta grad R(w_l) + beta (w_l - w_{l-1}), w_{-1} = w_0 = 0.
template <class T>
std::vector<Vec<T>> momentum_gd(const quadratic_problem<T>& q, const T& eta, const T& beta, int L) {
  const Eigen::Index d = q.b.size();
  std::vector<Vec<T>> w{Vec<T>::Zero(d)};
  Vec<T> prev = w.back();
  for (int l = 0; l < L; ++l) {
    const Vec<T> next = w.back() - eta * q.gradient(w.back()) + beta * (w.back() - prev);
    prev = w.back();
    w.push_back(next);
  }
  return w;
}

// Nesterov: v_l = w_l + beta (w_l - w_{l-1}), w_{l+1} = v_l - eta grad R(v_l), w_{-1} = w_0 = 0.
// Returns the look-ahead sequence v_0..v_L (v_0 = w_0), the iterate the LFOM form tracks.
template <class T>
std::vector<Vec<T>> nesterov_lookahead(const quadratic_problem<T>& q, const T& eta, const T& beta,
                                       int L) {
  const Eigen::Index d = q.b.size();
  Vec<T> w = Vec<T>::Zero(d), w_prev = w;
  std::vector<Vec<T>> v;
  for (int l = 0; l <= L; ++l) {
    const Vec<T> vl = w + beta * (w - w_prev);
    v.push_back(vl);
    w_prev = w;
    w = vl - eta * q.gradient(vl);
  }
  return v;
}

// General LFOM with scalar coefficients: w_{l+1} = w_l - sum_{j<=l} lambda(l, j) grad R(w_j).
// lambda is L x L, lower triangular (entries above the diagonal must be zero).
template <class T>
std::vector<Vec<T>> lfom(const quadratic_problem<T>& q, const Mat<T>& lambda) {
  const Eigen::Index L = lambda.rows();
  if (lambda.cols() != L) throw std::invalid_argument("lfom: coefficient matrix must be square");
  for (Eigen::Index l = 0; l < L; ++l)
    for (Eigen::Index j = l + 1; j < L; ++j)
      if (lambda(l, j) != T(0))
        throw std::invalid_argument("lfom: coefficients must be lower triangular");
  std::vector<Vec<T>> w{Vec<T>::Zero(q.b.size())};
  std::vector<Vec<T>> g;
  for (Eigen::Index l = 0; l < L; ++l) {
    g.push_back(q.gradient(w.back()));
    Vec<T> next = w.back();
    for (Eigen::Index j = 0; j <= l; ++j) next -= lambda(l, j) * g[j];
    w.push_back(next);
  }
  return w;
}

// LFOM coefficients of heavy-ball momentum: lambda(l, j) = eta beta^(l-j).
template <class T>
Mat<T> momentum_lfom_coefficients(const T& eta, const T& beta, int L) {
  Mat<T> c = Mat<T>::Zero(L, L);
  for (int l = 0; l < L; ++l) {
    T p(1);
    for (int j = l; j >= 0; --j, p *= beta) c(l, j) = eta * p;
  }
  return c;
}

// LFOM coefficients of Nesterov's look-ahead sequence v: lambda(l, l) = eta (1 + beta),
// lambda(l, j) = eta beta^(l-j+1) for j < l.
template <class T>
Mat<T> nesterov_lfom_coefficients(const T& eta, const T& beta, int L) {
  Mat<T> c = Mat<T>::Zero(L, L);
  for (int l = 0; l < L; ++l) {
    c(l, l) = eta * (T(1) + beta);
    T p = beta * beta;
    for (int j = l - 1; j >= 0; --j, p *= beta) c(l, j) = eta * p;
  }
  return c;
}

}  // namespace iclproof
