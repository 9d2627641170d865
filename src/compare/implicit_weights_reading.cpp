#include "compare/implicit_weights_reading.hpp"
#include "compare/task_progress.hpp"

#include "compare/ahn_full_model.hpp"
#include "compare/compare_metrics.hpp"
#include "references/gradient_descent.hpp"

#include <fmt/format.h>

#include <cmath>

namespace iclproof::compare_detail {

implicit_reader default_implicit_reader() {
  return [](const lsa_stack<T>& s, const Mat<T>& X, const Mat<T>& Y) {
    return read_implicit_weights<T>(s, X, Y);
  };
}

std::optional<lsa_stack<T>> trained_lsa_stack(const learned_parameters<T>& p) {
  lsa_stack<T> stack;
  for (int l = 0; l < p.layers; ++l) {
    switch (p.kind) {
      case learned_model_kind::lsa:
        stack.layers.push_back({{{p.at(l, "W_K"), p.at(l, "W_Q"), p.at(l, "W_V"), p.at(l, "P")}},
                                lsa_mask::context_keys});
        break;
      case learned_model_kind::ahn_linear: {
        const Mat<T>& A = p.at(l, "A");
        const std::map<std::string, Mat<T>> set{
            {ahn_full_p_name(1), Mat<T>(Mat<T>::Zero(p.d, p.d))}, {ahn_full_q_name(1), Mat<T>(-A)}};
        stack.layers.push_back(ahn_full_layer<T>(set, p.N));
        break;
      }
      case learned_model_kind::ahn_full_linear:
        stack.layers.push_back(ahn_full_layer<T>(p.sets.at(static_cast<std::size_t>(l)), p.N));
        break;
      case learned_model_kind::memformer_cgd:
      case learned_model_kind::memformer_lfom:
        return std::nullopt;
    }
  }
  return stack;
}

double identity_limit(int bits) { return std::ldexp(1.0, -bits / 2); }

implicit_identity_result check_implicit_identity(const lsa_stack<T>& stack,
                                                 const std::vector<fresh_task>& tasks,
                                                 const std::vector<T>& predictions,
                                                 const implicit_reader& read) {
  if (predictions.size() != tasks.size())
    throw std::invalid_argument("check_implicit_identity: one prediction per task");
  implicit_identity_result out;
  task_phase phase("implicit weights read off every prompt (Thm 4.1)", tasks.size());
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    const fresh_task& k = tasks[t];
    const Eigen::Index d = k.X.rows(), N = k.X.cols();
    const auto states = read(stack, k.X, k.Y);
    if (states.size() != stack.layers.size() + 1)
      throw std::logic_error(
          fmt::format("the implicit-weights reading returned {} states for {} "
                      "layers (expected layers + 1)",
                      states.size(), stack.layers.size()));
    Mat<T> X(d, N + 1), Y(1, N + 1);
    X << k.X, k.xq;
    Y << k.Y, T(0);
    Mat<T> E(d + 1, N + 1);
    E << X, Y;
    const auto tokens = lsa_stack_forward<T>(stack, E, N);
    for (std::size_t l = 0; l < states.size(); ++l) {
      const T diff = relative_frobenius(implicit_tokens<T>(states[l], X, Y), tokens[l]);
      if (!(diff <= out.worst_token_difference)) {  // a NaN, once seen, stays
        out.worst_token_difference = diff;
        out.worst_token_task = t;
      }
    }
    using boost::multiprecision::abs;
    const T read_out = matmul_tn(states.back().w, k.xq)(0, 0);
    const T diff = abs(read_out - predictions[t]) / (abs(predictions[t]) + abs(k.yq));
    if (!(diff <= out.worst_prediction_difference)) {
      out.worst_prediction_difference = diff;
      out.worst_prediction_task = t;
    }
    phase.advance();
  }
  return out;
}

std::vector<Mat<T>> gd_iterate_columns(const fresh_task& task, const T& eta, int L) {
  std::vector<Mat<T>> out;
  for (const auto& W : gd_iterates(Mat<T>(Mat<T>::Zero(1, task.X.rows())), task.X, task.Y, eta, L))
    out.push_back(W.transpose());
  return out;
}

void add_implicit_weight_table(
    compare_result& r, const lsa_stack<T>& stack, const std::vector<fresh_task>& tasks,
    const std::function<std::vector<Mat<T>>(const fresh_task&)>& reference,
    const std::string& reference_label, const implicit_reader& read) {
  const std::size_t L = stack.layers.size();
  std::vector<T> dist(L, T(0)), cos(L, T(0));
  task_phase phase("implicit weights against the reference iterates per task", tasks.size());
  for (const auto& k : tasks) {
    const auto states = read(stack, k.X, k.Y);
    const auto ref = reference(k);
    for (std::size_t l = 1; l <= L; ++l) {
      const Vec<T> w = states.at(l).w.col(0), v = ref.at(l).col(0);
      dist[l - 1] += sqrt((w - v).squaredNorm() / v.squaredNorm()) / T(tasks.size());
      cos[l - 1] += cosine(w, v) / T(tasks.size());
    }
    phase.advance();
  }
  nlohmann::json rows = nlohmann::json::array();
  for (std::size_t l = 0; l < L; ++l)
    rows.push_back({{"layer", l + 1},
                    {"relative_distance_to_reference", to_d(dist[l])},
                    {"cosine_to_reference", to_d(cos[l])}});
  r.tables["implicit_weights"] = rows;
  r.notes.push_back(fmt::format(
      "implicit_weights: on each of the {} evaluation prompts, the implicit linear model w^l the "
      "model holds after layer l (its prediction is (w^l)^T x_q) was read off the trained weights "
      "and the prompt's context by read_implicit_weights (Vladymyrov et al. 2024, Thm 4.1; "
      "proofs/ImplicitWeights.v:implicit_layer_update), which never runs the layers; per layer, "
      "the table gives the means over prompts of ||w^l - w_ref^l||_2 / ||w_ref^l||_2 and "
      "cos(w^l, w_ref^l), w_ref^l the l-th iterate of {} on the same prompt",
      tasks.size(), reference_label));
}

}  // namespace iclproof::compare_detail
