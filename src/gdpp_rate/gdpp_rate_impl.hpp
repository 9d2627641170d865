// Definitions of gdpp_rate.hpp; instantiated per scalar group.
#pragma once
#include "gdpp_rate/gdpp_rate.hpp"

#include <stdexcept>
#include <string>

namespace iclproof {

template <class T>
T gdpp_eigenvalue_map(const T& lambda, const T& gamma) {
  const T s = T(1) - gamma * lambda;
  return lambda * s * s;
}

template <class T>
T gdpp_lemma_a3_contraction() {
  const T one_minus = T(1) - T(1) / (T(33) / T(10));  // 1 - 1/3.3 = 23/33
  return T(T(T(4) / T(9)) / T(one_minus * one_minus));
}

template <class T>
T gdpp_kappa_map(const T& kappa) {
  const T den = T(3) * kappa - T(1);
  return T(4) * kappa * kappa * kappa / (den * den);
}

template <class T>
gdpp_rate_schedule<T> gdpp_rate_schedule_for(const T& mu, const T& nu, int K) {
  if (!(T(0) < mu) || !(mu <= nu) || K < 0)
    throw std::invalid_argument(
        "gdpp_rate_schedule_for: need 0 < mu <= nu and K >= 0 (K = " + std::to_string(K) + ")");
  gdpp_rate_schedule<T> s;
  s.mu.push_back(mu);
  s.nu.push_back(nu);
  for (int l = 0; l < K; ++l) {
    const T g = T(1) / (T(3) * s.nu.back());
    s.gamma.push_back(g);
    const T m = gdpp_eigenvalue_map(s.mu.back(), g), n = gdpp_eigenvalue_map(s.nu.back(), g);
    s.mu.push_back(m);
    s.nu.push_back(n);
  }
  s.eta_over_n = T(1) / s.mu.back();
  return s;
}

template <class T>
lsa_stack<T> gdpp_rate_stack(Eigen::Index d, Eigen::Index o, Eigen::Index N,
                             const gdpp_rate_schedule<T>& schedule) {
  std::vector<T> gamma = schedule.gamma, eta(schedule.gamma.size(), T(0));
  gamma.push_back(T(0));
  eta.push_back(T(N) * schedule.eta_over_n);
  return gdpp_stack_weights<T>(d, o, N, gamma, eta);
}

template <class T>
int gdpp_rate_layers_needed(const T& kappa, const T& tol) {
  if (!(T(1) <= kappa) || !(T(0) < tol))
    throw std::invalid_argument("gdpp_rate_layers_needed: need kappa >= 1 and tol > 0");
  T k = kappa;
  int K = 0;
  while (!(k - T(1) <= tol)) {
    k = gdpp_kappa_map(k);
    if (++K > 10000) throw std::invalid_argument("gdpp_rate_layers_needed: no convergence");
  }
  return K;
}

#define ICLPROOF_INSTANTIATE_GDPP_RATE(T)                                         \
  template T gdpp_eigenvalue_map(const T&, const T&);                             \
  template T gdpp_kappa_map(const T&);                                            \
  template T gdpp_lemma_a3_contraction<T>();                                      \
  template gdpp_rate_schedule<T> gdpp_rate_schedule_for(const T&, const T&, int); \
  template lsa_stack<T> gdpp_rate_stack(Eigen::Index, Eigen::Index, Eigen::Index, \
                                        const gdpp_rate_schedule<T>&);            \
  template int gdpp_rate_layers_needed(const T&, const T&);

}  // namespace iclproof
