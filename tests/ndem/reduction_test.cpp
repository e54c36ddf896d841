// Adaptive model reduction (Paper V; core/ndem/reduction.hpp): momentum through merge (P5-C12) and split
// (P5-C13, bit for bit), re-merging after over-splitting (C14), the limits of h (C15), the floor load of a
// resting aggregate, contact split on impact but not on a gentle touch, and a checkpoint round trip.
#include <boost/test/unit_test.hpp>

#include <cmath>

#include "core/bodies.hpp"
#include "core/error.hpp"
#include "core/io/checkpoint.hpp"
#include "core/io/vtk_writer.hpp"
#include "core/ndem/aggregates.hpp"
#include "core/ndem/ndem_stepper.hpp"
#include "experiments/paper5_scenes.hpp"

using namespace grainlab;

namespace {

double rel(const Vec3& a, const Vec3& b) { return (a - b).norm() / std::max(b.norm(), 1e-300); }

NdemSettings reducing(int iterations = 50) {
  NdemSettings s = paper5_ndem_settings(iterations);
  s.reduction.enabled = true;
  return s;
}

// A cluster of touching spheres with different velocities and spins (a merge that changes them).
World moving_cluster() {
  World w;
  w.gravity.g = Vec3::Zero();
  w.add_material(paper5_material());
  const double r = 0.0065;
  w.add_sphere(Vec3(0.00, 0.00, 0.10), r, 0, Vec3(0.10, 0.02, -0.03), Vec3(1.0, -2.0, 0.5));
  w.add_sphere(Vec3(0.0129, 0.00, 0.10), r, 0, Vec3(-0.05, 0.04, 0.01), Vec3(-3.0, 0.2, 1.0));
  w.add_sphere(Vec3(0.00645, 0.0095, 0.10), 0.005, 0, Vec3(0.02, -0.07, 0.05), Vec3(0.0, 4.0, -1.0));  // touches both
  return w;
}

// Settles a block with the stepper until the largest speed is below v_rest (at most max_steps).
void settle(World& w, NdemStepper& s, int max_steps, double v_rest = 1e-3) {
  for (int k = 0; k < max_steps; ++k) {
    s.step(w);
    double vmax = 0;
    for (const Vec3& v : w.particles.velocity) vmax = std::max(vmax, v.norm());
    if (k > 10 && vmax < v_rest) return;
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ndem_reduction)

BOOST_AUTO_TEST_CASE(merge_conserves_linear_and_angular_momentum_with_own_inertia_and_spin) {  // P5-C12
  World w = moving_cluster();
  const Vec3 o(0.3, -0.2, 0.1);
  const Vec3 p0 = total_linear_momentum(w), L0 = total_angular_momentum(w, o);
  form_aggregate(w, {0, 1, 2}, /*drive_members=*/true);
  BOOST_TEST(is_aggregate(w, 0));
  BOOST_TEST(rel(total_linear_momentum(w), p0) < 1e-12);
  BOOST_TEST(rel(total_angular_momentum(w, o), L0) < 1e-12);
  // The members now move rigidly: summing over the particles gives the same momenta.
  Vec3 p = Vec3::Zero(), L = Vec3::Zero();
  const ParticleStore& P = w.particles;
  for (std::size_t i = 0; i < P.size(); ++i) {
    p += P.mass[i] * P.velocity[i];
    L += P.mass[i] * (P.position[i] - o).cross(P.velocity[i]) + P.inertia[i] * P.angular_velocity[i];
  }
  BOOST_TEST(rel(p, p0) < 1e-12);
  BOOST_TEST(rel(L, L0) < 1e-12);
}

BOOST_AUTO_TEST_CASE(printed_eq_9_10_without_own_inertia_and_spin_lose_angular_momentum) {  // C12's perturbation
  const World w = moving_cluster();
  const ParticleStore& P = w.particles;
  double m = 0;
  Vec3 x = Vec3::Zero(), pm = Vec3::Zero();
  for (std::size_t i = 0; i < 3; ++i) {
    m += P.mass[i];
    x += P.mass[i] * P.position[i];
    pm += P.mass[i] * P.velocity[i];
  }
  x /= m;
  const Vec3 v = pm / m;
  Mat3 I = Mat3::Zero();
  Vec3 l = Vec3::Zero();
  for (std::size_t i = 0; i < 3; ++i) {  // Eq. 9 and 10 as printed (000 l.1909-1911)
    const Vec3 r = P.position[i] - x;
    I += P.mass[i] * (r.squaredNorm() * Mat3::Identity() - r * r.transpose());
    l += P.mass[i] * r.cross(P.velocity[i] - v);
  }
  const Vec3 omega = I.inverse() * l;
  Mat3 I_true = I;
  Vec3 L_true = l;
  for (std::size_t i = 0; i < 3; ++i) {
    I_true += P.inertia[i] * Mat3::Identity();
    L_true += P.inertia[i] * P.angular_velocity[i];
  }
  // The aggregate's true angular momentum about x with that omega differs from the particles' by > 10 %.
  BOOST_TEST(rel(I_true * omega, L_true) > 0.1);
}

BOOST_AUTO_TEST_CASE(split_only_relabels_the_state_is_bitwise_unchanged) {  // P5-C13
  World w = moving_cluster();
  form_aggregate(w, {0, 1, 2}, true);
  NdemSettings s = reducing();
  ReductionSensor sensor;  // covers particle 0 only
  sensor.center = w.particles.position[0] - Vec3(0.01, 0, 0);
  sensor.half_extent = Vec3(0.005, 0.005, 0.005);
  s.reduction.sensors = {sensor};
  s.reduction.contact_split = false;
  w.detect_contacts();
  const ParticleStore before = w.particles;
  NdemReducer reducer(s.reduction, s.time_step);
  reducer.begin_step();
  BOOST_TEST(reducer.split(w) == 1u);
  BOOST_TEST(reducer.stats().split_sensor == 1u);
  const ParticleStore& P = w.particles;
  BOOST_TEST(P.body[0] == -1);
  BOOST_TEST(P.body[1] == 0);
  BOOST_TEST(P.body[2] == 0);
  bool same = true;
  for (std::size_t i = 0; i < P.size(); ++i)
    same = same && P.position[i] == before.position[i] && P.velocity[i] == before.velocity[i] &&
           P.angular_velocity[i] == before.angular_velocity[i] && P.orientation[i].coeffs() == before.orientation[i].coeffs();
  BOOST_TEST(same);
  // Contact between the freed particle and the rest is back in the solver (geometry restored).
  bool unmasked = false;
  for (std::size_t k = 0; k < w.pair_contact_count(); ++k) {
    const Contact& c = w.contacts()[k];
    if ((c.a == 0 || c.b == 0) && c.overlap > 0) unmasked = true;
  }
  BOOST_TEST(unmasked);
}

BOOST_AUTO_TEST_CASE(h_is_zero_fully_resolved_and_one_minus_one_over_n_for_one_body) {  // P5-C15
  World w = paper5_block_world({3, 3, 3});
  NdemReducer reducer(reducing().reduction, 0.005);
  BOOST_TEST(reducer.finish_step(w, 0).level == 0.0);
  BOOST_TEST(reducer.finish_step(w, 0).level_dof == 0.0);
  std::vector<std::size_t> all(w.particles.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  form_aggregate(w, all, true);
  const ReductionStats& st = reducer.finish_step(w, 0);
  BOOST_TEST(st.aggregates == 1u);
  BOOST_TEST(st.free_particles == 0u);
  BOOST_TEST(st.level == 1.0 - 1.0 / 27.0, boost::test_tools::tolerance(1e-15));
  BOOST_TEST(st.level_free_only == 1.0);
  BOOST_TEST(st.level_dof == 1.0 - 1.0 / 27.0, boost::test_tools::tolerance(1e-15));
}

BOOST_AUTO_TEST_CASE(resting_block_merges_and_over_splitting_re_merges_within_ten_steps) {  // P5-C14
  World w = paper5_block_world({4, 4, 4});
  NdemStepper s(reducing());
  settle(w, s, 200);
  for (int k = 0; k < 20; ++k) s.step(w);
  const double h_rest = s.stats().reduction.level;
  BOOST_TEST_MESSAGE("resting block h = " << h_rest);
  BOOST_TEST(h_rest > 0.8);
  std::vector<char> all(w.bodies.size(), 1);
  release_aggregates(w, all);  // split everything
  BOOST_TEST(w.bodies.empty());
  int steps = 0;
  for (; steps < 10; ++steps) {
    s.step(w);
    if (s.stats().reduction.level >= 0.9 * h_rest) break;
  }
  BOOST_TEST_MESSAGE("re-merged in " << steps + 1 << " steps, h = " << s.stats().reduction.level);
  BOOST_TEST(s.stats().reduction.level >= 0.9 * h_rest);
}

// A sensor marks a region that stays refined: particles in it are freed and do not re-merge in the same step
// (without that rule the freed particles move rigidly with their neighbours through the solve and re-merge).
BOOST_AUTO_TEST_CASE(particles_in_a_sensor_stay_free_while_the_rest_stays_merged) {
  World w = paper5_block_world({4, 4, 4});
  NdemStepper settling(reducing());
  settle(w, settling, 200);
  double top = -1e300, bottom = 1e300;
  for (const Vec3& x : w.particles.position) {
    top = std::max(top, x.z());
    bottom = std::min(bottom, x.z());
  }
  NdemSettings with_sensor = reducing();
  ReductionSensor sensor;  // a slab around the top layer's centres
  sensor.center = Vec3(0, 0, top);
  sensor.half_extent = Vec3(1, 1, 0.25 * (top - bottom) / 3);
  with_sensor.reduction.sensors = {sensor};
  NdemStepper s(with_sensor);
  for (int k = 0; k < 5; ++k) s.step(w);
  std::size_t in_sensor = 0, merged_in_sensor = 0;
  for (std::size_t i = 0; i < w.particles.size(); ++i)
    if (sensor.contains(w.particles.position[i])) {
      ++in_sensor;
      if (w.particles.body[i] >= 0) ++merged_in_sensor;
    }
  BOOST_TEST(in_sensor > 0u);
  BOOST_TEST(merged_in_sensor == 0u);
  BOOST_TEST(s.stats().reduction.level > 0.3);  // the layers below the sensor stay merged
}

BOOST_AUTO_TEST_CASE(resting_aggregate_loads_the_floor_with_its_weight) {
  World w = paper5_block_world({3, 3, 3});
  NdemStepper s(reducing());
  settle(w, s, 200);
  for (int k = 0; k < 20; ++k) s.step(w);
  BOOST_TEST(s.stats().reduction.aggregates >= 1u);
  double m = 0;
  for (double mi : w.particles.mass) m += mi;
  const double load = -w.walls[0].force.z();  // the force the particles exert on the floor, downwards
  BOOST_TEST(load == m * 9.81, boost::test_tools::tolerance(0.02));
}

BOOST_AUTO_TEST_CASE(aggregate_splits_when_hit_fast_and_not_when_touched_gently) {
  for (const double speed : {1.0, 0.01}) {  // m/s: above and below xi_nv^{i-c} = 0.15 m/s
    World w = paper5_block_world({3, 3, 2});
    NdemStepper s(reducing());
    settle(w, s, 200);
    for (int k = 0; k < 10; ++k) s.step(w);
    BOOST_TEST_REQUIRE(s.stats().reduction.free_particles == 0u);
    // A particle just touching the top of the block, moving down at `speed`.
    const double d = 0.013;
    double top = 0;
    for (const Vec3& x : w.particles.position) top = std::max(top, x.z());
    w.add_sphere(Vec3(1.5 * d, 1.5 * d, top + d * 0.9995), d / 2, 0, Vec3(0, 0, -speed));
    s.step(w);
    const ReductionStats& st = s.stats().reduction;
    BOOST_TEST_MESSAGE("impact at " << speed << " m/s: split_contact = " << st.split_contact);
    if (speed > 0.15) BOOST_TEST(st.split_contact > 0u);
    else BOOST_TEST(st.split_contact == 0u);
  }
}

BOOST_AUTO_TEST_CASE(checkpoint_round_trip_with_aggregates_is_bitwise) {
  World w = paper5_block_world({3, 3, 3});
  NdemStepper s(reducing());
  settle(w, s, 100);
  BOOST_TEST_REQUIRE(!w.bodies.empty());
  const std::string bytes = io::checkpoint_bytes(w);
  for (int k = 0; k < 20; ++k) s.step(w);
  World r = io::world_from_checkpoint(bytes);
  NdemStepper s2(reducing());
  for (int k = 0; k < 20; ++k) s2.step(r);
  bool same = r.particles.size() == w.particles.size() && r.bodies.size() == w.bodies.size();
  for (std::size_t i = 0; same && i < w.particles.size(); ++i)
    same = r.particles.position[i] == w.particles.position[i] && r.particles.velocity[i] == w.particles.velocity[i] &&
           r.particles.body[i] == w.particles.body[i];
  BOOST_TEST(same);
}

BOOST_AUTO_TEST_CASE(trial_split_keeps_a_resting_aggregate_and_frees_one_losing_its_support) {
  for (const bool remove_floor : {false, true}) {
    World w = paper5_block_world({3, 3, 2});
    NdemSettings s = reducing();
    s.reduction.trial_split = true;  // N_it^tr = 50, force balance xi_f^tr = 0.25
    NdemStepper stepper(s);
    settle(w, stepper, 200);
    for (int k = 0; k < 10; ++k) stepper.step(w);
    BOOST_TEST_REQUIRE(stepper.stats().reduction.free_particles == 0u);
    if (remove_floor) w.walls[0].shape = PlaneShape{Vec3(0, 0, -1.0), Vec3::UnitZ()};  // the floor drops away
    stepper.step(w);
    const ReductionStats& st = stepper.stats().reduction;
    BOOST_TEST_MESSAGE("floor removed " << remove_floor << ": split_trial = " << st.split_trial);
    if (remove_floor) BOOST_TEST(st.split_trial == w.particles.size());
    else BOOST_TEST(st.split_trial == 0u);
  }
}

BOOST_AUTO_TEST_CASE(placement_variants_run_and_reduce_a_resting_block) {  // C54, C55 ablations
  for (const bool after : {false, true}) {
    World w = paper5_block_world({3, 3, 3});
    NdemSettings s = reducing();
    if (after) {
      s.reduction.merge_placement = MergePlacement::after_position_update;
      s.reduction.split_placement = SplitPlacement::after_impact;
    }
    NdemStepper stepper(s);
    settle(w, stepper, 200);
    for (int k = 0; k < 20; ++k) stepper.step(w);
    BOOST_TEST_MESSAGE("after-placements " << after << ": h = " << stepper.stats().reduction.level << " free "
                       << stepper.stats().reduction.free_particles << " aggregates " << stepper.stats().reduction.aggregates);
    BOOST_TEST(stepper.stats().reduction.level > 0.5);
  }
}

BOOST_AUTO_TEST_CASE(reduction_is_deterministic) {
  auto run = [] {
    World w = paper5_block_world({4, 4, 3});
    NdemSettings s = reducing();
    s.reduction.trial_split = true;
    NdemStepper stepper(s);
    for (int k = 0; k < 120; ++k) stepper.step(w);
    return w.particles.position;
  };
  BOOST_TEST((run() == run()));
}

BOOST_AUTO_TEST_CASE(vtk_snapshot_names_the_aggregate_of_each_particle) {
  World w = moving_cluster();
  io::VtkOptions o;
  o.encoding = io::VtkEncoding::ascii;
  BOOST_TEST(io::vtp_document(w, o).find("Name=\"body\"") == std::string::npos);  // no bodies: as before
  form_aggregate(w, {0, 1}, true);
  const std::string doc = io::vtp_document(w, o);
  const auto at = doc.find("Name=\"body\"");
  BOOST_TEST_REQUIRE(at != std::string::npos);
  const auto values = doc.find('>', at) + 1;
  BOOST_TEST(doc.substr(values, doc.find('<', values) - values).find("0 0 -1") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(rain_on_a_reduced_block_keeps_the_labels_consistent) {
  for (const bool trial : {false, true}) {  // c and ctr
    World w = paper5_block_world({4, 4, 3});
    NdemSettings s = reducing();
    s.reduction.trial_split = trial;
    NdemStepper stepper(s);
    settle(w, stepper, 200);
    std::size_t splits = 0, merged = 0;
    for (int k = 0; k < 300; ++k) {
      if (k % 10 == 0)  // a sphere from 5 cm above the block every 50 ms
        w.add_sphere(Vec3(0.013 + 0.026 * std::fmod(0.37 * k, 1.0), 0.013 + 0.026 * std::fmod(0.61 * k, 1.0), 0.09),
                     0.0065, 0);
      stepper.step(w);
      splits += stepper.stats().reduction.split_contact + stepper.stats().reduction.split_trial;
      merged += stepper.stats().reduction.merged;
    }
    BOOST_TEST_MESSAGE("trial " << trial << ": freed " << splits << ", merged " << merged << ", h = "
                                << stepper.stats().reduction.level);
    BOOST_TEST(splits > 0u);
    BOOST_TEST(merged > 0u);
    const ParticleStore& P = w.particles;
    bool consistent = true;
    for (std::size_t k = 0; k < w.bodies.size(); ++k)
      for (const BodyMember& m : w.bodies[k].members)
        consistent = consistent && P.body[std::size_t(m.index)] == std::int32_t(k) &&
                     (P.flags[std::size_t(m.index)] & particle_aggregated);
    for (std::size_t i = 0; i < P.size(); ++i) consistent = consistent && (P.body[i] >= 0) == bool(P.flags[i] & particle_aggregated);
    BOOST_TEST(consistent);
    double zmax = 0;
    for (const Vec3& x : P.position) zmax = std::max(zmax, x.z());
    BOOST_TEST(zmax < 0.1);  // nothing blew up
  }
}

BOOST_AUTO_TEST_CASE(merge_with_walls_is_refused_with_the_parameter_named) {
  NdemSettings s = reducing();
  s.reduction.merge_with_walls = true;
  BOOST_CHECK_THROW(NdemStepper{s}, InputError);
}

BOOST_AUTO_TEST_SUITE_END()
