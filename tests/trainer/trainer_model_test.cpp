// The trainer's LibTorch models (float64) against the verifier's own forward pass
// (compare/learned_models.hpp) in MPFR at 256 bits, on the same weights and the same tasks:
//  - predictions after every layer agree within the rounding bound of the double evaluation,
//    gamma_k(u) * (the same evaluation on absolute values), and within 1e-10 (the acceptance
//    bound);
//  - the gradient torch descends is the gradient of the verifier's loss: autograd against
//    central differences of the MPFR loss.
// This executable links torch AND the verifier on purpose (a test); iclproof-train itself does not.
#define CATCH_CONFIG_MAIN
#include "compare/learned_models.hpp"
#include "compare/weights_file.hpp"
#include "core/precision.hpp"
#include "trainer/models.hpp"

#include <catch2/catch.hpp>
#include <cmath>

using namespace iclproof;
using namespace iclproof::trainer;
using T = mpfr_real;

namespace {

Mat<double> to_mat(const torch::Tensor& t) {
  const torch::Tensor c = t.detach().to(torch::kCPU, torch::kFloat64).contiguous();
  if (c.dim() == 0) return Mat<double>::Constant(1, 1, c.item<double>());
  const int64_t r = c.size(0), k = c.dim() == 2 ? c.size(1) : 1;
  Mat<double> m(r, k);
  for (int64_t i = 0; i < r; ++i)
    for (int64_t j = 0; j < k; ++j) m(i, j) = c.data_ptr<double>()[i * k + j];
  return m;
}

learned_model_kind kind_of(model_kind k) {
  switch (k) {
    case model_kind::lsa:
      return learned_model_kind::lsa;
    case model_kind::ahn_linear:
      return learned_model_kind::ahn_linear;
    case model_kind::memformer_cgd:
      return learned_model_kind::memformer_cgd;
    case model_kind::memformer_lfom:
      return learned_model_kind::memformer_lfom;
    case model_kind::gdpp_stack:  // read as the LSA stack of the same map (gdpp_layer_as_lsa)
      return learned_model_kind::lsa;
  }
  return learned_model_kind::lsa;
}

template <class S>
learned_parameters<S> verifier_parameters(const icl_model& m, bool absolute) {
  const auto& s = m.settings();
  learned_parameters<S> p{kind_of(s.model), s.d, s.N, s.layers, s.tied, {}};
  for (const auto& set : m.parameter_sets()) {
    std::map<std::string, Mat<S>> v;
    for (const auto& [name, t] : set) {
      const Mat<double> x = to_mat(t);
      v[name] = from_double<S>(absolute ? Mat<double>(x.cwiseAbs()) : x);
    }
    p.sets.push_back(std::move(v));
  }
  return p;
}

struct case_setup {
  std::string experiment;
  nlohmann::json preset;
};

std::vector<case_setup> cases() {
  const nlohmann::json lsa = {
      {"d", 4}, {"N", 6}, {"init_std", 0.4}, {"dtype", "float64"}, {"inputs", "uniform"}};
  const nlohmann::json aniso = {{"d", 5},
                                {"N", 7},
                                {"layers", 3},
                                {"init_std", 0.3},
                                {"dtype", "float64"},
                                {"inputs", "anisotropic"},
                                {"sigma_diag", {1, 1, 0.5, 0.25, 1}},
                                {"alpha_init", 0.4},
                                {"gamma_init", 0.3},
                                {"lfom_gamma_init", 0.7}};
  nlohmann::json gdpp = lsa, stack = lsa;
  gdpp["layers"] = 2;
  gdpp["tied"] = true;
  stack["layers"] = 3;
  return {{"vonoswald_single_lsa", lsa},     {"vonoswald_gdpp", gdpp}, {"vonoswald_stack", stack},
          {"ahn_linear_transformer", aniso}, {"memformer_cgd", aniso}, {"memformer_lfom", aniso}};
}

// Rounding depth k of the double evaluation (number of roundings a monomial of the output can
// carry): an LSA layer multiplies three monomials of its input (cubic) and adds at most
// N + 6(d+1) + 4 roundings of its own (C: N; the products P W_V, W_K^T W_Q, (PV) C, (.) KQ,
// M E: d+1 each; two additions), so k_l = 3 k_{l-1} + c <= c 3^l. A Z-form layer is linear in
// the y-row and adds N + 2d + L + 6 (y X^T: N; A: d; X: d; memory sum: L; additions).
double rounding_depth(const experiment_settings& s) {
  if (s.model == model_kind::lsa) return (s.N + 6.0 * (s.d + 1) + 4) * std::pow(3.0, s.layers);
  // The constant 1/N is itself rounded in double when N is not a power of two: one more factor.
  return s.layers * (s.N + 2.0 * s.d + s.layers + 7);
}

// The absolute-value program of the Z-form models (every constant, input and sign replaced by
// its absolute value, every subtraction by an addition): the scale in the error bound
// |fl(f) - f| <= gamma_k f_abs. (For LSA the verifier's forward on absolute values is already
// that program: it has no subtractions.)
std::vector<T> zform_absolute_program(const learned_parameters<T>& p, const Mat<T>& X,
                                      const Mat<T>& y, const Mat<T>& xq) {
  const Eigen::Index N = X.cols();
  Mat<T> Xall(X.rows(), N + 1);
  Xall << X, xq;
  RowVec<T> a(N + 1);
  a << y, RowVec<T>::Zero(1);
  std::vector<T> out;
  std::vector<RowVec<T>> R;
  auto attention = [&](const Mat<T>* A) {
    const RowVec<T> u = matmul_nt(Mat<T>(a.leftCols(N)), X);  // a_ctx X^T, all entries >= 0
    const RowVec<T> v = A ? RowVec<T>(matmul(Mat<T>(u), *A)) : u;
    return RowVec<T>(matmul(Mat<T>(v), Xall));
  };
  for (int l = 0; l < p.layers; ++l) {
    switch (p.kind) {
      case learned_model_kind::ahn_linear:
        a += attention(&p.at(l, "A")) / T(N);
        break;
      case learned_model_kind::memformer_cgd: {
        RowVec<T> r = attention(nullptr);
        if (l > 0) r += abs(p.scalar(l, "gamma")) * R.back();
        a += (abs(p.scalar(l, "alpha")) / T(N)) * r;
        R.push_back(r);
        break;
      }
      case learned_model_kind::memformer_lfom: {
        R.push_back(attention(&p.at(l, "A")));
        RowVec<T> m = RowVec<T>::Zero(N + 1);
        for (int j = 0; j <= l; ++j) m += abs(p.scalar(j, "Gamma")) * R[j];
        a += m / T(N);
        break;
      }
      case learned_model_kind::lsa:
      case learned_model_kind::ahn_full_linear:  // not a trainer model (peers' files only)
        break;
    }
    out.push_back(a(N));
  }
  return out;
}

}  // namespace

