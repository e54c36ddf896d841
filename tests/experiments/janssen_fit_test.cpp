// Pressure-profile fits (experiments/janssen_fit.hpp): exact data are recovered.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <vector>

#include "experiments/janssen_fit.hpp"

using namespace grainlab;

BOOST_AUTO_TEST_SUITE(janssen_fit)

BOOST_AUTO_TEST_CASE(line_and_janssen_profiles_are_recovered) {
  std::vector<double> z, line, jan;
  for (int i = 0; i < 8; ++i) {
    z.push_back(2.5 + 5 * i);
    line.push_back(100 + 30 * z.back());
    jan.push_back(900 * (1 - std::exp(-z.back() / 8.0)));
  }
  const LineFit l = fit_line(z, line);
  BOOST_TEST(l.slope == 30.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(l.intercept == 100.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(l.r2 == 1.0, boost::test_tools::tolerance(1e-12));
  const JanssenFit j = fit_janssen(z, jan, 0.5, 1000);
  BOOST_TEST(j.lambda == 8.0, boost::test_tools::tolerance(1e-6));
  BOOST_TEST(j.p_sat == 900.0, boost::test_tools::tolerance(1e-6));
  BOOST_TEST(j.r2 == 1.0, boost::test_tools::tolerance(1e-9));
  // A saturated profile is far from a straight line.
  BOOST_TEST(fit_line(z, jan).r2 < 0.8);
  BOOST_TEST(std::isnan(fit_line(std::vector<double>{1}, std::vector<double>{2}).r2));
}

BOOST_AUTO_TEST_SUITE_END()
