// Event-driven MD engine (core/edmd/): the root formulas, the collision laws, elastic energy
// conservation over 10^6 collisions, a ball on a vibrating plate against an independent computation of
// the impact map, the "schedule all collisions" scenario of Fig. 3.6 and the stall guard on inelastic
// collapse (Gavrilov 002 l.717-800, 845-877; ledger G-E9).
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "core/edmd/cell_store.hpp"
#include "core/edmd/collision_law.hpp"
#include "core/edmd/contact_time.hpp"
#include "core/edmd/event_queue.hpp"
#include "core/edmd/placement.hpp"
#include "core/edmd/system.hpp"
#include "core/error.hpp"
#include "experiments/edmd_scenarios.hpp"

using namespace grainlab;
using namespace grainlab::edmd;

BOOST_AUTO_TEST_SUITE(edmd)

BOOST_AUTO_TEST_CASE(pair_time_roots) {
  // Head-on: gap 1 - 0.5 closed at speed 1.
  BOOST_CHECK_CLOSE(approach_root(1.0 - 0.25, 2 * -1.0, 2 * 1.0), 0.5, 1e-12);
  // Separating, grazing (double root) and missing pairs never collide.
  BOOST_CHECK(approach_root(0.75, 2.0, 2.0) == never);
  BOOST_CHECK(approach_root(1.0 - 0.25, 2 * -std::sqrt(0.75), 2 * 1.0) == never);  // b^2 = |dv|^2 c
  // Random pairs: |dx + dv tau| = sigma at the root and the gap is open before it.
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  int found = 0;
  for (int k = 0; k < 10000; ++k) {
    const S3 dx(u(rng), u(rng), u(rng)), dv(u(rng), u(rng), u(rng));
    const double sigma = 0.3;
    if (dx.squaredNorm() <= sigma * sigma) continue;
    const double tau = approach_root(dx.squaredNorm() - sigma * sigma, 2 * dx.dot(dv), 2 * dv.squaredNorm());
    // Reference: the smaller root of Eq. (3.8), t = -lambda - sqrt(lambda^2 - (|x|^2 - r^2)/|v|^2).
    const double lambda = dx.dot(dv) / dv.squaredNorm();
    const double disc = lambda * lambda - (dx.squaredNorm() - sigma * sigma) / dv.squaredNorm();
    if (disc <= 0 || -lambda - std::sqrt(disc) < 0) {
      BOOST_CHECK(tau == never);
      continue;
    }
    ++found;
    BOOST_CHECK_CLOSE(tau, -lambda - std::sqrt(disc), 1e-9);
    BOOST_CHECK_CLOSE((dx + dv * tau).norm(), sigma, 1e-10);
  }
  BOOST_CHECK(found > 100);
  // Parabolic gap (Eq. 3.12): a ball 1 m above a floor at rest falls in sqrt(2 h / g).
  BOOST_CHECK_CLOSE(approach_root(1.0, 0.0, -9.81), std::sqrt(2 / 9.81), 1e-12);
  // Thrown up at 1 m/s from contact: back after 2 v / g (the root at 0 is departing, not a collision).
  BOOST_CHECK_CLOSE(approach_root(0.0, 1.0, -9.81), 2 / 9.81, 1e-12);
}

