// Properties of the exact population optima (src/references/population_optima.hpp).
#include "population_optima.hpp"

#include "core/ball_linalg.hpp"

using namespace iclproof;
using namespace iclproof::population_optima_checks;
using namespace iclproof::cite;

// What the properties below do under --size paper and --size large (harness/size_statement.hpp).
[[maybe_unused]] static constexpr const char* cubature_sizes =
    "fixed: the exact population integral is a symmetric cubature whose node count grows "
    "exponentially in d N (d <= 3, N <= 6 under every profile)";

ICLPROOF_PROPERTY(
    pop_gd_isotropic, "population_optima.one_step_gd_isotropic_matches_exact_integral",
    "One GD step from W0 = 0 on x ~ U(-a, a)^d or N(0, sigma^2 I), w ~ N(0, I): "
    "E (y_hat - y_q)^2 = a eta^2 - 2 b eta + c with a = (d s2 / N)(m4 + (N + d - 2) s2^2), "
    "b = d s2^2, c = d s2, at eta* and eta*/2, against the exact expectation of the GD "
    "reference's loss over the context (a degree-5 cubature rule, exact for this degree-4 "
    "polynomial: no sampling, so no statistical false alarm; a correct formula fails only if the "
    "hand-derived rounding bound is too small), within that bound.",
    exact_identity(identity("proofs/PopulationOptima.v:quadratic_minimiser"),
                   identity("proofs/PopulationOptima.v:isotropic_step_optimum"))
        .missing("the moment coefficients a, b, c are hand-derived "
                 "(src/references/population_optima.hpp) and checked against the cubature "
                 "integral in floating point under a hand-derived first-order rounding bound; the "
                 "cubature rule's exactness at degree 5 is derived in "
                 "properties/symmetric_cubature.hpp (and tested), not proved")) {
  one_step_gd_isotropic_matches_exact_integral<T>(
      ctx, [](int d, int N, const auto& m) { return one_step_gd_isotropic(d, N, m); });
}
ICLPROOF_PROPERTY_BODY(pop_gd_isotropic, ::iclproof::ball_real);
ICLPROOF_SIZES(pop_gd_isotropic, cubature_sizes);

ICLPROOF_PROPERTY(
    pop_preconditioner, "population_optima.one_step_preconditioner_matches_exact_integral",
    "One preconditioned step on x ~ N(0, Sigma), w ~ N(0, I) or N(0, Sigma^-1): the optimum "
    "P* = Sigma_w Sigma E[C Sigma_w C]^-1 equals N((N+1) Sigma + tr(Sigma) I)^-1, resp. "
    "(N/(N+d+1)) Sigma^-1, and the Wishart-moment loss formula at P* and at a perturbed P "
    "equals the exact expectation of the GD reference's loss over the context (a degree-5 "
    "cubature rule in Z, x = Sigma^(1/2) z: no sampling, so no statistical false alarm; a correct "
    "formula fails only if the hand-derived rounding bound is too small), within that bound.",
    exact_identity(paper("Ahn et al. 2023, Theorem 1 (w ~ N(0, I))"))
        .missing("the Wishart moment and the optimal preconditioner are hand-derived "
                 "(src/references/population_optima.hpp) and checked against the cubature "
                 "integral under a hand-derived first-order rounding bound; the LU comparison "
                 "uses a first-order rounding model")) {
  one_step_preconditioner_matches_exact_integral<T>(
      ctx,
      [](const Mat<T>& S, const Mat<T>& Sw, int N) {
        return one_step_optimal_preconditioner(S, Sw, N);
      },
      [](const Mat<T>& S, const Mat<T>& Sw, int N, const Mat<T>& P) {
        return one_step_preconditioned_loss(S, Sw, N, P);
      });
}
ICLPROOF_PROPERTY_BODY(pop_preconditioner, ::iclproof::ball_real);
ICLPROOF_SIZES(pop_preconditioner, cubature_sizes);

ICLPROOF_PROPERTY(
    pop_exact_minimiser, "population_optima.step_size_minimises_quadratic_exactly",
    "In exact rationals: eta* = b/a of the isotropic one-step loss quadratic has excess exactly "
    "a h^2 > 0 at eta* +- h, zero derivative, and equals N s2 / (m4 + (N + d - 2) s2^2) "
    "(15N/(5N+5d-1) for U(-1,1), N/(N+d+1) for N(0,1)).",
    exact_identity(identity("proofs/PopulationOptima.v:quadratic_excess"),
                   identity("proofs/PopulationOptima.v:quadratic_minimiser"),
                   identity("proofs/PopulationOptima.v:isotropic_step_optimum"),
                   identity("proofs/PopulationOptima.v:uniform_step_optimum"),
                   identity("proofs/PopulationOptima.v:gaussian_step_optimum"))
        .missing("the moment coefficients a, b of the quadratic (hand-derived in "
                 "src/references/population_optima.hpp) and the zero derivative at eta*")) {
  step_size_minimises_quadratic_exactly(
      ctx, [](int d, int N, const auto& m) { return one_step_gd_isotropic(d, N, m); });
}
ICLPROOF_PROPERTY_BODY(pop_exact_minimiser, ::iclproof::ball_real);
ICLPROOF_SIZES(pop_exact_minimiser,
               "fixed: draws d <= 32, N <= 100 under every profile (closed-form moments, no data)");
