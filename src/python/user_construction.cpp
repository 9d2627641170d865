// A user's construction as a property (user_construction.hpp): the bodies in rational_real and
// MPFR, the exact references, the rounding depth of the layer stack, and the run through the
// check command's own setup, runner and presentation.
#include "python/user_construction.hpp"

#include "cli/check_results.hpp"
#include "cli/check_setup.hpp"
#include "core/eigen_scalar.hpp"
#include "core/kernels.hpp"
#include "core/precision.hpp"
#include "core/rounding_error_bounds.hpp"
#include "harness/progress.hpp"
#include "lsa/lsa_layer.hpp"
#include "memformer/z_form_transformer.hpp"
#include "references/references.hpp"
#include "tasks/rapidcheck_gen.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace iclproof::python_binding {

namespace {

[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument(what); }

// Exact rational -> the working scalar (MPFR: correctly rounded, mpfr_set_q).
template <class T>
T from_rational(const R& q) {
  if constexpr (std::is_same_v<T, R>) {
    return q;
  } else {
    T x;
    mpfr_set_q(x.backend().data(), q.backend().data(), MPFR_RNDN);
    return x;
  }
}
template <class T>
Mat<T> from_rational(const Mat<R>& m) {
  Mat<T> out(m.rows(), m.cols());
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) out(i, j) = from_rational<T>(m(i, j));
  return out;
}
template <class T>
Mat<T> abs_of(const Mat<T>& m) {
  Mat<T> out(m.rows(), m.cols());
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) out(i, j) = abs(m(i, j));
  return out;
}

const Mat<R>& block(const std::map<std::string, Mat<R>>& head, const char* name, std::size_t l,
                    std::size_t h) {
  const auto it = head.find(name);
  if (it == head.end()) bad(fmt::format("layer {} head {}: no block {}", l, h, name));
  return it->second;
}

// The stack in T, with every weight replaced by its absolute value when `absolute` (the
// rounding shadow: the same program on |inputs|; the layers use + and x only).
template <class T>
Mat<T> forward(const user_instance& inst, const Mat<T>& E, Eigen::Index N, bool absolute) {
  Mat<T> Z = E;
  const auto w = [&](const Mat<R>& m) {
    Mat<T> x = from_rational<T>(m);
    return absolute ? abs_of(x) : x;
  };
  for (std::size_t l = 0; l < inst.layers.size(); ++l) {
    const user_layer& layer = inst.layers[l];
    if (layer.kind == "lsa" || (layer.kind == "pq" && !layer.masked)) {
      lsa_layer<T> L;
      L.mask = layer.masked ? lsa_mask::context_keys : lsa_mask::all_keys;
      for (std::size_t h = 0; h < layer.heads.size(); ++h) {
        const auto& hd = layer.heads[h];
        if (layer.kind == "lsa") {
          L.heads.push_back({w(block(hd, "W_K", l, h)), w(block(hd, "W_Q", l, h)),
                             w(block(hd, "W_V", l, h)), w(block(hd, "P", l, h))});
        } else {  // unmasked P, Q: W_K = W_V = I, W_Q = Q, P / N
          const Mat<R>& P = block(hd, "P", l, h);
          const Mat<T> I = Mat<T>::Identity(P.rows(), P.rows());
          Mat<T> Pn = w(P);
          divide_in_place(Pn.data(), T(N), Pn.size());
          L.heads.push_back({I, w(block(hd, "Q", l, h)), I, Pn});
        }
      }
      Z = lsa_layer_forward(L, Z, N);
    } else if (layer.kind == "pq") {
      linear_transformer_layer<T> L;
      for (std::size_t h = 0; h < layer.heads.size(); ++h)
        L.heads.push_back(
            {w(block(layer.heads[h], "P", l, h)), w(block(layer.heads[h], "Q", l, h))});
      Z = linear_transformer_forward<T>(Z, {L}).back();
    } else {
      bad(fmt::format("layer {}: unknown layer kind '{}' (known: lsa, pq)", l, layer.kind));
    }
  }
  return Z;
}

template <class T>
Mat<T> tokens(const user_instance& inst, const Mat<T>& X, const Mat<T>& Y, const Mat<T>& xq) {
  const Eigen::Index d = X.rows(), N = X.cols();
  Mat<T> E = Mat<T>::Zero(inst.D, N + 1);
  E.block(inst.x_row, 0, d, N) = X;
  E.block(inst.y_row, 0, 1, N) = Y;
  E.block(inst.x_row, N, d, 1) = xq;
  return E;
}

