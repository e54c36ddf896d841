// Oblique impact of a sphere on a fixed plane: tangential rebound and spin.
//
// Rigid-body theory (e.g. Walton 1993; Maw, Barber & Fawcett 1976 for the compliant case), sphere with
// I = 2/5 m R^2, impact speeds v_n (normal) and v_t (tangential), no initial spin:
//   gross sliding (v_t > 7/2 mu (1 + e) v_n): v_t+ = v_t - mu (1 + e) v_n, w+ = 5 mu (1 + e) v_n / (2 R)
//   sticking: v_t+ = 5/7 v_t, w+ = v_t+ / R (rolling), for a tangentially *rigid* contact.
// With a compliant tangential spring the sticking regime stores and returns tangential energy and the
// rebound differs from 5/7 (it can even reverse); 5/7 is recovered in the limit of a stiff, critically
// damped spring, which is what the second test checks.
#include <boost/test/unit_test.hpp>

#include <cmath>

#include "experiments/sdem_scenarios.hpp"

using namespace grainlab;
using namespace grainlab::sdem;

BOOST_AUTO_TEST_SUITE(sdem_oblique)

namespace {
ObliqueSetup stiff_sphere(double angle, double mu, double e) {
  ObliqueSetup s;
  // A stiff sphere (peak overlap ~0.6 % of R) so that the lever arm R - d of the contact point is
  // within ~0.5 % of R; the rigid theory assumes R.
  s.sphere.youngs_modulus = 5e8;
  s.sphere.friction = mu;
  s.sphere.restitution = e;
  s.velocity = 0.5;
  s.angle_deg = angle;
  return s;
}
}  // namespace

// Gross sliding throughout the contact: each step's tangential force is exactly mu f_n along -x,
// so the tangential impulse is exactly mu times the normal impulse. Checked against the *measured*
// normal rebound to round-off (1e-9 relative), and against the requested e within mu * 1e-2 * v_n.
BOOST_AUTO_TEST_CASE(gross_sliding_exact) {
  const double mu = 0.1, e = 0.5;
  const ObliqueResult r = run_oblique(stiff_sphere(60, mu, e));
  const double e_measured = r.vn_after / r.vn_before;
  BOOST_TEST_MESSAGE("sliding: vt+ " << r.vt_after << " e " << e_measured << " spin " << r.spin_after);
  BOOST_TEST(r.vt_before > 3.5 * mu * (1 + e) * r.vn_before);  // the regime really is gross sliding
  BOOST_TEST(r.vt_after == r.vt_before - mu * (1 + e_measured) * r.vn_before, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(std::abs(r.vt_after - (r.vt_before - mu * (1 + e) * r.vn_before)) < mu * 1e-2 * r.vn_before);
  // Spin: the lever arm is R - d (contact point on the deformed surface), not R: within 1 %.
  const double R = 0.005;
  BOOST_TEST(r.spin_after == 5 * mu * (1 + e_measured) * r.vn_before / (2 * R), boost::test_tools::tolerance(0.01));
}

// Sticking with a stiff (100x Mindlin), critically damped tangential spring: the slip is killed within
// a small fraction of the contact time and the spring then relaxes, so the contact behaves as
// tangentially rigid: v_t+ = 5/7 v_t and rolling spin. Tolerance 2 %: the initial micro-slip while
// f_n is still small and the R - d lever arm are each below 1 %.
BOOST_AUTO_TEST_CASE(sticking_rigid_limit) {
  const double mu = 0.5, e = 0.5;
  ObliqueSetup s = stiff_sphere(10, mu, e);
  s.settings.tangential_stiffness_factor = 100;
  s.settings.tangential_damping_ratio = 1.0;
  s.dt_fraction = 1e-3;
  const ObliqueResult r = run_oblique(s);
  BOOST_TEST_MESSAGE("stick stiff: vt+/vt " << r.vt_after / r.vt_before << " spin*R/vt+ " << r.spin_after * 0.005 / r.vt_after);
  BOOST_TEST(r.vt_before < 3.5 * mu * (1 + e) * r.vn_before);  // sticking regime
  BOOST_TEST(r.vt_after == 5.0 / 7.0 * r.vt_before, boost::test_tools::tolerance(0.02));
  BOOST_TEST(r.spin_after * 0.005 == r.vt_after, boost::test_tools::tolerance(0.02));
}

// The default compliant Mindlin spring without tangential damping is *not* tangentially rigid: the
// stored tangential energy is returned and the rebound departs from 5/7 (Maw, Barber & Fawcett).
// This documents the model rather than a number: we require a clear departure (> 3 %; measured 6.8 %
// for this case, 0.763 instead of 0.714) while the rigid-limit test above agrees to 0.13 %.
BOOST_AUTO_TEST_CASE(sticking_compliant_differs) {
  ObliqueSetup s = stiff_sphere(10, 0.5, 0.5);
  s.settings.tangential_damping_ratio = 0.0;
  s.dt_fraction = 2e-3;
  const ObliqueResult r = run_oblique(s);
  BOOST_TEST_MESSAGE("stick compliant: vt+/vt " << r.vt_after / r.vt_before);
  BOOST_TEST(std::abs(r.vt_after / r.vt_before / (5.0 / 7.0) - 1) > 0.03);
  // Angular momentum about the contact point is conserved by any tangential force at the contact
  // (lever arm R - d ~ R): m v_t R + I w stays m v_t- R within 1 %.
  const double R = 0.005;
  BOOST_TEST(r.vt_after * R + 0.4 * R * R * r.spin_after == r.vt_before * R, boost::test_tools::tolerance(0.01));
}

BOOST_AUTO_TEST_SUITE_END()
