// Step-level properties of the SDEM stepper: angular momentum with friction and rolling resistance,
// periodic contacts, fixed particles, the gravity ramp, and the quaternion update.
#include <boost/test/unit_test.hpp>

#include <cmath>

#include "core/sdem/sdem_stepper.hpp"
#include "core/world.hpp"

using namespace grainlab;

BOOST_AUTO_TEST_SUITE(sdem_integration)

namespace {
Vec3 angular_momentum(const ParticleStore& p) {
  Vec3 L = Vec3::Zero();
  for (std::size_t i = 0; i < p.size(); ++i) L += p.mass[i] * p.position[i].cross(p.velocity[i]) + p.inertia[i] * p.angular_velocity[i];
  return L;
}
}  // namespace

// Frictional, dissipative collisions with rolling resistance, no gravity, no walls. Every contact
// applies +F at x_a + r_a and -F at x_b + r_b, the same point (r_a = -(r_a - d/2) n, r_b = (r_b - d/2) n),
// and opposite rolling torques; symplectic Euler then conserves sum(x x m v + I w) exactly in exact
// arithmetic (x_{n+1} x v_{n+1} = x_n x v_{n+1}). So both momenta must hold to round-off (1e-12 of
// the initial scale), while energy must drop (dissipation is real).
BOOST_AUTO_TEST_CASE(angular_momentum_with_friction_and_rolling) {
  World w;
  w.gravity.g = Vec3::Zero();
  Material m;
  m.restitution = 0.5;
  m.friction = 0.6;
  m.rolling_friction = 0.2;
  w.add_material(m);
  w.add_sphere(Vec3(-0.02, 0.003, 0), 0.005, 0, Vec3(1.0, 0, 0.1), Vec3(0, 30, 10));
  w.add_sphere(Vec3(0.02, -0.002, 0.001), 0.007, 0, Vec3(-0.8, 0.05, 0), Vec3(-20, 0, 5));
  w.add_sphere(Vec3(0.0, 0.03, -0.002), 0.006, 0, Vec3(0.02, -1.2, 0.1), Vec3(0, 0, -40));
  SdemSettings s;
  s.time_step = 1e-6;
  SdemStepper stepper(s);
  const Vec3 P0 = w.particles.linear_momentum(), L0 = angular_momentum(w.particles);
  const double E0 = w.particles.kinetic_energy();
  int touching = 0;
  for (int k = 0; k < 40000; ++k) {
    stepper.step(w);
    for (const Contact& c : w.contacts()) touching += c.overlap > 0;
  }
  const double p_scale = w.particles.total_mass() * 1.0, l_scale = p_scale * 0.03;
  BOOST_TEST_MESSAGE("dP " << (w.particles.linear_momentum() - P0).norm() / p_scale << " dL "
                           << (angular_momentum(w.particles) - L0).norm() / l_scale << " E/E0 " << w.particles.kinetic_energy() / E0
                           << " contact-steps " << touching);
  BOOST_TEST(touching > 100);
  BOOST_TEST((w.particles.linear_momentum() - P0).norm() < 1e-12 * p_scale);
  BOOST_TEST((angular_momentum(w.particles) - L0).norm() < 1e-12 * l_scale);
  BOOST_TEST(w.particles.kinetic_energy() < 0.95 * E0);
}

// Two equal spheres meet across the periodic boundary (x in [0, 0.1)): an elastic head-on collision
// exchanges their velocities (exact for equal masses up to the integrator's O(dt) energy error; 1e-3).
BOOST_AUTO_TEST_CASE(periodic_collision) {
  World w;
  w.gravity.g = Vec3::Zero();
  Material m;
  m.restitution = 1.0;
  m.friction = 0.0;
  w.add_material(m);
  w.collision.set_periodic(0, 0.0, 0.1);
  w.add_sphere(Vec3(0.094, 0.05, 0.05), 0.005, 0, Vec3(0.5, 0, 0));
  w.add_sphere(Vec3(0.006, 0.05, 0.05), 0.005, 0, Vec3(-0.5, 0, 0));
  SdemSettings s;
  s.time_step = sdem_contact_time(m, 0.005, m, 0.005, 1.0) / 100;
  SdemStepper stepper(s);
  for (int k = 0; k < int(0.02 / s.time_step); ++k) stepper.step(w);
  const auto& p = w.particles;
  BOOST_TEST_MESSAGE("periodic: v0 " << p.velocity[0].x() << " v1 " << p.velocity[1].x() << " x0 " << p.position[0].x());
  BOOST_TEST(p.velocity[0].x() == -0.5, boost::test_tools::tolerance(1e-3));
  BOOST_TEST(p.velocity[1].x() == 0.5, boost::test_tools::tolerance(1e-3));
  BOOST_TEST(p.position[0].x() >= 0.0);
  BOOST_TEST(p.position[0].x() < 0.1);
}

