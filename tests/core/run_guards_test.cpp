// Run guards (issue 27 item 6; core/run_guards.hpp, docs/guards.md): each warning fires on a scene built
// to trigger it and stays silent on the same scene set up correctly; the warnings collector; the thread
// setting changes no result.
#include <boost/test/unit_test.hpp>

#include <cmath>

#include "core/ndem/ndem_stepper.hpp"
#include "core/run_guards.hpp"
#include "core/run_warnings.hpp"
#include "core/sdem/sdem_guards.hpp"
#include "core/sdem/sdem_stepper.hpp"
#include "tests/ndem/ndem_fixtures.hpp"

using namespace grainlab;
using namespace grainlab::ndem_test;

namespace {

/// Warnings of an NDEM run: a sphere of diameter `d` starting `gap` above the floor at `speed` downwards,
/// `steps` steps of `dt`. The stepper ends inside the scope, so its end-of-run warnings are in.
std::vector<RunWarning> ndem_drop(double d, double gap, double speed, double dt, int steps, double restitution,
                                  double impact_velocity = -1.0) {
  RunWarnings out;
  ScopedRunWarnings scope(out);
  Material m = pellet();
  m.restitution = restitution;
  World w = floor_world(m);
  w.add_sphere(Vec3(0, 0, d / 2 + gap), d / 2, 0, Vec3(0, 0, -speed));
  NdemSettings s;
  s.time_step = dt;
  s.impact_velocity = impact_velocity;
  {
    NdemStepper ndem(s);
    for (int i = 0; i < steps; ++i) ndem.step(w);
  }
  return out.list();
}

bool has(const std::vector<RunWarning>& list, const std::string& code) {
  for (const auto& w : list)
    if (w.code == code) return true;
  return false;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(run_guards)

BOOST_AUTO_TEST_CASE(collector_keeps_the_first_message_and_counts) {
  RunWarnings w;
  w.warn("a", "first");
  w.warn("b", "other");
  w.warn("a", "second");
  const auto list = w.list();
  BOOST_TEST_REQUIRE(list.size() == 2u);
  BOOST_TEST(list[0].code == "a");
  BOOST_TEST(list[0].message == "first");
  BOOST_TEST(list[0].count == 2u);
  BOOST_TEST(w.has("b"));
  RunWarnings outer, inner;
  {
    ScopedRunWarnings s1(outer);
    {
      ScopedRunWarnings s2(inner);
      BOOST_TEST(&current_run_warnings() == &inner);
    }
    BOOST_TEST(&current_run_warnings() == &outer);
  }
  BOOST_TEST(&current_run_warnings() != &outer);  // the process-wide one
}

// (a) e = 0.5 pellet dropped at 0.5 m/s with dt = 1e-4 s: the rule v_imp = 0.02 d / dt = 2.54 m/s puts the
// threshold above the approach speed, so the impact stage never fires and e is ignored.
BOOST_AUTO_TEST_CASE(ndem_impact_never_fired) {
  const auto bad = ndem_drop(pellet_d, 1e-3, 0.5, 1e-4, 100, 0.5);
  BOOST_TEST(has(bad, "ndem_impact_never_fired"));
  BOOST_TEST(bad.size() == 1u);
  // Silent: the same drop with v_imp = 0.05 m/s (the impact stage fires), or with e = 0 (nothing ignored).
  BOOST_TEST(ndem_drop(pellet_d, 1e-3, 0.5, 1e-4, 100, 0.5, 0.05).empty());
  BOOST_TEST(ndem_drop(pellet_d, 1e-3, 0.5, 1e-4, 100, 0.0).empty());
}

// (b) The pellet 1 mm above the floor at 1 m/s with dt = 5 ms is first seen about 4 mm = 0.31 d deep
// (it moves 0.79 radii per step, so the travel guard stays silent); with dt = 1e-4 s it is 0.008 d deep.
BOOST_AUTO_TEST_CASE(ndem_first_touch_overlap) {
  const auto bad = ndem_drop(pellet_d, 1e-3, 1.0, 5e-3, 2, 0.18, 0.05);
  BOOST_TEST(has(bad, "ndem_first_touch_overlap"));
  BOOST_TEST(!has(bad, "ndem_travel_per_step"));
  BOOST_TEST(ndem_drop(pellet_d, 1e-3, 1.0, 1e-4, 40, 0.18, 0.05).empty());
}

// (c) The case: a 1 mm sphere at 1 m/s with the default dt = 5 ms moves 10 radii per step; with
// dt = 1e-4 s, 0.2 radii. Free flight 20 mm above the floor: no contact needed.
BOOST_AUTO_TEST_CASE(ndem_travel_per_step) {
  const auto bad = ndem_drop(1e-3, 0.02, 1.0, NdemSettings{}.time_step, 1, 0.18);
  BOOST_TEST(has(bad, "ndem_travel_per_step"));
  BOOST_TEST(ndem_drop(1e-3, 0.02, 1.0, 1e-4, 1, 0.18).empty());
}

// SDEM: two pellets approaching at 1 m/s (relative), far apart. dt = t_c / 10 warns about the contact
// resolution; dt = t_c / 50 (docs/sdem.md's 1 % rule) is silent.
BOOST_AUTO_TEST_CASE(sdem_contact_resolution) {
  const Material m = pellet();
  const double r = pellet_d / 2;
  const double tc = sdem_contact_time(m, r, m, r, 1.0);
  for (double steps : {10.0, 50.0}) {
    RunWarnings out;
    ScopedRunWarnings scope(out);
    World w;
    w.gravity.g.setZero();
    w.add_material(m);
    w.add_sphere(Vec3(0, 0, 0), r, 0, Vec3(0.5, 0, 0));
    w.add_sphere(Vec3(0.1, 0, 0), r, 0, Vec3(-0.5, 0, 0));
    SdemSettings s;
    s.time_step = tc / steps;
    SdemStepper sdem(s);
    sdem.step(w);  // scanned after the first step
    const SdemGuardScan scan = sdem_guard_scan(w, s, out);
    BOOST_TEST(scan.steps_per_contact == steps, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(out.has("sdem_contact_resolution") == (steps < guards::sdem_min_steps_per_contact));
    BOOST_TEST(!out.has("sdem_first_touch_overlap"));
  }
}

// SDEM first-touch bound: a pellet at 10 m/s with dt = 1e-4 s closes 2 v dt = 0.16 d per step (warns);
// with dt = 1e-5 s, 0.016 d (silent, and t_c / dt = 100 at 20 m/s: no resolution warning either).
BOOST_AUTO_TEST_CASE(sdem_first_touch_overlap_bound) {
  for (double dt : {1e-4, 1e-5}) {
    RunWarnings out;
    World w;
    w.add_material(pellet());
    w.add_sphere(Vec3(0, 0, 0), pellet_d / 2, 0, Vec3(10, 0, 0));
    SdemSettings s;
    s.time_step = dt;
    const SdemGuardScan scan = sdem_guard_scan(w, s, out);
    BOOST_TEST(scan.first_touch_bound == 20 * dt / pellet_d, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(out.has("sdem_first_touch_overlap") == (dt > 5e-5));
    if (dt < 5e-5) BOOST_TEST(out.list().empty());
  }
}

// World::threads runs each step in an arena of that many threads; the result is bitwise the same.
BOOST_AUTO_TEST_CASE(thread_setting_changes_no_result) {
  auto run = [](int threads) {
    World w = floor_world(pellet());
    w.threads = threads;
    const double r = pellet_d / 2;
    for (int i = 0; i < 200; ++i) w.add_sphere(Vec3(0.02 * (i % 10), 0.02 * (i / 10 % 10), r + 0.02 * (i / 100)), r, 0);
    SdemSettings s;
    s.time_step = 1e-5;
    SdemStepper sdem(s);
    for (int k = 0; k < 300; ++k) sdem.step(w);
    return w.particles.position;
  };
  const auto one = run(1), two = run(2), unset = run(0);
  BOOST_TEST(one.size() == 200u);
  for (std::size_t i = 0; i < one.size(); ++i) {
    BOOST_TEST((one[i] == two[i]));
    BOOST_TEST((one[i] == unset[i]));
  }
}

BOOST_AUTO_TEST_SUITE_END()
