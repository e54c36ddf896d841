// Restart with the engine's SDEM stepper: step N, checkpoint, step M  vs  load the checkpoint into a
// fresh World and a fresh stepper, step M -> every saved array bitwise equal (issue 6, item 7), for
// both integrators.
#include <boost/test/unit_test.hpp>

#include "core/io/checkpoint.hpp"
#include "core/sdem/sdem_stepper.hpp"
#include "tests/io/toy_stepper.hpp"

using namespace grainlab;

namespace {

void restart_is_bitwise(SdemIntegrator integrator) {
  SdemSettings settings;
  settings.time_step = 2e-5;
  settings.integrator = integrator;
  World original = test::toy_world(9);  // 64 spheres settling in a box of planes, gravity ramp, conveyor floor
  for (Material& m : original.materials) m.rolling_friction = 0.05;  // rolling springs carry history too
  SdemStepper stepper(settings);
  for (int i = 0; i < 1500; ++i) stepper.step(original);
  const std::string saved = io::checkpoint_bytes(original);

  World restarted = io::world_from_checkpoint(saved);
  SdemStepper fresh(settings);  // a restarted program builds its stepper again from its settings
  // Velocity Verlet reuses last step's forces for its first half kick; they are in the checkpoint.
  if (integrator == SdemIntegrator::velocity_verlet) fresh.assume_forces_current(restarted);
  for (int i = 0; i < 1500; ++i) {
    stepper.step(original);
    fresh.step(restarted);
  }
  std::size_t persistent = 0;
  for (const Contact& c : original.contacts()) persistent += c.overlap > 0 && c.age > 10;
  BOOST_TEST(persistent > 10u);  // contacts with spring history took part
  BOOST_TEST(original.detector.stats().rebuilds > 1u);
  original.timers = {};  // wall-clock measurements, not state
  restarted.timers = {};
  BOOST_TEST((io::checkpoint_bytes(original) == io::checkpoint_bytes(restarted)));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sdem_restart)

BOOST_AUTO_TEST_CASE(symplectic_euler_restarts_bit_for_bit) { restart_is_bitwise(SdemIntegrator::symplectic_euler); }
BOOST_AUTO_TEST_CASE(velocity_verlet_restarts_bit_for_bit) { restart_is_bitwise(SdemIntegrator::velocity_verlet); }

BOOST_AUTO_TEST_SUITE_END()