// The two-level calendar hands out events in the (time, tie) order of one sorted list of all events, with
// the events of a cleared ball gone: random adds, clears, pops and one ball-free event against a plain list.
BOOST_AUTO_TEST_CASE(calendar_pops_in_time_then_tie_order) {
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> u(0, 1);
  const int balls = 50;
  EventCalendar cal;
  cal.reset(balls);
  std::vector<Event> all;  // reference: every live event
  std::uint32_t tie = 0;
  int popped = 0;
  for (int step = 0; step < 20000; ++step) {
    const double r = u(rng);
    if (r < 0.5) {
      Event e;
      e.time = std::floor(u(rng) * 1000) / 10;  // coarse times: many equal times, ordered by the tie
      e.tie = tie = tie * 1664525u + 1013904223u;
      e.a = u(rng) < 0.02 ? -1 : static_cast<int>(u(rng) * balls);
      if (e.a < 0) std::erase_if(all, [](const Event& x) { return x.a < 0; });  // one ball-free event at most
      cal.add(e);
      all.push_back(e);
    } else if (r < 0.6) {
      const int b = static_cast<int>(u(rng) * balls);
      cal.clear(b);
      std::erase_if(all, [b](const Event& x) { return x.a == b; });
    } else if (!all.empty()) {
      BOOST_REQUIRE(!cal.empty());
      const auto first = std::min_element(all.begin(), all.end(), earlier);
      const Event& got = cal.top();
      BOOST_REQUIRE(got.time == first->time && got.tie == first->tie && got.a == first->a);
      cal.pop();
      all.erase(first);
      ++popped;
    } else {
      BOOST_CHECK(cal.empty());
    }
  }
  BOOST_CHECK(popped > 5000);
}

// The cell store keeps every ball's record, reachable by ball and by scanning its cell, through moves
// and capacity growth (random moves among few cells so that cells overflow their first capacity).
BOOST_AUTO_TEST_CASE(cell_store_keeps_records_through_moves_and_growth) {
  std::mt19937_64 rng(5);
  const int cells = 6, balls = 60;
  CellStore<double> store;
  store.reset(cells, balls);
  std::vector<int> cell_of(balls);
  for (int b = 0; b < balls; ++b) store.insert(b, cell_of[b] = b % cells, 100.0 + b);
  for (int step = 0; step < 5000; ++step) {
    const int b = static_cast<int>(rng() % balls), to = static_cast<int>(rng() % 2);  // crowd cells 0 and 1
    const double r = store.remove(b, cell_of[b]);
    BOOST_REQUIRE_EQUAL(r, 100.0 + b);
    store.insert(b, cell_of[b] = to, r);
  }
  std::vector<int> seen(balls, 0);
  for (int c = 0; c < cells; ++c)
    for (int s = store.first_slot(c); s < store.first_slot(c) + store.count(c); ++s) {
      const int b = store.id(s);
      BOOST_REQUIRE_EQUAL(cell_of[b], c);
      BOOST_REQUIRE_EQUAL(store.slot(b), s);
      BOOST_REQUIRE_EQUAL(store.record(s), 100.0 + b);
      ++seen[b];
    }
  BOOST_CHECK(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
  BOOST_CHECK(store.capacity() >= 32);  // it grew
}

BOOST_AUTO_TEST_CASE(collision_laws_conserve_and_dissipate) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0.1, 2.0), v(-3, 3);
  for (int k = 0; k < 1000; ++k) {
    const double m1 = u(rng), m2 = u(rng), v10 = v(rng), v20 = v(rng), eps = u(rng) / 2;
    const PairOutcome o = pair_collision(m1, m2, v10, v20, eps);
    BOOST_CHECK_SMALL(m1 * o.v1 + m2 * o.v2 - (m1 * v10 + m2 * v20), 1e-12);
    const double ke0 = 0.5 * (m1 * v10 * v10 + m2 * v20 * v20), ke1 = 0.5 * (m1 * o.v1 * o.v1 + m2 * o.v2 * o.v2);
    BOOST_CHECK_SMALL(ke0 - ke1 - o.loss, 1e-12 * ke0);
    BOOST_CHECK_CLOSE(std::abs(o.v2 - o.v1), eps * std::abs(v20 - v10), 1e-9);
    // Wall: dKE = work - loss with (1 + eps) m v20 (v20 - v10); the printed 2 m v20 (v20 - v10) only at eps = 1.
    const WallOutcome w = wall_collision(m1, v10, v20, eps);
    BOOST_CHECK_SMALL(0.5 * m1 * (w.v1 * w.v1 - v10 * v10) - (w.wall_work - w.loss), 1e-12 * (1 + ke0));
    const WallOutcome w1 = wall_collision(m1, v10, v20, 1.0);
    BOOST_CHECK_SMALL(w1.wall_work - wall_energy_printed(m1, v10, v20), 1e-12 * (1 + ke0));
  }
}

