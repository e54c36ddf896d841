// The drum analysis (experiments/drum_bed.hpp, drum_pulsation.hpp) on synthetic beds with known answers,
// and the paper1_drum experiment through the registry (geometry readings, Froude number, a tiny run).
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <vector>

#include "core/math.hpp"
#include "experiments/drum_bed.hpp"
#include "experiments/drum_pulsation.hpp"
#include "experiments/experiment.hpp"

using namespace grainlab;

namespace {

// A bed of spheres (d = 0.01 m) on a cubic lattice of spacing d filling the circular segment of a
// drum of radius R = 0.4 m below a chord at distance `surface` from the axis; the segment's symmetry
// line is tilted by `tilt` from gravity (-z) towards +x. Velocity: rigid rotation omega about +y, or
// half of it inside s < shear_below.
struct SyntheticBed {
  std::vector<Vec3> x, v;
  std::vector<double> r;
};

SyntheticBed make_bed(double surface, double tilt, double omega, double shear_below) {
  const double R = 0.4, d = 0.01;
  const Vec3 u(std::sin(tilt), 0, -std::cos(tilt));  // towards the bed
  const Vec3 t = Vec3::UnitY().cross(u);            // along the surface
  SyntheticBed b;
  for (int ia = -40; ia <= 40; ++ia)
    for (int is = 0; is < 40; ++is)
      for (int iy = 0; iy < 8; ++iy) {
        const double a = ia * d, s = (is + 0.5) * d, y = (iy - 3.5) * d;
        if (s < surface || a * a + s * s > (R - d / 2) * (R - d / 2) + 1e-12) continue;
        const Vec3 p = s * u + a * t + y * Vec3::UnitY();
        Vec3 vel = Vec3::UnitY().cross(p) * omega;
        vel -= vel.dot(Vec3::UnitY()) * Vec3::UnitY();
        if (s < shear_below) vel *= 0.5;
        b.x.push_back(p);
        b.v.push_back(vel);
        b.r.push_back(d / 2);
      }
  return b;
}

DrumProbe probe(double omega) {
  DrumProbe p;
  p.omega = omega;
  p.radius = 0.4;
  p.length = 0.08;
  return p;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(drum)

BOOST_AUTO_TEST_CASE(segment_area_and_chord) {
  BOOST_TEST(segment_area(2.0, 0.0) == 2 * pi, boost::test_tools::tolerance(1e-12));  // half disc
  BOOST_TEST(segment_chord(2.0, 0.0) == 4.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(segment_area(2.0, 2.0) == 0.0);
  // Thin segment: area -> (4/3) h sqrt(2 R h) for depth h << R.
  const double R = 40, h = 0.01;
  BOOST_TEST(segment_area(R, R - h) == 4.0 / 3.0 * h * std::sqrt(2 * R * h), boost::test_tools::tolerance(1e-3));
}

// A rigidly rotating segment bed: the frame finds its tilt, the profile its surface and depth (within
// a bin), the whole bed co-rotates (plug = depth) and its shear rate, hence I, vanishes.
BOOST_AUTO_TEST_CASE(rigid_bed_frame_surface_and_plug) {
  const double tilt = 30 * pi / 180, surface = 0.3;
  const SyntheticBed b = make_bed(surface, tilt, 0.63, 0.0);
  const DrumProbe pr = probe(0.63);
  const DrumFrame f = drum_frame(pr, b.x);
  BOOST_TEST(f.valid);
  BOOST_TEST(f.tilt == tilt, boost::test_tools::tolerance(1e-6));
  DrumProfile prof = make_profile(pr);
  accumulate_profile(pr, f, b.x, b.v, b.r, {}, prof);
  const DrumBed bed = finish_profile(pr, prof, 0.01, 1909.86);
  BOOST_TEST_MESSAGE("surface " << bed.surface << " outer " << bed.outer << " depth " << bed.depth << " plug "
                                << bed.plug << " thickness " << bed.thickness);
  BOOST_TEST(std::abs(bed.surface - surface) < 0.01);
  BOOST_TEST(std::abs(bed.outer - 0.4) < 0.006);
  BOOST_TEST(std::abs(bed.depth - 0.1) < 0.012);
  BOOST_TEST(bed.plug == bed.depth, boost::test_tools::tolerance(0.1));
  BOOST_TEST(bed.thickness == segment_area(bed.outer, bed.surface) / segment_chord(bed.outer, bed.surface),
             boost::test_tools::tolerance(1e-12));
  BOOST_TEST(std::isnan(bed.inertial_number));  // no contacts: no pressure
}

// A bed whose inner part (s < 0.36 m) moves at half the rigid speed: the plug is the outer 0.04 m.
BOOST_AUTO_TEST_CASE(plug_ends_where_the_shear_starts) {
  const SyntheticBed b = make_bed(0.3, 0.0, 0.63, 0.36);
  const DrumProbe pr = probe(0.63);
  const DrumFrame f = drum_frame(pr, b.x);
  DrumProfile prof = make_profile(pr);
  accumulate_profile(pr, f, b.x, b.v, b.r, {}, prof);
  const DrumBed bed = finish_profile(pr, prof, 0.01, 1909.86);
  BOOST_TEST(bed.plug == bed.outer - 0.36, boost::test_tools::tolerance(0.15));
  // Counter-rotation reverses x' so the same bed is still a plug.
  SyntheticBed back = b;
  for (Vec3& v : back.v) v = -v;
  const DrumProbe pb = probe(-0.63);
  DrumProfile pp = make_profile(pb);
  accumulate_profile(pb, drum_frame(pb, back.x), back.x, back.v, back.r, {}, pp);
  BOOST_TEST(finish_profile(pb, pp, 0.01, 1909.86).plug == bed.plug, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(pulsation_period_of_a_sine_and_of_noise) {
  std::vector<double> sine, noise;
  const double dt = 0.01, period = 1.0;
  unsigned state = 12345;
  for (int i = 0; i < 600; ++i) {
    sine.push_back(0.1 * i * dt + std::sin(2 * pi * i * dt / period));  // drift + pulsation
    state = state * 1103515245u + 12345u;
    noise.push_back(double((state >> 16) & 0x7fff) / 32768.0);
  }
  const PulsationStats s = pulsation_stats(sine, dt);
  BOOST_TEST(s.period == period, boost::test_tools::tolerance(0.05));
  BOOST_TEST(s.sd == 1 / std::sqrt(2.0), boost::test_tools::tolerance(0.02));
  BOOST_TEST(pulsation_stats(noise, dt).period <= 0.1);  // white noise decorrelates within a few samples
  BOOST_TEST(pulsation_stats(std::vector<double>(50, 3.0), dt).sd == 0.0);
}

// Paper I's drum: tips reading puts the tooth tips on Phi/2 with the shell further out; the base reading
// puts the shell on Phi/2 and shortens the teeth to the pitch chord (64 x 4 d do not fit on 80 d).
// Fr = omega sqrt(Phi / 2 g) = 0.127 at 0.63 rad/s (000 l.600 prints 0.13); the squared convention
// omega^2 R / g would give 0.016.
BOOST_AUTO_TEST_CASE(drum_readings_and_froude) {
  const Experiment& e = find_experiment("paper1_drum");
  RunContext ctx;
  const RunResult k = e.run(e.complete({{"protocol", std::string("kinematics")}}), ctx);
  BOOST_TEST(k.metrics.at("froude") == 0.63 * std::sqrt(0.8 / (2 * 9.8)), boost::test_tools::tolerance(1e-12));
  BOOST_TEST(std::abs(k.metrics.at("froude") - 0.13) <= 0.005);
  BOOST_TEST(std::abs(0.63 * 0.63 * 0.4 / 9.8 - 0.13) > 0.005);  // the squared convention would fail C40
  BOOST_TEST(k.metrics.at("continuation_duration") == 2 * pi / 0.63 / 3 + 3.5, boost::test_tools::tolerance(1e-12));
  const std::map<std::string, ParamValue> tiny{{"count", std::int64_t(60)}, {"prep_time", 0.2},
                                               {"continuation_time", 0.3}, {"continuation_revolutions", 0.0},
                                               {"measure_steps", std::int64_t(20)}, {"pulsation_time", 0.3},
                                               {"iterations", std::int64_t(20)}, {"prep_iterations", std::int64_t(20)}};
  auto with = [&](const char* reading) {
    auto m = tiny;
    m["diameter_reading"] = std::string(reading);
    return e.run(e.complete(m), ctx);
  };
  const RunResult tips = with("tips"), base = with("base");
  BOOST_TEST(tips.metrics.at("tip_radius") == 0.4, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(tips.metrics.at("shell_radius") > 0.41);
  BOOST_TEST(tips.metrics.at("tooth_length_used") == 0.04);
  BOOST_TEST(base.metrics.at("shell_radius") == 0.4);
  BOOST_TEST(base.metrics.at("tooth_length_used") == 0.8 * std::sin(pi / 64), boost::test_tools::tolerance(1e-8));
  BOOST_TEST(base.metrics.at("tip_radius") < 0.39);
  for (const RunResult* r : {&tips, &base}) {
    BOOST_TEST(r->metrics.at("particles") == 60.0);
    BOOST_TEST(std::isfinite(r->metrics.at("eps_c")));
    BOOST_TEST(r->metrics.at("contacts") > 0.0);
    BOOST_TEST(r->series.at("flow").rows.size() == 30u);
  }
}

// A ladder rung continues from a copy of the prepared state: the rung at the run's own N_it measures
// bitwise what the run measures; n_it_required is the smallest rung from which every larger one reaches.
BOOST_AUTO_TEST_CASE(ladder_rungs_restart_from_the_prepared_state) {
  const Experiment& e = find_experiment("paper1_drum");
  RunContext ctx;
  const std::map<std::string, ParamValue> m{{"count", std::int64_t(60)}, {"prep_time", 0.2},
                                            {"continuation_time", 0.3}, {"continuation_revolutions", 0.0},
                                            {"measure_steps", std::int64_t(20)}, {"pulsation_time", 0.3},
                                            {"iterations", std::int64_t(20)}, {"prep_iterations", std::int64_t(20)},
                                            {"iteration_ladder", std::string("5,20")}, {"threshold", 1.0}};
  const RunResult r = e.run(e.complete(m), ctx);
  const TimeSeries& ladder = r.series.at("ladder");
  BOOST_REQUIRE_EQUAL(ladder.rows.size(), 2u);
  BOOST_TEST(ladder.rows[1][0] == 20.0);
  BOOST_TEST(ladder.rows[1][1] == r.metrics.at("eps_c"));  // bitwise
  BOOST_TEST(r.metrics.at("n_it_required") == 5.0);        // threshold 1: every rung reaches
  auto strict = m;
  strict["threshold"] = 1e-9;  // no rung reaches: NaN, capped at the largest rung + 1
  const RunResult never = e.run(e.complete(strict), ctx);
  BOOST_TEST(std::isnan(never.metrics.at("n_it_required")));
  BOOST_TEST(never.metrics.at("n_it_required_capped") == 21.0);
  // A "reference" at the run's own time step and N_it repeats the main continuation bitwise: deviation 0.
  auto same = m;
  same["reference_dt"] = 0.01;
  same["reference_iterations"] = std::int64_t(20);
  same["omega"] = 0.63;
  same["count"] = std::int64_t(200);
  const RunResult twin = e.run(e.complete(same), ctx);
  BOOST_TEST(twin.metrics.at("profile_deviation_ref") == 0.0);
  auto bad = m;
  bad["iteration_ladder"] = std::string("20,5");
  BOOST_CHECK_THROW(e.run(e.complete(bad), ctx), std::exception);
}

BOOST_AUTO_TEST_SUITE_END()