// The longest chain of rounded operations from the weights and tokens to any entry of the
// final token matrix (user_rounding_bound_name). Weights enter at depth 2: their conversion to
// MPFR, and the division of an unmasked P by N.
double rounding_depth(const user_instance& inst, Eigen::Index N) {
  double e = 0;
  const double D = inst.D;
  for (const user_layer& layer : inst.layers) {
    const double H = static_cast<double>(layer.heads.size());
    const double start = std::max(2.0, e);
    if (layer.kind == "pq" && layer.masked) {
      e = start + static_cast<double>(N) + 3 * D + H + 1;
    } else {
      double v = 0, h = 0;
      for (const auto& hd : layer.heads) {
        if (layer.kind == "lsa") {
          v = std::max(v, static_cast<double>(hd.at("W_V").rows()));
          h = std::max(h, static_cast<double>(hd.at("W_K").rows()));
        } else {
          v = h = D;
        }
      }
      const double keys = static_cast<double>(layer.masked ? N : N + 1);
      e = start + D + keys + v + h + H;
    }
  }
  return e;
}

int integer_parameter(const user_instance& inst, const std::string& key, int fallback,
                      const std::string& reference) {
  const auto it = inst.reference_scalars.find(key);
  if (it == inst.reference_scalars.end()) {
    if (fallback >= 0) return fallback;
    bad(fmt::format("reference '{}' needs the parameter {}", reference, key));
  }
  const R& v = it->second;
  if (denominator(v) != 1 || v < 1 || v > 64)
    bad(fmt::format("reference '{}': {} must be an integer from 1 to 64, not {}", reference, key,
                    full_digits(v)));
  return static_cast<int>(numerator(v).convert_to<long>());
}

const R& scalar_parameter(const user_instance& inst, const std::string& key,
                          const std::string& reference) {
  const auto it = inst.reference_scalars.find(key);
  if (it == inst.reference_scalars.end())
    bad(fmt::format("reference '{}' needs the parameter {}", reference, key));
  return it->second;
}

void check_layout(const user_instance& inst, int d) {
  if (inst.D < 1 || inst.D > 4096)
    bad(fmt::format("layout: token dimension {} is not in 1..4096", inst.D));
  if (inst.x_row < 0 || inst.x_row + d > inst.D)
    bad(fmt::format("layout: x rows {}..{} do not fit tokens of dimension {}", inst.x_row,
                    inst.x_row + d - 1, inst.D));
  if (inst.y_row < 0 || inst.y_row >= inst.D ||
      (inst.y_row >= inst.x_row && inst.y_row < inst.x_row + d))
    bad(fmt::format("layout: y row {} is outside the tokens (dimension {}) or inside the x rows",
                    inst.y_row, inst.D));
  if (inst.readout_row < 0 || inst.readout_row >= inst.D)
    bad(fmt::format("layout: read-out row {} is outside the tokens (dimension {})",
                    inst.readout_row, inst.D));
  if (inst.sign != 1 && inst.sign != -1)
    bad(fmt::format("layout: read-out sign must be +1 or -1, not {}", inst.sign));
  if (inst.layers.empty()) bad("the construction has no layers");
}

template <class T>
void user_body(case_context& ctx, const user_construction& c) {
  task_ranges ranges;
  ranges.d_min = c.d_min;
  ranges.d_max = c.d_max;
  ranges.N_min = c.N_min;
  ranges.N_max = c.N_max;
  const task_spec spec = *gen_task_spec(ranges);
  const regression_task<double> task = make_task_double(spec);
  const Mat<R> X = from_double<R>(task.X), Y = from_double<R>(task.Y),
               xq = from_double<R>(Mat<double>(task.Xq.leftCols(1)));
  std::ostringstream s;
  s << spec;
  ctx.note("task", s.str());
  ctx.note("X (d x N)", "\n" + case_context::matrix_full_digits(task.X));
  ctx.note("y (1 x N)", "\n" + case_context::matrix_full_digits(task.Y));
  ctx.note("x_q", "\n" + case_context::matrix_full_digits(Mat<double>(task.Xq.leftCols(1))));
  const user_instance inst = c.instantiate(spec.d, spec.N);
  check_layout(inst, spec.d);
  const R ref = user_reference_prediction(c.reference, inst, X, Y, xq);
  const Eigen::Index N = spec.N;
  const std::string label = "query prediction = " + c.reference + " reference";
  if constexpr (is_exact_scalar<T>) {
    const Mat<R> out = forward<R>(inst, tokens<R>(inst, X, Y, xq), N, false);
    Mat<R> computed(1, 1), reference(1, 1);
    computed(0, 0) = R(inst.sign) * out(inst.readout_row, N);
    reference(0, 0) = ref;
    ctx.compare<R>(label, computed, reference, R(0));
  } else {
    const Mat<T> Xt = from_rational<T>(X), Yt = from_rational<T>(Y), xqt = from_rational<T>(xq);
    const Mat<T> out = forward<T>(inst, tokens<T>(inst, Xt, Yt, xqt), N, false);
    const Mat<T> shadow_out = forward<T>(inst, abs_of(tokens<T>(inst, Xt, Yt, xqt)), N, true);
    const T computed = T(inst.sign) * out(inst.readout_row, N);
    const T reference = from_rational<T>(ref);
    const T shadow = abs(shadow_out(inst.readout_row, N));
    const double n = rounding_depth(inst, N);
    const T err = abs(T(computed - reference));
    const T bound = T(2) * higham_gamma<T>(n + 2) * T(shadow + abs(reference));
    ctx.check_le_hand_derived<T>(label, err, bound, user_rounding_bound_name, [&] {
      return fmt::format(
          "computed  = {}\nreference = {} (exact: {})\nshadow = {}\nrounding depth n = {}\n",
          full_digits(computed), full_digits(reference), full_digits(ref), full_digits(shadow), n);
    });
  }
}

}  // namespace