TEST_CASE("trainer.forward_matches_verifier_mpfr") {
  const scoped_mpfr_precision precision(256);
  for (const auto& c : cases()) {
    SECTION(c.experiment) {
      const experiment_settings s = parse_preset(c.experiment, "test", c.preset);
      const icl_model model(s, torch::kCPU, torch::kFloat64);
      const task_sampler sampler(s, torch::kCPU, torch::kFloat64);
      const task_batch batch = sampler.sample(12345, 16);
      torch::NoGradGuard no_grad;
      const auto torch_layers = model.predict_per_layer(batch);
      const torch::Tensor torch_final =
          model.predict(batch);  // the training path (LSA: query-only shortcut)
      const auto p = verifier_parameters<T>(model, false);
      const auto pabs = verifier_parameters<T>(model, true);
      const double u = std::ldexp(1.0, -53);
      const double k = rounding_depth(s);
      const double gamma_k = k * u / (1 - k * u);  // Higham (3.8)
      double worst_ratio = 0, worst_abs = 0;
      for (int64_t b = 0; b < 16; ++b) {
        const Mat<double> X = to_mat(batch.X[b]), y = to_mat(batch.y[b]).transpose(),
                          xq = to_mat(batch.xq[b]);
        const auto exact =
            learned_predictions(p, from_double<T>(X), from_double<T>(y), from_double<T>(xq));
        const Mat<T> Xa = from_double<T>(Mat<double>(X.cwiseAbs())),
                     ya = from_double<T>(Mat<double>(y.cwiseAbs())),
                     xqa = from_double<T>(Mat<double>(xq.cwiseAbs()));
        std::vector<T> absolute;
        if (s.model == model_kind::lsa) {
          for (const auto& v : learned_predictions(pabs, Xa, ya, xqa))
            absolute.push_back(abs(v(0)));
        } else {
          absolute = zform_absolute_program(pabs, Xa, ya, xqa);
        }
        for (int l = 0; l < s.layers; ++l) {
          const double got = torch_layers[l][b].item<double>();
          const T err = abs(T(got) - exact[l](0));
          const T bound = T(gamma_k) * absolute[l];
          INFO(c.experiment << " task " << b << " layer " << l << ": torch " << got << ", mpfr "
                            << static_cast<double>(exact[l](0)) << ", err "
                            << static_cast<double>(err) << ", bound "
                            << static_cast<double>(bound));
          CHECK(err <= bound);
          CHECK(err <= T(1e-10) * (T(1) + abs(exact[l](0))));
          worst_ratio = std::max(worst_ratio, static_cast<double>(err / (bound + T(1e-300))));
          worst_abs = std::max(worst_abs, static_cast<double>(err));
        }
        const T err_final = abs(T(torch_final[b].item<double>()) - exact.back()(0));
        CHECK(err_final <= T(gamma_k) * absolute.back());
      }
      WARN(c.experiment << ": worst |torch - mpfr| = " << worst_abs
                        << ", worst err/bound = " << worst_ratio);
    }
  }
}

