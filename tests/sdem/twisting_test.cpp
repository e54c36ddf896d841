// SDEM twisting resistance (core/sdem/contact_law.hpp, twisting_torque): a spring on the relative rotation
// about the contact normal, limited by alpha_rn mu R* f_n (the limit of NDEM's twisting row, 000 l.1176).
//
// A sphere resting on a floor and spinning about the vertical slips at no contact point (the point lies on
// the spin axis), so only the twisting torque acts: it decelerates at alpha mu R m g / I (R* = R against a
// wall, I = 2/5 m R^2) and stops at t = w0 I / (alpha mu R m g). Without twisting resistance it keeps
// spinning, which is what a settled SDEM bed showed before (issue 27). Between two spheres the torques are
// equal and opposite, so the spin angular momentum about the line of centres is conserved.
//
// Perturbations that turn these red (tried by hand): the limit without mu (stop time 0.5x: the first test
// fails by 50 %); the torque on b with the same sign as on a (b spins the wrong way, -18.7 rad/s, and w_a + w_b = 12.6 instead of 50).
#include <boost/test/unit_test.hpp>

#include <cmath>

#include "core/hertz.hpp"
#include "core/sdem/sdem_stepper.hpp"
#include "core/world.hpp"
#include "experiments/sdem_scenarios.hpp"

using namespace grainlab;

BOOST_AUTO_TEST_SUITE(sdem_twisting)

namespace {

constexpr double g = 9.81;

// A sphere at rest at its static overlap on a floor, then set spinning about z at w0; returns the time
// until its spin first falls below 1e-3 w0, or -1 if it does not within `t_max`. `spin_left`: w_z / w0
// at the end.
double spin_down(double alpha, double w0, double t_max, double* spin_left = nullptr) {
  sdem::SphereSpec spec;
  spec.friction = 0.5;
  Material m = spec.material();
  m.twisting_factor = alpha;
  World w;
  w.gravity.g = Vec3(0, 0, -g);
  const auto mi = w.add_material(m);
  Wall floor;
  floor.name = "floor";
  floor.shape = PlaneShape{Vec3::Zero(), Vec3::UnitZ()};
  floor.material = mi;
  w.add_wall(std::move(floor));
  const double R = spec.radius;
  const double kn = hertz_stiffness(mix(m, m).effective_modulus, R);
  w.add_sphere(Vec3(0, 0, R - std::pow(spec.mass() * g / kn, 2.0 / 3.0)), R, mi);
  SdemSettings s;
  s.time_step = sdem_contact_time(m, R, m, 0.0, 0.1) / 50;
  SdemStepper stepper(s);
  w.particles.angular_velocity[0] = Vec3(0, 0, w0);
  double t = 0;
  for (; t < t_max; t += s.time_step) {
    stepper.step(w);
    if (std::abs(w.particles.angular_velocity[0].z()) < 1e-3 * w0) break;
  }
  if (spin_left) *spin_left = w.particles.angular_velocity[0].z() / w0;
  return t < t_max ? t : -1;
}

}  // namespace

BOOST_AUTO_TEST_CASE(spinning_sphere_stops_at_the_limit_torque) {
  const double w0 = 20, R = 0.005, mu = 0.5;
  for (double alpha : {0.2, 0.6}) {
    const double t_stop = spin_down(alpha, w0, 1.0);
    // I w0 / (alpha mu R m g) with I = 2/5 m R^2.
    const double analytic = 0.4 * R * w0 / (alpha * mu * g);
    BOOST_TEST_MESSAGE("alpha " << alpha << ": stops after " << t_stop << " s, analytic " << analytic << " s");
    // 1 %: the spring mobilises the limit within a few steps, and "stopped" (1e-3 w0) comes 0.1 % early;
    // measured -0.2 % and -0.4 %.
    BOOST_TEST(t_stop == analytic, boost::test_tools::tolerance(0.01));
  }
}

BOOST_AUTO_TEST_CASE(no_twisting_resistance_keeps_the_spin) {
  double left = 0;
  BOOST_TEST(spin_down(0.0, 20, 0.05, &left) == -1.0);
  BOOST_TEST(left == 1.0, boost::test_tools::tolerance(1e-12));
}

// Two equal spheres in head-on contact along z (no gravity), a spinning about z: during the contact the
// twisting torque passes spin from a to b, and I (w_a + w_b) stays what it was.
BOOST_AUTO_TEST_CASE(twisting_torques_are_equal_and_opposite) {
  sdem::SphereSpec spec;
  Material m = spec.material();
  m.twisting_factor = 0.5;
  World w;
  const auto mi = w.add_material(m);
  const double R = spec.radius, w0 = 50;
  w.add_sphere(Vec3(0, 0, 0), R, mi, Vec3(0, 0, 0.2), Vec3(0, 0, w0));
  w.add_sphere(Vec3(0, 0, 2 * R + 1e-5), R, mi, Vec3(0, 0, -0.2), Vec3::Zero());
  SdemSettings s;
  s.time_step = sdem_contact_time(m, R, m, R, 0.4) / 50;
  SdemStepper stepper(s);
  for (int k = 0; k < 200; ++k) stepper.step(w);
  const double wa = w.particles.angular_velocity[0].z(), wb = w.particles.angular_velocity[1].z();
  BOOST_TEST_MESSAGE("after the contact: w_a " << wa << ", w_b " << wb << " rad/s");
  BOOST_TEST(wb > 0.01 * w0);  // spin was passed on
  BOOST_TEST(wa + wb == w0, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_SUITE_END()
