// Determinism across repeated runs and thread counts, settings validation, and the instability stop.
#include <boost/test/unit_test.hpp>

#include <algorithm>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include <tbb/global_control.h>

#include "core/error.hpp"
#include "core/sdem/sdem_stepper.hpp"
#include "core/world.hpp"

using namespace grainlab;

BOOST_AUTO_TEST_SUITE(sdem_robustness)

namespace {

Wall plane(const char* name, const Vec3& point, const Vec3& normal) {
  Wall w;
  w.name = name;
  w.shape = PlaneShape{point, normal};
  return w;
}

// A floor and four side walls around [0, L]^2.
void add_open_box(World& w, double L) {
  w.add_wall(plane("floor", Vec3::Zero(), Vec3::UnitZ()));
  w.add_wall(plane("x-", Vec3::Zero(), Vec3::UnitX()));
  w.add_wall(plane("x+", Vec3(L, 0, 0), -Vec3::UnitX()));
  w.add_wall(plane("y-", Vec3::Zero(), Vec3::UnitY()));
  w.add_wall(plane("y+", Vec3(0, L, 0), -Vec3::UnitY()));
}

// ~2500 polydisperse spheres falling into a box of five planes, with friction and rolling
// resistance: enough contacts to fill several TBB chunks.
World granular_bed() {
  World w;
  Material m;
  m.friction = 0.5;
  m.rolling_friction = 0.1;
  m.restitution = 0.5;
  w.add_material(m);
  add_open_box(w, 0.1);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> jitter(-0.0001, 0.0001), radius(0.0015, 0.0021);
  const double h = 0.0044;
  for (int k = 0; k < 12; ++k)
    for (int j = 0; j < 22; ++j)
      for (int i = 0; i < 22; ++i)
        if (w.particles.size() < 2500)
          w.add_sphere(Vec3(0.003 + h * i + jitter(rng), 0.003 + h * j + jitter(rng), 0.0025 + h * k + jitter(rng)), radius(rng), 0,
                       Vec3(jitter(rng) * 1000, jitter(rng) * 1000, -0.5 + jitter(rng) * 1000));
  return w;
}

/// Positions, velocities, angular velocities, orientation (w), and the tangential springs and forces of the
/// contacts;
/// `touching` counts the touching contacts.
std::vector<double> state_of(World& w, std::size_t* touching = nullptr) {
  std::vector<double> state;
  const auto& p = w.particles;
  for (std::size_t i = 0; i < p.size(); ++i) {
    for (int d = 0; d < 3; ++d) {
      state.push_back(p.position[i][d]);
      state.push_back(p.velocity[i][d]);
      state.push_back(p.angular_velocity[i][d]);
    }
    state.push_back(p.orientation[i].w());
  }
  for (std::size_t k = 0; k < w.contacts().size(); ++k) {
    const Contact& c = w.contacts()[k];
    for (int d = 0; d < 3; ++d) state.push_back(w.tangential_spring(k)[d]), state.push_back(c.force[d]);
    if (touching && c.overlap > 0) ++*touching;
  }
  return state;
}

/// `variant` 1: no rolling resistance (the lane kernel); 2: the same with the particle ids reversed, so
/// that the candidates (sorted by id) do not follow the particle indices and the stepper cannot fuse the
/// gather with the force stage (SdemStepper::build_schedule).
/// `regions` > 0 sets the regions of the fused force stage (SdemStepper::set_regions); `deferred` receives
/// how many regions left their late particles for the end of the stage.
/// `reference`: the stepper's plain reference path (SdemStepper::set_reference_path).
std::vector<double> run_bed(int threads, int steps, std::size_t* touching = nullptr, int variant = 0,
                            std::size_t regions = 0, std::uint64_t* deferred = nullptr, bool reverse_regions = false,
                            bool reference = false) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
  World w = granular_bed();
  if (variant > 0) w.materials[0].rolling_friction = 0;
  if (variant == 2) std::reverse(w.particles.id.begin(), w.particles.id.end());
  SdemSettings s;
  s.time_step = 2e-5;
  SdemStepper stepper(s);
  stepper.set_regions(regions, reverse_regions);
  stepper.set_reference_path(reference);
  for (int k = 0; k < steps; ++k) stepper.step(w);
  if (deferred) *deferred = stepper.deferred_regions();
  return state_of(w, touching);
}

