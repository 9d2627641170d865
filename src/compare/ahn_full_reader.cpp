#include "compare/ahn_full_model.hpp"

namespace iclproof {

std::vector<std::map<std::string, Eigen::MatrixXd>> ahn_full_parameter_sets(
    const std::function<Eigen::MatrixXd(int, int, int)>& block, int layers, int heads) {
  std::vector<std::map<std::string, Eigen::MatrixXd>> sets;
  for (int l = 0; l < layers; ++l) {
    std::map<std::string, Eigen::MatrixXd> set;
    for (int h = 0; h < heads; ++h) {
      set[ahn_full_p_name(h + 1)] = block(l, h, 0);
      set[ahn_full_q_name(h + 1)] = block(l, h, 1).transpose();
    }
    sets.push_back(std::move(set));
  }
  return sets;
}

}  // namespace iclproof