const std::vector<std::string>& user_reference_names() {
  static const std::vector<std::string> names = {
      "gd", "preconditioned_gd", "ridge", "min_norm_least_squares", "newton", "cg"};
  return names;
}

R user_reference_prediction(const std::string& reference, const user_instance& inst,
                            const Mat<R>& X, const Mat<R>& Y, const Mat<R>& xq) {
  const Eigen::Index d = X.rows();
  const Mat<R> W0 = Mat<R>::Zero(1, d);
  Mat<R> W;  // 1 x d
  if (reference == "gd") {
    const int steps = integer_parameter(inst, "steps", 1, reference);
    W = gd_iterates<R>(W0, X, Y, scalar_parameter(inst, "eta", reference), steps).back();
  } else if (reference == "preconditioned_gd") {
    if (inst.preconditioners.empty())
      bad("reference 'preconditioned_gd' needs the parameter preconditioners (one d x d matrix "
          "per step)");
    for (const auto& P : inst.preconditioners)
      if (P.rows() != d || P.cols() != d)
        bad(
            fmt::format("reference 'preconditioned_gd': a preconditioner is {}x{}, not d x d = "
                        "{}x{}",
                        P.rows(), P.cols(), d, d));
    W = preconditioned_gd_iterates<R>(W0, X, Y, inst.preconditioners).back();
  } else if (reference == "ridge") {
    W = ridge_closed_form<R>(X, Y, scalar_parameter(inst, "lambda", reference));
  } else if (reference == "min_norm_least_squares") {
    W = min_norm_least_squares<R>(X, Y);
  } else if (reference == "newton") {
    // Iterative Newton (Fu et al. 2024 Sec. 5; src/iterative_newton/): S = X X^T,
    // M_0 = alpha S, M_j = 2 M_{j-1} - M_{j-1} S M_{j-1}; prediction x_q^T M_k X y^T.
    const int steps = integer_parameter(inst, "steps", -1, reference);
    const Mat<R> S = matmul_nt(X, X);
    Mat<R> M = scalar_parameter(inst, "alpha", reference) * S;
    for (int j = 0; j < steps; ++j) M = R(2) * M - matmul(matmul(M, S), M);
    W = matmul(M, Mat<R>(matmul_nt(X, Y))).transpose();
  } else if (reference == "cg") {
    const int steps = integer_parameter(inst, "steps", -1, reference);
    const auto trace = conjugate_gradient(make_quadratic_problem<R>(X, Y), steps);
    W = Mat<R>(trace.w.back()).transpose();
  } else {
    bad(fmt::format("unknown reference '{}' (known: {})", reference,
                    fmt::join(user_reference_names(), ", ")));
  }
  return matmul(W, xq)(0, 0);
}