BOOST_AUTO_TEST_CASE(elastic_energy_conserved_over_a_million_collisions) {
  Cylinder c;
  c.radius = 0.010, c.height = 0.020;
  Settings s;
  s.gravity = 0;
  System sys(c, s);
  std::mt19937_64 rng(11);
  for (const S3& p : random_positions(c, 400, 0.0005, rng)) sys.add_ball(p, random_direction(rng), 0.0005, 1e-3);
  sys.start();
  const double e0 = sys.kinetic_energy();
  double t = 0;
  while (sys.tally().collisions() < 1000000) sys.run_until(t += 0.5);
  BOOST_TEST_MESSAGE("collisions " << sys.tally().collisions() << " pair " << sys.tally().pair);
  BOOST_CHECK_SMALL(sys.kinetic_energy() / e0 - 1, 1e-11);
  BOOST_CHECK(sys.tally().pair > 200000);
  // Nothing escaped the cylinder and no two balls overlap beyond rounding.
  for (int i = 0; i < sys.size(); ++i) {
    const S3 p = sys.position(i);
    BOOST_CHECK_LE(std::hypot(p.x, p.y), c.radius - 0.0005 + 1e-12);
    BOOST_CHECK(p.z >= 0.0005 - 1e-12 && p.z <= c.height - 0.0005 + 1e-12);
  }
}

BOOST_AUTO_TEST_CASE(gravity_elastic_mechanical_energy_conserved) {
  Cylinder c;
  c.radius = 0.010, c.height = 0.020;
  Settings s;
  System sys(c, s);
  std::mt19937_64 rng(5);
  for (const S3& p : random_positions(c, 200, 0.0005, rng))
    sys.add_ball(p, random_direction(rng) * 0.5, 0.0005, 1e-3);
  sys.start();
  const double e0 = sys.kinetic_energy() + sys.potential_energy();
  sys.run_until(2.0);
  BOOST_TEST_MESSAGE("gravity run collisions " << sys.tally().collisions());
  BOOST_CHECK(sys.tally().collisions() > 10000);
  BOOST_CHECK_SMALL((sys.kinetic_energy() + sys.potential_energy()) / e0 - 1, 1e-11);
}

// Independent impact map of one ball on a plate moving on Eq. (3.19): scan the gap for a sign change, then
// bisect; apply v' = vw + eps (vw - v).
struct Impact {
  double t, v;
};

static std::vector<Impact> plate_map(const ShakeLaw& law, double z0, double eps, double g, double r, int count) {
  std::vector<Impact> out;
  double t0 = 0, x0 = z0, v0 = 0;
  auto gap = [&](double t) { return x0 + v0 * (t - t0) - 0.5 * g * (t - t0) * (t - t0) - r - law.position(t); };
  while (static_cast<int>(out.size()) < count) {
    double a = t0 + 1e-9, h = 2e-6;
    while (gap(a + h) > 0) a += h;
    double b = a + h;
    for (int k = 0; k < 200 && b - a > 1e-16; ++k) {
      const double m = 0.5 * (a + b);
      (gap(m) > 0 ? a : b) = m;
    }
    const double t = 0.5 * (a + b), vb = v0 - g * (t - t0), vw = law.velocity(t);
    const double v = vw + eps * (vw - vb);
    out.push_back({t, v});
    x0 = r + law.position(t), v0 = v, t0 = t;
  }
  return out;
}