// A fixed particle does not move, and a sphere bouncing on it sees m* = m (as against a wall).
BOOST_AUTO_TEST_CASE(fixed_particle) {
  World w;
  w.gravity.g = Vec3(0, 0, -9.81);
  Material m;
  m.restitution = 0.6;
  w.add_material(m);
  const std::size_t base = w.add_sphere(Vec3::Zero(), 0.005, 0);
  w.particles.fix(base);
  w.add_sphere(Vec3(0, 0, 0.0101), 0.005, 0, Vec3(0, 0, -1.0));
  SdemSettings s;
  s.time_step = sdem_contact_time(m, 0.005, m, 0.005, 1.0) / 100;  // pair estimate (m* = m/2): shorter, safe
  SdemStepper stepper(s);
  double v_after = 0;
  for (int k = 0; k < int(0.004 / s.time_step); ++k) {
    stepper.step(w);
    if (w.particles.position[1].z() > 0.0101) break;  // left the contact
    v_after = w.particles.velocity[1].z();
  }
  BOOST_TEST(w.particles.position[base].isZero(0.0));
  BOOST_TEST(w.particles.velocity[base].isZero(0.0));
  // Gravity acts during the ~1 ms flight back up (g t ~ 1e-2 of v): 2e-2.
  BOOST_TEST(v_after == 0.6, boost::test_tools::tolerance(2e-2));
}

// Gravity ramp (000 line 598): free fall from rest, g raised linearly from g0 to g over T. Symplectic
// Euler sums g(t_k) dt at step starts: v(t) = sum g(k dt) dt, which differs from the integral
// g0 t + (g - g0) t^2 / (2T) by (g - g0) t dt / (2T) -- checked exactly against that sum.
BOOST_AUTO_TEST_CASE(gravity_ramp) {
  World w;
  w.add_material(Material{});
  w.gravity.g = Vec3(0, 0, -9.82);
  w.gravity.ramp_from = 0.01;
  w.gravity.ramp_duration = 1.0;
  w.add_sphere(Vec3::Zero(), 0.005, 0);
  SdemSettings s;
  s.time_step = 1e-3;
  SdemStepper stepper(s);
  const int n = 500;
  for (int k = 0; k < n; ++k) stepper.step(w);
  const double t = n * s.time_step, dt = s.time_step, slope = 9.82 - 0.01;
  const double exact_integral = 0.01 * t + slope * t * t / 2;
  const double euler_sum = exact_integral - slope * t * dt / 2;
  BOOST_TEST(-w.particles.velocity[0].z() == euler_sum, boost::test_tools::tolerance(1e-9));
}

// Orientation: a free sphere spinning at w about a fixed axis turns by |w| t; the normalised
// first-order quaternion update has an angle error O(|w| dt)^2 per step, so 1e-4 rad after 1 rad.
BOOST_AUTO_TEST_CASE(quaternion_rotation) {
  World w;
  w.gravity.g = Vec3::Zero();
  w.add_material(Material{});
  const Vec3 axis = Vec3(1, 2, 2).normalized();
  w.add_sphere(Vec3::Zero(), 0.005, 0, Vec3::Zero(), 10.0 * axis);
  SdemSettings s;
  s.time_step = 1e-5;
  SdemStepper stepper(s);
  for (int k = 0; k < 10000; ++k) stepper.step(w);  // 1 rad
  const Quat q = w.particles.orientation[0];
  const Eigen::AngleAxisd aa(q);
  BOOST_TEST(std::abs(q.norm() - 1) < 1e-12);
  BOOST_TEST(aa.angle() == 1.0, boost::test_tools::tolerance(1e-4));
  BOOST_TEST(std::abs(std::abs(aa.axis().dot(axis)) - 1) < 1e-9);
}

BOOST_AUTO_TEST_SUITE_END()