TEST_CASE("trainer.gradient_matches_verifier_finite_differences") {
  const scoped_mpfr_precision precision(256);
  for (const auto& c : cases()) {
    SECTION(c.experiment) {
      const experiment_settings s = parse_preset(c.experiment, "test", c.preset);
      const icl_model model(s, torch::kCPU, torch::kFloat64);
      const task_sampler sampler(s, torch::kCPU, torch::kFloat64);
      const task_batch batch = sampler.sample(777, 8);
      const torch::Tensor loss = regression_loss(model.predict(batch), batch.yq);
      const auto params = model.parameters();
      const auto grads = torch::autograd::grad({loss}, params);
      // Verifier's loss as a function of the parameters, in MPFR.
      std::vector<Mat<T>> Xs, ys, xqs;
      std::vector<T> yqs;
      for (int64_t b = 0; b < 8; ++b) {
        Xs.push_back(from_double<T>(to_mat(batch.X[b])));
        ys.push_back(from_double<T>(Mat<double>(to_mat(batch.y[b]).transpose())));
        xqs.push_back(from_double<T>(to_mat(batch.xq[b])));
        yqs.push_back(T(batch.yq[b].item<double>()));
      }
      auto verifier_loss = [&](const learned_parameters<T>& p) {
        T sum(0);
        for (std::size_t b = 0; b < Xs.size(); ++b) {
          const T e = learned_predictions(p, Xs[b], ys[b], xqs[b]).back()(0) - yqs[b];
          sum += e * e;
        }
        return sum / T(2 * Xs.size());
      };
      const auto base = verifier_parameters<T>(model, false);
      // Central differences with h = 2^-40: truncation O(h^2) ~ 1e-24, rounding 2^-256 / h ~ 1e-65.
      const T h = ldexp(T(1), -40);
      std::size_t gi = 0;
      double worst = 0;
      for (std::size_t set = 0; set < base.sets.size(); ++set) {
        for (const auto& [name, t] : model.parameter_sets()[set]) {
          if (!t.requires_grad()) continue;
          const Mat<double> g = to_mat(grads[gi++]);
          const Mat<T>& m0 = base.sets[set].at(name);
          // A few entries per parameter (diagonal and one off-diagonal) keep the test short.
          std::vector<std::pair<Eigen::Index, Eigen::Index>> entries{{0, 0}};
          if (m0.rows() > 1)
            entries.push_back({m0.rows() - 1, m0.cols() - 1}), entries.push_back({1, 0});
          for (const auto& [i, j] : entries) {
            auto plus = base, minus = base;
            plus.sets[set][name](i, j) += h;
            minus.sets[set][name](i, j) -= h;
            const T fd = (verifier_loss(plus) - verifier_loss(minus)) / (T(2) * h);
            const T err = abs(T(g(i, j)) - fd);
            INFO(c.experiment << " " << name << "(" << i << "," << j << "): autograd " << g(i, j)
                              << ", MPFR fd " << static_cast<double>(fd));
            // The brief's 1e-10 (relative to max(1, |g|)): torch's double gradient carries rounding
            // errors ~k u |.|, k as in rounding_depth; the MPFR reference is exact to ~1e-24.
            CHECK(err <= T(1e-10) * (T(1) + abs(fd)));
            worst = std::max(worst, static_cast<double>(err));
          }
        }
      }
      WARN(c.experiment << ": worst |autograd - MPFR finite difference| = " << worst);
    }
  }
}

// Mutation test: the forward check must notice a verifier-side weight off by one part in 10^6.
TEST_CASE("trainer.forward_check_fails_on_a_perturbed_weight") {
  const scoped_mpfr_precision precision(256);
  const auto c = cases().front();
  const experiment_settings s = parse_preset(c.experiment, "test", c.preset);
  const icl_model model(s, torch::kCPU, torch::kFloat64);
  const task_sampler sampler(s, torch::kCPU, torch::kFloat64);
  const task_batch batch = sampler.sample(12345, 4);
  torch::NoGradGuard no_grad;
  const torch::Tensor pred = model.predict(batch);
  auto p = verifier_parameters<T>(model, false);
  p.sets[0]["P"](s.d, s.d) *= T(1) + T(1e-6);
  const double k = rounding_depth(s), u = std::ldexp(1.0, -53);
  int detected = 0;
  for (int64_t b = 0; b < 4; ++b) {
    const Mat<double> X = to_mat(batch.X[b]), y = to_mat(batch.y[b]).transpose(),
                      xq = to_mat(batch.xq[b]);
    const T exact =
        learned_predictions(p, from_double<T>(X), from_double<T>(y), from_double<T>(xq)).back()(0);
    const T err = abs(T(pred[b].item<double>()) - exact);
    if (!(err <= T(k * u / (1 - k * u)) * (T(1) + abs(exact)))) ++detected;
  }
  CHECK(detected == 4);
}

