#include "compare/model_comparisons.hpp"
#include "compare/task_progress.hpp"

#include "compare/compare_metrics.hpp"
#include "compare/implicit_weights_reading.hpp"
#include "compare/thresholds.hpp"
#include "core/precision.hpp"
#include "lsa/vonoswald_weights.hpp"
#include "references/population_optima.hpp"

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

namespace iclproof::compare_detail {

namespace {
// GD++ with the per-layer coefficients (eta_l, gamma_l) on every task: its prediction after each
// layer, and the sum over the tasks of the cosine between the trained model's sensitivity and
// GD++'s final weights.
struct gdpp_reference_outputs {
  std::vector<std::vector<T>> pred;  // [layer][task]
  T cosine_sum;
};

gdpp_reference_outputs run_gdpp_reference(const std::vector<fresh_task>& tasks,
                                          const std::vector<T>& eta, const std::vector<T>& gamma,
                                          const trained_outputs& tf) {
  const std::size_t L = eta.size();
  gdpp_reference_outputs out{std::vector<std::vector<T>>(L, std::vector<T>(tasks.size())), T(0)};
  task_phase phase("GD++ reference per task", tasks.size());
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    const auto W = gdpp_preconditioned_iterates(tasks[t].X, tasks[t].Y, eta, gamma);
    for (std::size_t l = 0; l < L; ++l) out.pred[l][t] = matmul(W[l + 1], tasks[t].xq)(0, 0);
    out.cosine_sum += cosine(tf.sensitivity[t], Vec<T>(W.back().row(0).transpose()));
    phase.advance();
  }
  return out;
}
}  // namespace

void compare_single_layer(const weights_file& w, const learned_parameters<T>& p,
                          const std::vector<fresh_task>& tasks, const gd_step_fit& gd_fit,
                          compare_result& r, const compare_forward_pass& forward) {
  const int d = p.d;
  const T eta = gd_fit.eta;
  const trained_outputs tf = evaluate_trained(p, tasks, forward);
  std::vector<T> gd(tasks.size());
  T cos_sum(0), cos_min(2);
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    const Vec<T> s_gd = eta * tasks[t].q.b;  // d(eta b^T x_q)/dx_q
    gd[t] = s_gd.dot(tasks[t].xq.col(0));
    const T c = cosine(tf.sensitivity[t], s_gd);
    cos_sum += c;
    if (!(c >= cos_min)) cos_min = c;
  }
  const normalised_products n = normalise_lsa_products(p, 0);
  // Prop. 1 with W0 = 0: W_K^T W_Q = [[I, 0], [0, 0]], P W_V = [[0, 0], [0, -eta/N]].
  const auto [KQ_star, PV_star] =
      lsa_construction_products(prop1_weights<T>(d, 1, p.N, eta, Mat<T>::Zero(1, d)));
  const T loss_tf = half_mean_square(tf.pred[0], tasks), loss_gd = half_mean_square(gd, tasks);

  // Identifiability: a single layer's prediction reads only the query's y-part, and the query's
  // y-entry is 0 on input, so the prediction depends on P W_V only through its last row and on
  // W_K^T W_Q only through its first d columns. The other entries get exactly zero gradient
  // (Adam leaves them at their initial values): the verdict uses the identifiable blocks, the
  // full matrices are reported.
  add_metric(r, "weights.KQ_relative_distance",
             relative_frobenius(Mat<T>(n.KQ.leftCols(d)), Mat<T>(KQ_star.leftCols(d))),
             "<=", thresholds::relative_distance, true,
             "||(W_K^T W_Q / beta)[:, :d] - [[I],[0]]||_F / sqrt(d) (Prop 1; scale of A.3; "
             "identifiable columns)");
  add_metric(r, "weights.PV_relative_distance",
             relative_frobenius(Mat<T>(n.PV.bottomRows(1)), Mat<T>(PV_star.bottomRows(1))),
             "<=", thresholds::relative_distance, true,
             "||(beta P W_V)[d, :] - [0, -eta*/N]||_2 / (eta*/N), eta* of gd_step_reference "
             "(Prop 1; identifiable row)");
  add_metric(r, "weights.KQ_full_relative_distance", relative_frobenius(n.KQ, KQ_star),
             "<=", thresholds::relative_distance, false,
             "the same on the full matrix (includes never-trained entries)");
  add_metric(r, "weights.PV_full_relative_distance", relative_frobenius(n.PV, PV_star),
             "<=", thresholds::relative_distance, false,
             "the same on the full matrix (includes never-trained entries)");
  add_metric(r, "predictions.relative_difference", relative_l2(tf.pred[0], gd),
             "<=", thresholds::relative_distance, true,
             "||y_TF - y_GD||_2 / ||y_GD||_2 over the fresh tasks, one GD step with eta*");
  add_metric(r, "sensitivities.mean_cosine", cos_sum / T(tasks.size()), ">=", thresholds::cosine,
             true, "mean over tasks of cos(d y_TF / d x_q, d y_GD / d x_q) (von Oswald Fig. 2)");
  add_metric(r, "sensitivities.min_cosine", cos_min, ">=", thresholds::cosine, false,
             "worst task (reported)");
  add_loss_ratio_metric(r, "loss.ratio_to_gd", tf.pred[0], gd, tasks, thresholds::loss_ratio, true,
                        "L(TF) / L(one GD step with eta*) on the fresh tasks");
  r.tables["loss_ratio_standard_errors"] = {
      {"ratio_to_gd", to_d(loss_ratio_standard_error(tf.pred[0], gd, tasks))}};
  add_matrix_pair(r, "W_K^T W_Q / beta", n.KQ, "construction (Prop. 1)", KQ_star);
  add_matrix_pair(r, "beta P W_V", n.PV, "construction (Prop. 1, eta*)", PV_star);
  const T eta_learned = -T(p.N) * n.PV(d, d);
  r.tables["eta_reference"] = to_d(eta);
  r.tables["eta_learned"] = to_d(eta_learned);
  r.tables["eta_learned_relative_difference"] = to_d(abs_of(T(eta_learned - eta)) / abs_of(eta));
  r.tables["beta"] = to_d(n.beta);
  r.tables["loss"] = {{"trained", to_d(loss_tf)}, {"gd", to_d(loss_gd)}};
  if (gd_fit.population_loss)
    r.tables["loss"]["gd_population_exact"] = to_d(*gd_fit.population_loss);
  r.notes.push_back(
      "scale correction (von Oswald A.3): beta = mean of the first d diagonal entries of W_K^T "
      "W_Q; "
      "compared: W_K^T W_Q / beta and beta P W_V, nothing else normalised");
  add_implicit_weight_table(
      r, *trained_lsa_stack(p), tasks,
      [&](const fresh_task& k) { return gd_iterate_columns(k, eta, 1); },
      "one GD step from w = 0 with eta* = " + full_digits(eta) + " (Prop. 1's construction)",
      default_implicit_reader());
  (void)w;
}

