// PGS kernels (core/ndem/pgs.cpp, issue 8 Performance): the compact particle-pair record (frame + two
// lever arms, contact-local velocity components) must reproduce the general record (nine Jacobian
// vectors per contact, one row at a time on the bodies), which is the kernel the physics tests were
// first validated with. Rows are built by hand for a random cluster of unequal spheres (random masses,
// inertias, normals, tangent frames, velocities), so every coupling term of the compact update
// (m, I, J, K of pgs.cpp) is exercised; fixed and rotation-locked bodies and a moving wall are included.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <random>
#include <thread>

#include "core/ndem/pgs.hpp"

using namespace grainlab;

namespace {

struct Cluster {
  NdemRows rows;
  NdemBodies bodies;
};

// n_bodies spheres, contacts between random pairs with the contact point on the line of centres (as
// core/collision.cpp builds it), plus wall contacts with a wall velocity and a contact point off the
// normal through the centre (general records in any case).
Cluster make_cluster(bool rolling, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> U(-1, 1), P(0, 1);
  const int nb = 12;
  Cluster out;
  NdemBodies& B = out.bodies;
  std::vector<double> radius(nb);
  for (int i = 0; i < nb; ++i) {
    radius[i] = 0.004 + 0.004 * P(rng);
    const double mass = 3700 * 4.18879 * std::pow(radius[i], 3);
    B.v.push_back(0.05 * Vec3(U(rng), U(rng), U(rng)));
    B.w.push_back(5.0 * Vec3(U(rng), U(rng), U(rng)));
    B.inv_mass.push_back(i == 0 ? 0.0 : 1.0 / mass);                     // body 0 fixed
    B.inv_inertia.push_back(i <= 1 ? 0.0 : 1.0 / (0.4 * mass * radius[i] * radius[i]));  // body 1 rotation-locked
  }
  std::vector<std::pair<int, int>> pairs;
  for (int k = 0; k < 30; ++k) {
    const int a = int(P(rng) * nb) % nb, b = int(P(rng) * nb) % nb;
    if (a != b) pairs.push_back({a, b});
  }
  const int walls = 4;
  NdemRows& R = out.rows;
  const std::size_t m = pairs.size() + walls;
  R.resize(m, walls, true);
  R.rolling = rolling;
  R.sigma_t = 1e-6 / 0.005;
  R.sigma_r = 1e-6 / 0.005;
  for (std::size_t i = 0; i < m; ++i) {
    const bool wall = i >= pairs.size();
    const int a = wall ? int(i - pairs.size()) + 2 : pairs[i].first;
    const int b = wall ? -1 : pairs[i].second;
    const Vec3 n = Vec3(U(rng), U(rng), U(rng)).normalized();
    const Vec3 t1 = n.unitOrthogonal();
    const double ang = 3.0 * U(rng);
    const Vec3 t1r = std::cos(ang) * t1 + std::sin(ang) * n.cross(t1);  // random tangent frame
    const Vec3 t2 = n.cross(t1r);
    const double delta = 1e-4 * P(rng);
    R.a[i] = a;
    R.b[i] = b;
    R.contact[i] = std::uint32_t(i);
    R.n[i] = n;
    R.t1[i] = t1r;
    Vec3 ra = -(radius[a] - 0.5 * delta) * n;
    if (wall) ra += 0.3 * radius[a] * t2;  // off the normal through the centre: general record
    R.ra[i] = ra;
    R.arm_b[i] = wall ? 0.0 : radius[b] - 0.5 * delta;
    if (wall)
      for (int r = 0; r < 6; ++r) R.bias[r][i - R.first_wall] = 0.01 * U(rng);
    R.scale[i] = 1.25 * std::pow(std::max(delta, 1e-9), 0.25);
    R.overlap[i] = delta;
    R.sigma_n[i] = 1e-5 * (0.5 + P(rng));
    R.q_n[i] = 0.02 * U(rng);
    R.mu[i] = 0.5;
    R.mu_roll[i] = rolling ? 0.32 * 0.003 : 0.0;
    R.mu_twist[i] = rolling ? 0.1 * 0.003 : 0.0;
    R.restitution[i] = 0.3;
    R.impact_speed[i] = 0.01;
    for (int r = 0; r < 6; ++r) R.lambda[r][i] = r == 0 ? 1e-3 * P(rng) : 1e-5 * U(rng);  // warm start
  }
  for (std::size_t i = 0; i < m; ++i) {
    const double k0 = ndem_row_mass(R, B, i, 0);
    R.inv_diag[0][i] = 1.0 / (R.scale[i] * R.scale[i] * k0 + R.sigma_n[i]);
    for (int r = 1; r < 6; ++r) R.inv_diag[r][i] = 1.0 / (ndem_row_mass(R, B, i, r) + (r < 3 ? R.sigma_t : R.sigma_r));
  }
  return out;
}

// The impact stage's input for the cluster's velocities: approach speeds and which contacts impact.
struct ImpactInput {
  std::vector<char> impacting;
  std::vector<double> u_minus;
};
ImpactInput impact_input(const Cluster& c) {
  const std::size_t m = c.rows.size();
  ImpactInput in{std::vector<char>(m), std::vector<double>(m)};
  for (std::size_t i = 0; i < m; ++i) {
    in.u_minus[i] = normal_velocity(c.rows, c.bodies, i);
    in.impacting[i] = -in.u_minus[i] > c.rows.impact_speed[i];
  }
  return in;
}

// Largest |x - y| / max(|x|, |y|, floor) over all entries.
double rel_diff(const std::vector<Vec3>& x, const std::vector<Vec3>& y, double floor) {
  double d = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    d = std::max(d, (x[i] - y[i]).norm() / std::max({x[i].norm(), y[i].norm(), floor}));
  return d;
}
double rel_diff(const std::vector<double>& x, const std::vector<double>& y, double floor) {
  double d = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    d = std::max(d, std::abs(x[i] - y[i]) / std::max({std::abs(x[i]), std::abs(y[i]), floor}));
  return d;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ndem_pgs_kernel)

// Continuous stage, 3 and 6 rows, box and cone, serial and coloured sweeps, with over-relaxation.
// Tolerance: both kernels do the same Gauss-Seidel updates in the same order and differ only in
// rounding (different association of the same sums, e.g. n.(v_a - v_b) vs n.v_a - n.v_b); 6 sweeps
// of a well-conditioned 34-contact system amplify 1e-16 by far less than 1e6, so 1e-10 relative
// (floored at 1e-12 of the typical magnitude; residuals: see below) separates rounding from any wrong coupling term, which
// shows up at O(1).
BOOST_AUTO_TEST_CASE(compact_record_matches_general_record) {
  for (bool rolling : {false, true})
    for (bool cone : {false, true})
      for (bool coloured : {false, true})
        for (bool record : {true, false}) {  // coloured: the four-lane kernel, with and without residual sums
        const Cluster c = make_cluster(rolling, 7);
        NdemColouring col;
        col.build(c.rows, c.bodies.v.size(), 4);
        PgsOptions opt;
        opt.iterations = 6;  // few sweeps: compares the iteration path, not only the common fixed point
        opt.omega = 1.2;
        opt.cone = cone;
        opt.record_residuals = record;
        if (coloured) opt.colouring = &col;
        Cluster fast = c, ref = c;
        const PgsResult rf = solve_continuous(fast.rows, fast.bodies, opt);
        opt.general_records_only = true;
        const PgsResult rr = solve_continuous(ref.rows, ref.bodies, opt);
        BOOST_TEST_CONTEXT("rolling " << rolling << " cone " << cone << " coloured " << coloured << " residuals " << record) {
          BOOST_TEST(rel_diff(fast.bodies.v, ref.bodies.v, 1e-12 * 0.05) < 1e-10);
          BOOST_TEST(rel_diff(fast.bodies.w, ref.bodies.w, 1e-12 * 5.0) < 1e-10);
          for (int r = 0; r < (rolling ? 6 : 3); ++r) BOOST_TEST(rel_diff(fast.rows.lambda[r], ref.rows.lambda[r], 1e-15) < 1e-10);
          // Residuals are sums of |dlambda|: once converged to rounding level (the 6-row cluster reaches
          // 1e-20 m/s) they are rounding noise of either kernel, so they are compared relative to the first
          // iteration's residual.
          if (record) {
            const double floor_n = 1e-9 * rr.residual_normal.front(), floor_t = 1e-9 * rr.residual_friction.front();
            BOOST_TEST(rel_diff(rf.residual_normal, rr.residual_normal, floor_n) < 1e-6);
            BOOST_TEST(rel_diff(rf.residual_friction, rr.residual_friction, floor_t) < 1e-6);
            if (rolling)
              BOOST_TEST(rel_diff(rf.residual_rolling, rr.residual_rolling, 1e-9 * rr.residual_rolling.front()) < 1e-6);
            BOOST_TEST(rf.residual_normal.front() == rr.residual_normal.front(), boost::test_tools::tolerance(1e-12));
          }
          // The solve did something: velocities moved away from the start.
          BOOST_TEST(rel_diff(fast.bodies.v, c.bodies.v, 1e-12) > 1e-3);
        }
      }
}

// Impact stage: the same comparison (unit scale, Sigma_n = 0, Newton targets for impacting contacts).
BOOST_AUTO_TEST_CASE(compact_record_matches_general_record_impact) {
  for (bool rolling : {false, true}) {
    const Cluster c = make_cluster(rolling, 13);
    const auto [impacting, u_minus] = impact_input(c);
    PgsOptions opt;
    opt.iterations = 6;
    NdemBodies fast = c.bodies, ref = c.bodies;
    std::array<std::vector<double>, 6> jf, jr;
    solve_impact(c.rows, impacting, u_minus, fast, opt, jf);
    opt.general_records_only = true;
    solve_impact(c.rows, impacting, u_minus, ref, opt, jr);
    BOOST_TEST_CONTEXT("rolling " << rolling) {
      BOOST_TEST(rel_diff(fast.v, ref.v, 1e-12 * 0.05) < 1e-10);
      BOOST_TEST(rel_diff(fast.w, ref.w, 1e-12 * 5.0) < 1e-10);
      for (int r = 0; r < 6; ++r) BOOST_TEST(rel_diff(jf[r], jr[r], 1e-15) < 1e-10);
    }
  }
}

// A 3-row solve reads no angular column (inputs or multipliers): rows stored without them (NdemRows::resize(m, false), as
// NdemStepper::setup stores them when no material resists rolling or twisting) solve bit for bit as
// rows that carry them, in both stages, serial and coloured.
BOOST_AUTO_TEST_CASE(three_row_solve_needs_no_angular_columns) {
  const Cluster c = make_cluster(false, 7);
  Cluster trimmed = c;
  NdemRows& T = trimmed.rows;
  T.angular_columns = false;
  for (auto* v : {&T.mu_roll, &T.mu_twist, &T.bias[3], &T.bias[4], &T.bias[5], &T.inv_diag[3], &T.inv_diag[4],
                  &T.inv_diag[5], &T.lambda[3], &T.lambda[4], &T.lambda[5]})
    *v = {};
  NdemColouring col;
  col.build(c.rows, c.bodies.v.size(), 4);
  for (bool coloured : {false, true}) {
    PgsOptions opt;
    opt.iterations = 6;
    opt.omega = 1.2;
    if (coloured) opt.colouring = &col;
    Cluster full = c, part = trimmed;
    solve_continuous(full.rows, full.bodies, opt);
    solve_continuous(part.rows, part.bodies, opt);
    BOOST_TEST_CONTEXT("coloured " << coloured) {
      BOOST_TEST(part.bodies.v == full.bodies.v);
      BOOST_TEST(part.bodies.w == full.bodies.w);
      for (int r = 0; r < 3; ++r) BOOST_TEST(part.rows.lambda[r] == full.rows.lambda[r]);
    }
  }
  const auto [impacting, u_minus] = impact_input(c);
  NdemBodies full = c.bodies, part = c.bodies;
  std::array<std::vector<double>, 6> jf, jp;
  solve_impact(c.rows, impacting, u_minus, full, {}, jf);
  solve_impact(T, impacting, u_minus, part, {}, jp);
  BOOST_TEST(part.v == full.v);
  BOOST_TEST(part.w == full.w);
  for (int r = 0; r < 6; ++r) BOOST_TEST(jp[r] == jf[r]);
}

// A particle pair whose contact point is off the line of centres must not use the compact record
// (which assumes p - x_a parallel to n): the solve then equals the general-record solve bitwise.
BOOST_AUTO_TEST_CASE(off_centre_pair_uses_general_record) {
  Cluster c = make_cluster(true, 21);
  for (std::size_t i = 0; i < c.rows.size(); ++i) {
    if (c.rows.b[i] < 0) continue;
    c.rows.ra[i] += 1e-4 * c.rows.t1[i];
  }
  PgsOptions opt;
  opt.iterations = 20;
  Cluster fast = c, ref = c;
  solve_continuous(fast.rows, fast.bodies, opt);
  opt.general_records_only = true;
  solve_continuous(ref.rows, ref.bodies, opt);
  BOOST_TEST(rel_diff(fast.bodies.w, ref.bodies.w, 1e-300) == 0.0);
  BOOST_TEST(rel_diff(fast.rows.lambda[1], ref.rows.lambda[1], 1e-300) == 0.0);
}

// The solver keeps its packed records (plain and four-lane) per thread between solves and does not
// zero them (the fills write every field): a solve after another system's solve on the same thread must
// equal the same solve on a fresh thread, bit for bit, in both stages, serial and coloured, 3 and 6 rows.
BOOST_AUTO_TEST_CASE(a_solve_on_reused_scratch_equals_one_on_fresh_scratch) {
  for (bool rolling : {false, true})
    for (bool coloured : {false, true}) {
      const Cluster c = make_cluster(rolling, 7), other = make_cluster(rolling, 21);
      NdemColouring col, other_col;
      col.build(c.rows, c.bodies.v.size(), 4);
      other_col.build(other.rows, other.bodies.v.size(), 4);
      PgsOptions opt;
      opt.iterations = 6;
      opt.omega = 1.2;
      auto continuous = [&](const Cluster& in, const NdemColouring& colouring, Cluster& out) {
        opt.colouring = coloured ? &colouring : nullptr;
        out = in;
        solve_continuous(out.rows, out.bodies, opt);
      };
      auto impact = [&](Cluster& out, const NdemColouring& colouring, std::array<std::vector<double>, 6>& impulse) {
        opt.colouring = coloured ? &colouring : nullptr;
        const auto [hits, speeds] = impact_input(out);
        solve_impact(out.rows, hits, speeds, out.bodies, opt, impulse);
      };
      // Fresh: each stage on a thread of its own. Reused: both stages of another system first, then these.
      Cluster fresh, reused, filler;
      std::array<std::vector<double>, 6> j_fresh, j_reused, j_filler;
      std::thread([&] { continuous(c, col, fresh); }).join();
      std::thread([&] { impact(fresh, col, j_fresh); }).join();
      std::thread([&] {
        continuous(other, other_col, filler);
        impact(filler, other_col, j_filler);
        continuous(c, col, reused);
        impact(reused, col, j_reused);
      }).join();
      BOOST_TEST_CONTEXT("rolling " << rolling << " coloured " << coloured) {
        BOOST_TEST(rel_diff(fresh.bodies.v, reused.bodies.v, 1e-300) == 0.0);
        BOOST_TEST(rel_diff(fresh.bodies.w, reused.bodies.w, 1e-300) == 0.0);
        for (int r = 0; r < (rolling ? 6 : 3); ++r) {
          BOOST_TEST(rel_diff(fresh.rows.lambda[r], reused.rows.lambda[r], 1e-300) == 0.0);
          BOOST_TEST(rel_diff(j_fresh[r], j_reused[r], 1e-300) == 0.0);
        }
        BOOST_TEST(rel_diff(fresh.bodies.v, c.bodies.v, 1e-12) > 1e-3);  // the solves did something
      }
    }
}

BOOST_AUTO_TEST_SUITE_END()
