// Paper II E5 arithmetic (experiment paper2_cost, simulate = false) against the ledger's hand computations
// (../shared/claims/paper2.md E5, P8, P9), and the process-memory reader.
#include <boost/test/unit_test.hpp>

#include <vector>

#include "experiments/experiment.hpp"
#include "experiments/process_memory.hpp"

using namespace grainlab;

BOOST_AUTO_TEST_SUITE(paper2_cost)

BOOST_AUTO_TEST_CASE(statement_arithmetic_matches_the_ledger) {
  const Experiment& e = find_experiment("paper2_cost");
  RunContext ctx;
  const RunResult r = e.run(e.complete({{"simulate", false}}), ctx);
  const auto& m = r.metrics;
  const auto tol = boost::test_tools::tolerance(1e-3);
  BOOST_TEST(m.at("paper_time_per_particle_step_iteration") == 1.125e-6, tol);
  BOOST_TEST(m.at("paper_time_per_real_second_per_1k") == 2.8125, tol);
  BOOST_TEST(m.at("paper_design_run_s") == 3510.0, tol);
  BOOST_TEST(m.at("campaign_cpu_s") == 7.02e6, tol);
  BOOST_TEST(m.at("campaign_hours") == 2111.11, tol);
  BOOST_TEST(m.at("campaign_days_parallel") == 7.3302, tol);
  BOOST_TEST(m.at("mlcp_variables_per_particle") == 7.5, tol);
  BOOST_TEST(m.at("belt_particles_from_feed") == 4.4 / 1.3090e-3 * 15.6, tol);
  BOOST_TEST(m.at("rolling_equation_factor") == 1.8, tol);
  BOOST_TEST(m.at("cpu_factor_rolling_and_belt") == 6.3, tol);
  BOOST_TEST(m.at("gap_min_over_d") == 1.0, tol);
  // Four neighbours give the paper's ~6 N_p and the ledger's 5/3 rolling factor.
  const RunResult four = e.run(e.complete({{"simulate", false}, {"neighbours", 4.0}}), ctx);
  BOOST_TEST(four.metrics.at("mlcp_variables_per_particle") == 6.0, tol);
  BOOST_TEST(four.metrics.at("rolling_equation_factor") == 5.0 / 3.0, tol);
}

BOOST_AUTO_TEST_CASE(peak_memory_follows_an_allocation) {
  const auto before = read_process_memory();
  BOOST_TEST_REQUIRE(before.has_value());
  BOOST_TEST(before->peak_rss_bytes >= before->rss_bytes);
  if (!reset_peak_rss()) return;  // kernels without clear_refs: nothing more to test
  {
    std::vector<char> block(64 << 20, 1);  // 64 MiB, touched
    BOOST_TEST(block.back() == 1);
  }
  const auto after = read_process_memory();
  BOOST_TEST(after->peak_rss_bytes - before->rss_bytes > 50e6);
}

BOOST_AUTO_TEST_SUITE_END()
