// Plane, rectangular plate and box: exact distances and normals for spheres at known positions,
// including edges and corners, plus validation of parameters.
#include <boost/test/unit_test.hpp>

#include "core/error.hpp"
#include "helpers.hpp"

using namespace grainlab;
using namespace grainlab::test;
namespace tt = boost::test_tools;

BOOST_AUTO_TEST_SUITE(planar)

BOOST_AUTO_TEST_CASE(plane_half_space) {
  const PlaneShape plane{Vec3(0, 0, 1), Vec3(0, 0, 1)};
  auto h = hits_of(plane, Vec3(3, 4, 1.008), 0.01);
  BOOST_REQUIRE_EQUAL(h.size(), 1u);
  BOOST_TEST(h[0].overlap == 0.002, tt::tolerance(1e-9));
  BOOST_TEST((h[0].point - Vec3(3, 4, 1)).norm() < 1e-15);
  BOOST_TEST(h[0].normal == Vec3::UnitZ());
  BOOST_TEST(hits_of(plane, Vec3(0, 0, 1.011), 0.01).empty());
  BOOST_TEST(hits_of(plane, Vec3(0, 0, 1.011), 0.01, 0.002).size() == 1u);  // within the margin
}

BOOST_AUTO_TEST_CASE(rectangle_face_edge_corner_and_back) {
  RectangleShape plate;
  plate.center = Vec3(1, 2, 0);
  plate.half_u = 0.5;
  plate.half_v = 0.25;
  const double r = 0.1;
  // Over the face.
  auto h = hits_of(plate, Vec3(1.3, 2.1, 0.09), r);
  BOOST_REQUIRE_EQUAL(h.size(), 1u);
  BOOST_TEST(h[0].overlap == 0.01, tt::tolerance(1e-9));
  BOOST_TEST((h[0].normal - Vec3::UnitZ()).norm() < 1e-15);
  // Beyond the +u edge at 45 degrees: distance 0.08 from the edge line.
  const double s = 0.08 / std::sqrt(2.0);
  h = hits_of(plate, Vec3(1.5 + s, 2.0, s), r);
  BOOST_REQUIRE_EQUAL(h.size(), 1u);
  BOOST_TEST(h[0].overlap == 0.02, tt::tolerance(1e-9));
  BOOST_TEST((h[0].normal - Vec3(1, 0, 1).normalized()).norm() < 1e-12);
  BOOST_TEST((h[0].point - Vec3(1.5, 2.0, 0)).norm() < 1e-12);
  BOOST_TEST(consistent(h[0], Vec3(1.5 + s, 2.0, s), r));
  // Beyond the (+u, -v) corner.
  const Vec3 corner(1.5, 1.75, 0);
  const Vec3 c = corner + 0.05 * Vec3(1, -1, 1).normalized();
  h = hits_of(plate, c, r);
  BOOST_REQUIRE_EQUAL(h.size(), 1u);
  BOOST_TEST(h[0].overlap == 0.05, tt::tolerance(1e-9));
  BOOST_TEST((h[0].point - corner).norm() < 1e-12);
  // Below the plate (two-sided thin plate): normal points down.
  h = hits_of(plate, Vec3(1, 2, -0.05), r);
  BOOST_REQUIRE_EQUAL(h.size(), 1u);
  BOOST_TEST((h[0].normal + Vec3::UnitZ()).norm() < 1e-15);
  BOOST_TEST(h[0].overlap == 0.05, tt::tolerance(1e-9));
  // Beside the plate, out of reach.
  BOOST_TEST(hits_of(plate, Vec3(1.61, 2, 0), r).empty());
}

BOOST_AUTO_TEST_CASE(rectangle_normal_is_continuous_over_the_edge) {
  // A sphere rolling over the +u edge along a circle of radius 0.09 around it: the overlap stays
  // exactly 0.01 and the normal turns with the position (no jump where the face region ends).
  RectangleShape plate;
  const double r = 0.1;
  for (int i = 0; i <= 180; ++i) {
    const double a = pi * i / 180;  // 0: over the face, pi/2: beside the edge, pi: below the edge
    const Vec3 c = Vec3(0.5, 0, 0) + 0.09 * Vec3(std::sin(a), 0, std::cos(a));
    const auto h = hits_of(plate, c, r);
    BOOST_REQUIRE_EQUAL(h.size(), 1u);
    BOOST_TEST(h[0].overlap == 0.01, tt::tolerance(1e-9));
    BOOST_TEST((h[0].normal - (c - Vec3(0.5, 0, 0)).normalized()).norm() < 1e-12);
  }
}

