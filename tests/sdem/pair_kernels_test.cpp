// The four-lane SDEM pair kernel (core/sdem/pair_kernels.hpp) against the scalar kernel it mirrors, on
// random candidate sets that put every branch of the scalar kernel in some lane: touching and separated
// pairs, pairs that separated this step (history reset), fixed pairs, members of one rigid body, zero
// and non-zero springs, sticking and sliding friction, and a periodic axis. The lanes run the same
// operations in the same order; only fused multiply-adds may be formed differently, so results agree
// to a few ulps of their scale (tolerance 1e-12 relative).
#include <boost/test/unit_test.hpp>

#include <random>

#include "core/sdem/pair_kernels.hpp"

using namespace grainlab;

BOOST_AUTO_TEST_SUITE(sdem_pair_kernels)

namespace {

struct Scene {
  ParticleStore p;
  std::vector<Contact> contacts;
  std::vector<Vec3> springs;  ///< tangential spring per contact
  ModelHistory model;  ///< both columns kept
  SdemCandidateConstants constants;
  std::vector<SdemPairCoefficients> table;
};

Scene random_scene(unsigned seed, SdemNormalLaw law) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  Scene s;
  Material m;
  m.youngs_modulus = 5e6;
  m.restitution = 0.5;
  m.friction = 0.3;
  SdemSettings settings;
  settings.normal_law = law;
  settings.linear_stiffness = 1e4;
  settings.viscosity = 1e3;
  s.table = {sdem_pair_coefficients(m, m, settings)};
  const int n = 64;
  for (int i = 0; i < n; ++i) {
    const Vec3 x(0.01 * u(rng), 0.01 * u(rng), 0.01 * u(rng));
    s.p.add(x, 0.004 + 0.002 * u(rng), 2500, 0, Vec3(u(rng), u(rng), u(rng)), 50 * Vec3(u(rng), u(rng), u(rng)));
  }
  for (int i = 0; i < n; i += 9) s.p.fix(i);
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      if ((s.p.position[i] - s.p.position[j]).norm() > 2.2 * 0.006) continue;
      Contact c;
      c.key = pair_key(s.p.id[i], s.p.id[j]);
      c.a = i, c.b = j;
      c.effective_radius = s.p.radius[i] * s.p.radius[j] / (s.p.radius[i] + s.p.radius[j]);
      // Old overlap: positive for half of them (a separated one of these resets its history).
      c.overlap = u(rng) > 0 ? 1e-4 : -1e-4;
      s.springs.push_back(u(rng) > -0.5 ? Vec3(1e-4 * Vec3(u(rng), u(rng), u(rng))) : Vec3::Zero());
      c.age = 7;  // only reset_history touches it and the model history here
      s.contacts.push_back(c);
      s.model.springs.push_back({Vec3(1, 2, 3), 5});
      s.model.multipliers.push_back({Vec3(0, 1, 0), {4, 0, 0}});
    }
  s.model.springs_kept = s.model.multipliers_kept = true;
  s.constants.resize(s.contacts.size());
  for (std::size_t k = 0; k < s.contacts.size(); ++k) {
    const int a = s.contacts[k].a, b = s.contacts[k].b;
    const double inv_m = s.p.inv_mass[a] + s.p.inv_mass[b];
    SdemPairConstants kk = sdem::pair_constants(s.table[0], law, s.contacts[k].effective_radius,
                                                inv_m > 0 ? 1 / inv_m : 0, inv_m > 0, 0);
    kk.same_body = k % 11 == 3;
    kk.radius_a = s.p.radius[a], kk.radius_b = s.p.radius[b];
    s.constants.set(k, kk);
  }
  return s;
}

void check_close(const Vec3& lane, const Vec3& scalar, double scale, const char* what, std::size_t k) {
  BOOST_TEST_CONTEXT(what << " of candidate " << k) {
    BOOST_TEST((lane - scalar).norm() <= 1e-12 * scale, lane.transpose() << " vs " << scalar.transpose());
  }
}

