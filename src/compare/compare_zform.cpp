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
#include <optional>
#include <stdexcept>
#include <string>

namespace iclproof::compare_detail {

void compare_zform(const weights_file& w, const learned_parameters<T>& p,
                   const std::vector<fresh_task>& tasks, const gd_step_fit& gd_fit,
                   compare_result& r, const compare_forward_pass& forward) {
  const int d = p.d, L = p.layers;
  const trained_outputs tf = evaluate_trained(p, tasks, forward);
  const T eta_gd = gd_fit.eta;
  const auto gd = gd_predictions(tasks, eta_gd, L);
  std::vector<std::vector<T>> cg(static_cast<std::size_t>(L), std::vector<T>(tasks.size()));
  std::vector<T> cg_alpha(L, T(0)), cg_gamma(L, T(0));
  task_phase cg_phase("CG reference per task", tasks.size());
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    const auto trace = conjugate_gradient(tasks[t].q, L);
    for (int l = 0; l < L; ++l) {
      cg[l][t] = trace.w[l + 1].dot(tasks[t].xq.col(0));
      cg_alpha[l] += trace.alpha[l] / T(tasks.size());
      cg_gamma[l] += trace.gamma[l] / T(tasks.size());
    }
    cg_phase.advance();
  }
  const auto loss_tf = losses_per_layer(tf.pred, tasks), loss_gd = losses_per_layer(gd, tasks),
             loss_cg = losses_per_layer(cg, tasks);
  r.tables["eta_gd_line_searched"] = to_d(eta_gd);
  r.tables["loss_ratio_standard_errors"] = {
      {"ratio_to_gd", to_d(loss_ratio_standard_error(tf.pred.back(), gd.back(), tasks))},
      {"ratio_to_cg", to_d(loss_ratio_standard_error(tf.pred.back(), cg.back(), tasks))}};
  r.tables["loss_per_layer"] =
      per_layer_losses({{"trained", loss_tf}, {"gd", loss_gd}, {"cg", loss_cg}});
  // One layer: the exact population optimum of the model's class is the reference (thresholds::
  // optimum_relative_excess); loss.ratio_to_gd is then reported only, as on isotropic data its
  // minimum over the weights is 1. More layers: the learned algorithm must be at least as good
  // as L GD steps with the line-searched eta.
  const std::optional<one_layer_optimum> opt = one_layer_exact_optimum(w, p.kind, gd_fit);
  add_loss_ratio_metric(
      r, "loss.ratio_to_gd", tf.pred.back(), gd.back(), tasks, 1.0, !opt,
      "L(TF) / L(L GD steps, line-searched eta) after the last layer: the learned algorithm "
      "must be at least as good as tuned GD (Ahn Thm 3 / Memformer Figs 1-2)" +
          std::string(opt ? "; reported only for one layer (gated: loss.ratio_to_exact_"
                            "optimum; on isotropic data the minimum of this ratio is 1)"
                          : ""));
  if (opt) {
    const std::vector<T> best = one_step_preconditioned_predictions(tasks, opt->A);
    const T loss_best = half_mean_square(best, tasks);
    const T se = loss_ratio_standard_error(tf.pred.back(), best, tasks);
    const double limit =
        1.0 + thresholds::optimum_relative_excess + thresholds::optimum_z * to_d(se);
    add_loss_ratio_metric(
        r, "loss.ratio_to_exact_optimum", tf.pred.back(), best, tasks, limit, true,
        fmt::format("L(TF) / L(A*) on the same fresh tasks, A* the exact population optimum "
                    "of one layer ({}); threshold 1 + {} + {} se, se = {:.3g} the paired "
                    "delta-method standard error of the ratio",
                    opt->what, thresholds::optimum_relative_excess, thresholds::optimum_z,
                    to_d(se)));
    r.tables["exact_optimum"] = {{"A_star", opt->what},
                                 {"population_loss", to_d(opt->population_loss)},
                                 {"sample_loss", to_d(loss_best)},
                                 {"trained_sample_loss", to_d(loss_tf.back())},
                                 {"ratio_standard_error", to_d(se)}};
    r.tables["loss_ratio_standard_errors"]["ratio_to_exact_optimum"] = to_d(se);
  }
  add_loss_ratio_metric(
      r, "loss.ratio_to_cg", tf.pred.back(), cg.back(), tasks, 1.0, false,
      "L(TF) / L(L CG steps, per-task coefficients); reported (shared coefficients cannot "
      "match per-task CG "
      "once CG has converged)");
  // Noiseless labels and L >= rank(H) = d layers: CG is exact, its loss is rounding (the paper
  // presets have L = 5 = d), and the ratio measures the working precision, not the model.
  if (L >= d && loss_cg.back() <= sqrt(eps<T>()) * loss_gd.back())
    r.notes.push_back(fmt::format(
        "loss.ratio_to_cg: CG has solved every task exactly after L = {} >= d = {} layers (its "
        "loss {:.3g} is rounding at {} bits), so this ratio measures the precision, not the model",
        L, d, to_d(loss_cg.back()), r.precision_bits));