void validate_user_construction(const user_construction& c) {
  const auto& names = user_reference_names();
  if (std::find(names.begin(), names.end(), c.reference) == names.end())
    bad(fmt::format("unknown reference '{}' (known: {})", c.reference, fmt::join(names, ", ")));
  if (c.name.empty() || c.name.find_first_of(" \t\n'\"*?[]") != std::string::npos)
    bad(
        fmt::format("construction name '{}' must be non-empty, without spaces, quotes or glob "
                    "characters",
                    c.name));
  if (c.d_min < 1 || c.d_max < c.d_min || c.d_max > 64)
    bad(fmt::format("d range {}..{} must satisfy 1 <= d_min <= d_max <= 64", c.d_min, c.d_max));
  if (c.N_min < 1 || c.N_max < c.N_min || c.N_max > 256)
    bad(fmt::format("N range {}..{} must satisfy 1 <= N_min <= N_max <= 256", c.N_min, c.N_max));
  for (const auto& [d, N] : {std::pair{c.d_min, c.N_min}, std::pair{c.d_max, c.N_max}}) {
    const user_instance inst = c.instantiate(d, N);
    check_layout(inst, d);
    // Shapes: a forward pass on small integer tokens; the reference on the same data.
    Mat<R> X(d, N), Y(1, N), xq(d, 1);
    for (int i = 0; i < d; ++i) {
      for (int j = 0; j < N; ++j) X(i, j) = R((i + 2 * j) % 3 - 1 + (i == j % d ? 2 : 0));
      xq(i, 0) = R(1);
    }
    for (int j = 0; j < N; ++j) Y(0, j) = R(j % 2 ? 1 : -1);
    try {
      (void)forward<R>(inst, tokens<R>(inst, X, Y, xq), N, false);
    } catch (const std::invalid_argument& e) {
      bad(fmt::format("at d = {}, N = {}: {}", d, N, e.what()));
    }
    try {
      (void)user_reference_prediction(c.reference, inst, X, Y, xq);
    } catch (const std::invalid_argument& e) {
      bad(fmt::format("at d = {}, N = {}: {}", d, N, e.what()));
    }
  }
}

user_run make_user_property(const user_construction& c) {
  user_run run;
  run.construction = std::make_shared<user_construction>(c);
  run.prop = std::make_shared<property>();
  property& p = *run.prop;
  p.info.name = "user." + c.name;
  p.info.claim =
      fmt::format("The user's construction {} ({}) predicts every query as the {} reference does.",
                  c.name, c.description, c.reference);
  p.info.coverage.kind = claim_kind::exact_identity;
  p.info.coverage.papers = {"a construction supplied from Python (iclproof.verify); reference " +
                            c.reference + " from src/references/"};
  p.info.coverage.unproved = "no Coq theorem is cited for a user's construction";
  const user_construction* cp = run.construction.get();
  p.bodies[property::index_of(scalar_kind::rational)] = [cp](case_context& ctx) {
    user_body<R>(ctx, *cp);
  };
  p.bodies[property::index_of(scalar_kind::mpfr)] = [cp](case_context& ctx) {
    user_body<mpfr_real>(ctx, *cp);
  };
  for (scalar_kind k :
       {scalar_kind::double_precision, scalar_kind::long_double_precision, scalar_kind::interval})
    p.not_applicable_reasons[property::index_of(k)] =
        "iclproof.verify runs a user's construction in rationals and MPFR only";
  return run;
}

namespace {

R rational_from_text(const nlohmann::json& v, const std::string& what) {
  if (!v.is_string()) bad(what + ": an entry is not p/q text");
  const std::string t = v.get<std::string>();
  // Exactly what the Python side writes: an optional '-', digits, optionally '/' digits.
  const auto digits = [](const std::string& x) {
    return !x.empty() && x.find_first_not_of("0123456789") == std::string::npos;
  };
  const std::size_t slash = t.find('/');
  const std::string num =
      t.substr(t[0] == '-' ? 1 : 0,
               slash == std::string::npos ? std::string::npos : slash - (t[0] == '-' ? 1 : 0));
  const std::string den = slash == std::string::npos ? "1" : t.substr(slash + 1);
  if (!digits(num) || !digits(den) || den.find_first_not_of('0') == std::string::npos)
    bad(what + ": '" + t + "' is not an exact p/q number");
  return R(t);
}

Mat<R> rational_matrix(const nlohmann::json& rows, const std::string& what) {
  if (!rows.is_array() || rows.empty() || !rows[0].is_array())
    bad(what + ": not a non-empty matrix (a list of rows)");
  const Eigen::Index r = static_cast<Eigen::Index>(rows.size());
  const Eigen::Index c = static_cast<Eigen::Index>(rows[0].size());
  Mat<R> m(r, c);
  for (Eigen::Index i = 0; i < r; ++i) {
    const auto& row = rows[static_cast<std::size_t>(i)];
    if (!row.is_array() || static_cast<Eigen::Index>(row.size()) != c)
      bad(what + ": rows of different lengths");
    for (Eigen::Index j = 0; j < c; ++j)
      m(i, j) = rational_from_text(row[static_cast<std::size_t>(j)], what);
  }
  return m;
}

user_instance instance_from_json(const nlohmann::json& j) {
  user_instance inst;
  inst.D = j.at("D").get<int>();
  inst.x_row = j.at("x_row").get<int>();
  inst.y_row = j.at("y_row").get<int>();
  inst.readout_row = j.at("readout_row").get<int>();
  inst.sign = j.at("sign").get<int>();
  std::size_t l = 0;
  for (const auto& layer : j.at("layers")) {
    user_layer ul;
    ul.kind = layer.at("kind").get<std::string>();
    ul.masked = layer.at("masked").get<bool>();
    std::size_t h = 0;
    for (const auto& head : layer.at("heads")) {
      std::map<std::string, Mat<R>> blocks;
      for (const auto& [name, rows] : head.items())
        blocks[name] = rational_matrix(rows, fmt::format("layer {} head {} {}", l, h, name));
      ul.heads.push_back(std::move(blocks));
      ++h;
    }
    inst.layers.push_back(std::move(ul));
    ++l;
  }
  for (const auto& [key, value] : j.at("reference_scalars").items())
    inst.reference_scalars[key] = rational_from_text(value, "reference parameter " + key);
  for (const auto& P : j.at("preconditioners"))
    inst.preconditioners.push_back(rational_matrix(P, "preconditioner"));
  return inst;
}

}  // namespace

