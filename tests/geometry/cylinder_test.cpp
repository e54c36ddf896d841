// Cylinder shell inside and outside: exact distances/normals against the shell, caps, rims; validation.
#include <boost/test/unit_test.hpp>

#include <map>
#include <random>

#include "core/error.hpp"
#include "helpers.hpp"

using namespace grainlab;
using namespace grainlab::test;
namespace tt = boost::test_tools;

namespace {
CylinderShape container() {
  CylinderShape s;
  s.center = Vec3(1, 1, 1);
  s.axis = Vec3(0, 1, 1).normalized();  // tilted, to exercise the frame
  s.radius = 0.3;
  s.length = 2.0;
  s.cap_lo = true;
  return s;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(cylinder)

BOOST_AUTO_TEST_CASE(inside_shell_and_cap) {
  const CylinderShape s = container();
  const Vec3 a = s.axis, e = Vec3::UnitX();  // e is orthogonal to the axis
  const double r = 0.05;
  // Near the shell, mid-length: shell contact, normal towards the axis.
  Vec3 c = s.center + 0.2 * a + 0.27 * e;
  auto h = hits_of(s, c, r);
  BOOST_REQUIRE_EQUAL(h.size(), 1u);
  BOOST_TEST(h[0].feature == 0);
  BOOST_TEST(h[0].overlap == 0.02, tt::tolerance(1e-9));
  BOOST_TEST((h[0].normal + e).norm() < 1e-12);
  BOOST_TEST((h[0].point - (s.center + 0.2 * a + 0.3 * e)).norm() < 1e-12);
  // In the corner of shell and bottom cap: two contacts.
  c = s.center - 0.96 * a - 0.28 * e;
  h = hits_of(s, c, r);
  BOOST_REQUIRE_EQUAL(h.size(), 2u);
  BOOST_TEST(find_feature(h, 0)->overlap == 0.03, tt::tolerance(1e-9));
  BOOST_TEST(find_feature(h, 1)->overlap == 0.01, tt::tolerance(1e-9));
  BOOST_TEST((find_feature(h, 1)->normal - a).norm() < 1e-12);
  for (const auto& x : h) BOOST_TEST(consistent(x, c, r));
  // On the axis: nothing.
  BOOST_TEST(hits_of(s, s.center, r).empty());
}

BOOST_AUTO_TEST_CASE(inside_open_end_rim) {
  const CylinderShape s = container();  // +axis end is open
  const Vec3 a = s.axis, e = Vec3::UnitX();
  const Vec3 rim = s.center + 1.0 * a + 0.3 * e;
  // Leaving over the rim at 45 degrees: closest point is the rim circle.
  const Vec3 c = rim + 0.04 * (a - e).normalized();
  const auto h = hits_of(s, c, 0.05);
  BOOST_REQUIRE_EQUAL(h.size(), 1u);
  BOOST_TEST(h[0].overlap == 0.01, tt::tolerance(1e-9));
  BOOST_TEST((h[0].point - rim).norm() < 1e-12);
  BOOST_TEST((h[0].normal - (a - e).normalized()).norm() < 1e-12);
}

BOOST_AUTO_TEST_CASE(infinite_length) {
  CylinderShape s;
  s.radius = 1;
  s.length = std::numeric_limits<double>::infinity();
  const auto h = hits_of(s, Vec3(0, 0.95, 1e6), 0.1);
  BOOST_REQUIRE_EQUAL(h.size(), 1u);
  BOOST_TEST(h[0].overlap == 0.05, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(outside_rod) {
  CylinderShape s;
  s.side = CylinderShape::Side::outside;
  s.radius = 0.2;
  s.length = 1.0;
  const double r = 0.1;
  // Beside the shell.
  auto h = hits_of(s, Vec3(0, 0.28, 0.1), r);
  BOOST_REQUIRE_EQUAL(h.size(), 1u);
  BOOST_TEST(h[0].feature == 0);
  BOOST_TEST(h[0].overlap == 0.02, tt::tolerance(1e-9));
  BOOST_TEST((h[0].normal - Vec3::UnitY()).norm() < 1e-12);
  // Resting on the top disc.
  h = hits_of(s, Vec3(0.1, 0, 0.59), r);
  BOOST_REQUIRE_EQUAL(h.size(), 1u);
  BOOST_TEST(h[0].feature == 2);
  BOOST_TEST(h[0].overlap == 0.01, tt::tolerance(1e-9));
  BOOST_TEST((h[0].normal - Vec3::UnitZ()).norm() < 1e-12);
  // Over the top rim edge.
  const Vec3 rim(0.2, 0, 0.5);
  const Vec3 c = rim + 0.05 * Vec3(1, 0, 1).normalized();
  h = hits_of(s, c, r);
  BOOST_REQUIRE_EQUAL(h.size(), 1u);
  BOOST_TEST(h[0].overlap == 0.05, tt::tolerance(1e-9));
  BOOST_TEST((h[0].point - rim).norm() < 1e-12);
  // Centre inside the solid near the bottom: pushed out through the bottom (least penetration).
  h = hits_of(s, Vec3(0, 0, -0.48), r);
  BOOST_REQUIRE_EQUAL(h.size(), 1u);
  BOOST_TEST(h[0].feature == 1);
  BOOST_TEST(h[0].overlap == 0.12, tt::tolerance(1e-9));
  BOOST_TEST((h[0].normal + Vec3::UnitZ()).norm() < 1e-12);
}

BOOST_AUTO_TEST_CASE(validation) {
  Wall w;
  w.name = "can";
  CylinderShape s;
  s.radius = -1;
  w.shape = s;
  BOOST_CHECK_EXCEPTION(validate(w), InputError,
                        [](const InputError& e) { return std::string(e.what()).find("cylinder radius") != std::string::npos; });
  s.radius = 1;
  s.axis = Vec3::Zero();
  w.shape = s;
  BOOST_CHECK_EXCEPTION(validate(w), InputError,
                        [](const InputError& e) { return std::string(e.what()).find("cylinder axis") != std::string::npos; });
  s.axis = Vec3::UnitZ();
  s.length = std::numeric_limits<double>::infinity();
  s.cap_hi = true;
  w.shape = s;
  BOOST_CHECK_EXCEPTION(validate(w), InputError,
                        [](const InputError& e) { return std::string(e.what()).find("cap") != std::string::npos; });
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(polygon_cylinder)

// The paper's cylinder containers are 20 rectangular faces (000 line 598).
CylinderShape twenty_faces() {
  CylinderShape s;
  s.radius = 0.015;  // apothem: Phi = 3 d with d = 0.01 m
  s.length = 0.2;
  s.cap_lo = true;
  s.polygon_faces = 20;
  s.reference = Vec3::UnitX();
  return s;
}

BOOST_AUTO_TEST_CASE(face_and_corner_contacts) {
  const CylinderShape s = twenty_faces();
  const double r = 0.005;
  // Facing face 3 (normal at 54 deg): distance 0.004 from it, mid-face.
  const double a3 = 3 * 2 * pi / 20;
  const Vec3 m3(std::cos(a3), std::sin(a3), 0);
  Vec3 c = (0.015 - 0.004) * m3 + Vec3(0, 0, 0.05);
  auto h = hits_of(s, c, r);
  BOOST_REQUIRE_EQUAL(h.size(), 1u);
  BOOST_TEST(h[0].feature == 3 + 3);
  BOOST_TEST(h[0].overlap == 0.001, tt::tolerance(1e-9));
  BOOST_TEST((h[0].normal + m3).norm() < 1e-12);
  // Near the corner between faces 0 and 1: the corner is at the circumradius R / cos 9 deg, angle 9 deg.
  const double half = pi / 20;
  const Vec3 corner = 0.015 / std::cos(half) * Vec3(std::cos(half), std::sin(half), 0);
  c = corner * (1 - 0.004 / corner.norm()) + Vec3(0, 0, 0.05);  // 4 mm inward from the corner
  h = hits_of(s, c, r);
  BOOST_REQUIRE_EQUAL(h.size(), 2u);
  const double dist = 0.004 * std::cos(half);  // distance to each face plane
  BOOST_TEST(find_feature(h, 3)->overlap == r - dist, tt::tolerance(1e-9));
  BOOST_TEST(find_feature(h, 4)->overlap == r - dist, tt::tolerance(1e-9));
  for (const auto& x : h) BOOST_TEST(consistent(x, c, r));
  // Sitting on the bottom cap in the corner: the cap covers the polygon.
  c = corner * (1 - 0.004 / corner.norm()) + Vec3(0, 0, -0.099);
  BOOST_TEST(find_feature(hits_of(s, c, r), 1));
}

BOOST_AUTO_TEST_CASE(all_faces_a_big_sphere_touches) {
  // A sphere as big as the container (r = R) on the axis touches all 20 faces at overlap 0.
  const CylinderShape s = twenty_faces();
  const auto h = hits_of(s, Vec3(0, 0, 0), 0.015 + 1e-9);
  BOOST_TEST(h.size() == 20u);
}

BOOST_AUTO_TEST_CASE(face_search_equals_all_faces) {
  // Reference: every face, half-space contact where the foot lies within the face.
  const CylinderShape s = twenty_faces();
  std::mt19937_64 rng(2);
  std::uniform_real_distribution<double> u(-0.016, 0.016), radius(0.001, 0.012);
  int touching = 0;
  for (int i = 0; i < 20000; ++i) {
    const Vec3 c(u(rng), u(rng), 0.0);
    const double r = radius(rng);
    std::map<int, double> expected;
    for (int k = 0; k < 20; ++k) {
      const double a = k * 2 * pi / 20;
      const Vec3 m(std::cos(a), std::sin(a), 0);
      const bool inside = std::abs(c.dot(Vec3(-m.y(), m.x(), 0))) <= 0.015 * std::tan(pi / 20);
      if (inside && r - (0.015 - c.dot(m)) >= 0) expected[3 + k] = r - (0.015 - c.dot(m));
    }
    std::map<int, double> got;
    for (const auto& h : hits_of(s, c, r)) got[h.feature] = h.overlap;
    BOOST_REQUIRE_EQUAL(got.size(), expected.size());
    for (const auto& [f, o] : expected) BOOST_TEST(std::abs(got[f] - o) < 1e-15);
    touching += int(expected.size());
  }
  BOOST_TEST(touching > 10000);
}

BOOST_AUTO_TEST_CASE(polygon_validation) {
  Wall w;
  w.name = "can";
  CylinderShape s = twenty_faces();
  s.polygon_faces = 2;
  w.shape = s;
  BOOST_CHECK_THROW(validate(w), InputError);
  s = twenty_faces();
  s.reference = Vec3::UnitZ();
  w.shape = s;
  BOOST_CHECK_THROW(validate(w), InputError);
}

BOOST_AUTO_TEST_SUITE_END()
