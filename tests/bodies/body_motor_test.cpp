// Dynamic walls: a plane attached to a prismatic body driven by a velocity motor (bounded force) or a
// constant-force (pressure) motor, against a column of pellets (analytic loads: weights and motor forces).
#include <boost/test/unit_test.hpp>

#include "tests/bodies/bodies_fixtures.hpp"

using namespace grainlab;
using namespace grainlab::bodies_test;

BOOST_AUTO_TEST_SUITE(body_motors)

namespace {
constexpr int column = 4;

// A column of `column` pellets standing on z = base (just touching each other), no initial velocity.
void add_column(World& w, double base) {
  for (int i = 0; i < column; ++i) w.add_sphere(Vec3(0, 0, base + radius + 2 * radius * i), radius, 0);
}

double column_weight(const World& w) {
  double m = 0;
  for (std::size_t i = 0; i < w.particles.size(); ++i) m += w.particles.mass[i];
  return m * g_acc;
}

// A plane wall (normal `normal`, through z = height) attached to a prismatic body on the z axis.
std::size_t add_piston(World& w, double height, const Vec3& normal, BodyMotor motor) {
  const std::size_t wall = w.add_wall(Wall{.name = "piston", .shape = PlaneShape{Vec3(0, 0, height), normal}});
  RigidBody b;
  b.mass = 0.02;
  b.inertia_body = Mat3::Identity() * 1e-5;
  b.position = Vec3(0, 0, height);
  b.gravity = false;
  b.joint = BodyJoint::prismatic;
  b.axis = Vec3::UnitZ();
  b.motor = motor;
  const std::size_t k = add_body(w, b);
  attach_wall(w, k, wall);
  return k;
}

NdemSettings settings() {
  NdemSettings s;  // Dt = 5 ms (Paper III)
  s.iterations = 300;
  return s;
}

// 1.5 s of NDEM (300 steps of 5 ms) or 0.5 s of SDEM (dt = 1e-5 s): long enough for both to settle.
void settle(World& w, int method) {
  if (method == 0) {
    NdemStepper stepper(settings());
    for (int n = 0; n < 300; ++n) stepper.step(w);
  } else {
    SdemSettings s;
    s.time_step = 1e-5;
    SdemStepper stepper(s);
    for (int n = 0; n < 50000; ++n) stepper.step(w);
  }
}

}  // namespace

// Lifting within the force bound: the piston under the column moves at exactly the target speed and,
// once the column moves with it at constant speed, the motor force equals the column weight.
// NDEM: the motor row is a hard velocity constraint (after 300 PGS iterations on a 5-body chain the
// residual is ~1e-12 m/s, bound 1e-9); force to 1e-3 (PGS residual of the stacked contacts).
// SDEM: the motor force is the one that reaches the target in the step, so the speed is exact to
// rounding; the column's contact oscillation (damped by e = 0.18) averages out over the last 0.5 s: 1e-3.
BOOST_AUTO_TEST_CASE(velocity_motor_tracks_target_within_bound) {
  for (int method = 0; method < 2; ++method) {
    World w = empty_world();
    add_column(w, 0.0);
    const double W = column_weight(w);
    const std::size_t k = add_piston(w, 0.0, Vec3::UnitZ(), BodyMotor::velocity);
    w.bodies[k].target_speed = 0.01;
    w.bodies[k].max_force = 3 * W;
    NdemStepper nd(settings());
    SdemSettings ss;
    ss.time_step = 1e-5;
    SdemStepper sd(ss);
    Stepper& stepper = method == 0 ? static_cast<Stepper&>(nd) : static_cast<Stepper&>(sd);
    double max_dev = 0, mean_force = 0;
    const int steps = method == 0 ? 200 : 100000, tail = steps / 2;
    for (int n = 0; n < steps; ++n) {
      stepper.step(w);
      if (n >= steps - tail) {
        max_dev = std::max(max_dev, std::abs(w.bodies[k].velocity.z() - 0.01));
        mean_force += w.bodies[k].motor_force / tail;
      }
    }
    BOOST_TEST_MESSAGE((method ? "sdem" : "ndem") << " tracking: max |v - target| " << max_dev << ", motor force / W "
                                                  << mean_force / W << ", wall " << w.walls[0].force.z() / W);
    BOOST_TEST(max_dev < 1e-9);
    BOOST_TEST(std::abs(mean_force / W - 1) < 1e-3);
    // NDEM: the piston reaches the target in its first step (needs m v / Dt = 0.04 N < F_max), so the
    // travelled distance is target speed x time. SDEM needs m v / dt = 20 N > F_max to start in one step:
    // it accelerates at the bound for ~0.4 ms first (a physical lag of ~2e-6 m), not checked here.
    if (method == 0) BOOST_TEST(std::abs(w.bodies[k].position.z() - 0.01 * w.time) < 1e-9);
  }
}

