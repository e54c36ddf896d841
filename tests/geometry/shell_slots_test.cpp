// Slotted drum shell (core/geometry/shell_slots.hpp) and Paper II's outlet construction
// (experiments/outlet_design.hpp is tested in tests/experiments): shell contact away from a slot, none for a
// centre over a slot wider than the sphere, two edge contacts that hold a sphere wider than the slot, none
// once the centre is outside the shell, the slot turning with the drum, and the widening rule.
#include <boost/test/unit_test.hpp>

#include <cmath>

#include "core/error.hpp"
#include "helpers.hpp"

using namespace grainlab;
using namespace grainlab::test;
namespace tt = boost::test_tools;

namespace {
constexpr double R = 0.375, r = 0.005;

// Drum along +y through the origin, frame angle 0 along +x (so angle 90 deg is -z... axis x e1 = y x x = -z).
DrumShape slotted(double base_width, double widening = 0, double bisector = 0) {
  CylinderShape body;
  body.axis = Vec3::UnitY();
  body.radius = R;
  body.length = 0.75;
  DrumShape d = make_smooth_drum(body, Vec3::UnitX(), "outlet");
  ShellSlot s;
  s.u_start = 0;  // centred on frame angle 0 (+x)
  s.z_start = -0.375;
  s.bisector = bisector;
  s.base_width = base_width;
  s.widening = widening;
  s.length = 0.8;
  d.slots = {s};
  return d;
}

// A sphere resting on the shell at frame angle `angle` (rad) and axial position y.
Vec3 resting(double angle, double y, double gap = 0) {
  const double rho = R - r - gap;
  return Vec3(rho * std::cos(angle), y, -rho * std::sin(angle));
}
}  // namespace

BOOST_AUTO_TEST_SUITE(shell_slots)

BOOST_AUTO_TEST_CASE(shell_contact_away_from_the_slot) {
  const DrumShape d = slotted(0.05);
  const Vec3 c = resting(pi / 2, 0.0, -1e-4);  // 0.1 mm overlap, a quarter turn from the slot
  const auto hits = hits_of(d, c, r);
  BOOST_REQUIRE_EQUAL(hits.size(), 1u);
  BOOST_TEST(hits[0].feature == 0);
  BOOST_TEST(hits[0].overlap == 1e-4, tt::tolerance(1e-9));
  BOOST_TEST(consistent(hits[0], c, r));
}

BOOST_AUTO_TEST_CASE(no_contact_over_a_wide_slot) {
  const DrumShape d = slotted(0.05);  // 5 d wide
  BOOST_TEST(hits_of(d, resting(0, 0.0, -1e-4), r).empty());
}

BOOST_AUTO_TEST_CASE(a_slot_narrower_than_the_sphere_holds_it_on_both_edges) {
  const DrumShape d = slotted(0.008);  // 0.8 d: the edges are 4 mm from the centre line
  // Centre on the slot's centre line, pushed out until it touches the edges: rho = sqrt(R^2 - 0.004^2) - 0.003
  const double half = 0.004, rho = std::sqrt(R * R - half * half) - std::sqrt(r * r - half * half) + 1e-5;
  const Vec3 c(rho, 0.1, 0);
  const auto hits = hits_of(d, c, r);
  BOOST_REQUIRE_EQUAL(hits.size(), 2u);
  for (const WallHit& h : hits) {
    BOOST_TEST(consistent(h, c, r));
    BOOST_TEST(h.overlap > 0);
    BOOST_TEST(h.overlap < 2e-5);
    BOOST_TEST(h.normal.x() < 0);  // pushes the sphere back inward
  }
  BOOST_TEST(hits[0].feature + hits[1].feature == 3 + 4);
}

BOOST_AUTO_TEST_CASE(a_sphere_narrower_than_the_slot_falls_through) {
  const DrumShape d = slotted(0.012);  // 1.2 d
  BOOST_TEST(hits_of(d, Vec3(R - 0.5 * r, 0.1, 0), r).empty());
  BOOST_TEST(hits_of(d, Vec3(R + 0.5 * r, 0.1, 0), r).empty());  // centre outside the shell: no contact
}

BOOST_AUTO_TEST_CASE(the_slot_turns_with_the_drum) {
  DrumShape d = slotted(0.05);
  RigidMotion m;
  m.rotates = true;
  m.rotation_vector = Vec3(0, pi / 2, 0);
  m.rotation = Quat(Eigen::AngleAxisd(pi / 2, Vec3::UnitY()));
  move(d, m);
  // Rotating +90 deg about +y carries +x to -z: the slot is now at the bottom.
  BOOST_TEST(hits_of(d, Vec3(0, 0, -(R - r) - 1e-4), r).empty());
  BOOST_TEST(hits_of(d, Vec3(R - r + 1e-4, 0, 0), r).size() == 1u);
}

BOOST_AUTO_TEST_CASE(width_grows_along_the_bisector) {
  const ShellSlot s = slotted(0.01, 0.1, 15 * pi / 180).slots[0];
  const double circumference = 2 * pi * R;
  // At s = 0.5 m along the bisector the half-width is (0.01 + 0.05) / 2 = 0.03 m.
  const double sb = std::sin(s.bisector), cb = std::cos(s.bisector);
  const double u0 = 0.5 * sb, z0 = s.z_start + 0.5 * cb;
  const SlotCoordinates on = slot_coordinates(s, u0 + 0.029 * cb, z0 - 0.029 * sb, circumference);
  BOOST_TEST(on.s == 0.5, tt::tolerance(1e-12));
  BOOST_TEST(on.half_width == 0.03, tt::tolerance(1e-12));
  BOOST_TEST(on.inside);
  BOOST_TEST(!slot_coordinates(s, u0 + 0.031 * cb, z0 - 0.031 * sb, circumference).inside);
  BOOST_TEST(!slot_coordinates(s, 0, s.z_start - 0.01, circumference).inside);  // before the interface
  // Wrapped arc coordinate: the same point one circumference on.
  BOOST_TEST(slot_coordinates(s, u0 + circumference, z0, circumference).inside);
}

BOOST_AUTO_TEST_CASE(invalid_slots_are_input_errors) {
  DrumShape d = slotted(0.05);
  d.slots[0].base_width = 0;
  Wall w;
  w.name = "outlet";
  w.shape = d;
  BOOST_CHECK_THROW(validate(w), InputError);
}

BOOST_AUTO_TEST_SUITE_END()
