// The implicit weights (Vladymyrov et al. 2024, Thm 4.1; implicit_weights/implicit_weights.hpp)
// read off a TRAINED linear transformer by `iclproof compare`, and the checks built on them.
//
// The reading is a parameter everywhere (implicit_reader): compare passes read_implicit_weights,
// and tests pass a broken one to see the checks fail (tests/unit/compare_ahn_full_test.cpp).
#pragma once

#include "compare/compare.hpp"
#include "compare/validation_tasks.hpp"
#include "implicit_weights/implicit_weights.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace iclproof::compare_detail {

using implicit_reader = std::function<std::vector<implicit_state<T>>(const lsa_stack<T>&,
                                                                     const Mat<T>&, const Mat<T>&)>;

// read_implicit_weights as an implicit_reader.
implicit_reader default_implicit_reader();

// The masked lsa_stack of a trained model whose layers are linear attention: lsa (one head per
// layer, W_K, W_Q, W_V, P as trained), ahn_linear (P = 0, Q = -A: compare/ahn_full_model.hpp) and
// ahn_full_linear. std::nullopt for the Memformer models (their layers add a memory of earlier
// layers' updates, which is not one lsa layer).
std::optional<lsa_stack<T>> trained_lsa_stack(const learned_parameters<T>& p);

// Theorem 4.1 on the model's own forward pass, for every task: the tokens the implicit state
// (M^l, u^l, a^l, w^l) describes against the tokens lsa_stack_forward computes after every layer
// (context and query; the query with y = 0), and the read-out (w^L)^T x_q against the prediction
// of the forward pass compare evaluates (`predictions`, one per task). Worst relative
// differences (Frobenius, resp. |.| / (|y_TF| + |y_q|)) and the task where each was seen.
struct implicit_identity_result {
  T worst_token_difference{0}, worst_prediction_difference{0};
  std::size_t worst_token_task = 0, worst_prediction_task = 0;
};
implicit_identity_result check_implicit_identity(const lsa_stack<T>& stack,
                                                 const std::vector<fresh_task>& tasks,
                                                 const std::vector<T>& predictions,
                                                 const implicit_reader& read);

// The limit of an identity computed two ways at `bits` bits: 2^-(bits/2) (the square root of the
// unit roundoff; the two sides round differently, by a few hundred ulps at most on these sizes).
double identity_limit(int bits);

// Per layer l = 1..L, the mean over tasks of ||w^l - w_ref^l||_2 / ||w_ref^l||_2 and of
// cos(w^l, w_ref^l), w^l read off the model by `read`, w_ref^l = reference(task)[l] (d x 1,
// l = 0..L; index 0 unused). Rows {layer, relative_distance, cosine}; appends the table
// r.tables["implicit_weights"] and a note saying what was read and how.
void add_implicit_weight_table(
    compare_result& r, const lsa_stack<T>& stack, const std::vector<fresh_task>& tasks,
    const std::function<std::vector<Mat<T>>(const fresh_task&)>& reference,
    const std::string& reference_label, const implicit_reader& read);

// L steps of GD with step eta from w = 0, as columns w_0..w_L (d x 1 each).
std::vector<Mat<T>> gd_iterate_columns(const fresh_task& task, const T& eta, int L);

}  // namespace iclproof::compare_detail
