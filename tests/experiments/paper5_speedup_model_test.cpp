// Paper V speed-up model (experiments/paper5_speedup_model.*, Eq. 38-40): against values computed by hand
// (python3, ledger ../shared/claims/paper5.md §3 "Computed table") and against its own identities.
#include <boost/test/unit_test.hpp>
#include <cmath>

#include "core/error.hpp"
#include "experiments/paper5_speedup_model.hpp"

using namespace grainlab;
using namespace grainlab::paper5;

BOOST_AUTO_TEST_SUITE(paper5_speedup_model)

constexpr double third = 1.0 / 3.0;

// The ledger's computed table (gamma = 1/3), rounded to the printed two decimals.
BOOST_AUTO_TEST_CASE(eq39_matches_the_computed_table) {
  const double h[] = {0.5, 0.7, 0.8, 0.9, 0.95};
  const double delta[] = {0.0, 0.001, 0.01, 0.1};
  const double S[5][4] = {{2.52, 2.51, 2.46, 2.01},
                          {4.98, 4.95, 4.74, 3.32},
                          {8.55, 8.48, 7.88, 4.61},
                          {21.54, 21.09, 17.73, 6.83},
                          {54.29, 51.49, 35.19, 8.44}};
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 4; ++j) BOOST_TEST(std::abs(model_speedup(h[i], delta[j], third) - S[i][j]) < 0.006);
}

BOOST_AUTO_TEST_CASE(limits) {
  BOOST_TEST(model_speedup(0.0, 0.0, third) == 1.0);             // h = 0, no overhead: no speed-up
  BOOST_TEST(model_speedup(0.0, 0.1, third) == 1.0 / 1.1);       // overhead alone slows down
  BOOST_TEST(model_speedup(1.0, 0.01, third) == 100.0, boost::test_tools::tolerance(1e-12));  // S -> 1/delta
  BOOST_TEST(std::isinf(model_speedup(1.0, 0.0, third)));
  BOOST_TEST(reduced_solve_fraction(0.0, third) == 1.0);
}

// Eq. 40's three worked overheads (000 l.2211): beta = 0.2; eps_mod = 10 eps; beta = 0.5 with eps_mod = 4 eps.
BOOST_AUTO_TEST_CASE(trial_overheads) {
  BOOST_TEST(trial_split_overhead(0.2, 1.0, third) == 0.11696, boost::test_tools::tolerance(1e-4));
  BOOST_TEST(trial_split_overhead(1.0, 0.1, third) == 0.1, boost::test_tools::tolerance(1e-14));
  BOOST_TEST(trial_split_overhead(0.5, 0.25, third) == 0.099213, boost::test_tools::tolerance(1e-4));
}

// Eq. 39: delta = alpha N_p^{-1/3} halves when N_p grows 8-fold (the claimed log-log slope -1/3).
BOOST_AUTO_TEST_CASE(contact_overhead_scaling) {
  const double d1 = contact_split_overhead(0.5, 1e3, third), d8 = contact_split_overhead(0.5, 8e3, third);
  BOOST_TEST(d1 / d8 == 2.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(d1 == 0.05, boost::test_tools::tolerance(1e-12));
}

// level_for_speedup inverts model_speedup; the ledger's "h for S = 5 is 0.701 (delta = 0), 0.712 (0.01)" and
// "S = 50 needs h = 0.968 at delta = 0.01"; S >= 1/delta is never reached.
BOOST_AUTO_TEST_CASE(inverse) {
  for (double h : {0.1, 0.5, 0.9, 0.97})
    for (double d : {0.0, 0.001, 0.01})
      BOOST_TEST(level_for_speedup(model_speedup(h, d, third), d, third) == h, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(std::abs(level_for_speedup(5.0, 0.0, third) - 0.701) < 0.001);
  BOOST_TEST(std::abs(level_for_speedup(5.0, 0.01, third) - 0.712) < 0.001);
  BOOST_TEST(std::abs(level_for_speedup(50.0, 0.01, third) - 0.968) < 0.001);
  BOOST_TEST(std::isnan(level_for_speedup(10.0, 0.1, third)));
  BOOST_TEST(std::isnan(level_for_speedup(200.0, 0.01, third)));
}

BOOST_AUTO_TEST_CASE(measured_overhead_is_the_time_ratio) {
  BOOST_TEST(measured_overhead(0.002, 0.1) == 0.02, boost::test_tools::tolerance(1e-14));
  BOOST_CHECK_THROW(measured_overhead(0.1, 0.0), InputError);
}

BOOST_AUTO_TEST_CASE(bad_input_names_the_parameter) {
  BOOST_CHECK_EXCEPTION(model_speedup(1.2, 0.0, third), InputError,
                        [](const InputError& e) { return std::string(e.what()).starts_with("h:"); });
  BOOST_CHECK_EXCEPTION(model_speedup(0.5, -0.1, third), InputError,
                        [](const InputError& e) { return std::string(e.what()).starts_with("delta:"); });
  BOOST_CHECK_EXCEPTION(trial_split_overhead(1.5, 1.0, third), InputError,
                        [](const InputError& e) { return std::string(e.what()).starts_with("beta:"); });
}

BOOST_AUTO_TEST_SUITE_END()
