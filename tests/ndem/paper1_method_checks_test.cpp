// Paper I method checks (experiments/paper1_method_checks.hpp; studies/paper1_method_limits.toml):
// M3 / Eq. 34 (sphere at rest at large h), M2 / Eq. 31-32 (semi-smooth NDEM -> explicit Hertz SDEM as
// h -> 0), the E = 10 GPa column at rest (P1-C33), and M1 (Eq. 3 vs Eq. 5, the algebra alone).
#include <boost/test/unit_test.hpp>

#include <cmath>

#include "core/error.hpp"
#include "core/math.hpp"
#include "experiments/paper1_method_checks.hpp"

using namespace grainlab;
using namespace grainlab::paper1;

namespace {
// Paper I Eq. 11 (000 l.377) for a sphere of diameter d on a half-space of the same material: effective
// diameter d, k_n = E sqrt(2 d) / (3 (1 - nu^2)). Written here, not taken from core/hertz.hpp.
double eq11_plane_kn(const Material& m, double d) {
  return m.youngs_modulus * std::sqrt(2 * d) / (3 * (1 - m.poisson_ratio * m.poisson_ratio));
}
double sphere_mass(double d) { return paper1_density * pi * d * d * d / 6; }
}  // namespace

BOOST_AUTO_TEST_SUITE(paper1_method_checks)

// Eq. 34: at rest the semi-smooth constraint force is k_n delta^{3/2} for any h, so the overlap is
// (m g / k_n)^{2/3}; a k_n convention error (the plane read as a sphere: R* = r/2) would be 26 % off.
BOOST_AUTO_TEST_CASE(rest_overlap_is_eq11_hertz_at_any_h) {
  for (double h : {1e-2, 1e-4}) {
    RestSetup s;
    s.time_step = h;
    const double kn = eq11_plane_kn(s.material, s.diameter);
    s.reference_kn_floor = kn / (s.material.youngs_modulus * std::sqrt(s.diameter));
    const RestResult r = run_rest(s);
    const double expected = std::pow(sphere_mass(s.diameter) * 9.82 / kn, 2.0 / 3.0);
    BOOST_TEST_MESSAGE("rest, h = " << h << ": overlap " << r.overlap << " m, Eq. 11 Hertz " << expected);
    BOOST_TEST(r.overlap == expected, boost::test_tools::tolerance(1e-6));
    BOOST_TEST(std::abs(r.rel_error_ref) < 1e-6);
    BOOST_TEST(r.kinetic_energy < 1e-20);
    const double wrong = std::pow(sphere_mass(s.diameter) * 9.82 / (kn / std::sqrt(2.0)), 2.0 / 3.0);
    BOOST_TEST(std::abs(r.overlap / wrong - 1) > 0.2);
  }
}

// Eq. 31-32: with tau_n = c/e_H fixed, the semi-smooth NDEM collision approaches the explicit Hertz SDEM
// with damping c at the same h, to first order in h; Paper I's printed damping mapping (tau_n = c) does not.
BOOST_AUTO_TEST_CASE(collision_tends_to_sdem_as_h_goes_to_zero) {
  CollisionSetup s;
  s.time_step = 1e-5;
  const CollisionResult coarse = run_collision(s);
  s.time_step = 1e-6;
  const CollisionResult fine = run_collision(s);
  BOOST_TEST_MESSAGE("collision: max overlap difference " << coarse.max_overlap_diff << " (h = 1e-5), "
                                                          << fine.max_overlap_diff << " (h = 1e-6)");
  BOOST_TEST(fine.max_overlap_diff < 0.01);
  BOOST_TEST(coarse.max_overlap_diff / fine.max_overlap_diff > 7.0);  // first order: 10x
  BOOST_TEST(fine.rebound_ndem == fine.rebound_sdem, boost::test_tools::tolerance(0.01));
  BOOST_TEST(fine.rebound_sdem > 0.1);  // the damping is felt: not an elastic comparison
  BOOST_TEST(fine.rebound_sdem < 0.9);
  BOOST_TEST(fine.impacts == 0.0);
  BOOST_TEST(fine.tau_n == s.damping / 1.25, boost::test_tools::tolerance(1e-12));
  s.mapping = DampingMapping::eH;
  const CollisionResult mismatched = run_collision(s);
  BOOST_TEST_MESSAGE("collision, tau_n = c: max overlap difference " << mismatched.max_overlap_diff);
  BOOST_TEST(mismatched.max_overlap_diff > 0.05);
}