// Lifting beyond the bound: F_max = W/2 < W, the motor saturates (motor force = F_max to rounding every
// step) and piston + column sink with a = -(W - F_max) / (M + m_piston) (quasi-rigid column once the
// impact transient is over; 1e-2 covers the residual oscillation of the contacts, which a missing bound
// or a wrong sign would exceed by far).
BOOST_AUTO_TEST_CASE(velocity_motor_stalls_at_max_force) {
  World w = empty_world();
  add_column(w, 0.0);
  const double W = column_weight(w);
  const std::size_t k = add_piston(w, 0.0, Vec3::UnitZ(), BodyMotor::velocity);
  w.bodies[k].target_speed = 0.01;
  w.bodies[k].max_force = 0.5 * W;
  NdemStepper stepper(settings());
  const int steps = 100;
  double v_mid = 0, t_mid = 0;
  bool saturated = true;
  for (int n = 0; n < steps; ++n) {
    stepper.step(w);
    if (n >= 20) saturated = saturated && std::abs(w.bodies[k].motor_force / (0.5 * W) - 1) < 1e-12;
    if (n == 50) {
      v_mid = w.bodies[k].velocity.z();
      t_mid = w.time;
    }
  }
  const double a = (w.bodies[k].velocity.z() - v_mid) / (w.time - t_mid);
  const double expected = -(W - 0.5 * W) / (W / g_acc + w.bodies[k].mass);
  BOOST_TEST_MESSAGE("stall: a " << a << " expected " << expected << ", motor force / F_max " << w.bodies[k].motor_force / (0.5 * W));
  BOOST_TEST(saturated);
  BOOST_TEST(std::abs(a / expected - 1) < 1e-2);
}

// Pressing down on a column standing on the floor: the lid moves at -1 cm/s until the column's
// reaction reaches F_max, then stalls at rest (Hertz contacts stiffen, no further motion) with the lid
// load = F_max and the floor load = W + F_max. NDEM: PGS residual, 1e-3. SDEM (the motor force is the
// axial force that would reach the target this step, clamped): contact damping settles it; 1e-3.
BOOST_AUTO_TEST_CASE(velocity_motor_stalls_on_column) {
  for (int method = 0; method < 2; ++method) {
    World w = empty_world();
    add_floor(w);
    add_column(w, 0.0);
    const double W = column_weight(w);
    const double top = 2 * radius * column;
    const std::size_t k = add_piston(w, top + 0.0005, -Vec3::UnitZ(), BodyMotor::velocity);
    w.bodies[k].target_speed = -0.01;
    w.bodies[k].max_force = 2 * W;
    settle(w, method);
    const Wall& floor = w.walls[0];
    const Wall& lid = w.walls[1];
    BOOST_TEST_MESSAGE((method ? "sdem" : "ndem") << " press: lid " << lid.force.z() / W << " W, floor " << -floor.force.z() / W << " W, v " << w.bodies[k].velocity.z());
    BOOST_TEST(std::abs(w.bodies[k].motor_force / (-2 * W) - 1) < 1e-12);  // saturated, pushing down
    BOOST_TEST(std::abs(lid.force.z() / (2 * W) - 1) < 1e-3);
    BOOST_TEST(std::abs(-floor.force.z() / (3 * W) - 1) < 1e-3);
    BOOST_TEST(std::abs(w.bodies[k].velocity.z()) < (method ? 5e-5 : 1e-6));  // SDEM: residual oscillation
  }
}

