// Checkpoints keep rigid bodies: a restart continues bit for bit (NDEM with history warm start, which
// reads the stored contact and motor multipliers; SDEM), and damaged body references are refused.
#include <boost/test/unit_test.hpp>

#include <cstring>

#include "core/io/checkpoint.hpp"
#include "tests/bodies/bodies_fixtures.hpp"

using namespace grainlab;
using namespace grainlab::bodies_test;

BOOST_AUTO_TEST_SUITE(body_checkpoint)

namespace {
// Floor, an aggregate dropped next to two free pellets, and a lid on a velocity motor pressing down.
World scene() {
  World w = empty_world();
  add_floor(w);
  triple(w, Vec3(0, 0, 0.012), Vec3(0.05, 0, -0.1), Vec3(1, 2, 3));
  w.add_sphere(Vec3(0.02, 0.0, radius), radius, 0);
  w.add_sphere(Vec3(0.02, 0.013, radius), radius, 0);
  const std::size_t wall = w.add_wall(Wall{.name = "lid", .shape = PlaneShape{Vec3(0, 0, 0.02), -Vec3::UnitZ()}});
  RigidBody b;
  b.mass = 0.02;
  b.inertia_body = Mat3::Identity() * 1e-5;
  b.position = Vec3(0, 0, 0.02);
  b.gravity = false;
  b.joint = BodyJoint::prismatic;
  b.motor = BodyMotor::velocity;
  b.target_speed = -0.02;
  b.max_force = 0.2;
  attach_wall(w, add_body(w, b), wall);
  return w;
}

template <class T>
bool bitwise(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

bool same_state(const World& a, const World& b) {
  bool ok = bitwise(a.particles.position, b.particles.position) && bitwise(a.particles.velocity, b.particles.velocity) &&
            bitwise(a.particles.angular_velocity, b.particles.angular_velocity) && bitwise(a.particles.body, b.particles.body) &&
            a.bodies.size() == b.bodies.size();
  for (std::size_t k = 0; ok && k < a.bodies.size(); ++k) {
    const RigidBody &x = a.bodies[k], &y = b.bodies[k];
    ok = std::memcmp(x.position.data(), y.position.data(), sizeof(Vec3)) == 0 &&
         std::memcmp(x.velocity.data(), y.velocity.data(), sizeof(Vec3)) == 0 &&
         std::memcmp(x.angular_velocity.data(), y.angular_velocity.data(), sizeof(Vec3)) == 0 &&
         std::memcmp(x.orientation.coeffs().data(), y.orientation.coeffs().data(), sizeof(Quat)) == 0 &&
         std::memcmp(&x.motor_force, &y.motor_force, sizeof(double)) == 0;
  }
  return ok;
}
}  // namespace

BOOST_AUTO_TEST_CASE(restart_continues_bit_for_bit) {
  for (int method = 0; method < 2; ++method) {
    NdemSettings ns;
    ns.time_step = 1e-3;
    ns.iterations = 30;
    ns.warm_start = NdemWarmStart::history;
    SdemSettings ss;
    ss.time_step = 1e-5;
    auto make = [&]() -> std::unique_ptr<Stepper> {
      if (method == 0) return std::make_unique<NdemStepper>(ns);
      return std::make_unique<SdemStepper>(ss);
    };
    const int before = method == 0 ? 450 : 45000, after = method == 0 ? 100 : 10000;
    World original = scene();
    auto s1 = make();
    for (int n = 0; n < before; ++n) s1->step(original);
    BOOST_TEST_MESSAGE("lid motor force " << original.bodies[1].motor_force << " N");
    BOOST_TEST_REQUIRE(original.bodies[1].motor_force < -0.1);  // the lid presses on the aggregate: non-trivial state
    const std::string saved = io::checkpoint_bytes(original);
    World restarted = io::world_from_checkpoint(saved);
    BOOST_TEST_REQUIRE(same_state(original, restarted));
    auto s2 = make();
    for (int n = 0; n < after; ++n) {
      s1->step(original);
      s2->step(restarted);
    }
    BOOST_TEST(same_state(original, restarted));
  }
}

BOOST_AUTO_TEST_SUITE_END()
