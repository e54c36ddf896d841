// The contact list of ContactDetector equals, field by field and bit for bit, a straightforward
// reference construction of its documented semantics (core/collision.hpp), step after step:
//  - at a rebuild (first call, or a particle moved more than skin/2 since the last one): all pairs
//    i < j (indices) with |x_i - x_j| <= r_i + r_j + skin found by brute force, sorted by key, history
//    carried by key from the previous candidates; between rebuilds the previous candidates in place;
//  - pair geometry recomputed and the history of separated pairs reset;
//  - then the touching wall contacts (overlap > 0) of every particle with every wall through
//    collide_sphere, sorted by key (stable), history carried by key from last step's wall contacts.
// The scenes move the particles randomly (small steps and, now and then, jumps that force a rebuild),
// stamp distinct history values on every contact (and on its kept model history) between steps, and cover static planes (candidate
// lists) alone or with a moving plane, a polygonal cylinder with several features per particle, permuted ids
// (the ids no longer follow the particle order), periodic axes with 1, 2 and many cells, and 1 and 2
// threads. The comparison is exact (==): the detector must construct the same list, not a close one.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <limits>
#include <numeric>
#include <random>
#include <span>

#include <tbb/global_control.h>

#include "core/world.hpp"

using namespace grainlab;

namespace {

struct SceneSpec {
  int n = 600;
  double box = 0.1;       ///< particles in [0, box]^3
  int periodic_axis = -1;  ///< periodic along x over [0, box) when 0
  bool permute_ids = false;
  bool cylinder = false;   ///< add a hexagonal capped cylinder (several features per particle)
  bool moving_plane = true;  ///< add a moving plane (else only static planes: their candidate lists alone)
  bool tangential = true, springs = true, multipliers = true;  ///< the model history columns the World keeps
  bool angular = true;                      ///< with multipliers: the angular multipliers too
};

/// A contact of the reference list with its model history (zero where the World keeps none).
struct Entry {
  Contact c;
  TangentialSpringHistory t;
  SpringHistory s;
  MultiplierHistory m;
  AngularMultiplierHistory am;
};

World make_scene(const SceneSpec& s, unsigned seed) {
  World w;
  w.add_material(Material{});
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, s.box), r(0.002, 0.005);
  for (int i = 0; i < s.n; ++i) w.add_sphere(Vec3(u(rng), u(rng), u(rng)), r(rng), 0);
  if (s.permute_ids) {
    std::vector<std::uint32_t> ids(w.particles.id);
    std::shuffle(ids.begin(), ids.end(), rng);
    w.particles.id = ids;
  }
  w.collision.skin = 0.0005;
  if (s.tangential) w.keep_tangential_springs();
  if (s.springs) w.keep_springs();
  if (s.multipliers) w.keep_multipliers();
  if (s.multipliers && s.angular) w.keep_angular_multipliers();
  if (s.periodic_axis >= 0) {
    w.collision.set_periodic(s.periodic_axis, 0, s.box);
  }
  auto plane = [&](Vec3 point, Vec3 normal, Vec3 velocity) {
    Wall wall;
    wall.shape = PlaneShape{point, normal};
    wall.velocity = velocity;
    w.add_wall(std::move(wall));
  };
  plane(Vec3(0, 0, 0.2 * s.box), Vec3::UnitZ(), Vec3::Zero());                 // static: candidate lists
  if (s.moving_plane) plane(Vec3(0, 0.8 * s.box, 0), -Vec3::UnitY(), Vec3(0, -0.01, 0));  // moving: every particle
  plane(Vec3(0, 0, 0.75 * s.box), -Vec3::UnitZ(), Vec3::Zero());
  if (s.periodic_axis != 0) plane(Vec3(0.85 * s.box, 0, 0), -Vec3::UnitX(), Vec3::Zero());
  if (s.cylinder) {
    CylinderShape c;
    c.center = Vec3(0.5 * s.box, 0.5 * s.box, 0.5 * s.box);
    c.radius = 0.42 * s.box;
    c.length = 0.9 * s.box;
    c.cap_lo = c.cap_hi = true;
    c.polygon_faces = 6;
    Wall wall;
    wall.shape = c;
    w.add_wall(std::move(wall));
  }
  return w;
}

