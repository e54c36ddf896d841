// Paper IV E3 drum measures (experiments/drum_flow_stats.hpp) on synthetic beds with known answers, the
// process-wide memo (experiments/run_memo.hpp) and the ndem_drum_flow experiment through the registry.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <cmath>
#include <vector>

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "core/math.hpp"
#include "experiments/drum_bed.hpp"
#include "experiments/drum_flow_stats.hpp"
#include "experiments/experiment.hpp"
#include "experiments/run_memo.hpp"

using namespace grainlab;

namespace {

// Spheres (d = 0.01 m) on a square lattice of spacing d in the x-z plane (three layers along the axis y),
// filling the part of a drum of radius R = 0.2 m beyond the chord at distance `surface` from the axis,
// the chord's normal tilted by `tilt` from gravity (-z) towards +x. The lattice is aligned with the
// world axes, not with the surface, so the surface is a staircase as in a real bed.
struct Bed {
  std::vector<Vec3> x, v;
  std::vector<double> r, m;
};

constexpr double R = 0.2, d = 0.01;

Bed segment_bed(double surface, double tilt) {
  const Vec3 u(std::sin(tilt), 0, -std::cos(tilt));
  Bed b;
  for (int ix = -20; ix <= 20; ++ix)
    for (int iz = -20; iz <= 20; ++iz)
      for (int iy = -1; iy <= 1; ++iy) {
        const Vec3 p(ix * d, iy * d, iz * d);
        const double rho = std::hypot(p.x(), p.z());
        if (rho > R - d / 2 || p.dot(u) < surface) continue;
        b.x.push_back(p);
        b.v.push_back(Vec3::Zero());
        b.r.push_back(d / 2);
        b.m.push_back(1.0);
      }
  return b;
}

DrumProbe probe(double omega) {
  DrumProbe p;
  p.omega = omega;
  p.radius = R;
  p.length = 0.03;
  return p;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(drum_flow)

// v_r = |v - Omega x r| / (R Omega): a rigidly co-rotating bed is all plug; a bed at rest is plug only
// within 0.15 R of the axis; the printed sign (v = r x Omega, ledger P13) halves that radius.
BOOST_AUTO_TEST_CASE(plug_fraction_uses_rigid_co_rotation) {
  const double omega = 0.25;
  const DrumProbe pr = probe(omega);
  std::vector<Vec3> x, rigid, rest, printed;
  for (int i = 0; i < 200; ++i) {
    const double s = R * (i + 0.5) / 200;  // uniform in distance from the axis
    const Vec3 p(s * std::cos(i), 0.01 * (i % 3), s * std::sin(i));
    x.push_back(p);
    rigid.push_back((omega * Vec3::UnitY()).cross(p));
    rest.push_back(Vec3::Zero());
    printed.push_back(p.cross(omega * Vec3::UnitY()));
  }
  BOOST_TEST(plug_fraction(pr, x, rigid, 0.15) == 1.0);
  BOOST_TEST(plug_fraction(pr, x, rest, 0.15) == 0.15, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(plug_fraction(pr, x, printed, 0.15) == 0.075, boost::test_tools::tolerance(1e-12));
  // The same bed measured with the printed sign: the co-rotating bed counts as moving at twice the wall speed.
  BOOST_TEST(plug_fraction(pr, x, rigid, 0.15, true) == 0.075, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(std::isnan(plug_fraction(probe(0.0), x, rest, 0.15)));
}

// The material centre of mass weighs the spheres by their masses.
BOOST_AUTO_TEST_CASE(centre_of_mass_frame_is_mass_weighted) {
  const DrumProbe pr = probe(0.25);
  const std::vector<Vec3> x{Vec3(0.1, 0, -0.1), Vec3(-0.1, 0, -0.1)};
  BOOST_TEST(drum_frame(pr, x).tilt == 0.0, boost::test_tools::tolerance(1e-12));
  const std::vector<double> m{3.0, 1.0};  // centroid (0.05, -0.1): 26.57 deg towards +x
  BOOST_TEST(drum_frame(pr, x, m).tilt == std::atan(0.5), boost::test_tools::tolerance(1e-12));
  BOOST_CHECK_THROW(drum_frame(pr, x, std::vector<double>{1.0}), std::invalid_argument);
}

// A flat free surface at 30 and 48 deg: the centre-of-mass angle and the surface fit both find it
// (the staircase of a lattice costs the fit about a degree); a level bed gives 0.
BOOST_AUTO_TEST_CASE(com_and_surface_angles_of_a_flat_segment) {
  const DrumProbe pr = probe(0.25);
  for (const double deg : {0.0, 30.0, 48.0}) {
    const Bed b = segment_bed(0.05, deg * pi / 180);
    const DrumFrame f = drum_frame(pr, b.x, b.m);
    BOOST_TEST_MESSAGE(deg << " deg: com " << f.tilt * 180 / pi << ", surface "
                           << surface_angle(pr, f, b.x, b.r, d, 0.5 * R) * 180 / pi);
    BOOST_TEST(std::abs(f.tilt * 180 / pi - deg) < 0.5);
    BOOST_TEST(std::abs(surface_angle(pr, f, b.x, b.r, d, 0.5 * R) * 180 / pi - deg) < 1.5);
  }
  // Fewer than three occupied bins: no fit.
  const Bed b = segment_bed(0.05, 0.3);
  const DrumFrame f = drum_frame(pr, b.x, b.m);
  BOOST_TEST(std::isnan(surface_angle(pr, f, b.x, b.r, d, 0.01)));
}

// The surface fit sees a bump on the surface that hardly moves the centre of mass: one sphere lifted
// well above the surface near the end of the fit window changes the fitted angle, not the COM angle.
BOOST_AUTO_TEST_CASE(surface_fit_is_sensitive_to_single_spheres) {
  const DrumProbe pr = probe(0.25);
  Bed b = segment_bed(0.05, 40 * pi / 180);
  const DrumFrame f0 = drum_frame(pr, b.x, b.m);
  const double s0 = surface_angle(pr, f0, b.x, b.r, d, 0.5 * R);
  const Vec3 t = Vec3::UnitY().cross(f0.u);
  b.x.push_back(0.09 * t + 0.0 * f0.u);  // a flying sphere 0.05 m above the surface at a = 0.09 m
  b.r.push_back(d / 2);
  b.m.push_back(1.0);
  b.v.push_back(Vec3::Zero());
  const DrumFrame f1 = drum_frame(pr, b.x, b.m);
  const double s1 = surface_angle(pr, f1, b.x, b.r, d, 0.5 * R);
  BOOST_TEST_MESSAGE("com shift " << (f1.tilt - f0.tilt) * 180 / pi << " deg, surface shift " << (s1 - s0) * 180 / pi);
  BOOST_TEST(std::abs(f1.tilt - f0.tilt) * 180 / pi < 0.2);
  BOOST_TEST(std::abs(s1 - s0) * 180 / pi > 1.0);
}

// The memo computes a key once, also when many tasks ask for it at the same time.
BOOST_AUTO_TEST_CASE(memo_computes_each_key_once) {
  std::atomic<int> calls{0};
  tbb::task_arena arena(4);
  arena.execute([&] {
    tbb::parallel_for(0, 64, [&](int i) {
      const auto v = memoized<int>(i % 2 ? "drum_flow_test/odd" : "drum_flow_test/even", [&] {
        ++calls;
        return i % 2;
      });
      BOOST_TEST(*v == i % 2);
    });
  });
  BOOST_TEST(calls.load() == 2);
}

// Fr = D Omega^2 / 2g from the setup (000 l.1683: "~ 1e-3"; ledger P4-C33: 1.66e-3 for D = 40 d, d = 13 mm).
// Paper I's convention Omega sqrt(D/2g) would give 0.041, outside the ledger's band [5e-4, 5e-3].
BOOST_AUTO_TEST_CASE(froude_number_from_the_setup) {
  const Experiment& e = find_experiment("ndem_drum_flow");
  RunContext ctx;
  const RunResult k = e.run(e.complete({{"protocol", std::string("kinematics")}}), ctx);
  BOOST_TEST(k.metrics.at("froude") == 0.52 * 0.0625 / (2 * 9.81), boost::test_tools::tolerance(1e-12));
  BOOST_TEST(std::abs(k.metrics.at("froude") - 1.66e-3) < 0.005e-3);
  BOOST_TEST(0.25 * std::sqrt(0.52 / (2 * 9.81)) > 5e-3);
  BOOST_TEST(k.metrics.at("drum_diameter") == 0.52, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(k.metrics.at("drum_width") == 0.091, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(std::isnan(k.metrics.at("plug_fraction")));
}

// A tiny drum: the run at the reference N_it is its own reference (eps_plug = 0, theta error 0, bitwise);
// history warm start with beta = 0 is bitwise the cold start (the premise of the beta = 0 perturbation).
BOOST_AUTO_TEST_CASE(branches_share_the_preparation) {
  const Experiment& e = find_experiment("ndem_drum_flow");
  RunContext ctx;
  std::map<std::string, ParamValue> m{{"count", std::int64_t(40)},      {"drum_diameter_d", 10.0},
                                      {"drum_width_d", 3.0},            {"settle_time", 0.3},
                                      {"settle_gravity_ramp", 0.1},     {"spinup_time", 0.2},
                                      {"relax_time", 0.1},              {"measure_time", 0.1},
                                      {"prep_iterations", std::int64_t(30)}, {"reference_iterations", std::int64_t(30)},
                                      {"iterations", std::int64_t(30)}};
  const RunResult ref = e.run(e.complete(m), ctx);
  BOOST_TEST(ref.metrics.at("eps_plug") == 0.0);
  BOOST_TEST(ref.metrics.at("theta_rel_error") == 0.0);
  BOOST_TEST(ref.metrics.at("particles") == 40.0);
  BOOST_TEST(ref.metrics.at("contacts") > 0.0);
  BOOST_TEST(ref.series.at("flow").rows.size() == 20u);
  m["iterations"] = std::int64_t(5);
  const RunResult cold = e.run(e.complete(m), ctx);
  BOOST_TEST(cold.metrics.at("plug_ref") == ref.metrics.at("plug_fraction"));
  m["warm_start"] = std::string("history");
  m["warm_start_beta"] = 0.0;
  const RunResult wh0 = e.run(e.complete(m), ctx);
  BOOST_TEST(wh0.metrics.at("theta_deg") == cold.metrics.at("theta_deg"));
  BOOST_TEST(wh0.metrics.at("plug_fraction") == cold.metrics.at("plug_fraction"));
  m["warm_start_beta"] = 0.85;
  const RunResult wh = e.run(e.complete(m), ctx);
  BOOST_TEST(wh.metrics.at("theta_deg") != cold.metrics.at("theta_deg"));
  auto bad = m;
  bad["diameter_small"] = 0.02;
  BOOST_CHECK_THROW(e.run(e.complete(bad), ctx), std::exception);
}

BOOST_AUTO_TEST_SUITE_END()