// The GD++ stack (model kind gdpp_stack) against the verifier's LSA forward pass on the weights
// the reader expands it to (gdpp_layer_as_lsa): the trainer's map and the map `compare` judges
// are the same. Rounding depth of the double evaluation: a GD++ layer is cubic in its input
// (S x_j, y_i x_i^T x_j) and adds 2N + 2d + 4 roundings of its own (S and g = sum_i y_i x_i^T:
// N each; S x and g x: d each; gamma/N and eta/N, the two products with them, two subtractions),
// so k_l = 3 k_{l-1} + (2N + 2d + 4) <= (2N + 2d + 4) 3^l; the scale is the same evaluation on
// absolute values (the LSA forward on |W|, |X|, |y|), as in forward_matches_verifier_mpfr.
TEST_CASE("trainer.gdpp_stack_forward_matches_verifier_lsa") {
  const scoped_mpfr_precision precision(256);
  const nlohmann::json preset = {{"d", 4},
                                 {"N", 6},
                                 {"layers", 3},
                                 {"dtype", "float64"},
                                 {"inputs", "gaussian"},
                                 {"alpha_init", 0.4},
                                 {"gamma_init", 0.03}};
  const experiment_settings s = parse_preset("vladymyrov_gdpp_stack", "test", preset);
  icl_model model(s, torch::kCPU, torch::kFloat64);
  // Different coefficients per layer, so that a mixed-up layer index shows.
  std::vector<named_tensors> values;
  const double gammas[] = {0.3, -0.2, 0.5}, etas[] = {0.4, 0.7, -0.3};
  for (int l = 0; l < 3; ++l)
    values.push_back({{"gamma", torch::full({}, gammas[l], torch::kFloat64)},
                      {"eta", torch::full({}, etas[l], torch::kFloat64)}});
  model.assign(values);
  const task_sampler sampler(s, torch::kCPU, torch::kFloat64);
  const task_batch batch = sampler.sample(4242, 16);
  torch::NoGradGuard no_grad;
  const auto torch_layers = model.predict_per_layer(batch);
  const torch::Tensor torch_final = model.predict(batch);
  learned_parameters<T> p{learned_model_kind::lsa, s.d, s.N, s.layers, false, {}}, pabs = p;
  for (int l = 0; l < 3; ++l) {
    std::map<std::string, Mat<T>> set, set_abs;
    for (const auto& [name, m] : gdpp_layer_as_lsa(gammas[l], etas[l], s.d, s.N)) {
      set[name] = from_double<T>(m);
      set_abs[name] = from_double<T>(Mat<double>(m.cwiseAbs()));
    }
    p.sets.push_back(set);
    pabs.sets.push_back(set_abs);
  }
  const double u = std::ldexp(1.0, -53);
  const double k = (2.0 * s.N + 2.0 * s.d + 4) * std::pow(3.0, s.layers);
  const double gamma_k = k * u / (1 - k * u);  // Higham (3.8)
  double worst_ratio = 0;
  for (int64_t b = 0; b < 16; ++b) {
    const Mat<double> X = to_mat(batch.X[b]), y = to_mat(batch.y[b]).transpose(),
                      xq = to_mat(batch.xq[b]);
    const auto exact =
        learned_predictions(p, from_double<T>(X), from_double<T>(y), from_double<T>(xq));
    const auto absolute = learned_predictions(pabs, from_double<T>(Mat<double>(X.cwiseAbs())),
                                              from_double<T>(Mat<double>(y.cwiseAbs())),
                                              from_double<T>(Mat<double>(xq.cwiseAbs())));
    for (int l = 0; l < s.layers; ++l) {
      const double got = torch_layers[l][b].item<double>();
      const T err = abs(T(got) - exact[l](0));
      const T bound = T(gamma_k) * abs(absolute[l](0));
      INFO("task " << b << " layer " << l << ": torch " << got << ", mpfr "
                   << static_cast<double>(exact[l](0)) << ", err " << static_cast<double>(err)
                   << ", bound " << static_cast<double>(bound));
      CHECK(err <= bound);
      worst_ratio = std::max(worst_ratio, static_cast<double>(err / (bound + T(1e-300))));
    }
    CHECK(abs(T(torch_final[b].item<double>()) - exact.back()(0)) <=
          T(gamma_k) * abs(absolute.back()(0)));
  }
  WARN("gdpp_stack: worst err/bound = " << worst_ratio);
}
