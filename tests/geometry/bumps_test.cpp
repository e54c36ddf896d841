// Gaussian-bump drum (000 lines 1366-1368): bump count, heights and Gaussian-matched spheres; the
// bucketed narrow phase equals a search over all bumps (finite and periodic drums); seeded placement.
#include <boost/test/unit_test.hpp>

#include <map>
#include <random>

#include "core/error.hpp"
#include "helpers.hpp"

using namespace grainlab;
using namespace grainlab::test;
namespace tt = boost::test_tools;

namespace {
// Paper III values: bumps 50 mm wide, 30-50 mm high, 20 per m^2 (000 line 1368). A 1.2 m long slice of
// a 1.8 m radius drum keeps the test small.
const BumpParams paper_bumps{20, 0.03, 0.05, 0.05, 42, 0};

DrumShape bumpy(double length, BumpParams p = paper_bumps) {
  CylinderShape body;
  body.center = Vec3(0.5, 0.2, -0.1);
  body.axis = Vec3(1, 0, 0);
  body.radius = 1.8;
  body.length = length;
  if (std::isfinite(length)) body.cap_lo = body.cap_hi = true;
  return make_bumpy_drum(body, Vec3(0, 0, -1), p, "drum");
}

const BumpTexture& field(const DrumShape& s) { return std::get<BumpTexture>(s.texture); }

// Reference: every bump (and, for a periodic field, its images one period either side).
std::map<int, WallHit> brute_force(const DrumShape& s, const Vec3& c, double r) {
  std::map<int, WallHit> out;
  const BumpTexture& t = field(s);
  const Vec3 e1 = s.direction_at(0), e2 = s.body.axis.cross(e1);
  for (std::size_t i = 0; i < t.bumps.size(); ++i) {
    const Bump& b = t.bumps[i];
    for (int image = -1; image <= 1; ++image) {
      if (!t.periodic && image != 0) continue;
      const Vec3 outward = b.cos_angle * e1 + b.sin_angle * e2;
      const Vec3 foot = s.body.center + (b.axial + image * t.axial_extent) * s.body.axis + s.body.radius * outward;
      std::vector<WallHit> hits;
      collide_bump(b, foot, -outward, c, r, 0, std::uint16_t(3 + i), hits);
      if (!hits.empty()) out[3 + int(i)] = hits[0];
    }
  }
  return out;
}

void compare_with_brute_force(const DrumShape& s, double z_lo, double z_hi, unsigned seed, int& touching) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> angle(0, 2 * pi), depth(0, 0.08), radius(0.003, 0.03), z(z_lo, z_hi);
  const Vec3 ex = s.body.axis;
  for (int i = 0; i < 20000; ++i) {
    const double r = radius(rng);
    const Vec3 c = s.body.center + z(rng) * ex + s.direction_at(angle(rng)) * (s.body.radius - r - depth(rng));
    const auto expected = brute_force(s, c, r);
    std::map<int, WallHit> got;
    for (const WallHit& h : hits_of(s, c, r)) {
      BOOST_TEST(consistent(h, c, r));
      if (h.feature >= 3) got[h.feature] = h;
    }
    BOOST_REQUIRE_EQUAL(got.size(), expected.size());
    for (const auto& [f, h] : expected) {
      BOOST_REQUIRE(got.count(f));
      BOOST_TEST(std::abs(got[f].overlap - h.overlap) < 1e-13);  // rounding of metre-size coordinates
      BOOST_TEST((got[f].normal - h.normal).norm() < 1e-12);
    }
    touching += int(expected.size());
  }
}
}  // namespace

BOOST_AUTO_TEST_SUITE(bumps)

