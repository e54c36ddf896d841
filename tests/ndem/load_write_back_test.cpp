// The NDEM write-back computes the rows' contact forces in parallel and adds them to the particles and
// walls in contact order: the loads must be the sums of a loop over the contacts, bit for bit, whatever
// the thread count. Sums in another order differ in the last bits (adding the rows in reverse order turns
// both checks red). Two threads add them per particle range, as the warm start's impulses.
#include <boost/test/unit_test.hpp>

#include <cstring>
#include <random>
#include <vector>

#include <tbb/global_control.h>

#include "core/scheduling_policy.hpp"
#include "tests/ndem/ndem_fixtures.hpp"

using namespace grainlab;
using namespace grainlab::ndem_test;

BOOST_AUTO_TEST_SUITE(ndem_load_write_back)

namespace {

// 16 layers of 24 x 24 pellets settling on the floor: particles (9216) and contacts (~19k) for four blocks of
// policy::ndem_row_block at least, so two threads split the rows and the particles, a task at times holding
// more than one block.
World pellet_layers() {
  World w = floor_world(pellet());
  const double d = pellet_d;
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> jitter(-0.02 * d, 0.02 * d);
  for (int k = 0; k < 16; ++k)
    for (int j = 0; j < 24; ++j)
      for (int i = 0; i < 24; ++i)
        w.add_sphere(Vec3(i * 0.999 * d + jitter(rng), j * 0.999 * d + jitter(rng), (k + 0.5) * 0.999 * d), d / 2, 0);
  BOOST_REQUIRE(w.particles.size() >= 4 * policy::ndem_row_block);
  return w;
}

NdemSettings history_warm_start() {
  NdemSettings s;
  s.warm_start = NdemWarmStart::history;
  return s;
}

}  // namespace

BOOST_AUTO_TEST_CASE(particle_and_wall_loads_add_in_contact_order) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
  World w = pellet_layers();
  const NdemSettings s = history_warm_start();
  NdemStepper ndem(s);
  for (int k = 0; k < 5; ++k) ndem.step(w);
  BOOST_REQUIRE(ndem.stats().contacts > 2 * policy::ndem_row_block);

  const ParticleStore& P = w.particles;
  std::vector<Vec3> force(P.size());
  for (std::size_t i = 0; i < P.size(); ++i) force[i] = P.mass[i] * w.gravity.at(w.time - s.time_step);
  Vec3 floor_load = Vec3::Zero();
  int contacts = 0;
  for (const Contact& c : w.contacts()) {
    if (!(c.overlap > 0)) continue;
    ++contacts;
    force[c.a] += c.force;
    if (c.is_wall()) {
      floor_load -= c.force;
    } else {
      force[c.b] -= c.force;
    }
  }
  BOOST_TEST(contacts == int(ndem.stats().contacts));
  BOOST_TEST(std::memcmp(force.data(), P.force.data(), force.size() * sizeof(Vec3)) == 0);
  BOOST_TEST(std::memcmp(floor_load.data(), w.walls[0].force.data(), sizeof(Vec3)) == 0);
}

// One and two threads give the same state, bit for bit: the history warm start's impulses and the loads
// are added per particle range on two threads, and the parallel loops run in fixed blocks, each through
// one out-of-line function. Red on 77cc598 (blocks as TBB's partitioner cut them), with fixed blocks
// inlined into TBB's loop (both: almost every velocity differs in the last bits after five steps), and
// when a range adds its rows in reverse order.
BOOST_AUTO_TEST_CASE(one_and_two_threads_give_the_same_state) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
  World one = pellet_layers(), two = pellet_layers();
  one.threads = 1;
  two.threads = 2;
  NdemStepper ndem_one(history_warm_start()), ndem_two(history_warm_start());
  for (int k = 0; k < 5; ++k) {
    ndem_one.step(one);
    ndem_two.step(two);
  }
  const std::size_t n = one.particles.size();
  BOOST_TEST(std::memcmp(one.particles.velocity.data(), two.particles.velocity.data(), n * sizeof(Vec3)) == 0);
  BOOST_TEST(std::memcmp(one.particles.position.data(), two.particles.position.data(), n * sizeof(Vec3)) == 0);
  BOOST_TEST(std::memcmp(one.particles.torque.data(), two.particles.torque.data(), n * sizeof(Vec3)) == 0);
}

BOOST_AUTO_TEST_SUITE_END()