// The documented list for the current positions, from the previous list (and its pair count).
std::vector<Entry> reference_list(const World& w, const std::vector<Entry>& previous, std::size_t previous_pairs,
                                  bool rebuild, std::size_t& pairs) {
  const ParticleStore& p = w.particles;
  const CollisionSettings& s = w.collision;
  std::vector<Contact> previous_contacts, list;
  ModelHistory previous_model, model;  // every column, zero where the World keeps none
  previous_model.tangential_springs_kept = previous_model.springs_kept = previous_model.multipliers_kept =
      previous_model.angular_multipliers_kept = true;
  model.keep_as(previous_model);
  for (const Entry& e : previous) {
    previous_contacts.push_back(e.c), previous_model.tangential_springs.push_back(e.t), previous_model.springs.push_back(e.s);
    previous_model.multipliers.push_back(e.m), previous_model.angular_multipliers.push_back(e.am);
  }
  // carry_history on the records and on their model history, from [first, first + count) of the previous list
  auto carry = [&](std::size_t first, std::size_t count, std::vector<Contact>& to, ModelHistory& to_model) {
    ModelHistory from_model = previous_model;
    from_model.each([&](auto& column) {
      column.erase(column.begin(), column.begin() + std::ptrdiff_t(first));
      column.resize(count);
    });
    carry_history(std::span<const Contact>(previous_contacts).subspan(first, count), to, &from_model, &to_model);
  };
  if (rebuild) {
    for (std::size_t i = 0; i < p.size(); ++i)
      for (std::size_t j = i + 1; j < p.size(); ++j) {
        const double reach = p.radius[i] + p.radius[j] + s.skin;
        if (periodic_delta(p.position[i] - p.position[j], s).squaredNorm() > reach * reach) continue;
        Contact c;
        c.key = pair_key(p.id[i], p.id[j]);
        c.a = int(i);
        c.b = int(j);
        c.effective_radius = p.radius[i] * p.radius[j] / (p.radius[i] + p.radius[j]);
        c.overlap = std::numeric_limits<double>::infinity();
        list.push_back(c);
      }
    std::sort(list.begin(), list.end(), [](const Contact& x, const Contact& y) { return x.key < y.key; });
    carry(0, previous_pairs, list, model);
  } else {
    list.assign(previous_contacts.begin(), previous_contacts.begin() + std::ptrdiff_t(previous_pairs));
    model = previous_model;
    model.each([&](auto& column) { column.resize(previous_pairs); });
  }
  for (std::size_t k = 0; k < list.size(); ++k) {
    sphere_sphere(p, s, list[k]);
    if (list[k].overlap <= 0) reset_history(list[k], &model, k);
  }
  pairs = list.size();
  std::vector<Contact> walls;
  std::vector<WallHit> hits;
  for (std::size_t i = 0; i < p.size(); ++i)
    for (std::size_t k = 0; k < w.walls.size(); ++k) {
      hits.clear();
      collide_sphere(w.walls[k].shape, p.position[i], p.radius[i], 0.0, hits);
      for (const WallHit& h : hits) {
        if (h.overlap <= 0) continue;
        Contact c;
        c.key = wall_key(p.id[i], std::uint16_t(k), h.feature);
        c.a = int(i);
        c.b = -1 - int(k);
        c.normal = h.normal;
        c.point = h.point;
        c.overlap = h.overlap;
        c.effective_radius = p.radius[i];
        walls.push_back(c);
      }
    }
  std::stable_sort(walls.begin(), walls.end(), [](const Contact& x, const Contact& y) { return x.key < y.key; });
  ModelHistory wall_model;
  carry(previous_pairs, previous_contacts.size() - previous_pairs, walls, wall_model);
  list.insert(list.end(), walls.begin(), walls.end());
  std::vector<Entry> entries;
  for (std::size_t k = 0; k < pairs; ++k)
    entries.push_back({list[k], model.tangential_springs[k], model.springs[k], model.multipliers[k], model.angular_multipliers[k]});
  for (std::size_t k = pairs; k < list.size(); ++k)
    entries.push_back({list[k], wall_model.tangential_springs[k - pairs], wall_model.springs[k - pairs],
                       wall_model.multipliers[k - pairs], wall_model.angular_multipliers[k - pairs]});
  return entries;
}

bool same(const SpringHistory& x, const SpringHistory& y) {
  return x.rolling_spring == y.rolling_spring && x.twisting_spring == y.twisting_spring;
}
bool same(const MultiplierHistory& x, const MultiplierHistory& y) { return x.tangent == y.tangent && x.lambda == y.lambda; }
bool same(const Entry& x, const Entry& y) {
  return x.c.key == y.c.key && x.c.a == y.c.a && x.c.b == y.c.b && x.c.normal == y.c.normal && x.c.point == y.c.point &&
         x.c.overlap == y.c.overlap && x.c.effective_radius == y.c.effective_radius &&
         x.t.elongation == y.t.elongation && x.c.force == y.c.force && x.c.age == y.c.age && same(x.s, y.s) &&
         same(x.m, y.m) && x.am.lambda == y.am.lambda;
}

