// Rigid bodies in contact, both methods: a dumbbell resting on a plane carries its weight, a collision
// between a free sphere and an aggregate conserves linear and angular momentum.
#include <boost/test/unit_test.hpp>

#include "tests/bodies/bodies_fixtures.hpp"

using namespace grainlab;
using namespace grainlab::bodies_test;

BOOST_AUTO_TEST_SUITE(body_contacts)

namespace {
// Two pellets side by side (touching), formed into a body, just touching the floor.
World dumbbell_on_floor() {
  World w = empty_world();
  add_floor(w);
  const std::size_t a = w.add_sphere(Vec3(-radius, 0, radius), radius, 0);
  const std::size_t b = w.add_sphere(Vec3(radius, 0, radius), radius, 0);
  form_body(w, {a, b});
  return w;
}
}  // namespace

// Static load: once at rest, the floor carries the weight. NDEM: at rest the constraint impulses of a
// step balance the gravity impulse m g dt up to the PGS residual (150 iterations on 2 contacts of one
// body converge to ~1e-12); 1e-6 relative leaves room and fails for any missing or double-counted row.
// Both PGS modes: serial, and graph-coloured (body rows swept serially after the colours).
BOOST_AUTO_TEST_CASE(dumbbell_rests_on_plane_ndem) {
  for (bool parallel : {false, true}) {
    World w = dumbbell_on_floor();
    w.add_sphere(Vec3(0.05, 0, radius), radius, 0);  // a free sphere: sphere rows exist too
    NdemSettings s;  // Dt = 5 ms, N_it = 150 (Paper III)
    s.parallel = parallel;
    NdemStepper stepper(s);
    for (int n = 0; n < 400; ++n) stepper.step(w);
    const double weight = (w.bodies[0].mass + w.particles.mass[2]) * g_acc;
    BOOST_TEST_MESSAGE("ndem floor force / weight - 1 = " << -w.walls[0].force.z() / weight - 1 << ", |v| " << w.bodies[0].velocity.norm());
    BOOST_TEST(std::abs(-w.walls[0].force.z() / weight - 1) < 1e-6);
    BOOST_TEST(w.walls[0].force.head<2>().norm() < 1e-6 * weight);
    BOOST_TEST(w.bodies[0].velocity.norm() < 1e-6);
    BOOST_TEST(w.bodies[0].angular_velocity.norm() < 1e-4);
    // The contact force on the body (its members) balances its own weight.
    BOOST_TEST(std::abs(w.bodies[0].force.z() / (w.bodies[0].mass * g_acc) - 1) < 1e-6);
  }
}

// SDEM: dt = 1e-5 s resolves the Hertz contact (linearised period ~8 ms at rest); the pellet's
// restitution 0.18 damps bouncing and rocking within ~0.1 s. After 0.4 s the residual oscillation is
// below 1e-4 of the weight (measured ~1e-9); 1e-4 fails for a missing or doubled member force.
BOOST_AUTO_TEST_CASE(dumbbell_rests_on_plane_sdem) {
  World w = dumbbell_on_floor();
  SdemSettings s;
  s.time_step = 1e-5;
  SdemStepper stepper(s);
  for (int n = 0; n < 40000; ++n) stepper.step(w);
  const double weight = w.bodies[0].mass * g_acc;
  BOOST_TEST_MESSAGE("sdem floor force / weight - 1 = " << -w.walls[0].force.z() / weight - 1 << ", |v| " << w.bodies[0].velocity.norm());
  BOOST_TEST(std::abs(-w.walls[0].force.z() / weight - 1) < 1e-4);
  BOOST_TEST(w.bodies[0].velocity.norm() < 1e-4);
  // The members did not move relative to each other (rigid).
  BOOST_TEST(std::abs((w.particles.position[0] - w.particles.position[1]).norm() - 2 * radius) < 1e-15);
}

