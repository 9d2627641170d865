#include "compare/validation_tasks.hpp"
#include "compare/task_progress.hpp"

#include <stdexcept>

namespace iclproof::compare_detail {

Mat<T> input_covariance(const weights_file& w) {
  if (w.inputs == "anisotropic") return from_double<T>(w.Sigma);
  const Mat<T> I = Mat<T>::Identity(w.d, w.d);
  if (w.inputs == "gaussian") return I;
  if (w.inputs == "uniform") return Mat<T>(I / T(3));
  throw std::invalid_argument("compare: unknown inputs '" + w.inputs + "'");
}

std::vector<fresh_task> draw_tasks(const weights_file& w, const compare_options& o) {
  task_source source(w, o.seed);
  std::vector<fresh_task> tasks;
  tasks.reserve(static_cast<std::size_t>(o.tasks));
  task_phase phase("drawing the validation tasks", static_cast<std::size_t>(o.tasks));
  for (int t = 0; t < o.tasks; ++t) {
    tasks.push_back(source.next());
    phase.advance();
  }
  return tasks;
}

trained_outputs evaluate_trained(const learned_parameters<T>& p,
                                 const std::vector<fresh_task>& tasks,
                                 const compare_forward_pass& forward) {
  trained_outputs o;
  o.pred.assign(static_cast<std::size_t>(p.layers), std::vector<T>(tasks.size()));
  const int d = p.d;
  Mat<T> Xq = Mat<T>::Zero(d, d + 2);
  for (int k = 0; k < d; ++k) Xq(k, 2 + k) = T(1);
  task_phase phase("forward passes of the learned model", tasks.size());
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    Xq.col(0) = tasks[t].xq.col(0);
    const auto out = forward(p, tasks[t].X, tasks[t].Y, Xq);
    if (out.size() != static_cast<std::size_t>(p.layers) || out.back().size() != Xq.cols())
      throw std::logic_error("compare: the forward pass returned the wrong number of predictions");
    for (int l = 0; l < p.layers; ++l) o.pred[l][t] = out[l](0);
    Vec<T> s(d);
    for (int k = 0; k < d; ++k) s(k) = out.back()(2 + k) - out.back()(1);
    o.sensitivity.push_back(std::move(s));
    phase.advance();
  }
  return o;
}

}  // namespace iclproof::compare_detail
