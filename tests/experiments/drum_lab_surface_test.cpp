// Lab-frame drum surface and plug creep (experiments/drum_lab_surface.hpp) on synthetic beds with known
// answers: a tilted flat bed gives its tilt as slope and fit, a step gives the steep local slope the cs
// artefact check looks for, and a rigidly co-rotating bed has zero creep (the perturbation of P5-C48's lower
// bound: a rigid plug fails it).
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <vector>

#include "core/error.hpp"
#include "core/math.hpp"
#include "experiments/drum_lab_surface.hpp"

using namespace grainlab;

namespace {

constexpr double R = 0.2, d = 0.01;

DrumProbe probe(double omega = 0.5) {
  DrumProbe p;
  p.radius = R;
  p.omega = omega;
  return p;
}

// Spheres on a square lattice of spacing d in the x-z plane inside the drum, below the surface z = z0 + k a
// (a = the lab_horizontal coordinate), plus an optional step of `step` height over a in [a0, a0 + 3 d].
struct Bed {
  std::vector<Vec3> x, v;
  std::vector<double> r;
};

Bed bed(double z0, double k, double step = 0, double a0 = 0) {
  const Vec3 h = lab_horizontal(probe());
  Bed b;
  for (int i = -20; i <= 20; ++i)
    for (int j = -20; j <= 20; ++j) {
      const Vec3 p(i * d, 0, j * d);
      if (p.norm() > R - d / 2) continue;
      const double a = p.dot(h);
      double top = z0 + k * a;
      if (a >= a0 && a <= a0 + 3 * d) top += step;
      if (p.z() + d / 2 > top) continue;
      b.x.push_back(p);
      b.v.push_back(Vec3::Zero());
      b.r.push_back(d / 2);
    }
  return b;
}

}  // namespace

BOOST_AUTO_TEST_CASE(lab_surface_of_a_tilted_bed_has_its_tilt) {
  const double k = std::tan(30 * pi / 180);
  const Bed b = bed(-0.05, k);
  const LabSurface s = lab_surface(probe(), b.x, b.r, 2 * d);
  const SurfaceLine line = fit_lab_surface(s, 2 * d);
  BOOST_REQUIRE(line.valid);
  BOOST_TEST(std::atan(line.slope) * 180 / pi == 30.0, boost::test_tools::tolerance(0.1));  // lattice staircase
  BOOST_TEST(line.rms < d);
  // Local slopes over 4 d of a 30 deg staircase stay near 30 deg (at most one lattice step of error).
  BOOST_TEST(max_surface_slope_deg(s, 2, 2 * d) < 30 + std::atan(1.0 / 4) * 180 / pi + 1e-9);
  // The lift height is the top of the bed where the line meets the shell on the raised side.
  BOOST_TEST(lift_height(s) > 0.03);
}

BOOST_AUTO_TEST_CASE(a_step_on_a_flat_bed_is_a_steep_local_slope) {
  const Bed flat = bed(-0.05, 0), stepped = bed(-0.05, 0, 4 * d, 0.0);
  const double s0 = max_surface_slope_deg(lab_surface(probe(), flat.x, flat.r, 2 * d), 2, 2 * d);
  const double s1 = max_surface_slope_deg(lab_surface(probe(), stepped.x, stepped.r, 2 * d), 2, 2 * d);
  BOOST_TEST(s0 == 0.0, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(s1 > 40.0);  // a 4 d step over a 4 d base: 45 deg
  BOOST_TEST(lift_height(lab_surface(probe(), stepped.x, stepped.r, 2 * d)) >
             lift_height(lab_surface(probe(), flat.x, flat.r, 2 * d)) + 3 * d);
}

BOOST_AUTO_TEST_CASE(rigid_co_rotation_has_no_creep) {
  Bed b = bed(-0.05, 0.5);
  const DrumProbe pr = probe(0.5);
  for (std::size_t i = 0; i < b.x.size(); ++i) b.v[i] = (pr.omega * pr.axis).cross(b.x[i]);
  const PlugCreep rigid = plug_creep(pr, b.x, b.v, 0.15);
  BOOST_TEST(rigid.fraction == 1.0);
  BOOST_TEST(rigid.creep == 0.0, boost::test_tools::tolerance(1e-12));
  // A uniform lag of 4 % of R Omega is a creep of 0.04; the counter-rotating field is no plug at all.
  for (std::size_t i = 0; i < b.x.size(); ++i) b.v[i] += Vec3(0.04 * R * pr.omega, 0, 0);
  BOOST_TEST(plug_creep(pr, b.x, b.v, 0.15).creep == 0.04, boost::test_tools::tolerance(1e-9));
  for (std::size_t i = 0; i < b.x.size(); ++i) b.v[i] = -(pr.omega * pr.axis).cross(b.x[i]);
  BOOST_TEST(plug_creep(pr, b.x, b.v, 0.15).fraction < 0.2);
}

BOOST_AUTO_TEST_CASE(lab_surface_rejects_bad_bins) {
  const Bed b = bed(-0.05, 0);
  BOOST_CHECK_THROW(lab_surface(probe(), b.x, b.r, 0.0), InputError);
  BOOST_CHECK_THROW(max_surface_slope_deg(lab_surface(probe(), b.x, b.r, d), 0, d), InputError);
}