// Runs `steps` detector updates on the scene and checks every list against the reference. Returns the
// last list (for the thread-count comparison), the number of rebuilds and the most wall contacts seen.
// The World's list as entries (model history zero where it keeps none).
std::vector<Entry> entries_of(World& w) {
  std::vector<Entry> out;
  const ModelHistory& h = w.model_history();
  for (std::size_t k = 0; k < w.contacts().size(); ++k)
    out.push_back({w.contacts()[k], h.tangential_springs_kept ? h.tangential_springs[k] : TangentialSpringHistory{},
                   h.springs_kept ? h.springs[k] : SpringHistory{},
                   h.multipliers_kept ? h.multipliers[k] : MultiplierHistory{},
                   h.angular_multipliers_kept ? h.angular_multipliers[k] : AngularMultiplierHistory{}});
  return out;
}

std::vector<Entry> run_and_compare(const SceneSpec& spec, int threads, int steps, std::uint64_t& rebuilds,
                                   std::size_t& wall_contacts) {
  tbb::global_control control(tbb::global_control::max_allowed_parallelism, threads);
  World w = make_scene(spec, 5);
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> jiggle(-0.2, 0.2);
  std::vector<Entry> previous;
  std::size_t previous_pairs = 0;
  std::vector<Vec3> reference_position;
  const double skin = w.collision.skin;
  wall_contacts = 0;
  for (int step = 0; step < steps; ++step) {
    // Expected rebuild: the first call or a displacement beyond skin/2 since the last rebuild.
    bool rebuild = reference_position.empty();
    for (std::size_t i = 0; i < reference_position.size() && !rebuild; ++i)
      rebuild = periodic_delta(w.particles.position[i] - reference_position[i], w.collision).squaredNorm() > 0.25 * skin * skin;
    if (rebuild) reference_position = w.particles.position;
    std::size_t pairs = 0;
    const std::vector<Entry> expected = reference_list(w, previous, previous_pairs, rebuild, pairs);
    const std::uint64_t rebuilds_before = w.detector.stats().rebuilds;
    w.detect_contacts();
    BOOST_TEST_REQUIRE((w.detector.stats().rebuilds - rebuilds_before == (rebuild ? 1u : 0u)), "step " << step);
    BOOST_TEST_REQUIRE(w.pair_contact_count() == pairs, "step " << step);
    BOOST_TEST_REQUIRE(w.contacts().size() == expected.size(), "step " << step);
    BOOST_TEST_REQUIRE(w.model_history().tangential_springs.size() == (spec.tangential ? expected.size() : 0u), "step " << step);
    BOOST_TEST_REQUIRE(w.model_history().springs.size() == (spec.springs ? expected.size() : 0u), "step " << step);
    BOOST_TEST_REQUIRE(w.model_history().multipliers.size() == (spec.multipliers ? expected.size() : 0u), "step " << step);
    BOOST_TEST_REQUIRE(w.model_history().angular_multipliers.size() == (spec.multipliers && spec.angular ? expected.size() : 0u),
                       "step " << step);
    const std::vector<Entry> got = entries_of(w);
    std::size_t mismatches = 0;
    for (std::size_t k = 0; k < expected.size(); ++k) mismatches += !same(got[k], expected[k]);
    BOOST_TEST_REQUIRE(mismatches == 0u, "step " << step << ": " << mismatches << " contacts differ");
    wall_contacts = std::max(wall_contacts, w.contacts().size() - pairs);

    // Distinct history on every contact (as a stepper would leave it), then motion.
    for (std::size_t k = 0; k < w.contacts().size(); ++k) {
      Contact& c = w.contacts()[k];
      const double tag = double(step) + 1e-3 * double(k);
      c.force = Vec3(0, tag, 0);
      if (spec.tangential) w.model_history().tangential_springs[k] = {Vec3(tag, double(c.key % 1013), 1)};
      if (spec.springs) w.model_history().springs[k] = {Vec3(2, tag, 3), -tag};
      if (!spec.multipliers) continue;
      MultiplierHistory& m = w.model_history().multipliers[k];
      m.tangent = Vec3(tag, 0, 1);
      for (std::size_t r = 0; r < m.lambda.size(); ++r) m.lambda[r] = tag + double(r);
      if (spec.angular)
        for (std::size_t r = 0; r < 3; ++r) w.model_history().angular_multipliers[k].lambda[r] = -tag - double(r);
    }
    previous = entries_of(w);
    previous_pairs = w.pair_contact_count();
    // Mostly small moves (the wall set changes a little), every fifth step a jump of some particles
    // (a rebuild), every seventh step nothing (the wall set stays: the in-place path).
    if (step % 7 != 6) {
      for (std::size_t i = 0; i < w.particles.size(); ++i) {
        const double scale = step % 5 == 4 && i % 13 == 0 ? 2.0 * skin : 0.05 * skin;
        w.particles.position[i] += scale * Vec3(jiggle(rng), jiggle(rng), jiggle(rng));
      }
    }
    w.advance_walls(0.001);
    w.wrap_periodic();
  }
  rebuilds = w.detector.stats().rebuilds;
  return entries_of(w);
}