BOOST_AUTO_TEST_CASE(count_heights_and_shape) {
  const DrumShape s = bumpy(1.2);
  const BumpTexture& t = field(s);
  // round(20 per m^2 x 2 pi 1.8 m x 1.2 m) = round(271.43) = 271.
  BOOST_TEST(t.bumps.size() == 271u);
  double h_lo = 1, h_hi = 0;
  for (const Bump& b : t.bumps) {
    h_lo = std::min(h_lo, b.height);
    h_hi = std::max(h_hi, b.height);
    BOOST_TEST(b.axial >= -0.6);
    BOOST_TEST(b.axial < 0.6);
  }
  BOOST_TEST(h_lo >= 0.03);
  BOOST_TEST(h_hi <= 0.05);
  BOOST_TEST(h_hi - h_lo > 0.018);  // 271 uniform draws span nearly the whole range
  // Bump 7: apex exactly h above the shell on its axis.
  const Bump& b = t.bumps[7];
  const Vec3 dir = b.cos_angle * s.direction_at(0) + b.sin_angle * s.body.axis.cross(s.direction_at(0));
  const Vec3 foot = s.body.center + b.axial * s.body.axis + 1.8 * dir;
  const double r = 0.01;
  const Vec3 c = foot - dir * (b.height + r - 0.002);
  const auto h = hits_of(s, c, r);
  const WallHit* hit = find_feature(h, 3 + 7);
  BOOST_REQUIRE(hit);
  BOOST_TEST(hit->overlap == 0.002, tt::tolerance(1e-9));
  BOOST_TEST((hit->normal + dir).norm() < 1e-12);
  // Meridian profile: walk up the surface and record the lateral offset s(y) where a tiny probe sphere
  // just touches (overlap = probe radius means its centre is on the surface). Probe along the axial
  // direction at height y: bisect the offset.
  const double sigma = 0.05 / (2 * std::sqrt(2 * std::log(2.0)));
  auto surface_offset = [&](double y) {
    double lo = 0, hi = 0.1;
    for (int it = 0; it < 60; ++it) {
      const double mid = 0.5 * (lo + hi);
      std::vector<WallHit> probe;
      collide_bump(b, foot, -dir, foot - y * dir + mid * s.body.axis, 1e-6, 0, 0, probe);
      (probe.empty() || probe[0].overlap < 1e-6 ? hi : lo) = mid;
    }
    return 0.5 * (lo + hi);
  };
  // Half height: the model's half width 2 sigma - (h/2) / (e^{-1/2} h / sigma) = (2 - e^{1/2} / 2) sigma
  // = 1.1756 sigma, vs the Gaussian's sqrt(2 ln 2) sigma = 1.1774 sigma (0.15 %).
  const double half_width = surface_offset(0.5 * b.height);
  BOOST_TEST(half_width == (2 - 0.5 * std::exp(0.5)) * sigma, tt::tolerance(1e-9));
  BOOST_TEST(std::abs(half_width - 0.025) / 0.025 < 0.0016);
  // At the inflection height e^{-1/2} h the cone touches the Gaussian: offset sigma exactly.
  BOOST_TEST(surface_offset(std::exp(-0.5) * b.height) == sigma, tt::tolerance(1e-9));
  // No overhang: the offset shrinks monotonically with height, from 2 sigma at the base to 0 at h.
  double previous = 1;
  for (int i = 0; i <= 20; ++i) {
    const double y = b.height * (0.001 + 0.998 * i / 20);
    const double off = surface_offset(y);
    BOOST_TEST(off < previous);
    BOOST_TEST(off <= 2 * sigma);
    previous = off;
  }
}

BOOST_AUTO_TEST_CASE(buckets_equal_all_bumps_finite) {
  const DrumShape s = bumpy(1.2);
  int touching = 0;
  compare_with_brute_force(s, -0.6, 0.6, 3, touching);  // centres inside the capped drum
  BOOST_TEST(touching > 500);
}

