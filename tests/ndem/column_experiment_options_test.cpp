// Options of experiment ndem_column added for the contact histograms and the warm-start study: the
// histogram series stored with a run, recorded divergence (on_instability = "record") and its default
// (a diverging run fails), and their bad input.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <set>
#include <stdexcept>

#include "core/error.hpp"
#include "experiments/experiment.hpp"

using namespace grainlab;

BOOST_AUTO_TEST_SUITE(ndem_column_options)

// A resting 5-column: every sample of both histograms counts the 5 touching contacts (4 pairs + floor),
// one row per bin plus under/overflow; a fixed velocity range of +-1 mm/s holds every resting contact.
BOOST_AUTO_TEST_CASE(histogram_series) {
  const Experiment& e = find_experiment("ndem_column");
  RunContext ctx;
  const RunResult r = e.run(e.complete({{"count", std::int64_t(5)},
                                        {"duration", 1.0},
                                        {"iterations", std::int64_t(100)},
                                        {"histogram_bins", std::int64_t(8)},
                                        {"histogram_every", std::int64_t(50)},
                                        {"histogram_velocity_min", -1e-3},
                                        {"histogram_velocity_max", 1e-3}}),
                            ctx);
  BOOST_TEST(r.metrics.at("diverged") == 0.0);
  BOOST_TEST_REQUIRE(r.series.count("contact_histogram_overlap") == 1u);
  BOOST_TEST_REQUIRE(r.series.count("contact_histogram_normal_velocity") == 1u);
  for (const char* name : {"contact_histogram_overlap", "contact_histogram_normal_velocity"}) {
    const TimeSeries& s = r.series.at(name);
    BOOST_TEST(s.columns.size() == 7u);
    BOOST_TEST(s.rows.size() == 4u * (8 + 2));  // samples at steps 50, 100, 150, 200 (1 s at 5 ms)
    std::set<double> steps;
    double count = 0;
    for (const auto& row : s.rows) {
      steps.insert(row[1]);
      count += row[5];
    }
    BOOST_TEST(steps.size() == 4u);
    BOOST_TEST(count == 4.0 * 5.0);
  }
  // The last velocity sample: no under/overflow at rest.
  const auto& v = r.series.at("contact_histogram_normal_velocity").rows;
  BOOST_TEST(v[v.size() - 10][5] == 0.0);  // underflow row of the last sample
  BOOST_TEST(v.back()[5] == 0.0);          // overflow row
}

BOOST_AUTO_TEST_CASE(final_state_only_and_bad_ranges) {
  const Experiment& e = find_experiment("ndem_column");
  RunContext ctx;
  const RunResult r = e.run(e.complete({{"count", std::int64_t(3)}, {"duration", 0.2}, {"histogram_bins", std::int64_t(4)}}), ctx);
  BOOST_TEST(r.series.at("contact_histogram_overlap").rows.size() == 4u + 2u);  // every = 0: the final state
  BOOST_CHECK_THROW(e.run(e.complete({{"count", std::int64_t(3)},
                                      {"duration", 0.2},
                                      {"histogram_bins", std::int64_t(4)},
                                      {"histogram_overlap_min", 0.1},
                                      {"histogram_overlap_max", 0.0}}),
                          ctx),
                    InputError);
  // Text values outside the parameter's choices are refused by complete(), i.e. when a study loads.
  BOOST_CHECK_THROW(e.complete({{"count", std::int64_t(3)}, {"histogram_bins", std::int64_t(4)},
                                {"histogram_overlap_unit", std::string("mm")}}),
                    std::invalid_argument);
  BOOST_CHECK_THROW(e.complete({{"count", std::int64_t(3)}, {"on_instability", std::string("ignore")}}), std::invalid_argument);
}

// The Paper IV column (25 spheres, Dt = 5 ms) with the model warm start at N_it = 10 comes apart within
// 0.2 s (docs/ndem.md, "Model warm start"): by default the run fails with the diagnosis; with
// on_instability = "record" it returns diverged = 1 and NaN accuracy metrics.
BOOST_AUTO_TEST_CASE(recorded_divergence) {
  const Experiment& e = find_experiment("ndem_column");
  RunContext ctx;
  std::map<std::string, ParamValue> p{{"count", std::int64_t(25)},
                                      {"iterations", std::int64_t(10)},
                                      {"warm_start", std::string("model")},
                                      {"duration", 1.0}};
  BOOST_CHECK_THROW(e.run(e.complete(p), ctx), InstabilityError);
  p["on_instability"] = std::string("record");
  const RunResult r = e.run(e.complete(p), ctx);
  BOOST_TEST(r.metrics.at("diverged") == 1.0);
  BOOST_TEST(r.metrics.at("diverged_time") > 0.0);
  BOOST_TEST(r.metrics.at("diverged_time") < 1.0);
  BOOST_TEST(std::isnan(r.metrics.at("mean_overlap_error")));
}

BOOST_AUTO_TEST_SUITE_END()