// Friction bound from the PHYSICAL normal force (s lambda_n, 000 l.799): a dumbbell lying along the
// slope (it cannot roll) on a plane tilted by theta (gravity tilted instead). tan(theta) = 0.8 mu: it
// holds (creep only from the friction compliance, gamma_t F ~ 5e-8 m/s). tan(theta) = 1 > mu: it slides
// with a = g (sin theta - mu cos theta) exactly (saturated cone bound mu m g cos theta; 1e-6 covers the
// PGS residual). A bound from the raw multiplier lambda_n (1/s ~ 12x larger for Hertz here) would hold it.
BOOST_AUTO_TEST_CASE(dumbbell_on_incline_uses_physical_normal_force) {
  for (double tan_theta : {0.8 * pellet().friction, 1.0}) {
    World w = dumbbell_on_floor();
    const double theta = std::atan(tan_theta);
    w.gravity.g = g_acc * Vec3(std::sin(theta), 0, -std::cos(theta));
    NdemSettings s;
    s.friction_shape = NdemFrictionShape::cone;
    NdemStepper stepper(s);
    for (int n = 0; n < 100; ++n) stepper.step(w);
    const double v0 = w.bodies[0].velocity.x(), t0 = w.time;
    for (int n = 0; n < 100; ++n) stepper.step(w);
    const double a = (w.bodies[0].velocity.x() - v0) / (w.time - t0);
    const double expected = g_acc * (std::sin(theta) - pellet().friction * std::cos(theta));
    BOOST_TEST_MESSAGE("incline tan " << tan_theta << ": a " << a << " v " << w.bodies[0].velocity.x() << " expected a " << expected);
    if (expected < 0) {
      BOOST_TEST(std::abs(w.bodies[0].velocity.x()) < 1e-6);
    } else {
      BOOST_TEST(std::abs(a / expected - 1) < 1e-6);
    }
    BOOST_TEST(w.bodies[0].angular_velocity.norm() < 1e-6);  // no rolling, no tipping
  }
}

// The body rows use the sphere rows' set-up (s, Sigma_n, q_n, impact stage with Newton restitution):
// a dumbbell dropped flat (both members hit the floor together, no rotation by symmetry) must follow
// the same z(t) as a single pellet dropped the same way, through impact, bounce and rest. Frictionless:
// with friction the two contacts' friction rows are linearly dependent on the body's DOFs (same
// Jacobian on x translation and y rotation) and, with the tiny compliance gamma_t, PGS converges
// slowly: measured 5e-5 relative error in the bounce speed at N_it = 300, 2e-10 at 3000 (docs/bodies.md).
// Without friction the two normal rows converge within 10 iterations; deviation = rounding (bound
// 1e-12 m against overlaps of 1e-3 m; a wrong q_n, Sigma_n, scale or restitution gives > 1e-7 m).
BOOST_AUTO_TEST_CASE(flat_dumbbell_drop_matches_single_sphere_ndem) {
  Material m = pellet();
  m.friction = 0;
  m.rolling_friction = 0;
  World dumb = empty_world(m);
  add_floor(dumb);
  const double z0 = radius + 0.02;
  const std::size_t a = dumb.add_sphere(Vec3(-radius, 0, z0), radius, 0);
  const std::size_t b = dumb.add_sphere(Vec3(radius, 0, z0), radius, 0);
  form_body(dumb, {a, b});
  World single = empty_world(m);
  add_floor(single);
  single.add_sphere(Vec3(0, 0, z0), radius, 0);
  NdemSettings s;  // Dt = 5 ms, N_it = 150
  NdemStepper sd(s), ss(s);
  double max_dz = 0, min_z = z0;
  std::size_t impacts = 0;
  for (int n = 0; n < 200; ++n) {
    sd.step(dumb);
    ss.step(single);
    impacts += ss.stats().impacting;
    max_dz = std::max(max_dz, std::abs(dumb.bodies[0].position.z() - single.particles.position[0].z()));
    min_z = std::min(min_z, single.particles.position[0].z());
  }
  BOOST_TEST_MESSAGE("flat drop: max |z_body - z_sphere| " << max_dz << " m, impacts " << impacts << ", lowest z - r " << min_z - radius);
  BOOST_TEST(impacts > 0u);          // the impact stage was exercised
  BOOST_TEST(min_z < radius);        // and the contact was compressed
  BOOST_TEST(max_dz < 1e-12);
  BOOST_TEST(dumb.bodies[0].angular_velocity.norm() < 1e-9);
}

