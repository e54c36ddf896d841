// ContactStepStatistics (Paper III E8): fractions, maxima and split histograms from known samples.
#include <boost/test/unit_test.hpp>

#include "core/error.hpp"
#include "experiments/contact_step_statistics.hpp"

using namespace grainlab;

namespace {

io::HistogramAxis fixed(double hi, int bins) {
  io::HistogramAxis a;
  a.automatic = false;
  a.lower = 0;
  a.upper = hi;
  a.bins = bins;
  return a;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(contact_step_statistics)

BOOST_AUTO_TEST_CASE(fractions_and_maxima_of_two_steps) {
  ContactStepStatistics s({.reference_speed = 0.05, .high_speed = 1.0, .overlap_error = 0.02}, fixed(0.1, 10), fixed(1.0, 10));
  // Step 1 (v_imp = 0.05): an impact at 0.06 m/s, a fast impact at 1.5 m/s with overlap 0.3 d, a separating
  // contact, a resting one with overlap 0.03 d. Step 2 (v_imp = 0.25, a smaller dt): 0.06 m/s is continuous.
  s.add_step({0.001, 0.3, 0.005, 0.03}, {0.06, 1.5, -0.2, 0.0}, {0.05, 0.05, 0.05, 0.05});
  s.add_step({0.01, 0.015}, {0.06, 0.01}, {0.25, 0.25});
  BOOST_TEST(s.samples() == 6u);
  BOOST_TEST(s.steps() == 2u);
  BOOST_TEST(s.impact_fraction() == 2.0 / 6, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(s.above_reference_fraction() == 3.0 / 6, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(s.high_speed_fraction() == 1.0 / 6, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(s.overlap_error_fraction() == 2.0 / 6, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(s.max_overlap_over_d() == 0.3);
  BOOST_TEST(s.max_approach_speed() == 1.5);
  BOOST_TEST(s.mean_impact_speed_threshold() == (4 * 0.05 + 2 * 0.25) / 6, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(s.overlap_overflow_fraction() == 1.0 / 6, boost::test_tools::tolerance(1e-12));  // 0.3 d > 0.1 d
  BOOST_TEST(s.speed_overflow_fraction() == 1.0 / 6, boost::test_tools::tolerance(1e-12));    // 1.5 m/s
  // Speed bin 0 ([0, 0.1)): 0.06 (step 1, impact), 0.0, 0.06 (step 2, continuous), 0.01 -> 3 continuous, 1 impact;
  // the separating contact (-0.2) is underflow.
  const auto rows = s.speed_rows();
  BOOST_TEST_REQUIRE(rows.size() == 10u);
  BOOST_TEST(rows[0][0] == 0.05, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(rows[0][2] == 3.0 / 6, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(rows[0][3] == 1.0 / 6, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(rows[0][1] == 4.0 / 6, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(bad_input_names_the_parameter) {
  BOOST_CHECK_THROW(ContactStepStatistics({.reference_speed = 0.0}, fixed(0.1, 10), fixed(1, 10)), InputError);
  io::HistogramAxis automatic;
  BOOST_CHECK_THROW(ContactStepStatistics({}, automatic, fixed(1, 10)), InputError);
  ContactStepStatistics s({}, fixed(0.1, 10), fixed(1, 10));
  BOOST_CHECK_THROW(s.add_step({0.01}, {0.1, 0.2}, {0.05}), InputError);
}

BOOST_AUTO_TEST_CASE(add_histogram_requires_equal_bins) {
  io::Histogram sum;
  io::add_histogram(sum, io::make_histogram({0.1, 0.5}, fixed(1, 2)));
  io::add_histogram(sum, io::make_histogram({0.7, 2.0}, fixed(1, 2)));
  BOOST_TEST(sum.counts[0] == 1u);
  BOOST_TEST(sum.counts[1] == 2u);
  BOOST_TEST(sum.overflow == 1u);
  BOOST_CHECK_THROW(io::add_histogram(sum, io::make_histogram({0.1}, fixed(2, 2))), InputError);
}

BOOST_AUTO_TEST_SUITE_END()
