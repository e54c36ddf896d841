// Collapse measures (experiments/collapse_measures.hpp) on constructed states with a known answer.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <vector>

#include "experiments/collapse_measures.hpp"

using namespace grainlab;

namespace {
constexpr double d = 0.01, r = d / 2;

Contact pair(int a, int b, const std::vector<Vec3>& x, double overlap) {
  Contact c;
  c.a = a;
  c.b = b;
  c.normal = (x[a] - x[b]).normalized();
  c.point = 0.5 * (x[a] + x[b]);
  c.overlap = overlap;
  return c;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(collapse_measures)

BOOST_AUTO_TEST_CASE(plane_fit_recovers_a_known_inclination) {
  // z = 0.2 + tan(30 deg) x on a 5 x 4 grid, tilted about y: 30 deg whatever the offset.
  std::vector<Vec3> pts;
  const double t = std::tan(30 * M_PI / 180);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 4; ++j) pts.emplace_back(100 + 0.1 * i, 0.1 * j, 0.2 + t * (100 + 0.1 * i));
  BOOST_CHECK_CLOSE(fit_plane(pts).angle_deg, 30.0, 1e-8);
  // Slope along both axes: |grad z| = sqrt(0.3^2 + 0.4^2) = 0.5.
  for (auto& p : pts) p.z() = 0.3 * p.x() + 0.4 * p.y();
  BOOST_CHECK_CLOSE(fit_plane(pts).angle_deg, std::atan(0.5) * 180 / M_PI, 1e-8);
  // Collinear points (all on one line in x-y) cannot define a plane.
  std::vector<Vec3> line{Vec3(0, 0, 0), Vec3(1, 0, 1), Vec3(2, 0, 2)};
  BOOST_CHECK(std::isnan(fit_plane(line).angle_deg));
}

BOOST_AUTO_TEST_CASE(main_network_drops_disconnected_particles) {
  // A chain of 3 touching spheres and a pair 1 m away: the chain is the main network.
  std::vector<Vec3> x{Vec3(0, 0, 0), Vec3(d, 0, 0), Vec3(2 * d, 0, 0), Vec3(1, 0, 0), Vec3(1 + d, 0, 0)};
  std::vector<Contact> c{pair(0, 1, x, 1e-6), pair(1, 2, x, -1e-5), pair(3, 4, x, 1e-6)};
  const auto mask = main_contact_network(x.size(), c, 1e-4);
  const std::vector<char> chain{1, 1, 1, 0, 0};
  BOOST_CHECK_EQUAL_COLLECTIONS(mask.begin(), mask.end(), chain.begin(), chain.end());
  // A gap tolerance below the 10 um opening cuts the chain: {0, 1} and {3, 4} tie, the lowest index wins.
  const auto cut = main_contact_network(x.size(), c, 1e-6);
  const std::vector<char> first_pair{1, 1, 0, 0, 0};
  BOOST_CHECK_EQUAL_COLLECTIONS(cut.begin(), cut.end(), first_pair.begin(), first_pair.end());
}

BOOST_AUTO_TEST_CASE(top_surface_takes_the_upper_layer_per_column) {
  // Two columns: heights 3 and 1 spheres; depth 1 d keeps the top sphere of each (and nothing deeper).
  std::vector<Vec3> x{Vec3(r, r, r), Vec3(r, r, 3 * r), Vec3(r, r, 5 * r), Vec3(3 * r, r, r)};
  std::vector<double> radius(x.size(), r);
  std::vector<char> all(x.size(), 1);
  const auto t1 = top_surface(x, radius, all, d, 0.5 * d);
  const std::vector<std::size_t> upper{2, 3};
  BOOST_CHECK_EQUAL_COLLECTIONS(t1.begin(), t1.end(), upper.begin(), upper.end());
  const auto tops = column_tops(x, radius, all, d);
  BOOST_CHECK_EQUAL(tops.size(), 2u);
  // Masked out: the top of column 1 is then particle 1.
  std::vector<char> mask{1, 1, 0, 1};
  const auto t2 = top_surface(x, radius, mask, d, 0.5 * d);
  const std::vector<std::size_t> masked_upper{1, 3};
  BOOST_CHECK_EQUAL_COLLECTIONS(t2.begin(), t2.end(), masked_upper.begin(), masked_upper.end());
}

BOOST_AUTO_TEST_CASE(merge_potential_applies_the_velocity_thresholds) {
  // Three spheres in a row, resting (zero velocity) and force-free: every contact passes, one aggregate of 3
  // out of 3 particles: h = 1 - 1/3. A relative normal speed above 2.5 mm/s at one contact splits it off.
  std::vector<Vec3> x{Vec3(0, 0, 0), Vec3(d, 0, 0), Vec3(2 * d, 0, 0)};
  std::vector<Vec3> v(3, Vec3::Zero()), w(3, Vec3::Zero());
  std::vector<double> m(3, 1e-3);
  std::vector<Contact> c{pair(1, 0, x, 1e-6), pair(2, 1, x, 1e-6)};
  const ReductionThresholds merge{0.0025, 0.0025, 0.0025, 0.5};
  FrameState f{x, v, w, v, w, m, c, Vec3::Zero(), 0.005};
  auto pot = merge_potential(f, merge, 5.0, reduction_off);
  BOOST_CHECK_EQUAL(pot.aggregates, 1u);
  BOOST_CHECK_CLOSE(pot.level, 1.0 - 1.0 / 3.0, 1e-12);
  std::vector<Vec3> v2 = v;
  v2[2] = Vec3(0.003, 0, 0);  // separating from 1 at 3 mm/s > 2.5 mm/s
  FrameState f2{x, v2, w, v2, w, m, c, Vec3::Zero(), 0.005};
  pot = merge_potential(f2, merge, 5.0, reduction_off);
  BOOST_CHECK_EQUAL(pot.merged_particles, 2u);
  BOOST_CHECK_CLOSE(pot.level, 1.0 - 2.0 / 3.0, 1e-12);
  v2[2] = Vec3(0.002, 0, 0);  // within the velocity bound, but reached from rest in one step: 0.4 m/s^2 passes 5,
  FrameState f3{x, v2, w, v, w, m, c, Vec3::Zero(), 0.005};
  BOOST_CHECK_EQUAL(merge_potential(f3, merge, 5.0, reduction_off).aggregates, 1u);
  BOOST_CHECK_EQUAL(merge_potential(f3, merge, 0.1, reduction_off).merged_particles, 2u);  // and fails 0.1 m/s^2
  // Rolling: relative spin 0.6 rad/s > 0.5 rad/s at contact (1, 0).
  std::vector<Vec3> w2 = w;
  w2[0] = Vec3(0, 0.6, 0);
  FrameState f4{x, v, w2, v, w2, m, c, Vec3::Zero(), 0.005};
  BOOST_CHECK_EQUAL(merge_potential(f4, merge, 5.0, reduction_off).merged_particles, 2u);
}

BOOST_AUTO_TEST_CASE(merge_potential_force_balance) {
  // Two stacked spheres on a wall, each carrying its load: ratio 0, one aggregate. With the upper contact
  // carrying 0.4 m g the upper sphere's ratio is 0.6 / 1.4 = 0.43: above 1/3 (no merge), below 0.5 (merge).
  std::vector<Vec3> x{Vec3(0, 0, r), Vec3(0, 0, 3 * r)};
  std::vector<Vec3> v(2, Vec3::Zero()), w(2, Vec3::Zero());
  const double mass = 1e-3, g = 9.81;
  std::vector<double> m(2, mass);
  Contact top = pair(1, 0, x, 1e-6);
  Contact floor;
  floor.a = 0;
  floor.b = -1;
  floor.overlap = 1e-6;
  floor.normal = Vec3::UnitZ();
  top.force = Vec3(0, 0, mass * g);
  floor.force = Vec3(0, 0, 2 * mass * g);
  std::vector<Contact> c{top, floor};
  FrameState f{x, v, w, v, w, m, c, Vec3(0, 0, -g), 0.005};
  BOOST_CHECK_EQUAL(merge_potential(f, {0.0025, 0.0025, 0.0025, 0.5}, 5.0, 1.0 / 3.0).aggregates, 1u);
  c[0].force = Vec3(0, 0, 0.4 * mass * g);  // top: |0.6| / (1 + 0.4) = 0.43 > 1/3: not balanced
  c[1].force = Vec3(0, 0, 1.4 * mass * g);
  BOOST_CHECK_EQUAL(merge_potential(f, {0.0025, 0.0025, 0.0025, 0.5}, 5.0, 1.0 / 3.0).aggregates, 0u);
  BOOST_CHECK_EQUAL(merge_potential(f, {0.0025, 0.0025, 0.0025, 0.5}, 5.0, 0.5).aggregates, 1u);
}

BOOST_AUTO_TEST_SUITE_END()
