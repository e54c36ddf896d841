// Sawtooth drum (000 lines 600-602): tooth geometry matches the specification, exact contacts on the
// faces, a continuous normal over the tip, the sector search equals a search over all teeth, the
// texture turns exactly with the drum and the surface velocity is omega x r.
#include <boost/test/unit_test.hpp>

#include <map>
#include <random>

#include "core/error.hpp"
#include "helpers.hpp"

using namespace grainlab;
using namespace grainlab::test;
namespace tt = boost::test_tools;

namespace {
constexpr double d = 0.01;  // particle diameter of 000 line 596
// Paper values: 64 teeth, height 1.2 d, length 4 d, attack angle 50 deg. The base radius 41.2 d makes
// the drum diameter 80 d at the tooth tips, where 64 x 4 d fits (see docs/geometry.md).
const SawtoothParams paper_teeth{64, 1.2 * d, 4 * d, 50};

DrumShape drum(double R = 41.2 * d) {
  CylinderShape body;
  body.center = Vec3(0.1, -0.2, 0.3);
  body.axis = Vec3(0, 1, 0);  // horizontal, as in the paper
  body.radius = R;
  body.length = 8 * d;
  body.cap_lo = body.cap_hi = true;
  return make_sawtooth_drum(body, Vec3(0, 0, -1), paper_teeth, "drum");
}

const SawtoothTexture& teeth(const DrumShape& s) { return std::get<SawtoothTexture>(s.texture); }

// World position of the 2D point (x, y) of tooth k's frame at axial coordinate z.
Vec3 tooth_point(const DrumShape& s, int k, double x, double y, double z) {
  const Vec3 e1 = s.direction_at(k * teeth(s).pitch), e2 = s.body.axis.cross(e1);
  return s.body.center + z * s.body.axis + x * e1 + y * e2;
}

// Reference narrow phase: every tooth and the shell, without the sector search.
std::map<int, WallHit> brute_force(const DrumShape& s, const Vec3& c, double r) {
  std::map<int, WallHit> out;
  const SawtoothTexture& t = teeth(s);
  const Vec3 rel = c - s.body.center;
  const double z = rel.dot(s.body.axis);
  const Vec3 radial = rel - z * s.body.axis;
  for (int k = 0; k < t.params.count; ++k) {
    const Vec3 e1 = s.direction_at(k * t.pitch), e2 = s.body.axis.cross(e1);
    const double p[2] = {radial.dot(e1), radial.dot(e2)};
    double q[2], n[2], dist;
    if (tooth_closest_point(t, p, q, n, dist) && r - dist >= 0)
      out[3 + k] = {n[0] * e1 + n[1] * e2, s.body.center + z * s.body.axis + q[0] * e1 + q[1] * e2, r - dist, std::uint16_t(3 + k)};
  }
  return out;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(sawtooth)

BOOST_AUTO_TEST_CASE(tooth_geometry_matches_the_paper) {
  const DrumShape s = drum();
  const SawtoothTexture& t = teeth(s);
  BOOST_TEST(t.pitch == 2 * pi / 64, tt::tolerance(1e-15));
  const Eigen::Vector2d b0(t.b0[0], t.b0[1]), apex(t.apex[0], t.apex[1]), b1(t.b1[0], t.b1[1]);
  // Base chord length 4 d, both corners on the shell circle.
  BOOST_TEST((b1 - b0).norm() == 4 * d, tt::tolerance(1e-12));
  BOOST_TEST(b0.norm() == 41.2 * d, tt::tolerance(1e-12));
  BOOST_TEST(b1.norm() == 41.2 * d, tt::tolerance(1e-12));
  // Height 1.2 d above the chord, towards the axis.
  const Eigen::Vector2d chord = (b1 - b0).normalized();
  const Eigen::Vector2d rel = apex - b0;
  BOOST_TEST(std::abs(chord.x() * rel.y() - chord.y() * rel.x()) == 1.2 * d, tt::tolerance(1e-12));
  BOOST_TEST(apex.norm() < b0.norm() - 1.1 * d);
  // Attack face (apex -> b1, the leading end) at 50 degrees to the chord.
  const Eigen::Vector2d attack = (apex - b1).normalized();
  BOOST_TEST(std::acos(attack.dot(-chord)) * 180 / pi == 50.0, tt::tolerance(1e-12));
  // The ramp is the gentle face: atan(1.2 / (4 - 1.2 / tan 50)) = 21.85 deg.
  const Eigen::Vector2d ramp = (apex - b0).normalized();
  BOOST_TEST(std::acos(ramp.dot(chord)) == std::atan(1.2 / (4 - 1.2 / std::tan(50 * pi / 180))), tt::tolerance(1e-12));
  // The attack face leads for positive rotation: its outward normal points along +angle.
  double n_attack[2];
  {
    const double p[2] = {0.5 * (apex.x() + b1.x()) + 1e-4 * std::cos(t.base_angle + pi / 2),
                         0.5 * (apex.y() + b1.y()) + 1e-4 * std::sin(t.base_angle + pi / 2)};
    double q[2], dist;
    BOOST_REQUIRE(tooth_closest_point(t, p, q, n_attack, dist));
  }
  const Eigen::Vector2d tangent(-std::sin(t.base_angle), std::cos(t.base_angle));  // +angle direction at b1
  BOOST_TEST(tangent.dot(Eigen::Vector2d(n_attack[0], n_attack[1])) > 0.5);
}

BOOST_AUTO_TEST_CASE(sixty_four_teeth_around_the_circumference) {
  // A small sphere swept around the circumference just inside the tooth tips touches 64 distinct teeth.
  const DrumShape s = drum();
  std::map<int, int> seen;
  const double r = 0.3 * d;
  for (int i = 0; i < 6400; ++i) {
    const double a = 2 * pi * i / 6400;
    const Vec3 c = s.body.center + s.direction_at(a) * (teeth(s).min_radius - 0.2 * d);
    for (const WallHit& h : hits_of(s, c, r)) ++seen[h.feature];
  }
  BOOST_TEST(seen.size() == 64u);
  BOOST_TEST(seen.begin()->first == 3);
  BOOST_TEST(seen.rbegin()->first == 66);
}

BOOST_AUTO_TEST_CASE(exact_contact_on_the_faces) {
  const DrumShape s = drum();
  const SawtoothTexture& t = teeth(s);
  const double r = 0.5 * d;
  const int k = 17;
  // A point 40 % along the ramp, sphere centre 0.3 d off the face along its outward normal.
  const Eigen::Vector2d b0(t.b0[0], t.b0[1]), apex(t.apex[0], t.apex[1]), b1(t.b1[0], t.b1[1]);
  const Eigen::Vector2d q = b0 + 0.4 * (apex - b0);
  Eigen::Vector2d n(-(apex - b0).y(), (apex - b0).x());
  n.normalize();
  if (n.dot(b1 - b0) > 0) n = -n;  // away from the tooth interior
  const Eigen::Vector2d p = q + 0.3 * d * n;
  const Vec3 c = tooth_point(s, k, p.x(), p.y(), 0.01);
  const auto h = hits_of(s, c, r);
  const WallHit* hit = find_feature(h, 3 + k);
  BOOST_REQUIRE(hit);
  BOOST_TEST(hit->overlap == 0.2 * d, tt::tolerance(1e-9));
  BOOST_TEST((hit->point - tooth_point(s, k, q.x(), q.y(), 0.01)).norm() < 1e-12);
  const Vec3 e1 = s.direction_at(k * t.pitch), e2 = s.body.axis.cross(e1);
  BOOST_TEST((hit->normal - (n.x() * e1 + n.y() * e2)).norm() < 1e-12);
  BOOST_TEST(consistent(*hit, c, r));
}

BOOST_AUTO_TEST_CASE(continuous_normal_over_the_tip) {
  // The centre circles the apex at distance 0.4 d from the ramp normal to the attack-face normal:
  // one contact with the same feature throughout, overlap constant, normal = direction from the apex.
  const DrumShape s = drum();
  const SawtoothTexture& t = teeth(s);
  const int k = 5;
  const double r = 0.5 * d;
  const Eigen::Vector2d b0(t.b0[0], t.b0[1]), apex(t.apex[0], t.apex[1]), b1(t.b1[0], t.b1[1]);
  auto outward = [&](Eigen::Vector2d a, Eigen::Vector2d b, Eigen::Vector2d o) {
    Eigen::Vector2d n(-(b - a).y(), (b - a).x());
    n.normalize();
    return n.dot(o - a) > 0 ? Eigen::Vector2d(-n) : n;
  };
  const Eigen::Vector2d n_ramp = outward(b0, apex, b1), n_attack = outward(apex, b1, b0);
  // The apex region is the wedge between the two face normals (the exterior angle, < pi).
  const double a0 = std::atan2(n_ramp.y(), n_ramp.x());
  const double span = std::remainder(std::atan2(n_attack.y(), n_attack.x()) - a0, 2 * pi);
  const double sgn = span > 0 ? 1 : -1;
  // Start on the ramp (before its normal direction), end on the attack face.
  Vec3 previous_normal = Vec3::Zero();
  const double step = (std::abs(span) + 0.4) / 200;
  for (int i = 0; i <= 200; ++i) {
    const double along = -0.2 + step * i;  // angle past the ramp normal, towards the attack normal
    const double a = a0 + sgn * along;
    const Eigen::Vector2d p = apex + 0.4 * d * Eigen::Vector2d(std::cos(a), std::sin(a));
    const Vec3 c = tooth_point(s, k, p.x(), p.y(), 0);
    const auto h = hits_of(s, c, r);
    const WallHit* hit = find_feature(h, 3 + k);
    BOOST_REQUIRE(hit);
    const bool in_apex_region = along >= 0 && along <= std::abs(span);
    if (in_apex_region) {
      BOOST_TEST(hit->overlap == 0.1 * d, tt::tolerance(1e-9));
      BOOST_TEST((hit->point - tooth_point(s, k, apex.x(), apex.y(), 0)).norm() < 1e-12);
    }
    // Normal turns by at most the sweep step (plus the face regions, where it stays put).
    if (i > 0) BOOST_TEST((hit->normal - previous_normal).norm() <= step + 1e-12);
    previous_normal = hit->normal;
  }
}

BOOST_AUTO_TEST_CASE(sector_search_equals_all_teeth) {
  const DrumShape s = drum();
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> angle(0, 2 * pi), depth(0, 2.5 * d), radius(0.2 * d, 1.5 * d);
  int touching = 0;
  for (int i = 0; i < 20000; ++i) {
    const double r = radius(rng);
    const Vec3 c = s.body.center + s.direction_at(angle(rng)) * (s.body.radius - depth(rng));
    const auto expected = brute_force(s, c, r);
    std::map<int, WallHit> got;
    for (const WallHit& h : hits_of(s, c, r))
      if (h.feature >= 3) got[h.feature] = h;
    BOOST_REQUIRE_EQUAL(got.size(), expected.size());
    for (const auto& [f, h] : expected) {
      BOOST_REQUIRE(got.count(f));
      // Same closest-point arithmetic on the same tooth, with the tooth frame from a recurrence instead
      // of sin/cos: positions agree to rounding of 0.4 m coordinates (~1e-16 m), so overlaps to 1e-14 m
      // and normals (a difference divided by the distance) to 1e-14 m / distance.
      BOOST_TEST(std::abs(got[f].overlap - h.overlap) < 1e-14);
      BOOST_TEST((got[f].normal - h.normal).norm() * std::max(r - h.overlap, 1e-6) < 1e-14);
    }
    touching += int(expected.size());
  }
  BOOST_TEST(touching > 5000);
}

BOOST_AUTO_TEST_CASE(valley_contacts) {
  // A sphere in the valley between tooth 0's attack face and tooth 1's ramp, placed 0.45 d from both
  // face lines (intersection of the lines offset by 0.45 d): two contacts (two keys), overlap exactly
  // 0.05 d each, no base-corner contact, no hidden-shell contact.
  const DrumShape s = drum();
  const SawtoothTexture& t = teeth(s);
  const double r = 0.5 * d, gap = 0.45 * d;
  using V2 = Eigen::Vector2d;
  const Eigen::Rotation2Dd next(t.pitch);
  const V2 a0(t.apex[0], t.apex[1]), a1(t.b1[0], t.b1[1]);                  // tooth 0 attack face
  const V2 r0 = next * V2(t.b0[0], t.b0[1]), r1 = next * V2(t.apex[0], t.apex[1]);  // tooth 1 ramp
  auto offset_line = [&](V2 a, V2 b, V2 inside) {  // point and direction of the line moved by gap outward
    V2 n(-(b - a).y(), (b - a).x());
    n.normalize();
    if (n.dot(inside - a) > 0) n = -n;
    return std::pair<V2, V2>(a + gap * n, (b - a).normalized());
  };
  const auto [p1, u1] = offset_line(a0, a1, V2(t.b0[0], t.b0[1]));
  const auto [p2, u2] = offset_line(r0, r1, next * V2(t.b1[0], t.b1[1]));
  // Solve p1 + x u1 = p2 + y u2.
  Eigen::Matrix2d m;
  m << u1, -u2;
  const V2 xy = m.colPivHouseholderQr().solve(p2 - p1);
  const V2 p = p1 + xy.x() * u1;
  const Vec3 c = tooth_point(s, 0, p.x(), p.y(), 0);
  const auto h = hits_of(s, c, r);
  BOOST_REQUIRE_EQUAL(h.size(), 2u);
  BOOST_REQUIRE(find_feature(h, 3) && find_feature(h, 4));
  BOOST_TEST(find_feature(h, 3)->overlap == 0.05 * d, tt::tolerance(1e-9));
  BOOST_TEST(find_feature(h, 4)->overlap == 0.05 * d, tt::tolerance(1e-9));
  for (const auto& x : h) BOOST_TEST(consistent(x, c, r));
}

BOOST_AUTO_TEST_CASE(centre_beyond_a_tooth_base_is_pushed_back) {
  // A sphere driven through tooth 0 in one large step (centre under the middle of its base: between the
  // base chord and the shell, and past the shell) touches the shell there (feature 0, radially inwards,
  // overlap r - (R - rho)); the hidden shell would otherwise let it leave the drum.
  const DrumShape s = drum();
  const SawtoothTexture& t = teeth(s);
  const double r = 0.5 * d, R = s.body.radius;
  const double mid[2] = {0.5 * (t.b0[0] + t.b1[0]), 0.5 * (t.b0[1] + t.b1[1])};
  const double len = std::hypot(mid[0], mid[1]);
  for (const double rho : {len + 0.2 * (R - len), R + 0.3 * d}) {
    const Vec3 c = tooth_point(s, 0, rho * mid[0] / len, rho * mid[1] / len, 0);
    const auto h = hits_of(s, c, r);
    BOOST_REQUIRE(find_feature(h, 0));
    const WallHit& x = *find_feature(h, 0);
    BOOST_TEST(x.overlap == r - (R - rho), tt::tolerance(1e-9));
    const Vec3 rel = c - s.body.center;
    const Vec3 outward = (rel - rel.dot(s.body.axis) * s.body.axis).normalized();
    BOOST_TEST(x.normal.dot(outward) == -1.0, tt::tolerance(1e-12));
    BOOST_TEST(consistent(x, c, r));
  }
  // Just inside the chord the shell stays hidden (the tooth is there).
  const double inside = len - 0.05 * d;
  BOOST_TEST(!find_feature(hits_of(s, tooth_point(s, 0, inside * mid[0] / len, inside * mid[1] / len, 0), r), 0));
}

BOOST_AUTO_TEST_CASE(drum_rotation_moves_teeth_exactly) {
  const double omega = 0.63;  // rad/s (000 line 618)
  Wall w;
  w.name = "drum";
  w.shape = drum();
  const DrumShape s0 = std::get<DrumShape>(w.shape);
  w.angular_velocity = omega * s0.body.axis;
  w.rotation_center = s0.body.center;
  const double dt = 1e-3;
  const int steps = 1234;
  for (int i = 0; i < steps; ++i) advance(w, dt);
  const DrumShape& s1 = std::get<DrumShape>(w.shape);
  const double turned = omega * dt * steps;
  BOOST_TEST(s1.phase == turned, tt::tolerance(1e-12));
  BOOST_TEST((s1.body.center - s0.body.center).norm() == 0.0);
  // A sphere turned with the drum sees the same tooth contact, turned.
  const Eigen::AngleAxisd rot(turned, s0.body.axis);
  const double r = 0.5 * d;
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> angle(0, 2 * pi), depth(0.2 * d, 1.5 * d);
  for (int i = 0; i < 200; ++i) {
    const Vec3 c0 = s0.body.center + s0.direction_at(angle(rng)) * (s0.body.radius - depth(rng));
    const Vec3 c1 = s0.body.center + rot * (c0 - s0.body.center);
    const auto h0 = hits_of(s0, c0, r), h1 = hits_of(s1, c1, r);
    BOOST_REQUIRE_EQUAL(h0.size(), h1.size());
    for (std::size_t k = 0; k < h0.size(); ++k) {
      BOOST_TEST(h0[k].feature == h1[k].feature);
      BOOST_TEST(h0[k].overlap == h1[k].overlap, tt::tolerance(1e-9));  // rounding of 0.4 m coordinates
      BOOST_TEST((rot * h0[k].normal - h1[k].normal).norm() < 1e-9);
    }
  }
  // Surface velocity omega x r at a tooth tip, tangential with magnitude omega * |r|.
  const Vec3 tip = tooth_point(s1, 3, teeth(s1).apex[0], teeth(s1).apex[1], 0);
  const Vec3 v = w.velocity_at(tip);
  const Vec3 arm = tip - s1.body.center;
  BOOST_TEST((v - omega * s1.body.axis.cross(arm)).norm() < 1e-15);
  BOOST_TEST(v.norm() == omega * arm.norm(), tt::tolerance(1e-12));
  BOOST_TEST(std::abs(v.dot(arm)) < 1e-15);
}

BOOST_AUTO_TEST_CASE(validation) {
  CylinderShape body;
  body.radius = 40 * d;  // diameter 80 d at the base: 64 teeth of 4 d do not fit (chord 3.925 d)
  body.length = 8 * d;
  auto message = [&](const SawtoothParams& p, const CylinderShape& b) {
    try {
      make_sawtooth_drum(b, Vec3::UnitX(), p, "drum");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  BOOST_TEST(message(paper_teeth, body).find("sawtooth length") != std::string::npos);
  body.radius = 41.2 * d;
  BOOST_TEST(message(paper_teeth, body) == "no error");
  SawtoothParams p = paper_teeth;
  p.attack_angle_deg = 10;  // 1.2 d / tan 10 = 6.8 d > 4 d
  BOOST_TEST(message(p, body).find("sawtooth height") != std::string::npos);
  p = paper_teeth;
  p.count = 0;
  BOOST_TEST(message(p, body).find("sawtooth count") != std::string::npos);
  p = paper_teeth;
  p.height = -1;
  BOOST_TEST(message(p, body).find("sawtooth height") != std::string::npos);
  CylinderShape outside = body;
  outside.side = CylinderShape::Side::outside;
  BOOST_TEST(message(paper_teeth, outside).find("side") != std::string::npos);
  BOOST_TEST(message(paper_teeth, body).find("no error") != std::string::npos);
  BOOST_CHECK_THROW(make_smooth_drum(body, Vec3::UnitZ(), "drum"), InputError);  // reference along the axis
}

BOOST_AUTO_TEST_SUITE_END()