// Constant-force (pressure) motor: F = -2 W along z on a lid over the column; it settles where the lid
// load equals the applied force (lid at rest: the only axial forces are the motor and the contacts).
// NDEM: PGS residual, 1e-3. SDEM: contact damping (e = 0.18) settles the lid; 1e-3 after 0.5 s.
BOOST_AUTO_TEST_CASE(pressure_wall_settles_at_applied_force) {
  for (int method = 0; method < 2; ++method) {
    World w = empty_world();
    add_floor(w);
    add_column(w, 0.0);
    const double W = column_weight(w);
    const std::size_t k = add_piston(w, 2 * radius * column, -Vec3::UnitZ(), BodyMotor::force);
    w.bodies[k].motor_force = -2 * W;
    settle(w, method);
    BOOST_TEST_MESSAGE((method ? "sdem" : "ndem") << " pressure: lid " << w.walls[1].force.z() / W << " W, floor "
                                                  << -w.walls[0].force.z() / W << " W, v " << w.bodies[k].velocity.z());
    BOOST_TEST(std::abs(w.walls[1].force.z() / (2 * W) - 1) < 1e-3);
    BOOST_TEST(std::abs(-w.walls[0].force.z() / (3 * W) - 1) < 1e-3);
    BOOST_TEST(std::abs(w.bodies[k].velocity.z()) < (method ? 5e-5 : 1e-6));  // SDEM: residual oscillation, measured 4e-6
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(body_motors_packing)

// A pressure lid (force motor F = -5 W) on a 27-pellet packing in a box of four side planes and a floor
// (NDEM, friction 0.91): at rest the lid load equals the applied force (the lid's only axial forces),
// and the vertical balance of the packing holds: floor + side-wall friction = F + W (side walls carry
// part of the load by friction, so the floor alone does not). Tolerance 1e-3: PGS residual after 300
// iterations on ~100 contacts (the packing has redundant friction rows, docs/bodies.md).
BOOST_AUTO_TEST_CASE(pressure_lid_on_packing_ndem) {
  World w = empty_world();
  add_floor(w);
  const double L = 3.4 * radius;
  const Vec3 normals[4] = {Vec3::UnitX(), -Vec3::UnitX(), Vec3::UnitY(), -Vec3::UnitY()};
  for (int k = 0; k < 4; ++k) w.add_wall(Wall{.name = "side", .shape = PlaneShape{-L * normals[k], normals[k]}});
  std::uint32_t seed = 12345;
  auto jitter = [&seed] {
    seed = seed * 1664525u + 1013904223u;
    return (double(seed >> 8) / double(1u << 24) - 0.5) * 0.2 * radius;
  };
  for (int iz = 0; iz < 3; ++iz)
    for (int iy = -1; iy <= 1; ++iy)
      for (int ix = -1; ix <= 1; ++ix)
        w.add_sphere(Vec3(2.2 * radius * ix + jitter(), 2.2 * radius * iy + jitter(), radius * (1.05 + 2.2 * iz)), radius, 0);
  const double W = w.particles.total_mass() * g_acc;
  const double top = radius * (1.05 + 2.2 * 2) + radius;
  const std::size_t lid_wall = w.add_wall(Wall{.name = "lid", .shape = PlaneShape{Vec3(0, 0, top + 0.2 * radius), -Vec3::UnitZ()}});
  RigidBody lid;
  lid.mass = 0.5;
  lid.inertia_body = Mat3::Identity() * 1e-3;
  lid.position = Vec3(0, 0, top + 0.2 * radius);
  lid.gravity = false;
  lid.joint = BodyJoint::prismatic;
  lid.motor = BodyMotor::force;
  lid.motor_force = -5 * W;
  const std::size_t k = add_body(w, lid);
  attach_wall(w, k, lid_wall);
  NdemSettings s;
  s.iterations = 300;
  s.warm_start = NdemWarmStart::history;
  NdemStepper stepper(s);
  for (int n = 0; n < 400; ++n) stepper.step(w);
  const double lid_load = w.walls[lid_wall].force.z();
  double support = -w.walls[0].force.z();
  for (int j = 1; j <= 4; ++j) support -= w.walls[std::size_t(j)].force.z();
  BOOST_TEST_MESSAGE("packing: lid load / F " << lid_load / (5 * W) << ", (floor + sides) / (F + W) " << support / (6 * W)
                                              << ", floor alone " << -w.walls[0].force.z() / (6 * W) << ", lid v " << w.bodies[k].velocity.z()
                                              << ", contacts " << stepper.stats().contacts);
  BOOST_TEST(std::abs(lid_load / (5 * W) - 1) < 1e-3);
  BOOST_TEST(std::abs(support / (6 * W) - 1) < 1e-3);
  BOOST_TEST(std::abs(w.bodies[k].velocity.z()) < 1e-4);
}

BOOST_AUTO_TEST_SUITE_END()
