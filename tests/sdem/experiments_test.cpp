// The sdem_* experiments are registered with the contract the study pipeline relies on (parameter
// and metric names), run with their defaults in well under a second each, and report metrics that
// agree with their own analytic columns (the physics itself is tested in the other files).
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <algorithm>
#include <cmath>

#include "experiments/experiment.hpp"

using namespace grainlab;

BOOST_AUTO_TEST_SUITE(sdem_experiments)

namespace {
RunResult run(const std::string& name, const std::map<std::string, ParamValue>& given = {}) {
  const Experiment& e = find_experiment(name);
  RunContext ctx;
  const auto t0 = std::chrono::steady_clock::now();
  RunResult r = e.run(e.complete(given), ctx);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  BOOST_TEST_MESSAGE(name << " ran in " << seconds << " s");  // logged, not asserted: speed is for benchmarks
  return r;
}
double rel(double a, double b) { return std::abs(a / b - 1); }
}  // namespace

BOOST_AUTO_TEST_CASE(impact_contract) {
  const RunResult r = run("sdem_impact", {{"target", std::string("wall")}, {"restitution", 0.7}});
  for (const char* m : {"peak_overlap", "peak_overlap_analytic", "peak_force", "peak_force_analytic", "contact_time",
                        "contact_time_analytic", "restitution_measured", "restitution_requested"})
    BOOST_TEST(r.metrics.count(m) == 1u, m);
  BOOST_TEST(std::abs(r.metrics.at("restitution_measured") - 0.7) < 1e-2);
  BOOST_TEST(r.metrics.at("restitution_requested") == 0.7);
  // The contact series holds the whole contact (~50 steps at dt = t_c/50) and its peak is the metric.
  const TimeSeries& series = r.series.at("contact");
  BOOST_TEST(series.rows.size() > 30u);
  double peak = 0;
  for (const auto& row : series.rows) peak = std::max(peak, row[2]);
  BOOST_TEST(peak == r.metrics.at("peak_force"));
  const RunResult elastic = run("sdem_impact");
  BOOST_TEST(rel(elastic.metrics.at("peak_force"), elastic.metrics.at("peak_force_analytic")) < 1e-2);
}

BOOST_AUTO_TEST_CASE(incline_rolling_column_contract) {
  const RunResult inc = run("sdem_incline");
  BOOST_TEST(inc.metrics.at("regime") == inc.metrics.at("regime_analytic"));
  BOOST_TEST(rel(inc.metrics.at("acceleration"), inc.metrics.at("acceleration_analytic")) < 1e-2);
  const RunResult roll = run("sdem_rolling");
  BOOST_TEST(roll.series.at("speed").rows.size() >= 100u);
  BOOST_TEST(rel(roll.metrics.at("deceleration"), roll.metrics.at("deceleration_analytic")) < 1e-2);
  const RunResult col = run("sdem_column", {{"count", std::int64_t(5)}});
  BOOST_TEST(rel(col.metrics.at("bottom_force"), col.metrics.at("weight")) < 1e-4);
  BOOST_TEST(col.metrics.at("max_overlap_error") < 1e-4);
}

BOOST_AUTO_TEST_CASE(bad_target_throws) {
  BOOST_CHECK_THROW(run("sdem_impact", {{"target", std::string("floor")}}), std::exception);
}

BOOST_AUTO_TEST_SUITE_END()
