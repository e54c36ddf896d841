// Paper IV rapid flows (docs/paper4_rapid.md): the tapped column of ndem_column_pulse (PGS sound speed) and the
// roller sieve of ndem_sieve, through the registry, on small cases with known physical answers.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <map>
#include <string>

#include "core/error.hpp"
#include "experiments/experiment.hpp"

using namespace grainlab;

namespace {

RunResult run(const char* name, const std::map<std::string, ParamValue>& given) {
  const Experiment& e = find_experiment(name);
  RunContext ctx;
  return e.run(e.complete(given), ctx);
}

std::map<std::string, ParamValue> short_column(std::int64_t iterations) {
  return {{"count", std::int64_t(30)}, {"settle_time", 1.5}, {"observe_time", 0.5}, {"iterations", iterations}};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(rapid_flow)

// Well converged, the tap travels at the wave speed of the resting Hertz chain (the small-amplitude sum of
// d/c_j, computed independently of the solver); under-iterated, the truncated PGS limits it well below.
// The half-amplitude arrival at a free end comes early (the end doubles the incident wave), more so in a short
// column: measured 1.41 x the Hertz speed at N_p = 30, 1.22 x at N_p = 100 (studies/paper4_sound_speed.toml).
BOOST_AUTO_TEST_CASE(converged_tap_moves_at_the_hertz_wave_speed_and_few_iterations_slow_it) {
  const RunResult converged = run("ndem_column_pulse", short_column(500));
  const double ratio = converged.metrics.at("front_speed") / converged.metrics.at("hertz_front_speed");
  BOOST_TEST(ratio > 1.0);
  BOOST_TEST(ratio < 1.6);
  const RunResult truncated = run("ndem_column_pulse", short_column(5));
  BOOST_TEST(truncated.metrics.at("front_speed") < 0.6 * converged.metrics.at("front_speed"));
  // The floor step reaches the top (a free end: the response overshoots towards 2 Delta).
  BOOST_TEST(converged.metrics.at("max_u_top_over_delta") > 1.0);
}

BOOST_AUTO_TEST_CASE(a_tap_at_or_above_the_impact_velocity_is_refused) {
  auto p = short_column(10);
  p["tap_velocity"] = 0.05;
  BOOST_CHECK_THROW(run("ndem_column_pulse", p), InputError);
}

// One small pellet on a horizontal sieve with turning rollers: through gaps wider than the pellet it is sieved;
// with gaps narrower than the pellet (and a closed tail) nothing passes.
BOOST_AUTO_TEST_CASE(pellets_pass_gaps_wider_than_themselves_only) {
  std::map<std::string, ParamValue> p{{"count", std::int64_t(1)},        {"small_fraction", 1.0},
                                      {"incline_deg", 0.0},             {"roller_count", std::int64_t(4)},
                                      {"prep_time", 0.0},               {"transient_time", 0.0},
                                      {"measure_time", 3.0},            {"iteration_ladder", std::string("10")},
                                      {"gap_first", 0.014},             {"gap_last", 0.014}};
  const RunResult open = run("ndem_sieve", p);
  BOOST_TEST(open.metrics.at("throughput_ref") > 0.0);
  p["gap_first"] = p["gap_last"] = 0.006;
  p["end_wall"] = true;
  const RunResult closed = run("ndem_sieve", p);
  BOOST_TEST(closed.metrics.at("throughput_ref") == 0.0);
}

BOOST_AUTO_TEST_CASE(bad_ladders_and_gaps_are_input_errors) {
  BOOST_CHECK_THROW(run("ndem_sieve", {{"iteration_ladder", std::string("4,2")}}), InputError);
  BOOST_CHECK_THROW(run("ndem_sieve", {{"iteration_ladder", std::string("1,x")}}), InputError);
  BOOST_CHECK_THROW(run("ndem_sieve", {{"gap_first", 0.02}, {"gap_last", 0.01}}), InputError);
}

BOOST_AUTO_TEST_SUITE_END()
