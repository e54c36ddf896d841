// Coarse-grained vertical stress and wall strip pressure (core/io/axial_stress.hpp) against analytic cases:
// a hydrostatic column of N spheres (contact j carries the weight of the N - j spheres above it), for
// which sigma_zz A averaged over a 5 d slice centred at z_c equals m g (N - z_c/d) exactly (the force
// staircase is a line plus a zero-mean sawtooth of period d, which a symmetric Gaussian keeps and a
// top hat of 5 periods removes); the same on an NDEM-settled column; a branch cut by the cylinder;
// a wall strip with a known normal force.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/error.hpp"
#include "core/io/axial_stress.hpp"
#include "core/ndem/ndem_stepper.hpp"

using namespace grainlab;
using namespace grainlab::io;

namespace {

constexpr double d = 0.01, mg = 1e-3 * 9.82;

// Column of n spheres touching on a vertical line through (x, y): floor branch from the contact point
// (z = 0) to sphere 0, then pairs j-1 -> j carrying (n - j) m g.
std::vector<Branch> column(int n, double x, double y) {
  std::vector<Branch> out;
  out.push_back({Vec3(x, y, 0), Vec3(x, y, d / 2), Vec3(0, 0, n * mg)});
  for (int j = 1; j < n; ++j)
    out.push_back({Vec3(x, y, d / 2 + (j - 1) * d), Vec3(x, y, d / 2 + j * d), Vec3(0, 0, (n - j) * mg)});
  return out;
}

AxialSlices slices(double kernel_width) {
  AxialSlices s;
  s.radius = 1.5 * d;
  s.slice_height = 5 * d;
  s.slices = 8;
  s.kernel_width = kernel_width;
  return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(axial_stress)

BOOST_AUTO_TEST_CASE(hydrostatic_column_carries_the_weight_above) {
  const int n = 40;
  std::vector<Branch> b = column(n, 0.3 * d, -0.2 * d);
  const std::vector<Branch> outside = column(n, 3 * d, 0);  // beyond R_c = 1.5 d: must not count
  b.insert(b.end(), outside.begin(), outside.end());
  const double area = pi * 2.25 * d * d;
  for (const double w : {0.0, d}) {
    const std::vector<double> s = axial_stress_zz(b, slices(w));
    BOOST_TEST(s.size() == 8u);
    // No smoothing: every slice exact, the floor slice included. Gaussian w = d: the slices at least
    // 8 w from both ends of the column (k = 2 ... 5; the column ends at z = 40 d) are exact.
    for (int k = w == 0 ? 0 : 2; k <= (w == 0 ? 7 : 5); ++k) {
      const double zc = (2.5 + 5 * k) * d;
      const double expected = k <= 7 && zc < n * d ? mg * (n - zc / d) / area : 0.0;
      BOOST_TEST(s[std::size_t(k)] == expected, boost::test_tools::tolerance(1e-9));
    }
  }
}

BOOST_AUTO_TEST_CASE(slices_hold_the_virial_sum_and_cut_branches_at_the_cylinder) {
  // One oblique branch from the axis to 2 R_c sideways and 1 d up: half of it lies within R_c.
  const Branch br{Vec3(0, 0, 0.02), Vec3(3 * d, 0, 0.03), Vec3(0.3, 0, 0.1)};
  AxialSlices s = slices(0.5 * d);
  s.z0 = -0.1;
  s.slices = 1;
  s.slice_height = 0.3;
  const double sum = axial_stress_zz(std::vector<Branch>{br}, s)[0] * s.slice_height * pi * s.radius * s.radius;
  BOOST_TEST(sum == 0.5 * 0.1 * d, boost::test_tools::tolerance(1e-12));
  // A horizontal branch carries no sigma_zz.
  const Branch flat{Vec3(0, 0, 0.02), Vec3(d, 0, 0.02), Vec3(1, 0, 0)};
  BOOST_TEST(axial_stress_zz(std::vector<Branch>{flat}, s)[0] == 0.0);
}

BOOST_AUTO_TEST_CASE(settled_ndem_column_matches_its_weight) {
  // 30 spheres settled by the NDEM engine (N_it = 200): the coarse-grained stress of the real contact
  // forces in every slice is the load of the segments in it, to the 1 % the column still breathes.
  World w;
  Material m;
  m.density = 1e-3 / (pi / 6 * d * d * d);
  m.youngs_modulus = 1.5e7;
  m.poisson_ratio = 0;
  m.restitution = 0;
  m.friction = 0.7;
  w.add_material(m);
  w.gravity.g = Vec3(0, 0, -9.82);
  Wall floor;
  floor.name = "floor";
  floor.shape = PlaneShape{};
  w.add_wall(floor);
  // A frictionless tube just wider than the spheres keeps the column straight and carries no weight.
  Material smooth = m;
  smooth.friction = 0;
  Wall tube;
  tube.name = "tube";
  tube.material = w.add_material(smooth);
  CylinderShape c;
  c.radius = 0.501 * d;
  c.length = std::numeric_limits<double>::infinity();
  tube.shape = c;
  w.add_wall(tube);
  const int n = 30;
  for (int i = 0; i < n; ++i) w.add_sphere(Vec3(0, 0, d / 2 + i * d), d / 2, 0);
  NdemSettings ns;
  ns.time_step = 0.01;
  ns.iterations = 200;
  NdemStepper stepper(ns);
  for (int k = 0; k < 300; ++k) stepper.step(w);
  const std::vector<Branch> b = contact_branches(w);
  // Expected from the positions and the analytic loads (contact j carries (n - j) m g; the floor n m g),
  // not from the engine's forces: the load times the length of each centre-to-centre segment in the slab.
  const std::vector<double> s = axial_stress_zz(b, slices(0.0));
  const double area = pi * 2.25 * d * d, dz = 5 * d;
  std::vector<double> z;  // bottom to top (the engine may reorder particles in memory)
  for (const Vec3& x : w.particles.position) z.push_back(x.z());
  std::sort(z.begin(), z.end());
  for (int k = 0; k <= 4; ++k) {
    const double za = k * dz, zb = za + dz;
    double expected = 0, below = 0;
    for (int j = 0; j < n; ++j) {
      const double above = z[std::size_t(j)];
      expected += (n - j) * mg * std::max(0.0, std::min(above, zb) - std::max(below, za));
      below = above;
    }
    BOOST_TEST(s[std::size_t(k)] == expected / (dz * area), boost::test_tools::tolerance(0.01));
  }
}

BOOST_AUTO_TEST_CASE(wall_strip_pressure_sums_normal_forces_per_strip) {
  World w;
  Material m;
  w.add_material(m);
  Wall side;
  side.name = "side";
  side.shape = PlaneShape{Vec3(0, 0, 0), Vec3(1, 0, 0)};
  w.add_wall(side);
  // Two spheres pressed 1 mm into the wall x = 0 at z = 0.02 and 0.07 (strips of 0.05 m: 0 and 1).
  w.add_sphere(Vec3(0.004, 0, 0.02), 0.005, 0);
  w.add_sphere(Vec3(0.004, 0, 0.07), 0.005, 0);
  w.detect_contacts();
  auto& contacts = w.contacts();
  BOOST_TEST(contacts.size() == 2u);
  for (Contact& c : contacts) c.force = Vec3(c.point.z() < 0.05 ? 2.0 : 3.0, 0.5, 0);  // friction is not pressure
  const std::vector<double> p = wall_strip_pressure(w, 0, 0.0, 0.05, 3, 0.1);
  BOOST_TEST(p[0] == 20.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(p[1] == 30.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(p[2] == 0.0);
  BOOST_CHECK_THROW(wall_strip_pressure(w, 0, 0.0, 0.0, 3, 0.1), InputError);
  AxialSlices bad = slices(-1);
  BOOST_CHECK_THROW(axial_stress_zz(std::vector<Branch>{}, bad), InputError);
}

BOOST_AUTO_TEST_SUITE_END()
