// Mutation tests of the ahn.* properties (Ahn et al. Lemma 1, CONSTRUCTIONS.md section 3): each
// property's check is run on the real Z-form transformer (must pass) and on a deliberately broken
// one (must fail). Same seed as memformer_test.cpp, where these tests stood before, so the cases
// are the ones the mutants were tuned against.
#include "ahn.hpp"

#include "core/precision.hpp"
#include "harness/runner.hpp"

#include "mutation_testing.hpp"

#include <catch2/catch.hpp>

using namespace iclproof;
using namespace iclproof::memformer_checks;

namespace {
using T = mutation_scalar;

const mutation_runner ahn_mutants{11};

// Z-form layers with every Q transposed: the transformer then preconditions with A, not A^T.
std::vector<linear_transformer_layer<T>> transpose_q(
    std::vector<linear_transformer_layer<T>> layers) {
  for (auto& l : layers)
    for (auto& h : l.heads) h.Q = Mat<T>(h.Q.transpose());
  return layers;
}

// The unmasked layer: the query is a key/value too (M = I).
std::vector<Mat<T>> unmasked_forward(const Mat<T>& Z0,
                                     const std::vector<linear_transformer_layer<T>>& layers) {
  std::vector<Mat<T>> Zs{Z0};
  const T n = T(Z0.cols() - 1);
  for (const auto& layer : layers) {
    const Mat<T>& Z = Zs.back();
    Mat<T> sum = Mat<T>::Zero(Z.rows(), Z.cols());
    for (const auto& h : layer.heads)
      sum += matmul(h.P, Mat<T>(matmul(Mat<T>(matmul_nt(Z, Z)), Mat<T>(matmul(h.Q, Z)))));
    Zs.push_back(Z + sum / n);
  }
  return Zs;
}

using layers_t = std::vector<linear_transformer_layer<T>>;
}  // namespace

TEST_CASE("ahn.lemma1 property fails on A instead of A^T and on an unmasked query",
          "[memformer][mutation]") {
  scoped_mpfr_precision p(256);
  const auto good = [](case_context& ctx) {
    lemma1_preconditioned_gd<T>(
        ctx, [](const Mat<T>& Z0, const layers_t& l) { return zform_model<T>(Z0, l); });
  };
  ahn_mutants.expect_killed(good, [](case_context& ctx) {
    lemma1_preconditioned_gd<T>(ctx, [](const Mat<T>& Z0, const layers_t& l) {
      return zform_model<T>(Z0, transpose_q(l));
    });
  });
  ahn_mutants.expect_killed(good, [](case_context& ctx) {
    lemma1_preconditioned_gd<T>(
        ctx, [](const Mat<T>& Z0, const layers_t& l) { return unmasked_forward(Z0, l); });
  });
}

TEST_CASE("ahn.x_rows property fails when B enters transposed", "[memformer][mutation]") {
  scoped_mpfr_precision p(256);
  ahn_mutants.expect_killed(
      [](case_context& ctx) {
        lemma1_x_rows<T>(ctx,
                         [](const Mat<T>& Z0, const layers_t& l) { return zform_model<T>(Z0, l); });
      },
      [](case_context& ctx) {
        lemma1_x_rows<T>(ctx, [](const Mat<T>& Z0, layers_t l) {
          const Eigen::Index d = Z0.rows() - 1;
          for (auto& layer : l)
            for (auto& h : layer.heads)
              h.P.topLeftCorner(d, d) = Mat<T>(h.P.topLeftCorner(d, d).transpose());
          return zform_model<T>(Z0, l);
        });
      });
}
