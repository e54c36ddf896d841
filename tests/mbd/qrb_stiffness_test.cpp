// A QRB's internal forces from its own stiffness system (core/mbd/qrb_stiffness, Gavrilov 1999 Sec.
// 5.7.7-5.7.8) against hand calculations and statics, and against the minimum-norm force balance where the
// two differ. The perturbation that turns each test red is named in its comment (measured by editing the
// code and rerunning).
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <numbers>

#include "core/error.hpp"
#include "core/mbd/qrb_dynamics.hpp"
#include "core/mbd/qrb_stiffness.hpp"

using namespace grainlab::mbd;

namespace {
constexpr double r = 0.01;
double disk_mass() { return 1190 * std::numbers::pi * r * r; }

Eigen::VectorXd load3(double fx, double fy, double torque_over_r) { return Eigen::Vector3d(fx, fy, torque_over_r); }

// A free triangle of unit-spaced members with springs along its sides, loaded by a balanced set.
QrbStiffnessProblem free_triangle(int grounded) {
  QrbStiffnessProblem p;
  p.members = 3;
  const Vec2 x[3] = {{0, 0}, {1, 0}, {0.5, std::sqrt(3.0) / 2}};
  for (auto [a, b] : {std::pair{0, 1}, std::pair{1, 2}, std::pair{0, 2}})
    p.springs.push_back({a, b, (x[b] - x[a]).normalized(), 1e6, 1e5, 0, 0});
  p.load.resize(9);
  p.load << 3, -1, 0.2, -1, 2, -0.1, -2, -1, 0.0;  // forces sum to zero
  // torque about the origin: sum x cross F + sum r (torque / r) with r = 0.5 for every member
  const double moment = 1 * 2 - 0 * (-1) + 0.5 * (-1) - std::sqrt(3.0) / 2 * (-2) + 0.5 * (0.2 - 0.1 + 0.0);
  p.load[8] = -moment / 0.5;  // member 2's torque balances the moment
  p.grounded = grounded;
  return p;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(mbd_qrb_stiffness)

// Red when K_eta and K_tau are swapped in the assembled matrix (measured: 30 N / -10 N, residual 19) or
// when the r phi lever is dropped from d_tau (the rotation has no stiffness: residual inf). The minimum-norm
// reading would split 1 N / 1 N.
BOOST_AUTO_TEST_CASE(collinear_links_of_unequal_stiffness_share_a_load_by_stiffness) {
  const double k1 = 1e6, k2 = 3e6, force = 2.0;
  QrbStiffnessProblem p;
  p.members = 1;
  p.springs.push_back({0, -1, {-1, 0}, k1, 1e5, 0, 0});  // support on the left
  p.springs.push_back({0, -1, {1, 0}, k2, 1e5, 0, 0});   // support on the right, the same K_tau
  p.load = load3(force, 0, 0);
  for (QrbForceSolver solver : {QrbForceSolver::conjugate_gradient, QrbForceSolver::cholesky}) {
    const QrbStiffnessSolution s = solve_qrb_stiffness(p, solver);
    BOOST_TEST(s.residual < 1e-12);
    BOOST_TEST(s.normal[1] == force * k2 / (k1 + k2), boost::test_tools::tolerance(1e-10));   // pushed: compression
    BOOST_TEST(s.normal[0] == -force * k1 / (k1 + k2), boost::test_tools::tolerance(1e-10));  // pulled: tension
    BOOST_TEST(std::abs(s.normal[1] - 0.5 * force) > 0.2 * force);  // not the minimum-norm split
    BOOST_TEST(std::abs(s.tangential[0]) < 1e-12);
    BOOST_TEST(s.displacement[0] == force / (k1 + k2), boost::test_tools::tolerance(1e-10));
  }
}

// A prestress s0 adds to the response (Eq. 4.35's device): the springs' forces (5 N and 3 N of compression,
// out of balance by 2 N) and the load (2 N) are balanced by the stiffness split of their sum, 4 N: the left
// link eases by 1 N, the right one takes 3 N more. Red when the prestress pairs are left out of K d = F (the
// split of the 2 N load alone: 4.5 N and 4.5 N, residual 0.8).
BOOST_AUTO_TEST_CASE(prestress_adds_to_the_stiffness_response) {
  QrbStiffnessProblem p;
  p.members = 1;
  p.springs.push_back({0, -1, {-1, 0}, 1e6, 1e5, 5.0, 0});
  p.springs.push_back({0, -1, {1, 0}, 3e6, 1e5, 3.0, 0});
  p.load = load3(2.0, 0, 0);
  const QrbStiffnessSolution s = solve_qrb_stiffness(p, QrbForceSolver::conjugate_gradient);
  BOOST_TEST(s.residual < 1e-12);
  BOOST_TEST(s.normal[0] == 4.0, boost::test_tools::tolerance(1e-10));
  BOOST_TEST(s.normal[1] == 6.0, boost::test_tools::tolerance(1e-10));
}

// Grounding (002 l.2596-2604): with balanced loads the stresses do not depend on the member held, and the
// held member's reaction is zero (the residual covers it). Red when K_eta and K_tau are swapped in the
// assembled matrix (measured residual 8.8).
BOOST_AUTO_TEST_CASE(a_free_qrb_grounded_at_any_member_gives_the_same_stresses) {
  const QrbStiffnessSolution s0 = solve_qrb_stiffness(free_triangle(0), QrbForceSolver::cholesky);
  BOOST_TEST(s0.residual < 1e-12);
  for (int g : {1, 2}) {
    const QrbStiffnessSolution s = solve_qrb_stiffness(free_triangle(g), QrbForceSolver::conjugate_gradient);
    BOOST_TEST(s.residual < 1e-9);
    for (int k = 0; k < 3; ++k) {
      BOOST_TEST(s.normal[k] == s0.normal[k], boost::test_tools::tolerance(1e-8));
      BOOST_TEST(s.tangential[k] == s0.tangential[k], boost::test_tools::tolerance(1e-8));
    }
  }
}

BOOST_AUTO_TEST_CASE(a_mechanism_or_a_bad_problem_is_reported) {
  QrbStiffnessProblem p;
  p.members = 1;
  p.springs.push_back({0, -1, {0, -1}, 1e6, 1e5, 0, 0});  // one support: the disk can roll about it
  p.load = load3(0, -1, 0.5);
  BOOST_TEST(std::isinf(solve_qrb_stiffness(p, QrbForceSolver::cholesky).residual));
  BOOST_TEST(solve_qrb_stiffness(p, QrbForceSolver::conjugate_gradient).residual > 1e-3);
  p.springs[0].k_normal = 0;
  BOOST_CHECK_THROW(solve_qrb_stiffness(p, QrbForceSolver::cholesky), grainlab::InputError);
  p.springs[0].k_normal = 1e6;
  p.load = load3(0, 0, 0).head<2>();
  BOOST_CHECK_THROW(solve_qrb_stiffness(p, QrbForceSolver::cholesky), grainlab::InputError);
}

// One disk in a corner (floor and right wall, a fixed QRB) under gravity pointing into the corner,
// (P, -P): one degree of indeterminacy, a tangential self-stress t (s_floor = t, s_wall = -t). By hand
// from K d = F (dofs x, y, r phi): d = (P, -P, 0) / (K_eta + K_tau), so t = -P K_tau / (K_eta + K_tau) and
// the wall's compression P K_eta / (K_eta + K_tau). The least-squares option gives t = -P / 3: LSCG's
// diagonal preconditioner makes it the minimum of sum f_eta^2 + 2 sum s_tau^2 (the tangential columns carry
// the torque row too), not of the plain norm (t = -P / 2).
// Red when the D'Alembert load has the wrong sign (measured t = +0.333 N for -0.333 N, the wall pulls) and
// when the r phi lever is dropped (residual inf).
BOOST_AUTO_TEST_CASE(a_disk_in_a_corner_splits_its_weight_by_stiffness_not_by_minimum_norm) {
  MbdSettings st;
  const double p_each = 9.8;
  st.gravity = {p_each, -p_each};
  MbdSystem s(st);
  s.add_segment({-1, 0}, {1, 0});    // floor
  s.add_segment({0.1, -1}, {0.1, 1});  // right wall
  s.add_disk({0.1 - r + 1e-12, r - 1e-12}, r, disk_mass());
  s.connect_touching();
  BOOST_TEST_REQUIRE(s.links().size() == 2u);
  QrbDynamicsOptions opt;
  opt.detect_interval = opt.check_interval = 1 << 30;
  QrbDynamics q(s, opt);
  q.group({0}, true);
  const double big_p = disk_mass() * p_each;
  const LinkCoefficients& w = st.wall_link;
  const double t = -big_p * w.k_tangential / (w.k_normal + w.k_tangential);
  for (QrbForceMethod m : {QrbForceMethod::conjugate_gradient, QrbForceMethod::cholesky, QrbForceMethod::least_squares}) {
    const QrbInternalForces f = q.internal_forces(0, m);
    BOOST_TEST_REQUIRE(f.links.size() == 2u);
    BOOST_TEST(f.residual < 1e-9);
    const int floor = s.links()[f.links[0]].segment() == 0 ? 0 : 1, wall = 1 - floor;
    const double expected_t = m == QrbForceMethod::least_squares ? -big_p / 3 : t;
    BOOST_TEST(f.tangential[floor] == expected_t, boost::test_tools::tolerance(1e-4));
    BOOST_TEST(f.tangential[wall] == -expected_t, boost::test_tools::tolerance(1e-4));
    BOOST_TEST(f.normal[wall] == big_p + expected_t, boost::test_tools::tolerance(1e-4));
    BOOST_TEST(f.normal[floor] == big_p + expected_t, boost::test_tools::tolerance(1e-4));
  }
}

// A triangle of disks on a floor under gravity (a fixed QRB: two floor links, three internal links, one
// degree of indeterminacy) against statics: each member in balance, the floor carries the weight 3 m g,
// half on each support by symmetry, its horizontal reactions cancel, the two sides press alike (0.558 m g;
// the base link is pulled, -0.217 m g: without prestress the floor's tangential springs alone cannot stop
// the spreading). Red when the D'Alembert load has the wrong sign (b in place of -b: measured -5.50 N on
// each support, the floor pulls) and when K_eta, K_tau are swapped (residual 9.8).
BOOST_AUTO_TEST_CASE(a_triangle_on_a_floor_balances_its_weight_as_statics_says) {
  MbdSettings st;
  MbdSystem s(st);
  s.add_segment({-1, 0}, {1, 0});
  const double o = 2 * r - 1e-12;
  s.add_disk({0, r - 1e-12}, r, disk_mass());
  s.add_disk({o, r - 1e-12}, r, disk_mass());
  s.add_disk({0.5 * o, r - 1e-12 + o * std::sqrt(3.0) / 2}, r, disk_mass());
  s.connect_touching();
  BOOST_TEST_REQUIRE(s.links().size() == 5u);
  QrbDynamicsOptions opt;
  opt.detect_interval = opt.check_interval = 1 << 30;
  QrbDynamics q(s, opt);
  q.group({0, 1, 2}, true);
  const double weight = disk_mass() * 9.8;
  const QrbInternalForces f = q.internal_forces(0);
  BOOST_TEST(f.residual < 1e-9);
  Vec2 support[2] = {Vec2::Zero(), Vec2::Zero()};
  double side[2] = {0, 0};
  for (std::size_t k = 0; k < f.links.size(); ++k) {
    const Link& l = s.links()[f.links[k]];
    const Vec2 eta = f.eta[k], tau(-eta.y(), eta.x());
    if (l.is_wall()) support[l.a] += -f.normal[k] * eta + f.tangential[k] * tau;
    if (l.b == 2) side[l.a] = f.normal[k];
  }
  BOOST_TEST(side[0] > 0.5 * weight);
  BOOST_TEST(side[0] == side[1], boost::test_tools::tolerance(1e-6));
  BOOST_TEST(support[0].y() + support[1].y() == 3 * weight, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(support[0].y() == 1.5 * weight, boost::test_tools::tolerance(1e-6));
  BOOST_TEST(std::abs(support[0].x() + support[1].x()) < 1e-9 * weight);
}

BOOST_AUTO_TEST_SUITE_END()