BOOST_AUTO_TEST_CASE(buckets_equal_all_bumps_periodic) {
  // Infinite drum, bump field periodic with 0.3 m (a drum slice); particles across several periods.
  BumpParams p = paper_bumps;
  p.axial_period = 0.3;
  const DrumShape s = bumpy(std::numeric_limits<double>::infinity(), p);
  BOOST_TEST(field(s).periodic);
  int touching = 0;
  compare_with_brute_force(s, -0.2, 0.2, 4, touching);
  BOOST_TEST(touching > 200);
  // Periodicity: a particle and its copy one period further see the same bumps.
  for (int i = 0; i < 50; ++i) {
    const Vec3 ci = s.body.center + (-0.15 + 0.006 * i) * s.body.axis + s.direction_at(0.1 * i) * 1.76;
    const auto h0 = hits_of(s, ci, 0.02), h1 = hits_of(s, ci + 0.3 * s.body.axis, 0.02);
    BOOST_REQUIRE_EQUAL(h0.size(), h1.size());
    for (std::size_t k = 0; k < h0.size(); ++k) {
      BOOST_TEST(h0[k].feature == h1[k].feature);
      BOOST_TEST(h0[k].overlap == h1[k].overlap, tt::tolerance(1e-9));
    }
  }
}

BOOST_AUTO_TEST_CASE(seed_decides_placement) {
  const DrumShape a = bumpy(1.2), b = bumpy(1.2);
  BumpParams p = paper_bumps;
  p.seed = 43;
  const DrumShape other = bumpy(1.2, p);
  BOOST_TEST(field(a).bumps[100].axial == field(b).bumps[100].axial);
  BOOST_TEST(field(a).bumps[100].axial != field(other).bumps[100].axial);
}

BOOST_AUTO_TEST_CASE(bumps_turn_with_the_drum) {
  Wall w;
  w.name = "drum";
  w.shape = bumpy(1.2);
  const DrumShape s0 = std::get<DrumShape>(w.shape);
  const double omega = 0.53;  // rad/s (any rate; 2 pi / 0.53 s = 11.86 s per revolution, paper III drum)
  w.angular_velocity = -omega * s0.body.axis;  // clockwise: the phase decreases
  w.rotation_center = s0.body.center + 0.3 * s0.body.axis;  // any point on the axis
  for (int i = 0; i < 1000; ++i) advance(w, 1e-3);
  const DrumShape& s1 = std::get<DrumShape>(w.shape);
  BOOST_TEST(s1.phase == -omega, tt::tolerance(1e-12));
  const Eigen::AngleAxisd rot(-omega, s0.body.axis);
  const Bump& b = field(s0).bumps[11];
  const Vec3 dir0 = b.cos_angle * s0.direction_at(0) + b.sin_angle * s0.body.axis.cross(s0.direction_at(0));
  const Vec3 c0 = s0.body.center + b.axial * s0.body.axis + dir0 * (1.8 - b.height - 0.009);
  const Vec3 c1 = s0.body.center + rot * (c0 - s0.body.center);
  const auto hits0 = hits_of(s0, c0, 0.01);
  const WallHit* h0 = find_feature(hits0, 14);
  const auto hits1 = hits_of(s1, c1, 0.01);
  const WallHit* h1 = find_feature(hits1, 14);
  BOOST_REQUIRE(h0 && h1);
  BOOST_TEST(h0->overlap == 0.001, tt::tolerance(1e-9));
  BOOST_TEST(h1->overlap == 0.001, tt::tolerance(1e-9));
  BOOST_TEST((rot * h0->normal - h1->normal).norm() < 1e-9);
}

BOOST_AUTO_TEST_CASE(validation) {
  auto message = [](BumpParams p, double length) {
    try {
      bumpy(length, p);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  BumpParams p = paper_bumps;
  p.width = 0;
  BOOST_TEST(message(p, 1.2).find("bumps width") != std::string::npos);
  p = paper_bumps;
  p.height_max = 0.02;
  BOOST_TEST(message(p, 1.2).find("bumps height_max") != std::string::npos);
  p = paper_bumps;
  p.density = -1;
  BOOST_TEST(message(p, 1.2).find("bumps density") != std::string::npos);
  BOOST_TEST(message(paper_bumps, std::numeric_limits<double>::infinity()).find("axial_period") != std::string::npos);
  BOOST_TEST(message(paper_bumps, 1.2) == "no error");
}

BOOST_AUTO_TEST_SUITE_END()
