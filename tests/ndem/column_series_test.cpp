// Series of experiment ndem_column for the Paper IV E1 figures: the residuals of one PGS solve
// (residual_series_time, Fig. 4) and the column height vs time (height_series_every, Fig. 2).
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <map>
#include <string>

#include "experiments/experiment.hpp"

using namespace grainlab;

namespace {

using Given = std::map<std::string, ParamValue>;

RunResult run(const Given& extra) {
  const Experiment& e = find_experiment("ndem_column");
  Given p{{"count", std::int64_t(10)},     {"duration", 2.0},           {"iterations", std::int64_t(40)},
               {"gravity", 9.81},               {"initial_overlap", 1e-5},   {"on_pass_through", std::string("stop")},
               {"warm_start", std::string("history")}};
  for (const auto& [k, v] : extra) p[k] = v;
  RunContext ctx;
  return e.run(e.complete(p), ctx);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ndem_column_series)

// Off by default: no series, no residual metrics, and the run is the same.
BOOST_AUTO_TEST_CASE(off_by_default) {
  const RunResult r = run({});
  BOOST_TEST(r.series.count("residuals") == 0u);
  BOOST_TEST(r.series.count("height") == 0u);
  BOOST_TEST(r.metrics.count("residual_normal_k0") == 0u);
  // Recording one solve's residuals and the heights only observes: eps_l is unchanged (the recorded step is
  // the last one; its residual kernels give the same multipliers up to rounding).
  const RunResult s = run({{"residual_series_time", 1.0}, {"height_series_every", std::int64_t(10)}});
  BOOST_TEST(s.metrics.at("eps_l") == r.metrics.at("eps_l"), boost::test_tools::tolerance(1e-9));
}

// One row per PGS iteration of the step starting at t = 1 s; a settled 10-column converges within the
// solve (normal residual falls, negative log slope), and the metrics are the series' own entries.
BOOST_AUTO_TEST_CASE(residual_series_of_one_solve) {
  const RunResult r = run({{"residual_series_time", 1.0}});
  BOOST_TEST_REQUIRE(r.series.count("residuals") == 1u);
  const TimeSeries& s = r.series.at("residuals");
  BOOST_TEST(s.columns.size() == 4u);
  BOOST_TEST_REQUIRE(s.rows.size() == 40u);
  BOOST_TEST(s.rows.front()[0] == 0.0);
  BOOST_TEST(s.rows.back()[0] == 39.0);
  BOOST_TEST(r.metrics.at("residual_normal_k0") == s.rows[0][1]);
  BOOST_TEST(r.metrics.at("residual_normal_k10") == s.rows[10][1]);
  BOOST_TEST(r.metrics.at("residual_normal_mid") == s.rows[20][1]);
  BOOST_TEST(r.metrics.at("residual_normal_last") == s.rows[39][1]);
  BOOST_TEST(s.rows.back()[1] < s.rows.front()[1]);
  BOOST_TEST(r.metrics.at("residual_normal_rate") < 0.0);
  // A time beyond the run records its last step.
  const RunResult late = run({{"residual_series_time", 100.0}});
  BOOST_TEST(late.series.at("residuals").rows.size() == 40u);
}

// Every 10 steps of 5 ms: 40 rows over 2 s, t = 0.05 ... 2; the last eps_l(t) is the final height's error,
// close to the run's eps_l (the mean over the last 0.2 s) once the column rests.
BOOST_AUTO_TEST_CASE(height_series) {
  const RunResult r = run({{"height_series_every", std::int64_t(10)}, {"iterations", std::int64_t(100)}});
  BOOST_TEST_REQUIRE(r.series.count("height") == 1u);
  const TimeSeries& s = r.series.at("height");
  BOOST_TEST(s.columns.size() == 3u);
  BOOST_TEST_REQUIRE(s.rows.size() == 40u);
  BOOST_TEST(s.rows.front()[0] == 0.05, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(s.rows.back()[0] == 2.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(std::abs(s.rows.back()[2] - r.metrics.at("eps_l")) < 1e-6);
  BOOST_TEST(s.rows.back()[1] < 10 * 0.013);  // compressed below the touching height
}

BOOST_AUTO_TEST_SUITE_END()