void compare_lsa_gdpp(const weights_file& w, const learned_parameters<T>& p,
                      const std::vector<fresh_task>& tasks, const gd_step_fit& gd_fit,
                      const compare_options& o, compare_result& r,
                      const compare_forward_pass& forward) {
  const int d = p.d, L = p.layers, sets = p.tied ? 1 : L;
  nlohmann::json layer_rows = nlohmann::json::array();
  std::vector<T> eta_fit, gamma_fit;
  T worst_align(0);
  for (int s = 0; s < sets; ++s) {
    const normalised_products n = normalise_lsa_products(p, s);
    T gamma(0);
    for (int i = 0; i < d; ++i) gamma -= n.PV(i, i);
    gamma /= T(d);
    const T eta = -T(p.N) * n.PV(d, d);
    // GD++ with W0 = 0: W_K^T W_Q = [[I, 0], [0, 0]], P W_V = [[-gamma I, 0], [0, -eta/N]].
    const auto [KQ_star, PV_star] =
        lsa_construction_products(gdpp_weights<T>(d, 1, p.N, gamma, eta, Mat<T>::Zero(1, d)));
    // The last layer of an untied stack: its x-row updates are never read, so the first d rows of
    // its P W_V get zero gradient; they are left out (as in the single-layer comparison).
    const bool last_untied = !p.tied && s == L - 1 && L > 1;
    const T dKQ = relative_frobenius(n.KQ, KQ_star);
    const T dPV =
        last_untied ? relative_frobenius(Mat<T>(n.PV.bottomRows(1)), Mat<T>(PV_star.bottomRows(1)))
                    : relative_frobenius(n.PV, PV_star);
    keep_worst(worst_align, dKQ);
    keep_worst(worst_align, dPV);
    const std::string set_name = p.tied ? "tied layers" : fmt::format("layer {}", s + 1);
    add_matrix_pair(r, set_name + ": W_K^T W_Q / beta", n.KQ, "GD++ construction", KQ_star);
    add_matrix_pair(r, set_name + ": beta P W_V", n.PV, "GD++ construction (fitted eta, gamma)",
                    PV_star);
    layer_rows.push_back({{"parameter_set", s},
                          {"beta", to_d(n.beta)},
                          {"eta", to_d(eta)},
                          {"gamma", to_d(gamma)},
                          {"KQ_relative_distance", to_d(dKQ)},
                          {"PV_relative_distance", to_d(dPV)}});
    eta_fit.push_back(eta);
    gamma_fit.push_back(gamma);
  }
  // GD++ reference with the fitted (eta_l, gamma_l), one pair per layer application.
  std::vector<T> eta_l, gamma_l;
  for (int l = 0; l < L; ++l) {
    eta_l.push_back(eta_fit[p.tied ? 0 : l]);
    gamma_l.push_back(gamma_fit[p.tied ? 0 : l]);
  }
  const trained_outputs tf = evaluate_trained(p, tasks, forward);
  const auto [gdpp, cos_sum] = run_gdpp_reference(tasks, eta_l, gamma_l, tf);
  const T eta_gd = gd_fit.eta;
  const auto gd = gd_predictions(tasks, eta_gd, L);
  // GD++ with tuned coefficients (tune_gdpp_reference), evaluated at the working precision.
  const tuned_gdpp tuned = tune_gdpp_reference(w, o, L, p.tied, eta_gd);
  std::vector<T> eta_tuned, gamma_tuned;
  for (int l = 0; l < L; ++l) {
    eta_tuned.emplace_back(tuned.fit.eta[static_cast<std::size_t>(l)]);
    gamma_tuned.emplace_back(tuned.fit.gamma[static_cast<std::size_t>(l)]);
  }
  const auto [gdpp_tuned, cos_tuned_sum] = run_gdpp_reference(tasks, eta_tuned, gamma_tuned, tf);
  r.tables["loss_ratio_standard_errors"] = {
      {"ratio_to_gdpp", to_d(loss_ratio_standard_error(tf.pred.back(), gdpp.back(), tasks))},
      {"ratio_to_gdpp_tuned",
       to_d(loss_ratio_standard_error(tf.pred.back(), gdpp_tuned.back(), tasks))},
      {"ratio_to_gd", to_d(loss_ratio_standard_error(tf.pred.back(), gd.back(), tasks))}};
  const auto loss_tf = losses_per_layer(tf.pred, tasks), loss_gdpp = losses_per_layer(gdpp, tasks),
             loss_gd = losses_per_layer(gd, tasks),
             loss_gdpp_tuned = losses_per_layer(gdpp_tuned, tasks);

  // Against GD++ with the coefficients read off the weights: gated for the recurrent (tied)
  // model, whose weights von Oswald et al. show realigning with GD++ and interpolating with the
  // construction (Sec. 3, Fig. 3); reported only for an untied stack, where the paper says the
  // weight correction does not work ("the naive correction necessary for model interpolation
  // used in the aforementioned experiments is not enough to interpolate without a loss
  // increase") and matches it with TUNED per-layer coefficients instead (below).
  add_metric(r, "weights.worst_alignment_distance", worst_align,
             "<=", thresholds::relative_distance, p.tied,
             "max over layers of the relative Frobenius distances of W_K^T W_Q / beta and beta P "
             "W_V from the GD++ "
             "construction [[I,0],[0,0]], [[-gamma I,0],[0,-eta/N]] with the layer's own fitted "
             "(eta, gamma)" +
                 std::string(p.tied ? ""
                                    : "; reported only for an untied stack (von Oswald Sec. 3: the "
                                      "naive scale correction does not align untied layers)"));
  const std::string untied_note =
      p.tied ? "" : "; reported only for an untied stack (von Oswald Sec. 3)";
  add_metric(r, "predictions.relative_difference_to_gdpp", relative_l2(tf.pred.back(), gdpp.back()),
             "<=", thresholds::relative_distance, p.tied,
             "||y_TF - y_GD++||_2 / ||y_GD++||_2, GD++ with the (eta_l, gamma_l) read off the "
             "weights" +
                 untied_note);
  add_metric(r, "sensitivities.mean_cosine_to_gdpp", cos_sum / T(tasks.size()),
             ">=", thresholds::cosine, p.tied,
             "mean cos(d y_TF / d x_q, w_L of GD++ read off the weights)" + untied_note);
  add_loss_ratio_metric(r, "loss.ratio_to_gdpp", tf.pred.back(), gdpp.back(), tasks,
                        thresholds::loss_ratio, p.tied,
                        "L(TF) / L(GD++ with the coefficients read off the weights)" + untied_note);
  // Against GD++ with TUNED coefficients (von Oswald Sec. 3: "a different GD learning rate as
  // well as gamma per step (layer) need to be tuned to match the Transformer performance. This
  // slight modification leads again to almost perfect alignment between the trained TF and GD++";
  // for the recurrent model "we tune a single parameter gamma"): gated for both, same thresholds
  // as the single layer. Not from the weights, so it also sees a model that is GD++ with wrong
  // coefficients (a wrong scale that still beats plain GD).
  add_metric(r, "predictions.relative_difference_to_gdpp_tuned",
             relative_l2(tf.pred.back(), gdpp_tuned.back()), "<=", thresholds::relative_distance,
             true,
             "||y_TF - y_GD++||_2 / ||y_GD++||_2, GD++ with (eta_l, gamma_l) tuned on a sample "
             "of its own (tables.gdpp_tuned)");
  add_metric(r, "sensitivities.mean_cosine_to_gdpp_tuned", cos_tuned_sum / T(tasks.size()),
             ">=", thresholds::cosine, true, "mean cos(d y_TF / d x_q, w_L of tuned GD++)");
  add_loss_ratio_metric(r, "loss.ratio_to_gdpp_tuned", tf.pred.back(), gdpp_tuned.back(), tasks,
                        thresholds::loss_ratio, true, "L(TF) / L(GD++ with tuned coefficients)");
  // Gated: the GD++ read off the weights is that model's own coefficients, so
  // a model wrong by a sign or a scale of its step, or with a collapsed layer, passes the three
  // weight-read metrics; the references not from the weights (plain GD here, tuned GD++ above)
  // catch it. von Oswald et al. claim this one (thresholds::beats_plain_gd);
  // tests/unit/compare_gated_lsa_test.cpp shows each of those models failing a gated metric.
  add_loss_ratio_metric(
      r, "loss.ratio_to_gd", tf.pred.back(), gd.back(), tasks, thresholds::beats_plain_gd, true,
      "L(TF) / L(K GD steps, line-searched eta) <= 1: von Oswald Sec. 3, trained K-layer "
      "LSA models \"generally outperform K steps of plain gradient descent\" (Fig. 3)");
  r.tables["layers"] = layer_rows;
  r.tables["eta_gd_line_searched"] = to_d(eta_gd);
  r.tables["loss_per_layer"] = per_layer_losses({{"trained", loss_tf},
                                                 {"gdpp_fitted", loss_gdpp},
                                                 {"gdpp_tuned", loss_gdpp_tuned},
                                                 {"gd", loss_gd}});
  r.tables["gdpp_tuned"] = {
      {"eta", tuned.fit.eta},
      {"gamma", tuned.fit.gamma},
      {"sample_tasks", tuned.sample_tasks},
      {"sample_loss", tuned.fit.loss},
      {"loss_from_each_start", tuned.fit.start_losses},
      {"holdout_loss_from_each_start", tuned.fit.holdout_losses},
      {"holdout_loss", tuned.fit.holdout_loss},
      {"evaluations", tuned.fit.evaluations},
      {"method",
       fmt::format("Levenberg-Marquardt on {} tasks of a stream of its own, in double, from "
                   "plain GD, (eta*_GD, gamma = 0) in every layer; holdout loss on {} other "
                   "tasks; {}",
                   tuned.sample_tasks, tuned.sample_tasks,
                   p.tied ? "one (eta, gamma) for all layers" : "one (eta_l, gamma_l) per layer")}};
  r.notes.push_back(
      "GD++ convention: P W_V = [[-gamma I, 0], [0, -eta/N]], x <- (I - gamma X X^T) x (no 1/N)");
  add_implicit_weight_table(
      r, *trained_lsa_stack(p), tasks,
      [&](const fresh_task& k) {
        std::vector<Mat<T>> out;
        for (const auto& W : gdpp_preconditioned_iterates(k.X, k.Y, eta_tuned, gamma_tuned))
          out.push_back(W.transpose());
        return out;
      },
      "GD++ with the tuned (eta_l, gamma_l) of tables.gdpp_tuned (its iterate W_l in "
      "preconditioned form, W_l x_q its prediction after layer l)",
      default_implicit_reader());
  (void)w;
}

}  // namespace iclproof::compare_detail