bool bitwise_equal(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

}  // namespace

// Same inputs and thread count -> identical bits; every parallel loop writes disjoint slots and every
// per-particle sum runs in contact order, so 1 and 2 threads must agree bitwise as well.
BOOST_AUTO_TEST_CASE(deterministic_bed) {
  const int steps = 400;
  std::size_t touching = 0;
  const auto a1 = run_bed(1, steps, &touching), b1 = run_bed(1, steps);
  BOOST_TEST_MESSAGE("bed: " << touching << " touching contacts at the end");
  BOOST_TEST(touching > 1000u);  // a real granular state, not a free fall
  const auto a2 = run_bed(2, steps), b2 = run_bed(2, steps);
  BOOST_TEST(bitwise_equal(a1, b1));
  BOOST_TEST(bitwise_equal(a2, b2));
  BOOST_TEST(bitwise_equal(a1, a2));  // across thread counts too (documented in docs/sdem.md)
}

// The same for the lane kernel, and with ids that do not follow the particle order (the stepper then
// gathers after the whole force stage): that run differs from the first only in summation order and
// lane grouping, so it agrees to rounding amplified over the steps.
BOOST_AUTO_TEST_CASE(deterministic_bed_lanes_and_unordered_ids) {
  const int steps = 300;
  const auto lanes1 = run_bed(1, steps, nullptr, 1), lanes2 = run_bed(2, steps, nullptr, 1);
  const auto reversed1 = run_bed(1, steps, nullptr, 2), reversed2 = run_bed(2, steps, nullptr, 2);
  BOOST_TEST(bitwise_equal(lanes1, lanes2));
  BOOST_TEST(bitwise_equal(reversed1, reversed2));
  BOOST_REQUIRE(lanes1.size() > 2500u * 10);
  double worst = 0;  // positions and velocities of the particles (the first 10 values of each)
  for (std::size_t i = 0; i < 2500u * 10; ++i) worst = std::max(worst, std::abs(lanes1[i] - reversed1[i]));
  BOOST_TEST_MESSAGE("largest particle-state difference with reversed ids: " << worst);
  BOOST_TEST(worst < 1e-8);
}

// The schedule of the fused force stage orders work, it does not change results: one region against
// seven regions, on one thread, on one thread in reverse order (every region but the first finds the
// earlier ones not yet signalled and leaves its late particles for the end of the stage), and on two
// threads (where a region may find the signals mid-way).
BOOST_AUTO_TEST_CASE(regions_change_nothing) {
  const int steps = 200;
  std::uint64_t deferred_in_order = 0, deferred_reversed = 0, deferred_two_threads = 0;
  const auto one = run_bed(1, steps, nullptr, 1, 1);
  const auto seven = run_bed(1, steps, nullptr, 1, 7, &deferred_in_order);
  const auto reversed = run_bed(1, steps, nullptr, 1, 7, &deferred_reversed, true);
  const auto seven2 = run_bed(2, steps, nullptr, 1, 7, &deferred_two_threads);
  BOOST_TEST(bitwise_equal(one, seven));
  BOOST_TEST(bitwise_equal(one, reversed));
  BOOST_TEST(bitwise_equal(one, seven2));
  BOOST_TEST(deferred_in_order == 0u);
  BOOST_TEST(deferred_reversed > 0u);  // at most 6 a step: those regions among 1-6 that have late particles
  BOOST_TEST(deferred_reversed <= 6u * steps);
  BOOST_TEST_MESSAGE("regions deferred with two threads: " << deferred_two_threads << " in " << steps << " steps");
}

// The fused force stage (regions, blocks, rings, crossing candidates first, the integration inside the
// gather) against the plain path that runs the stages one after another over everything: bitwise the
// same, with the scalar kernel (rolling resistance), the lane kernel, unordered ids, and two threads.
BOOST_AUTO_TEST_CASE(fused_path_matches_the_reference_path) {
  const int steps = 200;
  for (int variant : {0, 1, 2}) {
    const auto reference = run_bed(1, steps, nullptr, variant, 0, nullptr, false, true);
    const auto fused = run_bed(1, steps, nullptr, variant, 7);
    const auto fused2 = run_bed(2, steps, nullptr, variant);
    BOOST_TEST(bitwise_equal(reference, fused), "variant " << variant);
    BOOST_TEST(bitwise_equal(reference, fused2), "variant " << variant << ", two threads");
  }
}