// The same limit for a 3-sphere column dropped into contact by gravity (floor and pair contacts).
BOOST_AUTO_TEST_CASE(settling_column_tends_to_sdem) {
  SettleSetup s;
  s.time_step = 1e-5;
  s.duration = 0.01;
  const SettleResult r = run_settle(s);
  BOOST_TEST_MESSAGE("settling column, h = 1e-5: max overlap difference " << r.max_overlap_diff);
  BOOST_TEST(r.max_overlap_diff < 0.01);
  BOOST_TEST(r.peak_overlap_sdem > 0);
  s.mapping = DampingMapping::eH;
  BOOST_TEST(run_settle(s).max_overlap_diff > 0.03);
  s.count = 0;
  BOOST_CHECK_THROW(run_settle(s), InputError);
}

// A damping time clamped to n_s h is not the h -> 0 limit of Eq. 31 (tau would shrink with h): refused.
BOOST_AUTO_TEST_CASE(collision_refuses_a_clamped_damping_time) {
  CollisionSetup s;
  s.time_step = 1e-5;
  s.damping = 1e-5;
  BOOST_CHECK_THROW(run_collision(s), InputError);
  s.damping = -1;
  BOOST_CHECK_THROW(run_collision(s), InputError);
}

// P1-C33: at E = 10 GPa, h = 0.01 s and N_it = 500 the column comes to rest (kinetic energy at round-off);
// under-iterated (N_it = 10) it keeps vibrating.
BOOST_AUTO_TEST_CASE(stiff_column_comes_to_rest) {
  ColumnSetup s;
  s.gravity.ramp_time = 2.0;
  s.measure_time = 2.0;
  const ColumnResult r = run_column_rest(s);
  BOOST_TEST_MESSAGE("column E = 1e10, h = 0.01: kinetic energy at rest " << r.kinetic_energy_rest << " J");
  BOOST_TEST(r.kinetic_energy_rest < 1e-12 * r.weight_energy);
  BOOST_TEST(r.kinetic_energy_window > r.kinetic_energy_rest);  // the transient after the ramp decays
  s.iterations = 10;
  const ColumnResult under = run_column_rest(s);
  BOOST_TEST_MESSAGE("column, N_it = 10: kinetic energy at rest " << under.kinetic_energy_rest << " J");
  BOOST_TEST(under.kinetic_energy_rest > 1e-9 * under.weight_energy);
  s.settle_time = 2.0;
  BOOST_CHECK_THROW(run_column_rest(s), InputError);
}

// M1 (000 l.296-327): unit mass on the spring U = x^2/(2 eps). The implicit midpoint step in velocity
// form (Eq. 3) and the multiplier form (Eq. 5) are the same map for eps > 0; Eq. 5 stays finite at
// eps = 0, where it enforces (x_{i+1} + x_i)/2 = 0.
BOOST_AUTO_TEST_CASE(stiff_spring_eq3_equals_eq5) {
  const double h = 0.1;
  auto eq3 = [h](double eps, double& x, double& v) {
    const double a = h * h / (4 * eps);
    const double v1 = ((1 - a) * v - h / eps * x) / (1 + a);
    x += h / 2 * (v1 + v);
    v = v1;
  };
  auto eq5 = [h](double eps, double& x, double& v) {
    // [1 -1; 1 4 eps/h^2] [v1; h lambda] = [v; -(4/h) x - v]  ->  h lambda = (-(4/h) x - 2 v) / (1 + 4 eps/h^2)
    const double hl = (-4 / h * x - 2 * v) / (1 + 4 * eps / (h * h));
    const double v1 = v + hl;
    x += h / 2 * (v1 + v);
    v = v1;
  };
  for (double eps : {1.0, 1e-2, 1e-4}) {
    double x3 = 1, v3 = 0, x5 = 1, v5 = 0, worst = 0;
    for (int i = 0; i < 200; ++i) {
      eq3(eps, x3, v3);
      eq5(eps, x5, v5);
      worst = std::max(worst, std::abs(x3 - x5) + std::abs(v3 - v5) * std::sqrt(eps));
    }
    BOOST_TEST_MESSAGE("M1 eps = " << eps << ": largest difference " << worst);
    BOOST_TEST(worst < 1e-12);
  }
  double x = 1, v = 0.3;
  for (int i = 0; i < 5; ++i) {
    const double before = x;
    eq5(0.0, x, v);
    BOOST_TEST(std::isfinite(v));
    BOOST_TEST(x == -before, boost::test_tools::tolerance(1e-14));
  }
}

BOOST_AUTO_TEST_SUITE_END()
