// A construction of the user's own, written as matrices from Python (iclproof.verify,
// docs/python.md): a stack of the generic linear-attention layers (lsa/lsa_layer.hpp with
// W_K, W_Q, W_V, P per head, masked or not; memformer/z_form_transformer.hpp's P, Q form with
// its 1/N), a token layout, exact weights (rationals) for each (d, N), and a claimed reference
// from src/references/. It becomes a property of its own (not registered: it exists for one
// run) with a body in rational_real (the claim is equality, no tolerance) and one in MPFR
// (tolerance: user_rounding_bound_name below), run and judged by the same harness and verdict
// module as `iclproof check` (cli/check_results.hpp: present_check_results).
//
// Runs in the executable iclproof-python-engine (engine_main.cpp), not inside the Python
// process: Debian's librapidcheck.a is not position-independent, so nothing that links the
// harness can be a shared object (docs/python.md). The Python side evaluates the user's weight
// functions at every (d, N) of the ranges first and sends the instances (exact "p/q" text);
// `instantiate` looks them up.
#pragma once

#include "cli/check_command.hpp"
#include "core/rational.hpp"

#include <nlohmann/json.hpp>
#include "core/scalar.hpp"
#include "harness/parallel_runner.hpp"
#include "harness/property.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace iclproof::python_binding {

using R = rational_real;

// One layer: kind "lsa" (heads of W_K h x D, W_Q h x D, W_V v x D, P D x v; the update
// e_j += sum_heads P (sum_{keys} (W_V e_i)(W_K e_i)^T) W_Q e_j, lsa/lsa_layer.hpp) or "pq"
// (heads of P, Q, D x D each; Z += (1/N) sum_heads P Z M Z^T Q Z, Ahn et al.'s form,
// memformer/z_form_transformer.hpp; unmasked it is the lsa head W_K = W_V = I, W_Q = Q, P / N).
struct user_layer {
  std::string kind;  // "lsa" | "pq"
  bool masked = true;
  std::vector<std::map<std::string, Mat<R>>> heads;
};

// Everything that depends on the sizes (d, N): the layout, the layers' weights, the
// reference's parameters.
struct user_instance {
  int D = 0;            // token dimension
  int x_row = 0;        // x occupies rows x_row .. x_row + d - 1
  int y_row = 0;        // y's row (o = 1); the query's starts at 0
  int readout_row = 0;  // the prediction is sign * (final token matrix)(readout_row, query)
  int sign = -1;
  std::vector<user_layer> layers;
  std::map<std::string, R> reference_scalars;  // eta, lambda, alpha, steps
  std::vector<Mat<R>> preconditioners;         // preconditioned_gd: one d x d per step
};

struct user_construction {
  std::string name;       // the row is "user.<name>"
  std::string reference;  // one of user_reference_names()
  int d_min = 1, d_max = 4, N_min = 1, N_max = 8;
  std::string description;  // what the Python side was given, for the claim sentence
  // Builds the instance for (d, N); throws (one line) on a bad weight or shape.
  std::function<user_instance(int d, int N)> instantiate;
};

const std::vector<std::string>& user_reference_names();

// The tolerance of the MPFR run, by name, and its formula.
inline constexpr const char* user_rounding_bound_name =
    "generic rounding bound of a linear-attention stack: |computed - reference| <= 2 "
    "gamma_(n+2) (shadow + |reference|), shadow = the same stack run on |weights| and |tokens|, "
    "n = e_L the stack's rounding depth, e_0 = 0, e_(l+1) = max(2, e_l) + D + keys + v + h + "
    "heads for an LSA layer, max(2, e_l) + N + 3 D + heads + 1 for a masked P, Q layer; Higham, "
    "ASNA 2nd ed., Lemma 3.1 and section 3.1 (running the computation in absolute values), as "
    "properties/rounding_shadow.hpp; hand-derived, not a Qed lemma";

// Throws std::invalid_argument (one line) unless the reference is known, the sizes are sane and
// the instances at the smallest and largest sizes have consistent shapes (a forward pass on
// zero tokens runs).
void validate_user_construction(const user_construction& c);

// The exact prediction of the reference for one task (o = 1, one query).
R user_reference_prediction(const std::string& reference, const user_instance& inst,
                            const Mat<R>& X, const Mat<R>& Y, const Mat<R>& xq);

// What a user construction run needs to stay alive while it runs.
struct user_run {
  std::shared_ptr<property> prop;
  std::shared_ptr<user_construction> construction;
};
user_run make_user_property(const user_construction& c);

// Runs the construction's property in `scalar` (rational or mpfr) as `iclproof check` runs one
// property: header, the check row (error, tolerance, margin, verdict, trust level), the failing
// case; writes check.json to json_path. `on_case` is called after every case (it may throw to
// stop the run). Returns 0 if it passed, 1 if not.
// The construction described by a request of the Python side (iclproof/__init__.py: verify):
// name, reference, description, d_min, d_max, N_min, N_max and "instances", one per (d, N),
// each {"d", "N", "D", "x_row", "y_row", "readout_row", "sign", "layers": [{"kind", "masked",
// "heads": [{block: [[p/q text]]}]}], "reference_scalars": {name: p/q text},
// "preconditioners": [[[p/q text]]]}. Throws std::invalid_argument (one line) on a malformed
// request.
user_construction user_construction_from_json(const nlohmann::json& request);

int run_user_construction(const user_construction& c, scalar_kind scalar, int cases,
                          std::uint64_t seed, std::optional<int> bits, const std::string& json_path,
                          const std::function<void()>& on_case, const std::string& reproduce);

}  // namespace iclproof::python_binding
