// Small weight-building helpers shared by the ReLU-attention constructions built from token
// blocks (newton_schulz/giannou_weights_impl.hpp, iterative_newton/fu_relu_weights_impl.hpp).
#pragma once
#include "core/linalg.hpp"

#include <stdexcept>
#include <string>

namespace iclproof::block_selectors {

// rows x D matrix with an identity at column offset `col`.
template <class T>
Mat<T> selector(Eigen::Index rows, Eigen::Index D, Eigen::Index col) {
  Mat<T> s = Mat<T>::Zero(rows, D);
  s.block(0, col, rows, rows) = Mat<T>::Identity(rows, rows);
  return s;
}

// Refuses a dimension d < 1, naming the builder.
inline void require_d(Eigen::Index d, const char* what) {
  if (d < 1) throw std::invalid_argument(std::string(what) + ": d = " + std::to_string(d) + " < 1");
}

}  // namespace iclproof::block_selectors
