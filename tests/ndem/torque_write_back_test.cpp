// The NDEM write-back reports each particle's torque with the lever arms the solve used: over one step a
// free sphere's angular momentum changes by exactly Dt times its reported torque (no other torque acts
// on a sphere), I (w_{i+1} - w_i) = Dt tau. Sliding spheres make the check sensitive to the lever: a
// lever taken from the advanced centre x_{i+1} = x_i + Dt v adds Dt v x f, here 16-21 % of the torque.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <vector>

#include "tests/bodies/bodies_fixtures.hpp"

using namespace grainlab;
using namespace grainlab::bodies_test;

namespace {

NdemSettings sliding_settings() {
  NdemSettings s;
  s.time_step = 1e-3;
  s.iterations = 50;
  return s;
}

// Largest |I dw - Dt tau| over the free spheres `checked` and `steps` steps, relative to the largest
// |Dt tau| (a sphere that leaves its contact has tau = 0 and dw = 0).
double worst_torque_balance(World& w, NdemStepper& stepper, const std::vector<std::size_t>& checked, int steps) {
  const double dt = stepper.settings().time_step;
  double worst = 0, largest = 0;
  for (int n = 0; n < steps; ++n) {
    std::vector<Vec3> w0;
    for (std::size_t i : checked) w0.push_back(w.particles.angular_velocity[i]);
    stepper.step(w);
    for (std::size_t k = 0; k < checked.size(); ++k) {
      const std::size_t i = checked[k];
      const Vec3 impulse = dt * w.particles.torque[i];
      const Vec3 dl = w.particles.inertia[i] * (w.particles.angular_velocity[i] - w0[k]);
      worst = std::max(worst, (dl - impulse).norm());
      largest = std::max(largest, impulse.norm());
    }
  }
  BOOST_REQUIRE(largest > 0);
  return worst / largest;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ndem_torque_write_back)

// Sphere rows: a sphere sliding on the floor (wall contact, the sphere is side a) under a sphere sliding
// the other way (particle contact, one sphere on each side). Rounding leaves <= 1e-15; 1e-9 fails for any
// lever other than the solve's.
BOOST_AUTO_TEST_CASE(sphere_rows_balance_angular_momentum) {
  World w = empty_world();
  add_floor(w);
  const double overlap = 1e-6;
  const std::size_t lower = w.add_sphere(Vec3(0, 0, radius - overlap), radius, 0, Vec3(1, 0, 0));
  const std::size_t upper = w.add_sphere(Vec3(0, 0, 3 * radius - 2 * overlap), radius, 0, Vec3(-1, 0, 0));
  NdemStepper stepper(sliding_settings());
  const double worst = worst_torque_balance(w, stepper, {lower, upper}, 5);
  BOOST_TEST_MESSAGE("sphere rows: worst |I dw - Dt tau| / |Dt tau| = " << worst);
  BOOST_TEST(worst < 1e-9);
}

// Body rows: a free sphere sliding on a member of a dumbbell resting on the floor; the free sphere on
// either side of the contact (added before or after the body's members).
BOOST_AUTO_TEST_CASE(body_rows_balance_angular_momentum_of_free_spheres) {
  for (bool sphere_first : {true, false}) {
    World w = empty_world();
    add_floor(w);
    const double overlap = 1e-6;
    const Vec3 top(-radius, 0, 3 * radius - overlap);
    std::size_t free = 0;
    if (sphere_first) free = w.add_sphere(top, radius, 0, Vec3(1, 0.3, 0));
    const std::size_t a = w.add_sphere(Vec3(-radius, 0, radius), radius, 0);
    const std::size_t b = w.add_sphere(Vec3(radius, 0, radius), radius, 0);
    if (!sphere_first) free = w.add_sphere(top, radius, 0, Vec3(1, 0.3, 0));
    form_body(w, {a, b});
    NdemStepper stepper(sliding_settings());
    const double worst = worst_torque_balance(w, stepper, {free}, 5);
    BOOST_TEST_MESSAGE("body rows, free sphere " << (sphere_first ? "first" : "last") << ": worst " << worst);
    BOOST_TEST(worst < 1e-9);
  }
}

BOOST_AUTO_TEST_SUITE_END()