void compare(SdemNormalLaw law, const CollisionSettings& cs, unsigned seed) {
  Scene s = random_scene(seed, law);
  const std::size_t nc = s.contacts.size();
  BOOST_REQUIRE_GE(nc, std::size_t(40));
  const double dt = 1e-5;
  std::vector<Contact> scalar = s.contacts, lanes = s.contacts;
  std::vector<Vec3> scalar_springs = s.springs;
  ModelHistory m_scalar = s.model, m_lanes = s.model;
  std::vector<PairWrench> w_scalar(nc), w_lanes(nc);
  std::vector<Vec3> f_lanes(nc, Vec3::Constant(std::nan("")));
  // The lane kernel's compact state: particle indices and history.
  std::vector<std::int32_t> ab;
  std::vector<PairHistory> history;
  for (std::size_t k = 0; k < nc; ++k)
    ab.push_back(s.contacts[k].a), ab.push_back(s.contacts[k].b), history.push_back({s.contacts[k].overlap, s.springs[k]});
  int touching = 0, sliding = 0, reset = 0;
  auto run = [&](auto law_tag) {
    constexpr SdemNormalLaw L = decltype(law_tag)::value;
    for (std::size_t k = 0; k < nc; ++k)
      sdem::pair_wrench<L>(s.p, cs, s.constants.at(k), s.table.data(), dt, scalar[k], scalar_springs[k], &m_scalar, k, w_scalar[k]);
    std::size_t k = 0;
    for (; k + sdem::lane_count <= nc; k += sdem::lane_count)
      sdem::pair_wrench_lanes<L>(s.p, cs, s.constants, k, dt, &ab[2 * k], &history[k], &w_lanes[k], &f_lanes[k], &lanes[k], &m_lanes);
    for (; k < nc; ++k) {
      sdem::pair_wrench<L>(s.p, cs, s.constants.at(k), s.table.data(), dt, lanes[k], history[k].tangential_spring, &m_lanes, k,
                           w_lanes[k]);
      history[k].overlap = lanes[k].overlap;
      f_lanes[k] = lanes[k].force;
    }
  };
  switch (law) {
    case SdemNormalLaw::hertz: run(std::integral_constant<SdemNormalLaw, SdemNormalLaw::hertz>{}); break;
    case SdemNormalLaw::viscoelastic: run(std::integral_constant<SdemNormalLaw, SdemNormalLaw::viscoelastic>{}); break;
    case SdemNormalLaw::linear: run(std::integral_constant<SdemNormalLaw, SdemNormalLaw::linear>{}); break;
  }
  for (std::size_t k = 0; k < nc; ++k) {
    const Contact &x = lanes[k], &y = scalar[k];
    const PairWrench &lane_w = w_lanes[k], &scalar_w = w_scalar[k];
    const double f_scale = 1e-9 + scalar_w.force.norm(), t_scale = 1e-12 + scalar_w.n_cross_f.norm();
    // The lanes write the history and the wrench; of the record only what a reset clears.
    BOOST_TEST(std::abs(history[k].overlap - y.overlap) <= 1e-15);
    check_close(history[k].tangential_spring, scalar_springs[k], 1e-4, "spring", k);
    BOOST_TEST(m_lanes.springs[k].rolling_spring == m_scalar.springs[k].rolling_spring);
    BOOST_TEST(m_lanes.multipliers[k].lambda == m_scalar.multipliers[k].lambda);
    BOOST_TEST(x.age == y.age);
    check_close(lane_w.force, scalar_w.force, f_scale, "wrench force", k);
    BOOST_TEST(f_lanes[k] == lane_w.force);  // the force the records get is the wrench's
    check_close(lane_w.n_cross_f, scalar_w.n_cross_f, t_scale, "n x f", k);
    BOOST_TEST(std::abs(lane_w.la - scalar_w.la) <= 1e-15);
    BOOST_TEST(std::abs(lane_w.lb - scalar_w.lb) <= 1e-15);
    // The torque arms: n x f is the normal's cross product with the force the record holds.
    check_close(scalar_w.n_cross_f, y.normal.cross(scalar_w.force), t_scale, "n x f of the record", k);
    const bool touches = y.overlap > 0 && y.force.norm() > 0;
    touching += touches;
    reset += !(y.overlap > 0) && s.contacts[k].overlap > 0;
    // Sliding: the tangential force sits on the cone, |f_t| = mu f_n.
    const double fn = y.force.dot(y.normal), ft = (y.force - fn * y.normal).norm();
    sliding += touches && std::abs(ft - s.constants.mu[k] * fn) <= 1e-9 * fn;
  }
  // Every branch must have been exercised, or the comparison proves little.
  BOOST_TEST(touching >= 8);
  BOOST_TEST(sliding >= 2);
  BOOST_TEST(reset >= 2);
}

}  // namespace

BOOST_AUTO_TEST_CASE(lanes_match_scalar_kernel_all_laws) {
  const CollisionSettings cs;
  compare(SdemNormalLaw::hertz, cs, 1);
  compare(SdemNormalLaw::viscoelastic, cs, 2);
  compare(SdemNormalLaw::linear, cs, 3);
}

BOOST_AUTO_TEST_CASE(lanes_match_scalar_kernel_periodic) {
  CollisionSettings cs;
  cs.set_periodic(0, -0.01, 0.0125);  // pairs near x = +-0.01 touch through the seam
  compare(SdemNormalLaw::hertz, cs, 4);
}

BOOST_AUTO_TEST_SUITE_END()
