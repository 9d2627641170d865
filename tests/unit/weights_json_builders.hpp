// A matrix as a weights-file tensor ({"shape": [rows, cols], "data": rows of numbers}), shared by
// the weights-reader and unusual-files tests.
#pragma once

#include "core/linalg.hpp"

#include <nlohmann/json.hpp>

namespace iclproof::weights_json_builders {

inline nlohmann::json matrix_tensor(const Mat<double>& m) {
  nlohmann::json data = nlohmann::json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    nlohmann::json row = nlohmann::json::array();
    for (Eigen::Index j = 0; j < m.cols(); ++j) row.push_back(m(i, j));
    data.push_back(row);
  }
  return {{"shape", {m.rows(), m.cols()}}, {"data", data}};
}

}  // namespace iclproof::weights_json_builders