BOOST_AUTO_TEST_CASE(ball_on_vibrating_plate_follows_the_impact_map) {
  Cylinder c;
  c.radius = 0.05, c.height = 1.0;
  c.motion = {0.001, 30.0};  // 32 A f^2 = 28.8 m/s^2, about 3 g: the ball bounces, never rests
  // The map is chaotic (errors grow ~10x per impact), so 6 impacts are compared, to 1e-9 s.
  Settings s;
  s.restitution_wall = 0.9;
  System sys(c, s);
  const double r = 0.003;
  sys.add_ball(S3(0, 0, 0.008), S3(0, 0, 0), r, 1e-3);
  std::vector<Impact> engine;
  sys.on_collision = [&](const CollisionRecord& rec) {
    if (rec.wall == bottom) engine.push_back({rec.time, rec.speed_after_normal});
  };
  sys.start();
  const std::vector<Impact> ref = plate_map(c.motion, 0.008, 0.9, 9.81, r, 6);
  sys.run_until(ref.back().t + 1e-9);
  BOOST_REQUIRE_GE(engine.size(), ref.size());
  for (std::size_t k = 0; k < ref.size(); ++k) {
    BOOST_TEST_MESSAGE("impact " << k << " dt " << engine[k].t - ref[k].t << " dv " << engine[k].v - ref[k].v);
    BOOST_CHECK_SMALL(engine[k].t - ref[k].t, 1e-9);
    BOOST_CHECK_SMALL(engine[k].v - ref[k].v, 1e-6);
  }
}

// Fig. 3.6 (002 l.845-854), experiments/edmd_scenarios.cpp.
BOOST_AUTO_TEST_CASE(scheduling_all_collisions_keeps_the_later_one) {
  BOOST_CHECK(edmd_runs::fig36_a_meets_c(true));
  BOOST_CHECK(!edmd_runs::fig36_a_meets_c(false));
  BOOST_CHECK(!edmd_runs::fig36_a_meets_c(true, false));  // nothing deflected: A stops at B
}

BOOST_AUTO_TEST_CASE(inelastic_collapse_stalls_the_clock_at_t_infinity) {
  Cylinder c;
  c.radius = 0.05, c.height = 1.0;
  Settings s;
  s.restitution_wall = 0.5;
  System sys(c, s);
  const double r = 0.005, h = 0.1;
  sys.add_ball(S3(0, 0, r + h), S3(0, 0, 0), r, 1e-3);
  sys.start();
  const double v0 = std::sqrt(2 * 9.81 * h), t_inf = std::sqrt(2 * h / 9.81) + 2 * v0 * 0.5 / (9.81 * 0.5);
  BOOST_CHECK_THROW(sys.run_until(1.0), InstabilityError);
  BOOST_CHECK_CLOSE(sys.time(), t_inf, 1e-6 * 100);
  // The TC model keeps the clock going.
  Settings tc = s;
  tc.tc = 1e-5;
  System sys2(c, tc);
  sys2.add_ball(S3(0, 0, r + h), S3(0, 0, 0), r, 1e-3);
  sys2.start();
  BOOST_CHECK_NO_THROW(sys2.run_until(0.4));
}

BOOST_AUTO_TEST_CASE(spline_loop_needs_the_stall_guard) {
  BOOST_CHECK(edmd_runs::spline_wall_loop(9.81, 0.1, 0.01, 0.9, 0.5).stalled);    // large step: Fig. 3.7 loop
  BOOST_CHECK(!edmd_runs::spline_wall_loop(9.81, 1e-3, 0.01, 0.9, 0.5).stalled);  // small step: bounces
}

BOOST_AUTO_TEST_CASE(bad_input_is_named) {
  Cylinder c;
  Settings s;
  s.restitution_pair = 1.5;
  BOOST_CHECK_THROW(System(c, s), InputError);
  System ok(c, Settings{});
  BOOST_CHECK_THROW(ok.add_ball(S3(0.1, 0, 0.05), S3(), 0.001, 1e-3), InputError);
}

BOOST_AUTO_TEST_SUITE_END()