namespace {
// A free pellet thrown off-centre at a 3-sphere aggregate, no gravity, with friction and rolling resistance.
World throw_at_aggregate() {
  World w = empty_world();
  w.gravity.g = Vec3::Zero();
  triple(w, Vec3::Zero(), Vec3(0.0, 0.0, 0.0), Vec3(0, 0, 2));
  w.add_sphere(Vec3(-0.002, -0.030, 0.004), radius, 0, Vec3(0.1, 1.0, 0.0), Vec3(0, 0, -30));
  return w;
}

struct Momenta {
  double max_dp = 0, max_dL = 0;
  bool touched = false;
};

template <class Stepper>
Momenta collide(Stepper& stepper, double duration) {
  World w = throw_at_aggregate();
  const Vec3 o(0.01, -0.02, 0.005);
  const Vec3 p0 = total_linear_momentum(w), L0 = total_angular_momentum(w, o);
  const Vec3 body_v0 = w.bodies[0].velocity;
  Momenta m;
  const int steps = int(duration / stepper.time_step());
  for (int n = 0; n < steps; ++n) {
    stepper.step(w);
    m.max_dp = std::max(m.max_dp, (total_linear_momentum(w) - p0).norm() / p0.norm());
    m.max_dL = std::max(m.max_dL, (total_angular_momentum(w, o) - L0).norm() / L0.norm());
  }
  m.touched = (w.bodies[0].velocity - body_v0).norm() > 0.1;  // the body was hit
  return m;
}
}  // namespace

// Both methods apply every contact impulse/force equally and oppositely at one contact point, bodies get
// the torque (p - X) x f about their centre of mass, and free flight keeps m x v and L = I w constant:
// total momenta change by rounding only. Bound: 1e-12 relative per step accumulated over the run's
// ~1000 (NDEM) / 3000 (SDEM) steps -> 1e-10; a wrong lever arm or a one-sided impulse gives >1e-3.
BOOST_AUTO_TEST_CASE(collision_conserves_momentum_ndem) {
  NdemSettings s;
  s.time_step = 1e-4;
  s.iterations = 50;
  NdemStepper stepper(s);
  const Momenta m = collide(stepper, 0.04);
  BOOST_TEST_MESSAGE("ndem dp " << m.max_dp << " dL " << m.max_dL);
  BOOST_TEST(m.touched);
  BOOST_TEST(m.max_dp < 1e-10);
  BOOST_TEST(m.max_dL < 1e-10);
}

BOOST_AUTO_TEST_CASE(collision_conserves_momentum_sdem) {
  SdemSettings s;
  s.time_step = 2e-5;
  SdemStepper stepper(s);
  const Momenta m = collide(stepper, 0.04);
  BOOST_TEST_MESSAGE("sdem dp " << m.max_dp << " dL " << m.max_dL);
  BOOST_TEST(m.touched);
  BOOST_TEST(m.max_dp < 1e-10);
  BOOST_TEST(m.max_dL < 1e-10);
}

// Two aggregates colliding (body-body rows: both sides with a full inverse inertia tensor), NDEM and
// SDEM: same bound and reasoning as above.
BOOST_AUTO_TEST_CASE(body_body_collision_conserves_momentum) {
  for (int method = 0; method < 2; ++method) {
    World w = empty_world();
    w.gravity.g = Vec3::Zero();
    triple(w, Vec3::Zero(), Vec3::Zero(), Vec3(0, 0, 2));
    triple(w, Vec3(0.004, -0.035, 0.003), Vec3(0.05, 1.0, 0.0), Vec3(10, -5, 0));
    const Vec3 o(0.01, -0.02, 0.005);
    const Vec3 p0 = total_linear_momentum(w), L0 = total_angular_momentum(w, o);
    NdemSettings ns;
    ns.time_step = 1e-4;
    ns.iterations = 50;
    SdemSettings ss;
    ss.time_step = 2e-5;
    NdemStepper nd(ns);
    SdemStepper sd(ss);
    Stepper& stepper = method == 0 ? static_cast<Stepper&>(nd) : static_cast<Stepper&>(sd);
    double max_dp = 0, max_dL = 0;
    std::size_t touching = 0;
    for (int n = 0; n < int(0.04 / stepper.time_step()); ++n) {
      stepper.step(w);
      for (std::size_t k = 0; k < w.pair_contact_count(); ++k) {
        const Contact& c = w.contacts()[k];
        touching += c.overlap > 0 && w.particles.body[std::size_t(c.a)] != w.particles.body[std::size_t(c.b)];
      }
      max_dp = std::max(max_dp, (total_linear_momentum(w) - p0).norm() / p0.norm());
      max_dL = std::max(max_dL, (total_angular_momentum(w, o) - L0).norm() / L0.norm());
    }
    BOOST_TEST_MESSAGE((method ? "sdem" : "ndem") << " body-body: dp " << max_dp << " dL " << max_dL << " contact-steps " << touching);
    BOOST_TEST(touching > 0u);
    BOOST_TEST(max_dp < 1e-10);
    BOOST_TEST(max_dL < 1e-10);
  }
}

BOOST_AUTO_TEST_SUITE_END()