void check_scene(const SceneSpec& spec) {
  std::uint64_t rebuilds1 = 0, rebuilds2 = 0;
  std::size_t walls1 = 0, walls2 = 0;
  const auto one = run_and_compare(spec, 1, 30, rebuilds1, walls1);
  const auto two = run_and_compare(spec, 2, 30, rebuilds2, walls2);
  BOOST_TEST(rebuilds1 >= 4u);   // the scene exercises rebuilds ...
  BOOST_TEST(walls1 > 10u);      // ... and wall contacts
  if (spec.n >= 2500) BOOST_TEST(walls1 > 1000u);  // several chunks of wall records
  BOOST_TEST(rebuilds1 == rebuilds2);
  BOOST_REQUIRE_EQUAL(one.size(), two.size());
  std::size_t mismatches = 0;
  for (std::size_t k = 0; k < one.size(); ++k) mismatches += !same(one[k], two[k]);
  BOOST_TEST(mismatches == 0u);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(collision_reference)

BOOST_AUTO_TEST_CASE(planes_and_cylinder) { check_scene({.cylinder = true}); }

BOOST_AUTO_TEST_CASE(permuted_ids) { check_scene({.permute_ids = true, .cylinder = true}); }

BOOST_AUTO_TEST_CASE(static_planes_only) { check_scene({.moving_plane = false}); }

// A world no stepper ran keeps no model history: the records alone follow the same semantics.
BOOST_AUTO_TEST_CASE(without_model_history) {
  check_scene({.cylinder = true, .tangential = false, .springs = false, .multipliers = false});
}
BOOST_AUTO_TEST_CASE(without_model_history_many_wall_contacts) {
  check_scene({.n = 2500, .tangential = false, .springs = false, .multipliers = false});
}
// Plain SDEM keeps the tangential springs alone; with rolling resistance the springs too; NDEM the
// multipliers alone.
BOOST_AUTO_TEST_CASE(tangential_springs_only) { check_scene({.cylinder = true, .springs = false, .multipliers = false}); }
BOOST_AUTO_TEST_CASE(springs_only) { check_scene({.cylinder = true, .multipliers = false}); }
BOOST_AUTO_TEST_CASE(multipliers_only) { check_scene({.n = 2500, .tangential = false, .springs = false}); }
// NDEM without rolling or twisting resistance keeps no angular multipliers.
BOOST_AUTO_TEST_CASE(multipliers_without_angular) {
  check_scene({.cylinder = true, .tangential = false, .springs = false, .angular = false});
}

BOOST_AUTO_TEST_CASE(static_planes_only_permuted_ids) { check_scene({.permute_ids = true, .moving_plane = false}); }

// Enough wall contacts for several chunks of records (the list is assembled from per-chunk pieces).
BOOST_AUTO_TEST_CASE(many_wall_contacts) { check_scene({.n = 2500, .moving_plane = false}); }

BOOST_AUTO_TEST_CASE(many_wall_contacts_permuted_ids) { check_scene({.n = 2500, .permute_ids = true}); }

BOOST_AUTO_TEST_CASE(periodic_many_cells) { check_scene({.periodic_axis = 0}); }

// Period 0.025 m with cells of 2 r_max + skin = 0.0105 m: two cells along the periodic axis, where the
// neighbours at -1 and +1 are the same cell.
BOOST_AUTO_TEST_CASE(periodic_two_cells) { check_scene({.n = 150, .box = 0.025, .periodic_axis = 0}); }

// Period 0.0205 m: one cell along the periodic axis.
BOOST_AUTO_TEST_CASE(periodic_one_cell) { check_scene({.n = 120, .box = 0.0205, .periodic_axis = 0, .permute_ids = true}); }

BOOST_AUTO_TEST_SUITE_END()