user_construction user_construction_from_json(const nlohmann::json& request) {
  try {
    user_construction c;
    c.name = request.at("name").get<std::string>();
    c.reference = request.at("reference").get<std::string>();
    c.description = request.at("description").get<std::string>();
    c.d_min = request.at("d_min").get<int>();
    c.d_max = request.at("d_max").get<int>();
    c.N_min = request.at("N_min").get<int>();
    c.N_max = request.at("N_max").get<int>();
    auto instances = std::make_shared<std::map<std::pair<int, int>, user_instance>>();
    for (const auto& i : request.at("instances"))
      (*instances)[{i.at("d").get<int>(), i.at("N").get<int>()}] = instance_from_json(i);
    c.instantiate = [instances](int d, int N) {
      const auto it = instances->find({d, N});
      if (it == instances->end())
        throw std::invalid_argument(fmt::format("no weights for d = {}, N = {}", d, N));
      return it->second;
    };
    return c;
  } catch (const nlohmann::json::exception& e) {
    bad(std::string("malformed verify request: ") + e.what());
  }
}

int run_user_construction(const user_construction& c, scalar_kind scalar, int cases,
                          std::uint64_t seed, std::optional<int> bits, const std::string& json_path,
                          const std::function<void()>& on_case, const std::string& reproduce) {
  if (scalar != scalar_kind::rational && scalar != scalar_kind::mpfr)
    bad(fmt::format("scalar '{}': a user's construction runs in rational or mpfr",
                    scalar_kind_name(scalar)));
  if (cases < 1 || cases > 1000000) bad(fmt::format("cases = {} is not in 1..1000000", cases));
  validate_user_construction(c);
  const user_run run = make_user_property(c);
  check_options opt;
  opt.property_glob = run.prop->info.name;
  opt.cases = cases;
  opt.seed = seed;
  opt.scalar = scalar;
  opt.precision_bits = scalar == scalar_kind::mpfr ? bits : std::nullopt;
  opt.json_path = json_path;
  check_setup setup;
  setup.scalar = scalar_kind_name(scalar);
  setup.exact = scalar == scalar_kind::rational;
  if (scalar == scalar_kind::mpfr)
    setup.bits = set_mpfr_precision(bits.value_or(default_precision_bits)).actual_bits;
  else if (bits)
    bad(fmt::format("bits = {} does not apply to scalar rational (exact); use scalar mpfr", *bits));
  setup.selected = {run.prop.get()};
  const std::vector<run_request> requests = check_run_requests(opt, setup);
  print_check_header(opt, setup);
  progress_reporter reporter("iclproof verify");
  const run_progress progress = [&](std::size_t i, int done, int total) {
    reporter.update(i, requests.size(), requests[i].prop->info.name, done, total);
    if (on_case) on_case();
  };
  const std::vector<run_part> parts = run_requests(requests, 1, shard_spec{}, progress);
  std::vector<property_result> results;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    results.push_back(result_of(requests[i], parts[i]));
    results.back().reproduce = reproduce;
  }
  const int code = present_check_results(opt, setup, results, false);
  // The row's tolerance, by name (check.json has no field for it).
  fmt::print("tolerance of {} in {}: {}\n", run.prop->info.name, setup.scalar,
             scalar == scalar_kind::rational
                 ? "none: exact rationals, the claim is checked as an equality"
                 : user_rounding_bound_name);
  std::fflush(stdout);
  return code;
}

}  // namespace iclproof::python_binding