  if (p.kind == learned_model_kind::ahn_linear || p.kind == learned_model_kind::memformer_lfom) {
    // Distances in the data's geometry: M_l = Sigma^1/2 A_l Sigma^1/2, Sigma = E[x x^T]
    // (input_covariance; isotropic inputs carry no Sigma in the file).
    const Mat<T> Sigma = input_covariance(w);
    const Mat<T> S12 = spd_sqrt(Sigma);
    nlohmann::json rows = nlohmann::json::array();
    T worst(0);
    int nonpositive = 0;
    std::vector<Mat<T>> A;
    for (int l = 0; l < L; ++l) {
      const Mat<T> M = matmul(matmul(S12, p.at(l, "A")), S12);
      const T dist = dist_to_scaled_identity(M);
      const T a_l = M.trace() / T(d);
      // Not (a_l > 0) so that a NaN counts as wrong.
      if (!(a_l > T(0))) ++nonpositive;
      // Drawn divided by a_l = tr M / d (Dist is scale-free), beside I (Ahn Thm 3).
      add_matrix_pair(r, fmt::format("layer {}: Sigma^1/2 A_l Sigma^1/2 / a_l", l + 1),
                      Mat<T>(M / a_l), "I (A_l = a_l Sigma^-1)", Mat<T>::Identity(d, d));
      keep_worst(worst, dist);
      nlohmann::json row = {{"layer", l + 1},
                            {"dist_sigma_half_A_sigma_half_to_I", to_d(dist)},
                            {"alpha", to_d(a_l)}};
      if (p.kind == learned_model_kind::memformer_lfom) row["Gamma"] = to_d(p.scalar(l, "Gamma"));
      rows.push_back(row);
      A.push_back(p.at(l, "A"));
    }
    r.tables["layers"] = rows;
    add_metric(r, "weights.worst_dist_to_sigma_inverse", worst, "<=", thresholds::ahn_dist,
               p.kind == learned_model_kind::ahn_linear,
               "max over layers of Dist(Sigma^1/2 A_l Sigma^1/2, I) = ||M - (tr M / d) I||_F / "
               "||M||_F, Frobenius norm (Memformer App. D; Ahn Thm 3: A_l -> a_l Sigma^-1)");
    // Dist is scale-free and sign-free (Dist(-M, I) = Dist(M, I)): the sign of a_l is checked
    // apart. In the model of ahn_linear a layer adds (1/N) x_q^T A_l X r (preconditioned GD with
    // P_l = A_l, Ahn Lemma 1), a descent step only if a_l > 0. memformer_lfom multiplies A_l by
    // Gamma_j, which can carry the sign: reported there.
    add_metric(r, "weights.layers_with_nonpositive_scale", T(nonpositive), "<=", 0.0,
               p.kind == learned_model_kind::ahn_linear,
               "number of layers with a_l = tr(Sigma^1/2 A_l Sigma^1/2) / d <= 0 (or NaN): "
               "Ahn Thm 3's A_l = a_l Sigma^-1 is a descent step only for a_l > 0; Dist cannot "
               "see the sign");
    if (p.kind == learned_model_kind::ahn_linear && L == 1 && opt) {
      // One layer: A* itself (no scale freedom in the Z-form with A only), in the data's
      // geometry: ||Sigma^1/2 (A - A*) Sigma^1/2||_F / ||Sigma^1/2 A* Sigma^1/2||_F. Reported:
      // the gated loss against A* already sees a wrong scale (which Dist cannot), with a slack
      // that has a statistical meaning; a distance threshold would have none (a model 4% above
      // the optimum in loss is 11% away in this norm at d = 5, N = 20).
      const Mat<T> M = matmul(matmul(S12, p.at(0, "A")), S12);
      const Mat<T> M_star = matmul(matmul(S12, opt->A), S12);
      add_metric(r, "weights.A_relative_distance_to_exact_optimum", relative_frobenius(M, M_star),
                 "<=", thresholds::ahn_dist, false,
                 "||Sigma^1/2 (A - A*) Sigma^1/2||_F / ||Sigma^1/2 A* Sigma^1/2||_F (Frobenius "
                 "norm in the data's geometry, Sigma = E x x^T), A* the exact population optimum "
                 "of one layer (" +
                     opt->what + "); reported");
    }
    if (p.kind == learned_model_kind::ahn_linear) {
      // Lemma 1 read exactly: the trained transformer IS preconditioned GD with P_l = A_l.
      T worst_rel(0);
      task_phase lemma1_phase("Lemma 1: preconditioned GD with the learned A_l per task",
                              tasks.size());
      for (std::size_t t = 0; t < tasks.size(); ++t) {
        const auto Wp =
            preconditioned_gd_iterates(Mat<T>(Mat<T>::Zero(1, d)), tasks[t].X, tasks[t].Y, A);
        const T ref = matmul(Wp.back(), tasks[t].xq)(0, 0);
        using boost::multiprecision::abs;
        const T rel = abs(tf.pred.back()[t] - ref) / (abs(ref) + abs(tasks[t].yq));
        keep_worst(worst_rel, rel);
        lemma1_phase.advance();
      }
      r.tables["lemma1_worst_relative_difference"] = to_d(worst_rel);
      r.tables["lemma1_worst_relative_difference_log2"] = log2_abs(worst_rel);
      // Lemma 1 is an identity of the MASKED model in exact arithmetic
      // (proofs/AhnLemma1.v:ahn_lemma1): both sides are functions of the same weights, so no
      // weights can fail it. It checks the verifier's forward pass, not the model: a
      // disagreement beyond 2^-(bits/2) (the square root of the unit roundoff at the working
      // precision; both sides are computed in different orders, measured 2^-249 apart at 256
      // bits) means the forward pass is not the paper's masked model (e.g. a missing mask), and
      // compare stops with an error instead of a verdict on the weights. Reported as information.
      const double limit = std::ldexp(1.0, -r.precision_bits / 2);
      if (!(worst_rel <= T(limit)))
        throw std::logic_error(fmt::format(
            "compare: the forward pass disagrees with Ahn Lemma 1 (the masked model) by a relative "
            "{:.3g} > 2^-{}: it is not the paper's model; no verdict on the weights",
            to_d(worst_rel), r.precision_bits / 2));
      add_metric(r, "forward.lemma1_worst_relative_difference", worst_rel, "<=", limit, false,
                 "max over tasks of |y_TF - y_PGD| / (|y_PGD| + |y_q|), y_PGD preconditioned GD "
                 "with the learned A_l (Ahn Lemma 1, an identity of the masked model): a check of "
                 "the verifier's forward pass, which no weights can fail; reported");
    }
  }
  if (p.kind == learned_model_kind::ahn_linear)
    add_implicit_weight_table(
        r, *trained_lsa_stack(p), tasks,
        [&](const fresh_task& k) { return gd_iterate_columns(k, eta_gd, L); },
        "GD from w = 0 with the reference step eta = " + full_digits(eta_gd) + " (" +
            gd_fit.method + ")",
        default_implicit_reader());
  if (p.kind == learned_model_kind::memformer_cgd) {
    nlohmann::json rows = nlohmann::json::array();
    for (int l = 0; l < L; ++l)
      rows.push_back({{"layer", l + 1},
                      {"alpha_learned", to_d(p.scalar(l, "alpha"))},
                      {"gamma_learned", to_d(p.scalar(l, "gamma"))},
                      {"alpha_cg_mean", to_d(cg_alpha[l])},
                      {"gamma_cg_mean", to_d(cg_gamma[l])}});
    r.tables["layers"] = rows;
  }
}

}  // namespace iclproof::compare_detail