// Pair wrenches that only their own region reads share a ring of slots per region
// (SdemStepper::set_wrench_ring): a slot is taken again only once both particles of the group that held it
// are gathered. Bitwise the same as a slot per candidate: with a ring of the default size (every full
// group of the one region in it); with rings of 256 and 16 groups, smaller than a block's groups, where
// only groups whose particles are gathered soon enough go in (the 256 ring takes more groups than it holds,
// so its slots are reused); with two regions on two threads (a ring each); and with two regions in reverse
// order on one thread, where the second region's late particles are gathered at the end of the stage
// (their groups must keep slots of their own).
BOOST_AUTO_TEST_CASE(wrench_ring_changes_nothing) {
  struct Run {
    std::vector<double> state;
    std::size_t ring_groups, full_groups;
  };
  auto run = [](std::size_t ring, std::size_t regions, int threads, bool reverse = false) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
    World w = granular_bed();
    w.materials[0].rolling_friction = 0;  // rolling resistance keeps every wrench in a slot of its own
    SdemSettings s;
    s.time_step = 2e-5;
    SdemStepper stepper(s);
    stepper.set_regions(regions, reverse);
    stepper.set_wrench_ring(ring);
    for (int k = 0; k < 400; ++k) stepper.step(w);
    BOOST_TEST_MESSAGE("ring of " << ring << " groups, " << regions << " regions: " << stepper.ring_groups_used()
                                  << " of " << w.pair_contact_count() / 4 << " lane groups in rings");
    return Run{state_of(w), stepper.ring_groups_used(), w.pair_contact_count() / 4};
  };
  const Run own = run(0, 1, 1), full = run(8192, 1, 1), small = run(256, 1, 1), tiny = run(16, 1, 1), two = run(256, 2, 2),
            reversed = run(8192, 2, 1, true);
  BOOST_TEST(own.ring_groups == 0u);
  BOOST_TEST(full.ring_groups == full.full_groups);
  BOOST_TEST(small.ring_groups > 256u);
  BOOST_TEST(tiny.ring_groups > 0u);
  BOOST_TEST(two.ring_groups > 0u);
  BOOST_TEST(reversed.ring_groups > 0u);
  for (const Run* r : {&full, &small, &tiny, &two, &reversed}) BOOST_TEST(bitwise_equal(own.state, r->state));
}

// Few particle species (two radii, two materials, fixed particles on the floor): the stepper shares the
// candidate constants by species pair (SdemCandidateConstants::row_of). Bitwise the same as constants per
// candidate, with 1 and 2 threads.
BOOST_AUTO_TEST_CASE(shared_constants_change_nothing) {
  auto run = [](std::size_t max_species, int threads) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
    World w;
    Material m;
    m.friction = 0.5;
    m.restitution = 0.5;
    w.add_material(m);
    m.friction = 0.3;
    w.add_material(m);
    add_open_box(w, 0.06);
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> jitter(-0.0002, 0.0002);
    for (int k = 0; k < 8; ++k)
      for (int j = 0; j < 12; ++j)
        for (int i = 0; i < 12; ++i) {
          const std::size_t n = w.add_sphere(Vec3(0.003 + 0.0045 * i + jitter(rng), 0.003 + 0.0045 * j + jitter(rng), 0.0022 + 0.0045 * k),
                                             (i + j) % 2 ? 0.0018 : 0.0021, std::uint16_t((i + k) % 2), Vec3(0, 0, -0.3));
          if (k == 0 && i % 3 == 0) w.particles.fix(n);
        }
    SdemSettings s;
    s.time_step = 2e-5;
    SdemStepper stepper(s);
    stepper.set_max_species(max_species);
    for (int step = 0; step < 400; ++step) stepper.step(w);
    BOOST_TEST(stepper.shares_constants() == (max_species == 16));
    std::vector<double> state;
    for (std::size_t i = 0; i < w.particles.size(); ++i)
      for (int d = 0; d < 3; ++d) state.push_back(w.particles.position[i][d]), state.push_back(w.particles.angular_velocity[i][d]);
    std::size_t touching = 0;
    for (const Contact& c : w.contacts()) touching += c.overlap > 0;
    BOOST_TEST(touching > 500u);
    return state;
  };
  const auto shared1 = run(16, 1), shared2 = run(16, 2), own = run(0, 1), too_few = run(5, 2);
  BOOST_TEST(bitwise_equal(shared1, own));
  BOOST_TEST(bitwise_equal(shared2, own));
  BOOST_TEST(bitwise_equal(too_few, own));  // more than 5 species: constants per candidate
}

