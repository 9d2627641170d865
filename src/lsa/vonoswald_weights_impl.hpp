// Definitions of lsa/vonoswald_weights.hpp and ICLPROOF_INSTANTIATE_VONOSWALD(T). Included only by
// the vonoswald_weights_<scalar>.cpp files, one translation unit per group of scalar types, so each
// scalar's instantiations compile once and in parallel.
#pragma once
#include "lsa/vonoswald_weights.hpp"

#include <stdexcept>
#include <string>

namespace iclproof {

namespace {
void require_sizes(Eigen::Index d, Eigen::Index o, Eigen::Index N, const char* what) {
  if (d < 1 || o < 1 || N < 1)
    throw std::invalid_argument(std::string(what) +
                                ": need d, o, N >= 1, got d = " + std::to_string(d) +
                                ", o = " + std::to_string(o) + ", N = " + std::to_string(N));
}
void require_w0(const auto& W0, Eigen::Index d, Eigen::Index o, const char* what) {
  if (W0.rows() != o || W0.cols() != d)
    throw std::invalid_argument(std::string(what) + ": W0 must be o x d = " + std::to_string(o) +
                                "x" + std::to_string(d) + ", got " + std::to_string(W0.rows()) +
                                "x" + std::to_string(W0.cols()));
}
// W_K = W_Q = [[I_d, 0], [0, 0]] (D x D).
template <class T>
Mat<T> x_selector(Eigen::Index d, Eigen::Index o) {
  Mat<T> S = Mat<T>::Zero(d + o, d + o);
  S.topLeftCorner(d, d) = Mat<T>::Identity(d, d);
  return S;
}
// The head both constructions share (Prop. 1 and GD++, Appendix A.10): keys and queries select
// x, the value block maps a token (x, y) to W0 x - y (the residual of the model W0); the caller
// sets the projection P and, for GD++, the x-update block.
template <class T>
lsa_head<T> gd_residual_head(Eigen::Index d, Eigen::Index o, Eigen::Index N, const Mat<T>& W0,
                             const char* what) {
  require_sizes(d, o, N, what);
  require_w0(W0, d, o, what);
  const Eigen::Index D = d + o;
  lsa_head<T> h;
  h.W_K = x_selector<T>(d, o);
  h.W_Q = h.W_K;
  h.W_V = Mat<T>::Zero(D, D);
  h.W_V.bottomLeftCorner(o, d) = W0;
  h.W_V.bottomRightCorner(o, o) = -Mat<T>::Identity(o, o);
  return h;
}
}  // namespace

template <class T>
Mat<T> regression_tokens(const Mat<T>& X, const Mat<T>& Y, const Mat<T>& Xq, const Mat<T>& Yq0) {
  if (Y.cols() != X.cols() || Xq.rows() != X.rows() || Yq0.rows() != Y.rows() ||
      Yq0.cols() != Xq.cols() || X.rows() < 1 || Y.rows() < 1)
    throw std::invalid_argument("regression_tokens: need X d x N, Y o x N, Xq d x Q, Yq0 o x Q");
  const Eigen::Index d = X.rows(), o = Y.rows(), N = X.cols(), Q = Xq.cols();
  Mat<T> E(d + o, N + Q);
  E.topLeftCorner(d, N) = X;
  E.topRightCorner(d, Q) = Xq;
  E.bottomLeftCorner(o, N) = Y;
  E.bottomRightCorner(o, Q) = Yq0;
  return E;
}

template <class T>
Mat<T> prop1_query_init(const Mat<T>& W0, const Mat<T>& Xq) {
  return -matmul(W0, Xq);
}

template <class T>
Mat<T> lsa_query_prediction(const Mat<T>& E, Eigen::Index d, Eigen::Index n_context) {
  if (d < 1 || d >= E.rows() || n_context < 0 || n_context > E.cols())
    throw std::invalid_argument("lsa_query_prediction: d or n_context does not fit the tokens");
  return -E.bottomRightCorner(E.rows() - d, E.cols() - n_context);
}

template <class T>
lsa_layer<T> prop1_weights(Eigen::Index d, Eigen::Index o, Eigen::Index N, const T& eta,
                           const Mat<T>& W0) {
  lsa_head<T> h = gd_residual_head<T>(d, o, N, W0, "prop1_weights");
  h.P = Mat<T>::Identity(d + o, d + o) * T(eta / T(N));
  return lsa_layer<T>{{h}, lsa_mask::context_keys};
}

template <class T>
lsa_stack<T> gd_stack_weights(Eigen::Index d, Eigen::Index o, Eigen::Index N,
                              const std::vector<T>& eta) {
  lsa_stack<T> s;
  for (const T& e : eta) s.layers.push_back(prop1_weights<T>(d, o, N, e, Mat<T>::Zero(o, d)));
  return s;
}

template <class T>
lsa_layer<T> gdpp_weights(Eigen::Index d, Eigen::Index o, Eigen::Index N, const T& gamma,
                          const T& eta, const Mat<T>& W0) {
  lsa_head<T> h = gd_residual_head<T>(d, o, N, W0, "gdpp_weights");
  h.W_V.topLeftCorner(d, d) = Mat<T>::Identity(d, d) * T(-gamma);
  h.P = Mat<T>::Zero(d + o, d + o);
  h.P.topLeftCorner(d, d) = Mat<T>::Identity(d, d);
  h.P.bottomRightCorner(o, o) = Mat<T>::Identity(o, o) * T(eta / T(N));
  return lsa_layer<T>{{h}, lsa_mask::context_keys};
}

template <class T>
lsa_stack<T> gdpp_stack_weights(Eigen::Index d, Eigen::Index o, Eigen::Index N,
                                const std::vector<T>& gamma, const std::vector<T>& eta) {
  if (gamma.size() != eta.size())
    throw std::invalid_argument("gdpp_stack_weights: " + std::to_string(gamma.size()) +
                                " gammas but " + std::to_string(eta.size()) + " etas");
  lsa_stack<T> s;
  for (std::size_t l = 0; l < eta.size(); ++l)
    s.layers.push_back(gdpp_weights<T>(d, o, N, gamma[l], eta[l], Mat<T>::Zero(o, d)));
  return s;
}

#define ICLPROOF_INSTANTIATE_VONOSWALD(T)                                                    \
  template Mat<T> regression_tokens<T>(const Mat<T>&, const Mat<T>&, const Mat<T>&,          \
                                       const Mat<T>&);                                       \
  template Mat<T> prop1_query_init<T>(const Mat<T>&, const Mat<T>&);                         \
  template Mat<T> lsa_query_prediction<T>(const Mat<T>&, Eigen::Index, Eigen::Index);        \
  template lsa_layer<T> prop1_weights<T>(Eigen::Index, Eigen::Index, Eigen::Index, const T&, \
                                         const Mat<T>&);                                     \
  template lsa_stack<T> gd_stack_weights<T>(Eigen::Index, Eigen::Index, Eigen::Index,        \
                                            const std::vector<T>&);                          \
  template lsa_layer<T> gdpp_weights<T>(Eigen::Index, Eigen::Index, Eigen::Index, const T&,  \
                                        const T&, const Mat<T>&);                            \
  template lsa_stack<T> gdpp_stack_weights<T>(Eigen::Index, Eigen::Index, Eigen::Index,      \
                                              const std::vector<T>&, const std::vector<T>&);

}  // namespace iclproof