BOOST_AUTO_TEST_CASE(box_faces_and_corner) {
  BoxShape box;
  box.center = Vec3(0, 0, 0.5);
  box.half_extents = Vec3(1, 2, 0.5);
  const double r = 0.1;
  // Centre of the box: nothing.
  BOOST_TEST(hits_of(box, box.center, r).empty());
  // Resting on the floor: face 4 (-z), normal +z.
  auto h = hits_of(box, Vec3(0.3, -0.4, 0.095), r);
  BOOST_REQUIRE_EQUAL(h.size(), 1u);
  BOOST_TEST(h[0].feature == 4);
  BOOST_TEST(h[0].overlap == 0.005, tt::tolerance(1e-9));
  BOOST_TEST((h[0].normal - Vec3::UnitZ()).norm() < 1e-15);
  // In the (+x, -y, -z) corner: three contacts, one per face, with their own overlaps.
  const Vec3 c(1 - 0.09, -2 + 0.08, 0.07);
  h = hits_of(box, c, r);
  BOOST_REQUIRE_EQUAL(h.size(), 3u);
  BOOST_TEST(find_feature(h, 1)->overlap == 0.01, tt::tolerance(1e-9));
  BOOST_TEST(find_feature(h, 2)->overlap == 0.02, tt::tolerance(1e-9));
  BOOST_TEST(find_feature(h, 4)->overlap == 0.03, tt::tolerance(1e-9));
  BOOST_TEST((find_feature(h, 1)->normal + Vec3::UnitX()).norm() < 1e-15);
  BOOST_TEST((find_feature(h, 2)->normal - Vec3::UnitY()).norm() < 1e-15);
  for (const auto& x : h) BOOST_TEST(consistent(x, c, r));
}

BOOST_AUTO_TEST_CASE(rotated_box) {
  // Box turned 30 degrees about z: a sphere near its local +x face touches it along the turned normal.
  BoxShape box;
  box.half_extents = Vec3(1, 1, 1);
  box.orientation = Quat(Eigen::AngleAxisd(pi / 6, Vec3::UnitZ()));
  const Vec3 ex = box.orientation * Vec3::UnitX();
  const Vec3 c = 0.92 * ex;
  const auto h = hits_of(box, c, 0.1);
  BOOST_REQUIRE_EQUAL(h.size(), 1u);
  BOOST_TEST(h[0].feature == 1);
  BOOST_TEST(h[0].overlap == 0.02, tt::tolerance(1e-9));
  BOOST_TEST((h[0].normal + ex).norm() < 1e-12);
  BOOST_TEST(consistent(h[0], c, 0.1));
}

BOOST_AUTO_TEST_CASE(open_top_rim) {
  BoxShape box;
  box.half_extents = Vec3(1, 1, 1);
  box.open_faces = BoxShape::open_top;
  const double r = 0.1;
  // Above the open top in the middle: nothing (the floor is 2 m below).
  BOOST_TEST(hits_of(box, Vec3(0, 0, 1.05), r).empty());
  // Over the rim of the +x wall: closest point is the rim edge (1, y, 1).
  const Vec3 c = Vec3(1, 0.3, 1) + 0.06 * Vec3(-1, 0, 1).normalized();
  auto h = hits_of(box, c, r);
  BOOST_REQUIRE_EQUAL(h.size(), 1u);
  BOOST_TEST(h[0].feature == 1);
  BOOST_TEST(h[0].overlap == 0.04, tt::tolerance(1e-9));
  BOOST_TEST((h[0].point - Vec3(1, 0.3, 1)).norm() < 1e-12);
  BOOST_TEST((h[0].normal - Vec3(-1, 0, 1).normalized()).norm() < 1e-12);
  // Closed faces are half-spaces: a centre beyond the +x face (0.5 m outside) is pushed back by that
  // face alone (overlap r + 0.5); the -z and +-y faces see it beyond their edges with +x: no contact.
  h = hits_of(box, Vec3(1.5, 0, 0), r);
  BOOST_REQUIRE_EQUAL(h.size(), 1u);
  BOOST_TEST(h[0].feature == 1);
  BOOST_TEST(h[0].overlap == 0.6, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(validation_names_the_parameter) {
  auto message = [](const Wall& w) {
    try {
      validate(w);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  Wall w;
  w.name = "lid";
  w.shape = PlaneShape{Vec3::Zero(), Vec3(0, 0, 2)};
  BOOST_TEST(message(w).find("plane normal") != std::string::npos);
  BoxShape box;
  box.half_extents = Vec3(1, -1, 1);
  w.shape = box;
  BOOST_TEST(message(w).find("box half_extents[1]") != std::string::npos);
  BOOST_TEST(message(w).find("'lid'") != std::string::npos);
  RectangleShape plate;
  plate.u_axis = Vec3::UnitZ();
  w.shape = plate;
  BOOST_TEST(message(w).find("rectangle u_axis") != std::string::npos);
  w.shape = RectangleShape{};
  w.surface_velocity = Vec3(0.1, 0, 0.1);
  BOOST_TEST(message(w).find("surface_velocity") != std::string::npos);
  w.surface_velocity = Vec3(0.1, 0, 0);
  BOOST_TEST(message(w) == "no error");
  w.velocity = Vec3(std::nan(""), 0, 0);
  BOOST_TEST(message(w).find("velocity") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