// The stepper keeps no hidden state that changes results (its pair table and adjacency are derived):
// a copy of the World taken mid-run, continued by a *new* SdemStepper, matches the original run bit
// for bit (what a checkpoint/restart of the World relies on; symplectic Euler).
BOOST_AUTO_TEST_CASE(new_stepper_continues_bitwise) {
  World a = granular_bed();
  SdemSettings s;
  s.time_step = 2e-5;
  SdemStepper first(s);
  for (int k = 0; k < 150; ++k) first.step(a);
  World b = a;  // "restart" from the full state
  SdemStepper second(s);
  for (int k = 0; k < 150; ++k) {
    first.step(a);
    second.step(b);
  }
  const auto& p = a.particles;
  const auto& q = b.particles;
  bool same = p.size() == q.size();
  for (std::size_t i = 0; same && i < p.size(); ++i)
    same = p.position[i] == q.position[i] && p.velocity[i] == q.velocity[i] && p.angular_velocity[i] == q.angular_velocity[i] &&
           p.orientation[i].coeffs() == q.orientation[i].coeffs();
  BOOST_TEST(same);
}

BOOST_AUTO_TEST_CASE(bad_settings_throw) {
  auto throws_naming = [](SdemSettings s, const char* name) {
    try {
      SdemStepper stepper(s);
    } catch (const InputError& e) {
      return std::string(e.what()).find(name) != std::string::npos;
    }
    return false;
  };
  SdemSettings s;
  s.time_step = 0;
  BOOST_TEST(throws_naming(s, "time_step"));
  s.time_step = -1e-5;
  BOOST_TEST(throws_naming(s, "time_step"));
  s.time_step = std::numeric_limits<double>::quiet_NaN();
  BOOST_TEST(throws_naming(s, "time_step"));
  s = SdemSettings{};
  s.normal_law = SdemNormalLaw::linear;
  BOOST_TEST(throws_naming(s, "linear_stiffness"));
  s = SdemSettings{};
  s.tangential_stiffness_factor = 0;
  BOOST_TEST(throws_naming(s, "tangential_stiffness_factor"));
  s = SdemSettings{};
  s.tangential_damping_ratio = -0.1;
  BOOST_TEST(throws_naming(s, "tangential_damping_ratio"));
  s = SdemSettings{};
  s.viscosity = std::numeric_limits<double>::infinity();
  BOOST_TEST(throws_naming(s, "viscosity"));
  s = SdemSettings{};
  s.stability_check_interval = -1;
  BOOST_TEST(throws_naming(s, "stability_check_interval"));
}

// A time step 20x the contact time: the sphere sinks deep into the plane before any force acts and is
// then shot out; the stability check must stop the run with InstabilityError naming the step.
BOOST_AUTO_TEST_CASE(unstable_run_throws) {
  World w;
  w.add_material(Material{});
  w.add_wall(plane("floor", Vec3::Zero(), Vec3::UnitZ()));
  w.add_sphere(Vec3(0, 0, 0.0051), 0.005, 0, Vec3(0, 0, -2.0));
  SdemSettings s;
  s.time_step = 20 * sdem_contact_time(w.materials[0], 0.005, w.materials[0], 0.0, 2.0);
  s.stability_check_interval = 1;
  SdemStepper stepper(s);
  bool thrown = false;
  try {
    for (int k = 0; k < 100; ++k) stepper.step(w);
  } catch (const InstabilityError& e) {
    thrown = true;
    BOOST_TEST_MESSAGE(e.what());
    BOOST_TEST(e.step >= 1u);
    BOOST_TEST(std::string(e.what()).find("step") != std::string::npos);
  }
  BOOST_TEST(thrown);
}

BOOST_AUTO_TEST_SUITE_END()
