// Periodic boundaries in any of the three axes, each pair of faces on its own (issue 27 item 5;
// CollisionSettings::periodic, docs/periodic.md): in SDEM and NDEM a particle crossing each face wraps,
// a contact across each periodic face gives the force of the same pair in the interior, and a triply
// periodic box conserves momentum.
#include <boost/test/unit_test.hpp>

#include <random>

#include "core/ndem/ndem_stepper.hpp"
#include "core/sdem/sdem_stepper.hpp"
#include "core/world.hpp"

using namespace grainlab;
namespace tt = boost::test_tools;

namespace {

constexpr double box_lo = -0.01, box_hi = 0.03, r = 0.002;

World box(std::array<bool, 3> axes, double restitution = 0.8) {
  World w;
  w.gravity.g.setZero();
  Material m;
  m.restitution = restitution;
  m.friction = 0.4;
  m.youngs_modulus = 1e7;
  w.add_material(m);
  for (int k = 0; k < 3; ++k)
    if (axes[k]) w.collision.set_periodic(k, box_lo, box_hi);
  return w;
}

SdemSettings sdem_settings() {
  SdemSettings s;
  s.time_step = 1e-6;
  return s;
}

NdemSettings ndem_settings() {
  NdemSettings s;
  s.time_step = 1e-4;
  s.wrap_periodic = true;
  return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(periodic_box)

// Each of the six faces: a sphere 0.1 mm inside it moving out at 1 m/s is, after 1 ms, 0.9 mm inside the
// opposite face; only that axis is periodic (the other pairs of faces are open).
BOOST_AUTO_TEST_CASE(particle_crossing_each_face_wraps) {
  for (int method = 0; method < 2; ++method)
    for (int k = 0; k < 3; ++k)
      for (int side : {-1, 1}) {
        std::array<bool, 3> axes{false, false, false};
        axes[k] = true;
        World w = box(axes);
        Vec3 x = Vec3::Constant(0.01), v = Vec3::Zero();
        x[k] = side > 0 ? box_hi - 1e-4 : box_lo + 1e-4;
        v[k] = side * 1.0;
        w.add_sphere(x, r, 0, v);
        const double t_end = 1e-3;
        if (method == 0) {
          SdemStepper st(sdem_settings());
          while (w.time < t_end - 1e-12) st.step(w);
        } else {
          NdemStepper st(ndem_settings());
          while (w.time < t_end - 1e-12) st.step(w);
        }
        const double expected = side > 0 ? box_lo + 0.9e-3 : box_hi - 0.9e-3;
        BOOST_TEST_CONTEXT("method " << method << " axis " << k << " side " << side) {
          BOOST_TEST(w.particles.position[0][k] == expected, tt::tolerance(1e-9));
          BOOST_TEST(w.particles.position[0][k] >= box_lo);
          BOOST_TEST(w.particles.position[0][k] < box_hi);
          for (int j = 0; j < 3; ++j)
            if (j != k) BOOST_TEST(w.particles.position[0][j] == 0.01);
        }
      }
}

// A pair touching through face k (a just inside hi, b just inside lo) against the same pair in the
// interior, with the same relative position and velocities: the same contact force after a few steps
// of approach (SDEM: force on a; NDEM: velocity change of a), to rounding.
BOOST_AUTO_TEST_CASE(contact_across_each_face_matches_the_interior) {
  const Vec3 va(-0.3, 0.1, 0.05), vb(0.2, -0.1, 0.0);
  for (int method = 0; method < 2; ++method)
    for (int k = 0; k < 3; ++k) {
      // a - b: b lies 3.6 mm beyond a along +k (overlap about 0.3 mm), slightly off the axis.
      Vec3 rel(0.0007, -0.0004, 0.0005);
      rel[k] = -0.0036;
      auto run = [&](bool across) {
        World w = box({true, true, true});
        Vec3 xa = Vec3::Constant(0.01);
        if (across) xa[k] = box_hi - 0.0005;  // b then lies 3.1 mm beyond the hi face: wrapped to lo + 3.1 mm
        w.add_sphere(xa, r, 0, va);
        w.add_sphere(xa - rel, r, 0, vb);
        w.wrap_periodic();
        if (across) BOOST_TEST(w.particles.position[1][k] < box_lo + 0.004);
        if (method == 0) {
          SdemStepper st(sdem_settings());
          for (int i = 0; i < 5; ++i) st.step(w);
          return Vec3(w.particles.force[0]);
        }
        NdemStepper st(ndem_settings());
        st.step(w);
        return Vec3(w.particles.velocity[0] - va);
      };
      const Vec3 inside = run(false), across = run(true);
      BOOST_TEST_CONTEXT("method " << method << " axis " << k) {
        BOOST_TEST(inside.norm() > 0);
        BOOST_TEST((across - inside).norm() <= 1e-9 * inside.norm());
      }
    }
}

// 300 spheres with random velocities in a triply periodic box, SDEM and NDEM: total momentum is kept to
// rounding while they collide through every face.
BOOST_AUTO_TEST_CASE(triply_periodic_box_conserves_momentum) {
  for (int method = 0; method < 2; ++method) {
    World w = box({true, true, true});
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-1, 1);
    const int m = 7;  // 7^3 lattice sites, spacing 5.7 mm > 2 r
    for (int i = 0; i < 300; ++i) {
      const Vec3 x(box_lo + (i % m + 0.5) * 0.04 / m, box_lo + (i / m % m + 0.5) * 0.04 / m, box_lo + (i / (m * m) + 0.5) * 0.04 / m);
      w.add_sphere(x, r, 0, Vec3(u(rng), u(rng), u(rng)));
    }
    auto momentum = [&] {
      Vec3 p = Vec3::Zero();
      for (std::size_t i = 0; i < w.particles.size(); ++i) p += w.particles.mass[i] * w.particles.velocity[i];
      return p;
    };
    double scale = 0;
    for (std::size_t i = 0; i < w.particles.size(); ++i) scale += w.particles.mass[i] * w.particles.velocity[i].norm();
    const Vec3 p0 = momentum();
    std::uint64_t touching = 0;
    if (method == 0) {
      SdemStepper st(sdem_settings());
      for (int k = 0; k < 3000; ++k) st.step(w);
    } else {
      NdemStepper st(ndem_settings());
      for (int k = 0; k < 30; ++k) st.step(w);
    }
    for (const Contact& c : w.contacts()) touching += c.overlap > 0;
    BOOST_TEST_CONTEXT("method " << method) {
      BOOST_TEST(w.detector.stats().candidates > 0u);
      BOOST_TEST((momentum() - p0).norm() <= 1e-12 * scale);
    }
    BOOST_TEST_MESSAGE("method " << method << ": touching at the end " << touching);
  }
}

BOOST_AUTO_TEST_SUITE_END()
